"""The ``darts-kiosk players / export / backup`` commands on a real database file."""

import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing, contextmanager, suppress

import pytest
from test_store_support import win_cricket

from kiosk.adapters.store import Store, schema
from kiosk.cli import main
from kiosk.config import ConfigError

OLEG = "Олег"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "kiosk.sqlite3"


def players(db, *argv):
    return main(["players", "--db", str(db), *argv])


def test_players_can_be_added_listed_renamed_retired_and_merged(db, capsys):
    assert players(db, "add", "Ann") == 0
    assert players(db, "add", "Bob") == 0
    assert players(db, "add", "Bobby") == 0
    assert players(db, "rename", "ann", "Annie") == 0
    assert players(db, "merge", "Bobby", "Bob") == 0
    assert players(db, "retire", "Annie") == 0
    capsys.readouterr()
    assert players(db, "list") == 0
    assert capsys.readouterr().out.split() == ["Bob", "1500.0"]
    assert players(db, "list", "--all") == 0
    assert "Annie" in capsys.readouterr().out


def test_a_duplicate_name_is_a_clear_error_not_a_crash(db, capsys):
    players(db, "add", "Ann")
    assert players(db, "add", "ANN") == 1
    err = capsys.readouterr().err
    assert "already a player called 'ANN'" in err and "Traceback" not in err
    assert players(db, "rename", "Nobody", "X") == 1


def test_a_roster_is_imported_and_bad_lines_reported(db, tmp_path, capsys):
    roster = tmp_path / "roster.csv"
    roster.write_text(f"name,phone\nAnn,1\n{OLEG},2\n" + "x" * 40 + ",3\n", encoding="utf-8")
    assert players(db, "import", str(roster)) == 1
    out = capsys.readouterr()
    assert "added 2, already there 0, refused 1" in out.out
    assert "line 4" in out.err
    with Store.open(db) as store:
        assert [p.name for p in store.players.roster()] == ["Ann", OLEG]


def test_players_list_runs_as_a_real_command(db):
    players(db, "add", "Ann")
    out = subprocess.run(
        [sys.executable, "-m", "kiosk", "players", "--db", str(db), "list"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["Ann", "1500.0"]


def league_with_a_game(db):
    with Store.open(db) as store:
        store.players.add("Ann")
        store.players.add("Bob")
        store.league.start_season("Spring")
        night = store.league.tonight()
        win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=night.id), 0)
        return night


def test_a_season_exports_as_json(db, capsys):
    league_with_a_game(db)
    assert main(["export", "--db", str(db), "--season", "Spring", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["won"], r["rating"]) for r in data["standings"]] == [
        ("Ann", 1, 1516.0),
        ("Bob", 0, 1484.0),
    ]
    assert len(data["games"]) == 1


def test_a_season_exports_as_csv_with_season_and_night_rows(db, tmp_path):
    night = league_with_a_game(db)
    out = tmp_path / "spring.csv"
    assert main(["export", "--db", str(db), "--season", "Spring", "--out", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert [(r["scope"], r["name"], r["won"]) for r in rows] == [
        ("season", "Ann", "1"),
        ("season", "Bob", "0"),
        (night.date, "Ann", "1"),
        (night.date, "Bob", "0"),
    ]


def test_an_export_that_cannot_be_written_whole_leaves_last_weeks_file_whole(db, tmp_path):
    # Re-exported each week to the same file on a nearly full USB stick: the file was
    # written in place, so a full disk left a cut-off JSON where last week's CSV was.
    night = league_with_a_game(db)
    with Store.open(db) as store:
        for k in range(80):  # a season of games: a JSON export of about 55 KB
            live = store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=night.id)
            win_cricket(live, k % 2)
    out = tmp_path / "league.csv"
    assert main(["export", "--db", str(db), "--season", "Spring", "--out", str(out)]) == 0
    last_week = out.read_bytes()
    full_disk = (  # no file may grow past 40 KB (the database is read, not grown)
        "import resource, signal, sys; from kiosk.cli import main;"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN);"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (40000, 40000));"
        "sys.exit(main(sys.argv[1:]))"
    )
    argv = ["export", "--db", str(db), "--season", "Spring", "--format", "json"]
    done = subprocess.run(
        [sys.executable, "-c", full_disk, *argv, "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "darts-kiosk export:" in done.stderr, done.stderr
    assert f"{out}: cannot write it: File too large" in done.stderr, done.stderr
    assert out.read_bytes() == last_week
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("kiosk.")] == [out.name]


@contextmanager
def full_disk(folder):
    """A small disk of its own mounted at ``folder``, filled up (a USB stick with no
    room left). Needs root and mount (skipped without them)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("needs root and mount to make a small disk")
    folder.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                          capture_output=True, check=False)  # fmt: skip
    if made.returncode != 0:
        pytest.skip(f"no tmpfs to mount: {made.stderr!r}")
    try:
        (folder / "last-week.csv").write_text("scope,name\n", encoding="utf-8")
        with suppress(OSError), (folder / "holiday.jpg").open("wb") as f:
            while True:  # (until the disk is full)
                f.write(b"\xff" * 4096)
                f.flush()
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_an_export_to_a_full_disk_says_the_disk_is_full_in_words(db, tmp_path):
    # It said "[Errno 28] No space left on device", as no other command says it.
    league_with_a_game(db)
    argv = [sys.executable, "-m", "kiosk", "export", "--db", str(db), "--season", "Spring"]
    done = subprocess.run([*argv, "--out", "/dev/full"], capture_output=True, text=True)
    assert done.returncode == 1 and "Errno" not in done.stderr, done.stderr
    assert "the disk holding /dev is full" in done.stderr
    with full_disk(tmp_path / "stick") as stick:
        out = stick / "last-week.csv"
        done = subprocess.run([*argv, "--out", str(out)], capture_output=True, text=True)
        assert done.returncode == 1 and "Errno" not in done.stderr, done.stderr
        assert done.stderr.startswith(
            f"darts-kiosk export: the disk holding {stick} is full (No space left on device,"
            " writing last-week.csv): free some space there or export to another disk"
        ), done.stderr
        assert out.read_text(encoding="utf-8") == "scope,name\n"


def test_exporting_an_unknown_season_says_so(db, capsys):
    league_with_a_game(db)
    assert main(["export", "--db", str(db), "--season", "Autumn"]) == 1
    assert "no season called 'Autumn'" in capsys.readouterr().err


def test_a_backup_taken_during_a_game_holds_every_committed_dart(db, tmp_path, capsys):
    with Store.open(db) as store:
        store.players.add("Ann")
        store.players.add("Bob")
        live = store.start_game("cricket", ["Ann", "Bob"])
        for d in ("T20", "T19", "S5"):
            live.dart(d)
        target = tmp_path / "copy.sqlite3"
        assert main(["backup", "--db", str(db), str(target)]) == 0  # the kiosk still has it open
        live.dart("DB")
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT COUNT(*) FROM game_events").fetchone()[0] == 3
    copy.close()
    assert main(["backup", "--db", str(db), str(target)]) == 1  # no silent overwrite
    assert "exists" in capsys.readouterr().err
    assert main(["backup", "--db", str(db), str(tmp_path)]) == 0  # a directory: dated name
    assert len(list(tmp_path.glob("kiosk-*.sqlite3"))) == 1


def test_backing_up_a_missing_database_fails_clearly(tmp_path, capsys):
    assert main(["backup", "--db", str(tmp_path / "none.sqlite3"), str(tmp_path / "b")]) == 1
    assert "no database" in capsys.readouterr().err


# -- which database: the kiosk's, from the settings --------------------------------------


def settings_with_data_dir(tmp_path, data_dir):
    path = tmp_path / "kiosk.toml"
    path.write_text(f'data_dir = "{data_dir}"\n', encoding="utf-8")
    return path


def test_players_list_with_a_config_file_reads_the_database_in_its_data_dir(tmp_path, capsys):
    data = tmp_path / "bar-data"
    with Store.open(data / "kiosk.sqlite3") as store:
        store.players.add(OLEG)
    config = settings_with_data_dir(tmp_path, data)
    assert main(["players", "list", "--config", str(config)]) == 0
    assert capsys.readouterr().out.split() == [OLEG, "1500.0"]
    assert main(["players", "--config", str(config), "list"]) == 0  # before the action too
    assert capsys.readouterr().out.split() == [OLEG, "1500.0"]


def test_the_real_command_with_a_config_file_reads_its_data_dir(tmp_path):
    data = tmp_path / "bar-data"
    with Store.open(data / "kiosk.sqlite3") as store:
        store.players.add("Ann")
    config = settings_with_data_dir(tmp_path, data)
    out = subprocess.run(
        [sys.executable, "-m", "kiosk", "players", "list", "--config", str(config)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["Ann", "1500.0"]


def test_db_overrides_the_config_files_data_dir(tmp_path, db, capsys):
    players(db, "add", "Bob")
    config = settings_with_data_dir(tmp_path, tmp_path / "elsewhere")
    capsys.readouterr()
    assert main(["players", "list", "--config", str(config), "--db", str(db)]) == 0
    assert capsys.readouterr().out.split() == ["Bob", "1500.0"]
    assert not (tmp_path / "elsewhere").exists()


def test_export_and_backup_use_the_config_files_data_dir(tmp_path, capsys):
    data = tmp_path / "bar-data"
    league_with_a_game(data / "kiosk.sqlite3")
    config = settings_with_data_dir(tmp_path, data)
    assert main(["export", "--config", str(config), "--season", "Spring", "--format", "json"]) == 0
    assert [r["name"] for r in json.loads(capsys.readouterr().out)["standings"]] == ["Ann", "Bob"]
    copy = tmp_path / "copy.sqlite3"
    assert main(["backup", "--config", str(config), str(copy)]) == 0
    with Store.open(copy) as store:
        assert [p.name for p in store.players.roster()] == ["Ann", "Bob"]


def test_without_options_the_data_dir_comes_from_the_environment_as_for_the_kiosk(tmp_path):
    import argparse

    from kiosk.commands._db import db_path

    args = argparse.Namespace(db=None, data_dir=None, config=None)
    env = {"STATE_DIRECTORY": str(tmp_path / "state"), "HOME": str(tmp_path)}
    assert db_path(args, env) == tmp_path / "state" / "kiosk.sqlite3"
    args.data_dir = tmp_path / "dir"
    assert db_path(args, env) == tmp_path / "dir" / "kiosk.sqlite3"


def test_a_bad_config_file_is_a_clear_error_and_no_database_is_made(tmp_path, capsys):
    bad = tmp_path / "kiosk.toml"
    bad.write_text("data_dir = 3\n", encoding="utf-8")
    assert main(["players", "add", "Ann", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "data_dir" in err and "Traceback" not in err
    assert main(["players", "list", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_listing_players_of_a_missing_database_says_so_and_makes_no_file(tmp_path, capsys):
    config = settings_with_data_dir(tmp_path, tmp_path / "typo")
    assert main(["players", "list", "--config", str(config)]) == 1
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "typo").exists()


def test_over_ssh_the_commands_use_the_installed_kiosks_database(tmp_path):
    # Installed as a service, the kiosk keeps its data in /var/lib/darts-kiosk; a
    # command typed over SSH has no STATE_DIRECTORY and must not make a new database
    # in the user's home that the kiosk never sees.
    import argparse

    from kiosk.commands._db import db_path

    installed = tmp_path / "var-lib-darts-kiosk"
    installed.mkdir()
    args = argparse.Namespace(db=None, data_dir=None, config=None)
    ssh = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "none")}
    assert db_path(args, ssh, installed) == installed / "kiosk.sqlite3"
    # The service itself, and anything said explicitly, still win.
    service = {**ssh, "STATE_DIRECTORY": str(tmp_path / "state")}
    assert db_path(args, service, installed) == tmp_path / "state" / "kiosk.sqlite3"
    config = settings_with_data_dir(tmp_path, tmp_path / "mine")
    assert db_path(argparse.Namespace(db=None, data_dir=None, config=config), ssh, installed) == (
        tmp_path / "mine" / "kiosk.sqlite3"
    )
    own = {**ssh, "XDG_STATE_HOME": str(tmp_path / "xdg")}  # said by the user: theirs
    assert db_path(args, own, installed) == tmp_path / "xdg" / "darts-kiosk" / "kiosk.sqlite3"
    # Not installed: the user's own, as before.
    assert db_path(args, ssh, tmp_path / "absent") == (
        tmp_path / "home" / ".local" / "state" / "darts-kiosk" / "kiosk.sqlite3"
    )


def test_the_installed_kiosks_data_is_refused_to_whoever_should_not_write_it(tmp_path):
    import argparse
    import os

    from kiosk.commands._db import db_path

    installed = tmp_path / "var-lib-darts-kiosk"
    installed.mkdir()
    args = argparse.Namespace(db=None, data_dir=None, config=None)
    ssh = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "none")}
    if os.geteuid() == 0:
        os.chown(installed, 4242, 4242)  # the service's user; root's files would lock it out
        with pytest.raises(ConfigError, match="sudo -u 4242"):
            db_path(args, ssh, installed)
    else:
        installed.chmod(0o500)  # mode 0750 of another user: not writable by this one
        with pytest.raises(ConfigError, match="sudo -u"):
            db_path(args, ssh, installed)
        installed.chmod(0o700)


def test_a_command_kept_waiting_by_another_program_says_so(db, capsys, monkeypatch):
    # "database is locked" alone read as a file that had locked up, or a damaged one.
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.2)
    Store.open(db).close()
    with closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # the kiosk (or a backup) writing meanwhile
        assert main(["players", "add", "Anna", "--db", str(db)]) == 1
        err = capsys.readouterr().err
        assert f"{db} is busy: another program" in err and "try again" in err, err
        other.execute("ROLLBACK")
    assert main(["players", "add", "Anna", "--db", str(db)]) == 0


def test_a_command_kept_from_even_reading_the_file_says_it_is_busy_not_unusable(
    db, capsys, monkeypatch
):
    # Held so that it cannot even be read (another program's exclusive lock), the file
    # failed the store's first read: SQLite's "database is locked" came wrapped as "not
    # a usable SQLite database", which reads as a damaged file.
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.2)
    Store.open(db).close()
    with closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute("PRAGMA user_version = 6")  # (a write: the lock is taken)
        assert main(["players", "list", "--db", str(db)]) == 1
        err = capsys.readouterr().err
        assert f"{db} is busy: another program" in err and "not a usable" not in err, err
        other.execute("ROLLBACK")
