"""Save a PNG of every kiosk screen at 1920x1080 and 1280x720 into docs/screenshots/.

Runs the real app headless (SDL dummy drivers) on a virtual board and plays through
it. Usage: ``python scripts/screenshots.py [OUTDIR] [--sizes 1920x1080,1280x720]``.
"""

from __future__ import annotations

import shots
from shots import Shots

from kiosk.adapters.camera.scorer import CameraDoubt
from kiosk.adapters.serial_board.protocol import Hit
from kiosk.adapters.serial_board.reader import Status
from kiosk.devices import CamerasDown
from kiosk.domain.darts import Dart
from kiosk.ui.driver import ANNA_WINS, Driver
from kiosk.ui.screens.cricket_menu import start_cricket
from kiosk.ui.session import CricketSetup

# A game in progress: Anna leads, both have closed 20, Boris is on his second dart.
MIDGAME = [
    "T20", "T20", "S19", "S20", "D19", "MISS", "T18", "S18", "S1",
    "T20", "S17", "D16", "SB", "T19", "S17", "T17", "S5",
]  # fmt: skip
CUT_THROAT = [
    "T20", "S20", "D19", "T19", "S18", "S18", "SB", "DB", "S15", "T16", "S17", "S1",
    "T20", "T20",
]  # fmt: skip


def new_game(d: Driver, setup: CricketSetup) -> None:
    start_cricket(d.kiosk, setup)
    d.settle()


def all_screens(shot: Shots) -> None:
    size = shot.size
    with shots.kiosk(size, virtual=True) as d:
        d.wait_for(lambda: d.running.devices.virtual, what="virtual board")
        two = CricketSetup(names=("Anna", "Boris"))
        new_game(d, two)
        d.throw(*MIDGAME)
        d.press("3*2")
        shot.take(d, "cricket-virtual-board")
        d.press("...")  # the typed "3*2" deleted again, so "/" opens the menu
        d.press("/")
        shot.take(d, "pause-menu")
        d.press("6")  # Correct a dart: Boris's second dart was read S5; it is in the 15
        d.press("2")
        d.press("15")
        shot.take(d, "correct-dart")
        d.press("\n")
        shot.take(d, "cricket-dart-corrected")
        d.press("/")
        d.press("1")
        new_game(d, two)
        d.throw(*ANNA_WINS[:3])  # T20 T19 T18: a white horse, announced
        shot.take(d, "cricket-white-horse")
        d.throw(*ANNA_WINS[3:14])  # the winning dart: "Game shot!" until the results
        shot.take(d, "cricket-game-shot")
        d.throw(*ANNA_WINS[14:])
        d.wait_screen("results")
        d.screen.seen()  # (read: the Rematch button lit, as players see it after 2 s)
        shot.take(d, "results")
        d.press("*")  # Correct a dart from the results: Boris's first S2 was in the 20
        d.press("4")
        d.press("1")
        d.press("20\n\n")  # (over the results, asked once)
        d.wait_screen("results")
        d.screen.seen()  # (read: the Rematch button lit, as players see it after 2 s)
        shot.take(d, "results-corrected")
        d.press("/")
        shot.take(d, "main-menu")
        d.press("1")
        shot.take(d, "cricket-menu")
        d.press("5")
        shot.take(d, "players")
        d.key("cancel")
        d.key("cancel")
        d.press("4")
        shot.take(d, "settings")
        d.key("cancel")
        d.key("cancel")
        shot.take(d, "attract")
    with shots.kiosk(size, port="loop://") as d:
        four = CricketSetup(names=("Anna", "Boris", "Chen", "Dana"), variant="cut-throat")
        new_game(d, four)
        d.throw(*CUT_THROAT)
        shot.take(d, "cricket-4-players")
        d.running.inbox.put(CamerasDown(((2, "no pictures"), (3, "calibrate"))), source="camera")
        d.settle()
        shot.take(d, "cricket-cameras-down")
        d.running.inbox.put(CamerasDown(), source="camera")
        # A dart at the treble's wire: it counts, the player is asked, * swaps it.
        t20, s20 = Dart.parse("T20"), Dart.parse("S20")
        d.running.inbox.put(Hit(t20), source="camera")
        d.running.inbox.put(CameraDoubt(t20, s20), source="camera")
        d.settle()
        shot.take(d, "cricket-camera-doubt")
        teams = CricketSetup(names=("Anna", "Boris", "Chen", "Dana"), teams=True)
        new_game(d, teams)
        d.throw("T20", "S19", "S19", "T18", "S15", "D17", "S20", "S20")
        d.running.inbox.put(Status("lost", "read failed"))
        d.settle()
        shot.take(d, "cricket-teams-board-lost")
    with shots.kiosk(size, "uk", port="loop://") as d:
        new_game(d, CricketSetup(names=("Оксана", "Богдан"), round_limit=15))
        d.throw(*MIDGAME)
        shot.take(d, "cricket-ukrainian")


def main() -> int:
    for shot in shots.parse(__doc__):
        all_screens(shot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
