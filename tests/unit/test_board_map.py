"""Board maps: raw matrix contacts -> segments and buttons, and the map file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.adapters.serial_board import board_map
from kiosk.adapters.serial_board.board_map import BoardMap, BoardMapError
from kiosk.adapters.serial_board.protocol import Button, Hit, Ping, Raw, Unknown
from kiosk.domain.darts import Dart

MAP = BoardMap({(3, 7): "T20", (0, 1): "S20i", (9, 0): "BTN NEXT", (2, 2): "DB", (4, 4): "MISS"})


@pytest.mark.parametrize(
    ("raw", "event"),
    [
        (Raw(3, 7), Hit(Dart(20, 3))),
        (Raw(0, 1), Hit(Dart(20, 1), "i")),
        (Raw(9, 0), Button("NEXT")),
        (Raw(2, 2), Hit(Dart(25, 2))),
        (Raw(4, 4), Hit(Dart.MISS)),
    ],
)
def test_a_mapped_contact_becomes_its_segment_or_button(raw: Raw, event: object) -> None:
    assert MAP.event_for(raw) == event


def test_an_unmapped_contact_passes_through_as_raw() -> None:
    assert MAP.event_for(Raw(7, 3)) == Raw(7, 3)


def test_events_that_are_not_raw_are_untouched() -> None:
    for event in (Hit(Dart(5, 1)), Ping(), Unknown("x")):
        assert MAP.event_for(event) == event


def test_a_saved_map_loads_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    board_map.save(MAP, path)
    assert board_map.load(path) == MAP
    data = json.loads(path.read_text())
    assert data["version"] == 1
    assert data["contacts"]["3,7"] == "T20"


def test_saving_over_a_map_leaves_no_temp_files(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    board_map.save(MAP, path)
    board_map.save(BoardMap({(1, 1): "S1"}), path)
    assert [p.name for p in tmp_path.iterdir()] == ["map.json"]
    assert board_map.load(path).contacts == {(1, 1): "S1"}


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("{not json", "not JSON"),
        ('{"version": 2, "contacts": {}}', "version 1"),
        ("[1, 2]", "version 1"),
        ('{"version": 1}', "contacts"),
        ('{"version": 1, "contacts": {"3-7": "T20"}}', "row,col"),
        ('{"version": 1, "contacts": {"3,x": "T20"}}', "row,col"),
        ('{"version": 1, "contacts": {"\u00b3,7": "T20"}}', "row,col"),  # "³" is a digit
        ('{"version": 1, "contacts": {"3,7": "T21"}}', "not a segment"),
        ('{"version": 1, "contacts": {"3,7": "PING"}}', "not a segment"),
        ('{"version": 1, "contacts": {"3,7": 20}}', "string"),
    ],
)
def test_a_bad_map_file_is_refused_with_a_reason(tmp_path: Path, text: str, complaint: str) -> None:
    path = tmp_path / "map.json"
    path.write_text(text)
    with pytest.raises(BoardMapError, match=complaint) as info:
        board_map.load(path)
    assert str(path) in str(info.value)


def test_a_missing_map_file_is_a_board_map_error(tmp_path: Path) -> None:
    with pytest.raises(BoardMapError, match=r"missing\.json"):
        board_map.load(tmp_path / "missing.json")


def test_contact_of_finds_where_a_segment_was_learnt() -> None:
    assert MAP.contact_of("BTN NEXT") == (9, 0)
    assert MAP.contact_of("T1") is None
