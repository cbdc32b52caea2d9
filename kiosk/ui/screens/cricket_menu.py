"""Cricket options (variant, rounds, single bull, players, teams); the names are chosen
on ``player_pick.PlayerPick``. From the league menu the same options start a rated game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kiosk.ui.screens.menu import Item, MenuScreen
from kiosk.ui.session import CricketSession, CricketSetup

VARIANTS = [("standard", "Standard"), ("cut-throat", "Cut-throat"), ("no-score", "No score")]
ROUNDS = [(10, "10"), (15, "15"), (20, "20"), (25, "25"), (30, "30"), (0, "no limit")]
ON_OFF = [(False, "off"), (True, "on")]
PLAYER_COUNTS = [(2, "2"), (3, "3"), (4, "4"), (-4, "2 teams of 2")]


def start_cricket(kiosk: Any, setup: CricketSetup) -> None:
    """A new game on the scoreboard, on top of the attract screen."""
    from kiosk.ui.screens.cricket import CricketScreen

    recorder = kiosk.new_recorder("cricket", setup) if kiosk.new_recorder else None
    session = CricketSession(setup, recorder)
    kiosk.cricket_defaults = setup
    kiosk.stack.reset(CricketScreen(kiosk, session))


class CricketMenu(MenuScreen):
    name = "cricket-menu"
    title = "Cricket"

    def __init__(self, kiosk: Any, *, rated: bool = False) -> None:
        super().__init__(kiosk)
        self.rated = rated
        if rated:
            self.title = "League game: Cricket"
        d = kiosk.cricket_defaults
        self.setup = d
        self.count = -4 if d.teams else len(d.names)

    def _set(self, **changes: Any) -> None:
        self.setup = replace(self.setup, **changes)

    def _set_count(self, value: int) -> None:
        self.count = value

    def items(self) -> list[Item]:
        s = self.setup
        return [
            Item(
                "Variant",
                choices=VARIANTS,
                get=lambda: s.variant,
                set=lambda v: self._set(variant=v),
            ),
            Item(
                "Rounds",
                choices=ROUNDS,
                get=lambda: s.round_limit,
                set=lambda v: self._set(round_limit=v),
            ),
            Item(
                "Single bull",
                choices=ON_OFF,
                get=lambda: s.single_bull,
                set=lambda v: self._set(single_bull=v),
            ),
            Item("Players", choices=PLAYER_COUNTS, get=lambda: self.count, set=self._set_count),
            Item("Choose players", self.players),
        ]

    def players(self) -> None:
        from kiosk.ui.screens.player_pick import PlayerPick

        setup = replace(self.setup, teams=self.count < 0)
        self.kiosk.stack.push(PlayerPick(self.kiosk, setup, abs(self.count), rated=self.rated))
