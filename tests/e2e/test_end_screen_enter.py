"""An Enter meant for the game just over, on its end screen, in the real kiosk: players
press Enter all game (a dart typed, a turn held on screen, a formula submitted), and
one meant for the last dart or move comes when the results are up. It starts nothing
until ``REMATCH_GUARD_S`` has passed on the screen's clock, and the screen offers Enter
only then; undo from the results is taken at once, as before.

``hasty=True`` presses at once, as the stray press comes; the screen's clock is moved on
by the ``now`` given to its update, nobody sleeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk_support import ANNA_WINS, kiosk_on_board, send, side_game_on_hold, start_game

from kiosk.ui import theme
from kiosk.ui.driver import Driver
from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.formula import start_formula


def rematch_lit(d: Driver) -> bool:
    """The results' Rematch button drawn lit (its panel), not greyed."""
    button = d.screen.buttons[0]  # type: ignore[attr-defined]
    assert button.action == "enter"
    inside = (button.rect.centerx, button.rect.top + button.rect.h // 6)  # above the label
    colour = tuple(d.app.canvas.get_at(inside))[:3]
    assert colour in (theme.PANEL_HI, theme.PANEL), colour
    return colour == theme.PANEL_HI


def clock_past_the_guard(d: Driver) -> None:
    screen: Any = d.screen
    screen.update(screen.rematch.live_at)
    d.settle()


def test_an_enter_meant_for_the_winning_dart_does_not_start_a_rematch(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS[:13])
        d.press("25\n")  # Anna's winning bull, typed
        d.wait_screen("results")
        results: Any = d.screen
        game = results.session.game
        d.press("\n", hasty=True)  # and Enter again, as she ends a turn
        assert d.screen is results and d.game().game is game
        assert "Rematch (Enter)" in d.texts and not rematch_lit(d)  # offered, not yet live
        d.click(results.buttons[0].rect.center)  # nor is the button taken yet
        assert d.screen is results
        clock_past_the_guard(d)
        assert rematch_lit(d)
        d.press("\n", hasty=True)
        assert d.screen.name == "cricket" and d.game().game is not game
        assert d.game().game.current_player == "Boris"  # the rematch, as ever


def test_undo_from_the_results_is_taken_at_once(tmp_path: Path) -> None:
    # The winning bull bounced out: - takes it back while the rematch still waits.
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS[:14])
        d.wait_screen("results")
        assert not rematch_lit(d)
        d.press("-", hasty=True)
        assert d.screen.name == "cricket" and d.game().game.outcome() is None
        assert len(d.game().game.history) == 13


def test_an_enter_meant_for_the_last_formula_does_not_play_again(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna",), digits=(3001, 1000, 1000, 5100))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n000*0\n\n0000\n\n0000\n\n00+0+0\n")  # 300*1, 1000, 1000, 51+0+0: PERFECT
        d.wait_screen("formula-end")
        end = d.screen
        assert "PERFECT!" in d.texts
        d.pad("\n", hasty=True)  # pressed again, as on the formula
        assert d.screen is end
        assert "/ or 4: menu" in d.texts  # Enter not offered yet
        assert "Enter: play again · / or 4: menu" not in d.texts
        clock_past_the_guard(d)
        assert "Enter: play again · / or 4: menu" in d.texts
        d.pad("\n", hasty=True)
        assert d.screen.name == "formula" and d.game() is not session


def test_an_enter_right_after_the_side_game_ends_neither_plays_another_nor_goes_back(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        cricket_screen = side_game_on_hold(d, board, ["T20"])  # Boris plays at the side
        d.pad("\n")  # the digits, the clock starts
        side: Any = d.screen
        side.update(side.clock + 121)  # his time runs out as he presses Enter
        side.update(side.clock + 10)
        d.settle()
        d.wait_screen("formula-end")
        end = d.screen
        d.pad("\n", hasty=True)
        assert d.screen is end  # the end stays up to be read
        assert "Any key but Enter: back to Cricket" in d.texts
        clock_past_the_guard(d)
        assert "Enter: another side game · any other key: back to Cricket" in d.texts
        d.pad("\n", hasty=True)
        assert d.screen.name == "formula-side" and d.screen is not side
        assert d.kiosk.stack.screens()[-2] is cricket_screen
