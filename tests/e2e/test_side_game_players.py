"""Formula darts while you wait, with three or four Cricket players (headless, real pty,
the keypad): the kiosk cannot tell who is at the keypad, so it asks, and each waiting
player keeps their own game. Before, it guessed "the one who threw last": Oleg's game
went to Ira's name, and Ira got his half-typed formula."""

from __future__ import annotations

from pathlib import Path

from kiosk_support import kiosk_on_board, send, start_game

from kiosk.ui.driver import Driver

PLAYERS = ("Ira", "Oleg", "Petr", "Sasha")


def side_game_menu(d: Driver) -> None:
    d.pad("/")  # the keypad's menu key
    assert d.screen.name == "pause"
    d.pad("4")  # Formula darts while you wait
    assert d.screen.name == "side-game-who", d.texts


def test_with_four_players_the_kiosk_asks_who_plays_and_keeps_each_ones_game(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, PLAYERS)
        cricket = d.screen
        send(d, board, ["S20", "S19", "S18", "BTN NEXT", "S17"])  # Ira's turn; Oleg's
        side_game_menu(d)
        assert "Who plays?" in d.texts
        # Everyone but the thrower (Oleg), the longest waiting first in the light.
        shown = [t for t in d.texts if t in PLAYERS]
        assert shown == ["Ira", "Petr", "Sasha"], d.texts
        assert d.screen.items()[d.screen.selected].label == "Ira"  # type: ignore[attr-defined]
        d.pad("3")  # Sasha
        assert d.screen.name == "formula-side"
        assert d.screen.side_player == "Sasha"  # type: ignore[attr-defined]
        d.look()
        d.pad("\n00")  # Sasha starts a formula: the round's first two digits
        typed = d.screen.editor.text  # type: ignore[attr-defined]
        assert len(typed) == 2
        d.pad("4")  # back to the scoreboard
        assert d.screen is cricket
        side_game_menu(d)
        assert "goes on" in d.texts  # beside Sasha: her game is kept
        d.pad("2")  # Petr: a game of his own, not Sasha's
        assert d.screen.side_player == "Petr"  # type: ignore[attr-defined]
        assert d.screen.editor.text == ""  # type: ignore[attr-defined]
        d.pad("4")
        side_game_menu(d)
        d.pad("3")  # Sasha again: her formula as she left it
        assert d.screen.side_player == "Sasha"  # type: ignore[attr-defined]
        assert d.screen.editor.text == typed  # type: ignore[attr-defined]
        send(d, board, ["S16"])  # Oleg's dart still goes to the match
        game = cricket.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["S17", "S16"]


def test_back_from_who_plays_returns_to_the_match_and_a_dart_meanwhile_counts(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, PLAYERS[:3])
        cricket = d.screen
        side_game_menu(d)
        shown = [t for t in d.texts if t in PLAYERS]
        assert shown == ["Oleg", "Petr"], d.texts  # Ira is to throw
        send(d, board, ["T20"])  # Ira throws while they decide: it counts, on the board
        assert d.screen is cricket
        game = cricket.session.game  # type: ignore[attr-defined]
        assert game.marks("Ira", 20) == 3
        side_game_menu(d)
        d.pad("3")  # Back to the game
        assert d.screen is cricket


def test_the_thrower_at_the_keypad_is_told_4_then_plus_and_misses_are_named(
    tmp_path: Path,
) -> None:
    # Petr threw his three and came to the keypad where Oleg plays: his + went into
    # Oleg's formula. The strip now says how to pass the turn; a miss is in Russian.
    with kiosk_on_board(tmp_path, (800, 480)) as (d, board):
        d.kiosk.set_language("ru")
        start_game(d, PLAYERS)
        send(d, board, ["S20", "S19", "S18", "BTN NEXT"])  # Ira's turn
        side_game_menu(d)
        d.pad("1")  # Ira plays while Oleg throws
        assert d.screen.side_player == "Ira"  # type: ignore[attr-defined]
        send(d, board, ["MISS"])
        assert any("Oleg: Мимо" in t for t in d.texts), d.texts
        assert not any("MISS" in t for t in d.texts), " | ".join(d.texts)
        send(d, board, ["S5", "S1"])  # Oleg's turn is held on the scoreboard
        assert any(t.startswith("Oleg: 4, затем +") for t in d.texts), " | ".join(d.texts)
        d.pad("4")
        assert d.screen.name == "cricket"
        d.pad("+")  # the turn passes
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Petr"
        assert d.screen.session.hold is None  # type: ignore[attr-defined]
