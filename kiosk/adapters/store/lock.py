"""One kiosk per data folder: an exclusive ``flock`` on ``kiosk.lock`` in it.

Two kiosks on one database (the service, and ``make run`` started by hand on the same
Pi) would each resume the same game and write their darts into its one log, turn
about: after a restart the scoreboard would show a game nobody played. The second
kiosk therefore runs without saving, and says why. The lock is the kernel's: it goes
with the process (a crash, a power cut leave no stale lock), and the file keeps the
holder's process id for the message. The commands (players, league, backup) do not
take it: they are short transactions beside a running kiosk, as SQLite allows.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

LOCK_NAME = "kiosk.lock"


class DataLock:
    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    @classmethod
    def take(cls, folder: Path) -> tuple[DataLock | None, str]:
        """(the lock, "") or (None, why not): another kiosk holds it, or its process id
        cannot be written in the lock file (a full disk). A folder where
        no lock file can be made gives (None, ""): the database's own opening then says
        what is wrong with the folder."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return None, ""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            return None, (
                f"another kiosk (process {holder}) is using {folder}; two would mix their"
                " games: stop it (sudo systemctl stop darts-kiosk), and this one saves"
                " once it has stopped"
            )
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as e:
            # A full disk on the first start: the kiosk plays in memory and says so (this
            # was a traceback, and systemd's restarts every 2 s behind a dark screen).
            os.close(fd)
            return None, cannot_write(folder, e)
        return cls(fd), ""

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def cannot_write(folder: Path, e: OSError) -> str:
    """Why the lock file's process id could not be written: the banner's reason."""
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return (
            f"the disk holding {folder} is full ({e.strerror}, writing {LOCK_NAME}):"
            " free some space (the database file is not the problem)"
        )
    return f"{folder / LOCK_NAME} cannot be written: {e.strerror or e}"
