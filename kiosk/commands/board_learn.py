"""``darts-kiosk board-learn``: learn which raw matrix contact is which segment.

For a board whose firmware sends ``RAW r c`` (a DIY matrix scanner), asks for each
segment in turn, clockwise from 20 (inner single, outer single, double, triple), then
the bulls, the buttons and the miss sensor, and writes the board map. Typed commands
(then Enter): ``s`` skips a button or the miss sensor, ``u`` undoes the last answer,
``q`` stops.

Double reads and stuck contacts: the same contact again within a second of being
recorded is the same press and is ignored; any other contact already used is refused
and the segment is asked again. A board whose inner and outer single of a number share
one contact gets ``S<n>`` for it. Stopping early (``q``, Ctrl-C) writes what was learnt
to ``<out>.partial``, never over a complete map.
"""

from __future__ import annotations

import argparse
import logging
import queue
import signal
import sys
import threading
import time
from dataclasses import dataclass

from kiosk.adapters.serial_board import board_map
from kiosk.adapters.serial_board.board_map import BoardMap, Contact
from kiosk.adapters.serial_board.protocol import Button, Hit, Raw, describe
from kiosk.adapters.serial_board.reader import UNREADABLE, BoardReader, Status
from kiosk.commands._board import find_port, held, is_held
from kiosk.commands._out import why_not_writable
from kiosk.domain.board import SEGMENTS

NAME = "board-learn"
HELP = "learn the board map of a matrix board that sends RAW contacts"
SAME_PRESS_S = 1.0


@dataclass(frozen=True)
class Target:
    value: str  # the protocol line the contact will mean
    label: str
    optional: bool = False


def targets() -> list[Target]:
    out: list[Target] = []
    for n in SEGMENTS:
        out += [
            Target(f"S{n}i", f"inner single {n}"),
            Target(f"S{n}o", f"outer single {n}"),
            Target(f"D{n}", f"double {n}"),
            Target(f"T{n}", f"triple {n}"),
        ]
    out += [Target("SB", "outer bull (25)"), Target("DB", "inner bull (50)")]
    out += [Target(f"BTN {b}", f"button {b}", optional=True) for b in ("NEXT", "UNDO", "MENU")]
    out.append(Target("MISS", "miss sensor", optional=True))
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", metavar="URL", help="device or pyserial URL (default: find it)")
    parser.add_argument("--baud", type=int, default=115200, help="baud rate")
    parser.add_argument("--out", metavar="FILE", required=True, help="board map to write (JSON)")


def say(text: str) -> None:
    print(text, flush=True)


class Learner:
    """The questions and answers, without I/O: ``prompt()``, then ``contact()`` /
    ``skip()`` / ``undo()``; ``done`` when every target is answered."""

    def __init__(self, wanted: list[Target]) -> None:
        self.wanted = wanted
        self.i = 0
        self.contacts: dict[Contact, str] = {}
        self._history: list[tuple[int, dict[Contact, str]]] = []
        self._last: tuple[Contact, float] | None = None

    @property
    def done(self) -> bool:
        return self.i >= len(self.wanted)

    def prompt(self) -> str:
        t = self.wanted[self.i]
        extra = ", or type s + Enter to skip" if t.optional else ""
        return f"[{self.i + 1}/{len(self.wanted)}] {t.label} ({t.value}): press it{extra}"

    def contact(self, contact: Contact, now: float) -> str | None:
        """Record ``contact`` for the current target; returns what to tell the user."""
        if (
            self._last is not None
            and self._last[0] == contact
            and now - self._last[1] < SAME_PRESS_S
        ):
            return None  # the same press read twice
        t = self.wanted[self.i]
        where = f"{contact[0]},{contact[1]}"
        used = self.contacts.get(contact)
        if used is not None:
            number = t.value[1:-1]
            if t.value == f"S{number}o" and used == f"S{number}i":
                self._answer(contact, f"S{number}", now)
                return f"  contact {where} is also inner single {number}: recorded as S{number}"
            return f"  contact {where} is already {used}; press {t.value} again"
        self._answer(contact, t.value, now)
        return f"  {t.value} = contact {where}"

    def skip(self) -> str:
        t = self.wanted[self.i]
        if not t.optional:
            return f"  {t.value} cannot be skipped: the game needs every segment"
        self._history.append((self.i, dict(self.contacts)))
        self.i += 1
        return f"  {t.value} skipped"

    def undo(self) -> str:
        if not self._history:
            return "  nothing to undo"
        self.i, self.contacts = self._history.pop()
        self._last = None
        return f"  undone: {self.wanted[self.i].value} will be asked again"

    def _answer(self, contact: Contact, value: str, now: float) -> None:
        self._history.append((self.i, dict(self.contacts)))
        self.contacts[contact] = value
        self._last = (contact, now)
        self.i += 1


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _stdin_lines(out: queue.Queue[object]) -> None:
    for line in sys.stdin:
        out.put(line.strip().lower())
    # EOF only ends typing: the board can still answer everything


def run(args: argparse.Namespace) -> int:
    # The reader's warnings (a failed open) are said here in our own words instead.
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    if (why := why_not_writable(args.out)) is not None:  # before 86 darts, not after
        print(f"board-learn: {why}", file=sys.stderr)
        return 1
    port = find_port(NAME, args.port, args.baud)
    if port is None:
        return 1
    signal.signal(signal.SIGTERM, _terminate)
    inbox: queue.Queue[object] = queue.Queue()
    reader = BoardReader(port, inbox.put, baudrate=args.baud)
    threading.Thread(target=_stdin_lines, args=(inbox,), daemon=True).start()
    learner = Learner(targets())
    say(f"learning the board on {port}; s = skip (buttons, miss), u = undo, q = stop")
    reader.start()
    complained = False
    connected = failed = False
    try:
        say(learner.prompt())
        while not learner.done:
            item = inbox.get()
            reply: str | None = None
            if isinstance(item, Raw):
                reply = learner.contact((item.row, item.col), time.monotonic())
            elif isinstance(item, Status):
                if item.state == "connected":
                    connected = True
                elif not connected:  # the port never opened: a wrong path, no board
                    why = item.detail or "cannot open " + port
                    print(held(NAME, port) if is_held(why) else f"board-learn: {why}",
                          file=sys.stderr)  # fmt: skip
                    failed = True
                    break
                reply = f"  status {item.state}"
                if item.detail.startswith(UNREADABLE):  # (the wrong speed: said, as the kiosk does)
                    reply += f" ({item.detail})"
            elif isinstance(item, Hit | Button) and not complained:
                complained = True
                reply = (
                    f"  the board sent {describe(item)!r}, not a RAW contact: its firmware "
                    "maps segments itself and needs no board map"
                )
            elif item == "s":
                reply = learner.skip()
            elif item == "u":
                reply = learner.undo()
            elif item == "q":
                break
            if reply is None:
                continue
            say(reply)
            waiting = isinstance(item, Status) and item.state != "connected"
            if not learner.done and not waiting:
                say(learner.prompt())
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C: no traceback
        reader.stop()
    if failed and not learner.contacts:
        return 1
    learnt = BoardMap(learner.contacts)
    out = args.out if learner.done else args.out + ".partial"
    try:
        board_map.save(learnt, out)
    except OSError as e:
        print(f"board-learn: cannot write {out}: {e}", file=sys.stderr)
        return 1
    if learner.done:
        say(f"wrote {out}: {len(learnt.contacts)} contacts")
        return 0
    say(f"stopped: wrote {out} ({learner.i} of {len(learner.wanted)} answered); run again")
    return 1
