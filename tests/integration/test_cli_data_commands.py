"""The commands that keep the league's data, as a user runs them: players, league,
export and backup on the kiosk's database (real processes, real SQLite files, in a
temporary directory). A refusal is one line on stderr and a non-zero exit, never a
traceback, and the file is left as it was."""

from __future__ import annotations

import csv
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from cli_support import fails_cleanly, kiosk

pytestmark = pytest.mark.timeout(90)


def test_players_are_added_listed_renamed_merged_and_imported(tmp_path: Path) -> None:
    assert kiosk(tmp_path, "players", "add", "Ann").stdout == "added Ann\n"
    assert kiosk(tmp_path, "players", "add", "Bob").returncode == 0
    fails_cleanly(kiosk(tmp_path, "players", "add", "ann"), "ann")
    assert kiosk(tmp_path, "players", "rename", "Bob", "Robert").returncode == 0
    assert kiosk(tmp_path, "players", "add", "Rob").returncode == 0
    r = kiosk(tmp_path, "players", "merge", "Rob", "Robert")
    assert r.returncode == 0, r.stderr
    roster = tmp_path / "roster.csv"
    roster.write_text("\ufeffname\nCarl\nDora\nAnn\n", encoding="utf-8")
    r = kiosk(tmp_path, "players", "import", str(roster))
    assert r.returncode == 0, r.stderr
    names = [line.split()[0] for line in kiosk(tmp_path, "players", "list").stdout.splitlines()]
    assert names == ["Ann", "Carl", "Dora", "Robert"]
    fails_cleanly(kiosk(tmp_path, "players", "import", "missing.csv"), "missing.csv")
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe\x00")
    fails_cleanly(kiosk(tmp_path, "players", "import", "bin.csv"), "bin.csv")
    assert (tmp_path / "state" / "darts-kiosk" / "kiosk.sqlite3").exists()


def test_league_export_and_backup_work_on_the_kiosks_database(tmp_path: Path) -> None:
    assert kiosk(tmp_path, "players", "add", "Ann").returncode == 0
    assert kiosk(tmp_path, "league", "season", "start", "Spring").returncode == 0
    assert "Spring" in kiosk(tmp_path, "league", "season", "list").stdout
    r = kiosk(tmp_path, "export", "--season", "Spring", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert set(json.loads(r.stdout)) >= {"season", "standings", "nights", "games"}
    r = kiosk(tmp_path, "export", "--season", "Spring", "--format", "csv")
    header = next(csv.reader(r.stdout.splitlines()))
    assert {"name", "played", "won", "lost", "drawn"} <= set(header)
    fails_cleanly(kiosk(tmp_path, "export", "--season", "Autumn", "--format", "csv"), "Autumn")
    copy = tmp_path / "copy.sqlite3"
    r = kiosk(tmp_path, "backup", str(copy))
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(copy)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert con.execute("SELECT count(*) FROM players").fetchone() == (1,)
    finally:
        con.close()
    fails_cleanly(kiosk(tmp_path, "backup", str(copy)), "exists")
    fails_cleanly(kiosk(tmp_path, "backup", str(tmp_path / "no" / "dir.sqlite3")), "no")


def test_a_name_that_starts_with_a_dash_is_refused_with_the_command_that_works(
    tmp_path: Path,
) -> None:
    # argparse takes -x for an option and said only "the following arguments are
    # required: name": the owner was not told that -- lets a name start with "-".
    def refused_saying(r: subprocess.CompletedProcess[str], works: str) -> None:
        assert r.returncode == 2 and "Traceback" not in r.stderr, r
        assert r.stderr.splitlines()[-1].endswith(f"as in: darts-kiosk {works}"), r.stderr

    refused_saying(kiosk(tmp_path, "players", "add", "-x"), "players add -- -x")
    assert kiosk(tmp_path, "players", "add", "--", "-x").stdout == "added -x\n"
    db = str(tmp_path / "state" / "darts-kiosk" / "kiosk.sqlite3")
    r = kiosk(tmp_path, "players", "rename", "-x", "--db", db, "-Zed")
    refused_saying(r, f"players rename --db {db} -- -x -Zed")
    assert kiosk(tmp_path, "players", "rename", "--db", db, "--", "-x", "-Zed").returncode == 0
    r = kiosk(tmp_path, "export", "--season", "-S")
    assert r.returncode == 2 and r.stderr.splitlines()[-1].endswith(": --season=-S"), r.stderr
    fails_cleanly(kiosk(tmp_path, "export", "--season=-S"), "no season called '-S'")
    assert kiosk(tmp_path, "players", "list").stdout.split() == ["-Zed", "1500.0"]


def test_the_dash_hint_is_not_given_for_a_value_forgotten_or_an_option_shortened(
    tmp_path: Path,
) -> None:
    # A value left out before the next option is not a value that starts with '-'; an
    # option shortened (argparse takes --data-d for --data-dir) is one of its options.
    r = kiosk(tmp_path, "export", "--season", "--format", "csv")
    assert r.returncode == 2 and r.stderr.splitlines()[-1].endswith(
        "argument --season: expected one argument"
    ), r.stderr
    r = kiosk(tmp_path, "players", "add", "--data-d", str(tmp_path / "data"))
    assert r.returncode == 2 and r.stderr.splitlines()[-1].endswith(
        "the following arguments are required: name"
    ), r.stderr
    r = kiosk(tmp_path, "players", "add", "--data-d", str(tmp_path / "data"), "-x")
    works = f"players add --data-d {tmp_path / 'data'} -- -x"
    assert r.stderr.splitlines()[-1].endswith(f"as in: darts-kiosk {works}"), r.stderr
    assert kiosk(tmp_path, *works.split()).stdout == "added -x\n"


def test_a_name_too_long_is_refused_with_its_start_not_echoed_whole(tmp_path: Path) -> None:
    # A pasted paragraph was echoed whole in the refusal: a screenful of stderr.
    name = "Aleksandr Konstantinovich Ivanov the Third " * 200
    r = kiosk(tmp_path, "players", "add", name)
    fails_cleanly(r, "at most 24 characters", "'Aleksandr Konstantinovic'...", "has 8599")
    assert len(r.stderr) < 120, r.stderr
    roster = tmp_path / "roster.csv"
    roster.write_text(f"name\nAnn\n{name}\n", encoding="utf-8")
    r = kiosk(tmp_path, "players", "import", str(roster))
    assert r.returncode == 1 and len(r.stderr) < 120, r.stderr
    assert r.stderr.startswith("line 3: a name has at most 24 characters: 'Aleksandr"), r.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["players", "list"],
        ["players", "add", "Zed"],
        ["export", "--season", "S", "--format", "json"],
        ["backup", "out.sqlite3"],
        ["league", "season", "list"],
    ],
)
def test_a_file_that_is_not_sqlite_is_refused_and_left_as_it_was(
    tmp_path: Path, command: list[str]
) -> None:
    db = tmp_path / "notes.txt"
    text = b"league notes, not a database\n" * 40
    db.write_bytes(text)
    fails_cleanly(kiosk(tmp_path, *command, "--db", str(db)), "notes.txt")
    assert db.read_bytes() == text


@pytest.mark.parametrize(
    "command",
    [
        ["players", "list"],
        ["players", "rename", "Ann", "Annie"],
        ["league", "season", "list"],
        ["league", "standings"],
        ["export", "--season", "S"],
        ["backup", "out.sqlite3"],
    ],
)
def test_a_command_that_reads_an_empty_file_says_so_and_leaves_it_empty(
    tmp_path: Path, command: list[str]
) -> None:
    # A 0-byte file (touch, a copy cut short) was made a kiosk database by a command
    # that only reads, and listed as a kiosk with no players.
    db = tmp_path / "kiosk.sqlite3"
    db.touch()
    fails_cleanly(kiosk(tmp_path, *command, "--db", str(db)), str(db), "empty")
    assert [p.name for p in tmp_path.iterdir()] == [db.name] and db.stat().st_size == 0
    # (a command that adds makes it a database, as it makes a missing one)
    assert kiosk(tmp_path, "players", "add", "Ann", "--db", str(db)).returncode == 0
    assert kiosk(tmp_path, "players", "list", "--db", str(db)).stdout.split() == ["Ann", "1500.0"]


def test_a_directory_given_as_the_database_is_refused_in_one_line(tmp_path: Path) -> None:
    fails_cleanly(kiosk(tmp_path, "players", "list", "--db", str(tmp_path)), "directory")


# -- cameras ----------------------------------------------------------------------------------
