"""At start, a game left unfinished (power cut, crash, restart): Resume or Abandon.

Keypad: ``1`` or Enter resumes (also the board's NEXT button), ``2`` twice abandons
(the game is closed with no result; its events stay in the database). A formula game
of one player who has seen its digits is lost instead, as when ended from its menu
(``GameKeeper.ends_lost``): a qualification is not kept off the standings by a
restart. A dart thrown at the board resumes and counts in the game. With no answer
the game resumes by itself after ``AUTO_RESUME`` seconds: a bar's kiosk must come
back to the match it was showing. A game that cannot be rebuilt (its log does not
replay) is set aside (abandoned) with the reason on screen.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import Any

import pygame

from kiosk.adapters.keypad import KeyAction
from kiosk.ui import theme
from kiosk.ui.i18n import fill
from kiosk.ui.screen import Click, DartInput, Screen, next_second
from kiosk.ui.session import CricketSession
from kiosk.ui.widgets import Button

log = logging.getLogger("kiosk.games")

AUTO_RESUME = 30.0  # s


class ResumeScreen(Screen):
    name = "resume"

    def __init__(self, kiosk: Any, record: Any, *, wait: float | None = None) -> None:
        super().__init__(kiosk)
        self.record = record
        wait = AUTO_RESUME if wait is None else wait
        self.deadline = time.monotonic() + wait
        self.second = int(wait)
        self.confirm_abandon = False
        self.failed = ""
        self.summary = self._summary()
        # A game of formula darts alone, its digits seen, is lost if ended (as from its
        # menu): the button says so.
        self.loses = kiosk.games is not None and kiosk.games.ends_lost(record)
        end = "End game (counts as lost)" if self.loses else "Abandon"
        self.buttons = [Button("resume", "Resume"), Button("abandon", end)]

    def _summary(self) -> list[str]:
        """What the game was: kind, players, how far it got."""
        r = self.record
        t = self.t
        kind = t("Cricket") if r.kind == "cricket" else t("Formula darts")
        lines = [f"{kind}: {'  ·  '.join(r.players)}"]
        store = self.kiosk.store
        if store is None:
            return lines
        try:
            engine: Any = store.games.replay(r.id)
            inputs = len(store.games.events(r.id))
        except Exception as e:  # shown when the player tries to resume
            log.error("game %d does not replay: %s", r.id, e)
            return lines
        if r.kind == "cricket":
            lines.append(
                f"{t('Round')} {engine.round} · {engine.current_player} {t('to throw')}"
                f" · {fill(t('inputs saved: {n}'), n=inputs)}"
            )
        else:
            # As at the start of the round: a duel's first answer stays hidden.
            scores = "   ".join(f"{p}: {engine.score_before(p)}" for p in engine.players)
            lines.append(f"{t('Round')} {engine.round} · {scores}")
        lines.append(f"{t('Started')} {self._local(str(r.started_at))}")
        return lines

    # -- input -----------------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        if self.failed:
            if isinstance(event, KeyAction | Click | DartInput):
                self.kiosk.stack.pop()
            return
        if isinstance(event, DartInput):
            if self.resume():
                top = self.kiosk.stack.top
                if top is not None:
                    top.process_event(event)  # the dart counts in the resumed game
        elif isinstance(event, Click):
            for b in self.buttons:
                if b.hit(event.pos):
                    self.choose(b.action)
        elif isinstance(event, KeyAction):
            # A digit that chose is a menu's digit: an Enter right after it only confirms
            # it (``enter_confirms``), not starts the resumed game's clock, nor resumes
            # the game "2" was about to abandon. (A game that cannot be resumed stays,
            # with its reason: any key, Enter too, goes on from there.)
            if event.name == "enter" or event.name == "next" or event.char == "1":
                self.choose("resume")
                if event.char == "1" and self.kiosk.stack.top is not self:
                    self.kiosk.stack.digit_chose()
            elif event.char == "2":
                self.kiosk.stack.digit_chose()
                self.choose("abandon")
        self.dirty = True

    def choose(self, action: str) -> None:
        if action == "resume":
            self.resume()
        elif not self.confirm_abandon:
            self.confirm_abandon = True
            self.buttons[1].label = (
                "Really end the game? It counts as lost: press 2 again"
                if self.loses
                else "Really abandon? Press 2 again"
            )
        else:
            assert self.kiosk.games is not None
            lost = self.kiosk.games.abandon(self.record, self.loses)
            if lost is not None:  # (on the attract screen's list, as the end screen puts it)
                from kiosk.ui.screens.formula_end import formula_line

                self.kiosk.add_result(formula_line(lost))
            self.kiosk.stack.pop()

    def resume(self) -> bool:
        """The game's screen with the game rebuilt by replay; False if it cannot be."""
        keeper = self.kiosk.games
        assert keeper is not None
        try:
            session = keeper.resume(self.record)
        except Exception as e:
            log.error("game %d cannot be resumed: %s", self.record.id, e)
            keeper.abandon(self.record)
            self.failed = str(e)
            self.dirty = True
            return False
        if isinstance(session, CricketSession):
            from kiosk.ui.screens.cricket import CricketScreen
            from kiosk.ui.screens.formula_play import side_games_back

            self.kiosk.cricket_defaults = session.setup
            screen = CricketScreen(self.kiosk, session)
            side_games_back(self.kiosk, screen)  # (formula darts while they waited)
            self.kiosk.stack.reset(screen)
        else:
            from kiosk.ui.screens.formula_play import FormulaScreen

            self.kiosk.formula_defaults = session.setup
            self.kiosk.stack.reset(FormulaScreen(self.kiosk, session))
        return True

    # -- time ------------------------------------------------------------------------

    def update(self, now: float) -> None:
        if self.failed:
            return
        if now >= self.deadline:
            log.info("no answer: resuming game %d by itself", self.record.id)
            self.resume()
            return
        second = int(self.deadline - now + 0.999)
        if second != self.second:
            self.second = second
            self.dirty = True

    def wake_at(self) -> float | None:
        if self.failed:
            return None
        return next_second(time.monotonic(), self.deadline)

    # -- drawing ---------------------------------------------------------------------

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        t = self.t
        title = t("This game cannot be resumed") if self.failed else t("Unfinished game")
        p.text(title, 8 * u, (w / 2, 12 * u), theme.ACCENT, anchor="center", style="bold",
               max_width=w * 0.9)  # fmt: skip
        y = 26 * u
        for line in self.summary:
            p.text(line, 4.2 * u, (w / 2, y), theme.TEXT, anchor="center", max_width=w * 0.9)
            y += 7 * u
        if self.failed:
            p.text(self.failed, 3.4 * u, (w / 2, y + 4 * u), theme.BAD, anchor="center",
                   max_width=w * 0.94)  # fmt: skip
            p.text(t("It is set aside. Press any key."), 3.6 * u, (w / 2, 86 * u), theme.DIM,
                   anchor="center", max_width=w * 0.9)  # fmt: skip
            return
        labels = {
            "resume": f"1  {t('Resume')}",
            "abandon": f"2  {t(self.buttons[1].label)}",
        }
        bw = w * 0.36
        for k, b in enumerate(self.buttons):
            rect = pygame.Rect(int(w / 2 - bw - u + k * (bw + 2 * u)), int(62 * u), int(bw),
                               int(11 * u))  # fmt: skip
            b.draw(p, rect, labels[b.action])
        p.text(t("Resuming by itself in {} s").format(self.second), 3.6 * u, (w / 2, 82 * u),
               theme.DIM, anchor="center", max_width=w * 0.9)  # fmt: skip

    def _local(self, iso: str) -> str:
        """A stored time (UTC) as the kiosk's clock shows it, written as its language
        writes dates: "02.12.2026 21:40" ("2026-12-02 21:40" in English)."""
        try:
            return self.kiosk.date_time(datetime.fromisoformat(iso).astimezone())
        except ValueError:
            return iso[:16].replace("T", " ")
