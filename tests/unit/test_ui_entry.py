"""Manual dart entry: what a player types for a dart the board missed."""

from __future__ import annotations

import pytest

from kiosk.domain.darts import Dart
from kiosk.ui.entry import EntryError, parse_entry


@pytest.mark.parametrize(
    ("typed", "dart"),
    [
        ("3*20", "T20"),
        ("3 20", "T20"),
        ("320", "T20"),
        ("2*5", "D5"),
        ("205", "D5"),
        ("1*7", "S7"),
        ("20", "S20"),
        ("7", "S7"),
        ("25", "SB"),
        ("50", "DB"),
        ("2*25", "DB"),
        ("1*25", "SB"),
        ("0", "MISS"),
        ("M", "MISS"),
        ("miss", "MISS"),
        ("T20", "T20"),
        ("d5", "D5"),
        ("SB", "SB"),
        ("DB", "DB"),
        (" 3 * 19 ", "T19"),
        ("125", "SB"),
        ("225", "DB"),
    ],
)
def test_typed_text_becomes_the_dart(typed: str, dart: str) -> None:
    assert parse_entry(typed) == Dart.parse(dart)


@pytest.mark.parametrize(
    "typed",
    ["", "*", "4*20", "3*25", "3*21", "21", "60", "57", "T21", "X", "1*2*3", "0*5", "T", "999"],
)
def test_text_that_is_no_dart_is_refused_with_a_message(typed: str) -> None:
    with pytest.raises(EntryError) as e:
        parse_entry(typed)
    assert str(e.value)
