"""Whether the system clock was set from the network since boot.

The league dates its nights (and the store stamps every game) by the system clock. A
Raspberry Pi 4 has no battery clock: it boots with the time it saved when it last ran
(``fake-hwclock``) and is put right only by network time. A kiosk in a bar without
network, unplugged at closing time, starts next week's league night on last week's
date, and its games join last week's night. The league screen asks to check the date
when this says no.

Set by hand (``set_clock``, the Settings screen's "Date and time"): through systemd's
``timedatectl``, which asks ``systemd-timedated``; the kiosk's user may do that by the
polkit rule ``systemd/install.sh`` writes. Network time is turned off for the moment
it takes (timedated refuses a time while it is on) and on again after.

Read from systemd: ``systemd-timesyncd`` (the Pi OS default) makes
``/run/systemd/timesync/synchronized`` once it has set the clock; otherwise
``timedatectl`` gives the kernel's own flag (chrony, ntpd set it too). None when neither
can tell (a desk without systemd, a container).
"""

from __future__ import annotations

import subprocess
from datetime import datetime
from pathlib import Path

TIMESYNCD_FLAG = Path("/run/systemd/timesync/synchronized")
TIMEOUT_S = 1.0  # timedatectl answers in milliseconds; a hung D-Bus must not hang the UI


def network_time() -> bool | None:
    """True: the clock was set from the network since boot; False: it was not (check
    the date); None: this system cannot tell."""
    if TIMESYNCD_FLAG.exists():
        return True
    try:
        done = subprocess.run(
            ["timedatectl", "show", "--property=NTPSynchronized", "--value"],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    answer = done.stdout.strip() if done.returncode == 0 else ""
    return {"yes": True, "no": False}.get(answer)


def _timedatectl(*args: str) -> tuple[bool, str]:
    """Runs ``timedatectl`` (never asking for a password): (done, what it said)."""
    try:
        done = subprocess.run(
            ["timedatectl", "--no-ask-password", *args],
            capture_output=True,
            text=True,
            timeout=SET_TIMEOUT_S,
            check=False,
        )
    except FileNotFoundError:
        return False, "timedatectl not found (the clock is set by systemd)"
    except (OSError, subprocess.SubprocessError) as e:
        return False, str(e)
    said = (done.stderr or done.stdout).strip().splitlines()
    return done.returncode == 0, said[-1] if said else f"exit status {done.returncode}"


SET_TIMEOUT_S = 10.0  # timedated may be started on demand, and sets the RTC too


def set_clock(moment: datetime) -> str:
    """Sets the system clock to ``moment`` (local time, to the second): "" when done,
    else why not, in timedatectl's words."""
    _timedatectl("set-ntp", "false")  # fails where there is no network time: no matter
    ok, said = _timedatectl("set-time", moment.strftime("%Y-%m-%d %H:%M:%S"))
    _timedatectl("set-ntp", "true")  # the network puts it right again when there is one
    return "" if ok else said
