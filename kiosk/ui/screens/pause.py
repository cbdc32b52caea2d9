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
        session = getattr(self.game_screen, "session", None)
        playing = session is not None and not getattr(session, "over", True)
        return [
            Item("Back to the game", self.back),
            Item("Undo last dart", self.undo),
            Item("Next player", self.next_player),
            Item(
                "Formula darts while you wait",
                self.side_game,
                enabled=playing,
                note="the match is over",
            ),
            Item(end, self.end_game),
        ]

    def undo(self) -> None:
        self.back()
        self.game_screen.undo()

    def next_player(self) -> None:
        self.back()
        self.game_screen.next_player()

    def side_game(self) -> None:
        """Formula darts over the match: darts thrown meanwhile still go to the match."""
        from kiosk.ui.screens.formula import open_side_game

        self.back()
        open_side_game(self.kiosk, self.game_screen)

    def end_game(self) -> None:
        if not self.confirm_end:
            self.confirm_end = True
            return
        from kiosk.ui.screens.main_menu import MainMenu

        self.kiosk.stack.reset(MainMenu(self.kiosk))
