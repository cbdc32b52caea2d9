"""A board map with a mistake in it (a typo by hand, a contact given twice): the kiosk
plays with the rest of the map, names the mistake on a banner and in the log, and a
dart on the contact left out is said on screen, to be typed."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest
from kiosk_support import kiosk_on_board, send, start_game

from kiosk.config import Config

MAP = """{"version": 1, "contacts": {
  "4,9": "T20",
  "5,5": "T21",
  "6,1": "S19",
  "7,2": "D5",
  "7,2": "D6"
}}
"""


def test_a_map_with_a_typo_is_used_but_for_it_and_the_typo_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # One typo threw the whole map away: "Board map map.json not loaded", and no dart
    # on any learnt contact scored all night.
    caplog.set_level(logging.WARNING, logger="kiosk")
    (tmp_path / "map.json").write_text(MAP)
    base = Config()
    config = dataclasses.replace(
        base, input=dataclasses.replace(base.input, board_map=str(tmp_path / "map.json"))
    )
    with kiosk_on_board(tmp_path, config=config) as (d, board):
        start_game(d)
        banner = "Board map map.json: mistakes not used (see the log): contacts 5,5; 7,2"
        d.wait_for(lambda: banner in d.texts, what="the banner")
        assert not any("not loaded" in t for t in d.texts)
        send(d, board, ["RAW 4 9", "RAW 6 1"])
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["T20", "S19"]
        board.send("RAW 5 5")  # the typo's contact: not scored, and said so
        shown = "A dart on contact 5 5 is not in the board map: type it on the keypad"
        d.wait_for(lambda: shown in d.texts, what="the notice")
        assert [str(x) for x in game.darts_this_turn] == ["T20", "S19"]
    said = [r.getMessage() for r in caplog.records]
    assert any("map.json" in m and "'5,5'" in m and "'T21' is not a segment" in m
               for m in said), said  # fmt: skip
    assert any("'7,2'" in m and "D5, D6" in m for m in said), said
