"""``darts-kiosk board-monitor``: print what the board says, one line per event.

``hit T20``, ``hit SB``, ``hit DB``, ``miss``, ``button NEXT``, ``status connected``,
``status lost``, ``status reconnecting``, ``unknown 'xyz'``; a board that tells inner
from outer single shows ``hit S20i`` / ``hit S20o`` (both score as S20); ``raw 3 4`` for
a matrix contact. Legacy numeric codes show as the hits they mean (``320`` -> ``hit
T20``). Only with ``--verbose``: ``ping``, ``hello NAME VERSION`` (after a board's
reset) and status details.

A port that cannot be opened at start (a wrong path, a board not plugged in, a board
the kiosk holds while it runs: stop the kiosk first) prints ``status lost``, says why
on stderr and exits 1; with ``--wait`` it says why once and keeps trying until the
board appears (or the kiosk lets it go). Once connected it never gives up: an unplug shows
``status lost`` and a replug ``status connected``. Ctrl-C stops it (exit 130), SIGTERM
too (exit 0).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import queue
import signal
import sys

from kiosk.adapters.serial_board import board_map
from kiosk.adapters.serial_board.protocol import Button, Hello, Hit, Ping, Raw, Unknown, describe
from kiosk.adapters.serial_board.reader import UNREADABLE, BoardReader, Status
from kiosk.commands._board import find_port, held, is_held

NAME = "board-monitor"
HELP = "print the events of the dartboard as they arrive"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Prints one line per event: 'hit T20', 'hit SB', 'hit DB', 'hit S20i' / 'hit S20o' "
        "(inner / outer single, scored as S20), 'miss', 'button NEXT', 'raw 3 4', "
        "'status connected', 'status lost', 'status reconnecting', \"unknown 'xyz'\"."
    )
    parser.add_argument("--port", metavar="URL", help="device or pyserial URL (default: find it)")
    parser.add_argument("--baud", type=int, default=115200, help="baud rate (legacy boards: 9600)")
    parser.add_argument("--map", metavar="FILE", help="board map from board-learn")
    parser.add_argument("--debounce-ms", type=int, default=0, help="drop double reads (ms)")
    parser.add_argument(
        "--verbose", "-v", action="store_true", help="show PINGs, HELLOs and details"
    )
    parser.add_argument(
        "--wait", action="store_true", help="wait for a port that cannot be opened yet"
    )


def line_for(item: object, verbose: bool) -> str | None:
    if isinstance(item, Status):
        # (the wrong speed is said always: the one thing to put right the monitor shows)
        if item.detail and (verbose or item.detail.startswith(UNREADABLE)):
            return f"status {item.state} ({item.detail})"
        return f"status {item.state}"
    if isinstance(item, Ping | Hello) and not verbose:
        return None  # housekeeping: the board's heartbeat and its greeting after a reset
    if isinstance(item, Hit | Button | Raw | Hello | Ping | Unknown):
        return describe(item)
    return repr(item)


class _Terminated(Exception):
    """SIGTERM: an orderly stop (a service manager, a test harness), exit 0."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.ERROR,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        loaded = board_map.read(args.map) if args.map else None
    except board_map.BoardMapError as e:
        print(f"board-monitor: {e}", file=sys.stderr)
        return 1
    bmap = loaded.board_map if loaded is not None else None
    if loaded is not None:  # (its mistakes left out, as the kiosk does: said, then read)
        for key, why in loaded.left_out:
            print(f"board-monitor: {args.map}: contact {key!r} left out (shown as raw): {why}",
                  file=sys.stderr)  # fmt: skip
        for warning in loaded.warnings:
            print(f"board-monitor: {args.map}: warning: {warning}", file=sys.stderr)
    port = find_port(NAME, args.port, args.baud)
    if port is None:
        return 1
    header = f"# {port} at {args.baud} baud; Ctrl-C to stop"
    if args.wait:
        print(header, file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, _terminate)
    events: queue.Queue[object] = queue.Queue()
    reader = BoardReader(
        port, events.put, baudrate=args.baud, debounce_ms=args.debounce_ms, board_map=bmap
    )
    code = 0
    reader.start()
    try:
        connected = False
        said_why = False  # (why the board does not open yet, said once)
        while True:
            try:
                item = events.get(timeout=0.5)  # a timeout so Ctrl-C is seen
            except queue.Empty:
                continue
            text = line_for(item, args.verbose)
            if text is not None:
                print(text, flush=True)
            if isinstance(item, Status):
                if item.state == "connected" and not connected and not args.wait:
                    print(header, file=sys.stderr, flush=True)
                connected = connected or item.state == "connected"
                if not connected and (not args.wait or not said_why):
                    # Why, once: with --wait, a board the kiosk holds was waited for
                    # with nothing said but "status lost".
                    why = item.detail or "cannot open " + port
                    then = (
                        "; waiting for it (Ctrl-C to stop)"
                        if args.wait
                        else "; --wait to wait for it"
                    )
                    print(held(NAME, port) if is_held(why) else f"board-monitor: {why}",
                          then, sep="", file=sys.stderr, flush=True)  # fmt: skip
                    said_why = True
                    if not args.wait:
                        code = 1
                        break
    except KeyboardInterrupt:
        code = 130
    except _Terminated:
        pass
    except BrokenPipeError:  # ``board-monitor | head -3``: the reader of our output left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    finally:
        # A second Ctrl-C (or TERM) while the reader stops must not end in a traceback.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        reader.stop()
        with contextlib.suppress(BrokenPipeError, ValueError):
            sys.stdout.flush()
    if code == 130:
        print("board-monitor: stopped (Ctrl-C)", file=sys.stderr)
    return code
