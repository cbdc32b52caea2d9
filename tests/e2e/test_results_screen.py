"""The results of a Cricket game in the kiosk (headless): the winner, places, every
player's figures, and what the keys do there."""

from __future__ import annotations

from pathlib import Path

import pytest
from kiosk_support import (
    ANNA_WINS,
    kiosk_on_board,
    kiosk_on_virtual_board,
    send,
    start_game,
    text_sizes,
)


def test_a_whole_game_thrown_on_the_board_ends_on_the_winner_screen(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
        assert "Anna wins!" in d.texts
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.outcome().winner == "Anna"
        assert any(t.startswith("1. Anna") for t in d.texts)
        assert any(t.startswith("2. Boris") for t in d.texts)
        assert "9, 9" in d.texts, d.texts  # Anna's 5+ mark turns: two of 9 (it said "2")


def test_a_no_score_games_results_show_no_points_column_of_zeros(tmp_path: Path) -> None:
    with kiosk_on_virtual_board(tmp_path) as d:
        start_game(d, variant="no-score")
        for dart in ANNA_WINS:
            if d.screen.name != "results":
                d.throw(dart)
        d.wait_screen("results")
        assert "Anna wins!" in d.texts
        # Points: a dash for each player (and Boris's 5+ mark turns: none), not "0"s.
        assert d.texts.count("\u2013") == 3, d.texts


def test_a_team_games_results_give_each_teams_mpr(tmp_path: Path) -> None:
    # The scoreboard showed the team's MPR all game; the results only each player's.
    with kiosk_on_virtual_board(tmp_path) as d:
        start_game(d, ("Anna", "Boris", "Chen", "Dana"), teams=True)
        game = d.screen.session.game  # type: ignore[attr-defined]
        for dart in ["T20", "T19", "T18", "S5", "+", "T17", "T16", "T15", "+", "+", "DB", "SB"]:
            if dart == "+":
                d.press("+")
            else:
                d.throw(dart)
        d.wait_screen("results")
        a, b = game.teams
        mpr = {team: f"{game.side_stats(team[0]).mpr:.2f}" for team in game.teams}
        line = f"Team MPR: {' & '.join(a)} {mpr[a]} \u00b7 {' & '.join(b)} {mpr[b]}"
        assert line in d.texts, d.texts
        assert mpr[a] != f"{game.stats(a[0]).mpr:.2f}"  # not a player's own figure


def test_the_winners_row_is_lit_even_when_a_name_has_an_ampersand_in_it(
    tmp_path: Path,
) -> None:
    from kiosk.ui import theme

    with kiosk_on_virtual_board(tmp_path) as d:
        start_game(d, ("Tom & Ann", "Ann"))  # "&" is allowed in a name
        for dart in [*ANNA_WINS]:
            if d.screen.name != "results":
                d.throw(dart)
        d.wait_screen("results")
        assert d.screen.outcome.won_by == ("Tom & Ann",)  # type: ignore[attr-defined]
        # The rows' panels down the left edge, in place order: the winner's is lit.
        canvas = d.app.canvas
        x = int(canvas.get_width() * 0.03) + 2
        runs: list[tuple[int, int, int]] = []
        for y in range(canvas.get_height()):
            colour = tuple(canvas.get_at((x, y)))[:3]
            if colour in (theme.PANEL, theme.PANEL_HI) and (not runs or runs[-1] != colour):
                runs.append(colour)  # type: ignore[arg-type]
        assert runs[:2] == [theme.PANEL_HI, theme.PANEL]


def test_a_win_taken_back_from_the_results_no_longer_says_game_over(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS[:14])  # the 14th dart (SB) wins
        send(d, board, ["BTN NEXT"])  # habit: NEXT after the darts are pulled
        assert d.screen.message == "Game over"  # type: ignore[attr-defined]
        d.wait_screen("results")
        d.press("-")  # the winning dart was wrong
        assert d.screen.name == "cricket" and d.screen.session.game.outcome() is None  # type: ignore[attr-defined]
        assert "Game over" not in d.texts


def test_a_draw_at_the_round_limit_shares_first_place_and_says_why(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, round_limit=1)
        send(d, board, ["T20", "BTN NEXT", "T20", "BTN NEXT"])  # one round, level
        d.wait_screen("results")
        assert "Draw!" in d.texts
        assert "Round limit (1) reached: a draw" in d.texts
        assert "1. Anna" in d.texts and "1. Boris" in d.texts


def test_a_draw_of_some_players_only_names_them(tmp_path: Path) -> None:
    # Three players, two level at the round limit: "Draw!" alone did not say who drew.
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, names=("Anna", "Boris", "Chen"), round_limit=1)
        send(d, board, ["T20", "BTN NEXT", "T20", "BTN NEXT", "S1", "BTN NEXT"])
        d.wait_screen("results")
        assert "Draw: Anna & Boris" in d.texts, d.texts
        assert "1. Anna" in d.texts and "1. Boris" in d.texts and "3. Chen" in d.texts
        d.kiosk.set_language("ru")
        d.screen.dirty = True
        d.settle()
        assert "Лимит раундов (1) исчерпан: ничья" in d.texts


def test_a_team_wins_together_and_shares_its_place(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, names=("Anna", "Boris", "Chen", "Dana"), teams=True)
        # A1 B1 A2 B2: Anna and Chen close everything, Boris and Dana miss.
        send(d, board, ["T20", "T19", "T18", "MISS", "MISS", "MISS"])
        send(d, board, ["T17", "T16", "T15", "MISS", "MISS", "MISS", "DB", "SB"])
        if d.screen.name != "results":  # the scoreboard, a moment before the results
            assert "Anna & Chen win!" in d.texts and "Anna wins!" not in d.texts, d.texts
        d.wait_screen("results")
        assert "Anna & Chen win!" in d.texts
        assert any(t.startswith("Anna & Chen own every target") for t in d.texts), d.texts
        assert {"1. Anna", "1. Chen", "2. Boris", "2. Dana"} <= set(d.texts)


def test_a_dart_or_next_on_the_results_says_the_game_is_over_and_how_to_play_again(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS[:14])
        d.wait_screen("results")
        game = d.screen.session.game  # type: ignore[attr-defined]
        darts = len(game.history)
        board.send("T20")  # the next leg started by throwing
        said = "The game is over: that dart does not count. Enter: rematch"
        d.wait_for(lambda: said in d.texts, what="the dart answered")
        assert len(game.history) == darts and d.screen.name == "results"
        board.send("BTN NEXT")
        d.wait_for(lambda: "The game is over: Enter starts a rematch" in d.texts, what="NEXT")
        d.press("\n")
        assert d.screen.name == "cricket"


def test_a_rematch_passes_the_throw_on_as_legs_alternate(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS[:14])
        d.wait_screen("results")
        d.press("\n")
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Boris" and game.players == ("Boris", "Anna")
        assert "▶ Boris" in d.texts
    (tmp_path / "teams").mkdir()
    with kiosk_on_board(tmp_path / "teams") as (d, board):
        start_game(d, names=("Anna", "Boris", "Chen", "Dana"), teams=True, round_limit=1)
        send(d, board, ["BTN NEXT"] * 4)
        d.wait_screen("results")
        d.press("\n")
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Boris"  # the other team starts; teams as they were
        assert sorted(map(sorted, game.sides)) == [["Anna", "Chen"], ["Boris", "Dana"]]


def test_the_results_buttons_are_one_size_in_russian_at_800x480(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Four equal boxes put "Исправить дротик (*)" on two small lines beside three
    # large one-line labels.
    sizes = text_sizes(monkeypatch)
    with kiosk_on_virtual_board(tmp_path, size=(800, 480)) as d:
        start_game(d)
        for dart in ANNA_WINS:
            if d.screen.name != "results":
                d.throw(dart)
        d.wait_screen("results")
        d.kiosk.set_language("ru")
        d.screen.dirty = True
        d.settle()
        labels = ["Реванш (Enter)", "Меню (/)", "Отменить (-)", "Исправить дротик (*)"]
        assert all(label in d.texts for label in labels), d.texts  # one line each
        assert len({round(sizes[label], 2) for label in labels}) == 1, sizes
