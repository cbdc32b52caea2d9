"""The database file: where it lives, forward migrations, refusing what it cannot read."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from kiosk.adapters.store import SCHEMA_VERSION, SchemaTooNewError, Store, StoreError, schema
from kiosk.adapters.store.schema import MIGRATIONS, connect, default_db_path


def version(path):
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_systemd_state_directory_wins_then_xdg_then_home():
    assert default_db_path({"STATE_DIRECTORY": "/var/lib/darts-kiosk", "HOME": "/h"}) == Path(
        "/var/lib/darts-kiosk/kiosk.sqlite3"
    )
    assert default_db_path({"XDG_STATE_HOME": "/x", "HOME": "/h"}) == Path(
        "/x/darts-kiosk/kiosk.sqlite3"
    )
    assert default_db_path({"HOME": "/h"}) == Path("/h/.local/state/darts-kiosk/kiosk.sqlite3")


def test_a_new_file_and_its_directory_are_created_at_the_latest_version(tmp_path):
    path = tmp_path / "state" / "darts-kiosk" / "kiosk.sqlite3"
    Store.open(path).close()
    assert version(path) == SCHEMA_VERSION == len(MIGRATIONS)


def test_an_empty_version_0_file_migrates(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    sqlite3.connect(path).close()  # an empty database: user_version 0
    assert version(path) == 0
    with Store.open(path) as store:
        store.players.add("Ann")
    assert version(path) == SCHEMA_VERSION


def test_a_version_1_file_with_games_migrates_keeping_them_and_a_backup(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    conn = connect(path, migrate_to=1)
    conn.close()
    assert version(path) == 1
    # Fill it through the v1 tables only.
    raw = sqlite3.connect(path)
    raw.execute(
        "INSERT INTO players (id, name, name_key, created_at) VALUES (1, 'Ann', 'ann', 'x')"
    )
    raw.execute(
        "INSERT INTO players (id, name, name_key, created_at) VALUES (2, 'Bob', 'bob', 'x')"
    )
    raw.execute(
        "INSERT INTO games (id, kind, variant, settings, mode, started_at) "
        "VALUES (1, 'cricket', 'standard', '{}', 'training', 'x')"
    )
    raw.execute("INSERT INTO game_players VALUES (1, 0, 1, NULL), (1, 1, 2, NULL)")
    raw.execute("INSERT INTO game_events VALUES (1, 1, 'dart', '{\"dart\": \"T20\"}', 'x')")
    raw.commit()
    raw.close()
    with Store.open(path) as store:
        assert version(path) == SCHEMA_VERSION
        live = store.resume(1)
        assert live.engine.marks("Ann", 20) == 3
        live.save_clock(0, 10.0)  # a v2 table
    backup = tmp_path / "kiosk.sqlite3.schema-v1.bak"
    assert backup.exists() and version(backup) == 1


def test_a_backup_cut_short_by_a_power_cut_is_made_again_before_migrating(tmp_path, monkeypatch):
    path = tmp_path / "kiosk.sqlite3"
    connect(path, migrate_to=1).close()
    raw = sqlite3.connect(path)
    raw.execute(
        "INSERT INTO players (id, name, name_key, created_at) VALUES (1, 'Ann', 'ann', 'x')"
    )
    raw.commit()
    raw.close()
    backup = tmp_path / "kiosk.sqlite3.schema-v1.bak"

    def power_cut(*args: object) -> None:  # the copy made, the kiosk gone before its end
        raise KeyboardInterrupt

    monkeypatch.setattr(schema.os, "replace", power_cut)
    with pytest.raises(KeyboardInterrupt):
        Store.open(path)
    assert not backup.exists()  # nothing under the backup's name that is not whole
    assert version(path) == 1  # and nothing migrated without it
    monkeypatch.undo()
    Store.open(path).close()
    assert version(path) == SCHEMA_VERSION
    with closing(sqlite3.connect(backup)) as b:
        assert b.execute("PRAGMA user_version").fetchone() == (1,)
        assert b.execute("SELECT name FROM players").fetchall() == [("Ann",)]
        assert b.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert not (tmp_path / "kiosk.sqlite3.schema-v1.bak.part").exists()


def test_a_file_from_a_newer_kiosk_is_refused_clearly_and_left_alone(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    Store.open(path).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    before = path.read_bytes()
    with pytest.raises(SchemaTooNewError, match="newer than this darts-kiosk"):
        Store.open(path)
    assert path.read_bytes() == before
    assert version(path) == SCHEMA_VERSION + 1


def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    path.write_bytes(b"this is a shopping list, not a database" * 100)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        Store.open(path)


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path):
    # A --db pointed at the wrong file: it must not be turned into a kiosk database
    # (nor switched to WAL).
    path = tmp_path / "shop.sqlite3"
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        raw.execute("INSERT INTO invoices (total) VALUES (12.5)")
        raw.commit()
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"another program's SQLite database.*invoices"):
        Store.open(path)
    assert path.read_bytes() == before
    assert version(path) == 0


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv (util-linux)")
def test_a_database_in_a_read_only_folder_is_said_to_be_a_permissions_matter(tmp_path):
    folder = tmp_path / "ro"
    Store.open(folder / "kiosk.sqlite3").close()
    folder.chmod(0o555)
    # Without the power to write anywhere (root has it: dropped here)
    cmd = [sys.executable, "-m", "kiosk", "players", "list", "--db", str(folder / "kiosk.sqlite3")]
    if os.geteuid() == 0:
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *cmd]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    finally:
        folder.chmod(0o755)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "not a usable" not in r.stderr and "permissions" in r.stderr, r.stderr


def test_a_failing_migration_leaves_the_file_at_the_old_version(tmp_path, monkeypatch):
    path = tmp_path / "kiosk.sqlite3"
    connect(path, migrate_to=1).close()

    def broken(conn):
        conn.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("power cut")

    monkeypatch.setattr("kiosk.adapters.store.schema.MIGRATIONS", [MIGRATIONS[0], broken])
    with pytest.raises(RuntimeError):
        Store.open(path)
    assert version(path) == 1
    raw = sqlite3.connect(path)
    names = {r[0] for r in raw.execute("SELECT name FROM sqlite_master")}
    raw.close()
    assert "half_done" not in names


def _version_4_file_with_darts(path):
    connect(path, migrate_to=4).close()
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("INSERT INTO players (name, name_key, created_at) VALUES ('Ann', 'ann', 'x')")
        raw.execute(
            "INSERT INTO games (id, kind, variant, settings, mode, started_at) "
            "VALUES (1, 'cricket', 'standard', '{}', 'training', 'x')"
        )
        raw.execute("INSERT INTO game_players VALUES (1, 0, 1, NULL)")
        raw.executemany(
            "INSERT INTO game_events VALUES (1, ?, 'dart', ?, 'x')",
            [(seq, json.dumps({"dart": f"S{seq % 20 + 1}"})) for seq in range(1, 3001)],
        )
        raw.commit()


def _players_list_on_a_full_disk(path, room):
    """``players list`` where no file may grow past ``room`` bytes (a full disk)."""
    full_disk = (
        "import resource, signal, sys; from kiosk.cli import main;"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN);"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({room}, {room}));"
        "sys.exit(main(sys.argv[1:]))"
    )
    return subprocess.run(
        [sys.executable, "-c", full_disk, "players", "list", "--db", str(path)],
        capture_output=True,
        text=True,
    )


def test_a_database_on_a_disk_too_full_for_its_shm_file_says_the_disks_error(tmp_path):
    # The first read makes the -shm file (32 KB); on a full disk that fails and SQLite
    # ends the read transaction, and its COMMIT then failed: "not a usable SQLite
    # database: cannot commit - no transaction is active", the banner's "damaged".
    path = tmp_path / "kiosk.sqlite3"
    _version_4_file_with_darts(path)
    Store.open(path).close()
    done = _players_list_on_a_full_disk(path, 20000)
    assert done.returncode == 1, done.stderr
    assert "no transaction is active" not in done.stderr, done.stderr
    assert "disk I/O error" in done.stderr, done.stderr


def test_a_migration_the_disk_cannot_hold_says_what_the_disk_said(tmp_path):
    # An upgrade on a nearly full card: SQLite rolls the migration back by itself when
    # a write fails, and the store's own ROLLBACK then failed, so all the owner read was
    # "cannot rollback - no transaction is active", not the disk's trouble.
    path = tmp_path / "kiosk.sqlite3"
    _version_4_file_with_darts(path)
    # (kept by an earlier start cut short after its backup: none is written now)
    shutil.copy(path, tmp_path / "kiosk.sqlite3.schema-v4.bak")
    done = _players_list_on_a_full_disk(path, 40000)  # the -shm file, not the migration
    assert done.returncode == 1, done.stderr
    assert "no transaction is active" not in done.stderr, done.stderr
    assert "disk I/O error" in done.stderr, done.stderr
    assert version(path) == 4
    with closing(sqlite3.connect(path)) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert raw.execute("SELECT count(*) FROM game_events").fetchone() == (3000,)


def test_a_version_2_file_migrates_and_finds_ratings_without_sorting_each_players_games(
    tmp_path,
):
    path = tmp_path / "kiosk.sqlite3"
    connect(path, migrate_to=2).close()
    with closing(sqlite3.connect(path)) as raw:
        raw.execute(
            "INSERT INTO players (id, name, name_key, created_at) VALUES (1, 'Ann', 'ann', 'x')"
        )
        for game in (1, 2, 3):
            raw.execute(
                "INSERT INTO games (id, kind, variant, settings, mode, started_at, status)"
                " VALUES (?, 'cricket', 'standard', '{}', 'rated', 'x', 'finished')",
                (game,),
            )
        raw.executemany(
            "INSERT INTO ratings (player_id, game_id, before, after) VALUES (1, ?, ?, ?)",
            [(1, 1500.0, 1516.0), (3, 1516.0, 1530.5), (2, 1530.5, 1521.25)],
        )
        raw.commit()
    with Store.open(path) as store:
        assert version(path) == SCHEMA_VERSION
        assert store.players.rating(1) == 1521.25  # the latest change, whatever its game
        plan = store.db.conn.execute(
            "EXPLAIN QUERY PLAN SELECT after FROM ratings WHERE player_id = 1"
            " ORDER BY id DESC LIMIT 1"
        ).fetchall()
    # Each screen of standings asks this once a player: a sort of all their games each
    # time made a 200-player night take 130 ms on a 50,000-game file (bench/league.py).
    assert not any("TEMP B-TREE" in str(step) for step in plan), plan
    assert (tmp_path / "kiosk.sqlite3.schema-v2.bak").exists()


def _ann_in_a_formula_game(raw: sqlite3.Connection) -> None:
    """Game 1, Ann's formula training game, her first formula (300*1) in its log: as an
    older version wrote it."""
    raw.execute(
        "INSERT INTO players (id, name, name_key, created_at) VALUES (1, 'Ann', 'ann', 'x')"
    )
    raw.execute(
        "INSERT INTO games (id, kind, variant, settings, mode, started_at) VALUES"
        """ (1, 'formula', 'classic', '{"mode": "training", "digits": [3001, 9839]}',"""
        " 'training', 'x')"
    )
    raw.execute("INSERT INTO game_players VALUES (1, 0, 1, NULL)")
    payload = '{"seat": 0, "formula": "300*1"}'
    raw.execute("INSERT INTO game_events VALUES (1, 1, 'formula', ?, 'x')", (payload,))


def test_a_version_3_file_migrates_keeping_its_events_append_only_and_takes_concedes(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    connect(path, migrate_to=3).close()
    with closing(sqlite3.connect(path)) as raw:
        _ann_in_a_formula_game(raw)
        with pytest.raises(sqlite3.IntegrityError):  # (what version 3 refuses)
            raw.execute("INSERT INTO game_events VALUES (1, 2, 'concede', '{\"seat\": 0}', 'x')")
        raw.commit()
    with Store.open(path) as store:
        assert version(path) == SCHEMA_VERSION
        live = store.resume(1)
        assert live.engine.score("Ann") == 351
        live.concede(0)
        assert [e.kind for e in store.games.events(1)] == ["formula", "concede"]
        assert store.games.replay(1).outcome().termination.value == "conceded"
        for sql in ("UPDATE game_events SET kind = 'undo'", "DELETE FROM game_events"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                store.db.conn.execute(sql)
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):  # still only known kinds
            store.db.conn.execute("INSERT INTO game_events VALUES (1, 3, 'bogus', '{}', 'x')")
    assert (tmp_path / "kiosk.sqlite3.schema-v3.bak").exists()


def test_a_version_6_file_migrates_and_keeps_a_formula_typed_apart_from_its_events(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    connect(path, migrate_to=6).close()
    with closing(sqlite3.connect(path)) as raw:
        _ann_in_a_formula_game(raw)
        raw.commit()
    with Store.open(path) as store:
        assert version(path) == SCHEMA_VERSION
        live = store.resume(1)
        live.save_draft(0, ["9", "8", "+"])  # a v7 table
        assert store.games.draft(1) is not None
        assert [e.kind for e in store.games.events(1)] == ["formula"]
        live.submit(0, "98+3*9")
        assert store.games.draft(1) is None
    assert (tmp_path / "kiosk.sqlite3.schema-v6.bak").exists()


def test_a_version_7_file_migrates_and_keeps_side_games_until_their_game_ends(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    connect(path, migrate_to=7).close()
    with closing(sqlite3.connect(path)) as raw:
        for pid, name in ((1, "Ann"), (2, "Bob")):
            raw.execute(
                "INSERT INTO players (id, name, name_key, created_at) VALUES (?, ?, ?, 'x')",
                (pid, name, name.lower()),
            )
        raw.execute(
            "INSERT INTO games (id, kind, variant, settings, mode, started_at)"
            " VALUES (1, 'cricket', 'standard', '{}', 'training', 'x')"
        )
        raw.execute("INSERT INTO game_players VALUES (1, 0, 1, NULL), (1, 1, 2, NULL)")
        raw.commit()
    with Store.open(path) as store:
        assert version(path) == SCHEMA_VERSION
        store.games.save_side_game(1, 1, {"settings": {"mode": "training"}, "events": []})
        assert store.games.side_games(1) == {1: {"settings": {"mode": "training"}, "events": []}}
        store.resume(1).dart("T20")  # the match's own inputs leave it be
        assert list(store.games.side_games(1)) == [1]
        store.abandon(1)
        assert store.games.side_games(1) == {}
    assert (tmp_path / "kiosk.sqlite3.schema-v7.bak").exists()


def _another_opens_it_after(monkeypatch, path, calls):
    """After the ``calls``-th read of the schema version, another program opens the new
    file and makes it whole (the kiosk starting as ``players add`` runs); returns what
    it met."""
    real = schema.user_version
    seen, met = [], []

    def other():
        try:
            connect(path).close()
        except Exception as e:
            met.append(e)

    def user_version(conn):
        found = real(conn)
        seen.append(found)
        if len(seen) == calls:
            monkeypatch.setattr(schema, "user_version", real)
            thread = threading.Thread(target=other)
            thread.start()
            thread.join(0.5)  # (done by now, unless it has to wait for this one)
            met.insert(0, thread)
        return found

    monkeypatch.setattr(schema, "user_version", user_version)
    return met


@pytest.mark.parametrize("calls", [1, 2])
def test_a_new_file_made_by_another_program_meanwhile_is_taken_as_it_is(
    tmp_path, monkeypatch, calls
):
    # 1: between reading the version and listing the tables ("another program's
    # database (tables events, ...)"); 2: between reading it and migrating ("table
    # players already exists").
    path = tmp_path / "kiosk.sqlite3"
    met = _another_opens_it_after(monkeypatch, path, calls)
    with closing(connect(path)) as conn:
        conn.execute("INSERT INTO players (name, name_key, created_at) VALUES ('A', 'a', 'now')")
    met[0].join(30)
    assert met[1:] == [] and version(path) == SCHEMA_VERSION


def test_commands_opening_one_new_file_at_once_all_succeed(tmp_path):
    # Eight at once on each of two new files: before, about one start in three lost a
    # command to "database is locked" (switching the file to WAL) or "disk I/O error"
    # (two of them backing up a file another had half made).
    paths = [tmp_path / f"{n}" / "kiosk.sqlite3" for n in "ab"]
    code = (
        "import sys, time; from kiosk.cli import main; "
        "time.sleep(max(0.0, float(sys.argv[1]) - time.time())); "
        "sys.exit(main(['players', 'add', sys.argv[2], '--db', sys.argv[3]]))"
    )
    start = str(time.time() + 3.0)  # (all loaded, then all at once)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, start, f"P{i}", str(path)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in paths
        for i in range(8)
    ]
    said = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 16, said
    for path in paths:
        with closing(sqlite3.connect(path)) as conn:
            assert conn.execute("SELECT count(*) FROM players").fetchone() == (8,)
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert list(path.parent.glob("*.bak*")) == []  # a new file has nothing to back up


def test_commands_migrating_one_old_file_at_once_keep_one_whole_backup(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    connect(path, migrate_to=1).close()
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("INSERT INTO players (name, name_key, created_at) VALUES ('Ann', 'ann', 'x')")
        raw.commit()
    code = (
        "import sys, time; from kiosk.cli import main; "
        "time.sleep(max(0.0, float(sys.argv[1]) - time.time())); "
        "sys.exit(main(['players', 'add', sys.argv[2], '--db', sys.argv[3]]))"
    )
    start = str(time.time() + 3.0)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, start, f"P{i}", str(path)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(8)
    ]
    said = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, said
    assert version(path) == SCHEMA_VERSION
    assert [p.name for p in tmp_path.glob("*.bak*")] == ["kiosk.sqlite3.schema-v1.bak"]
    with closing(sqlite3.connect(tmp_path / "kiosk.sqlite3.schema-v1.bak")) as b:
        assert b.execute("PRAGMA user_version").fetchone() == (1,)
        assert b.execute("SELECT name FROM players").fetchall() == [("Ann",)]


def test_the_backup_before_a_migration_is_on_the_disk_before_the_migration_is(
    tmp_path, monkeypatch
):
    # A power cut just after the migration's commit must not find the file migrated and
    # its backup's name lost with the folder's unwritten rename.
    path = tmp_path / "kiosk.sqlite3"
    connect(path, migrate_to=1).close()
    synced: list[tuple[Path, bool, int]] = []
    backup = tmp_path / "kiosk.sqlite3.schema-v1.bak"

    def sync_folder(folder: Path) -> None:
        synced.append((folder, backup.exists(), version(path)))

    monkeypatch.setattr(schema, "sync_folder", sync_folder)
    connect(path).close()
    assert synced == [(tmp_path, True, 1)]
    assert version(path) == SCHEMA_VERSION


def test_the_copies_the_store_keeps_are_on_the_disk_with_their_names(tmp_path, monkeypatch, caplog):
    # The copy the kiosk keeps of a database deleted under it (and the one it goes on
    # in) was renamed into place with no sync of its folder: a power cut just after
    # could lose its name, and with it every game since the file was deleted.
    from kiosk.adapters.store import Store

    synced: list[tuple[Path, bool]] = []
    kept = tmp_path / "kept" / "copy.sqlite3"
    monkeypatch.setattr(schema, "sync_folder", lambda f: synced.append((f, kept.exists())))
    with Store.open(tmp_path / "kiosk.sqlite3") as store:
        store.players.add("Anna")
        store.keep_copy(kept)
        assert synced == [(kept.parent, True)]

        def refused(folder: Path) -> None:
            raise OSError(22, "Invalid argument")  # (a file system that cannot sync one)

        monkeypatch.setattr(schema, "sync_folder", refused)
        store.keep_copy(kept)  # the copy is made all the same, and the log says so
    assert "could not be synced" in caplog.text
    with Store.open(kept) as copy:
        assert [p.name for p in copy.players.roster()] == ["Anna"]
