"""The Dart value: text round trip, refusals that name the text, score and parts."""

from __future__ import annotations

import pytest

from kiosk.domain.darts import BULL, Dart, DartError, all_darts


def test_every_dart_round_trips_through_its_text() -> None:
    for dart in all_darts():
        assert Dart.parse(str(dart)) == dart


def test_the_repr_of_every_dart_is_code_that_rebuilds_it() -> None:
    for dart in all_darts():
        assert eval(repr(dart)) == dart


def test_all_darts_lists_the_63_distinct_darts_once_each() -> None:
    darts = all_darts()
    assert len(darts) == len(set(darts)) == 63
    texts = {str(d) for d in darts}
    assert {"S1", "T20", "D19", "SB", "DB", "MISS"} <= texts


@pytest.mark.parametrize(
    ("text", "number", "multiplier", "score"),
    [
        ("S1", 1, 1, 1),
        ("D1", 1, 2, 2),
        ("T1", 1, 3, 3),
        ("S20", 20, 1, 20),
        ("D20", 20, 2, 40),
        ("T20", 20, 3, 60),
        ("T19", 19, 3, 57),
        ("D10", 10, 2, 20),
        ("SB", BULL, 1, 25),
        ("DB", BULL, 2, 50),
        ("MISS", 0, 0, 0),
    ],
)
def test_a_dart_knows_its_number_multiplier_and_score(
    text: str, number: int, multiplier: int, score: int
) -> None:
    dart = Dart.parse(text)
    assert (dart.number, dart.multiplier, dart.score) == (number, multiplier, score)
    assert dart.is_bull == (number == BULL)
    assert dart.is_miss == (text == "MISS")


@pytest.mark.parametrize(
    ("text", "expected"),
    [(" t20 ", "T20"), ("sb", "SB"), ("Db", "DB"), ("miss\n", "MISS"), ("d7", "D7")],
)
def test_case_and_surrounding_spaces_are_ignored(text: str, expected: str) -> None:
    assert str(Dart.parse(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "T21",
        "S0",
        "D25",
        "T25",
        "TB",
        "X20",
        "20",
        "T 20",
        "T020",
        "MISSS",
        "\u042220",  # a Cyrillic Te typed for T
    ],
)
def test_text_that_is_not_a_dart_is_refused_naming_the_text(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        Dart.parse(text)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, DartError)


@pytest.mark.parametrize("value", [20, None, b"T20"])
def test_a_value_that_is_not_text_is_refused_not_crashed_on(value: object) -> None:
    with pytest.raises(ValueError, match=repr(value).replace("'", ".")):
        Dart.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("number", "multiplier"), [(21, 1), (0, 1), (1, 0), (20, 4), (25, 3), (-1, 1), (5, -1)]
)
def test_a_dart_that_cannot_be_on_the_board_cannot_be_built(number: int, multiplier: int) -> None:
    with pytest.raises(ValueError, match=str(number)):
        Dart(number, multiplier)


@pytest.mark.parametrize(
    ("number", "multiplier"), [(20.0, 3), (15.5, 1), (20, 3.0), (True, True), ("20", 3)]
)
def test_a_dart_is_built_from_whole_numbers_only(number: object, multiplier: object) -> None:
    # Dart(20.0, 3) would score as T20 and be saved as "T20.0", which no replay reads.
    with pytest.raises(DartError):
        Dart(number, multiplier)  # type: ignore[arg-type]


def test_darts_are_values() -> None:
    assert Dart(20, 3) == Dart.parse("T20")
    assert len({Dart(20, 3), Dart.parse("t20")}) == 1
    assert Dart(0, 0) == Dart.MISS
