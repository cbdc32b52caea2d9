"""Cricket options (variant, rounds, single bull, players, teams) and player names."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kiosk.adapters.keypad import KeyAction
from kiosk.ui.screens.menu import Item, MenuScreen
from kiosk.ui.session import CricketSession, CricketSetup

VARIANTS = [("standard", "Standard"), ("cut-throat", "Cut-throat"), ("no-score", "No score")]
ROUNDS = [(10, "10"), (15, "15"), (20, "20"), (25, "25"), (30, "30"), (0, "no limit")]
ON_OFF = [(False, "off"), (True, "on")]
PLAYER_COUNTS = [(2, "2"), (3, "3"), (4, "4"), (-4, "2 teams of 2")]
MAX_NAME = 14


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

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
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
        n = abs(self.count)
        names = list(self.setup.names[:n])
        names += [f"{self.t('Player')} {i + 1}" for i in range(len(names), n)]
        setup = replace(self.setup, names=tuple(names), teams=self.count < 0)
        self.kiosk.stack.push(PlayerSelect(self.kiosk, setup))


class PlayerSelect(MenuScreen):
    """Names for each place: type on a keyboard to rename the chosen place, or pick a
    saved player with left/right."""

    name = "players"
    title = "Players"
    subtitle = "Type a name on the keyboard to rename; Enter on Start"

    def __init__(self, kiosk: Any, setup: CricketSetup) -> None:
        super().__init__(kiosk)
        self.setup = setup
        self.names = list(setup.names)
        self.selected = len(self.names)  # on "Start game"

    def items(self) -> list[Item]:
        out = []
        for i, name in enumerate(self.names):
            label = name
            if self.setup.teams:
                label = f"{name}  ({self.t('Team')} {'AB'[i % 2]})"
            out.append(Item(label, None, raw_label=True))
        out.append(Item("Start game", self.start))
        return out

    def key(self, event: KeyAction, items: list[Item]) -> None:
        i = self.selected
        on_name = i < len(self.names)
        letter = event.char if event.char.isalpha() and len(event.char) == 1 else ""
        if on_name and letter and event.name in ("char", "next", "undo"):
            name = self.names[i]
            if name.startswith(self.t("Player")):
                name = ""  # typing over the default name replaces it
            if len(name) < MAX_NAME:
                self.names[i] = name + (letter.upper() if not name else letter.lower())
        elif on_name and event.name == "times" and event.char == " ":
            self.names[i] = self.names[i][:MAX_NAME] + " "
        elif on_name and event.name == "back" and event.char != ".":
            self.names[i] = self.names[i][:-1]
        else:
            super().key(event, items)

    def start(self) -> None:
        names = []
        for i, name in enumerate(self.names):
            name = name.strip() or f"{self.t('Player')} {i + 1}"
            while name in names:  # the engine needs distinct names
                name += "'"
            names.append(name)
        start_cricket(self.kiosk, replace(self.setup, names=tuple(names)))
