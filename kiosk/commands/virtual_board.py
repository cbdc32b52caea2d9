"""``darts-kiosk virtual-board``: a pretend board on a pty, for demos and tests.

Prints the device path (first line of stdout), says HELLO, PINGs every second and
sends the lines of ``--script FILE`` or of stdin, one protocol line per input line.
Script directives: ``sleep 0.5`` pauses, ``replug`` imitates pulling the USB cable
(needs ``--link``), ``silence`` / ``resume`` stop and restart the PINGs (a hung board);
blank lines and ``#`` comments are skipped.

Lifetime: with ``--script`` the board keeps running (PINGs) after the script until it
is killed (Ctrl-C / SIGTERM), so a kiosk started against it does not see it vanish.
Without ``--script`` it reads stdin and exits at EOF, after the reader has taken
everything sent (or 2 s).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Iterable
from types import FrameType

from kiosk.adapters.serial_board.virtual import VirtualBoard

NAME = "virtual-board"
HELP = "run a virtual dartboard on a pty (prints its device path)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", metavar="FILE", help="lines to send (default: stdin)")
    parser.add_argument(
        "--link", metavar="PATH", help="keep a symlink to the device here (e.g. /tmp/dartboard)"
    )


def play(board: VirtualBoard, lines: Iterable[str]) -> None:
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
            except ValueError as e:
                print(f"virtual-board: {e}", file=sys.stderr, flush=True)
        elif line == "silence":
            board.pause_pings()
        elif line == "resume":
            board.resume_pings()
        else:
            board.send(line)


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    try:
        board = VirtualBoard(link=args.link)
    except OSError as e:
        print(f"virtual-board: {e}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, _terminate)
    print(board.path, flush=True)
    if args.link:
        print(f"virtual-board: {args.link} -> {board.path}", file=sys.stderr, flush=True)
    try:
        board.start()
        if args.script:
            try:
                with open(args.script, encoding="utf-8", errors="replace") as f:
                    play(board, f)
            except OSError as e:
                print(f"virtual-board: {e}", file=sys.stderr, flush=True)
                return 1
            print("virtual-board: script done; Ctrl-C to stop", file=sys.stderr, flush=True)
            threading.Event().wait()
        else:
            play(board, sys.stdin)
            board.drain(timeout=2.0)
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
    return 0
