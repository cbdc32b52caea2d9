"""The in-game menu (keypad ``/`` or the board's MENU button)."""

from __future__ import annotations

from typing import Any

from kiosk.ui.screens.menu import Item, MenuScreen


class PauseMenu(MenuScreen):
    name = "pause"
    title = "Game menu"

    def __init__(self, kiosk: Any, game_screen: Any) -> None:
        super().__init__(kiosk)
        self.game_screen = game_screen
        self.confirm_end = False

    def items(self) -> list[Item]:
        end = "Really end the game? Choose again" if self.confirm_end else "End game"
        return [
            Item("Back to the game", self.back),
            Item("Undo last dart", self.undo),
            Item("Next player", self.next_player),
            Item(end, self.end_game),
        ]

    def undo(self) -> None:
        self.back()
        self.game_screen.undo()

    def next_player(self) -> None:
        self.back()
        self.game_screen.next_player()

    def end_game(self) -> None:
        if not self.confirm_end:
            self.confirm_end = True
            return
        from kiosk.ui.screens.main_menu import MainMenu

        self.kiosk.stack.reset(MainMenu(self.kiosk))
