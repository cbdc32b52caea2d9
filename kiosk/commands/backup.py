"""``darts-kiosk backup PATH``: a consistent copy of the database while the kiosk runs.

Uses SQLite's online backup API, so a game in play goes on; the copy is written to a
temporary file beside PATH, checked (``PRAGMA integrity_check``) and then renamed into
place, so PATH is never a half-written file. PATH may be a directory. With
``--force`` over an older file, the ``-wal``, ``-shm`` and ``-journal`` files SQLite
left beside it go too: SQLite would take them for the new copy's.

A backup holds an exclusive ``flock`` on the folder it writes in: two backups into one
folder go one after the other (a dated name taken in the same second gets a number),
and a temporary file of ours found there is a killed backup's (a power cut, kill -9),
a whole database's size on the card: it is deleted. A folder that cannot be locked (a
network share) is not swept: a copy there may be another backup's, being written.

A damaged database (the kiosk's banner says to back it up) is copied as far as it
reads. Damage only to its indexes is mended: the copy is built again from its tables'
rows (``store.rebuild``), and is then a good backup. A copy still damaged is kept as
``NAME.damaged.sqlite3`` beside PATH, never as PATH, for whoever mends it.

The database is the kiosk's (``--db``, ``--data-dir``, or ``--config FILE``'s
``data_dir``, as ``kiosk.commands._db`` says).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path

from kiosk.adapters.files import sync_folder
from kiosk.adapters.store import StoreError
from kiosk.adapters.store.read_only import connect_read_only
from kiosk.adapters.store.rebuild import problems, rebuilt
from kiosk.adapters.store.schema import connect
from kiosk.commands._db import ConfigError, add_db_arguments, db_path, nothing_to_read, trouble

NAME = "backup"
HELP = "copy the database to PATH (safe while the kiosk runs)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="backup file, or a directory to put it in")
    add_db_arguments(parser)
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")


def run(args: argparse.Namespace) -> int:
    try:
        source = db_path(args)
    except ConfigError as e:
        print(f"darts-kiosk backup: {e}", file=sys.stderr)
        return 2
    target = Path(args.path)
    if args.path.endswith(("/", os.sep)) and not target.is_dir():
        # (A folder meant, and not there: ``Path`` drops the slash, and the backup was
        # written as a file of the folder's name.)
        print(f"darts-kiosk backup: no directory {target}", file=sys.stderr)
        return 1
    with _folder_held(target if target.is_dir() else target.parent) as held:
        if target.is_dir():
            if held:  # (unheld, a copy there may be another backup's, being written)
                _sweep(target)
            target = _dated(target)
        return _copy(source, target, args.force)


def _copy(source: Path, target: Path, force: bool) -> int:
    if refused := _refused(source, target, force):
        print(f"darts-kiosk backup: {refused}", file=sys.stderr)
        return 1
    tmp = target.with_name(f".{target.name}.part")
    whole = target.with_name(f".{target.name}.rebuilt")
    try:
        src, read_only = _source(source)
        try:
            for leftover in (tmp, whole):  # (a killed backup's, the folder held)
                _unlink_with_companions(leftover)
            dst = sqlite3.connect(tmp)
            try:
                try:
                    src.backup(dst)
                except sqlite3.DatabaseError as e:  # a page the copy cannot read
                    if getattr(e, "sqlite_errorname", "") == "SQLITE_FULL":  # (the copy's)
                        raise _NoRoom(
                            f"no room on the disk holding {target.parent} for the copy"
                            f" ({e}): free some space there, or back up to another disk;"
                            " the database is not the problem"
                        ) from None
                    raise StoreError(
                        f"the database is damaged ({e}) and cannot be copied while the kiosk"
                        f" runs: stop the kiosk, then copy {source.name} and its -wal file as"
                        " they are (cp), keep them and the last good backup, and ask for help"
                    ) from None
                found = problems(dst)
            finally:
                dst.close()
        finally:
            src.close()
        why = rebuilt(tmp, whole) if found else ""
        if found and why:
            kept = _damaged_name(target)
            _put_in_place(tmp, kept)
            with suppress(OSError):  # (on the disk with its name, as a backup is)
                sync_folder(kept.parent)
            print(
                f"darts-kiosk backup: the database is damaged: {why}; what could be read is"
                f" copied to {kept} (not a good backup): keep it, and the last good backup,"
                " and ask for help",
                file=sys.stderr,
            )
            return 1
        if found:
            _put_in_place(whole, target)
            tmp.unlink()
        else:
            _put_in_place(tmp, target)
        with suppress(OSError):  # (the copy is made; a folder that cannot be synced
            sync_folder(target.parent)  # is left to the file system's own time)
    except (StoreError, sqlite3.Error, OSError, _NoRoom, _Stale) as e:
        for leftover in (tmp, whole):
            _unlink_with_companions(leftover)
        # (the source's open fails as a StoreError; the copy's own errors are the target's)
        said = trouble(source, e) if isinstance(e, StoreError) else str(e)
        print(f"darts-kiosk backup: {said}", file=sys.stderr)
        return 1
    if read_only:
        from kiosk.store_open import why_not_saved

        print(f"{why_not_saved(source, read_only)}; copied without writing beside it")
    if found:
        print(
            f"the database's indexes are damaged ({found[0]}): the copy was built again from"
            " its rows and passes its check. Put it back as the README says (Players, league"
            " and backups over SSH) to mend the kiosk's"
        )
    print(f"backed up {source} to {target}")
    return 0


# The temporary files of a backup into a folder (``.kiosk-20261205-130101.sqlite3.part``)
# and their journals: only ours, never an owner's own hidden file there.
_OURS = re.compile(r"\.kiosk-\d{8}-\d{6}(-\d+)?\.sqlite3\.(part|rebuilt)(-journal|-wal|-shm)?")


@contextmanager
def _folder_held(folder: Path) -> Iterator[bool]:
    """An exclusive ``flock`` on ``folder`` while the backup is made (waited for while
    another backup holds it); whether it is held. A folder that cannot be locked (not
    there, a network share: NFS refuses it) is written in without it: the copy is still
    made whole before its rename, but what another backup left there is not swept."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield False
        return
    try:
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # (said: a wait without a word looks like a hang)
                print(f"darts-kiosk backup: another backup is writing in {folder}: waiting"
                      " for it to finish", file=sys.stderr)  # fmt: skip
                fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            held = False
        else:
            held = True
        yield held
    finally:
        os.close(fd)  # (the lock goes with it)


def _sweep(folder: Path) -> None:
    """Deletes what killed backups left in ``folder`` (called with the folder held: no
    backup is writing there)."""
    try:
        names = [entry.name for entry in os.scandir(folder)]
    except OSError:
        return
    for name in names:
        if _OURS.fullmatch(name):
            with suppress(OSError):
                (folder / name).unlink()


def _dated(folder: Path) -> Path:
    """The backup's name in ``folder``: the date and time, numbered when a backup of
    that second is there."""
    stamp = f"kiosk-{datetime.now():%Y%m%d-%H%M%S}"
    target, n = folder / f"{stamp}.sqlite3", 1
    while target.exists():
        n += 1
        target = folder / f"{stamp}-{n}.sqlite3"
    return target


def _unlink_with_companions(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


class _NoRoom(Exception):
    """The copy's disk is full (not the database's trouble)."""


class _Stale(Exception):
    """A file left beside the target by the database there before cannot be removed."""


def _put_in_place(copy: Path, target: Path) -> None:
    """``copy`` renamed to ``target``, without what SQLite keeps beside a database under
    its name (``-journal``, ``-wal``, ``-shm``): those are the old file's (a program
    that wrote to the last backup and was killed, a backup deleted by hand without
    them), and SQLite takes them for the new file's when it opens it, replaying the old
    write-ahead log or journal over the copy: a damaged backup. Removed before the
    rename, not after: a power cut between leaves the old file without them (it was
    being written over), never the new one with them."""
    for suffix in ("-journal", "-wal", "-shm"):
        stale = target.with_name(target.name + suffix)
        try:
            stale.unlink(missing_ok=True)
        except OSError as e:
            raise _Stale(
                f"{stale} is left from the file there before and cannot be removed"
                f" ({e.strerror or e}): SQLite would take it for the backup's own; remove"
                " it, or back up to another name"
            ) from None
    os.replace(copy, target)


def _source(path: Path) -> tuple[sqlite3.Connection, StoreError | None]:
    """The database to copy, as it is (not migrated: the copy is of the file as it
    was), and why it could only be read (None: opened as the kiosk opens it). On a
    read-only or full disk it is opened to read only: the copy is most wanted then."""
    from kiosk.store_open import why_not_saved

    try:
        return connect(path, migrate_to=0), None
    except StoreError as e:
        if why_not_saved(path, e) == f"{path}: {e}":  # (not the disk's trouble)
            raise
        return connect_read_only(path), e


def _refused(source: Path, target: Path, force: bool) -> str:
    """Why the copy is not made ("" when it is): a target that is there (without
    ``--force``), that is the database itself or its ``-wal``, ``-shm`` or ``-journal``,
    or that is not a file (a device, a folder's link: it would be replaced by a file)."""
    if why := nothing_to_read(source):
        return why
    if not target.parent.is_dir():
        return f"no directory {target.parent} for {target}"
    real = Path(os.path.realpath(source))
    for suffix in ("-wal", "-shm", "-journal"):
        # (its last games, not yet in the file, may be in the -wal: written over, lost;
        # a copy by such a name, SQLite would take for the database's own)
        if Path(os.path.realpath(target)) == real.with_name(real.name + suffix):
            return f"{target} is a file of the database itself (its {suffix}): name another file"
    if not target.exists():
        return ""
    if not force:
        return f"{target} exists (--force to overwrite)"
    if not target.is_file():
        return f"{target} is not a file: name a file or a folder to put the backup in"
    if os.path.samefile(source, target):
        return f"{target} is the database itself: name another file"
    return ""


def _damaged_name(target: Path) -> Path:
    """Beside ``target``, named as damaged, and not over another such copy."""
    kept = target.with_name(f"{target.stem}.damaged{target.suffix or '.sqlite3'}")
    if kept.exists():
        kept = kept.with_name(f"{target.stem}.damaged-{datetime.now():%Y%m%d-%H%M%S}{kept.suffix}")
    return kept
