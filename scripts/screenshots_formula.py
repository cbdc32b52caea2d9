"""Save PNGs of the formula darts screens into docs/screenshots/ (1920x1080, 1280x720).

Runs the real app headless (SDL dummy drivers) and types on the keypad's own keys.
Usage: ``python scripts/screenshots_formula.py [OUTDIR] [--sizes 1920x1080,1280x720]
[--language uk]`` (another language than English adds ``-uk`` to the file names).
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

from kiosk.adapters import keypad as kp  # noqa: E402
from kiosk.bootstrap import Options, build  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.domain.darts import Dart  # noqa: E402
from kiosk.ui.driver import Driver  # noqa: E402
from kiosk.ui.formula_session import FormulaSetup  # noqa: E402
from kiosk.ui.screen import DartInput  # noqa: E402

PAD_KEYS = {
    "\n": kp.K_KP_ENTER, "+": kp.K_KP_PLUS, "-": kp.K_KP_MINUS, "*": kp.K_KP_MULTIPLY,
    "/": kp.K_KP_DIVIDE, ".": kp.K_KP_PERIOD, "0": kp.K_KP_0,
    **{str(n): kp.K_KP_1 + n - 1 for n in range(1, 10)},
}  # fmt: skip


def pad(d: Driver, keys: str) -> None:
    """Press keys of the numeric keypad (by their keycodes, as the app reads them)."""
    for ch in keys:
        action = kp.action_for(PAD_KEYS[ch], "" if ch == "\n" else ch)
        assert action is not None
        d.running.inbox.put(action, source="keypad")
    d.settle()


LANGUAGE = "en"


def start(size: tuple[int, int]) -> Driver:
    # No database: a screenshot run neither reads nor leaves games (nor an unfinished
    # game that would put the resume screen first next time).
    options = Options(window=True, size=size, port="loop://", env={}, store=False)
    running = build(options, Config())
    d = Driver(running)
    if LANGUAGE != "en":
        d.kiosk.set_language(LANGUAGE)
    d.settle()
    return d


def shoot(d: Driver, out: Path, name: str, size: tuple[int, int]) -> None:
    suffix = "" if LANGUAGE == "en" else f"-{LANGUAGE}"
    path = out / f"{name}-{size[0]}x{size[1]}{suffix}.png"
    d.screenshot(str(path))
    print(path)


def all_screens(out: Path, size: tuple[int, int]) -> None:
    from kiosk.ui.screens.cricket_menu import start_cricket
    from kiosk.ui.screens.formula import FormulaMenu, open_side_game, start_formula
    from kiosk.ui.session import CricketSetup

    d = start(size)
    try:
        d.kiosk.stack.push(FormulaMenu(d.kiosk))
        d.settle()
        shoot(d, out, "formula-menu", size)
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001, 1231, 5720)))
        d.settle()
        shoot(d, out, "formula-ready", size)
        pad(d, "\n00+00")
        shoot(d, out, "formula-typing", size)
        pad(d, "\n")
        shoot(d, out, "formula-round-result", size)
        pad(d, "\n00/0*0")
        d.screen.update(d.screen.clock + 112)  # type: ignore[attr-defined]
        d.settle()
        shoot(d, out, "formula-typing-refused-live", size)
        pad(d, "\n")
        shoot(d, out, "formula-refused", size)
        pad(d, "....0*0\n\n0+00-01")
        shoot(d, out, "formula-hint", size)
    finally:
        d.running.close()
    d = start(size)
    try:
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589, 3001, 1231))
        session = start_formula(d.kiosk, setup)
        d.settle()
        pad(d, "\n00+0*0\n")
        shoot(d, out, "formula-duel-handover", size)
        pad(d, "\n")
        d.screen.update(d.screen.clock + session.time_limit + 0.5)  # type: ignore[attr-defined]
        d.settle()
        shoot(d, out, "formula-duel-timeout", size)
    finally:
        d.running.close()
    d = start(size)
    try:
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3001, 1000, 1000, 5100)))
        d.settle()
        pad(d, "\n000*0\n\n0000\n\n0000\n\n00+0+0\n")
        d.wait_screen("formula-end")
        shoot(d, out, "formula-end-perfect", size)
    finally:
        d.running.close()
    d = start(size)
    try:
        start_cricket(d.kiosk, CricketSetup(names=("Anna", "Boris")))
        d.settle()
        for text in ["T20", "S19", "S19", "T20"]:
            d.running.inbox.put(DartInput(Dart.parse(text), "keypad"), source="keypad")
            d.settle()
        open_side_game(d.kiosk, d.screen)
        d.settle()
        pad(d, "\n07")
        d.running.inbox.put(DartInput(Dart.parse("S20"), "board"), source="board")
        d.settle()
        shoot(d, out, "formula-side-game", size)
    finally:
        d.running.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("outdir", nargs="?", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--sizes", default="1920x1080,1280x720")
    parser.add_argument("--language", default="en", choices=("en", "uk", "ru"))
    args = parser.parse_args()
    global LANGUAGE
    LANGUAGE = args.language
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    for spec in args.sizes.split(","):
        w, h = (int(v) for v in spec.split("x"))
        all_screens(out, (w, h))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
