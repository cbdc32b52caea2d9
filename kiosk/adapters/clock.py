"""Whether the system clock can be trusted for tonight's date, and setting it by hand.

The league dates its nights (and the store stamps every game) by the system clock. A
Raspberry Pi 4 has no battery clock: it boots with the time it saved when it last ran
(``fake-hwclock``) and is put right only by network time. A kiosk in a bar without
network, unplugged at closing time, starts next week's league night on last week's
date, and its games join last week's night. The league screen asks to check the date
when ``network_time`` says no.

``network_time`` reads systemd: ``systemd-timesyncd`` (the Pi OS default) makes
``/run/systemd/timesync/synchronized`` once it has set the clock; else ``timedatectl``
gives the kernel's own flag (chrony, ntpd set it too); None when neither can tell (a
desk without systemd, a container). ``clock_source`` adds a clock set at boot from a
clock chip (``/sys/class/rtc/rtc0``: a Pi 5 with its battery, an RTC board) that still
reads what the system clock reads (one that lost power starts again from its first
day, and the time saved at shutdown moves the system clock away from it).

``set_clock`` (Settings -> Date and time) goes through ``timedatectl``, which asks
``systemd-timedated``; the kiosk's user may do that by the polkit rule
``systemd/install.sh`` writes. Network time, when on, is turned off for the moment it
takes (timedated refuses a time while it is on) and on again after, whatever happened.
timesyncd, started again, moves a clock that is behind the time it last saved (its
clock file's age) forward to it: a time before that is refused, and the clock is read
back after.
"""

from __future__ import annotations

import subprocess
import time
from datetime import datetime, timedelta
from pathlib import Path

TIMESYNCD_FLAG = Path("/run/systemd/timesync/synchronized")
RTC_AT_BOOT = Path("/sys/class/rtc/rtc0/hctosys")  # "1": the clock was set from it at boot
RTC_NOW = Path("/sys/class/rtc/rtc0/since_epoch")  # the chip's own time, seconds
RTC_AGREES_S = 3600.0  # a chip that kept time reads what the system clock reads
SHOW_TIMEOUT_S = 1.0  # timedatectl answers in milliseconds; a hung D-Bus must not hang the UI
SET_TIMEOUT_S = 10.0  # set_clock runs off the UI thread
NTP_TIMEOUT_S = 30.0  # timedated reloads systemd to turn network time on or off
TIMESYNC_CLOCK = Path("/var/lib/systemd/timesync/clock")
HELD_S = 10.0  # the clock read back this close to the time set (the calls take a moment)


def _run(*args: str, timeout: float) -> tuple[bool, str]:
    """Runs ``timedatectl`` (never asking for a password): (done, its last line)."""
    try:
        done = subprocess.run(
            ["timedatectl", *args],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError:
        return False, "timedatectl not found (the clock is set by systemd)"
    except (OSError, subprocess.SubprocessError) as e:
        return False, str(e)
    said = (done.stderr if done.returncode else done.stdout).strip().splitlines()
    return done.returncode == 0, said[-1].strip() if said else f"exit status {done.returncode}"


def _flag(path: Path) -> bool:
    try:
        return path.read_text(errors="replace").strip() == "1"
    except OSError:
        return False


def network_time() -> bool | None:
    """True: the clock was set from the network since boot; False: it was not (check
    the date); None: this system cannot tell."""
    if TIMESYNCD_FLAG.exists():
        return True
    ok, said = _run("show", "--property=NTPSynchronized", "--value", timeout=SHOW_TIMEOUT_S)
    return {"yes": True, "no": False}.get(said) if ok else None


def _rtc_kept_time() -> bool:
    """Whether a clock chip set the clock at boot and still reads what the clock reads.
    A chip without power (no battery, or a flat one) starts again from its first day;
    the time saved at shutdown (fake-hwclock, timesyncd) then moves the system clock on,
    away from the chip's."""
    if not _flag(RTC_AT_BOOT):
        return False
    try:
        chip = float(RTC_NOW.read_text(errors="replace").strip())
    except (OSError, ValueError):
        return False
    return abs(chip - time.time()) < RTC_AGREES_S


def clock_source() -> str | None:
    """Where the clock's time came from since boot: "network"; "battery" (a clock chip
    that kept time set it at boot; the caller still checks it against what it knows);
    "unset" (neither: the time saved at the last shutdown); None when this system
    cannot tell."""
    net = network_time()
    if net:
        return "network"
    if _rtc_kept_time():
        return "battery"
    return None if net is None else "unset"


def _clock_now() -> datetime | None:
    """The system clock as timedated reads it (``Tue 2026-12-01 20:30:05 CET``), local
    time; None when it cannot be read."""
    ok, said = _run("show", "--property=TimeUSec", "--value", timeout=SHOW_TIMEOUT_S)
    try:
        return datetime.strptime(" ".join(said.split()[1:3]), "%Y-%m-%d %H:%M:%S") if ok else None
    except ValueError:
        return None


def _saved_by_timesyncd() -> datetime | None:
    """The time systemd-timesyncd last saved (its clock file's age), local: when it
    starts it moves a clock that is behind it forward to it."""
    try:
        return datetime.fromtimestamp(TIMESYNC_CLOCK.stat().st_mtime)
    except (OSError, ValueError, OverflowError):
        return None


def set_clock(moment: datetime) -> str:
    """Sets the system clock to ``moment`` (local time, to the second): "" when done,
    else why not (timedatectl's words, or the time the clock came back to). Takes up to
    a minute when systemd is slow: call it off the UI thread."""
    saved = _saved_by_timesyncd()
    if saved is not None and moment < saved - timedelta(minutes=1):
        return (
            f"it cannot go back before {saved:%Y-%m-%d %H:%M}: systemd-timesyncd, which"
            " saved that time, would put it forward again"
        )
    was_on, said = _run("show", "--property=NTP", "--value", timeout=SHOW_TIMEOUT_S)
    ntp = was_on and said == "yes"
    try:
        if ntp:
            ok, said = _run("--no-ask-password", "set-ntp", "false", timeout=NTP_TIMEOUT_S)
            if not ok:
                return said
        stamp = moment.strftime("%Y-%m-%d %H:%M:%S")
        ok, said = _run("--no-ask-password", "set-time", stamp, timeout=SET_TIMEOUT_S)
        if not ok:
            return said
    finally:
        if ntp:  # as it was, whatever happened: the network puts the clock right again
            back_on, on_said = _run("--no-ask-password", "set-ntp", "true", timeout=NTP_TIMEOUT_S)
    if ntp and not back_on:
        return f"the clock was set, but network time is off: {on_said}"
    back = _clock_now()
    if back is not None and abs(back - moment) > timedelta(seconds=HELD_S):
        return (
            f"the clock is at {back:%Y-%m-%d %H:%M} (network time, or the time it last"
            " saved, is later)"
        )
    return ""
