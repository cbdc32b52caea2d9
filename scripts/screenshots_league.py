"""Save PNGs of the league night screens into docs/screenshots/ (league-*.png).

Runs the real app headless with a fresh SQLite file in a temporary directory, fills it
through the store's API (players, a season of rated Cricket games played dart by dart,
a formula qualification or two), then walks the screens with keypad keys.
Usage: ``python scripts/screenshots_league.py [OUTDIR] [--sizes 1920x1080,1280x720]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.bootstrap import Options, build  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.ui.driver import Driver  # noqa: E402

PLAYERS = {  # name -> chance that a dart lands on a Cricket target
    "Anna": 0.75,
    "Boris": 0.55,
    "Chen": 0.65,
    "Dana": 0.45,
    "Олег": 0.6,
    "Mykhailo-Oleksandr": 0.5,
    "Eve": 0.35,
}
TARGETS = [15, 16, 17, 18, 19, 20]


def random_dart(rng: random.Random, skill: float) -> str:
    if rng.random() > skill:
        return "MISS" if rng.random() < 0.4 else f"S{rng.randint(1, 14)}"
    if rng.random() < 0.1:
        return rng.choice(["SB", "DB"])
    n = rng.choice(TARGETS)
    return rng.choices([f"S{n}", f"D{n}", f"T{n}"], weights=[6, 2, 2])[0]


def play(store: object, names: list[str], rng: random.Random) -> None:
    live = store.start_game("cricket", names, rated=True)  # type: ignore[attr-defined]
    while not live.is_over():
        player = live.engine.current_player
        live.dart(random_dart(rng, PLAYERS[player]))
    live.finish()


def fill(store: object) -> None:
    rng = random.Random(7)
    for name in PLAYERS:
        store.players.add(name)  # type: ignore[attr-defined]
    names = list(PLAYERS)
    for _ in range(26):
        play(store, rng.sample(names, 2), rng)
    play(store, ["Anna", "Boris", "Chen"], rng)
    quick = {"mode": "qualification", "digits": [5001, 5001, 5001], "start": 50, "bonus": 0}
    live = store.start_game("formula", ["Anna"], quick, rated=True)  # type: ignore[attr-defined]
    live.submit(0, "50+0*1")
    live.finish()


def start(size: tuple[int, int], data: Path, *, store: bool = True, language: str = "en") -> Driver:
    options = Options(window=True, size=size, port="loop://", env={}, data_dir=data, store=store)
    d = Driver(build(options, Config()))
    if language != "en":
        d.kiosk.set_language(language)
    d.settle()
    return d


def shoot(d: Driver, out: Path, name: str, size: tuple[int, int]) -> None:
    path = out / f"{name}-{size[0]}x{size[1]}.png"
    d.screenshot(str(path))
    print(path)


def all_screens(out: Path, size: tuple[int, int]) -> None:
    with tempfile.TemporaryDirectory(prefix="kiosk-shots-") as tmp:
        d = start(size, Path(tmp))
        try:
            assert d.kiosk.store is not None
            fill(d.kiosk.store)
            d.press("1")  # attract -> main menu
            d.press("3")
            shoot(d, out, "league-menu", size)
            d.press("2")
            shoot(d, out, "league-standings-tonight", size)
            d.press("\n")
            shoot(d, out, "league-player-page", size)
            d.press("//")
            d.press("3")
            shoot(d, out, "league-standings-season", size)
            d.press("/")
            d.press("4")
            shoot(d, out, "league-players", size)
            d.press("1")
            d.press("2\n33222\n2")  # "An" and the picker on N
            shoot(d, out, "league-name-entry", size)
            d.press("/")
            d.press("/")
            d.press("1")  # a rated Cricket game: options, then the players
            d.press("5")
            d.press("1")
            shoot(d, out, "league-seat-chooser", size)
            d.press("2")
            d.press("3")
            shoot(d, out, "league-player-pick", size)
        finally:
            d.running.close()
        d = start(size, Path(tmp), language="uk")
        try:
            d.press("1")
            d.press("3")
            d.press("4")
            d.press("1")
            d.press("2\n3")  # Cyrillic first (its A), then the picker 5 letters on
            shoot(d, out, "league-name-entry-ukrainian", size)
        finally:
            d.running.close()
    with tempfile.TemporaryDirectory(prefix="kiosk-shots-") as tmp:
        d = start(size, Path(tmp), store=False)
        try:
            d.press("1")
            d.press("3")
            shoot(d, out, "league-menu-not-saved", size)
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
