"""``darts-kiosk board-monitor``: print what the board says, one line per event.

``hit T20``, ``hit SB``, ``miss``, ``button NEXT``, ``status connected``,
``status lost``, ``unknown 'xyz'``. PINGs and status details only with ``--verbose``.
"""

from __future__ import annotations

import argparse
import logging
import queue
import signal
import sys

from kiosk.adapters.serial_board import board_map
from kiosk.adapters.serial_board.ports import choose_port
from kiosk.adapters.serial_board.protocol import Button, Hello, Hit, Ping, Raw, Unknown, describe
from kiosk.adapters.serial_board.reader import BoardReader, Status

NAME = "board-monitor"
HELP = "print the events of the dartboard as they arrive"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", metavar="URL", help="device or pyserial URL (default: find it)")
    parser.add_argument("--baud", type=int, default=115200, help="baud rate (legacy boards: 9600)")
    parser.add_argument("--map", metavar="FILE", help="board map from board-learn")
    parser.add_argument("--debounce-ms", type=int, default=0, help="drop double reads (ms)")
    parser.add_argument("--verbose", "-v", action="store_true", help="show PINGs and details")


def line_for(item: object, verbose: bool) -> str | None:
    if isinstance(item, Status):
        if verbose and item.detail:
            return f"status {item.state} ({item.detail})"
        return f"status {item.state}"
    if isinstance(item, Ping) and not verbose:
        return None
    if isinstance(item, Hit | Button | Raw | Hello | Ping | Unknown):
        return describe(item)
    return repr(item)


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.ERROR,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        bmap = board_map.load(args.map) if args.map else None
    except board_map.BoardMapError as e:
        print(f"board-monitor: {e}", file=sys.stderr)
        return 1
    port = choose_port(args.port, baudrate=args.baud)
    if port is None:
        print(
            "board-monitor: no board found (no /dev/dartboard, none answered in "
            "/dev/serial/by-id); give --port",
            file=sys.stderr,
        )
        return 1
    print(f"# {port} at {args.baud} baud; Ctrl-C to stop", file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, _terminate)
    events: queue.Queue[object] = queue.Queue()
    reader = BoardReader(
        port, events.put, baudrate=args.baud, debounce_ms=args.debounce_ms, board_map=bmap
    )
    reader.start()
    try:
        while True:
            try:
                item = events.get(timeout=0.5)  # a timeout so Ctrl-C is seen
            except queue.Empty:
                continue
            text = line_for(item, args.verbose)
            if text is not None:
                print(text, flush=True)
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    finally:
        reader.stop()
    return 0
