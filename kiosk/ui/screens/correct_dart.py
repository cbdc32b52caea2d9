"""Correct a dart in place (rules.md: "a dart can be corrected (replaced) in place"),
from the game menu: the board read S5 where the dart is in the 20, and the darts after
it are right. Undo would take them all back to type again; this replaces the one.

It opens on the last turn thrown (the one on the scoreboard, or the one before it after
NEXT); ``4`` and ``6`` (the arrows) go to earlier and later turns, as a misread is often
seen only once the next player has thrown. The turn's darts are numbered 1-3: the
keypad's digit (or a click) picks one, then the right dart is typed as on the
scoreboard (``3*20`` Enter) and the game is corrected in one commit
(``CricketSession.correct``): the later darts stay and are scored again. ``-``, ``/`` or
``.`` go back a step. What happens at the board meanwhile goes to the game: before a
dart is chosen, the scoreboard comes back to take it, as under any menu; once one is
chosen (the right dart being typed), the game takes it under this screen, which stays
and says what was scored ("Meanwhile"). The next player throws while the last one
corrects: bringing the scoreboard back there lost what was typed, and the rest of the
typing became a dart for the thrower.

From the results screen (``*``) a game that is over is corrected the same way: the
results go, and the scoreboard shows the corrected game, with new results when it still
ends (a new winner, perhaps) or the turn to throw when it no longer does. The board is
not listened to there, as on the results screen: the game is over until corrected.
"""

from __future__ import annotations

import time
from typing import Any

import pygame

from kiosk.adapters.keypad import KeyAction
from kiosk.domain.darts import Dart
from kiosk.ui import theme
from kiosk.ui.entry import TIMES, EntryError, dart_name, parse_entry
from kiosk.ui.screen import Click, DartInput, DartsPulled, Notice, Screen, back_to_the_match
from kiosk.ui.screens.cricket import PAD_ARROWS
from kiosk.ui.screens.menu import centred, footer
from kiosk.ui.screens.results import RESULTS_IDLE_S, back_to_attract_when_idle
from kiosk.ui.widgets import Button

TYPED_CHARS = "0123456789TDSBMI* "
MAX_TYPED = 8


class CorrectDartScreen(Screen):
    name = "correct-dart"

    def __init__(self, kiosk: Any, game_screen: Any, results: Any = None) -> None:
        super().__init__(kiosk)
        self.game_screen = game_screen
        self.results = results  # the results screen it was opened from (a game over)
        self.session = game_screen.session
        self.turns = self.session.correctable()
        self.at = len(self.turns) - 1  # the turn shown (-1: none thrown)
        self.chosen: int | None = None
        self.typed = ""
        self.message = ""
        self.confirm: tuple[int, Dart] | None = None  # a correction that wins, asked once
        self.meanwhile = ""  # what the board did while the right dart was typed
        self.slots: list[pygame.Rect] = []
        self.back_button = Button("back", "Back")
        # Earlier and later turns for the mouse (a touch screen has no 4 and 6).
        self.page_buttons = (Button("earlier", "4"), Button("later", "6"))

    def update(self, now: float) -> None:
        # Over the results, left alone as long as they may be: to the attract screen
        # (the game finished), as from the results themselves.
        if self.results is not None:
            back_to_attract_when_idle(self.kiosk, self.results.idle_since, now)

    def wake_at(self) -> float | None:
        return None if self.results is None else self.results.idle_since + RESULTS_IDLE_S

    def process_event(self, event: Any) -> None:
        if self.results is not None:
            self.results.idle_since = time.monotonic()  # (their time runs from here)
        if (
            isinstance(event, DartInput | DartsPulled)
            or (isinstance(event, Notice) and event.act)
            or (isinstance(event, KeyAction) and event.name == "next")
        ):
            # What happens at the board goes to the match, as under any menu: a dart, a
            # dart to type (one not read), the darts pulled or NEXT (the turn passes).
            # Over the results, the game is over: they go nowhere, as there.
            if self.results is not None:
                self.dirty = True  # (drawn again as it was: seen to be left alone)
                return
            if self.chosen is not None:
                self.under(event)
                return
            if isinstance(event, KeyAction):
                self.kiosk.stack.pop()
                self.game_screen.process_event(event)
            else:
                back_to_the_match(self.kiosk.stack, event)
            return
        if isinstance(event, Click):
            for n, rect in enumerate(self.slots):
                if rect.collidepoint(event.pos):
                    self.choose(n)
            if self.back_button.hit(event.pos):
                self.kiosk.stack.pop()
            elif self.chosen is None:
                for step, button in zip((-1, 1), self.page_buttons, strict=True):
                    if button.hit(event.pos):
                        self.go(step)
        elif isinstance(event, KeyAction):
            self.key(event)
        self.dirty = True

    def under(self, event: Any) -> None:
        """What the board did while the right dart is typed: to the game under this
        screen, which stays with what was typed and says what happened. A game it ends
        goes to its results (``*`` there corrects a dart)."""
        index = self.darts[self.chosen][0] if self.chosen is not None else -1
        history = len(self.session.game.history)
        self.game_screen.process_event(event)
        self.dirty = True
        if self.kiosk.stack.top is not self:
            return
        if self.session.over:
            self.kiosk.stack.pop()
            self.game_screen.say(self.t("The game is over: the correction was not made."
                                        " * on the results corrects a dart"))  # fmt: skip
            return
        self.turns = self.session.correctable()
        self.confirm = None  # (what a correction drops may have changed: asked again)
        for at, turn in enumerate(self.turns):
            for n, (i, _dart) in enumerate(turn.darts):
                if i == index:
                    self.at, self.chosen = at, n
        game = self.session.game
        if len(game.history) > history and isinstance(game.history[-1], Dart):
            thrower = self.turns[-1].player if self.turns else ""
            self.meanwhile = self.t("Meanwhile, {}: {}").format(
                thrower, dart_name(game.history[-1], self.t)
            )
        elif len(game.history) > history:
            self.meanwhile = self.t("Meanwhile: the turn passed")
        elif isinstance(event, Notice) and self.game_screen.message:
            # (what the board or the cameras said: a dart not read, to type after this)
            self.meanwhile = self.game_screen.message

    def key(self, event: KeyAction) -> None:
        name, char = event.name, event.char.upper()
        if name != "enter":
            self.confirm = None
        if name in PAD_ARROWS and event.pad and char.isdigit():
            name = "digit"  # a keypad with NumLock off: the arrow is the digit it sits on
        if name in ("undo", "menu", "cancel", "back") and not (name == "back" and self.typed):
            self.step_back()
        elif name == "back":
            self.typed = self.typed[:-1]
        elif self.chosen is None:
            if name == "digit" and char == "4":
                self.go(-1)
            elif name == "digit" and char == "6":
                self.go(1)
            elif name == "digit" and char.isdigit():
                self.choose(int(char) - 1)
        elif name == "enter":
            self.correct()
        elif name in ("digit", "char", "times") and char in TYPED_CHARS and self.room():
            self.typed += "*" if name == "times" else char
            self.message = ""

    def room(self) -> bool:
        return len(self.typed) < MAX_TYPED

    @property
    def darts(self) -> tuple[tuple[int, Dart], ...]:
        """The darts of the turn shown: (index in the game's history, dart)."""
        return self.turns[self.at].darts if self.turns else ()

    def go(self, step: int) -> None:
        if 0 <= self.at + step < len(self.turns):
            self.at += step
            self.message = ""

    def choose(self, n: int) -> None:
        if 0 <= n < len(self.darts):
            self.chosen, self.typed, self.message = n, "", ""

    def step_back(self) -> None:
        if self.typed:
            self.typed = ""
        elif self.chosen is not None:
            self.chosen = None
        else:
            self.kiosk.stack.pop()
        self.message = ""

    def correct(self) -> None:
        assert self.chosen is not None
        try:
            dart = parse_entry(self.typed)
        except EntryError as e:
            self.message = f"{self.typed.replace('*', TIMES)}: {e.shown(self.t)}"
            self.typed = ""
            return
        index, old = self.darts[self.chosen]

        def name(d: Dart) -> str:
            return dart_name(d, self.t)

        if dart == old:
            self.message = self.t("That is the dart already counted: type the right one")
            self.typed = ""
            return
        drops = self.session.correction_drops(index, dart)
        if drops and self.confirm != (index, dart):
            # It wins the game there: the darts after it go, and undo will not bring
            # them back. Asked once (a mistyped 50 for 20 would end the game).
            self.confirm = (index, dart)
            self.message = self.t(
                "{} wins with it, and the darts after it go ({}). Enter again to correct"
            ).format(self.turns[self.at].player, drops)
            return
        if self.results is not None and not drops and self.confirm != (index, dart):
            # Over the results, keys typed by habit (3*19 Enter, a dart for the
            # scoreboard) would correct a dart unseen: every correction is asked once.
            self.confirm = (index, dart)
            self.message = self.t("{}: dart {}, {} instead of {}? Enter again to correct").format(
                self.turns[self.at].player, self.chosen + 1, name(dart), name(old)
            )
            return
        doubt = self.game_screen.doubt_is_current()
        fb = self.session.correct(index, dart)
        if not fb.accepted:
            self.message = self.t(fb.message)
            self.typed = ""
            return
        self.kiosk.stack.pop()
        if self.results is not None:
            self.results.withdraw()
        said = self.t("{}: dart {} corrected, {} instead of {}").format(
            self.turns[self.at].player, self.chosen + 1, name(dart), name(old)
        )
        self.game_screen.corrected(index, fb, said, doubt)

    def draw(self, p: theme.Painter) -> None:
        p.surface.fill(theme.BG)
        u, w = p.u, p.w
        t = self.t
        centred(p, t("Correct a dart"), 7, 5, theme.ACCENT, bold=True)
        if not self.darts:
            centred(p, t("No dart thrown yet to correct"), 4.2, 40, theme.TEXT)
            footer(p, t("- back"))
            self._back(p)
            return
        turn = self.turns[self.at]
        who = t("{}'s turn").format(turn.player)
        whose = f"{who} · {t('Round')} {turn.round}"
        centred(p, whose, 4.2, 15, theme.TEXT)
        box_w, box_h, gap = 24 * u, 22 * u, 4 * u
        left = (w - len(self.darts) * box_w - (len(self.darts) - 1) * gap) / 2
        self.slots = []
        for n, (_, dart) in enumerate(self.darts):
            rect = pygame.Rect(int(left + n * (box_w + gap)), int(24 * u), int(box_w), int(box_h))
            self.slots.append(rect)
            chosen = n == self.chosen
            p.rect(rect, theme.PANEL_HI if chosen else theme.PANEL, radius=p.u)
            edge = theme.ACCENT if chosen else theme.LINE
            p.rect(rect, edge, radius=p.u, width=max(2, int((0.6 if chosen else 0.25) * u)))
            p.text(str(n + 1), 4 * u, (rect.left + 2 * u, rect.top + 1.5 * u), theme.DIM)
            p.text(
                dart_name(dart, t),
                10 * u,
                (rect.centerx, rect.centery + 2 * u),
                theme.TEXT,
                anchor="center",
                style="bold",
                max_width=rect.w * 0.86,
            )
        for button in self.page_buttons:
            button.rect = pygame.Rect(0, 0, 0, 0)  # (not there to click unless drawn)
        if self.chosen is None:
            centred(p, t("Which dart? Press its number"), 4.6, 54, theme.TEXT)
            if len(self.turns) > 1:
                centred(p, t("4 / 6: earlier / later turn"), 3.6, 63, theme.DIM)
                self._pages(p, self.slots[0].left, self.slots[-1].right)
            footer(p, t("- back"))
        else:
            ask = t("The right dart for dart {}:").format(self.chosen + 1)
            centred(p, ask, 4.6, 52, theme.TEXT)
            shown = self.typed.replace("*", TIMES) or "_"
            centred(p, shown, 10, 60, theme.ACCENT, bold=True)
            footer(p, t("keypad 3*20 Enter = T20   - back"))
        if self.meanwhile:
            centred(p, self.meanwhile, 3.6, 77, theme.TEXT)
        if self.message:
            centred(p, self.message, 3.6, 84, theme.BAD)
        self._back(p)

    def _pages(self, p: theme.Painter, left: float, right: float) -> None:
        """The earlier / later buttons either side of the darts, greyed at either end."""
        u = p.u
        bw = min(16 * u, left - 4 * u)
        labels = ("\u25c0 4", "6 \u25b6")  # the keys, in any language
        xs = (left - 2 * u - bw, right + 2 * u)
        ends = (self.at > 0, self.at < len(self.turns) - 1)
        for button, label, x, active in zip(self.page_buttons, labels, xs, ends, strict=True):
            rect = pygame.Rect(int(x), int(30 * u), int(bw), int(10 * u))
            button.draw(p, rect, label, active=active)

    def _back(self, p: theme.Painter) -> None:
        """A Back button for the mouse (a touch screen has no keypad to leave with)."""
        u = p.u
        rect = pygame.Rect(int(2 * u), int(p.h - 10 * u), int(20 * u), int(8 * u))
        self.back_button.draw(p, rect, self.t("Back"))
