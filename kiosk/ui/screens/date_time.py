"""Settings -> Date and time: set the system clock from the keypad.

For a kiosk without network time (a Pi has no battery clock: ``adapters.clock``), whose
league nights would otherwise be dated by the time it last saved. The screen shows the
clock's date and time; digits typed replace it from the left (year, month, day, hour,
minute: ``202612012030`` is 2026-12-01 20:30), ``.`` takes the last digit back (with
none typed, leaves), Enter sets the clock to what is shown (with none typed, nothing),
``/`` leaves. Offered only where the kiosk runs as the systemd service
(``bootstrap.Options.clock_setting``).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from kiosk.adapters.keypad import KeyAction
from kiosk.ui import theme
from kiosk.ui.context import BEHIND_SAVED
from kiosk.ui.i18n import fill
from kiosk.ui.screen import DartInput, Notice, Screen, back_to_the_match
from kiosk.ui.screens.menu import centred, footer

log = logging.getLogger("kiosk.ui")

DIGITS = 12  # YYYYMMDDHHMM
SHAPE = "####-##-## ##:##"
CLOSE_AFTER_SET = 1.5  # s "Clock set" stays up
# Further ahead than this, Enter asks again: a clock set to a year typed wrong (2062)
# cannot be set back from here (systemd-timesyncd saves the time and moves it forward).
CONFIRM_AHEAD = timedelta(days=2)


def shown(digits: str) -> str:
    """``digits`` (12) in the screen's shape: 2026-12-01 20:30."""
    it = iter(digits)
    return "".join(next(it) if c == "#" else c for c in SHAPE)


def parse(digits: str) -> datetime | None:
    """The moment 12 digits name, or None when they name none (month 13, 31 June)."""
    try:
        return datetime.strptime(digits, "%Y%m%d%H%M")
    except ValueError:
        return None


# The clock adapter's own reasons (English, with times in them) -> a msgid and its
# fields; timedatectl's words are shown as they are.
CLOCK_REASONS = (
    (r"it cannot go back before (?P<when>.+?): systemd-timesyncd, which saved that time,"
     r" would put it forward again",
     "it cannot go back before {when}: the time saved by network time would put it"
     " forward again"),
    (r"the clock was set, but network time is off: (?P<why>.*)",
     "the clock was set, but network time is off: {why}"),
    (r"the clock is at (?P<when>.+?) \(network time, or the time it last saved, is later\)",
     "the clock is at {when} (network time, or the time it last saved, is later)"),
    (r"timedatectl not found \(the clock is set by systemd\)",
     "timedatectl not found (the clock is set by systemd)"),
)  # fmt: skip


def said_by_clock(t: Callable[[str], str], why: str) -> str:
    """Why the clock was not set, in the kiosk's language where the reason is the
    kiosk's own."""
    for pattern, template in CLOCK_REASONS:
        found = re.fullmatch(pattern, why)
        if found is not None:
            return fill(t(template), **found.groupdict())
    return why


class DateTimeScreen(Screen):
    name = "date-time"
    idles_to_attract = True

    def __init__(self, kiosk: Any, set_clock: Callable[[datetime], str]) -> None:
        super().__init__(kiosk)
        self.set_clock = set_clock
        self.typed = ""
        self.message = ""
        self.good = False
        self.close_at: float | None = None
        self.minute = ""
        # Setting the clock runs on its own thread (systemd may take seconds): the
        # moment being set and, once done, what set_clock said.
        self.setting: datetime | None = None
        self._said: list[str] = []
        self.confirm: datetime | None = None  # asked once: Enter again sets it

    def now_digits(self) -> str:
        return datetime.now().strftime("%Y%m%d%H%M")

    def digits(self) -> str:
        """What is shown: the typed digits, then the clock's own."""
        return self.typed + self.now_digits()[len(self.typed) :]

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput) or (isinstance(event, Notice) and event.act):
            # over a match (pause menu, Settings): back to it with the dart, as a menu
            back_to_the_match(self.kiosk.stack, event)
            return
        if not isinstance(event, KeyAction) or self.close_at is not None:
            return
        if self.setting is not None and event.name not in ("menu", "cancel"):
            return  # being set: only leaving (the setting goes on, and is logged)
        self.dirty = True
        if event.name != "enter":
            self.confirm = None
        if event.name == "digit" and event.char.isdigit():
            self.message = ""
            if len(self.typed) < DIGITS:
                self.typed += event.char
        elif event.name == "back":
            self.message = ""
            if self.typed:
                self.typed = self.typed[:-1]
            else:
                self.kiosk.stack.pop()
        elif event.name in ("menu", "cancel"):
            self.kiosk.stack.pop()
        elif event.name == "enter":
            self.apply()

    def apply(self) -> None:
        if not self.typed:  # Enter alone: the clock stays as it is, to the second
            self.good, self.message = False, self.t("Type the date first")
            return
        digits = self.digits()
        moment = parse(digits)
        if moment is None:
            self.good, self.message = False, f"{self.t('Not a date')}: {shown(digits)}"
            return
        ahead = moment - datetime.now()
        if ahead > CONFIRM_AHEAD and self.confirm != moment:
            self.confirm = moment
            self.good = False
            self.message = self.t(
                "{}: ahead of the clock (days: {}). Enter again to set it"
            ).format(shown(digits), ahead.days)
            return
        saved = self.kiosk.newest_saved()
        newest = None if saved is None else saved.astimezone().replace(tzinfo=None)
        if newest is not None and moment < newest - BEHIND_SAVED and self.confirm != moment:
            # A year typed wrong the other way (2025): tonight's games would join an
            # old league night. Set it only when asked twice.
            self.confirm = moment
            self.good = False
            self.message = self.t(
                "{}: before the last game saved ({}). Enter again to set it"
            ).format(shown(digits), shown(newest.strftime("%Y%m%d%H%M")))
            return
        self.confirm = None
        self.setting, self._said = moment, []
        self.good, self.message = True, self.t("Setting the clock...")

        def work(said: list[str] = self._said) -> None:
            try:
                why = self.set_clock(moment)
            except Exception as e:  # never a crash at the bar: said on screen and logged
                log.exception("setting the clock failed")
                why = str(e) or type(e).__name__
            if why:
                log.warning("the clock was not set to %s: %s", moment, why)
            else:
                log.info("clock set by hand to %s", moment)
                self.kiosk.clock_set_by_hand = True  # also when the screen was left meanwhile
            said.append(why)

        threading.Thread(target=work, name="set-clock", daemon=True).start()

    def _done(self, why: str) -> None:
        moment, self.setting = self.setting, None
        digits = "" if moment is None else moment.strftime("%Y%m%d%H%M")
        if why:
            self.good, self.message = (
                False,
                f"{self.t('Clock not set')}: {said_by_clock(self.t, why)}",
            )
            return
        self.good, self.message = True, f"{self.t('Clock set')}: {shown(digits)}"
        self.close_at = time.monotonic() + CLOSE_AFTER_SET

    def update(self, now: float) -> None:
        if self.setting is not None and self._said:
            self._done(self._said[0])
            self.dirty = True
        minute = self.now_digits()
        if minute != self.minute:  # the clock shown moves on
            self.minute = minute
            self.dirty = True
        if self.close_at is not None and now >= self.close_at:
            self.close_at = None
            if self.kiosk.stack.top is self:
                self.kiosk.stack.pop()

    def wake_at(self) -> float | None:
        if self.close_at is not None:
            return self.close_at
        return time.monotonic() + (0.1 if self.setting is not None else 1.0)

    def draw(self, p: theme.Painter) -> None:
        t = self.t
        centred(p, t("Date and time"), 8, 6, theme.ACCENT, bold=True)
        centred(p, t("Type the date and time: year, month, day, hour, minute"), 3.4, 22,
                theme.DIM, width=0.94)  # fmt: skip
        digits = self.digits()
        centred(p, shown(digits), 12, 36, theme.TEXT, bold=True)
        n = len(self.typed)
        done = shown(self.typed + " " * (DIGITS - n)).rstrip(" -:")
        if done:  # the typed part again, underneath, so the player sees how far
            centred(p, f"{t('Typed')}: {done}", 3.4, 56, theme.ACCENT)
        if self.message:  # on two lines rather than shrunk (a reason can be long)
            px, width = 3.8 * p.u, p.w * 0.94
            lines = p.two_lines(self.message, px, width, style="bold")
            p.lines(lines, px, (p.w / 2, (72 if len(lines) == 1 else 74) * p.u),
                    theme.GOOD if self.good else theme.BAD, max_width=width, style="bold",
                    leading=1.2)  # fmt: skip
        footer(p, t("Digits replace from the left, . = delete, Enter = set the clock, / = back"))
