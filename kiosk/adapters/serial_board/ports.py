"""Which serial port is the board.

Order: the configured port; else ``/dev/dartboard`` (the udev rule in ``hardware/``
makes it); else the first ``/dev/serial/by-id/*`` device that speaks the protocol
(``HELLO``, or ``PING`` for a board that does not reset on open) within ``timeout``;
else None, and the caller falls back to the virtual board.

Probing opens every by-id device at once, on threads: an Arduino resets when the port
opens (DTR) and needs about 2 s to say HELLO, and another USB serial device (a GPS, a
modem) must not make the board wait behind it. A board with the legacy dARts/DaSCR
firmware never says HELLO: configure its port. A device another program holds (the
kiosk holds its board while it runs) cannot be probed: ``busy`` collects those, so a
tool run beside the kiosk can say so instead of "no board found".
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from pathlib import Path

import serial

from kiosk.adapters.serial_board.lines import LineSplitter
from kiosk.adapters.serial_board.protocol import Hello, Ping, parse_line
from kiosk.adapters.serial_board.reader import CHUNK, in_use, open_port

log = logging.getLogger("kiosk.serial")

FIXED = "/dev/dartboard"
BY_ID = "/dev/serial/by-id"
PROBE_TIMEOUT = 2.5


def choose_port(
    configured: str | None,
    *,
    fixed: str | os.PathLike[str] = FIXED,
    by_id: str | os.PathLike[str] = BY_ID,
    baudrate: int = 115200,
    timeout: float = PROBE_TIMEOUT,
    busy: set[str] | None = None,
) -> str | None:
    """The board's port (see the module's docstring); ``busy``, if given, gets the
    by-id devices that could not be probed because another program holds them."""
    if configured:
        return configured
    if os.path.exists(fixed):
        return str(fixed)
    candidates = by_id_devices(by_id)
    if not candidates:
        # (debug: asked every 2 s while no board is there; the caller says it once)
        log.debug("no board port configured, no %s, nothing in %s", fixed, by_id)
        return None
    return _first_that_speaks(candidates, baudrate, timeout, busy)


def by_id_devices(by_id: str | os.PathLike[str] = BY_ID) -> list[str]:
    """The serial devices in ``by_id``, in name order (none: an empty list)."""
    try:
        return sorted(str(p) for p in Path(by_id).iterdir())
    except OSError:
        return []


def plugged_in(
    seen: set[str],
    *,
    fixed: str | os.PathLike[str] = FIXED,
    by_id: str | os.PathLike[str] = BY_ID,
    baudrate: int = 115200,
    timeout: float = PROBE_TIMEOUT,
) -> str | None:
    """A board plugged in since the last look: ``fixed`` when it has appeared, else a
    by-id device not in ``seen`` that speaks the protocol. ``seen`` is updated: devices
    looked at are added, unplugged ones dropped (plugged back, they are looked at
    again). Devices already looked at are not opened again: opening resets an Arduino,
    and a GPS or a modem must not be reset every few seconds (the caller empties
    ``seen`` now and then, for a board that was slow to speak)."""
    if os.path.exists(fixed):
        return str(fixed)
    now = by_id_devices(by_id)
    new = [c for c in now if c not in seen]
    seen.intersection_update(now)
    seen.update(new)
    return _first_that_speaks(new, baudrate, timeout) if new else None


def _first_that_speaks(
    candidates: list[str], baudrate: int, timeout: float, busy: set[str] | None = None
) -> str | None:
    """The first of ``candidates`` (in their order) that says HELLO or PING, probed at
    once on threads; those another program holds are added to ``busy``."""
    answers: queue.Queue[tuple[str, bool]] = queue.Queue()
    for path in candidates:
        threading.Thread(
            target=lambda p=path: answers.put((p, says_hello(p, baudrate, timeout, busy))),
            name=f"probe {path}",
            daemon=True,
        ).start()
    # "The first that says HELLO" in name order: a later device that answers sooner
    # waits for the earlier ones to answer or time out, so two boards give one answer.
    said: dict[str, bool] = {}
    deadline = time.monotonic() + timeout + 1.0
    while len(said) < len(candidates):
        try:
            path, ok = answers.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        said[path] = ok
        for c in candidates:
            if c not in said:
                break
            if said[c]:
                log.info("board found on %s", c)
                return c
    found = [c for c in candidates if said.get(c)]
    if found:  # an earlier device never answered within the deadline
        log.info("board found on %s", found[0])
        return found[0]
    log.info("no board answered on %s", ", ".join(candidates))
    return None


def says_hello(
    url: str,
    baudrate: int = 115200,
    timeout: float = PROBE_TIMEOUT,
    busy: set[str] | None = None,
) -> bool:
    """Open ``url`` and wait up to ``timeout`` s for a HELLO or PING line (False if it
    cannot be opened: held by another program, ``url`` is added to ``busy``)."""
    try:
        port = open_port(url, baudrate)
    except (serial.SerialException, OSError, ValueError) as e:
        log.debug("probe %s: %s", url, e)
        if busy is not None and in_use(e):
            busy.add(url)
        return False
    splitter = LineSplitter()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            chunk = port.read(min(max(1, port.in_waiting), CHUNK))
            for item in splitter.feed(chunk):
                if isinstance(item, bytes) and _greets(item):
                    return True
        return False
    except (serial.SerialException, OSError) as e:
        log.debug("probe %s: %s", url, e)
        return False
    finally:
        port.close()


def _greets(line: bytes) -> bool:
    """Whether ``line`` is a HELLO or a PING (also behind a reset's junk: ``parse_line``)."""
    return isinstance(parse_line(line), Hello | Ping)
