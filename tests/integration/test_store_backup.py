"""``darts-kiosk backup`` when the database is damaged (the kiosk's banner says to back
it up), and targets it must not write over."""

import fcntl
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import datetime
from pathlib import Path

import pytest
from test_store_support import damage_an_index

from kiosk.adapters.store import Store
from kiosk.cli import main
from kiosk.commands import backup as backup_command
from tests.plain_user import plain_user


def league(db: Path, n: int = 300) -> None:
    with Store.open(db) as store:
        for i in range(n):  # the roster and its index span several pages
            store.players.add(f"Player {i:03d}")


def names(db: Path) -> set[str]:
    with closing(sqlite3.connect(db)) as c:
        return {row[0] for row in c.execute("SELECT name FROM players")}


def damage_a_table(db: Path) -> None:
    """Garbage over the middle of one of the roster table's pages (not its root)."""
    with closing(sqlite3.connect(db)) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = c.execute("PRAGMA page_size").fetchone()[0]
        # a leaf page of the table: the page a row far along the roster lives on
        (page,) = c.execute(
            "SELECT pageno FROM dbstat WHERE name = 'players' AND pagetype = 'leaf'"
            " ORDER BY pageno DESC LIMIT 1"
        ).fetchone()
    with db.open("r+b") as f:
        f.seek((page - 1) * size + size // 2)
        f.write(b"\xa5" * (size // 4))


def integrity(db: Path) -> str:
    with closing(sqlite3.connect(db)) as c:
        try:
            return str(c.execute("PRAGMA integrity_check").fetchone()[0])
        except sqlite3.DatabaseError as e:  # (the check itself stops on some pages)
            return str(e)


def test_a_database_whose_index_is_damaged_is_copied_mended(tmp_path, capsys):
    db = tmp_path / "kiosk.sqlite3"
    league(db)
    damage_an_index(db)
    assert integrity(db) != "ok"
    copy = tmp_path / "copy.sqlite3"
    assert main(["backup", "--db", str(db), str(copy)]) == 0
    out = capsys.readouterr().out
    assert "indexes are damaged" in out and "passes its check" in out, out
    assert integrity(copy) == "ok"
    assert names(copy) == {f"Player {i:03d}" for i in range(300)}
    with Store.open(copy) as store:  # the kiosk can use it as it is
        assert len(store.players.roster()) == 300


def test_a_database_with_a_damaged_table_is_copied_as_damaged_not_as_the_backup(tmp_path, capsys):
    db = tmp_path / "kiosk.sqlite3"
    league(db)
    damage_a_table(db)
    copy = tmp_path / "copy.sqlite3"
    code = main(["backup", "--db", str(db), str(copy)])
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1 and "damaged" in err, err
    assert not copy.exists()  # never a damaged file where a good backup is expected
    kept = tmp_path / "copy.damaged.sqlite3"
    assert str(kept) in err and kept.is_file()
    assert kept.read_bytes() != b""
    # a second such copy does not replace the first
    assert main(["backup", "--db", str(db), str(copy)]) == 1
    assert len(list(tmp_path.glob("copy.damaged*.sqlite3"))) == 2


def test_backup_never_writes_over_the_database_itself_or_a_device(tmp_path, capsys):
    db = tmp_path / "kiosk.sqlite3"
    league(db, 3)
    before = db.read_bytes()
    assert main(["backup", "--db", str(db), str(db), "--force"]) == 1
    assert "the database itself" in capsys.readouterr().err
    link = tmp_path / "link.sqlite3"
    link.symlink_to(db)
    assert main(["backup", "--db", str(db), str(link), "--force"]) == 1
    assert "the database itself" in capsys.readouterr().err
    assert db.read_bytes() == before and link.is_symlink()
    assert main(["backup", "--db", str(db), "/dev/null", "--force"]) == 1
    assert "not a file" in capsys.readouterr().err
    assert Path("/dev/null").is_char_device()


@pytest.mark.parametrize("force", [False, True])
def test_a_sound_database_is_backed_up_without_a_word_of_damage(tmp_path, capsys, force):
    db = tmp_path / "kiosk.sqlite3"
    league(db, 5)
    copy = tmp_path / "copy.sqlite3"
    if force:
        copy.write_bytes(b"old")
    assert main(["backup", "--db", str(db), str(copy), *(["--force"] if force else [])]) == 0
    out = capsys.readouterr().out
    assert "damaged" not in out and out.startswith("backed up")
    assert names(copy) == names(db) and integrity(copy) == "ok"


@contextmanager
def read_only_disk(folder: Path) -> Iterator[None]:
    """``folder`` and its files as on a disk gone read-only (for root too)."""
    modes = {f: f.stat().st_mode for f in folder.iterdir()}
    for f in modes:
        f.chmod(0o400)
    folder.chmod(0o500)
    try:
        with plain_user():
            yield
    finally:
        folder.chmod(0o700)
        for f, mode in modes.items():
            f.chmod(mode)


def test_a_database_on_a_read_only_disk_is_backed_up(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    db = data / "kiosk.sqlite3"
    league(db, 4)  # the kiosk stopped cleanly: no -wal
    copy = tmp_path / "copy.sqlite3"
    with read_only_disk(data):
        assert main(["players", "--db", str(db), "list"]) == 1  # (the kiosk's own open)
        assert "darts-kiosk backup" in capsys.readouterr().err  # ... says what will work
        assert main(["backup", "--db", str(db), str(copy)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "cannot be written" in out and "copied without writing beside it" in out, out
    assert names(copy) == {f"Player {i:03d}" for i in range(4)}
    assert sorted(p.name for p in data.iterdir()) == ["kiosk.sqlite3"]


def test_on_a_read_only_disk_what_the_kiosk_saved_last_is_in_the_backup(tmp_path, capsys):
    # Power cut: the last players are in the -wal, not yet in the file itself.
    data = tmp_path / "data"
    data.mkdir()
    db = data / "kiosk.sqlite3"
    league(db, 4)
    store = Store.open(db)
    store.players.add("Late Larry")
    crashed = tmp_path / "crashed"
    shutil.copytree(data, crashed)  # (the files as the cut left them, the kiosk's open)
    store.close()
    copy = tmp_path / "copy.sqlite3"
    with read_only_disk(crashed):
        code = main(["backup", "--db", str(crashed / "kiosk.sqlite3"), str(copy)])
        assert code == 0, capsys.readouterr().err
    assert "Late Larry" in names(copy)


def test_a_backup_leaves_an_old_database_as_it_was(tmp_path, capsys):
    db = tmp_path / "old.sqlite3"
    league(db, 3)
    with closing(sqlite3.connect(db)) as c:
        c.execute("PRAGMA user_version = 5")  # (as a file from before the last migration)
        c.commit()
    before = db.read_bytes()
    copy = tmp_path / "copy.sqlite3"
    assert main(["backup", "--db", str(db), str(copy)]) == 0
    assert db.read_bytes() == before
    assert not list(tmp_path.glob("*.bak"))
    with closing(sqlite3.connect(copy)) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 5


def test_a_folder_named_with_its_slash_that_is_not_there_is_refused(tmp_path, capsys):
    # The slash says a folder is meant; written as a file of that name, the backup
    # was not where the owner would look for it.
    db = tmp_path / "kiosk.sqlite3"
    league(db, 3)
    assert main(["backup", "--db", str(db), f"{tmp_path / 'stick'}/"]) == 1
    assert "no directory" in capsys.readouterr().err
    assert not (tmp_path / "stick").exists()
    (tmp_path / "stick").mkdir()
    assert main(["backup", "--db", str(db), f"{tmp_path / 'stick'}/"]) == 0
    assert len(list((tmp_path / "stick").glob("kiosk-*.sqlite3"))) == 1


def test_a_copy_that_fills_its_disk_is_not_said_to_be_a_damaged_database(
    tmp_path, capsys, monkeypatch
):
    """``backup /mnt/usb/``, the stick full: the database was said to be "damaged ...
    ask for help", and the copy's journal was left on the stick."""
    db = tmp_path / "kiosk.sqlite3"
    league(db)
    stick = tmp_path / "stick"
    stick.mkdir()
    connect = sqlite3.connect

    def small_stick(path, *args, **kwargs):
        conn = connect(path, *args, **kwargs)
        if Path(path).parent == stick:
            conn.execute("PRAGMA max_page_count = 3")  # (SQLite's "database or disk is full")
        return conn

    monkeypatch.setattr(sqlite3, "connect", small_stick)
    assert main(["backup", "--db", str(db), str(stick / "copy.sqlite3")]) == 1
    err = capsys.readouterr().err
    assert f"no room on the disk holding {stick}" in err, err
    assert "damaged (" not in err and "ask for help" not in err, err
    assert list(stick.iterdir()) == []
    assert integrity(db) == "ok"


def test_what_killed_backups_left_in_a_folder_goes_at_the_next_one(tmp_path):
    # A power cut in a backup into a folder left its temporary copy (a whole database's
    # size) hidden there, and every later backup left it too.
    db = tmp_path / "kiosk.sqlite3"
    league(db, 3)
    stick = tmp_path / "stick"
    stick.mkdir()
    killed = (  # kill -9 once the copy is made, before it is checked and renamed
        "import os, signal, sys; import kiosk.commands.backup as b; "
        "b.problems = lambda conn: os.kill(os.getpid(), signal.SIGKILL); "
        "from kiosk.cli import main; main(['backup', '--db', sys.argv[1], sys.argv[2]])"
    )
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", killed, str(db), f"{stick}/"], timeout=60)
        assert done.returncode == -signal.SIGKILL
    left = [p.name for p in stick.iterdir()]
    assert left and all(name.startswith(".kiosk-") for name in left), left
    (stick / ".holiday.jpg.part").write_bytes(b"the owner's own")  # not ours: kept
    assert main(["backup", "--db", str(db), f"{stick}/"]) == 0
    kept = sorted(p.name for p in stick.iterdir())
    assert kept[0] == ".holiday.jpg.part" and len(kept) == 2, kept
    assert names(stick / kept[1]) == names(db)


def test_two_backups_into_one_folder_in_one_second_go_one_after_the_other(
    tmp_path, monkeypatch, capsys
):
    db = tmp_path / "kiosk.sqlite3"
    league(db, 3)
    stick = tmp_path / "stick"
    stick.mkdir()

    class OneSecond(datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[override]
            return datetime(2026, 12, 5, 21, 30, 0)

    monkeypatch.setattr(backup_command, "datetime", OneSecond)
    fd = os.open(stick, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another backup writing there
    codes: list[int] = []
    second = threading.Thread(
        target=lambda: codes.append(main(["backup", "--db", str(db), f"{stick}/"]))
    )
    second.start()
    second.join(0.5)
    assert second.is_alive() and list(stick.iterdir()) == []  # it waits its turn
    os.close(fd)
    second.join(30)
    err = capsys.readouterr().err
    assert codes == [0], err
    # (said: a wait without a word, behind a slow stick, looked hung)
    assert f"another backup is writing in {stick}: waiting" in err, err
    assert main(["backup", "--db", str(db), f"{stick}/"]) == 0
    made = sorted(p.name for p in stick.iterdir())
    assert made == ["kiosk-20261205-213000-2.sqlite3", "kiosk-20261205-213000.sqlite3"]
    assert all(names(stick / name) == names(db) for name in made)


def test_a_backup_is_on_the_disk_with_its_name_when_the_command_ends(tmp_path, monkeypatch):
    # (its rename too: after a power cut the folder names the backup, not its part)
    db = tmp_path / "kiosk.sqlite3"
    league(db, 3)
    copy = tmp_path / "stick" / "copy.sqlite3"
    copy.parent.mkdir()
    synced: list[tuple[Path, bool]] = []
    monkeypatch.setattr(
        backup_command, "sync_folder", lambda folder: synced.append((folder, copy.exists()))
    )
    assert main(["backup", "--db", str(db), str(copy)]) == 0
    assert synced == [(copy.parent, True)]


def test_a_folder_that_cannot_be_locked_keeps_the_copies_being_written_there(tmp_path, monkeypatch):
    # On a network share flock on a folder fails (NFS: EBADF) and the backup goes on
    # without the lock: a temporary copy found there may be another backup's, being
    # written now, not a killed one's. Deleting it failed that backup.
    import errno

    db = tmp_path / "kiosk.sqlite3"
    league(db, 3)
    share = tmp_path / "share"
    share.mkdir()
    writing = share / ".kiosk-20261205-212959.sqlite3.part"
    writing.write_bytes(b"another backup's copy, being written")

    def refused(fd: int, op: int) -> None:
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(backup_command.fcntl, "flock", refused)
    assert main(["backup", "--db", str(db), f"{share}/"]) == 0
    assert writing.exists()
    assert len([p for p in share.iterdir() if p.name.startswith("kiosk-")]) == 1


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
def test_backup_never_writes_over_a_file_the_database_keeps_beside_it(tmp_path, capsys, suffix):
    # kiosk.sqlite3-wal (a tab completed one key too far) is no database to --force
    # over: it holds the kiosk's last games, not yet in kiosk.sqlite3.
    db = tmp_path / "kiosk.sqlite3"
    league(db, 3)
    beside = db.with_name(db.name + suffix)
    with closing(sqlite3.connect(db, isolation_level=None)) as kiosk:
        kiosk.execute("PRAGMA wal_autocheckpoint = 0")  # (its writes stay in its -wal)
        kiosk.execute(
            "INSERT INTO players (name, name_key, created_at) VALUES ('Late', 'late', 'x')"
        )
        if not beside.exists():
            beside.write_bytes(b"")  # (a rollback journal's name: the kiosk's all the same)
        held = beside.read_bytes()
        assert main(["backup", "--db", str(db), str(beside), "--force"]) == 1
        assert "the database itself" in capsys.readouterr().err
        assert beside.read_bytes() == held
        assert "Late" in names(db)


WRITE_THEN_DIE = """
import os, signal, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA wal_autocheckpoint = 0")  # (what it wrote stays in its -wal)
conn.execute("UPDATE players SET name = 'Written into the old copy'")
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.parametrize("how", ["--force", "deleted by hand"])
def test_a_new_backup_never_takes_the_old_ones_write_ahead_log(tmp_path, how):
    # A program that wrote to last week's backup was killed: its -wal and -shm stay
    # beside the file. The new backup put in its place took them for its own, and
    # SQLite replayed last week's changes over it: a damaged backup.
    db = tmp_path / "kiosk.sqlite3"
    league(db, 5)
    copy = tmp_path / "copy.sqlite3"

    def backup(*more: str) -> None:
        argv = [sys.executable, "-m", "kiosk", "backup", "--db", str(db), str(copy), *more]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr

    backup()
    done = subprocess.run([sys.executable, "-c", WRITE_THEN_DIE, str(copy)], timeout=60)
    assert done.returncode == -signal.SIGKILL
    wal = copy.with_name(copy.name + "-wal")
    assert wal.stat().st_size > 0
    with Store.open(db) as store:  # (a player more since)
        store.players.add("Player 005")
    if how == "--force":
        backup("--force")
    else:
        copy.unlink()  # (rm copy.sqlite3: its -wal and -shm stay)
        backup()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("copy")) == [copy.name]
    assert integrity(copy) == "ok"
    assert names(copy) == names(db) == {f"Player {i:03d}" for i in range(6)}


def test_a_damaged_copy_kept_is_on_the_disk_with_its_name_when_the_command_ends(
    tmp_path, monkeypatch, capsys
):
    # (as a good backup is: after a power cut the folder names the damaged copy, not
    # its hidden part, which the next backup into that folder would delete)
    db = tmp_path / "kiosk.sqlite3"
    league(db)
    damage_a_table(db)
    copy = tmp_path / "stick" / "copy.sqlite3"
    copy.parent.mkdir()
    kept = copy.parent / "copy.damaged.sqlite3"
    synced: list[tuple[Path, bool]] = []
    monkeypatch.setattr(
        backup_command, "sync_folder", lambda folder: synced.append((folder, kept.exists()))
    )
    assert main(["backup", "--db", str(db), str(copy)]) == 1
    assert str(kept) in capsys.readouterr().err
    assert synced == [(copy.parent, True)]
