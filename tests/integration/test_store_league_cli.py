"""``darts-kiosk league``: seasons and standings tables, on a real SQLite file."""

import subprocess
import sys
from datetime import datetime, timedelta

import pytest
from test_store_support import Clock, draw_cricket, win_cricket

from kiosk.adapters.store import Store
from kiosk.cli import main


@pytest.fixture
def db(tmp_path):
    return tmp_path / "kiosk.sqlite3"


def league(db, *argv):
    return main(["league", *argv, "--db", str(db)])


def two_nights(db):
    """Season Spring: night 1 Ann beats Bob, Cy draws Di; night 2 (a week on) Bob beats
    Cy. Returns the two night dates."""
    clock = Clock(datetime(2025, 3, 4, 20, 0).astimezone())
    with Store.open(db, clock=clock) as store:
        for name in ("Ann", "Bob", "Cy", "Di"):
            store.players.add(name)
        store.league.start_season("Spring")
        first = store.league.tonight()
        win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
        draw_cricket(store, ["Cy", "Di"])
        clock.now += timedelta(days=7)
        second = store.league.tonight()
        win_cricket(store.start_game("cricket", ["Bob", "Cy"], rated=True), 0)
    return first.date, second.date


def names_in_order(out, names):
    """The table's player names, top to bottom."""
    found = []
    for line in out.splitlines():
        cells = line.split()
        hit = [n for n in names if n in cells]
        found += hit
    return found


def test_a_season_is_started_and_listed_as_current(db, capsys):
    assert league(db, "season", "start", "Spring 2025") == 0
    assert "season 'Spring 2025' started" in capsys.readouterr().out
    assert league(db, "season", "start", "Autumn") == 0
    capsys.readouterr()
    assert league(db, "season", "list") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("Spring 2025") and "(current)" not in lines[1]
    assert lines[2].startswith("Autumn") and lines[2].endswith("(current)")
    with Store.open(db) as store:
        assert store.league.current_season().name == "Autumn"


def test_a_season_name_taken_is_refused_clearly(db, capsys):
    league(db, "season", "start", "Spring")
    assert league(db, "season", "start", "Spring") == 1
    err = capsys.readouterr().err
    assert "already a season called 'Spring'" in err and "Traceback" not in err


def test_the_season_list_counts_nights_and_rated_games(db, capsys):
    first, second = two_nights(db)
    assert league(db, "season", "list") == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:3] == ["Spring", "2", "3"]
    assert f"{first} .. {second}" in " ".join(row)


def test_the_season_table_is_printed_in_standings_order(db, capsys):
    two_nights(db)
    assert league(db, "standings", "--season", "Spring") == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Season Spring"
    assert lines[1].split()[:6] == ["#", "Player", "P", "W", "L", "D"]
    # Ann 1-0 above Bob 1-1 (fewer played); Di (a draw) above Cy (a draw, a loss).
    assert names_in_order(out, ["Ann", "Bob", "Cy", "Di"]) == ["Ann", "Bob", "Di", "Cy"]
    ann = lines[2].split()
    assert ann[:6] == ["1", "Ann", "1", "1", "0", "0"]
    assert ann[6] == f"{21 / 8 * 3:.2f}"  # her MPR
    assert ann[8] == "-"  # no formula games: a dash, not 0


def test_the_table_gives_formula_points_rounds_to_zero_and_the_best_game(db, capsys):
    with Store.open(db) as store:
        store.players.add("Ann")
        for start in (50, 100):  # "50+0*1" takes 50 a round: 0 in one round, then in two
            quick = {"mode": "qualification", "digits": [5001] * 3, "start": start, "bonus": 0}
            live = store.start_game("formula", ["Ann"], quick, rated=True)
            while not live.is_over():
                live.submit(0, "50+0*1")
            live.finish()
    assert league(db, "standings", "--night", "tonight") == 0
    lines = capsys.readouterr().out.splitlines()
    assert "F pts" in lines[1] and "F rnds" in lines[1] and "F best" in lines[1]
    ann = lines[2].split()
    assert ann[8:11] == ["50.0", "1.5", "1"]  # a round; rounds to 0, on average and at best


def test_without_options_the_current_season_is_shown(db, capsys):
    two_nights(db)
    assert league(db, "standings") == 0
    assert capsys.readouterr().out.splitlines()[0] == "Season Spring"


def test_a_nights_table_counts_only_that_night(db, capsys):
    first, second = two_nights(db)
    assert league(db, "standings", "--night", first) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"Night {first} (season Spring)"
    assert names_in_order(out, ["Ann", "Bob", "Cy", "Di"]) == ["Ann", "Cy", "Di", "Bob"]
    # Cy and Di drew: level on everything, they share second place.
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["1", "2=", "2=", "4"]
    assert league(db, "standings", "--night", second) == 0
    assert names_in_order(capsys.readouterr().out, ["Ann", "Bob", "Cy", "Di"]) == ["Bob", "Cy"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["standings", "--night", "4th of March"], "is not a date like 2025-03-04"),
        (["standings", "--night", "2031-01-01"], "no league night on 2031-01-01"),
        (["standings", "--season", "Winter"], "no season called 'Winter'"),
    ],
)
def test_a_bad_night_or_season_is_a_clear_error(db, capsys, argv, message):
    two_nights(db)
    assert league(db, *argv) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_season_and_night_together_are_refused_by_the_parser(db, capsys):
    two_nights(db)
    with pytest.raises(SystemExit):
        league(db, "standings", "--season", "Spring", "--night", "2025-03-04")
    assert "not allowed with" in capsys.readouterr().err


def test_standings_of_a_missing_database_say_so_and_make_no_file(db, capsys):
    assert league(db, "standings") == 1
    assert "no database at" in capsys.readouterr().err
    assert not db.exists()


def test_a_database_with_no_seasons_says_how_to_start_one(db, capsys):
    with Store.open(db) as store:
        store.players.add("Ann")
    assert league(db, "standings") == 1
    assert "league season start NAME" in capsys.readouterr().err
    assert league(db, "season", "list") == 0
    assert "no seasons yet" in capsys.readouterr().out


def test_the_league_command_runs_as_a_real_process(db):
    two_nights(db)
    out = subprocess.run(
        [sys.executable, "-m", "kiosk", "league", "standings", "--db", str(db)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert names_in_order(out, ["Ann", "Bob", "Cy", "Di"]) == ["Ann", "Bob", "Di", "Cy"]
