"""Save PNGs of the formula darts screens into docs/screenshots/ (1920x1080, 1280x720).

Runs the real app headless (SDL dummy drivers) and types on the keypad's own keys.
Usage: ``python scripts/screenshots_formula.py [OUTDIR] [--sizes 1920x1080,1280x720]
[--language uk]`` (another language than English adds ``-uk`` to the file names).
"""

from __future__ import annotations

from contextlib import AbstractContextManager

import shots
from shots import Shots

from kiosk.ui.driver import Driver
from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.cricket_menu import start_cricket
from kiosk.ui.screens.formula import FormulaMenu, open_side_game, start_formula
from kiosk.ui.session import CricketSetup


def kiosk(shot: Shots) -> AbstractContextManager[Driver]:
    # No database: a screenshot run neither reads nor leaves games (nor an unfinished
    # game that would put the resume screen first next time).
    return shots.kiosk(shot.size, shot.language, port="loop://", env={}, store=False)


def all_screens(shot: Shots) -> None:
    with kiosk(shot) as d:
        d.kiosk.stack.push(FormulaMenu(d.kiosk))
        d.settle()
        shot.take(d, "formula-menu")
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001, 1231, 5720)))
        d.settle()
        shot.take(d, "formula-ready")
        d.pad("\n00+00")
        shot.take(d, "formula-typing")
        d.pad("\n")
        shot.take(d, "formula-round-result")
        d.pad("\n00/0*0")
        d.screen.update(d.screen.clock + 112)  # type: ignore[attr-defined]
        d.settle()
        shot.take(d, "formula-typing-refused-live")
        d.pad("\n")
        shot.take(d, "formula-refused")
        d.pad("....0*0\n\n0+00-01")
        shot.take(d, "formula-hint")
    with kiosk(shot) as d:
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589, 3001, 1231))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+0*0\n")
        shot.take(d, "formula-duel-handover")
        d.pad("\n")
        d.screen.update(d.screen.clock + session.time_limit + 0.5)  # type: ignore[attr-defined]
        d.settle()
        shot.take(d, "formula-duel-timeout")
    with kiosk(shot) as d:
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3001, 1000, 1000, 5100)))
        d.settle()
        d.pad("\n000*0\n\n0000\n\n0000\n\n00+0+0\n")
        d.wait_screen("formula-end")
        d.screen.seen()  # (read: the key line offers Enter, as players see it after 2 s)
        shot.take(d, "formula-end-perfect")
    with kiosk(shot) as d:
        start_cricket(d.kiosk, CricketSetup(names=("Anna", "Boris")))
        d.settle()
        d.throw("T20", "S19", "S19", "T20")
        open_side_game(d.kiosk, d.screen)
        d.settle()
        d.pad("\n07")
        d.throw("S20", source="board")
        shot.take(d, "formula-side-game")


def main() -> int:
    for shot in shots.parse(__doc__, languages=("en", "uk", "ru")):
        all_screens(shot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
