"""The board reader: a thread that turns a serial port into ``BoardEvent``s.

Read loop -> line splitter -> pure parser (``protocol.parse_line``) -> board map ->
debounce -> ``sink``. The sink is called from the reader thread; the UI only puts what
it gets on its queue.

Connection states, sent to the sink as ``Status(state, detail)``:

- ``connected``: the port is open (after a heartbeat loss: once the board speaks again);
- ``lost``: the port failed (unplugged, read error) or a board that sends ``PING`` sent
  nothing at all for ``ping_timeout`` seconds (a board that has pinged once is known
  to ping, also after it is reopened and says HELLO again; a board that never pinged,
  a legacy one, or one that greets and hangs before its first PING, is not timed:
  a greeting is no promise of pings, and a board timed wrongly is reset every 3 s);
  also sent once if the port cannot be opened at start; and while bytes arrive but
  no line the protocol knows has come for ``ping_timeout`` seconds (``UNREADABLE``: a
  board at another speed sends noise with no line ends): the port stays open, and the
  first good line is ``connected``. Lines of plain words the protocol does not know
  (another firmware's, ``STUCK 2 5``) are read at the right speed: logged and counted,
  never unreadable;
- ``reconnecting``: the first reopen attempt failed (or the reopened port is silent);
  the reader keeps retrying every ``retry_interval`` seconds, forever, on its thread.

A loss followed by a successful immediate reopen is ``lost`` -> ``connected``.
Statuses are only sent on a change.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

from kiosk.adapters.serial_board.board_map import BoardMap
from kiosk.adapters.serial_board.lines import LineSplitter
from kiosk.adapters.serial_board.protocol import (
    MAX_LINE,
    BoardEvent,
    Button,
    Hello,
    Hit,
    Ping,
    Raw,
    Unknown,
    describe,
    parse_line,
)

log = logging.getLogger("kiosk.serial")

READ_TIMEOUT = 0.1  # s; bounds how long stop() and the heartbeat check wait
CHUNK = 1024  # bytes per read at most: keeps the pending buffer near 1 KB
# A line's first byte waited for, the rest of it is read with it: at once when it is
# there (a USB board sends a line in one packet), else in steps of GATHER_STEP_S (a
# legacy board at 9600 baud sends a byte a millisecond: "320\r\n" in two or three
# reads, not five), for at most GATHER_S.
GATHER_STEP_S = 0.004
GATHER_S = 0.02
CUT_GAP_S = 0.1  # s at least: see ``cut_gap``
LOG_BURST = 10  # unknown lines / double reads logged per LOG_WINDOW, then summarised
LOG_WINDOW = 10.0  # s
SILENT_SAY_EVERY = 100  # a silent board's reopening logged once, then every this many
# The detail of a ``lost`` status for a board whose bytes make no line the protocol
# knows (the banner asks for its speed to be checked).
UNREADABLE = "unreadable"
# A line the protocol does not know, but plain words (letters, digits, spaces and a few
# signs, a letter among them): the speed is right, the firmware speaks another dialect.
# Noise at the wrong speed is seldom a whole line of these.
WORDS = re.compile(rb"[ \t]*(?=[^\r\n]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9 _.,:;=/+-]{2,}[ \t]*")
# A read that is nothing but whole lines of printable ASCII (short ones too: another
# firmware's "0" or "m", blank lines), from a line's start: the speed is right. Noise at
# the wrong speed seldom makes a whole read of these, line end included.
CLEAN_READ = re.compile(rb"[\x20-\x7e\t]*[\r\n][\x20-\x7e\t\r\n]*")


@dataclass(frozen=True, slots=True)
class Status:
    """The connection changed: ``state`` is "connected", "lost" or "reconnecting"."""

    state: str
    detail: str = ""


@dataclass(slots=True)
class ReaderStats:
    """Counters for the log and the UI's diagnostics."""

    lines: int = 0
    unknown: int = 0
    doubles: int = 0
    losses: int = 0
    max_buffered: int = 0  # largest partial line held (bytes): stays <= MAX_LINE
    unmapped: int = 0  # RAW contacts no board map turned into a hit (darts not scored)
    reads: int = 0  # reads that returned bytes
    bytes: int = 0


def open_port(url: str, baudrate: int) -> Any:
    """The board's port, held exclusively: a second program reading the same board (a
    ``board-monitor`` beside the kiosk) would take half of its lines; it is refused.
    ``serial.SerialException`` when it cannot be opened, also for a port that goes away
    while it is set up (a replug: pyserial lets termios's own error through, and the
    reader's thread died of it, the board lost until a restart)."""
    try:
        return serial.serial_for_url(url, baudrate=baudrate, timeout=READ_TIMEOUT,
                                     exclusive=True)  # fmt: skip
    except _TERMIOS_ERRORS as e:
        raise serial.SerialException(f"could not set up {url}: {e}") from e


try:
    import termios

    _TERMIOS_ERRORS: tuple[type[Exception], ...] = (termios.error,)
except ImportError:  # (not a POSIX system: pyserial raises its own errors there)
    _TERMIOS_ERRORS = ()

NOT_A_PORT = "not a serial port"  # (a typo in ``input.port``: /dev/zero, a file)
NO_PERMISSION = "no permission"  # (the user is not in the dialout group)
IN_USE = "in use by another program"  # (the kiosk holds its board: ``exclusive`` above)


def in_use(e: BaseException) -> bool:
    """Whether ``e``, from ``open_port``, says another program holds the port."""
    return "exclusively lock" in str(e)


def why_not_open(e: BaseException) -> str:
    text = str(e)
    if in_use(e):
        return f"{IN_USE} (the kiosk's service, or a board-monitor)"
    if "Inappropriate ioctl" in text or "Is a directory" in text:
        return f"{NOT_A_PORT} ({text})"
    if "Permission denied" in text:
        return f"{NO_PERMISSION} ({text})"
    return text


def cut_gap(baudrate: int) -> float:
    """Silence in the middle of a line longer than this and the line was cut short: far
    more than a whole line takes to arrive at this speed (a USB board sends it in one
    packet; a legacy board at 9600 baud sends a byte a millisecond)."""
    return max(CUT_GAP_S, 2 * MAX_LINE * 10 / baudrate)


class _RateLimitedLog:
    """At most ``LOG_BURST`` messages per ``LOG_WINDOW``; then one count of the rest."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.window_start = 0.0
        self.logged = 0
        self.suppressed = 0

    def warning(self, now: float, msg: str, *args: object) -> None:
        if now - self.window_start >= LOG_WINDOW:
            self._new_window(now)
        if self.logged < LOG_BURST:
            self.logged += 1
            log.warning(msg, *args)
        else:
            self.suppressed += 1

    def flush(self, now: float) -> None:
        """The count of the rest, once the window is over, even if nothing more comes."""
        if self.suppressed and now - self.window_start >= LOG_WINDOW:
            self._new_window(now)

    def close(self, now: float) -> None:
        """The count of the rest now: the port closed (lost, or the reader stopped)."""
        self._new_window(now)

    def _new_window(self, now: float) -> None:
        if self.suppressed:
            log.warning("%d more %s not logged", self.suppressed, self.what)
        self.window_start, self.logged, self.suppressed = now, 0, 0


class BoardReader:
    """Reads a board on its own thread; see the module docstring for the states."""

    def __init__(
        self,
        url: str,
        sink: Callable[[object], None],
        *,
        baudrate: int = 115200,
        debounce_ms: int = 0,
        board_map: BoardMap | None = None,
        ping_timeout: float = 3.0,
        retry_interval: float = 0.5,
    ) -> None:
        self.url = url
        self.sink = sink
        self.baudrate = baudrate
        self.debounce_s = max(0, debounce_ms) / 1000.0
        self.board_map = board_map
        self.ping_timeout = ping_timeout
        self.retry_interval = retry_interval
        self.stats = ReaderStats()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Any = None
        self._port_lock = threading.Lock()  # cancel_read must not race close
        self._state: str | None = None
        self._last_seen: dict[BoardEvent, float] = {}
        self._pings = False  # the board has sent PING: its silence means it is gone
        self._quiet_open = False  # reopened again and again for a silent board: not logged
        # The greeting (name, version) of the board on the port, and those of boards seen
        # to ping: the same firmware plugged back pings too, so its silence is timed
        # from its HELLO on, before its first PING.
        self._greeting: tuple[str, str] | None = None
        self._pinging: set[tuple[str, str]] = set()
        self._unknown_log = _RateLimitedLog("unknown lines")
        self._double_log = _RateLimitedLog("double reads")
        self._unmapped_log = _RateLimitedLog("contacts not in the board map")
        self._rate_limited = (self._unknown_log, self._double_log, self._unmapped_log)
        self._came_at: float | None = None  # see ``_read``

    # -- public -----------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("BoardReader already started")
        self._thread = threading.Thread(target=self._run, name="board-reader", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop and join the thread (within about ``READ_TIMEOUT``)."""
        self._stop.set()
        with self._port_lock:
            # Not every transport can cancel; the read timeout bounds the wait then.
            if self._port is not None:
                with contextlib.suppress(AttributeError, OSError, serial.SerialException):
                    self._port.cancel_read()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            if self._thread.is_alive():
                log.error("board reader thread did not stop")

    # -- thread -----------------------------------------------------------------------

    def _run(self) -> None:
        # After a heartbeat loss an open port proves nothing (the board may be hung):
        # on "probation" the reader waits for a line before saying "connected", and
        # reopens (which also resets an Arduino through DTR) if none comes.
        probation = False
        reopens = 0  # in a row, while the board stays silent
        try:
            while not self._stop.is_set():
                port = self._open()
                if port is None:
                    self._stop.wait(self.retry_interval)
                    continue
                if probation:
                    self._status("reconnecting", "port open, waiting for the board to speak")
                else:
                    self._status("connected", self.url)
                try:
                    loss = self._pump(port, probation)
                finally:
                    self._close(port)
                    for rate_limited in self._rate_limited:
                        rate_limited.close(time.monotonic())
                if loss is None:
                    break
                reason, silent = loss
                if not silent:
                    # Unplugged: the board plugged back may be another (a spare with
                    # older firmware that never pings): its silence is timed again only
                    # once it pings.
                    self._pings = False
                    self._greeting = None
                if probation and silent:
                    # Said once, then every SILENT_SAY_EVERY: a board powered off with its
                    # USB lead in wrote two lines every 3 s into the journal for good.
                    reopens += 1
                    said = reopens == 1 or reopens % SILENT_SAY_EVERY == 0
                    log.log(logging.INFO if said else logging.DEBUG,
                            "board still silent on %s; reopening (%d times)", self.url,
                            reopens)  # fmt: skip
                    self._quiet_open = reopens > 1
                    continue
                reopens, self._quiet_open = 0, False
                probation = silent
                self.stats.losses += 1
                log.warning("board lost on %s: %s", self.url, reason)
                self._status("lost", reason)
        except Exception:  # a bug here must be loud, not a silently dead thread
            log.exception("board reader crashed")
            self._status("lost", "reader crashed (see log)")

    def _open(self) -> Any:
        try:
            port = open_port(self.url, self.baudrate)
        except (serial.SerialException, OSError, ValueError) as e:
            detail = f"cannot open {self.url}: {why_not_open(e)}"
            log.debug("%s", detail)
            if self._state is None:
                log.warning("%s", detail)
                self._status("lost", detail)
            else:
                self._status("reconnecting", detail)
            return None
        with self._port_lock:
            self._port = port
        if self._stop.is_set():  # stop() ran before _port was set: it could not cancel
            self._close(port)
            return None
        log.log(logging.DEBUG if self._quiet_open else logging.INFO, "opened %s at %d baud",
                self.url, self.baudrate)  # fmt: skip
        return port

    def _close(self, port: Any) -> None:
        with self._port_lock:
            self._port = None
            try:
                port.close()
            except (serial.SerialException, OSError) as e:
                log.debug("closing %s: %s", self.url, e)

    def _pump(self, port: Any, probation: bool) -> tuple[str, bool] | None:
        """Read until loss (returns the reason and whether it was silence) or stop (None)."""
        splitter = LineSplitter()
        gap = cut_gap(self.baudrate)
        last_heard = time.monotonic()  # bytes, not lines: noise is unreadable, not silence
        # Bytes since the last line the protocol knows: how many, in how many reads, from
        # when to when.
        unread = unread_reads = 0
        unread_since = unread_last = 0.0
        unreadable = False
        while not self._stop.is_set():
            try:
                chunk = self._read(port)
            except (serial.SerialException, OSError) as e:
                self._cut_at_loss(splitter)
                return f"read failed: {e}", False
            now = time.monotonic()
            came = self._came_at
            # Silence seen mid-line: a seam (see ``LineSplitter``). (Only seen: bytes that
            # were waiting when the reader came back, from a sink that took its time, may
            # have come right after the rest of their line.)
            if chunk and splitter.pending and came is not None and came - last_heard > gap:
                splitter.gap()  # (before the new bytes)
            if chunk:
                last_heard = now
                self.stats.reads += 1
                self.stats.bytes += len(chunk)
                fresh = splitter.at_line_start  # the read starts a line (no noise before)
                items = splitter.feed(chunk)
                self.stats.max_buffered = max(self.stats.max_buffered, splitter.high_water)
                events = [parse_line(i) if isinstance(i, bytes) else i for i in items]
                if probation and events:
                    probation = False
                    self._status("connected", self.url)
                # Only a PING arms the silence timeout: a greeting alone does not prove
                # the board pings (DaSCR's "Hello from DaSCR 2.1" reads as a HELLO, and
                # it never pings): timed, it would be reopened, and reset, every 3 s.
                self._note_pings(events)
                good = (fresh and CLEAN_READ.fullmatch(chunk) is not None) or any(
                    not isinstance(e, Unknown) or (isinstance(i, bytes) and WORDS.fullmatch(i))
                    for i, e in zip(items, events, strict=True)
                )
                if good:
                    unread = unread_reads = 0
                    if unreadable:  # said before the darts it brings
                        unreadable = False
                        log.info("board on %s readable again", self.url)
                        self._status("connected", self.url)
                for event in events:
                    self._deliver(event, now)
                if not good:
                    unread_since = unread_since if unread else now
                    unread, unread_reads, unread_last = unread + len(chunk), unread_reads + 1, now
            # Noise that goes on, not a line read in two pieces (a legacy board's dart
            # after a quiet hour is "32", then "0\r\n" milliseconds later) nor one stray
            # byte as the board is plugged in.
            secs = unread_last - unread_since
            if not unreadable and unread_reads >= 3 and secs > self.ping_timeout:
                unreadable = True
                detail = (
                    f"{UNREADABLE}: {unread} bytes in {secs:.0f} s and no line the kiosk"
                    f" knows; is the board set to {self.baudrate} baud?"
                )
                log.warning("board on %s: %s", self.url, detail)
                self._status("lost", detail)
            for rate_limited in self._rate_limited:
                rate_limited.flush(now)
            if (self._pings or probation) and now - last_heard > self.ping_timeout:
                self._cut_at_loss(splitter)
                return f"silent for {self.ping_timeout:g} s (no PING)", True
        return None

    def _cut_at_loss(self, splitter: LineSplitter) -> None:
        """The part of a line held when the board is lost ("T2" of a T20 as the cable
        came out) is said, as after silence mid-line: it went with nothing said."""
        cut = splitter.cut()
        if cut is not None:
            self._deliver(cut, time.monotonic())

    def _note_pings(self, events: list[BoardEvent]) -> None:
        """Whether the board's silence is timed: once it pings, or once it greets as a
        board seen to ping (plugged back, it may hang before its first PING)."""
        for event in events:
            if isinstance(event, Hello):
                self._greeting = (event.name, event.version)
                if self._greeting in self._pinging:
                    self._pings = True
            elif isinstance(event, Ping):
                self._pings = True
                if self._greeting is not None:
                    self._pinging.add(self._greeting)

    def _read(self, port: Any) -> bytes:
        """The bytes waiting, or (none waiting) the next line's, in chunks: see GATHER_S.
        ``_came_at``: when the first of them came, if it was seen coming (None: they
        were waiting already, since some time the reader cannot tell)."""
        self._came_at = None
        waiting = port.in_waiting
        if waiting:
            return bytes(port.read(min(waiting, CHUNK)))
        chunk = bytes(port.read(1))  # blocks up to READ_TIMEOUT
        self._came_at = time.monotonic()
        deadline = time.monotonic() + GATHER_S
        while chunk and chunk[-1:] not in (b"\n", b"\r") and len(chunk) < CHUNK:
            waiting = port.in_waiting
            if waiting:
                chunk += port.read(min(waiting, CHUNK - len(chunk)))
            elif time.monotonic() >= deadline or self._stop.wait(GATHER_STEP_S):
                break
        return chunk

    def _deliver(self, event: BoardEvent, now: float) -> None:
        self.stats.lines += 1
        if self.board_map is not None:
            event = self.board_map.event_for(event)
        if isinstance(event, Hello):
            log.info("board on %s says hello: %s %s", self.url, event.name, event.version)
        elif isinstance(event, Unknown):
            self.stats.unknown += 1
            self._unknown_log.warning(now, "unknown line from board: '%s'", event.text)
        elif isinstance(event, Raw):
            # A contact the map does not have (or no map): a dart the kiosk cannot score.
            self.stats.unmapped += 1
            self._unmapped_log.warning(
                now,
                "contact RAW %d %d is not in the board map: a dart there is not scored"
                " (learn it with darts-kiosk board-learn)",
                event.row,
                event.col,
            )
        elif isinstance(event, Hit | Button) and self.debounce_s > 0:
            # Membrane boards double-register one dart and stuck contacts chatter: the
            # same segment again within the window is one dart. The window runs from
            # the last read (not the last accepted) so a chattering contact stays quiet.
            # Buttons too: a NEXT read twice would skip a player.
            last = self._last_seen.get(event)
            self._last_seen[event] = now
            if last is not None and now - last < self.debounce_s:
                self.stats.doubles += 1
                ms = (now - last) * 1000
                self._double_log.warning(
                    now, "double read dropped: %s, %.0f ms", describe(event), ms
                )
                return
        self._emit(event)

    def _status(self, state: str, detail: str) -> None:
        if state == self._state:
            return
        self._state = state
        self._emit(Status(state, detail))

    def _emit(self, item: object) -> None:
        try:
            self.sink(item)
        except Exception:  # the UI's bug must not kill the board
            log.exception("board event sink failed on %r", item)
