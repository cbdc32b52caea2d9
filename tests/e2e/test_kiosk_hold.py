"""The finished turn held on screen (headless, real pty). After a third dart the turn is
held: "Remove darts, then + (next player)"; NEXT then only ends the hold, and a dart is
the next player's first.

A hit while the darts are pulled: pulling darts out of a soft-tip board may close a
contact, and the board sends a hit, which counts as the next player's first dart (as
any dart after the hold does). NEXT, pressed as the screen asked, then ended that
player's turn after one dart nobody threw, without a word. The kiosk now says so, and
how to put it right; what counts does not change."""

from __future__ import annotations

from pathlib import Path

from kiosk_support import kiosk_on_board, send, start_game

from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.ui.driver import Driver

HELD = "Remove darts, then + (next player)"
STRAY = "Boris: turn over after one dart. S20 from pulling darts? Press - twice"


def annas_turn_held(d: Driver, board: VirtualBoard) -> None:
    """A game of Anna and Boris; Anna's three darts thrown, her turn held on screen."""
    start_game(d)
    send(d, board, ["S20", "S19", "S18"])
    assert HELD in d.texts, d.texts


def test_a_fourth_dart_undone_brings_the_finished_turn_back_so_next_skips_nobody(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        annas_turn_held(d, board)
        send(d, board, ["S17"])  # a 4th dart before NEXT: Boris's first
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Boris" and len(game.darts_this_turn) == 1
        send(d, board, ["BTN UNDO"])  # it was Anna's: taken back
        assert HELD in d.texts, d.texts
        send(d, board, ["BTN NEXT"])  # Anna pulls her darts and presses NEXT
        assert game.current_player == "Boris" and game.darts_this_turn == ()
        assert "Darts left: 3" in d.texts, d.texts
        send(d, board, ["T20"])
        assert game.marks("Boris", 20) == 3 and game.current_player == "Boris"


def test_next_after_a_hit_while_darts_are_pulled_says_how_to_take_it_back(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        annas_turn_held(d, board)
        send(d, board, ["S20"])  # a contact as Anna pulls her darts
        send(d, board, ["BTN NEXT"])  # then NEXT, as the screen asked
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Anna" and game.marks("Boris", 20) == 1  # as before
        assert STRAY in d.texts, d.texts
        send(d, board, ["BTN UNDO"])  # the turn's end taken back
        assert "- again takes back S20" in d.texts, d.texts
        send(d, board, ["BTN UNDO"])  # and the hit: Anna's turn held as it was
        assert HELD in d.texts, d.texts
        assert game.marks("Boris", 20) == 0
        send(d, board, ["BTN NEXT"])
        assert game.current_player == "Boris" and game.darts_this_turn == ()
        assert "Darts left: 3" in d.texts, d.texts


def test_a_turn_ended_after_one_dart_thrown_the_usual_way_says_nothing(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S20", "S19", "S18", "BTN NEXT"])  # the hold ended by NEXT
        send(d, board, ["T20", "BTN NEXT"])  # Boris throws one and passes
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Anna"
        assert not any("pulling darts" in t for t in d.texts), d.texts
        # A hit during the hold followed by more darts: a turn thrown, nothing said.
        send(d, board, ["S17", "S16", "S15", "S20", "S19", "BTN NEXT"])
        assert game.current_player == "Anna"
        assert not any("pulling darts" in t for t in d.texts), d.texts


def test_the_note_goes_with_the_next_dart(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S20", "S19", "S18", "S20", "BTN NEXT"])
        assert STRAY in d.texts
        send(d, board, ["T17"])  # Anna throws on: "press - twice" no longer holds
        assert STRAY not in d.texts, d.texts


def test_a_passed_turn_taken_back_brings_back_its_player_not_the_held_turn(
    tmp_path: Path,
) -> None:
    # Anna's turn held, NEXT (the hold cleared), NEXT again (Boris passes): - showed
    # Anna's turn held again, "Remove darts", while a dart would count for Boris.
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, ("Anna", "Boris", "Clara"))
        send(d, board, ["S20", "S19", "S18", "BTN NEXT"])
        send(d, board, ["BTN NEXT"])  # Boris passes: Clara to throw
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Clara"
        send(d, board, ["BTN UNDO"])
        assert game.current_player == "Boris" and game.darts_this_turn == ()
        assert HELD not in d.texts and "Darts left: 3" in d.texts, d.texts
        assert "Undone: end of the turn (Boris)" in d.texts, d.texts
        send(d, board, ["T20"])
        assert game.marks("Boris", 20) == 3


def test_a_turns_award_goes_when_the_next_player_passes(tmp_path: Path) -> None:
    # "White horse! Anna" stayed up over Clara's turn after Boris passed: only a dart
    # took it down.
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, ("Anna", "Boris", "Clara"))
        send(d, board, ["T20", "T19", "T18"])
        assert "White horse!" in d.texts, d.texts
        send(d, board, ["BTN NEXT"])  # Anna pulls her darts (her award may stay up)
        send(d, board, ["BTN NEXT"])  # Boris passes: Clara to throw
        assert "White horse!" not in d.texts, d.texts


def test_a_dart_after_next_cleared_the_hold_taken_back_leaves_the_hold_cleared(
    tmp_path: Path,
) -> None:
    # Anna pulled her darts and pressed NEXT; Boris's first dart taken back brought
    # her turn back on hold, "Remove darts", and a NEXT more was needed.
    with kiosk_on_board(tmp_path) as (d, board):
        annas_turn_held(d, board)
        send(d, board, ["BTN NEXT", "T20", "BTN UNDO"])
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Boris" and game.darts_this_turn == ()
        assert HELD not in d.texts and "Darts left: 3" in d.texts, d.texts
        send(d, board, ["T19"])
        assert game.marks("Boris", 19) == 3


def test_the_next_players_whole_turn_taken_back_leaves_the_hold_cleared(
    tmp_path: Path,
) -> None:
    # Anna's darts pulled and NEXT pressed; Boris's three darts taken back one by one:
    # the last undo brought Anna's turn back on hold ("Remove darts"), Boris to throw.
    with kiosk_on_board(tmp_path) as (d, board):
        annas_turn_held(d, board)
        send(d, board, ["BTN NEXT", "S1", "S2", "S3"])
        assert HELD in d.texts  # Boris's turn held now
        send(d, board, ["BTN NEXT", "BTN UNDO"])  # (his NEXT, then his third dart back)
        send(d, board, ["BTN UNDO", "BTN UNDO"])
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Boris" and game.darts_this_turn == ()
        assert HELD not in d.texts and "Darts left: 3" in d.texts, d.texts
        send(d, board, ["T19"])
        assert game.marks("Boris", 19) == 3
