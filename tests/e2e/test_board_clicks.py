"""Where a dart clicked on the on-screen board landed: its mark is drawn at the click,
one mark for each dart the game took, none for a dart it refused."""

from __future__ import annotations

import math
from pathlib import Path

from kiosk_support import ANNA_WINS, kiosk_on_virtual_board, start_game

from kiosk.domain import board
from kiosk.domain.darts import Dart
from kiosk.ui.screen import Click


def test_a_click_the_game_refused_leaves_no_mark_for_the_darts_after_it(tmp_path: Path) -> None:
    # Two clicks in one frame, the first winning: the second (refused, game over) kept
    # its place in line, and every dart clicked after undoing the win was drawn where
    # the click before it had landed.
    with kiosk_on_virtual_board(tmp_path) as d:
        start_game(d)
        screen = d.screen
        game = screen.session.game  # type: ignore[attr-defined]
        vboard = screen.board  # type: ignore[attr-defined]
        *before, winning, _ = ANNA_WINS  # Anna one bull short of winning
        for text in before:
            d.throw(text)
        for text in (winning, "S5"):  # clicked together, before either came back
            d.running.inbox.put(Click(vboard.pixel_of(Dart.parse(text))), source="mouse")
        d.wait_for(lambda: d.screen.name == "results", what="the win")
        d.press("-")  # the win undone: Anna needs the bull again
        d.wait_screen("cricket")
        darts = len(game.history)
        d.click(vboard.pixel_of(Dart.parse("S20")))
        d.wait_for(lambda: len(game.history) > darts, what="S20 scored")
        assert str(game.history[-1]) == "S20"
        x, y = screen.clicks[-1]  # type: ignore[attr-defined]
        assert math.dist((x, y), board.centre_of(Dart.parse("S20"))) < 3, (x, y)
