"""A menu's digit chooses at once; the Enter many press after it, as on a cash
machine, confirms that choice and does nothing more, on the menu or on the screen the
digit opened (the real kiosk, headless, on the virtual board)."""

from __future__ import annotations

from pathlib import Path

from kiosk_support import kiosk_on_virtual_board

from kiosk.adapters.keypad import KeyAction
from kiosk.domain.darts import Dart
from kiosk.ui.screen import ENTER_CONFIRMS_S, Click, DartInput, ScreenStack, enter_confirms


def test_six_then_enter_changes_the_formula_rules_once(tmp_path: Path) -> None:
    with kiosk_on_virtual_board(tmp_path) as d:
        d.press("\n2")  # attract -> main menu -> formula darts
        assert d.screen.name == "formula-menu"
        d.press("6\n")  # Rules: Classic -> Distance, and Enter to confirm it
        assert d.screen.rules == "distance"  # type: ignore[attr-defined]
        d.press("6")  # the digit alone still steps
        assert d.screen.rules == "classic"  # type: ignore[attr-defined]


def test_one_then_enter_opens_cricket_without_changing_its_first_line(tmp_path: Path) -> None:
    with kiosk_on_virtual_board(tmp_path) as d:
        d.press("\n1\n")
        assert d.screen.name == "cricket-menu"
        assert d.screen.setup.variant == "standard"  # type: ignore[attr-defined]
        d.press("\n")  # a second Enter is a choice of its own: the next variant
        assert d.screen.setup.variant == "cut-throat"  # type: ignore[attr-defined]


def test_enter_after_another_key_acts_as_ever(tmp_path: Path) -> None:
    with kiosk_on_virtual_board(tmp_path) as d:
        d.press("\n2")
        d.press("6+-\n")  # Rules stepped, moved away and back, then Enter: stepped again
        assert d.screen.rules == "classic"  # type: ignore[attr-defined]


def test_only_an_enter_soon_after_the_digit_is_its_confirmation() -> None:
    enter, plus = KeyAction("enter"), KeyAction("next")
    stack = ScreenStack()
    stack.digit_chose_at = 100.0
    assert enter_confirms(stack, enter, 100.0 + ENTER_CONFIRMS_S / 2)
    assert not enter_confirms(stack, enter, 100.1)  # once only
    stack.digit_chose_at = 100.0
    assert not enter_confirms(stack, enter, 100.0 + ENTER_CONFIRMS_S + 0.1)  # long after
    for other in (plus, Click((5, 5)), DartInput(Dart(20, 3), "board")):
        stack.digit_chose_at = 100.0
        assert not enter_confirms(stack, other, 100.1)
        assert not enter_confirms(stack, enter, 100.2)


def test_enter_right_after_the_digit_that_opened_a_screen_only_confirms_it(
    tmp_path: Path,
) -> None:
    with kiosk_on_virtual_board(tmp_path) as d:
        d.press("\n4")  # settings
        d.press("2\n")  # the volume's own screen, where Enter is "done": it stays
        assert d.screen.name == "volume"
        d.look()
        d.press("\n")
        assert d.screen.name == "settings"


def test_start_game_then_enter_does_not_start_the_formula_clock(tmp_path: Path) -> None:
    # The Enter reached the new game and showed the digits: the 2:00 clock ran, and in a
    # qualification the game counted as played (found by a keypad-only review).
    with kiosk_on_virtual_board(tmp_path) as d:
        d.press("\n2")
        d.press("1")  # Training: who plays
        assert d.screen.name == "players"
        d.press("2\n")  # Start game, and Enter to confirm it
        assert d.screen.name == "formula"
        assert "Press Enter to see the digits" in d.texts, d.texts
        d.look()
        d.press("\n")  # meant: the digits, and the clock
        assert "Press Enter to see the digits" not in d.texts
