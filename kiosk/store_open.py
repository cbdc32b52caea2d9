"""Opening the games database (``kiosk.sqlite3``), and looking after it while the kiosk
runs: why it cannot be opened or written, said plainly (``why_not_saved``); another
program holding it, waited for and tried again; the file deleted or replaced under the
kiosk (``StoreWatch``). ``bootstrap`` builds the kiosk with these.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import logging
import os
import pwd
import re
import shutil
import sqlite3
import stat
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.bootstrap import Running

log = logging.getLogger("kiosk")


STORE_WAIT_S = 5.0  # at start, a database another program holds is tried this long
STORE_RETRY_S = 15.0  # then again this often, while no game is in play, and at a game's start


def open_store(path: Path, wait: float | None = None) -> tuple[Any, str]:
    """(Store, "") or (None, why not): a missing directory is made; a file that is not
    a database, too new, or cannot be written is refused, never overwritten. A file
    another program holds (a command's transaction) is tried again for ``wait`` s
    (default ``STORE_WAIT_S``): refused at once, saving was off for the whole night."""
    store, why, _busy = open_waiting(path, wait)
    return store, why


def open_waiting(path: Path, wait: float | None = None) -> tuple[Any, str, bool]:
    """``open_store``, and whether the file was still held by another program."""
    from kiosk.adapters.store import schema

    deadline = time.monotonic() + (STORE_WAIT_S if wait is None else wait)
    tries = 0
    while True:
        store, why, busy = _open_store(path, schema.KIOSK_BUSY_TIMEOUT_S)
        tries += 1
        if store is not None or not busy or time.monotonic() >= deadline:
            if store is not None and tries > 1:
                log.info("the database was let go: opened after %d tries", tries)
            return store, why, busy
        if tries == 1:
            log.warning("another program holds the database (%s): trying again", why)
        time.sleep(0.2)


def _open_store(path: Path, busy_timeout: float, tell_kept: bool = True) -> tuple[Any, str, bool]:
    """(Store, "", False) or (None, why not, whether another program held the file).
    ``tell_kept``: an unfinished game in a file that cannot be written is logged."""
    from kiosk.adapters.store import Store

    try:
        store = Store.open(path, busy_timeout=busy_timeout)
    except Exception as e:
        return None, why_not_saved(path, e), is_busy(e)
    try:
        write_check(store.db.conn)
    except Exception as e:
        why = why_not_saved(path, e)
        if tell_kept and not is_busy(e):
            _unfinished_kept(store)
        store.close()
        return None, why, is_busy(e)
    return store, "", False


def is_busy(e: BaseException | None) -> bool:
    """SQLite's "database is locked": another connection holds the write lock (also
    under the store's own error, which keeps SQLite's as its cause)."""
    while e is not None:
        if getattr(e, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return True
        e = e.__cause__
    return False


def write_check(conn: sqlite3.Connection) -> None:
    """Raises what SQLite says if this connection cannot write the database. A file the
    kiosk's user may read but not write (``sudo cp`` of a backup: root's, 0644), or
    its ``-wal`` or ``-shm`` so, SQLite opens read-only without a word; ``BEGIN
    IMMEDIATE`` then takes no write lock and fails nothing, and every dart after is
    refused. So a write, taken back: ``user_version`` set to the value it has (page 1
    changed in this transaction only; the rollback leaves the file as it was)."""
    from kiosk.adapters.store.schema import user_version

    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version = {user_version(conn)}")
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def _unfinished_kept(store: Any) -> None:
    """Logs the unfinished game kept in a database the kiosk may not write: not offered
    (its darts could not be saved), and offered again once the file is put right."""
    try:
        record = store.unfinished_game()
    except Exception:
        return
    if record is not None:
        log.warning(
            "unfinished game %d (%s) is kept in the database, not offered: it is offered"
            " again at the first start that can save its darts",
            record.id,
            record.kind,
        )


# SQLite's words for a file it could not write or open, whatever the file holds.
_DISK_TROUBLE = ("unable to open", "disk i/o error", "disk is full", "readonly", "read-only")
FULL_BYTES = 1 << 20  # less free space than this is a full disk


def why_not_saved(
    path: Path, e: BaseException, *, free: int | None = None, writable: bool | None = None
) -> str:
    """What the banner and the log say when the database cannot be used. SQLite calls a
    healthy file on a read-only or full disk "not a usable database: unable to open" or
    "disk I/O error"; said so, an owner could delete a good database. ``free`` and
    ``writable`` (of the folder) are measured when not given."""
    text = f"{path}: {e}"
    if not any(word in str(e).lower() for word in _DISK_TROUBLE):
        return text
    folder = path.parent
    if free is None:
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            free = None
    if writable is None:
        writable = _folder_writable(folder)
    if free is not None and free < FULL_BYTES:
        return (f"the disk holding {folder} is full ({free // 1024} KB free): free some"
                " space (the database file is not the problem)")  # fmt: skip
    if not writable:
        return (f"{folder} cannot be written (a read-only disk, or the folder is not the"
                " kiosk's): the database file is not the problem")  # fmt: skip
    if any(word in str(e).lower() for word in ("readonly", "read-only")):
        return _read_only_file(path, e)
    return text


def _folder_writable(folder: Path) -> bool:
    """Whether a file can be made in ``folder`` (one not there yet: not the problem).
    Tried, not only asked: a card ext4 made read-only after an error ("emergency_ro")
    answers access() and statvfs() as writable, and refuses every write."""
    if not folder.is_dir():
        return True
    if not os.access(folder, os.W_OK | os.X_OK, effective_ids=True):
        return False
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return e.errno not in (errno.EROFS, errno.EACCES, errno.EPERM)
    return True


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _read_only_file(path: Path, e: BaseException) -> str:
    """A database SQLite opened read-only in a folder the kiosk may write: the file, or
    its ``-wal`` or ``-shm``, is not the kiosk user's to write (``sudo cp`` of a
    backup leaves it root's). Named, with its owner and mode: the disk is not full nor
    read-only, and the file is not damaged."""
    me = _user(os.geteuid())
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            st = each.stat()
        except OSError:
            continue
        if not os.access(each, os.W_OK, effective_ids=True):
            return (
                f"{each} cannot be written by {me}, the user the kiosk runs as (it is"
                f" {_user(st.st_uid)}'s, mode {stat.S_IMODE(st.st_mode):04o}), so SQLite"
                f" opened the database read-only: give the files back to {me} (sudo chown"
                f" {me}: {path}*) or check their permissions; the database is not damaged"
            )
    return (
        f"{path} cannot be written by {me}, the user the kiosk runs as ({e}): check the"
        " owner and permissions of it and its -wal and -shm files"
    )


KEPT = re.compile(r"\.kept-\d{8}-\d{6}")  # after the database's name: a copy gone on in


def kept_copies(path: Path) -> list[Path]:
    """The copies beside the database ``path`` that an earlier run went on in (its file
    deleted or replaced while open, ``StoreWatch``), oldest first: their games are not
    in the database until one is put in its place. Each is made whole first (opened: a
    commit a power cut cut short is rolled back from its journal), and logged with what
    to do."""
    found = sorted(
        p
        for p in path.parent.glob(f"{path.name}.kept-*")
        if KEPT.fullmatch(p.name[len(path.name) :])
    )
    for copy in found:
        try:
            with contextlib.closing(sqlite3.connect(copy, isolation_level=None)) as conn:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as e:
            log.warning("%s could not be opened to make it whole: %s", copy, e)
        log.error(
            "%s holds games an earlier run kept when %s was deleted or replaced; they are"
            " not in the games database. To go on with them: stop the kiosk (sudo"
            " systemctl stop darts-kiosk), put the copy in place of %s (remove %s-wal and"
            " %s-shm), start it. To keep the database as it is: move the copy out of %s",
            copy,
            path.name,
            path.name,
            path.name,
            path.name,
            path.parent,
        )
    return found


STORE_LOOK_S = 60.0  # how often the database's files are looked at (deleted, replaced?)


class StoreWatch:
    """The database, looked after from the display loop (``tick``, every pass: cheap)
    and at each game's start (``GameKeeper.before_start``):

    - a database that could not be opened or written at the start is tried again,
      every ``STORE_RETRY_S`` while no game is in play (a game played in memory stays
      so: it is not split between memory and the file): another program let it go, its
      owner or mode put right, space freed on the disk, another kiosk stopped, a backup
      put in place of a damaged file; saving then comes back with no restart, and the
      unfinished game kept in it is offered. A new reason is said again, the same one
      not;
    - the open database's files are looked at after anything is saved (before the
      screen shows it), every ``STORE_LOOK_S`` and at the end: deleted or replaced
      while open (``Store.file_moved``), the kiosk had gone on committing into a file
      the next start does not see. Now it lets that file go and goes on in a whole
      copy of it beside the path (``kiosk.sqlite3.kept-<time>``, ``Store.detach``):
      the game in play, its undo and its result go on as they were, and every input
      is saved in the copy as it was in the file, so a power cut loses nothing. Never
      over the file now at the path, which may be a backup put there on purpose. The
      banner and the log say so; the next start says so too while the copy is there
      (``kept_copies``). (A copy that cannot be made: on in memory, copied again after
      each input. The copy deleted too: on in another, made from the one still open;
      an input refused meanwhile, "Not saved", makes the kiosk look at once.)"""

    def __init__(self) -> None:
        self.running: Running | None = None
        self.retry = False
        self.moved = ""  # what became of the database's files ("" while all is well)
        self.kept: Path | None = None  # the copy the kiosk goes on in
        self.let_go = False  # the moved file let go (``detach``)
        self.path: Path | None = None  # the database's own path, once it has moved
        self._kept_changes = -1
        self._looked_changes = -1  # the connection's changes at the last look
        self._next = 0.0

    def tick(self, now: float) -> None:
        if self.running is not None and self.running.offer_pending:
            self.running.offer_when_free()  # (cheap: a flag, then the top screen's name)
        if self.running is None:
            return
        running = self.running
        if self.retry:
            if now >= self._next:
                self._next = now + STORE_RETRY_S
                if running.kiosk.games is not None and not running.kiosk.games.open:
                    self._try_again(running)
            return
        # (an input refused, "Not saved": the file it went into may have gone)
        games = running.kiosk.games
        refused = bool(running.kiosk.save_problem or (games is not None and games.failure()))
        if now >= self._next or refused or self._changes() != self._looked_changes:
            self._next = now + STORE_LOOK_S
            self.look()

    def _changes(self) -> int:
        """The rows the kiosk's connection has changed so far (cheap: a counter)."""
        store = None if self.running is None else self.running.store
        return -1 if store is None else int(store.db.conn.total_changes)

    def at_game_start(self) -> None:
        if self.running is None:
            return
        if self.retry:
            self._try_again(self.running)
        else:
            self.look()

    def look(self) -> None:
        """Whether the database's files are still at its path; if not, said, and the
        kiosk goes on in a copy."""
        running = self.running
        store = None if running is None else running.store
        if store is None or running is None:
            return
        if self.let_go and store.path is not None and self._moved(store):
            # The copy gone on in was deleted too (a clean-up of kiosk.sqlite3*): SQLite
            # refuses to write a moved file, so every input would be refused. On in a
            # new copy, made from the one still open.
            self.moved, self.let_go = "", False
        if not self.moved:
            self._looked_changes = self._changes()
            self.moved = self._moved(store)
            if not self.moved:
                return
            path = self.path = self.path or store.path
            self.kept = path.with_name(f"{path.name}.kept-{datetime.datetime.now():%Y%m%d-%H%M%S}")
            log.error(
                "%s: the next start would not see what the kiosk saved there. It goes on in"
                " %s, a copy of it with every game saved from now on. To go on with them"
                " after the kiosk stops: put the copy in place of %s (with the kiosk"
                " stopped: sudo systemctl stop darts-kiosk; remove %s-wal and %s-shm),"
                " then start it. The file now at %s is left as it is",
                self.moved,
                self.kept,
                path.name,
                path.name,
                path.name,
                path,
            )
            running.kiosk.set_store_moved()
        if not self.let_go:
            try:
                store.detach(into=self.kept)
            except Exception as e:  # (goes on into the file it has open: copied all the same)
                log.error("the moved database could not be let go (tried again): %s", e)
            else:
                self.let_go = True
        self._looked_changes = self._changes()
        if store.path is None:  # (in memory: the copy could not be made to go on in)
            self.keep_copy()

    @staticmethod
    def _moved(store: Any) -> str:
        try:
            return str(store.file_moved())
        except Exception as e:  # (a look must never stop the loop)
            log.warning("the database's files could not be looked at: %s", e)
            return ""

    def keep_copy(self) -> None:
        """The copy of what the kiosk has open in memory, made again if anything was
        saved since."""
        running = self.running
        store = None if running is None else running.store
        if store is None or self.kept is None:
            return
        changes = self._changes()
        if changes == self._kept_changes:
            return
        try:
            store.keep_copy(self.kept)
        except Exception as e:
            log.error("the copy %s could not be made: %s", self.kept, e)
            return
        self._kept_changes = changes
        log.info("the games the kiosk has open are copied to %s", self.kept)

    def _try_again(self, running: Running) -> None:
        from kiosk.adapters.store import schema
        from kiosk.adapters.store.lock import DataLock

        assert running.data_file is not None
        if running.lock is None:  # (the lock first: another kiosk, or a full disk)
            lock, why = DataLock.take(running.data_file.parent)
            if why:
                self._still_down(running, why)
                return
            running.lock = lock
        # No wait: the loop is not held while another program holds the file.
        store, why, _busy = _open_store(running.data_file, 0.0, tell_kept=False)
        if store is None:
            self._still_down(running, why)
            return
        self.retry = False
        store.db.conn.execute(f"PRAGMA busy_timeout = {int(schema.KIOSK_BUSY_TIMEOUT_S * 1000)}")
        running.adopt(store)

    @staticmethod
    def _still_down(running: Running, why: str) -> None:
        """Tried again and still not saving: a new reason said, on screen and in the log."""
        if why == running.kiosk.store_down:
            return
        log.error("results are not being saved: %s", why)
        running.kiosk.store_down = why
        running.kiosk.banner_revision += 1
