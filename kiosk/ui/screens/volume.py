"""Settings -> Volume, from the keypad alone.

In the settings list the volume only stepped up (Enter, its digit), round from 100 %
to 0: a keypad with NumLock on has no arrow to step down, so turning it down a notch
went through 80, 90 and 100 %, each with its test sound, in a quiet bar. Here ``+`` is
louder and ``-`` quieter (by ``STEP``, stopping at 0 and 100 %), a digit sets a tenth
(``0`` off, ``7`` 70 %), ``*`` full; each change plays the test sound once. Enter,
``/`` or ``.`` go back. The mouse has buttons for the same. A dart meanwhile goes to
the match, as from a menu; left alone, it gives way to the attract screen as a menu
does.
"""

from __future__ import annotations

import time
from typing import Any

import pygame

from kiosk.adapters.keypad import KeyAction
from kiosk.ui import theme
from kiosk.ui.i18n import percent
from kiosk.ui.screen import Click, DartInput, Notice, Screen, back_to_the_match
from kiosk.ui.screens.menu import (
    MENU_IDLE_S,
    centred,
    foot_message,
    footer,
    idle_back_to_attract,
    may_idle,
)
from kiosk.ui.widgets import Button

STEP = 10  # percent


class VolumeScreen(Screen):
    name = "volume"

    def __init__(self, kiosk: Any, settings: Any) -> None:
        """``settings``: the settings screen under it, whose ``set_volume(percent)``
        applies, plays the test sound and saves (its ``message``: not saved, and why)."""
        super().__init__(kiosk)
        self.settings = settings
        self.idle_since = time.monotonic()
        self.buttons = [Button("undo", "- quieter"), Button("next", "+ louder"),
                        Button("enter", "Done")]  # fmt: skip

    @property
    def volume(self) -> int:
        return int(self.kiosk.settings.volume)

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput) or (isinstance(event, Notice) and event.act):
            back_to_the_match(self.kiosk.stack, event)  # over a match: the dart on it
            return
        self.idle_since = time.monotonic()
        if isinstance(event, Click):
            for b in self.buttons:
                if b.hit(event.pos):
                    self.key(b.action)
            return
        if isinstance(event, KeyAction):
            self.key(event.name, event.digit)

    def key(self, name: str, digit: int | None = None) -> None:
        if name in ("next", "up", "right"):
            self.change(self.volume + STEP)
        elif name in ("undo", "down", "left"):
            self.change(self.volume - STEP)
        elif name == "digit" and digit is not None:
            self.change(10 * digit)
        elif name == "times":
            self.change(100)
        elif name in ("enter", "back", "menu", "cancel"):
            self.kiosk.stack.pop()

    def update(self, now: float) -> None:
        idle_back_to_attract(self.kiosk.stack, self.idle_since, now)

    def wake_at(self) -> float | None:
        return self.idle_since + MENU_IDLE_S if may_idle(self.kiosk.stack) else None

    def change(self, value: int) -> None:
        value = max(0, min(100, value))
        if value != self.volume:
            self.settings.set_volume(value)
            self.dirty = True

    def draw(self, p: theme.Painter) -> None:
        t, u = self.t, p.u
        centred(p, t("Volume"), 8, 6, theme.ACCENT, bold=True)
        language = self.kiosk.settings.language
        shown = t("off") if self.volume == 0 else percent(self.volume / 100, language)
        centred(p, shown, 14, 24, theme.TEXT, bold=True)
        # The level as a row of bars, lit up to the volume.
        bars, gap = 10, 1.2 * u
        width = min(p.w * 0.8, 120 * u)
        left, bar_w = (p.w - width) / 2, (width - (bars - 1) * gap) / bars
        for i in range(bars):
            lit = self.volume >= (i + 1) * 10
            h = (3 + 1.5 * i) * u
            rect = (left + i * (bar_w + gap), 72 * u - h, bar_w, h)
            p.rect(rect, theme.ACCENT if lit else theme.PANEL_HI)
        bw, bh = min(p.w * 0.26, 40 * u), 9 * u
        gap = (p.w - 3 * bw) / 4
        for i, b in enumerate(self.buttons):
            b.draw(p, pygame.Rect(int(gap + i * (bw + gap)), int(77 * u), int(bw), int(bh)),
                   t(b.label))  # fmt: skip
        if self.settings.message:  # the settings file could not be written
            foot_message(p, self.settings.message)
        else:
            footer(p, t("+ louder, - quieter, 0-9 = 0-90 %, * = 100 %, Enter = done"))
