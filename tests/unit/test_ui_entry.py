"""Manual dart entry: what a player types for a dart the board missed."""

from __future__ import annotations

import pytest

from kiosk.domain.darts import Dart
from kiosk.ui import i18n
from kiosk.ui.entry import EntryError, parse_entry
from kiosk.ui.theme import assets_dir


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
        ("20*3", "T20"),  # the number first, as on a calculator: only one reading
        ("5 2", "D5"),
        ("25*2", "DB"),
        ("2*3", "D3"),  # (both readings darts: the multiplier first, as documented)
        ("3*2", "T2"),
    ],
)
def test_typed_text_becomes_the_dart(typed: str, dart: str) -> None:
    assert parse_entry(typed) == Dart.parse(dart)


@pytest.mark.parametrize(
    "typed",
    ["", "*", "4*20", "3*25", "3*21", "21", "60", "57", "T21", "X", "1*2*3", "0*5", "T", "999",
     "20*4", "25*3", "21*3", "3*", "2*", "*3", "*20", "3 x", "x 20", "\u00b2", "3*\u00b2"],
)  # fmt: skip
def test_text_that_is_no_dart_is_refused_with_a_message(typed: str) -> None:
    with pytest.raises(EntryError) as e:
        parse_entry(typed)
    assert str(e.value)


@pytest.mark.parametrize(
    ("typed", "number", "english_word"),
    [("5*20", "not 5", "multiplier")],
)
def test_a_refusal_with_numbers_is_shown_in_the_players_language(
    typed: str, number: str, english_word: str
) -> None:
    catalog = i18n.load("uk", assets_dir() / "locale")
    with pytest.raises(EntryError) as e:
        parse_entry(typed)
    english = e.value.shown(str)
    assert english == str(e.value) and number in english and english_word in english
    shown = e.value.shown(catalog.gettext)
    assert number.split()[-1] in shown and english_word not in shown


def test_a_dart_that_does_not_exist_is_said_once_not_twice() -> None:
    # The screen puts the typed text first: "3*25: no such dart", not "...: 3*25" again.
    catalog = i18n.load("uk", assets_dir() / "locale")
    with pytest.raises(EntryError) as e:
        parse_entry("3*25")
    assert e.value.shown(str) == "no such dart"
    assert e.value.shown(catalog.gettext) == "такого дротика немає"
