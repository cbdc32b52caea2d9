"""Board maps: which raw matrix contact (``RAW r c``) is which segment or button.

DIY boards scan the membrane matrix with an Arduino and only know "row 3 touched
column 7"; which segment that is depends on how the membrane was wired. A map, learnt
once with ``darts-kiosk board-learn``, turns those contacts into hits and buttons.

File format (JSON)::

    {"version": 1, "contacts": {"3,7": "T20", "0,1": "S20i", "9,0": "BTN NEXT"}}

A value is any protocol line that means a hit or a button (``T20``, ``S5o``, ``SB``,
``DB``, ``MISS``, ``BTN NEXT``...): it is parsed by ``protocol.parse_line`` so the map
and the wire speak the same language.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.adapters.files import write_text_atomically
from kiosk.adapters.serial_board.protocol import BoardEvent, Button, Hit, Raw, parse_line

VERSION = 1
Contact = tuple[int, int]


class BoardMapError(ValueError):
    """A board map file that cannot be used."""


def _target(value: str) -> Hit | Button:
    event = parse_line(value.encode("ascii", errors="replace"))
    if not isinstance(event, Hit | Button):
        raise BoardMapError(f"not a segment or button: {value!r}")
    return event


def _contact(key: str) -> Contact:
    parts = key.split(",")
    # (ASCII digits: "³" passes isdigit() and int() refuses it)
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise BoardMapError(f"not a contact 'row,col': {key!r}")
    return int(parts[0]), int(parts[1])


@dataclass(frozen=True)
class BoardMap:
    """Contact -> protocol line (``"T20"``, ``"BTN NEXT"``). Validated when built."""

    contacts: Mapping[Contact, str] = field(default_factory=dict)
    _events: dict[Contact, Hit | Button] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        events = {(int(r), int(c)): _target(v) for (r, c), v in self.contacts.items()}
        object.__setattr__(self, "contacts", dict(self.contacts))
        object.__setattr__(self, "_events", events)

    def event_for(self, event: BoardEvent) -> BoardEvent:
        """A mapped ``Raw`` becomes its ``Hit``/``Button``; anything else is returned as is."""
        if isinstance(event, Raw):
            return self._events.get((event.row, event.col), event)
        return event

    def contact_of(self, value: str) -> Contact | None:
        """The contact recorded for ``value`` ("T20"), or None."""
        for contact, v in self.contacts.items():
            if v == value:
                return contact
        return None

    def to_json(self) -> str:
        contacts = {f"{r},{c}": v for (r, c), v in sorted(self.contacts.items())}
        return json.dumps({"version": VERSION, "contacts": contacts}, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> BoardMap:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise BoardMapError(f"not JSON: {e}") from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise BoardMapError(f"not a version {VERSION} board map")
        raw = data.get("contacts")
        if not isinstance(raw, dict):
            raise BoardMapError("'contacts' must be an object of 'row,col': line")
        contacts: dict[Contact, str] = {}
        for key, value in raw.items():
            if not isinstance(value, str):
                raise BoardMapError(f"contact {key!r}: value must be a string, got {value!r}")
            contacts[_contact(key)] = value
        return cls(contacts)


def load(path: str | os.PathLike[str]) -> BoardMap:
    """Read a map file; ``BoardMapError`` (with the path) if it is missing or invalid."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BoardMapError(f"{path}: {e}") from None
    try:
        return BoardMap.from_json(text)
    except BoardMapError as e:
        raise BoardMapError(f"{path}: {e}") from None


def save(board_map: BoardMap, path: str | os.PathLike[str]) -> None:
    """Write atomically (temp file + rename): a crash mid-write leaves the old map."""
    write_text_atomically(path, board_map.to_json())
