"""A power cut (or kill -9) while a Cricket game's results are up: the restarted kiosk
comes back on them, the winning dart still undoable and a dart still correctable; the
game counts once they go, and only once (headless, real pty, real database file)."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from kiosk_support import (
    ANNA_WINS,
    add_players,
    db_file,
    kiosk_on_board,
    power_cut_at_the_end,
    send,
    start_game,
    stored_events,
)

from kiosk.adapters.store import Store
from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.formula import start_formula
from kiosk.ui.screens.results import RESULTS_IDLE_S

NOTE = "Back after a restart: - (undo) and * (correct a dart) still work"
ANNA_WON = "Cricket: winner Anna  (Anna · Boris)"


def cut_on_the_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Anna wins with her 14th dart (SB), her results are up ... and the power goes."""
    with power_cut_at_the_end(monkeypatch), kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS[:14])
        d.wait_screen("results")


def counted(tmp_path: Path) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(game, player) of every result row, and of every rating change."""
    with closing(sqlite3.connect(db_file(tmp_path))) as conn:
        results = conn.execute("SELECT game_id, player_id FROM results ORDER BY 1, 2")
        ratings = conn.execute("SELECT game_id, player_id FROM ratings ORDER BY 1, 2")
        return [tuple(r) for r in results], [tuple(r) for r in ratings]


def last_results(texts: list[str]) -> list[str]:
    return [t for t in texts if t.startswith(("Cricket:", "Formula darts:"))]


def test_the_results_a_power_cut_left_come_back_and_the_winning_dart_can_be_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_players(tmp_path, "Anna", "Boris")
    cut_on_the_results(tmp_path, monkeypatch)
    with kiosk_on_board(tmp_path) as (d, board):
        assert d.screen.name == "results"
        assert "Anna wins!" in d.texts and NOTE in d.texts, d.texts
        with Store.open(db_file(tmp_path)) as store:  # not counted yet: it may change
            assert store.games.get(1).status == "playing"
        assert counted(tmp_path) == ([], [])
        d.press("-")  # her bull bounced out: the winning dart is taken back
        assert d.screen.name == "cricket"
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.outcome() is None and game.current_player == "Anna"
        assert [str(x) for x in game.darts_this_turn] == ["DB"]
        assert stored_events(tmp_path)[-1][1] == "undo"
        send(d, board, ["MISS", "SB"])  # her own last two darts: she wins all the same
        d.wait_screen("results")
        assert "Anna wins!" in d.texts
        d.press("/")  # the results go: now the game counts
        assert d.screen.name == "main-menu"
    with Store.open(db_file(tmp_path)) as store:
        game_record = store.games.get(1)
        assert game_record.status == "finished" and game_record.rated
        done = store.games.replay(1)
        assert [str(x) for x in done.history][-3:] == ["DB", "MISS", "SB"]
    results, ratings = counted(tmp_path)
    assert len(results) == 2 and len(ratings) == 2 and {g for g, _ in ratings} == {1}


def test_a_dart_misread_for_the_win_is_corrected_on_the_results_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut_on_the_results(tmp_path, monkeypatch)
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "results"
        d.press("*")
        assert d.screen.name == "correct-dart"
        d.press("2")
        d.press("5\n")  # the SB was an S5
        d.press("\n")  # (asked once: really)
        assert d.screen.name == "cricket"
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.outcome() is None and game.marks("Anna", 25) == 2
        assert d.kiosk.results == []  # the win is off the attract screen's list
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "playing"  # in play, offered at the next start
        assert store.games.replay(1).outcome() is None


def test_results_that_came_back_count_once_in_the_last_results_and_the_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_players(tmp_path, "Anna", "Boris")
    cut_on_the_results(tmp_path, monkeypatch)
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "results"
        d.screen.update(time.monotonic() + RESULTS_IDLE_S + 1)  # left alone on the TV
        d.settle()
        assert d.screen.name == "attract"
        assert last_results(d.texts) == [ANNA_WON], d.texts
        with Store.open(db_file(tmp_path)) as store:
            game = store.games.get(1)
            assert game.status == "finished"
            table = {
                s.name: (s.played, s.won) for s in store.league.standings(night_id=game.night_id)
            }
            assert table == {"Anna": (1, 1), "Boris": (1, 0)}
    before = counted(tmp_path)
    with kiosk_on_board(tmp_path) as (d, _board):  # and after another restart: the same
        assert d.screen.name == "attract"
        assert last_results(d.texts) == [ANNA_WON], d.texts
    assert counted(tmp_path) == before and len(before[1]) == 2


def test_only_the_newest_games_results_come_back_an_older_game_over_is_finished(
    tmp_path: Path,
) -> None:
    with Store.open(db_file(tmp_path)) as store:  # (as a kiosk that failed to close one)
        for names in (("Anna", "Boris"), ("Boris", "Anna")):
            for name in names:
                if store.players.find(name) is None:
                    store.players.add(name)
            live = store.start_game("cricket", list(names), {"round_limit": 20}, rated=True)
            for dart in ANNA_WINS[:14]:
                live.dart(dart)
            assert live.is_over()
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "results" and "Boris wins!" in d.texts
        with Store.open(db_file(tmp_path)) as store:
            assert store.games.get(1).status == "finished"
            assert store.games.get(2).status == "playing"
        d.press("/")
        assert [line.winner for line in d.kiosk.results] == ["Boris", "Anna"]
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(2).status == "finished"
    assert {g for g, _ in counted(tmp_path)[1]} == {1, 2}


def test_results_left_longer_than_they_stay_up_are_not_shown_again_and_the_game_counts(
    tmp_path: Path,
) -> None:
    # The kiosk was off overnight: a running kiosk would have counted the game ten
    # minutes after its results came up, and taken them down.
    last_night = datetime.now(UTC) - timedelta(hours=9)
    with Store.open(db_file(tmp_path), clock=lambda: last_night) as store:
        store.players.add("Anna")
        store.players.add("Boris")
        live = store.start_game("cricket", ["Anna", "Boris"], {"round_limit": 20}, rated=True)
        for dart in ANNA_WINS[:14]:
            live.dart(dart)
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "attract"
        assert last_results(d.texts) == [ANNA_WON], d.texts
    with Store.open(db_file(tmp_path)) as store:
        game = store.games.get(1)
        assert game.status == "finished" and game.rated
    assert len(counted(tmp_path)[1]) == 2


def test_a_clock_behind_the_games_end_cannot_tell_how_long_ago_and_the_game_counts(
    tmp_path: Path,
) -> None:
    # A Pi with no clock chip starts on the time it last saved, behind the darts of the
    # game cut off, whether the cut lasted a minute or the night: taken for the night,
    # the game counts at the start, and the morning staff do not find last night's
    # results (their first Enter a rematch of them).
    ahead = datetime.now(UTC) + timedelta(hours=1)
    with Store.open(db_file(tmp_path), clock=lambda: ahead) as store:
        store.players.add("Anna")
        store.players.add("Boris")
        live = store.start_game("cricket", ["Anna", "Boris"], {"round_limit": 20})
        for dart in ANNA_WINS[:14]:
            live.dart(dart)
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "attract"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "finished"


def test_a_formula_game_over_at_a_power_cut_is_counted_at_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its end offers no undo nor correction: nothing to come back for.
    add_players(tmp_path, "Anna")
    with power_cut_at_the_end(monkeypatch), kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="qualification"))
        d.settle()
        d.press("\n")
        d.screen.update(time.monotonic() + 200)  # her time runs out: the game is lost
        d.screen.update(time.monotonic() + 202)
        d.wait_screen("formula-end")
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "attract"
        assert last_results(d.texts) == [
            "Formula darts: lost  (Anna)  No formula in time: the game is lost"
        ], d.texts
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "finished" and store.games.get(1).rated
