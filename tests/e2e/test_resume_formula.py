"""Nothing lost in formula darts: a round's clock, a formula typed and not sent, a
rated formula game ended early, and the side game played beside a Cricket game, all
back as they were after a power cut (headless, real pty, real database file)."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest
from kiosk_support import (
    ANNA_WINS,
    add_players,
    db_file,
    kiosk_on_board,
    left_with_one_dart,
    power_cut_at_the_end,
    send,
    side_game_on_hold,
    start_game,
    stored_events,
)

from kiosk.adapters.store import Store
from kiosk.ui.driver import Driver
from kiosk.ui.formula_session import PLAYING, READY, FormulaSetup
from kiosk.ui.screens.formula import open_side_game, start_formula


def test_a_formula_round_resumes_with_the_time_that_was_left(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001)))
        d.settle()
        d.press("\n")  # the digits appear, the clock starts: 120 s
        assert session.phase == PLAYING and session.deadline is not None
        screen = d.screen
        # 50 s pass, then half a second: 69.5 s left. (Counted from when the clock
        # started, not from now: the moments the kiosk took to draw since, long on a
        # busy machine, would leave under 69 s, shown as 1:09.)
        screen.update(session.deadline - 70)
        screen.update(session.deadline - 69.5)
    with Store.open(db_file(tmp_path)) as store:
        seat, left = store.games.clock(1) or (None, 0.0)
        assert seat == 0 and 68 <= left <= 71
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("1")
        assert d.screen.name == "formula"
        resumed = d.screen.session  # type: ignore[attr-defined]
        assert resumed.phase == READY and resumed.game.digits == 3489
        d.settle()  # the screen before Enter promises the time that is left, not 2:00
        assert any(t.startswith("Your clock starts then: 1:1") for t in d.texts), d.texts
        assert "2:00" not in d.texts  # the big clock says the same
        d.press("\n")  # right after the "1": only its confirmation (the clock waits)
        assert resumed.phase == READY
        d.look()
        d.press("\n")
        assert resumed.phase == PLAYING
        assert 67 <= resumed.remaining(time.monotonic()) <= 71


def typed_then_power_cut(tmp_path: Path, keys: str) -> None:
    """A solo game on 3489: Enter, ``keys`` typed and not sent, and the power goes."""
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001)))
        d.settle()
        d.pad("\n" + keys)
        store = d.kiosk.store
        assert store is not None
        typed = tuple(d.screen.editor.tokens)  # type: ignore[attr-defined]
        # (the last keys of a burst are saved within DRAFT_SAVE_EVERY: the loop wakes)
        d.wait_for(lambda: (draft := store.games.draft(1)) is not None and
                   draft.tokens == typed, what="the formula typed saved")  # fmt: skip


def test_a_formula_typed_and_not_sent_at_a_power_cut_is_still_typed_after_the_restart(
    tmp_path: Path,
) -> None:
    typed_then_power_cut(tmp_path, "00+0")  # 34+8
    assert stored_events(tmp_path) == []  # kept, and never as a formula sent
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("1")
        resumed = d.screen.session  # type: ignore[attr-defined]
        assert resumed.phase == READY and "34+8" not in d.texts  # the digits still hidden
        d.look()
        d.press("\n")
        assert resumed.phase == PLAYING
        assert d.screen.editor.text == "34+8"  # type: ignore[attr-defined]
        assert "34+8" in d.texts
        assert "Typed before the restart, not sent yet: press Enter to send it" in d.texts
        assert stored_events(tmp_path) == []
        d.pad("0\n")  # the last digit, and sent: as if the power had stayed on
        assert stored_events(tmp_path) == [(1, "formula", '{"formula":"34+89","seat":0}')]
        assert resumed.game.score("Anna") == 424


def test_a_double_enter_at_the_restart_shows_the_formula_typed_and_does_not_send_it(
    tmp_path: Path,
) -> None:
    typed_then_power_cut(tmp_path, "00+00")  # 34+89, whole, and not sent
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("1")
        d.look()
        d.read_screen()  # (the first Enter is meant: the player has read whose turn it is)
        d.press("\n\n", hasty=True)  # the second Enter of a double press, or a bounce
        assert d.screen.session.phase == PLAYING  # type: ignore[attr-defined]
        assert d.screen.editor.text == "34+89"  # type: ignore[attr-defined]
        assert stored_events(tmp_path) == []  # seen first, sent only when meant
        d.pad("\n")
        assert stored_events(tmp_path) == [(1, "formula", '{"formula":"34+89","seat":0}')]


def test_a_resumed_duel_does_not_show_the_first_answers_score_before_the_second_answers(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(3489, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+00\n")  # Anna: 34+89 (0 = the next digit), 77 points: 424 left
        assert session.game.score("Anna") == 424 and session.player == "Boris"
    with kiosk_on_board(tmp_path) as (d, _board):
        d.settle()
        assert d.screen.name == "resume"
        text = " ".join(d.texts)
        assert "Anna: 501" in text and "Boris: 501" in text and "424" not in text, text


def run_out_of_time(d: Driver) -> None:
    """Enter starts the clock; 200 s later a solo game is lost; then to the menu."""
    d.press("\n")
    screen = d.screen
    screen.update(time.monotonic() + 200)  # the screen's clock only moves forward
    screen.update(time.monotonic() + 202)  # and the last move has stayed up its second
    d.wait_screen("formula-end")
    d.press("/")


def test_a_qualification_of_a_saved_player_is_rated_and_training_never(tmp_path: Path) -> None:
    add_players(tmp_path, "Anna")
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="qualification"))
        d.settle()
        run_out_of_time(d)
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="training"))
        d.settle()
        run_out_of_time(d)
    with Store.open(db_file(tmp_path)) as store:
        qualification, training = store.games.get(1), store.games.get(2)
        assert qualification.status == training.status == "finished"
        assert qualification.rated and not training.rated


def test_a_formula_duel_of_saved_players_is_rated_and_against_the_computer_not(
    tmp_path: Path,
) -> None:
    add_players(tmp_path, "Anna", "Boris")
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna", "Boris"), mode="duel"))
        d.settle()
        start_formula(
            d.kiosk, FormulaSetup(names=("Anna", "Computer"), mode="duel", computer="easy")
        )
        d.settle()
    with Store.open(db_file(tmp_path)) as store:
        duel, against_computer = store.games.get(1), store.games.get(2)
        assert duel.kind == against_computer.kind == "formula"
        assert duel.rated and not against_computer.rated


def test_a_side_game_leaves_the_cricket_game_in_play(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20", "T20", "T20"])
        open_side_game(d.kiosk, d.screen)
        d.settle()
        assert d.screen.name == "formula-side"
        send(d, board, ["S19"])  # Boris throws: on the Cricket game, still stored
    with Store.open(db_file(tmp_path)) as store:
        assert [g.kind for g in store.games.unfinished()] == ["cricket"]
        assert len(store.games.events(1)) == 4


def test_a_side_game_comes_back_with_its_cricket_game_after_a_power_cut(tmp_path: Path) -> None:
    # It was kept in memory only: the match came back, the side game was gone.
    with kiosk_on_board(tmp_path) as (d, board):
        side_game_on_hold(d, board, ["T20", "T20", "T20"])
        side = d.screen
        session = side.session  # type: ignore[attr-defined]
        player = side.side_player  # type: ignore[attr-defined]
        d.pad("\n0000\n")  # round 1: the four digits as one number
        d.pad("\n")  # the round's result seen: round 2, its clock running
        assert session.game.round == 2 and session.phase == PLAYING
        score, digits = session.game.score(player), str(session.game.digits)
        d.pad("00")  # two digits typed, not sent ... and the power goes
        store = d.kiosk.store
        assert store is not None

        def kept() -> bool:
            draft = store.games.side_games(1).get(0, {}).get("draft")
            return draft is not None and draft[2] == [digits[0], digits[1]]

        d.wait_for(kept, what="the side game kept")
    with Store.open(db_file(tmp_path)) as store:  # never a game of its own
        assert [(g.id, g.kind) for g in store.games.unfinished()] == [(1, "cricket")]
        assert [kind for _, kind, _ in stored_events(tmp_path)] == ["dart"] * 3
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("1")
        assert d.screen.name == "cricket"
        open_side_game(d.kiosk, d.screen)
        d.settle()
        assert d.screen.name == "formula-side"
        back = d.screen.session  # type: ignore[attr-defined]
        assert d.screen.side_player == player  # type: ignore[attr-defined]
        assert back.game.round == 2 and back.game.score(player) == score
        assert str(back.game.digits) == digits and back.phase == READY
        d.pad("\n")
        assert d.screen.editor.text == digits[:2]  # type: ignore[attr-defined]


def test_a_cricket_game_that_ends_takes_its_side_games_with_it(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        side_game_on_hold(d, board, ["T20", "T20", "T20"])
        d.pad("\n00")
        store = d.kiosk.store
        assert store is not None
        d.wait_for(lambda: bool(store.games.side_games(1)), what="the side game kept")
    with Store.open(db_file(tmp_path)) as store:
        store.abandon(1)
        assert store.games.side_games(1) == {}


def test_keys_typed_just_before_a_side_game_is_set_aside_are_kept_as_it_goes(
    tmp_path: Path,
) -> None:
    # The last keys of a burst wait half a second to be saved, and a side game set
    # aside is not updated: had they waited, only reopening it would have saved them.
    with kiosk_on_board(tmp_path) as (d, board):
        side_game_on_hold(d, board, ["T20", "T20", "T20"])
        side = d.screen
        d.pad("\n")  # the digits, the clock running
        d.pad("004")  # two digits, the second within half a second; 4 leaves
        assert d.screen.name == "cricket"
        typed = list(side.editor.tokens)  # type: ignore[attr-defined]
        assert len(typed) == 2
        store = d.kiosk.store
        assert store is not None
        assert store.games.side_games(1)[0]["draft"][2] == typed  # ... and the power goes
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("1")
        open_side_game(d.kiosk, d.screen)
        d.settle()
        d.pad("\n")
        assert d.screen.editor.text == "".join(typed)  # type: ignore[attr-defined]


def test_side_games_come_back_under_the_results_a_power_cut_left_and_after_an_undo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with power_cut_at_the_end(monkeypatch), kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        open_side_game(d.kiosk, d.screen)  # Boris waits while Anna throws
        d.settle()
        assert d.screen.side_player == "Boris"  # type: ignore[attr-defined]
        d.pad("\n00")
        typed = list(d.screen.editor.tokens)  # type: ignore[attr-defined]
        store = d.kiosk.store
        assert store is not None

        def kept() -> bool:
            draft = store.games.side_games(1).get(1, {}).get("draft")
            return draft is not None and draft[2] == typed

        d.wait_for(kept, what="the side game kept")
        d.pad("4")
        send(d, board, ANNA_WINS[:14])  # Anna wins with her bull ... and the power goes
        d.wait_screen("results")
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "results"
        d.press("-")  # the bull bounced out: the match goes on, and so does the side game
        assert d.screen.name == "cricket"
        assert list(d.screen.side_games) == ["Boris"]  # type: ignore[attr-defined]
        open_side_game(d.kiosk, d.screen)
        d.settle()
        assert d.screen.name == "formula-side"
        d.pad("\n")
        assert d.screen.editor.text == "".join(typed)  # type: ignore[attr-defined]


def test_a_side_game_that_does_not_replay_is_left_out_and_the_match_goes_on(
    tmp_path: Path,
) -> None:
    left_with_one_dart(tmp_path)
    with Store.open(db_file(tmp_path)) as store:
        bad = {"settings": {"mode": "training"}, "events": [{"kind": "dart", "payload": {}}]}
        store.games.save_side_game(1, 1, bad)
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("1")
        assert d.screen.name == "cricket"
        assert d.screen.side_games == {}  # type: ignore[attr-defined]
        assert d.screen.session.game.marks("Anna", 20) == 3  # type: ignore[attr-defined]


def test_a_qualification_ended_from_the_game_menu_is_a_loss_for_the_standings(
    tmp_path: Path,
) -> None:
    # Ending a qualification about to be lost must not keep it off the standings: it
    # is lost as the clock would lose it. A training ended the same way is just gone.
    add_players(tmp_path, "Anna")
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="qualification"))
        d.settle()
        d.pad("\n4")  # the digits, then the game menu
        assert d.screen.name == "formula-pause" and "End game (counts as lost)" in d.texts
        d.pad("2")
        assert "Really end the game? It counts as lost: choose again" in d.texts
        assert "A game ended early gets no league result" not in d.texts  # it does: a loss
        d.pad("2")
        d.wait_screen("formula-end")  # lost, and shown so ("Game ended")
        assert len(d.kiosk.results) == 1  # on the attract screen's list too
        d.pad("/")
        assert d.screen.name == "main-menu"
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="training"))
        d.settle()
        d.pad("\n4")
        assert "End game (counts as lost)" in d.texts  # (said to the player the same way)
        d.pad("22")
        d.wait_screen("formula-end")
        d.pad("/")
    with Store.open(db_file(tmp_path)) as store:
        qualification, training = store.games.get(1), store.games.get(2)
        assert qualification.status == "finished" and qualification.rated
        assert training.status == "finished" and not training.rated
    with closing(sqlite3.connect(db_file(tmp_path))) as conn:
        rows = conn.execute("SELECT game_id, outcome FROM results ORDER BY game_id").fetchall()
        assert rows[0] == (1, "lost")
        rated = conn.execute("SELECT game_id, after < before FROM ratings").fetchall()
        assert rated == [(1, 1)]  # her rating went down for it


def test_a_qualification_ended_at_the_resume_offer_is_a_loss_too(tmp_path: Path) -> None:
    # Pulling the plug on a qualification about to be lost, then "Abandon" at the
    # restart, kept it off the standings: ended there, it is lost, as from its menu.
    add_players(tmp_path, "Anna")
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="qualification"))
        d.settle()
        d.press("\n")  # the digits are shown, the clock runs ... and the power goes
        assert d.screen.session.phase == PLAYING  # type: ignore[attr-defined]
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "resume"
        shown = " ".join(d.texts)  # (a button's label is two lines)
        assert "2  End game (counts as lost)" in shown, d.texts
        d.press("2")
        shown = " ".join(d.texts)
        assert "2  Really end the game? It counts as lost: press 2 again" in shown, d.texts
        d.press("2")
        assert d.screen.name == "attract"
        assert len(d.kiosk.results) == 1  # on the attract screen's list, as a loss
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.unfinished() == []
        game = store.games.get(1)
        assert game.status == "finished" and game.rated
    with closing(sqlite3.connect(db_file(tmp_path))) as conn:
        assert conn.execute("SELECT outcome FROM results").fetchall() == [("lost",)]
        rated = conn.execute("SELECT after < before FROM ratings").fetchall()
        assert rated == [(1,)]


def test_a_formula_game_whose_digits_were_never_shown_is_only_abandoned(tmp_path: Path) -> None:
    add_players(tmp_path, "Anna")
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="qualification"))
        d.settle()  # "Press Enter to start" ... and the power goes
    with kiosk_on_board(tmp_path) as (d, _board):
        assert "2  Abandon" in d.texts, d.texts
        d.pad("22")
        assert d.screen.name == "attract"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "abandoned"
    with closing(sqlite3.connect(db_file(tmp_path))) as conn:
        assert conn.execute("SELECT count(*) FROM results").fetchone() == (0,)
