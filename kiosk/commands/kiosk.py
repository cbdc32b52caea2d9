"""``darts-kiosk`` with no subcommand: start the kiosk."""

from __future__ import annotations

import argparse

NAME = "kiosk"
HELP = "start the kiosk (the default when no command is given)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--window", action="store_true", help="run in a window, not fullscreen")


def run(args: argparse.Namespace) -> int:
    # NOT FINISHED: the pygame app (issue 5) replaces this.
    print("darts-kiosk: the kiosk UI is not built yet; see README.md for what exists.")
    return 0
