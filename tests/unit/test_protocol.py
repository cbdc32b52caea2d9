"""The serial line protocol v1 and the line splitter, table by table."""

from __future__ import annotations

import pytest

from kiosk.adapters.serial_board.lines import LineSplitter
from kiosk.adapters.serial_board.protocol import (
    Button,
    Hello,
    Hit,
    Ping,
    Raw,
    Unknown,
    describe,
    parse_line,
)
from kiosk.domain.darts import Dart, all_darts

V1_LINES: list[tuple[bytes, object]] = [
    (b"T20\n", Hit(Dart(20, 3))),
    (b"D20\n", Hit(Dart(20, 2))),
    (b"S20\n", Hit(Dart(20, 1))),
    (b"S20i\n", Hit(Dart(20, 1), "i")),
    (b"S20o\n", Hit(Dart(20, 1), "o")),
    (b"S1\n", Hit(Dart(1, 1))),
    (b"T1\n", Hit(Dart(1, 3))),
    (b"SB\n", Hit(Dart(25, 1))),
    (b"DB\n", Hit(Dart(25, 2))),
    (b"MISS\n", Hit(Dart.MISS)),
    (b"BTN NEXT\n", Button("NEXT")),
    (b"BTN UNDO\n", Button("UNDO")),
    (b"BTN MENU\n", Button("MENU")),
    (b"RAW 3 7\n", Raw(3, 7)),
    (b"RAW 0 15\n", Raw(0, 15)),
    (b"HELLO virtual-board 0.1.0\n", Hello("virtual-board", "0.1.0")),
    (b"PING\n", Ping()),
    (b"t20\n", Hit(Dart(20, 3))),
    (b"ping\n", Ping()),
    (b"hello diy-board 2\n", Hello("diy-board", "2")),
    (b"  T5 \n", Hit(Dart(5, 3))),
]

LEGACY_CODES: list[tuple[bytes, object]] = [
    (b"120\n", Hit(Dart(20, 1))),
    (b"220\n", Hit(Dart(20, 2))),
    (b"320\n", Hit(Dart(20, 3))),
    (b"101\n", Hit(Dart(1, 1))),
    (b"319\n", Hit(Dart(19, 3))),
    (b"125\n", Hit(Dart(25, 1))),
    (b"225\n", Hit(Dart(25, 2))),
]

INVALID = [
    b"425",  # no quadruple
    b"325",  # no triple bull
    b"100",  # m*100+0
    b"121",  # no 21
    b"T21",
    b"T0",
    b"D20i",  # only singles have inner/outer
    b"T20o",
    b"S20x",
    b"BTN FIRE",
    b"BTN",
    b"RAW 3",
    b"RAW 1234 1",
    b"HELLO onlyname",
    b"T 20",
    b"20",
    b"",
    b"\xd0\x9f\xd1\x80\xd0\xb8",  # non-ASCII (Cyrillic)
    b"T20\xff",
    b"T2\x000",
    b"\t",
]


@pytest.mark.parametrize(("line", "event"), V1_LINES + LEGACY_CODES)
def test_every_protocol_line_becomes_its_event(line: bytes, event: object) -> None:
    assert parse_line(line) == event


@pytest.mark.parametrize(("line", "event"), V1_LINES + LEGACY_CODES)
def test_crlf_and_bare_lines_mean_the_same(line: bytes, event: object) -> None:
    bare = line.rstrip(b"\n")
    assert parse_line(bare + b"\r\n") == event
    assert parse_line(bare) == event


@pytest.mark.parametrize("dart", all_darts())
def test_every_dart_sent_as_text_comes_back(dart: Dart) -> None:
    assert parse_line(str(dart).encode()) == Hit(dart)


@pytest.mark.parametrize(
    ("line", "event"),
    [(b"T20\t\r\n", Hit(Dart.parse("T20"))),
     (b"\tMISS\n", Hit(Dart.MISS)),
     (b"BTN\tNEXT\n", Button("NEXT")),
     (b"HELLO\tboard\t1.2\n", Hello("board", "1.2"))],
)  # fmt: skip
def test_a_tab_counts_as_a_space(line: bytes, event: object) -> None:
    assert parse_line(line) == event


@pytest.mark.parametrize(
    ("line", "text"),
    [(b"T\t20\n", "T\\x0920"),  # a tab inside a dart is not a space between fields
     (b"BTN\tFIRE\r\n", "BTN\\x09FIRE"),
     (b"\tT 20\t\n", "T 20")],  # the tabs around it are stripped like spaces
)  # fmt: skip
def test_a_refused_line_with_a_tab_is_logged_as_sent(line: bytes, text: str) -> None:
    assert parse_line(line) == Unknown(text)


@pytest.mark.parametrize(
    ("line", "event"),
    [(b"T20\x00\n", Hit(Dart.parse("T20"))),  # a C string sent with its terminator
     (b"\x00\x00SB\r\n", Hit(Dart.parse("SB"))),  # NULs as the port opens
     (b"PING\x00\r\x00\n", Ping()),
     (b"\x00\x00\x00\n", Unknown("\\x00\\x00\\x00")),  # nothing but NULs: still garbage
     (b"\x00LSP\r\n", Unknown("\\x00LSP"))],  # the log shows what was sent
)  # fmt: skip
def test_nul_bytes_around_a_line_are_not_part_of_it(line: bytes, event: object) -> None:
    assert parse_line(line) == event


@pytest.mark.parametrize("line", INVALID)
def test_an_invalid_line_is_unknown_and_never_raises(line: bytes) -> None:
    event = parse_line(line)
    assert isinstance(event, Unknown)
    assert event.text.isprintable()


def test_a_line_over_64_bytes_is_dropped_even_if_it_starts_like_a_hit() -> None:
    line = b"T20" + b" " * 62
    event = parse_line(line)
    assert isinstance(event, Unknown)
    assert event.text.endswith("...")
    assert parse_line(b"T20" + b" " * 61) == Hit(Dart(20, 3))  # 64 bytes is still a line


def test_nul_padding_counts_towards_the_64_bytes_as_the_reader_counts_it() -> None:
    # The reader's splitter drops a 65-byte line whatever its bytes are; the parser
    # alone must say the same of it, and log it escaped, not as a Python repr.
    event = parse_line(b"\x00" * 62 + b"T20\n")
    assert isinstance(event, Unknown)
    assert event.text.startswith("\\x00\\x00") and event.text.endswith("...")
    assert len(event.text) <= 83
    assert parse_line(b"\x00" * 61 + b"T20\n") == Hit(Dart(20, 3))
    (dropped,) = LineSplitter().feed(b"\x00" * 62 + b"T20\n")
    assert isinstance(dropped, Unknown) and dropped.text == event.text


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (Hit(Dart(20, 3)), "hit T20"),
        (Hit(Dart(25, 1)), "hit SB"),
        (Hit(Dart(25, 2)), "hit DB"),
        (Hit(Dart(20, 1), "i"), "hit S20i"),
        (Hit(Dart.MISS), "miss"),
        (Button("NEXT"), "button NEXT"),
        (Raw(3, 7), "raw 3 7"),
        (Hello("b", "1"), "hello b 1"),
        (Ping(), "ping"),
        (Unknown("xyz"), "unknown 'xyz'"),
    ],
)
def test_describe_gives_the_monitor_line(event: object, text: str) -> None:
    assert describe(event) == text  # type: ignore[arg-type]


# -- line splitting (lines.LineSplitter) ------------------------------------------------

SPLITS = [
    ([b"T20\n"], [b"T20"]),
    ([b"T2", b"0\n"], [b"T20"]),
    ([b"T20\r\nD5\r\n"], [b"T20", b"D5"]),
    ([b"T20\r", b"\nD5\n"], [b"T20", b"D5"]),
    ([b"T20\rD5\r"], [b"T20", b"D5"]),  # bare CR terminators
    ([b"\n\n\r\nT20\n\n"], [b"T20"]),  # empty lines are nothing
    ([b"T20"], []),  # unfinished: waits for its end
    ([b"T20\nD5"], [b"T20"]),
]


@pytest.mark.parametrize(("chunks", "lines"), SPLITS)
def test_chunks_are_split_into_lines(chunks: list[bytes], lines: list[bytes]) -> None:
    s = LineSplitter()
    out = [item for chunk in chunks for item in s.feed(chunk)]
    assert out == lines


def test_an_over_long_line_is_one_unknown_and_the_next_line_survives() -> None:
    s = LineSplitter()
    out = s.feed(b"x" * 200 + b"\nT20\n")
    assert len(out) == 2
    assert isinstance(out[0], Unknown) and out[0].text == "x" * 64 + "..."
    assert out[1] == b"T20"


def test_a_megabyte_without_newline_never_grows_the_buffer() -> None:
    s = LineSplitter()
    out = []
    for _ in range(1024):
        out += s.feed(b"y" * 1024)
    out += s.feed(b"\nD20\n")
    assert s.high_water <= 64
    assert len([o for o in out if isinstance(o, Unknown)]) == 1
    assert out[-1] == b"D20"


def test_an_over_long_line_split_across_chunks_is_reported_once() -> None:
    s = LineSplitter()
    out = []
    for _ in range(10):
        out += s.feed(b"z" * 30)
    out += s.feed(b"zz\nS1\n")
    assert [type(o) for o in out] == [Unknown, bytes]
    assert out[1] == b"S1"


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("T20", Hit(Dart(20, 3))),  # text as well as bytes: a line typed or from a log
        ("BTN NEXT\r\n", Button("NEXT")),
        (memoryview(b"SB"), Hit(Dart(25, 1))),
        ("\u042220", Unknown("\\xd0\\xa220")),  # a Cyrillic T: not the protocol
        (b"RAW  3  7", Raw(3, 7)),  # printf("RAW %2d %2d") pads single digits
        (b"HELLO  dartboard 1.2", Hello("dartboard", "1.2")),
        (b"HELLO dartboard 1.2 beta", Hello("dartboard", "1.2 beta")),
    ],
    ids=repr,
)
def test_lines_as_text_or_with_padded_fields_are_read(line: object, event: object) -> None:
    assert parse_line(line) == event  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "event"),
    [(b"\xf0\x00HELLO darts-kiosk-board 1.0\r\n", Hello("darts-kiosk-board", "1.0")),
     (b"\x80\xffPING\n", Ping()),
     (b"\xf0\xfeT20\n", Unknown("\\xf0\\xfeT20")),  # junk in front of a dart: no dart
     (b"ERROR: bad\x01PING", Unknown("ERROR: bad\\x01PING"))],  # text in front: other talk
    ids=repr,
)  # fmt: skip
def test_a_greeting_behind_a_resets_junk_is_the_greeting_not_an_unknown_line(
    line: bytes, event: object
) -> None:
    # An Arduino plugged back in sends its bootloader's junk before HELLO: shown to the
    # players as "The board sent a line the kiosk does not know" after every replug.
    assert parse_line(line) == event


CUT_T2 = "T2 (no line end, then nothing)"
CUT_HELLO = "HELLO dartboard (no line end, then nothing)"
# Silence mid-line (``gap``) between the chunks: a line read whole is one line; else
# the part before the silence was cut short and the part after it is a line of its own.
GAPS = [
    ([b"T2", b"0\r\n"], [b"T20"]),  # a slow board: one line, one dart
    ([b"BTN NE", b"XT\n"], [b"BTN NEXT"]),
    ([b"3", b"20\r"], [b"320"]),
    ([b"T2", b"T19\n"], [Unknown(CUT_T2), b"T19"]),  # a reset
    ([b"\xff\x13", b"D5\n"], [Unknown("\\xff\\x13 (no line end, then nothing)"), b"D5"]),
    ([b"T2", b"x" * 63 + b"\nS1\n"], [Unknown(CUT_T2), b"x" * 63, b"S1"]),  # too long whole
    ([b"  ", b"T20\n"], [b"T20"]),
    # A greeting's free text would take the dart in as its version: the dart it is.
    ([b"HELLO dartboard ", b"T20\n"], [Unknown(CUT_HELLO), b"T20"]),
    ([b"HELLO dartboard 1.", b"2\n"], [b"HELLO dartboard 1.2"]),
]


@pytest.mark.parametrize(("chunks", "lines"), GAPS, ids=repr)
def test_silence_mid_line_splits_it_only_when_it_does_not_read_whole(
    chunks: list[bytes], lines: list[object]
) -> None:
    s = LineSplitter()
    out = s.feed(chunks[0])
    for chunk in chunks[1:]:
        s.gap()
        out += s.feed(chunk)
    assert out == lines
