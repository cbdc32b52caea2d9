"""Board maps: which raw matrix contact (``RAW r c``) is which segment or button.

DIY boards scan the membrane matrix with an Arduino and only know "row 3 touched
column 7"; which segment that is depends on how the membrane was wired. A map, learnt
once with ``darts-kiosk board-learn``, turns those contacts into hits and buttons.

File format (JSON)::

    {"version": 1, "contacts": {"3,7": "T20", "0,1": "S20i", "9,0": "BTN NEXT"}}

A key is a contact, ``row,col`` (0 to 999 each, as ``RAW r c`` sends them). A value is
the protocol v1 line of a hit or a button, spelt as ``architecture.md`` spells them:
``T20``, ``D5``, ``S1``, ``S20i`` / ``S20o`` (inner / outer single), ``SB``, ``DB``,
``MISS``, ``BTN NEXT``, ``BTN UNDO``, ``BTN MENU`` (any case, spaces between words
any). ``target_of`` is that one definition: ``hardware/firmware/tools/map2header.py``
uses it too, so the kiosk reads every map the firmware can be built with and no other.
The legacy numeric codes (``320`` = T20) are old firmware's wire format, not a map
value: refused, with the name to write instead.

A bad entry does not throw the map away (``read``): a contact or value not so spelt,
or a contact given twice with two values, is left out and named (the file, the
contact as written, why); the rest of the map is used. A bar owner with one typo in
the map plays on, and a dart on the contact left out comes as ``RAW``: the kiosk says
that contact is not in the board map, and the dart can be typed. A file that is no map
at all (not JSON, another version, no ``contacts`` object) is a ``BoardMapError``.

One segment on two contacts is used as it is, and warned of: some boards have two
pads for one segment, but on a board with one a segment it is a typo (and the segment
it should have named has no contact).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.adapters.files import write_text_atomically
from kiosk.adapters.serial_board.protocol import BoardEvent, Button, Hit, Raw, parse_line

VERSION = 1
Contact = tuple[int, int]
SPELLINGS = "T20, D5, S1, S20i, S20o, SB, DB, MISS"
BUTTON_SPELLINGS = "BTN NEXT, BTN UNDO, BTN MENU"
# A contact as a key: what ``RAW r c`` can send (ASCII digits: "³" passes isdigit()).
_KEY = re.compile(r"\s*([0-9]{1,3})\s*,\s*([0-9]{1,3})\s*")
_NUMERIC = re.compile(r"[0-9]+")
_RING_ON_NOT_SINGLE = re.compile(r"[DT][0-9]+[IO]", re.IGNORECASE)


class BoardMapError(ValueError):
    """A board map file that cannot be used, or a map value or contact that is none."""


def target_of(value: str) -> Hit | Button:
    """The hit or button a map value names (``"T20"``, ``"s20i"``, ``"BTN NEXT"``);
    ``BoardMapError`` saying why when it names none."""
    if not value.isascii() or not value.replace("\t", " ").isprintable():
        raise BoardMapError(f"{value!r} is not plain text: write a segment ({SPELLINGS})")
    text = " ".join(value.split())
    event = parse_line(text)
    if _NUMERIC.fullmatch(text):
        instead = f": write {spelling(event)!r}" if isinstance(event, Hit) else ""
        raise BoardMapError(f"{value!r} is a numeric code of old firmware, not a segment "
                            f"name{instead}")  # fmt: skip
    if _RING_ON_NOT_SINGLE.fullmatch(text):
        raise BoardMapError(f"{value!r}: only singles have an inner/outer ring (S20i, S20o)")
    if not isinstance(event, Hit | Button):
        raise BoardMapError(
            f"{value!r} is not a segment ({SPELLINGS}) or button ({BUTTON_SPELLINGS})"
        )
    return event


def spelling(event: Hit | Button) -> str:
    """How a map (and the protocol) writes ``event``: ``T20``, ``S20i``, ``BTN NEXT``."""
    if isinstance(event, Button):
        return f"BTN {event.name}"
    return f"{event.dart}{event.ring}"


def contact_of_key(key: str) -> Contact:
    """``"3,7"`` -> ``(3, 7)``; ``BoardMapError`` if ``key`` is no contact."""
    m = _KEY.fullmatch(key)
    if not m:
        raise BoardMapError(f"{key!r} is not a contact 'row,col' (each 0 to 999)")
    return int(m.group(1)), int(m.group(2))


@dataclass(frozen=True)
class BoardMap:
    """Contact -> protocol line (``"T20"``, ``"BTN NEXT"``), spelt as ``spelling``
    spells it. Validated when built (``BoardMapError``)."""

    contacts: Mapping[Contact, str] = field(default_factory=dict)
    _events: dict[Contact, Hit | Button] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        events = {(int(r), int(c)): target_of(v) for (r, c), v in self.contacts.items()}
        object.__setattr__(self, "contacts", {k: spelling(e) for k, e in events.items()})
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
        """The map in ``text``, every entry good (else ``BoardMapError`` naming each
        bad one); ``parse`` keeps the good ones."""
        return parse(text).strict()


@dataclass(frozen=True)
class MapFile:
    """A map file read: the map of its good entries, the entries left out (the contact
    as the file writes it, why), and what was used but looks wrong."""

    board_map: BoardMap
    left_out: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()

    def strict(self) -> BoardMap:
        """The map, if no entry was left out; else ``BoardMapError`` naming each."""
        if self.left_out:
            raise BoardMapError("; ".join(f"contact {k!r}: {why}" for k, why in self.left_out))
        return self.board_map


class _Object(dict[str, Any]):
    """A JSON object that keeps its pairs in order, a key given twice too (``dict``
    keeps the last and says nothing)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.pairs = pairs


def parse(text: str) -> MapFile:
    """A map file's text: its good entries, and the bad ones named (see the module's
    docstring); ``BoardMapError`` only for what is no board map at all."""
    try:
        data = json.loads(text, object_pairs_hook=_Object)
    except json.JSONDecodeError as e:
        raise BoardMapError(f"not JSON: {e}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise BoardMapError(f"not a version {VERSION} board map")
    raw = data.get("contacts")
    if not isinstance(raw, dict):
        raise BoardMapError("'contacts' must be an object of 'row,col': line")
    pairs = raw.pairs if isinstance(raw, _Object) else list(raw.items())
    left_out: list[tuple[str, str]] = []
    given: dict[Contact, list[tuple[str, str]]] = {}  # contact -> (key, value) as spelt
    for key, value in pairs:
        try:
            if not isinstance(value, str):
                raise BoardMapError(f'{value!r} is not a string such as "T20"')
            contact = contact_of_key(key)
            target = spelling(target_of(value))
        except BoardMapError as e:
            left_out.append((key, str(e)))
            continue
        given.setdefault(contact, []).append((key, target))
    contacts: dict[Contact, str] = {}
    warnings: list[str] = []
    for contact, entries in given.items():
        key = entries[0][0]
        values = list(dict.fromkeys(v for _, v in entries))
        if len(values) > 1:
            left_out.append((key, f"given {len(entries)} times, as {', '.join(values)}: "
                                  "which is meant cannot be told"))  # fmt: skip
            continue
        if len(entries) > 1:
            warnings.append(f"contact {key!r} is given {len(entries)} times (as {values[0]})")
        contacts[contact] = values[0]
    on: dict[str, list[Contact]] = {}
    for contact, value in contacts.items():
        on.setdefault(value, []).append(contact)
    for value, where in on.items():
        if len(where) > 1:
            listed = " and ".join(f"{r},{c}" for r, c in sorted(where))
            warnings.append(f"{value} is on contacts {listed}: each scores {value} (right "
                            "for a board with two pads for it; on one with one pad a "
                            "segment, one of them is a typo)")  # fmt: skip
    return MapFile(BoardMap(contacts), tuple(left_out), tuple(warnings))


def read(path: str | os.PathLike[str]) -> MapFile:
    """Read a map file (``parse``); ``BoardMapError`` (with the path) if it is missing
    or no board map at all."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BoardMapError(f"{path}: {e}") from None
    try:
        return parse(text)
    except BoardMapError as e:
        raise BoardMapError(f"{path}: {e}") from None


def load(path: str | os.PathLike[str]) -> BoardMap:
    """Read a map file with every entry good; ``BoardMapError`` (with the path, and
    each bad entry) if it is missing or any entry is bad (``read`` keeps the rest)."""
    loaded = read(path)
    try:
        return loaded.strict()
    except BoardMapError as e:
        raise BoardMapError(f"{path}: {e}") from None


def save(board_map: BoardMap, path: str | os.PathLike[str]) -> None:
    """Write atomically (temp file + rename): a crash mid-write leaves the old map."""
    write_text_atomically(path, board_map.to_json())
