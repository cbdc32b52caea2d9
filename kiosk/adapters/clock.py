"""Whether the system clock was set from the network since boot.

The league dates its nights (and the store stamps every game) by the system clock. A
Raspberry Pi 4 has no battery clock: it boots with the time it saved when it last ran
(``fake-hwclock``) and is put right only by network time. A kiosk in a bar without
network, unplugged at closing time, starts next week's league night on last week's
date, and its games join last week's night. The league screen asks to check the date
when this says no.

Read from systemd: ``systemd-timesyncd`` (the Pi OS default) makes
``/run/systemd/timesync/synchronized`` once it has set the clock; otherwise
``timedatectl`` gives the kernel's own flag (chrony, ntpd set it too). None when neither
can tell (a desk without systemd, a container).
"""

from __future__ import annotations

import subprocess
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
