"""The winner and every player's figures. Enter: rematch (the one who threw second
starts it, as legs alternate), taken ``REMATCH_GUARD_S`` after the results appeared
(the Rematch button is lit then); ``/``: menu; ``-``: undo (back to the scoreboard, the
last dart taken back: a wrong winning dart can be fixed);
``*``: correct a dart in place (a misread seen only now, in any turn: the game is
scored again, and its results come back, or the game goes on if it no longer ends),
or, when the cameras asked about the winning dart, take their other reading. Left
alone for ``RESULTS_IDLE_S``, they go to the attract screen."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any

import pygame

from kiosk.adapters.keypad import KeyAction
from kiosk.domain.cricket import CricketGame
from kiosk.domain.replay import seat_results
from kiosk.ui import theme
from kiosk.ui.context import ResultLine
from kiosk.ui.i18n import fill
from kiosk.ui.screen import Click, DartInput, Screen
from kiosk.ui.screens.results_table import COLUMNS, Row, draw_table
from kiosk.ui.screens.results_table import mark_turns_text as mark_turns_text
from kiosk.ui.widgets import Button, widths_by_need

log = logging.getLogger("kiosk.ui")

# The engine's reasons (English, with names and numbers in them) -> a msgid template
# and its fields; a team's names take the plural verb. Fields named ``how``/``why``
# are fixed English phrases, translated themselves.
REASONS = (
    (r"(?P<who>.+) owns every target (?P<how>.+)",
     "{who} owns every target {how}", "{who} own every target {how}"),
    (r"round limit \((?P<n>\d+)\) reached: a draw",
     "Round limit ({n}) reached: a draw", "Round limit ({n}) reached: a draw"),
    (r"round limit \((?P<n>\d+)\) reached: (?P<who>.+) wins on (?P<why>.+)",
     "Round limit ({n}) reached: {who} wins on {why}",
     "Round limit ({n}) reached: {who} win on {why}"),
)  # fmt: skip


def reason_text(t: Callable[[str], str], reason: str, team: bool = False) -> str:
    """The engine's reason in the player's language (English when not translated);
    ``team``: the winner is a team (the plural verb). Fields are filled in one pass, so
    a name with braces in it is shown as it is."""
    for pattern, one, plural in REASONS:
        found = re.fullmatch(pattern, reason)
        if found is None:
            continue
        fields = {k: t(v) if k in ("how", "why") else v for k, v in found.groupdict().items()}
        return fill(t(plural if team else one), **fields)
    return t(reason)


# Results left on screen this long go to the attract screen (which lists them): the
# game is finished in the store then (the league's standings and exports count it),
# not only when someone next presses a key. Time enough to undo or correct a dart.
RESULTS_IDLE_S = 600.0


# Enter on an end screen (a rematch, play again, another side game) is taken only this
# long (s) after the screen appeared. Players press Enter all game: a dart typed, a
# finished turn passed on, a formula submitted. One meant for the last dart or move
# comes a second or two after it, as the player sees it counted and reaches the key, and
# by then the end screen is up (1.5 s after Cricket's winning dart, ``FINISH_DELAY``;
# 1 s after a formula game's last move, ``END_DELAY``): it started the next game, the
# results unseen. Two seconds drop such a press up to 3-3.5 s after the last dart, where
# formula darts' ``ENTER_GUARD_S`` (0.5 s) only drops a double press or a bouncing key.
# A group that wants a rematch reads the winner and the figures first, which takes
# longer; the offer (the Rematch button lit, "Enter: play again") shows once Enter is
# taken. Undo and the correction are not held back: a bounce-out is taken back at once.
REMATCH_GUARD_S = 2.0


class RematchGuard:
    """Whether an end screen takes Enter yet (``REMATCH_GUARD_S`` after it appeared).
    ``update(now)`` from the loop moves it on (a test passes a later ``now`` rather than
    sleep; the screen redraws its offer then); a key reads it at the time it came."""

    def __init__(self) -> None:
        self.shown_at = time.monotonic()
        self.live = False

    @property
    def live_at(self) -> float:
        return self.shown_at + REMATCH_GUARD_S

    def update(self, now: float) -> bool:
        """True when Enter has just become taken (the offer is to be drawn)."""
        if self.live or now < self.live_at:
            return False
        self.live = True
        return True

    def taken(self, screen: str) -> bool:
        """An Enter now starts the next game; else it is dropped, and logged."""
        now = time.monotonic()
        self.update(now)
        if not self.live:
            log.info("keys: Enter %.2f s after the %s screen appeared, not taken (meant for "
                     "the game just over)", now - self.shown_at, screen)  # fmt: skip
        return self.live

    def seen(self) -> None:
        """The screen has been read (``Screen.seen``): Enter is taken from now."""
        self.live = True

    def wake_at(self) -> float | None:
        return None if self.live else self.live_at


def back_to_attract_when_idle(kiosk: Any, idle_since: float, now: float) -> None:
    if now - idle_since >= RESULTS_IDLE_S and len(kiosk.stack) > 1:
        kiosk.stack.reset(kiosk.stack.screens()[0])


def places(game: Any, players: tuple[str, ...]) -> dict[str, int]:
    """Each player's place: a team shares its place, and so do sides level on what ranks them
    (as the league records it, ``seat_results``)."""
    try:
        return {players[r.seat]: r.placement for r in seat_results(game, players)}
    except (ValueError, KeyError, IndexError):
        return {}


def cricket_line(game: CricketGame) -> ResultLine:
    """A Cricket game that is over, as the attract screen's last results say it."""
    outcome = game.outcome()
    players = tuple(game.players)
    won_by = tuple(outcome.won_by) if outcome else ()
    drawn: tuple[str, ...] = ()
    if outcome is not None and not won_by:
        level = places(game, players)
        drawn = tuple(p for p in players if level.get(p) == 1)
        drawn = drawn if 1 < len(drawn) < len(players) else ()
    return ResultLine("Cricket", " & ".join(won_by) or None, players,
                      team=len(won_by) > 1, drawn=drawn)  # fmt: skip


class ResultsScreen(Screen):
    name = "results"

    def __init__(self, kiosk: Any, game_screen: Any, note: str = "") -> None:
        super().__init__(kiosk)
        self.game_screen = game_screen
        # What made these results (a correction: "dart 3 corrected, ..."; the cameras'
        # question on the winning dart), or how to correct one.
        self.note = note
        self.session = game_screen.session
        game = self.session.game
        outcome = game.outcome()
        self.outcome = outcome
        self.winner = outcome.winner if outcome else None
        winners = outcome.won_by if outcome else ()
        self.winner_text = " & ".join(winners)
        self.team_won = len(winners) > 1
        self.places = places(game, tuple(game.players))
        self.line = cricket_line(game)
        kiosk.add_result(self.line)
        self.idle_since = time.monotonic()
        self.rematch = RematchGuard()
        self.buttons = [
            Button("enter", "Rematch"),
            Button("menu", "Menu"),
            Button("undo", "Undo"),
            Button("times", "Correct a dart"),
        ]

    def update(self, now: float) -> None:
        if self.rematch.update(now):
            self.dirty = True  # (the Rematch button lit)
        back_to_attract_when_idle(self.kiosk, self.idle_since, now)

    def wake_at(self) -> float | None:
        idle = self.idle_since + RESULTS_IDLE_S
        return min(idle, self.rematch.wake_at() or idle)

    def seen(self) -> None:
        self.rematch.seen()
        self.dirty = True

    def process_event(self, event: Any) -> None:
        self.idle_since = time.monotonic()
        if isinstance(event, Click):
            for b in self.buttons:
                if b.hit(event.pos):
                    self.key(KeyAction(b.action))
        elif isinstance(event, KeyAction):
            self.key(event)
        elif isinstance(event, DartInput):
            # Players starting the next leg by throwing: the dart does not count, and
            # the screen says how to start one, rather than nothing at all.
            self.note = self.t("The game is over: that dart does not count. Enter: rematch")
            self.dirty = True

    def key(self, event: KeyAction) -> None:
        from kiosk.ui.screens.cricket_menu import start_cricket
        from kiosk.ui.screens.main_menu import MainMenu

        if event.name == "enter":
            if self.rematch.taken(self.name):
                start_cricket(self.kiosk, self.session.setup.rematch())
        elif event.name in ("menu", "cancel", "back"):
            self.kiosk.stack.reset(MainMenu(self.kiosk))
        elif event.name == "undo":
            self.withdraw()
            self.game_screen.undo()
        elif event.name == "times" and self.game_screen.doubt_is_current():
            # The cameras' question on the winning dart (its note says "Press * for
            # S5"): * takes the other reading, as on the scoreboard.
            self.withdraw()
            self.game_screen.take_doubt()
        elif event.name == "times":
            from kiosk.ui.screens.correct_dart import CorrectDartScreen

            self.kiosk.stack.push(CorrectDartScreen(self.kiosk, self.game_screen, self))
        elif event.name == "next":  # the board's NEXT, as a dart: a rematch is Enter
            self.note = self.t("The game is over: Enter starts a rematch")
            self.dirty = True
        elif event.name in ("digit", "char"):
            # A dart typed by habit, as on the scoreboard: the game is over; say how
            # a dart is corrected now, rather than nothing.
            self.note = self.t("The game is over: * corrects a dart")
            self.dirty = True

    def withdraw(self) -> None:
        """The game is changed under these results (undo, a correction): they go, off
        the attract screen's list too; the scoreboard shows the new results when due."""
        if self.line in self.kiosk.results:
            self.kiosk.results.remove(self.line)
        if self.kiosk.stack.top is self:
            self.kiosk.stack.pop()

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        t = self.t
        wins = t("win!") if self.team_won else t("wins!")
        title = f"{self.winner_text} {wins}" if self.winner_text else t("Draw!")
        if not self.winner_text and self.line.drawn:  # (some drew, the others below)
            title = f"{t('Draw')}: {' & '.join(self.line.drawn)}"
        p.text(
            title,
            12 * u,
            (w / 2, 11 * u),
            theme.ACCENT,
            anchor="center",
            style="bold",
            max_width=w * 0.94,
        )
        if self.outcome is not None:
            p.text(
                reason_text(t, self.outcome.reason, self.team_won),
                3 * u,
                (w / 2, 21 * u),
                theme.DIM,
                anchor="center",
                max_width=w * 0.94,
            )
        game = self.session.game
        placings = list(getattr(self.outcome, "placings", ()) or game.players)
        rows = []
        for r, player in enumerate(placings):
            stats = game.stats(player)  # each player's own, in a team game too
            figures = [value(stats) for _, value, _ in COLUMNS]
            rows.append(Row(
                f"{self.places.get(player, r + 1)}. {player}",
                tuple(f if isinstance(f, str) else self.number(f, n)
                      for f, (_, _, n) in zip(figures, COLUMNS, strict=True)),
                self.outcome is not None and player in self.outcome.won_by,
            ))  # fmt: skip
        # no-score: a column of 0s said nothing
        no_points = "Points" if getattr(self.session.setup, "variant", "") == "no-score" else ""
        bottom = draw_table(p, [t(label) for label, _, _ in COLUMNS], rows, 28 * u, no_points)
        if game.teams:  # the MPR the scoreboard showed all game: the team's
            sides = " \u00b7 ".join(
                f"{' & '.join(team)} {self.number(game.side_stats(team[0]).mpr, 2)}"
                for team in game.teams
            )
            p.text(f"{t('Team MPR')}: {sides}", 3 * u, (w / 2, bottom + 2 * u),
                   theme.DIM, anchor="center", max_width=w * 0.94)  # fmt: skip
        if self.note:
            p.text(self.note, 3 * u, (w / 2, 82.5 * u), theme.ACCENT, anchor="center",
                   style="bold", max_width=w * 0.94)  # fmt: skip
        labels = {
            "enter": t("Rematch (Enter)"),
            "menu": t("Menu (/)"),
            "undo": t("Undo (-)"),
            "times": t("Correct a dart (*)"),
        }
        # Each button as wide as its label needs, the room left shared out.
        room = w * 0.94 - (len(self.buttons) - 1) * u
        widths = widths_by_need([Button.need(p, labels[b.action], 9 * u) for b in self.buttons],
                                room)  # fmt: skip
        left = w * 0.03
        for b, bw in zip(self.buttons, widths, strict=True):
            rect = pygame.Rect(int(left), int(86 * u), int(bw), int(9 * u))
            # (Rematch greyed until Enter is taken: ``REMATCH_GUARD_S``)
            b.draw(p, rect, labels[b.action], active=b.action != "enter" or self.rematch.live)
            left += bw + u
