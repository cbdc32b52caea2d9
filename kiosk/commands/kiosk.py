"""``darts-kiosk`` with no subcommand: start the kiosk."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

NAME = "kiosk"
HELP = "start the kiosk (the default when no command is given)"
# The kiosk tells systemd READY=1 at its first frame and pings the watchdog from its
# loop (kiosk.bootstrap builds the Notifier); tests/e2e/test_watchdog.py checks it.
SD_NOTIFY = True


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected WIDTHxHEIGHT, e.g. 1280x720"
        ) from None
    if not (320 <= w <= 16384 and 240 <= h <= 16384):
        raise argparse.ArgumentTypeError(f"{text!r}: too small or too large")
    return (w, h)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--window", action="store_true", help="run in a window, not fullscreen")
    parser.add_argument(
        "--fullscreen", action="store_true", help="fullscreen even inside a desktop session"
    )
    parser.add_argument("--size", type=_size, metavar="WxH", help="window or screen size")
    parser.add_argument(
        "--port", metavar="URL", help="the board's serial port or pyserial URL (default: find it)"
    )
    parser.add_argument(
        "--virtual",
        action="store_true",
        help="play on the on-screen virtual board (mouse clicks throw darts)",
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="settings file read last")
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="where the games database lives (default: the config's data_dir)",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="log a 'shown game=.. seq=..' line after each frame that shows a game input "
        "(the crash test reads them)",
    )
    parser.add_argument("--verbose", action="store_true", help="log debug messages")


def run(args: argparse.Namespace) -> int:
    from kiosk.bootstrap import Options, run_kiosk
    from kiosk.config import ConfigError, default_search_paths, found_config_files, load_config
    from kiosk.logging_setup import setup_logging

    setup_logging(args.verbose)
    mistakes: list[str] = []
    try:
        # A mistake in a setting keeps that setting's default, said on screen: a bar's
        # screen left dark by a typo helps nobody. ``config --check`` still refuses it.
        config = load_config(args.config, mistakes=mistakes)
    except ConfigError as e:
        # Under systemd "<3>" makes it an error in the journal (journalctl -p warning).
        prefix = "<3>" if os.environ.get("JOURNAL_STREAM") else ""
        print(f"{prefix}darts-kiosk: {e}", file=sys.stderr)
        return 2
    for mistake in mistakes:
        logging.getLogger("kiosk").error(
            "settings mistake, not used (the default, or an earlier file's value, stands):"
            " %s (darts-kiosk config --check FILE checks a file)",
            mistake,
        )
    options = Options(
        window=args.window,
        fullscreen=args.fullscreen,
        size=args.size,
        port=args.port,
        virtual=args.virtual,
        verbose=args.verbose,
        settings_file=default_search_paths()[-1],
        data_dir=getattr(args, "data_dir", None),
        trace=getattr(args, "trace", False),
        settings_mistakes=tuple(mistakes),
    )
    try:
        return run_kiosk(options, config, tuple(found_config_files(args.config)))
    except Exception:
        # Logged, not left to the interpreter, so the journal files it as the error it is
        # (a display that cannot be opened, a bug) and not as plain output.
        logging.getLogger("kiosk").critical("the kiosk stopped on an error", exc_info=True)
        return 1
