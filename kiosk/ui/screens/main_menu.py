"""The game menu: Cricket, formula darts, league night, settings."""

from __future__ import annotations

import importlib.util
from typing import Any

from kiosk.ui.screens.menu import Item, MenuScreen


def _formula_screen_exists() -> bool:
    # The formula darts screen is issue 6; until its module exists the item says so.
    return importlib.util.find_spec("kiosk.ui.screens.formula") is not None


class MainMenu(MenuScreen):
    name = "main-menu"
    title = "Choose a game"

    def items(self) -> list[Item]:
        formula = _formula_screen_exists()
        return [
            Item("Cricket", self.cricket),
            Item("Formula darts", self.formula, enabled=formula, note="coming soon"),
            Item("League night", self.league),
            Item("Settings", self.settings),
        ]

    def cricket(self) -> None:
        from kiosk.ui.screens.cricket_menu import CricketMenu

        self.kiosk.stack.push(CricketMenu(self.kiosk))

    def formula(self) -> None:
        module: Any = importlib.import_module("kiosk.ui.screens.formula")
        self.kiosk.stack.push(module.FormulaMenu(self.kiosk))

    def league(self) -> None:
        from kiosk.ui.screens.league import LeagueMenu

        self.kiosk.stack.push(LeagueMenu(self.kiosk))

    def settings(self) -> None:
        from kiosk.ui.screens.settings import SettingsScreen

        self.kiosk.stack.push(SettingsScreen(self.kiosk))
