"""BoardReader against real ptys (VirtualBoard), a TCP socket and missing devices."""

from __future__ import annotations

import logging
import random
import socket
import threading
import time
from pathlib import Path

import pytest
from test_serial_support import Events

from kiosk.adapters.serial_board.board_map import BoardMap
from kiosk.adapters.serial_board.protocol import Button, Hit, Raw, Unknown
from kiosk.adapters.serial_board.reader import BoardReader, Status
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.domain.darts import Dart, all_darts


def open_reader(url: str | Path, **kw: object) -> tuple[BoardReader, Events]:
    events = Events()
    reader = BoardReader(str(url), events, **kw)  # type: ignore[arg-type]
    reader.start()
    events.status("connected")
    return reader, events


def hits(events: Events) -> list[str]:
    return [str(e.dart) for e in events.of_type(Hit)]  # type: ignore[attr-defined]


def test_hits_arrive_in_the_order_thrown(board: VirtualBoard) -> None:
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    thrown = [str(d) for d in all_darts()]
    for d in thrown:
        board.send(d)
    events.next(lambda e: isinstance(e, Hit) and e.dart.is_miss)
    reader.stop()
    assert hits(events) == thrown


def test_a_board_closed_right_after_drain_has_delivered_every_line(tmp_path: Path) -> None:
    """``drain`` is what ``virtual-board`` waits on before it exits at the end of a script:
    the lines just written must have reached the reader, not be lost with the pty."""
    for k in range(20):
        vb = VirtualBoard(tmp_path / f"board{k}")
        reader, events = open_reader(vb.link)  # type: ignore[arg-type]
        vb.send("T20")
        vb.send("D5")
        assert vb.drain()
        vb.close()
        events.status("lost")
        reader.stop()
        assert hits(events) == ["T20", "D5"], k


def test_a_slow_board_is_read_a_line_at_a_time_not_byte_by_byte(board: VirtualBoard) -> None:
    """A legacy board at 9600 baud sends a byte every millisecond or so."""
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    board.pause_pings()
    time.sleep(0.3)
    before = (reader.stats.reads, reader.stats.bytes)
    lines = [b"320\r\n", b"120\r\n", b"225\r\n"] * 5
    for line in lines:
        for byte in line:
            board.write(bytes([byte]))
            time.sleep(0.001)
        time.sleep(0.03)  # a player's next dart comes much later than the line's end
    for _ in lines:
        events.next(lambda e: isinstance(e, Hit))
    reads = reader.stats.reads - before[0]
    sent = reader.stats.bytes - before[1]
    reader.stop()
    assert hits(events) == ["T20", "S20", "DB"] * 5
    assert sent == sum(map(len, lines))
    assert reads <= 3 * len(lines), (reads, sent)  # byte by byte: 75 reads (2 a line here)


def test_a_second_program_on_the_same_board_is_refused_not_given_half_the_darts(
    board: VirtualBoard,
) -> None:
    kiosk, kiosk_events = open_reader(board.link)  # type: ignore[arg-type]
    other_events = Events()
    other = BoardReader(str(board.link), other_events)
    other.start()
    refused = other_events.next(lambda e: isinstance(e, Status))
    for _ in range(10):
        board.send("T20")
    for _ in range(10):
        kiosk_events.next(lambda e: isinstance(e, Hit))
    other.stop()
    kiosk.stop()
    assert isinstance(refused, Status) and refused.state == "lost"
    assert "in use by another program" in refused.detail
    assert hits(kiosk_events) == ["T20"] * 10 and hits(other_events) == []


def test_a_garbage_line_is_unknown_and_the_reader_goes_on(board: VirtualBoard) -> None:
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    board.send("T20")
    board.write(b"\x00\xffnoise\x1b[2J\n")
    board.send("T21")
    board.send("D5")
    events.next(lambda e: e == Hit(Dart(5, 2)))
    reader.stop()
    unknown = events.of_type(Unknown)
    assert [u.text for u in unknown] == ["\\x00\\xffnoise\\x1b[2J", "T21"]  # type: ignore[attr-defined]
    assert hits(events) == ["T20", "D5"]
    assert reader.stats.unknown == 2


@pytest.mark.parametrize(
    "cut, unknown",
    [
        (b"\x8a\xf3\x1c", "\\x8a\\xf3\\x1c (no line end, then nothing)"),  # noise
        (b"T2", "T2 (no line end, then nothing)"),  # the board reset mid-line
    ],
)
def test_a_line_cut_short_by_silence_does_not_take_the_next_line_with_it(
    board: VirtualBoard, cut: bytes, unknown: str
) -> None:
    """Bytes with no line end, then nothing for a while: the line was cut short. It is
    an unknown line of its own; the next line is read as sent (it used to be glued to
    the fragment and lost with it: one T20 in five scored after bursts of noise)."""
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    board.pause_pings()
    for _ in range(3):
        board.write(cut)
        assert board.drain(timeout=10, stall=10)  # read: the silence is timed from here
        time.sleep(0.3)
        board.send("T20")
    board.write(b"T2")
    assert board.drain(timeout=10, stall=10)
    time.sleep(0.3)
    board.send("HELLO darts-kiosk-board 1.0")
    board.send("D5")
    events.next(lambda e: e == Hit(Dart(5, 2)))
    reader.stop()
    assert hits(events) == ["T20", "T20", "T20", "D5"]
    texts = [u.text for u in events.of_type(Unknown)]  # type: ignore[attr-defined]
    assert texts == [unknown] * 3 + ["T2 (no line end, then nothing)"]


@pytest.mark.parametrize("pause", [0.05, 0.3, 1.0])
def test_a_line_sent_in_two_parts_with_a_pause_between_is_one_line(
    board: VirtualBoard, pause: float
) -> None:
    """The protocol's lines end at a line end, not at a pause: a busy board that sends
    "T2", then "0\\r\\n" a moment later, threw one T20 (it used to be two unknown lines
    and no dart once the pause passed 0.1 s)."""
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    board.pause_pings()
    board.write(b"T2")
    time.sleep(pause)
    board.write(b"0\r\n")
    board.write(b"BTN ")
    time.sleep(pause)
    board.send("NEXT")
    board.send("D5")
    events.next(lambda e: e == Hit(Dart(5, 2)))
    reader.stop()
    assert hits(events) == ["T20", "D5"]
    assert events.of_type(Button) == [Button("NEXT")]
    assert not events.of_type(Unknown)


def test_a_line_whose_end_waited_while_the_reader_was_busy_is_read_whole(
    board: VirtualBoard,
) -> None:
    """The reader held up handing a dart over (a loaded Pi): the rest of the next line
    came 30 ms after its start and waited. That is no silence mid-line: the line is
    read whole (a gap between reads is not a gap between the bytes)."""
    events = Events()

    def slow_sink(event: object) -> None:
        events(event)
        if event == Hit(Dart(20, 3)):
            time.sleep(0.3)

    reader = BoardReader(str(board.link), slow_sink, baudrate=9600)
    reader.start()
    events.status("connected")
    board.pause_pings()
    time.sleep(0.3)
    board.write(b"T20\nT1")  # the next line starts in the same packet...
    time.sleep(0.03)
    board.write(b"9\n")  # ... and ends 30 ms later
    events.next(lambda e: isinstance(e, Hit) and e.dart == Dart(19, 3))
    reader.stop()
    assert hits(events) == ["T20", "T19"]
    assert not events.of_type(Unknown)


def test_a_megabyte_of_random_bytes_lets_every_valid_line_through(board: VirtualBoard) -> None:
    rng = random.Random(1234)
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    darts = [str(d) for d in all_darts()]
    sent: list[str] = []
    total = 0
    chunks = []
    while total < 1_000_000:
        size = rng.choice([10, 500, 5000, 70000])  # short lines and long newline-free runs
        junk = rng.randbytes(size)
        if size >= 5000:
            junk = junk.replace(b"\n", b"").replace(b"\r", b"")
        line = rng.choice(darts)
        sent.append(line)
        chunks.append(junk + b"\n" + line.encode() + b"\n")
        total += len(chunks[-1])

    def write_all() -> None:
        for c in chunks:
            board.write(c)

    writer = threading.Thread(target=write_all)
    writer.start()
    writer.join(timeout=60)
    board.send("BTN MENU")
    events.next(lambda e: e == Button("MENU"), timeout=30)
    reader.stop()
    assert hits(events) == sent
    assert reader.stats.max_buffered <= 64
    assert not events.of_type(Status)[1:], "the garbage must not drop the connection"


def test_an_unplugged_board_is_lost_and_found_again_behind_its_link(board: VirtualBoard) -> None:
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    board.replug()
    events.status("lost")
    events.status("connected")
    board.send("T19")
    events.next(lambda e: e == Hit(Dart(19, 3)))
    reader.stop()


def test_part_of_a_line_held_when_the_board_is_unplugged_is_said(board: VirtualBoard) -> None:
    # "T20" of a T20 whose line end never came, the cable pulled: it went unsaid.
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    board.write(b"T20")
    deadline = time.monotonic() + 5
    while reader.stats.bytes < 3 and time.monotonic() < deadline:
        time.sleep(0.01)  # (read, and held: no line end yet)
    board.replug()
    events.status("lost")
    texts = [u.text for u in events.of_type(Unknown)]  # type: ignore[attr-defined]
    assert texts == ["T20 (no line end, then nothing)"]
    assert hits(events) == []  # not scored: its end may have said T20 or T20x
    reader.stop()


def test_a_board_that_goes_away_is_retried_until_it_comes_back(tmp_path: Path) -> None:
    link = tmp_path / "dartboard"
    first = VirtualBoard(link)
    reader, events = open_reader(link, retry_interval=0.1)
    first.close()  # pty gone and link removed: the reader gets EOF/EIO, then ENOENT
    events.status("lost")
    events.status("reconnecting")
    time.sleep(0.3)  # a few failed attempts
    with VirtualBoard(link) as second:
        events.status("connected")
        second.send("SB")
        events.next(lambda e: e == Hit(Dart(25, 1)))
    reader.stop()


def test_a_missing_port_at_start_is_reported_lost_and_then_found(tmp_path: Path) -> None:
    link = tmp_path / "dartboard"
    events = Events()
    reader = BoardReader(str(link), events, retry_interval=0.1)
    reader.start()
    assert "cannot open" in events.status("lost").detail
    events.status("reconnecting")
    with VirtualBoard(link) as vb:
        events.status("connected")
        vb.send("MISS")
        events.next(lambda e: e == Hit(Dart.MISS))
    reader.stop()


def test_a_board_silent_after_pinging_is_lost_and_reconnected(board: VirtualBoard) -> None:
    reader, events = open_reader(board.link, ping_timeout=1.0)  # type: ignore[arg-type]
    events.next(lambda e: type(e).__name__ == "Ping")
    board.pause_pings()
    assert "silent" in events.status("lost").detail
    events.status("reconnecting")  # the port reopens but the board must speak first
    board.resume_pings()
    events.status("connected")
    board.send("D20")
    events.next(lambda e: e == Hit(Dart(20, 2)))
    reader.stop()


def test_a_board_that_never_pings_is_not_lost_when_quiet(tmp_path: Path) -> None:
    with VirtualBoard(tmp_path / "legacy", ping_interval=3600) as vb:
        reader, events = open_reader(vb.path, ping_timeout=0.2)
        time.sleep(0.8)
        vb.send("320")
        events.next(lambda e: e == Hit(Dart(20, 3)))
        reader.stop()
    assert [s.state for s in events.of_type(Status)] == ["connected"]  # type: ignore[attr-defined]


def test_a_board_that_never_pings_plugged_in_for_one_that_did_is_not_lost_when_quiet(
    tmp_path: Path,
) -> None:
    # The pinging board unplugged, a spare with older firmware (no PING) plugged into
    # the same port: it was called lost, and reopened (an Arduino reset), after every
    # quiet moment until the kiosk restarted.
    with VirtualBoard(tmp_path / "dartboard", ping_interval=0.1) as vb:
        vb.start()
        reader, events = open_reader(str(vb.link), ping_timeout=0.6)
        events.next(lambda e: type(e).__name__ == "Ping")
        vb.pause_pings()  # the spare: darts only, as legacy codes
        vb.version = "0.9"  # (older firmware: it greets as another board)
        time.sleep(0.2)  # (a PING on its way as they paused is read before the swap)
        vb.replug()
        events.status("lost")
        events.status("connected")
        vb.send("320")
        events.next(lambda e: e == Hit(Dart(20, 3)))
        time.sleep(1.8)  # three timeouts' worth of quiet between darts
        vb.send("120")
        events.next(lambda e: e == Hit(Dart(20, 1)))
        reader.stop()
    states = [s.state for s in events.of_type(Status)]  # type: ignore[attr-defined]
    assert states.count("lost") == 1 and states[-1] == "connected", states


def test_a_pinging_board_plugged_back_that_hangs_before_its_first_ping_is_lost(
    tmp_path: Path,
) -> None:
    # Its HELLO says it is the board seen to ping: its silence is timed from there,
    # not only from a first PING that never comes (it showed "connected" for ever).
    with VirtualBoard(tmp_path / "dartboard", ping_interval=0.1) as vb:
        reader, events = open_reader(str(vb.link), ping_timeout=0.6)
        assert vb.wait_for_reader(timeout=3.0)  # HELLO, as the port's opening resets it
        vb.start()
        events.next(lambda e: type(e).__name__ == "Ping")
        vb.pause_pings()
        time.sleep(0.2)
        vb.replug()
        events.status("lost")
        events.status("connected")
        assert vb.wait_for_reader(timeout=3.0)  # its HELLO, as the port's opening resets it
        assert "silent" in events.status("lost").detail
        vb.resume_pings()  # it came back to life
        events.status("connected")
        vb.send("320")
        events.next(lambda e: e == Hit(Dart(20, 3)))
        reader.stop()


def test_a_board_at_another_speed_is_reported_unreadable_until_a_line_reads(
    tmp_path: Path,
) -> None:
    # Read at the wrong baud rate, a board's lines come out as noise without line ends:
    # no dart, no PING understood. The banner must say so, not "connected".
    with VirtualBoard(tmp_path / "fast", ping_interval=3600) as vb:
        reader, events = open_reader(vb.path, ping_timeout=0.5)
        for _ in range(15):
            vb.write(b"\x00\xf8\x80\x00\xfe")
            time.sleep(0.1)
        lost = events.status("lost")
        assert lost.detail.startswith("unreadable") and "115200 baud" in lost.detail
        vb.send("")  # the speed put right: the noise's line ends (and is dropped), then
        time.sleep(0.3)
        assert [s.state for s in events.of_type(Status)][-1] == "lost"  # not a line yet
        vb.send("T20")
        events.status("connected")  # said before the dart it brings
        events.next(lambda e: e == Hit(Dart(20, 3)))
        reader.stop()
    assert [s.state for s in events.of_type(Status)] == ["connected", "lost", "connected"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("line", [b"0\r\n", b"m\r\n", b"\r\n", b"  \r\n", b"b\n"], ids=repr)
def test_short_lines_or_blank_lines_at_the_right_speed_are_not_a_wrong_speed(
    tmp_path: Path, line: bytes
) -> None:
    # dARts firmware prints "0" for its two empty matrix cells, DaSCR "m", "b" and "u";
    # some firmware prints blank lines. The board is read at the right speed: no
    # banner sending the bar owner to the baud rate, and nothing blank logged.
    with VirtualBoard(tmp_path / "dialect", ping_interval=3600) as vb:
        reader, events = open_reader(vb.path, ping_timeout=0.3)
        vb.send("T20")
        events.next(lambda e: e == Hit(Dart(20, 3)))
        for _ in range(12):
            vb.write(line)
            time.sleep(0.1)
        vb.send("D20")
        events.next(lambda e: e == Hit(Dart(20, 2)))
        reader.stop()
    assert [s.state for s in events.of_type(Status)] == ["connected"]  # type: ignore[attr-defined]
    assert Unknown("") not in events.items


def test_a_board_that_greets_but_never_pings_is_not_lost_when_quiet(tmp_path: Path) -> None:
    # DaSCR firmware says "Hello from DaSCR 2.1" and never pings: timed like a pinging
    # board, it would be reopened (and reset, on an Arduino) every few seconds.
    with VirtualBoard(tmp_path / "dascr", ping_interval=3600) as vb:
        reader, events = open_reader(vb.path, ping_timeout=0.3)
        vb.send("Hello from DaSCR 2.1")
        vb.send("320")
        events.next(lambda e: e == Hit(Dart(20, 3)))
        time.sleep(1.2)
        vb.send("120")
        events.next(lambda e: e == Hit(Dart(20, 1)))
        reader.stop()
    assert [s.state for s in events.of_type(Status)] == ["connected"]  # type: ignore[attr-defined]


def test_plain_lines_of_another_firmware_are_unknown_lines_not_a_wrong_speed(
    tmp_path: Path,
) -> None:
    # Whole lines of words, read at the right speed: the banner must not send the bar
    # owner to the board's baud rate; the lines are counted (and shown) as unknown.
    with VirtualBoard(tmp_path / "dialect", ping_interval=3600) as vb:
        reader, events = open_reader(vb.path, ping_timeout=0.5)
        for _ in range(12):
            vb.send("STUCK 2 5")
            time.sleep(0.1)
        vb.send("T20")
        events.next(lambda e: e == Hit(Dart(20, 3)))
        reader.stop()
    assert [s.state for s in events.of_type(Status)] == ["connected"]  # type: ignore[attr-defined]
    assert reader.stats.unknown == 12


def test_a_line_read_in_pieces_after_a_quiet_spell_is_not_noise(tmp_path: Path) -> None:
    with VirtualBoard(tmp_path / "legacy", ping_interval=3600) as vb:
        reader, events = open_reader(vb.path, ping_timeout=0.3)
        vb.write(b"\x00")  # one stray byte as the board is plugged in
        time.sleep(0.5)
        for _ in range(3):
            vb.write(b"32")
            time.sleep(0.05)
            vb.write(b"0\r\n")
            events.next(lambda e: e == Hit(Dart(20, 3)))
            events.mark()
            time.sleep(0.5)
        reader.stop()
    assert [s.state for s in events.of_type(Status)] == ["connected"]  # type: ignore[attr-defined]


def test_a_pinging_board_that_hangs_again_after_its_reset_is_lost_again(
    board: VirtualBoard,
) -> None:
    reader, events = open_reader(board.link, ping_timeout=1.0)  # type: ignore[arg-type]
    events.next(lambda e: type(e).__name__ == "Ping")
    board.pause_pings()
    events.status("lost")
    events.status("reconnecting")
    board.hello()  # the reopen reset it: it says HELLO, then hangs again
    events.status("connected")
    events.mark()
    events.status("reconnecting")  # silent again: the reader reopens it
    board.resume_pings()
    events.status("connected")
    reader.stop()


def test_unknown_lines_past_the_log_limit_are_counted_in_the_log_when_the_burst_ends(
    board: VirtualBoard, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from kiosk.adapters.serial_board import reader as reader_module

    monkeypatch.setattr(reader_module, "LOG_WINDOW", 0.5)
    caplog.set_level(logging.WARNING, logger="kiosk.serial")
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    for k in range(25):
        board.send(f"junk {k}")
    board.send("T20")
    events.next(lambda e: e == Hit(Dart(20, 3)))
    deadline = time.monotonic() + 3.0
    while "15 more unknown lines not logged" not in caplog.text:
        assert time.monotonic() < deadline, caplog.text
        time.sleep(0.05)
    reader.stop()
    assert reader.stats.unknown == 25


def test_unknown_lines_past_the_log_limit_are_counted_in_the_log_when_the_reader_stops(
    board: VirtualBoard, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="kiosk.serial")
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    for k in range(25):
        board.send(f"junk {k}")
    board.send("T20")
    events.next(lambda e: e == Hit(Dart(20, 3)))
    reader.stop()  # long before the 10 s window ends (the kiosk shut down, say)
    assert "15 more unknown lines not logged" in caplog.text
    assert reader.stats.unknown == 25


def test_a_double_read_within_the_debounce_window_counts_once(board: VirtualBoard) -> None:
    reader, events = open_reader(board.link, debounce_ms=150)  # type: ignore[arg-type]
    board.send("T20")
    board.send("T20")  # the membrane registered one dart twice
    board.send("S20")  # another segment is another dart
    board.send("BTN NEXT")
    board.send("BTN NEXT")
    board.send("MISS")
    events.next(lambda e: e == Hit(Dart.MISS))
    time.sleep(0.3)  # past the window: the same segment is a new dart
    board.send("T20")
    events.next(lambda e: isinstance(e, Hit) and e.dart == Dart(20, 3))
    reader.stop()
    assert hits(events) == ["T20", "S20", "MISS", "T20"]
    assert events.of_type(Button) == [Button("NEXT")]
    assert reader.stats.doubles == 2


def test_without_debounce_every_repeat_is_a_dart(board: VirtualBoard) -> None:
    reader, events = open_reader(board.link)  # type: ignore[arg-type]
    for _ in range(3):
        board.send("T20")
    board.send("D1")
    events.next(lambda e: e == Hit(Dart(1, 2)))
    reader.stop()
    assert hits(events) == ["T20", "T20", "T20", "D1"]


def test_a_board_map_turns_raw_contacts_into_hits(board: VirtualBoard) -> None:
    bmap = BoardMap({(3, 7): "T20", (0, 1): "BTN UNDO"})
    reader, events = open_reader(board.link, board_map=bmap)  # type: ignore[arg-type]
    board.send("RAW 3 7")
    board.send("RAW 0 1")
    board.send("RAW 5 5")
    events.next(lambda e: isinstance(e, Raw))
    reader.stop()
    assert hits(events) == ["T20"]
    assert events.of_type(Button) == [Button("UNDO")]
    assert events.of_type(Raw) == [Raw(5, 5)]


def test_a_contact_the_map_does_not_have_is_counted_and_logged_as_a_dart_not_scored(
    board: VirtualBoard, caplog: pytest.LogCaptureFixture
) -> None:
    bmap = BoardMap({(3, 7): "T20"})
    with caplog.at_level("WARNING", logger="kiosk.serial"):
        reader, events = open_reader(board.link, board_map=bmap)  # type: ignore[arg-type]
        board.send("RAW 5 5")
        board.send("RAW 3 7")
        events.next(lambda e: isinstance(e, Hit))
        reader.stop()
    assert reader.stats.unmapped == 1
    said = [r.getMessage() for r in caplog.records if "RAW 5 5" in r.getMessage()]
    assert said and "not in the board map" in said[0] and "board-learn" in said[0]


def test_a_failing_sink_does_not_stop_the_reader(board: VirtualBoard) -> None:
    events = Events()

    def sink(item: object) -> None:
        if item == Hit(Dart(1, 1)):
            raise RuntimeError("UI bug")
        events(item)

    reader = BoardReader(str(board.link), sink)
    reader.start()
    events.status("connected")
    board.send("S1")
    board.send("S2")
    events.next(lambda e: e == Hit(Dart(2, 1)))
    reader.stop()


def test_stop_ends_the_thread_promptly_even_while_reconnecting(tmp_path: Path) -> None:
    reader = BoardReader(str(tmp_path / "nothing"), lambda e: None, retry_interval=30)
    reader.start()
    time.sleep(0.1)
    reader.stop()
    assert not [t for t in threading.enumerate() if t.name == "board-reader"]


def test_a_board_on_a_tcp_socket_url_is_read_and_its_close_is_a_loss() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    events = Events()
    reader = BoardReader(f"socket://127.0.0.1:{port}", events, retry_interval=0.1)
    reader.start()
    conn, _ = server.accept()
    events.status("connected")
    conn.sendall(b"HELLO tcp-board 1\r\nT20\r\nBTN NEXT\r\n")
    events.next(lambda e: e == Button("NEXT"))
    conn.close()
    server.close()
    events.status("lost")
    reader.stop()
    assert hits(events) == ["T20"]
