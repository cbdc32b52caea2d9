"""Pages of the menus left alone (a table, a half-typed name, the clock being set) give
way to the attract screen as the menus do, never over a game (the real kiosk,
headless, on the virtual board)."""

from __future__ import annotations

from pathlib import Path

import pytest
from kiosk_support import kiosk_on_virtual_board, start_game

from kiosk.ui.driver import Driver
from kiosk.ui.screens.menu import MENU_IDLE_S


def left_alone(d: Driver, seconds: float) -> None:
    d.kiosk.stack.touched_at -= seconds  # (as if nobody had touched it that long)
    d.app.run(timeout=1.0)


@pytest.mark.parametrize(
    ("keys", "page"),
    [
        ("\n32", "standings"),  # tonight's standings, on the TV all night
        ("\n15112", "name-entry"),  # a new name half typed for place 1
    ],
)
def test_a_page_left_alone_gives_way_to_the_attract_screen(
    tmp_path: Path, keys: str, page: str
) -> None:
    with kiosk_on_virtual_board(tmp_path) as d:
        d.press(keys)
        assert d.screen.name == page, d.screen.name
        left_alone(d, MENU_IDLE_S - 30)
        assert d.screen.name == page  # (not yet)
        left_alone(d, 31)
        assert d.screen.name == "attract" and len(d.kiosk.stack) == 1


def test_a_page_over_a_game_stays_however_long_it_is_left(tmp_path: Path) -> None:
    with kiosk_on_virtual_board(tmp_path) as d:
        start_game(d)
        from kiosk.ui.screens.name_entry import NameEntry

        d.kiosk.stack.push(NameEntry(d.kiosk, "Name", lambda name: None))
        d.settle()
        left_alone(d, 10 * MENU_IDLE_S)
        assert d.screen.name == "name-entry"
        assert any(s.name == "cricket" for s in d.kiosk.stack.screens())
