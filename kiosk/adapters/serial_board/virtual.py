"""A virtual board: a pty pair that speaks the serial protocol like a real board.

The kiosk (or ``board-monitor``) opens ``vb.path`` (or the ``link`` symlink) exactly as
it would open ``/dev/ttyACM0``. The virtual board says ``HELLO`` on start, ``PING``
every second, and whatever ``send`` is given. ``replug`` imitates pulling the USB
cable: the pty disappears (the reader sees EIO/EOF) and a new one appears behind the
same symlink, as udev does for ``/dev/dartboard``.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import select
import struct
import termios
import threading
import time
import tty
from pathlib import Path
from types import TracebackType

import kiosk

log = logging.getLogger("kiosk.serial")

WRITE_TIMEOUT = 5.0  # s; a reader that never reads must not hang the virtual board
HANDOVER_S = 0.05  # s; written bytes reach the device's queue within this (see ``drain``)


class VirtualBoard:
    def __init__(
        self,
        link: str | os.PathLike[str] | None = None,
        *,
        name: str = "virtual-board",
        version: str = kiosk.__version__,
        ping_interval: float = 1.0,
    ) -> None:
        self.link = Path(link) if link is not None else None
        self.name = name
        self.version = version
        self.ping_interval = ping_interval
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._pinging = threading.Event()
        self._pinging.set()
        self._thread: threading.Thread | None = None
        self._master = -1
        self._slave = -1
        self._written_at = 0.0  # monotonic time of the last write
        self.path = ""
        if self.link is not None:
            _check_link_is_ours(self.link)
        self._plug()

    # -- public -----------------------------------------------------------------------

    def start(self) -> None:
        """Say HELLO, then PING every ``ping_interval`` seconds from a thread."""
        self.hello()
        self._thread = threading.Thread(target=self._ping_loop, name="virtual-board", daemon=True)
        self._thread.start()

    def hello(self) -> None:
        self.send(f"HELLO {self.name} {self.version}")

    def send(self, line: str | bytes) -> None:
        """Write one line (``\\n`` added)."""
        data = line.encode("ascii", "replace") if isinstance(line, str) else line
        self.write(data + b"\n")

    def write(self, data: bytes) -> None:
        """Write bytes as they are (garbage, partial lines). Blocks while the pty is full,
        up to ``WRITE_TIMEOUT`` s (then ``TimeoutError``)."""
        with self._lock:
            view = memoryview(data)
            deadline = time.monotonic() + WRITE_TIMEOUT
            while view:
                try:
                    n = os.write(self._master, view)
                    view = view[n:]
                    self._written_at = time.monotonic()
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError("nobody reads the virtual board") from None
                    select.select([], [self._master], [], min(left, 0.1))

    def wait_for_reader(self, timeout: float | None = None, settle: float = 0.3) -> bool:
        """Block until something has the device open (the kiosk, ``board-monitor``);
        False after ``timeout`` s or on ``close``. A real board's lines are lost while
        nobody listens (and pyserial flushes what was queued when it opens the port), so
        a script waits for its listener. Then it pauses ``settle`` s (the opener may
        still be setting the port up and flushing it) and says HELLO, as an Arduino
        does when the port's opening resets it.

        How: a pty master polls POLLHUP while no slave is open, so the board lets go of
        its own slave fd meanwhile and takes it back after."""
        deadline = None if timeout is None else time.monotonic() + timeout
        waited = False
        with self._lock:
            if self._slave >= 0:
                os.close(self._slave)
                self._slave = -1
            master = self._master
        try:
            poller = select.poll()
            poller.register(master, select.POLLHUP)
            while not self._stop.is_set():
                if not any(ev & select.POLLHUP for _, ev in poller.poll(0)):
                    break
                waited = True
                if deadline is not None and time.monotonic() >= deadline:
                    return False
                self._stop.wait(0.05)
            else:
                return False
        finally:
            with self._lock:
                if self._slave < 0 and self._master == master >= 0:
                    self._slave = os.open(self.path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        # Even without a wait the reader may have opened a moment ago and not yet have
        # flushed the port: settle in any case.
        log.debug("reader on %s%s", self.path, " after a wait" if waited else "")
        time.sleep(settle)
        self.hello()
        return True

    def pause_pings(self) -> None:
        """Go silent (a hung board): no PING until ``resume_pings``."""
        self._pinging.clear()

    def resume_pings(self) -> None:
        self._pinging.set()

    def pending(self) -> int:
        """Bytes written but not yet read by whoever has the port open (0 while the
        board waits for a reader: it holds no end of its own to look through then)."""
        with self._lock:
            if self._slave < 0:
                return 0
            try:
                raw = fcntl.ioctl(self._slave, termios.TIOCINQ, struct.pack("I", 0))
            except OSError:
                return 0
            return int(struct.unpack("I", raw)[0])

    def drain(self, timeout: float = 2.0, stall: float = 0.5) -> bool:
        """Wait until the reader has taken everything written. False after ``timeout``,
        or after ``stall`` s without progress (nobody has the port open).

        The kernel hands bytes written to the master over to the device's queue a moment
        later (tty work runs asynchronously): right after a write "nothing waiting" may
        mean "not there yet", so an empty queue counts only ``HANDOVER_S`` after it."""
        deadline = time.monotonic() + timeout
        left = self.pending()
        progress = time.monotonic()
        while left or time.monotonic() - self._written_at < HANDOVER_S:
            now = time.monotonic()
            if now > deadline or now - progress > stall:
                return False
            time.sleep(0.01 if not left else 0.02)
            n = self.pending()
            if n < left:
                progress = now
            left = n
        return True

    def replug(self, gap: float = 0.0) -> None:
        """Unplug (close the pty: the reader gets EIO), wait ``gap`` s (the link points
        nowhere meanwhile) and plug back in: a new pty, the symlink moved to it, and
        HELLO as a real board sends after its reset."""
        if self.link is None:
            raise ValueError("replug needs a link: a reader cannot follow a new pty without it")
        with self._lock:
            self._unplug()
            if gap > 0:
                time.sleep(gap)
            self._plug()
        self.hello()

    def close(self) -> None:
        self._stop.set()
        self._pinging.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        with self._lock:
            self._unplug()
            link = self.link
            if link is not None and link.is_symlink() and os.readlink(link) == self.path:
                link.unlink()

    def __enter__(self) -> VirtualBoard:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- inside -----------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = os.openpty()
        # Raw: no echo back into the master (nobody reads it) and no line editing,
        # so data sent before the reader opens the port is not mangled.
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(f".{self.link.name}.{os.getpid()}.tmp")
            tmp.unlink(missing_ok=True)
            os.symlink(self.path, tmp)
            os.replace(tmp, self.link)  # atomic: a reader never sees no link or a half one

    def _unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError as e:
                    if e.errno != errno.EBADF:
                        raise
        self._master = self._slave = -1

    def _ping_loop(self) -> None:
        while not self._stop.wait(self.ping_interval):
            if not self._pinging.is_set():
                continue
            try:
                self.send("PING")
            except (OSError, TimeoutError) as e:
                log.debug("virtual board ping not sent: %s", e)


def _check_link_is_ours(link: Path) -> None:
    """Refuse to replace a file, or a symlink to a live device that is not a pty (a real
    board's udev link must not be hijacked by a demo)."""
    if link.is_symlink():
        target = os.readlink(link)
        if os.path.exists(link) and not target.startswith("/dev/pts/"):
            raise FileExistsError(f"{link} points to {target}, not a virtual board; not replaced")
    elif link.exists():
        raise FileExistsError(f"{link} exists and is not a symlink; not replaced")
