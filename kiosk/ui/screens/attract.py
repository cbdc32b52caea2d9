"""The attract screen: the idle loop behind a bar. Any key, click or dart opens the menu."""

from __future__ import annotations

import time
from typing import Any

from kiosk.adapters.keypad import KeyAction
from kiosk.ui import theme
from kiosk.ui.screen import Click, DartInput, Screen

BLINK = 1.0  # s on, s off for "press any key"
# The attract screen stays up for hours on a bar's TV: its picture moves a little every
# minute (a few pixels, round a small square), so nothing burns into a plasma or OLED.
DRIFT_EVERY = 60.0  # s
DRIFT = ((0, 0), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
DRIFT_STEP = 1.5  # of the screen's unit (a hundredth of its height)
# A result line that would shrink below this of its size leaves out who played.
RESULT_KEEP = 0.8


class AttractScreen(Screen):
    name = "attract"

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.blink_on = True
        self.next_blink = time.monotonic() + BLINK
        self.started = time.monotonic()
        self.drift = DRIFT[0]

    def process_event(self, event: Any) -> None:
        if isinstance(event, KeyAction | Click | DartInput):
            from kiosk.ui.screens.main_menu import MainMenu

            self.kiosk.stack.push(MainMenu(self.kiosk))

    def update(self, now: float) -> None:
        drift = DRIFT[int((now - self.started) // DRIFT_EVERY) % len(DRIFT)]
        if drift != self.drift:
            self.drift, self.dirty = drift, True
        if now >= self.next_blink:
            self.blink_on = not self.blink_on
            self.next_blink = now + BLINK
            self.dirty = True

    def wake_at(self) -> float | None:
        return self.next_blink

    def draw(self, p: theme.Painter) -> None:
        u = p.u
        dx, dy = (k * DRIFT_STEP * u for k in self.drift)
        x = p.w / 2 + dx  # the middle of the screen, where the drift has it
        w = p.w - 2 * abs(dx)  # (widths: nothing pushed off the edge)
        p.text(self.t("DARTS"), 20 * u, (x, 20 * u + dy), theme.ACCENT, anchor="center",
               style="bold", max_width=w * 0.9)  # fmt: skip
        p.text(
            self.t("Cricket · League night · Formula darts"),
            4 * u,
            (x, 34 * u + dy),
            theme.TEXT,
            anchor="center",
            max_width=w * 0.9,
        )
        results = self.kiosk.results
        y = 44 * u + dy
        if results:
            p.text(self.t("Last results"), 3.6 * u, (x, y), theme.DIM, anchor="center")
            y += 6 * u
            for line in results[:5]:
                if line.winner:
                    who = f"{self.t('winners' if line.team else 'winner')} {line.winner}"
                elif line.drawn:  # not everyone: Chen, third, did not draw
                    who = f"{self.t('draw')} {' & '.join(line.drawn)}"
                elif len(line.players) == 1:  # one player with no winner lost (formula darts)
                    who = self.t("lost")
                else:  # as the end screen said: a draw, or both lost (a formula duel)
                    who = self.t("both lost") if line.all_lost else self.t("draw")
                players = " · ".join(line.players)
                detail = line.detail(self.t)
                text = f"{self.t(line.game)}: {who}  ({players})  {detail}".rstrip()
                keep = max(RESULT_KEEP * 3.4, theme.SMALL) * u
                if p.fit(text, 3.4 * u, w * 0.9) < keep:
                    # (four long names: the line shrank to 7 px; the winner read instead,
                    # or, when the result names nobody, the players without the detail)
                    named = line.winner or line.drawn
                    text = (f"{self.t(line.game)}: {who}  {detail}" if named
                            else f"{self.t(line.game)}: {who}  ({players})").rstrip()  # fmt: skip
                # (and that shortened, rather than shrunk, if still too long)
                rows, size = p.wrapped(text, 3.4 * u, w * 0.9, floor=keep, two=False)
                p.text(rows[0], size, (x, y), theme.TEXT, anchor="center", max_width=w * 0.9)
                y += 5.5 * u
        if self.blink_on:
            p.text(
                self.t("Press any key to play"),
                5.5 * u,
                (x, 88 * u + dy),
                theme.TEXT,
                anchor="center",
                style="bold",
                max_width=w * 0.9,
            )
