"""Save PNGs of the league night screens into docs/screenshots/ (league-*.png).

Runs the real app headless with a fresh SQLite file in a temporary directory, fills it
through the store's API (players, a season of rated Cricket games played dart by dart,
a formula qualification or two), then walks the screens with keys (the keypad's
where a keyboard's would type letters).
Usage: ``python scripts/screenshots_league.py [OUTDIR] [--sizes 1920x1080,1280x720]``.
"""

from __future__ import annotations

import random
import tempfile
from contextlib import AbstractContextManager
from pathlib import Path

import shots
from shots import Shots

from kiosk.ui.driver import Driver

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


def kiosk(
    shot: Shots, data: Path, *, store: bool = True, language: str = "en"
) -> AbstractContextManager[Driver]:
    return shots.kiosk(shot.size, language, port="loop://", env={}, data_dir=data, store=store)


def all_screens(shot: Shots) -> None:
    with tempfile.TemporaryDirectory(prefix="kiosk-shots-") as tmp:
        with kiosk(shot, Path(tmp)) as d:
            assert d.kiosk.store is not None
            fill(d.kiosk.store)
            d.press("1")  # attract -> main menu
            d.press("3")
            shot.take(d, "league-menu")
            d.press("2")
            shot.take(d, "league-standings-tonight")
            d.look()  # (an Enter right after the digit would only confirm it)
            d.press("\n")
            shot.take(d, "league-player-page")
            d.press("//")
            d.press("3")
            shot.take(d, "league-standings-season")
            d.press("/")
            d.press("4")
            shot.take(d, "league-players")
            # From here the keypad: the name entry takes a keyboard's digits as letters.
            d.pad("1")
            d.pad("2\n33222\n2")  # "An" and the picker on N
            shot.take(d, "league-name-entry")
            d.pad("/")
            d.pad("/")
            d.pad("1")  # a rated Cricket game: options, then the players
            d.pad("5")
            d.pad("1")
            shot.take(d, "league-seat-chooser")
            d.pad("2")
            d.pad("3")
            shot.take(d, "league-player-pick")
        with kiosk(shot, Path(tmp), language="uk") as d:
            d.pad("1")
            d.pad("3")
            d.pad("4")
            d.pad("1")
            d.pad("2\n3")  # Cyrillic first (its A), then the picker 5 letters on
            shot.take(d, "league-name-entry-ukrainian")
    with (
        tempfile.TemporaryDirectory(prefix="kiosk-shots-") as tmp,
        kiosk(shot, Path(tmp), store=False) as d,
    ):
        d.press("1")
        d.press("3")
        shot.take(d, "league-menu-not-saved")


def main() -> int:
    for shot in shots.parse(__doc__):
        all_screens(shot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
