"""The in-game menu (keypad ``/`` or the board's MENU button); ``GameMenu`` is what it
shares with formula darts' (``kiosk.ui.screens.formula.FormulaPause``)."""

from __future__ import annotations

from typing import Any

from kiosk.ui.screens.menu import Item, MenuScreen


class GameMenu(MenuScreen):
    """A menu over a game screen whose "End game" asks once more before it ends it."""

    title = "Game menu"

    def __init__(self, kiosk: Any, game_screen: Any) -> None:
        super().__init__(kiosk)
        self.game_screen = game_screen
        self.confirm_end = False

    def end_item(self) -> Item:
        end = "Really end the game? Choose again" if self.confirm_end else "End game"
        return Item(end, self.end_game)

    def _league_result_lost(self) -> bool:
        """A rated game still in play, ended with no result (league Cricket; a formula
        qualification only before its digits are seen: after, it counts as lost)."""
        session = getattr(self.game_screen, "session", None)
        record = getattr(getattr(session, "log", None), "record", None)
        return bool(getattr(record, "rated", False)) and not getattr(session, "over", True)

    def end_game(self) -> None:
        if not self.confirm_end:
            self.confirm_end = True
            if self._league_result_lost():  # said where the keys' line was, in red
                self.message = self.t("A game ended early gets no league result")
            return
        from kiosk.ui.screens.main_menu import MainMenu

        self.kiosk.stack.reset(MainMenu(self.kiosk))


class PauseMenu(GameMenu):
    name = "pause"

    def items(self) -> list[Item]:
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
            self.end_item(),
            # After the items players know, so their keys keep their places.
            Item(
                "Correct a dart",
                self.correct_dart,
                enabled=playing and hasattr(self.game_screen, "corrected"),
                note="the match is over",
            ),
            # Last. A camera to calibrate again (the banner says so) must not cost the
            # game in play.
            Item("Settings", self.settings),
        ]

    def correct_dart(self) -> None:
        from kiosk.ui.screens.correct_dart import CorrectDartScreen

        self.kiosk.stack.replace(CorrectDartScreen(self.kiosk, self.game_screen))

    def settings(self) -> None:
        from kiosk.ui.screens.settings import SettingsScreen

        self.kiosk.stack.push(SettingsScreen(self.kiosk))

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
