"""Formula darts' Enter pressed twice (a hurried finger, a bouncing key) in the real
kiosk: the second Enter lands on the screen the first one brought, and is not taken
there until ``ENTER_GUARD_S`` has passed on the screen's clock.

``hasty=True`` puts both Enters in the inbox at once: the kiosk handles them in one
pass, microseconds apart, whatever the machine's speed. Without it the driver lets the
guard's time pass before an Enter, as a person reading the screen does."""

from __future__ import annotations

from pathlib import Path

from kiosk_support import kiosk_on_board

from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.formula import start_formula


def test_enter_pressed_twice_on_a_formula_does_not_start_the_next_players_clock(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+0*0")  # Anna: 45+8*9
        d.pad("\n\n", hasty=True)  # she submits with a double press
        assert session.game.history[0].move("Anna") is not None
        assert session.player == "Boris" and session.phase == "ready"
        assert session.deadline is None  # his clock has not started
        assert "Press Enter to see the digits" in d.texts  # his hand-over stays up
        d.pad("\n")  # Boris, the keypad in hand, presses Enter
        assert session.phase == "playing" and session.deadline is not None
        assert "2:00" in d.texts


def test_enter_is_taken_once_the_guard_time_has_passed_on_the_screens_clock(
    tmp_path: Path,
) -> None:
    from kiosk.ui.screens.formula_play import ENTER_GUARD_S

    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+0*0\n")
        screen = d.screen
        shown_at = screen.shown_at  # type: ignore[attr-defined]
        assert screen.enter_taken_from() == shown_at + ENTER_GUARD_S
        screen.update(shown_at + ENTER_GUARD_S)  # nobody sleeps: the screen's clock moves
        d.pad("\n", hasty=True)
        assert session.player == "Boris" and session.phase == "playing"
        # (nothing typed yet: an Enter on the digits just shown is a double press)
        assert screen.enter_taken_from() == screen.shown_at + ENTER_GUARD_S  # type: ignore[attr-defined]
        d.pad("0", hasty=True)
        assert screen.enter_taken_from() is None  # typing: Enter submits at once


def test_enter_pressed_twice_alone_leaves_the_rounds_result_up(tmp_path: Path) -> None:
    """Alone, Enter on a round's result starts the next round's clock: a double press
    on the formula would have skipped the result (and the best formula) unseen."""
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001)))
        d.settle()
        d.pad("\n00+00")  # 34+89
        d.pad("\n\n", hasty=True)
        assert session.phase == "round_done" and session.game.round == 2
        assert session.deadline is None
        assert any(t.startswith("best: ") for t in d.texts), d.texts
        d.pad("\n")  # read, then Enter: the next round
        assert session.phase == "playing" and session.deadline is not None


def test_a_dot_pressed_with_the_submitting_enter_leaves_the_rounds_result_up(
    tmp_path: Path,
) -> None:
    """Training: ``.`` on a round's result takes the formula back. Beside Enter on the
    keypad (Backspace above it on a keyboard), it came with the Enter that submitted,
    and took the formula back before its result was seen."""
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001)))
        d.settle()
        d.pad("\n0+0+0-0")  # 3+4+8-9: 6 points
        d.pad("\n.", hasty=True)
        assert session.phase == "round_done" and session.game.score("Anna") == 495
        assert any(t.startswith("best: ") for t in d.texts), d.texts
        d.pad(".")  # read, then .: the formula taken back, as ever
        assert session.phase == "playing" and session.game.score("Anna") == 501


def test_an_enter_as_the_clock_runs_out_does_not_start_the_next_players(tmp_path: Path) -> None:
    """Anna's Enter meant for her last-second formula comes as her time runs out: it
    lands on Boris's hand-over, and is not taken there."""
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+0")
        screen = d.screen
        screen.update(screen.clock + 121)  # type: ignore[attr-defined]  # the automatic move
        assert session.player == "Boris" and session.phase == "ready"
        d.pad("\n", hasty=True)
        assert session.phase == "ready" and session.deadline is None
        d.pad("\n")
        assert session.phase == "playing"


def test_enter_pressed_twice_to_play_again_does_not_start_the_new_games_clock(
    tmp_path: Path,
) -> None:
    """The end screen's Enter plays again: a second Enter lands on the new game's first
    screen (the player named, digits hidden), and is not taken there."""
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489,)))
        d.settle()
        d.pad("\n")
        screen = d.screen
        screen.update(screen.clock + 121)  # type: ignore[attr-defined]  # the game lost
        screen.update(screen.clock + 10)  # type: ignore[attr-defined]
        d.settle()
        assert d.screen.name == "formula-end"
        d.screen.seen()  # (the end read: its Enter is taken, ``REMATCH_GUARD_S``)
        d.pad("\n\n", hasty=True)
        session = d.game()
        assert d.screen.name == "formula" and session is not None
        assert session.phase == "ready" and session.deadline is None
        d.pad("\n")
        assert session.phase == "playing"


def test_enter_pressed_twice_to_see_the_digits_does_not_submit_an_empty_formula(
    tmp_path: Path,
) -> None:
    # The first Enter shows the digits and starts the clock; the second, on them, was an
    # empty formula submitted: refused in red, with the refusal's sound.
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(4589,)))
        d.settle()
        d.screen.seen()  # (its first screen read)
        sounds = len(d.kiosk.sound.played)
        d.pad("\n\n", hasty=True)
        assert session.phase == "playing" and session.deadline is not None
        assert not any(t.startswith("Refused") for t in d.texts), d.texts
        assert "undo" not in list(d.kiosk.sound.played)[sounds:]
        d.pad("00+0*0\n")  # 45+8*9, typed and submitted as ever
        assert session.game.history[0].move("Anna") is not None
