"""A healthy database on a read-only or full disk is not called broken: the owner
would delete it. What the banner and the log say (``kiosk.store_open.why_not_saved``)."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kiosk.adapters.store import Store
from kiosk.adapters.store.lock import DataLock
from kiosk.store_open import open_store, why_not_saved, write_check
from tests.plain_user import plain_user

OPEN_FAILED = sqlite3.OperationalError("unable to open database file")


def test_a_full_disk_is_named_as_full_not_as_a_broken_database(tmp_path: Path) -> None:
    why = why_not_saved(tmp_path / "kiosk.sqlite3", OPEN_FAILED, free=200_000, writable=True)
    assert why.startswith(f"the disk holding {tmp_path} is full (195 KB free)")
    io = sqlite3.OperationalError("disk I/O error")
    assert "is full" in why_not_saved(tmp_path / "kiosk.sqlite3", io, free=0, writable=True)


def test_a_read_only_folder_is_named_as_such(tmp_path: Path) -> None:
    why = why_not_saved(tmp_path / "kiosk.sqlite3", OPEN_FAILED, free=10**9, writable=False)
    assert why.startswith(f"{tmp_path} cannot be written")
    assert "the database file is not the problem" in why


def test_a_file_that_is_not_a_database_is_still_called_that(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.sqlite3"
    path.write_bytes(b"not a database at all, " * 100)
    store, why = open_store(path)
    assert store is None
    assert why.startswith(f"{path}: ") and "not a usable SQLite database" in why
    assert path.read_bytes().startswith(b"not a database")
    # A disk with room and a folder that can be written: SQLite's own words stay.
    assert why_not_saved(path, OPEN_FAILED, free=10**9, writable=True) == f"{path}: {OPEN_FAILED}"


def test_a_read_only_data_folder_at_start_is_said_plainly(tmp_path: Path) -> None:
    folder = tmp_path / "state"
    folder.mkdir()
    store, _ = open_store(folder / "kiosk.sqlite3")
    store.close()
    folder.chmod(0o500)
    try:
        with plain_user():  # (root writes to any folder)
            store, why = open_store(folder / "kiosk.sqlite3")
        assert store is None and why.startswith(f"{folder} cannot be written"), why
    finally:
        folder.chmod(0o700)


@contextmanager
def card_made_read_only_by_an_error(tmp_path: Path) -> Iterator[Path]:
    """A folder on an ext4 card mounted ``errors=remount-ro``, after an error: the
    kernel refuses every write, yet access() and statvfs() call it writable. Needs
    root, loop devices and ext4's error trigger (skipped without them)."""
    if os.geteuid() != 0 or not shutil.which("mkfs.ext4"):
        pytest.skip("needs root and mkfs.ext4 (e2fsprogs) to make a card image")
    image, mnt = tmp_path / "sd.img", tmp_path / "card"
    mnt.mkdir()

    def sh(*args: str) -> bool:
        return subprocess.run(args, capture_output=True, check=False).returncode == 0

    if not (sh("truncate", "-s", "16M", str(image)) and sh("mkfs.ext4", "-q", str(image))
            and sh("mount", "-o", "loop,errors=remount-ro", str(image), str(mnt))):  # fmt: skip
        pytest.skip("no loop device to mount a card image on")
    try:
        folder = mnt / "darts-kiosk"
        folder.mkdir()
        Store.open(folder / "kiosk.sqlite3").close()
        device = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(mnt)], capture_output=True,
                                text=True, check=False).stdout.strip()  # fmt: skip
        trigger = Path("/sys/fs/ext4") / Path(device).name / "trigger_fs_error"
        try:
            trigger.write_text("a card error\n")
        except OSError:
            pytest.skip("ext4's error trigger is not there")
        yield folder
    finally:
        sh("umount", str(mnt))


def test_a_card_made_read_only_by_an_error_is_called_a_read_only_disk(tmp_path: Path) -> None:
    # The banner said "the games file cannot be written: check its owner and
    # permissions": the bar owner would look at the file's owner, not at the card.
    with card_made_read_only_by_an_error(tmp_path) as folder:
        assert os.access(folder, os.W_OK)  # (what made the kiosk blame the file)
        store, why = open_store(folder / "kiosk.sqlite3")
        assert store is None
        assert why.startswith(f"{folder} cannot be written (a read-only disk"), why


def test_the_write_check_finds_a_connection_sqlite_opened_read_only(tmp_path: Path) -> None:
    # What SQLite does with a file it may not write: opens it read-only. A write lock
    # alone (the old check) does not find it; a write taken back does, and leaves the
    # file as it was. (A read-only open, so root sees it too.)
    path = tmp_path / "kiosk.sqlite3"
    Store.open(path).close()
    data = path.read_bytes()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            write_check(conn)
        assert not conn.in_transaction
    finally:
        conn.close()
    with Store.open(path) as store:
        write_check(store.db.conn)  # a file that can be written passes
        assert not store.db.conn.in_transaction
    assert path.read_bytes() == data


def test_a_database_file_the_kiosk_may_not_write_is_named_with_its_owner_and_mode(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kiosk.sqlite3"
    Store.open(path).close()
    data = path.read_bytes()
    path.chmod(0o444)
    with plain_user():
        store, why = open_store(path)
    assert store is None
    assert why.startswith(f"{path} cannot be written by "), why
    assert "mode 0444" in why and "opened the database read-only" in why
    assert "full" not in why and "disk" not in why
    assert path.read_bytes() == data


def test_a_wal_file_the_kiosk_may_not_write_is_the_one_named(tmp_path: Path) -> None:
    # Left by a command run as root while the kiosk was stopped, and a power cut: the
    # database and its write-ahead log copied while the command still had them open.
    cut = tmp_path / "cut"
    cut.mkdir()
    with Store.open(tmp_path / "kiosk.sqlite3") as store:
        store.players.add("Anna")
        for name in ("kiosk.sqlite3", "kiosk.sqlite3-wal"):
            (cut / name).write_bytes((tmp_path / name).read_bytes())
    path, wal = cut / "kiosk.sqlite3", cut / "kiosk.sqlite3-wal"
    assert wal.stat().st_size > 0
    wal.chmod(0o444)
    with plain_user():
        store, why = open_store(path)
    assert store is None and why.startswith(f"{wal} cannot be written by "), why


def test_a_full_disk_when_the_lock_is_taken_is_a_reason_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int, length: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as m:
        m.setattr(os, "ftruncate", full)
        lock, why = DataLock.take(tmp_path)
    assert lock is None
    assert why.startswith(f"the disk holding {tmp_path} is full (No space left on device")
    lock, why = DataLock.take(tmp_path)  # the failed one holds nothing: space freed, taken
    assert lock is not None and why == ""
    lock.release()


def test_the_store_tells_when_its_files_are_deleted_or_replaced(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.sqlite3"
    with Store.open(path) as store:
        store.players.add("Anna")
        assert store.file_moved() == ""
        wal = tmp_path / "kiosk.sqlite3-wal"
        wal.rename(tmp_path / "elsewhere")
        assert store.file_moved() == f"{wal} was deleted while the kiosk had it open"
        (tmp_path / "elsewhere").rename(wal)
        assert store.file_moved() == ""
        other = tmp_path / "other.sqlite3"
        Store.open(other).close()
        path.rename(tmp_path / "old.sqlite3")
        other.rename(path)
        assert store.file_moved() == (
            f"{path} was replaced by another file while the kiosk had it open"
        )
        path.unlink()
        assert store.file_moved() == f"{path} was deleted while the kiosk had it open"
        store.players.add("Boris")  # still written to, where nobody else sees it
        store.detach()  # let go, on in memory: the -wal of that name left empty
        assert wal.stat().st_size == 0
        store.players.add("Cleo")
        assert wal.stat().st_size == 0 and store.file_moved() == ""
        store.keep_copy(tmp_path / "kept" / "copy.sqlite3")
    with Store.open(tmp_path / "kept" / "copy.sqlite3") as copy:
        assert [p.name for p in copy.players.roster()] == ["Anna", "Boris", "Cleo"]
    with Store.open(tmp_path / "old.sqlite3") as old:  # the file renamed away: whole
        assert [p.name for p in old.players.roster()] == ["Anna", "Boris"]


def test_the_commands_call_a_read_only_folder_that_not_a_broken_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "league standings", "export", "players list" and "backup" said "... is not a
    # usable SQLite database: unable to open database file" of a healthy file. They
    # say what is wrong, and the one command that copies it off anyway: backup.
    from kiosk.cli import main

    folder = tmp_path / "state"
    folder.mkdir()
    db = folder / "kiosk.sqlite3"
    with saved_then_not_ours(db, folder, 0o500):
        for argv in (["players", "list"], ["league", "standings"],
                     ["export", "--season", "2026"]):  # fmt: skip
            assert main([*argv, "--db", str(db)]) == 1, argv
            err = capsys.readouterr().err
            assert f"{folder} cannot be written" in err, (argv, err)
            assert "not a usable" not in err and "darts-kiosk backup" in err, err
        assert main(["backup", str(tmp_path / "b.db"), "--db", str(db)]) == 0
        assert f"{folder} cannot be written" in capsys.readouterr().out


def test_a_command_writing_to_a_file_not_its_own_names_the_file_not_sqlite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "players add" on a database left root's 0644 by "sudo cp" ended in the CLI's
    # catch-all with SQLite's bare "attempt to write a readonly database".
    from kiosk.cli import main

    db = tmp_path / "kiosk.sqlite3"
    with saved_then_not_ours(db, db, 0o444):
        assert main(["players", "add", "Bob", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("darts-kiosk players: "), err
    assert f"{db} cannot be written by" in err and "not damaged" in err, err


@contextmanager
def saved_then_not_ours(db: Path, what: Path, mode: int) -> Iterator[None]:
    """A database with a player in it, then ``what`` (it, or its folder) set to ``mode``
    for the ``with`` block, run without root's power to write anything."""
    with Store.open(db) as store:
        store.players.add("Ann")
    before = what.stat().st_mode
    what.chmod(mode)
    try:
        with plain_user():  # (root writes to any file and folder)
            yield
    finally:
        what.chmod(before)
