"""Save a PNG of every kiosk screen at 1920x1080 and 1280x720 into docs/screenshots/.

Runs the real app headless (SDL dummy drivers) on a virtual board and plays through
it. Usage: ``python scripts/screenshots.py [OUTDIR] [--sizes 1920x1080,1280x720]``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.bootstrap import Options, build  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.domain.darts import Dart  # noqa: E402
from kiosk.ui.driver import Driver  # noqa: E402
from kiosk.ui.session import CricketSetup  # noqa: E402

# A game in progress: Anna leads, both have closed 20, Boris is on his second dart.
MIDGAME = [
    "T20",
    "T20",
    "S19",
    "S20",
    "D19",
    "MISS",
    "T18",
    "S18",
    "S1",
    "T20",
    "S17",
    "D16",
    "SB",
    "T19",
    "S17",
    "T17",
    "S5",
]
WINNING = [
    "T20",
    "T19",
    "T18",
    "S1",
    "S1",
    "S1",
    "T17",
    "T16",
    "T15",
    "S2",
    "S2",
    "S2",
    "DB",
    "SB",
    "S1",
    "S3",
    "S3",
    "S3",
]


def start(size: tuple[int, int], *, virtual: bool, language: str = "en") -> Driver:
    config = Config()
    options = Options(window=True, size=size, virtual=virtual, port=None if virtual else "loop://")
    running = build(options, config)
    d = Driver(running)
    if language != "en":
        d.kiosk.set_language(language)
    if virtual:
        d.wait_for(lambda: running.devices.virtual, what="virtual board")
    d.settle()
    return d


def new_game(d: Driver, setup: CricketSetup) -> None:
    from kiosk.ui.screens.cricket_menu import start_cricket

    start_cricket(d.kiosk, setup)
    d.settle()


def throw_all(d: Driver, darts: list[str]) -> None:
    from kiosk.ui.screen import DartInput

    for text in darts:
        d.running.inbox.put(DartInput(Dart.parse(text), "keypad"), source="keypad")
        d.settle()


def shoot(d: Driver, out: Path, name: str, size: tuple[int, int]) -> Path:
    path = out / f"{name}-{size[0]}x{size[1]}.png"
    d.screenshot(str(path))
    print(path)
    return path


def all_screens(out: Path, size: tuple[int, int]) -> None:
    d = start(size, virtual=True)
    try:
        two = CricketSetup(names=("Anna", "Boris"))
        new_game(d, two)
        throw_all(d, MIDGAME)
        d.press("3*2")
        shoot(d, out, "cricket-virtual-board", size)
        d.press("/")
        shoot(d, out, "pause-menu", size)
        d.press("1")
        new_game(d, two)
        throw_all(d, WINNING)
        d.wait_screen("results")
        shoot(d, out, "results", size)
        d.press("/")
        shoot(d, out, "main-menu", size)
        d.press("1")
        shoot(d, out, "cricket-menu", size)
        d.press("5")
        shoot(d, out, "players", size)
        d.key("cancel")
        d.key("cancel")
        d.press("4")
        shoot(d, out, "settings", size)
        d.key("cancel")
        d.key("cancel")
        shoot(d, out, "attract", size)
    finally:
        d.running.close()
    d = start(size, virtual=False)
    try:
        four = CricketSetup(names=("Anna", "Boris", "Chen", "Dana"), variant="cut-throat")
        new_game(d, four)
        throw_all(
            d,
            [
                "T20",
                "S20",
                "D19",
                "T19",
                "S18",
                "S18",
                "SB",
                "DB",
                "S15",
                "T16",
                "S17",
                "S1",
                "T20",
                "T20",
            ],
        )
        shoot(d, out, "cricket-4-players", size)
        teams = CricketSetup(names=("Anna", "Boris", "Chen", "Dana"), teams=True)
        new_game(d, teams)
        throw_all(d, ["T20", "S19", "S19", "T18", "S15", "D17", "S20", "S20"])
        from kiosk.adapters.serial_board.reader import Status

        d.running.inbox.put(Status("lost", "read failed"))
        d.settle()
        shoot(d, out, "cricket-teams-board-lost", size)
    finally:
        d.running.close()
    d = start(size, virtual=False, language="uk")
    try:
        new_game(d, CricketSetup(names=("Оксана", "Богдан"), round_limit=15))
        throw_all(d, MIDGAME)
        shoot(d, out, "cricket-ukrainian", size)
    finally:
        d.running.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("outdir", nargs="?", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--sizes", default="1920x1080,1280x720")
    args = parser.parse_args()
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    for spec in args.sizes.split(","):
        w, h = (int(v) for v in spec.split("x"))
        all_screens(out, (w, h))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
