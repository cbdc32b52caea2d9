"""``darts-kiosk league``: seasons and standings tables, on a real SQLite file."""

import subprocess
import sys
from datetime import datetime, timedelta

import pytest
from test_store_support import Clock, draw_cricket, formula_qualifications, win_cricket

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
        formula_qualifications(store, "Ann")  # 0 in one round, then in two
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


def test_games_a_kiosk_put_in_last_weeks_night_are_listed_and_moved_to_their_own(db, capsys):
    # A kiosk without network time, unplugged after the league night of 4 March, starts
    # a week later with its clock still on 4 March: the new games join that night.
    clock = Clock(datetime(2025, 3, 4, 20, 0).astimezone())
    with Store.open(db, clock=clock) as store:
        for name in ("Ann", "Bob", "Cy", "Di"):
            store.players.add(name)
        win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)  # game 1
        clock.now += timedelta(hours=1)  # a week later, by the kiosk's clock an hour
        win_cricket(store.start_game("cricket", ["Cy", "Di"], rated=True), 1)  # game 2
        win_cricket(store.start_game("cricket", ["Bob", "Cy"], rated=True), 0)  # game 3
        store.start_game("cricket", ["Ann", "Di"])  # game 4: training, no night
        ratings = {p.name: store.players.rating(p.id) for p in store.players.roster()}
    assert league(db, "night", "2025-03-04") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Night 2025-03-04 (season ")
    assert [line.split()[0] for line in out[1:]] == ["1", "2", "3"]
    assert "Cy v Di" in out[2] and out[2].endswith("(Di)")
    assert out[1].split()[1] == "20:00"

    assert league(db, "move", "2-3", "--to", "2025-03-11") == 0
    assert "moved 2 game(s) to the night of 2025-03-11" in capsys.readouterr().out
    assert league(db, "standings", "--night", "2025-03-04") == 0
    assert names_in_order(capsys.readouterr().out, ["Ann", "Bob", "Cy", "Di"]) == ["Ann", "Bob"]
    assert league(db, "standings", "--night", "2025-03-11") == 0
    assert set(names_in_order(capsys.readouterr().out, ["Ann", "Bob", "Cy", "Di"])) == {
        "Bob", "Cy", "Di"}  # fmt: skip
    with Store.open(db) as store:
        assert {p.name: store.players.rating(p.id) for p in store.players.roster()} == ratings
        assert [n.date for n in store.league.nights(store.league.current_season().id)] == [
            "2025-03-04", "2025-03-11"]  # fmt: skip

    # Back again: the night of the 11th is left empty and goes.
    assert league(db, "move", "2,3", "--to", "2025-03-04") == 0
    assert "the night of 2025-03-11 had no games left" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("games", "to", "said"),
    [("4", "2025-03-11", "game 4 is not a league game"),
     ("9", "2025-03-11", "no game 9"),
     ("3-1", "2025-03-11", "'3-1' runs backwards: write it 1-3"),
     ("1-20000", "2025-03-11", "at most 10000 games at a time"),
     ("\u00b2", "2025-03-11", "is not game numbers"),  # a superscript 2: no number here
     ("4-5", "2025-03-11", "none of these games is a league game"),
     ("1;2", "2025-03-11", "is not game numbers"),
     ("1", "11.03.2025", "is not a date like 2025-03-04")],
)  # fmt: skip
def test_a_move_that_cannot_be_done_is_refused_and_changes_nothing(db, capsys, games, to, said):
    clock = Clock(datetime(2025, 3, 4, 20, 0).astimezone())
    with Store.open(db, clock=clock) as store:
        for name in ("Ann", "Bob"):
            store.players.add(name)
        for _ in range(3):
            win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
        store.start_game("cricket", ["Ann", "Bob"])  # game 4: training
    assert league(db, "move", games, "--to", to) == 1
    assert said in capsys.readouterr().err
    with Store.open(db) as store:
        assert [n.date for n in store.league.nights(store.league.current_season().id)] == [
            "2025-03-04"]  # fmt: skip


def test_a_range_leaves_out_training_games_and_the_listing_says_who_won(db, capsys, monkeypatch):
    import time

    monkeypatch.setenv("TZ", "America/Argentina/Buenos_Aires")  # UTC-3: times are local
    time.tzset()
    try:
        clock = Clock(datetime(2025, 3, 4, 20, 0).astimezone())
        with Store.open(db, clock=clock) as store:
            for name in ("Ann", "Bob", "Cy", "Di"):
                store.players.add(name)
            teams = {"teams": [[0, 2], [1, 3]]}
            win_cricket(
                store.start_game("cricket", ["Ann", "Bob", "Cy", "Di"], teams, rated=True), 0
            )
            store.start_game("cricket", ["Ann", "Bob"])  # game 2: training, no night
            draw_cricket(store, ["Cy", "Di"])  # game 3
            store.start_game("cricket", ["Ann", "Di"], rated=True)  # game 4: still in play
            store.start_game("cricket", ["Bob", "Cy"], rated=True).abandon()  # game 5
        assert league(db, "night", "2025-03-04") == 0
        out = capsys.readouterr().out.splitlines()
        assert [line.split()[:2] for line in out[1:]] == [
            ["1", "20:00"], ["3", "20:00"], ["4", "20:00"], ["5", "20:00"]]  # fmt: skip
        assert out[1].endswith("(Ann, Cy)")  # a team's win: both
        assert "Ann & Cy v Bob & Di" in out[1]  # the two teams, not four players
        assert "Cy v Di" in out[2]
        assert out[2].endswith("(draw)") and out[3].endswith("(in play)")
        assert out[4].endswith("(abandoned)")

        assert league(db, "move", "1-6,1", "--to", "2025-03-11") == 0
        said = capsys.readouterr().out
        assert "moved 4 game(s) to the night of 2025-03-11" in said
        assert "left out (no league game): 2, 6" in said
        assert "the night of 2025-03-04 had no games left and was removed" in said
        assert league(db, "move", "1", "--to", "2025-03-11") == 0
        assert "1 game(s) were in the night of 2025-03-11 already" in capsys.readouterr().out
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_games_of_two_seasons_are_not_moved_together(db, capsys):
    clock = Clock(datetime(2025, 3, 4, 20, 0).astimezone())
    with Store.open(db, clock=clock) as store:
        for name in ("Ann", "Bob"):
            store.players.add(name)
        win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
        store.league.start_season("Autumn")
        win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 1)
    assert league(db, "move", "1-2", "--to", "2025-03-11") == 1
    assert "different seasons" in capsys.readouterr().err
