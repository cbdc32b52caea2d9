"""Board maps: raw matrix contacts -> segments and buttons, and the map file."""

from __future__ import annotations

import json
import re
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


# -- a map with mistakes: the rest used, each mistake named --------------------------------


def _read(tmp_path: Path, text: str) -> board_map.MapFile:
    path = tmp_path / "map.json"
    path.write_text(text)
    return board_map.read(path)


def test_one_bad_entry_is_left_out_and_named_and_the_rest_of_the_map_is_used(
    tmp_path: Path,
) -> None:
    # One typo threw the whole map away: every dart came as RAW, none scored.
    loaded = _read(tmp_path, '{"version": 1, "contacts": {"0,0": "T20", "3,7": "T21", '
                             '"3,x": "D5", "1,1": "BTN NEXT"}}')  # fmt: skip
    assert loaded.board_map.event_for(Raw(0, 0)) == Hit(Dart(20, 3))
    assert loaded.board_map.event_for(Raw(1, 1)) == Button("NEXT")
    assert loaded.board_map.event_for(Raw(3, 7)) == Raw(3, 7)  # not scored: said so
    assert [key for key, _ in loaded.left_out] == ["3,7", "3,x"]
    assert "'T21' is not a segment" in loaded.left_out[0][1]
    assert "row,col" in loaded.left_out[1][1]


def test_a_contact_given_twice_with_two_segments_is_used_as_neither(tmp_path: Path) -> None:
    # JSON keeps the last of a key given twice, and said nothing: T19 scored for a
    # contact the owner may have meant as T20.
    for again in ('"3,7"', '"03, 7"'):  # (the same contact written otherwise)
        text = f'{{"version": 1, "contacts": {{"3,7": "T20", "0,0": "S1", {again}: "T19"}}}}'
        loaded = _read(tmp_path, text)
        assert loaded.board_map.event_for(Raw(3, 7)) == Raw(3, 7), text
        assert loaded.board_map.event_for(Raw(0, 0)) == Hit(Dart(1, 1))
        ((key, why),) = loaded.left_out
        assert key == "3,7" and "given 2 times, as T20, T19" in why


def test_a_contact_given_twice_as_the_same_segment_is_used_and_warned_of(tmp_path: Path) -> None:
    loaded = _read(tmp_path, '{"version": 1, "contacts": {"3,7": "T20", "3,7": "t20"}}')
    assert loaded.board_map.event_for(Raw(3, 7)) == Hit(Dart(20, 3))
    assert not loaded.left_out
    assert loaded.warnings == ("contact '3,7' is given 2 times (as T20)",)


def test_one_segment_on_two_contacts_is_used_and_warned_of(tmp_path: Path) -> None:
    # Some boards have two pads for a segment; on most it is a typo: used, and said.
    loaded = _read(tmp_path, '{"version": 1, "contacts": {"3,7": "T20", "4,2": "T20", '
                             '"5,5": "S20i", "5,6": "S20o"}}')  # fmt: skip
    assert loaded.board_map.event_for(Raw(3, 7)) == loaded.board_map.event_for(Raw(4, 2))
    assert not loaded.left_out
    (warning,) = loaded.warnings
    assert warning.startswith("T20 is on contacts 3,7 and 4,2")


@pytest.mark.parametrize(
    ("value", "why"),
    [("320", "numeric code of old firmware, not a segment name: write 'T20'"),
     ("225", "write 'DB'"),
     ("T20\x00", "not plain text"),
     ("D20i", "only singles"),
     ("S25", "not a segment"),
     ("HELLO board 1.0", "not a segment"),
     ("RAW 3 7", "not a segment")],
)  # fmt: skip
def test_a_value_the_firmware_cannot_send_is_no_segment_name(value: str, why: str) -> None:
    # "320" (a legacy wire code) was taken as T20 by the kiosk and refused by
    # map2header: a map the kiosk read was one the firmware could not be built with.
    with pytest.raises(BoardMapError, match=re.escape(why)):
        board_map.target_of(value)


@pytest.mark.parametrize(
    ("value", "spelt"),
    [("t20", "T20"), ("s20I", "S20i"), (" btn  next ", "BTN NEXT"), ("miss", "MISS"),
     ("sb", "SB"), ("D5", "D5")],
)  # fmt: skip
def test_a_segment_name_in_any_case_is_read_and_written_back_as_the_protocol_spells_it(
    tmp_path: Path, value: str, spelt: str
) -> None:
    loaded = _read(tmp_path, json.dumps({"version": 1, "contacts": {"1,2": value}}))
    assert loaded.board_map.contacts == {(1, 2): spelt}
    assert not loaded.left_out


def test_a_contact_past_what_raw_can_say_is_left_out(tmp_path: Path) -> None:
    loaded = _read(tmp_path, '{"version": 1, "contacts": {"1000,1": "T20", "1,1": "T1"}}')
    assert [key for key, _ in loaded.left_out] == ["1000,1"]
    assert loaded.board_map.contacts == {(1, 1): "T1"}
