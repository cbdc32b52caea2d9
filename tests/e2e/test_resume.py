"""Nothing lost: the kiosk keeps every game in its SQLite file as it is played, and a
restarted kiosk offers the unfinished game back, exactly as it was (headless, real pty,
real database file)."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from kiosk_support import (
    ANNA_WINS,
    add_players,
    db_file,
    kiosk_on_board,
    left_with_one_dart,
    send,
    start_game,
    stored_events,
)

from kiosk.adapters.store import Store
from kiosk.config import Config
from kiosk.domain.replay import GameEvent
from kiosk.ui.driver import Driver
from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens import resume
from kiosk.ui.screens.formula import start_formula


def test_each_dart_is_in_the_database_when_the_scoreboard_shows_it(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        for n, dart in enumerate(["T20", "S19", "MISS", "D18"], start=1):
            send(d, board, [dart])
            assert dart in d.texts
            events = stored_events(tmp_path)
            assert len(events) == n and events[-1][1:] == ("dart", f'{{"dart":"{dart}"}}')
        d.press("-")  # undo is an event too, after the darts, in order
        d.press("+")  # (Anna's finished turn, held again by the undo: no event)
        d.press("+")  # and ending a turn early is one
        kinds = [k for _, k, _ in stored_events(tmp_path)]
        assert kinds == ["dart", "dart", "dart", "dart", "undo", "turn_end"]


def test_a_restarted_kiosk_offers_the_unfinished_game_and_resumes_it_exactly(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20", "T20", "S19", "D18", "MISS"])
        before = d.screen.session.game.state  # type: ignore[attr-defined]
    with kiosk_on_board(tmp_path) as (d, board):
        assert d.screen.name == "resume"
        assert any("Anna" in t and "Boris" in t for t in d.texts), d.texts
        d.press("1")
        assert d.screen.name == "cricket"
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.state == before
        assert game.current_player == "Boris" and [str(x) for x in game.darts_this_turn] == [
            "D18",
            "MISS",
        ]
        send(d, board, ["S20"])  # play goes on, into the same stored game
        assert len({g for g, _, _ in stored_events(tmp_path)}) == 1


def test_a_turn_on_hold_at_a_power_cut_is_on_hold_again_and_next_does_not_skip_a_player(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20", "S19", "D18"])  # Anna's turn, shown until her darts are out
    with kiosk_on_board(tmp_path) as (d, board):
        send(d, board, ["BTN NEXT"])  # the board's NEXT answers the offer: resume
        assert d.screen.name == "cricket"
        session = d.screen.session  # type: ignore[attr-defined]
        assert session.shown_player == "Anna" and "D18" in d.texts  # her turn, as it was
        send(d, board, ["BTN NEXT"])  # her darts pulled
        game = session.game
        assert game.current_player == "Boris" and game.round == 1 and not game.darts_this_turn
        assert [k for _, k, _ in stored_events(tmp_path)] == ["dart"] * 3  # no turn skipped


def test_the_offer_speaks_the_kiosks_language_and_tells_the_time_by_its_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Europe/Kyiv")
    time.tzset()
    try:
        left_with_one_dart(tmp_path)
        with Store.open(db_file(tmp_path)) as store:
            started = store.games.unfinished()[0].started_at
        with kiosk_on_board(tmp_path, config=Config(language="uk")) as (d, _board):
            assert d.screen.name == "resume"
            local = datetime.fromisoformat(str(started)).astimezone()
            assert local.utcoffset() != timedelta(0)  # (Kyiv is never on UTC)
            # What was saved, counted as "label: N" (not "1 збережено", "1 saved").
            assert "Раунд 1 · Anna кидає · збережено дій: 1" in d.texts, d.texts
            # (as Ukrainian writes dates: day.month.year)
            assert any(t.endswith(f"Почато {local:%d.%m.%Y %H:%M}") for t in d.texts), d.texts
            assert any(re.fullmatch(r"Продовжиться сама через \d+ с", t) for t in d.texts)  # noqa: RUF001
            assert not any("UTC" in t or t.endswith(" s") for t in d.texts), d.texts
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_dart_thrown_at_the_offer_resumes_the_game_and_counts(tmp_path: Path) -> None:
    left_with_one_dart(tmp_path)
    with kiosk_on_board(tmp_path) as (d, board):
        assert d.screen.name == "resume"
        send(d, board, ["S19"])
        assert d.screen.name == "cricket"
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["T20", "S19"]


def test_with_no_answer_the_game_resumes_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    left_with_one_dart(tmp_path)
    monkeypatch.setattr(resume, "AUTO_RESUME", 1.0)  # 30 s at the bar
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "resume"
        d.wait_screen("cricket", timeout=5.0)
        assert d.screen.session.game.marks("Anna", 20) == 3  # type: ignore[attr-defined]


def test_abandon_takes_two_presses_and_closes_the_game_with_no_result(tmp_path: Path) -> None:
    left_with_one_dart(tmp_path)
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("2")
        assert d.screen.name == "resume" and any("Really" in t for t in d.texts)
        d.press("2")
        assert d.screen.name == "attract"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.unfinished() == []
        assert store.games.get(1).status == "abandoned"
        assert len(store.games.events(1)) == 1  # the log itself is kept


def test_two_then_enter_does_not_resume_the_game_about_to_be_abandoned(tmp_path: Path) -> None:
    # "2" asks "Really abandon? Press 2 again"; the Enter pressed after it by habit
    # resumed the game instead (Enter is "resume" on this screen).
    left_with_one_dart(tmp_path)
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("2\n")
        assert d.screen.name == "resume" and any("Really" in t for t in d.texts), d.texts
        d.press("2")
        assert d.screen.name == "attract"


def test_a_league_game_of_saved_players_is_finished_and_rated_when_its_results_are_left(
    tmp_path: Path,
) -> None:
    add_players(tmp_path, "Anna", "Boris")
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
        with Store.open(db_file(tmp_path)) as store:  # the winning dart can still be undone
            assert store.games.get(1).status == "playing"
        d.press("/")  # to the menu: the game is over and gone from the screen
        with Store.open(db_file(tmp_path)) as store:
            game = store.games.get(1)
            assert game.status == "finished" and game.rated
            anna, boris = store.players.need("Anna"), store.players.need("Boris")
            assert store.players.rating(anna.id) > store.players.rating(boris.id)


def test_generic_player_names_play_a_friendly_game_kept_off_the_roster(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, names=("Player 1", "Player 2"))
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
        d.press("\n")  # rematch: the first game is finished, a second one starts
    with Store.open(db_file(tmp_path)) as store:
        first = store.games.get(1)
        assert first.status == "finished" and not first.rated
        assert store.games.get(2).status == "playing"
        assert store.players.roster() == []


def test_ending_a_game_from_the_menu_abandons_it(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
        d.press("/")
        labels = [item.label for item in d.screen.items()]  # type: ignore[attr-defined]
        end = str(labels.index("End game") + 1)
        d.press(end)  # End game ...
        d.press(end)  # ... really
        assert d.screen.name == "main-menu"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "abandoned"


def test_a_stored_game_that_does_not_replay_is_set_aside_with_the_reason(tmp_path: Path) -> None:
    with Store.open(db_file(tmp_path)) as store:
        store.players.add("Anna")
        live = store.start_game("formula", ["Anna"], {"mode": "training"})
        store.games.record(live.id, GameEvent.dart("T20"))  # no dart fits a formula game
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "resume"
        d.press("1")
        assert d.screen.name == "resume" and "This game cannot be resumed" in d.texts
        assert any("does not apply" in t for t in d.texts), d.texts
        d.press("\n")
        assert d.screen.name == "attract"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "abandoned"


def test_results_left_on_screen_go_to_the_attract_screen_and_the_game_counts(
    tmp_path: Path,
) -> None:
    # The last results of the night left on the TV: the game must count (standings,
    # export over SSH at closing) without anyone pressing a key.
    from kiosk.ui.screens.results import RESULTS_IDLE_S

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
        with Store.open(db_file(tmp_path)) as store:
            assert store.games.get(1).status == "playing"  # undo and correct still open
        d.screen.update(time.monotonic() + RESULTS_IDLE_S - 5)
        d.settle()
        assert d.screen.name == "results"
        d.press("*")  # "Correct a dart" opened over them, and left there too
        assert d.screen.name == "correct-dart"
        d.screen.update(time.monotonic() + RESULTS_IDLE_S + 1)
        d.settle()
        assert d.screen.name == "attract" and any("Anna" in t for t in d.texts)
        with Store.open(db_file(tmp_path)) as store:
            assert store.games.get(1).status == "finished"


def test_a_formula_games_end_left_on_screen_goes_to_the_attract_screen(tmp_path: Path) -> None:
    from kiosk.ui.screens.results import RESULTS_IDLE_S

    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",)))
        d.settle()
        d.press("\n")
        screen = d.screen
        screen.update(time.monotonic() + 200)  # her time runs out: the game is lost
        screen.update(time.monotonic() + 202)
        d.wait_screen("formula-end")
        d.screen.update(time.monotonic() + RESULTS_IDLE_S + 1)
        d.settle()
        assert d.screen.name == "attract"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "finished"


def test_the_last_results_on_the_attract_screen_are_there_after_a_restart(
    tmp_path: Path,
) -> None:
    # A power blip between games emptied the list the bar reads between games.
    from kiosk.ui.screens.results import RESULTS_IDLE_S

    def last_results(d: Driver) -> list[str]:
        assert d.screen.name == "attract"
        return [t for t in d.texts if t.startswith(("Cricket:", "Formula darts:"))]

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
        d.screen.update(time.monotonic() + RESULTS_IDLE_S + 1)
        d.settle()
        start_formula(d.kiosk, FormulaSetup(names=("Boris",)))
        d.settle()
        d.press("\n")
        d.screen.update(time.monotonic() + 200)  # his time runs out: the game is lost
        d.screen.update(time.monotonic() + 202)
        d.wait_screen("formula-end")
        d.screen.update(time.monotonic() + RESULTS_IDLE_S + 1)
        d.settle()
        before = last_results(d)
    assert before == [
        "Formula darts: lost  (Boris)  No formula in time: the game is lost",
        "Cricket: winner Anna  (Anna · Boris)",
    ], before
    with kiosk_on_board(tmp_path) as (d, _board):
        assert last_results(d) == before
