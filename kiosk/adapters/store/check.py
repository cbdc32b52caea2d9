"""The start's look for a damaged database file, made while the kiosk is already up.

``PRAGMA quick_check`` reads every page of the file: 0.25 s on a year of league play
here, 1.9 s on 50,000 games (``bench/league.py``), several times that on a Pi's SD
card. The kiosk used to wait for it before its first frame. Now it runs on its own
connection in a thread started with the devices, as the attract screen comes up, and
a finding reaches the loop as a ``StoreDamaged`` event (its banner says to back the
file up) and the log. (While it reads, a checkpoint copies only what was written
before it began: a game finished in those seconds is copied at the next.)
A damaged page still fails the lookups that touch it, checked or not: the check only
tells, it mends nothing.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("kiosk.store")


@dataclass(frozen=True, slots=True)
class StoreDamaged:
    """The quick check's first finding on the file at ``path``."""

    path: str
    finding: str


def quick_check(conn: sqlite3.Connection) -> str:
    """ "" when ``PRAGMA quick_check`` finds the file sound, else its first finding
    (a damaged page: the file opens and most of it reads, but some lookups fail)."""
    try:
        found = str(conn.execute("PRAGMA quick_check(1)").fetchone()[0])
    except sqlite3.DatabaseError as e:
        return str(e)
    return "" if found == "ok" else found


class DamageCheck:
    """``quick_check`` of the file at ``path`` in a thread; ``report`` gets a
    ``StoreDamaged`` if it finds anything (from that thread: an ``Inbox.put``)."""

    def __init__(self, path: Path, report: Callable[[StoreDamaged], None]) -> None:
        self.path = path
        self._report = report
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="store-check", daemon=True)

    def start(self) -> DamageCheck:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Cut the check short (the kiosk is closing) and wait for its thread. An
        interrupt reaches only a statement already running: one that lands between the
        connection and the check's start is lost, so it is said again until the thread
        ends."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._stopped = True
        if self._thread.ident is None:  # never started
            return
        while self._thread.is_alive() and time.monotonic() < deadline:
            with self._lock:
                if self._conn is not None:
                    self._conn.interrupt()  # the one sqlite3 call made for another thread
            self._thread.join(0.05)

    def _run(self) -> None:
        try:
            with self._lock:
                if self._stopped:
                    return
                self._conn = sqlite3.connect(self.path, isolation_level=None)
            finding = quick_check(self._conn)
        except sqlite3.Error as e:
            finding = str(e)
        finally:
            with self._lock:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
        if self._stopped:  # "interrupted": the check did not finish, and found nothing
            return
        if finding:
            log.error(
                "the database %s is damaged (%s): the kiosk goes on (what cannot be"
                " saved is said on screen); copy it now (darts-kiosk backup FILE) and"
                " restore the last good backup (the kiosk stopped, its -wal and -shm"
                " files removed first: README, Players, league and backups over SSH)",
                self.path,
                finding,
            )
            self._report(StoreDamaged(str(self.path), finding))
        else:
            log.info("the database %s passed its quick check", self.path)
