"""Settings -> Volume, from the keypad alone.

In the settings list the volume only stepped up (Enter, its digit), round from 100 %
to 0: a keypad with NumLock on has no arrow to step down, so turning it down a notch
went through 80, 90 and 100 %, each with its test sound, in a quiet bar. Here ``+`` is
louder and ``-`` quieter (by ``STEP``, stopping at 0 and 100 %), a digit sets a tenth
(``0`` off, ``7`` 70 %), ``*`` full; each change plays the test sound once. Enter,
``/`` or ``.`` go back. A dart meanwhile goes to the match, as from a menu.
"""

from __future__ import annotations

from typing import Any

from kiosk.adapters.keypad import KeyAction
from kiosk.ui import theme
from kiosk.ui.i18n import percent
from kiosk.ui.screen import DartInput, Notice, Screen, back_to_the_match
from kiosk.ui.screens.menu import centred, footer

STEP = 10  # percent


class VolumeScreen(Screen):
    name = "volume"

    def __init__(self, kiosk: Any, settings: Any) -> None:
        """``settings``: the settings screen under it, whose ``set_volume(percent)``
        applies, plays the test sound and saves (its ``message``: not saved, and why)."""
        super().__init__(kiosk)
        self.settings = settings

    @property
    def volume(self) -> int:
        return int(self.kiosk.settings.volume)

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput) or (isinstance(event, Notice) and event.act):
            back_to_the_match(self.kiosk.stack, event)  # over a match: the dart on it
            return
        if not isinstance(event, KeyAction):
            return
        name = event.name
        if name in ("next", "up", "right"):
            self.change(self.volume + STEP)
        elif name in ("undo", "down", "left"):
            self.change(self.volume - STEP)
        elif name == "digit" and event.digit is not None:
            self.change(10 * event.digit)
        elif name == "times":
            self.change(100)
        elif name in ("enter", "back", "menu", "cancel"):
            self.kiosk.stack.pop()

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
        if self.settings.message:  # the settings file could not be written
            centred(p, self.settings.message, 3.2, 80, theme.BAD, width=0.94)
        footer(p, t("+ louder, - quieter, 0-9 = 0-90 %, * = 100 %, Enter = done"))
