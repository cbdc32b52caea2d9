"""``darts-kiosk virtual-board``: a pretend board on a pty, for demos and tests.

Prints the device path (first line of stdout), says HELLO, PINGs every second and
sends the lines of ``--script FILE`` or of stdin, one protocol line per input line.
Script directives: ``sleep 0.5`` pauses, ``replug`` imitates pulling the USB cable
(needs ``--link``), ``silence`` / ``resume`` stop and restart the PINGs (a hung board);
blank lines and ``#`` comments are skipped.

Listener: like a real board, whose lines are lost while nobody has the port open, the
virtual board waits for a reader (the kiosk, ``board-monitor``) before it reads the
script or stdin, and again after a ``replug`` before the next line; it says HELLO when
the reader opens the port (an Arduino resets then), so the reader always hears it. So
``virtual-board --script game`` started before the monitor still shows it every line.
PINGs go out regardless.

Lifetime: with ``--script`` the board keeps running (PINGs) after the script until it
is killed (SIGTERM: exit 0; Ctrl-C: exit 130), so a kiosk started against it does not
see it vanish. Without ``--script`` it reads stdin and exits at EOF, after the reader
has taken everything sent (or 2 s).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Iterable
from types import FrameType
from typing import TextIO

from kiosk.adapters.serial_board.virtual import VirtualBoard

NAME = "virtual-board"
HELP = "run a virtual dartboard on a pty (prints its device path)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", metavar="FILE", help="lines to send (default: stdin)")
    parser.add_argument(
        "--link", metavar="PATH", help="keep a symlink to the device here (e.g. /tmp/dartboard)"
    )


def play(board: VirtualBoard, lines: Iterable[str]) -> None:
    # The HELLO said on start is lost when nobody has the port open yet (a real
    # board's too; an Arduino says it again when the opening resets it): a thread
    # waits for the first reader and says HELLO to it, even if no line ever comes.
    greeted = threading.Event()

    def greet() -> None:
        board.wait_for_reader()
        greeted.set()

    threading.Thread(target=greet, name="virtual-board greeter", daemon=True).start()
    listened = False  # a reader has been seen since the start or the last replug
    replugged = False
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "sleep":
            try:
                time.sleep(max(0.0, float(rest)))
            except ValueError:
                print(f"virtual-board: bad sleep {rest!r}, skipped", file=sys.stderr, flush=True)
        elif line == "replug":
            try:
                board.replug()
                listened, replugged = False, True
            except ValueError as e:
                print(f"virtual-board: {e}", file=sys.stderr, flush=True)
        elif line == "silence":
            board.pause_pings()
        elif line == "resume":
            board.resume_pings()
        else:
            if not listened:
                if replugged:
                    if not board.wait_for_reader(timeout=0):
                        _say_waiting(board)
                        board.wait_for_reader()
                elif not greeted.wait(0.5):
                    _say_waiting(board)
                    greeted.wait()
                listened = True
            board.send(line)


def _say_waiting(board: VirtualBoard) -> None:
    print(f"virtual-board: waiting for a reader on {board.path}", file=sys.stderr, flush=True)


class _Terminated(Exception):
    """SIGTERM: an orderly stop (a service manager, a test harness), exit 0."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


def run(args: argparse.Namespace) -> int:
    script: TextIO = sys.stdin
    if args.script:
        try:  # before the board exists: a wrong path leaves no pty and no link behind
            script = open(args.script, encoding="utf-8", errors="replace")  # noqa: SIM115
        except OSError as e:
            print(f"virtual-board: {args.script}: {e.strerror or e}", file=sys.stderr)
            return 1
    try:
        board = VirtualBoard(link=args.link)
    except OSError as e:
        print(f"virtual-board: {e}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, _terminate)
    code = 0
    try:
        print(board.path, flush=True)
        if args.link:
            print(f"virtual-board: {args.link} -> {board.path}", file=sys.stderr, flush=True)
        board.start()
        play(board, script)
        if args.script:
            print("virtual-board: script done; Ctrl-C to stop", file=sys.stderr, flush=True)
            threading.Event().wait()
        else:
            board.drain(timeout=2.0)
    except KeyboardInterrupt:
        code = 130
    except _Terminated:
        pass
    finally:
        # A second Ctrl-C while closing must not end in a traceback.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        board.close()
        if script is not sys.stdin:
            script.close()
    if code == 130:
        print("virtual-board: stopped (Ctrl-C)", file=sys.stderr)
    return code
