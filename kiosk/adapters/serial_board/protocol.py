"""Serial line protocol v1 (board -> kiosk): one line in, one ``BoardEvent`` out.

Pure: no I/O. See ``architecture.md`` for the table of lines. Anything that is not a
line of the protocol becomes ``Unknown`` (never an exception): a garbage line from a
noisy cable must not stop a game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.domain.darts import BULL, Dart

MAX_LINE = 64  # bytes, without the terminator; longer lines are dropped as Unknown


@dataclass(frozen=True, slots=True)
class Hit:
    """A dart landed. ``ring`` is "i"/"o" for an inner/outer single when the board says so."""

    dart: Dart
    ring: str = ""


@dataclass(frozen=True, slots=True)
class Button:
    """A board button: "NEXT", "UNDO" or "MENU"."""

    name: str


@dataclass(frozen=True, slots=True)
class Raw:
    """A raw matrix contact (row, column), for the learn-mapping tool and board maps."""

    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Hello:
    """Sent by the board on reset."""

    name: str
    version: str


@dataclass(frozen=True, slots=True)
class Ping:
    """Heartbeat, about once a second."""


@dataclass(frozen=True, slots=True)
class Unknown:
    """A line that is not part of the protocol; kept (printable) for the log."""

    text: str


BoardEvent = Hit | Button | Raw | Hello | Ping | Unknown

BUTTONS = frozenset({"NEXT", "UNDO", "MENU"})
_SEGMENT = re.compile(r"([SDT])([1-9]|1[0-9]|20)([IO]?)")
# Fields apart by one space or more: firmware printing ``"RAW %2d %2d"`` pads them.
_RAW = re.compile(r"RAW +(\d{1,3}) +(\d{1,3})")
_LEGACY = re.compile(r"[123]\d{2}")
# The version is the rest of the line ("1.0 beta"): a greeting is only logged.
_HELLO = re.compile(r"HELLO +(\S+) +(\S.*)", re.IGNORECASE)


def _printable(raw: bytes) -> str:
    # Control bytes escaped too: a stray ESC sequence must not drive the log's terminal.
    text = raw.decode("ascii", errors="backslashreplace")
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in text)[:80]


def _legacy(code: int) -> Dart | None:
    """dARts/DaSCR numeric code ``m*100+n``: 120 = S20, 320 = T20, 125 = SB, 225 = DB."""
    m, n = divmod(code, 100)
    if n == BULL and m in (1, 2):
        return Dart(BULL, m)
    if 1 <= n <= 20 and 1 <= m <= 3:
        return Dart(n, m)
    return None


def parse_line(raw: bytes | bytearray | memoryview | str) -> BoardEvent:
    """Parse one line (with or without its ``\\n`` / ``\\r\\n``), as the port's bytes
    or as text (a line typed or read from a log: what is not ASCII is garbage). NUL
    bytes at either end are not part of it: firmware that writes a C string with its
    terminator (``Serial.write(buf, sizeof buf)``) sends ``T20\\0``, and some USB
    serial chips send NULs as the port opens; a NUL inside a line is garbage."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", errors="surrogateescape")
    raw = bytes(raw)
    sent = raw.rstrip(b"\r\n")
    if len(sent) > MAX_LINE:  # NULs count: the reader's splitter drops the same line
        return overlong(sent)
    line = raw.rstrip(b"\r\n\x00").lstrip(b"\x00")
    event = _parse(line) if line or not sent else Unknown("")  # nothing but NULs: garbage
    if isinstance(event, Unknown):
        event = _behind_junk(line) or event
    if isinstance(event, Unknown) and line != sent:  # the log shows the line as sent
        return Unknown(_printable(sent[:MAX_LINE]) + ("..." if len(sent) > MAX_LINE else ""))
    return event


_GREETING = re.compile(rb"HELLO|PING", re.IGNORECASE)


def _behind_junk(line: bytes) -> Hello | Ping | None:
    """The HELLO or PING at the end of ``line``, behind bytes that are mostly no text:
    an Arduino resets as the port opens (or is plugged in), and what its bootloader
    sent at another speed (or what the USB chip still held) can come in front of its
    first line. Such a line is the greeting, not an unknown line for the players to
    read; junk in front of a dart is still no dart."""
    at = max((m.start() for m in _GREETING.finditer(line)), default=None)
    if not at:
        return None
    junk = sum(not (0x20 <= b <= 0x7E or b == 0x09) for b in line[:at])
    found = _parse(line[at:])
    return found if 2 * junk >= at and isinstance(found, Hello | Ping) else None


def overlong(sample: bytes) -> Unknown:
    """A line over ``MAX_LINE`` bytes, dropped: its first ``MAX_LINE`` bytes, escaped."""
    return Unknown(_printable(sample[:MAX_LINE]) + "...")


def _parse(line: bytes) -> BoardEvent:
    """``parse_line`` of a line without its terminator and NULs around it."""
    if len(line) > MAX_LINE:
        return Unknown(_printable(line[:MAX_LINE]) + "...")
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError:
        return Unknown(_printable(line))
    spaced = text.replace("\t", " ")  # firmware printing with "\t" between fields
    if not spaced.isprintable():
        return Unknown(_printable(line))
    event = _parse_text(spaced.strip())
    if isinstance(event, Unknown) and "\t" in text:  # the log shows the tab as sent
        return Unknown(_printable(line.strip(b" \t")))
    return event


def _parse_text(t: str) -> BoardEvent:
    """``_parse`` of printable text, tabs made spaces, stripped."""
    u = t.upper()
    if u == "MISS":
        return Hit(Dart.MISS)
    if u == "SB":
        return Hit(Dart(BULL, 1))
    if u == "DB":
        return Hit(Dart(BULL, 2))
    if u == "PING":
        return Ping()
    m = _SEGMENT.fullmatch(u)
    if m:
        kind, number, ring = m.groups()
        if ring and kind != "S":
            return Unknown(t)
        return Hit(Dart.parse(kind + number), ring.lower())
    if u.startswith("BTN "):
        name = u[4:].strip()
        return Button(name) if name in BUTTONS else Unknown(t)
    m = _RAW.fullmatch(u)
    if m:
        return Raw(int(m.group(1)), int(m.group(2)))
    m = _HELLO.fullmatch(t)  # case-insensitive like every other line; name kept as sent
    if m:
        return Hello(m.group(1), m.group(2))
    if _LEGACY.fullmatch(t):
        dart = _legacy(int(t))
        if dart is not None:
            return Hit(dart)
    return Unknown(t)


def describe(event: BoardEvent) -> str:
    """One line for ``board-monitor`` and the log: ``hit T20``, ``miss``, ``button NEXT``."""
    match event:
        case Hit(dart=d) if d.is_miss:
            return "miss"
        case Hit(dart=d, ring=ring):
            return f"hit {d}{ring}"
        case Button(name=name):
            return f"button {name}"
        case Raw(row=r, col=c):
            return f"raw {r} {c}"
        case Hello(name=name, version=version):
            return f"hello {name} {version}"
        case Ping():
            return "ping"
        case Unknown(text=text):
            return f"unknown '{text}'"  # text is escaped already: repr would double it
    raise AssertionError(event)
