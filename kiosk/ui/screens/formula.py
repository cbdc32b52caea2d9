"""Formula darts: the game menu, starting a game, the in-game menu, the side game.

Menu (keypad: the item's number, Enter): training, qualification, a duel of two on
this kiosk, a duel against the computer; the computer's level and the rule set change
with left/right or Enter. Then who plays, on the players screen (``PlayerPick``): a
saved player, a new one typed, or "Player N"; a qualification takes saved players only
(it counts for the league), and so does a duel of two saved players.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kiosk.ui.formula_session import FormulaSession, FormulaSetup
from kiosk.ui.screens.menu import Item, MenuScreen
from kiosk.ui.screens.pause import GameMenu

LEVELS = [("easy", "Easy"), ("medium", "Medium"), ("perfect", "Perfect")]
RULES = [("classic", "Classic"), ("distance", "Distance")]
COMPUTER = "Computer"


def start_formula(kiosk: Any, setup: FormulaSetup) -> FormulaSession:
    """A new game on the formula screen, on top of the attract screen."""
    from kiosk.ui.screens.formula_play import FormulaScreen

    session = FormulaSession(setup)
    # Hook for the store (issue 7): ``kiosk.new_formula_recorder(setup)`` returns a
    # callable taking a ``GameEvent`` (rated: a qualification or a duel of saved players).
    factory = getattr(kiosk, "new_formula_recorder", None)
    if factory is not None:
        session.recorder = factory(session.setup)
    kiosk.formula_defaults = setup
    kiosk.stack.reset(FormulaScreen(kiosk, session))
    return session


def open_side_game(kiosk: Any, cricket_screen: Any) -> None:
    """Formula darts for the player waiting for their turn, over the Cricket match."""
    from kiosk.ui.screens.formula_play import FormulaSideGame

    kiosk.stack.push(FormulaSideGame(kiosk, cricket_screen))


class FormulaMenu(MenuScreen):
    name = "formula-menu"
    title = "Formula darts"
    subtitle = "Make the round's 4 digits, in order, into a formula: bring {} to 0"

    @property
    def subtitle_args(self) -> tuple[object, ...]:  # type: ignore[override]
        """The starting score of the rules chosen (``[formula] start``, 501 by default)."""
        return (FormulaSetup(rules=self.rules, overrides=self.overrides).make_rules().start,)

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.level = "medium"
        self.rules = "classic"
        self.overrides: tuple[tuple[str, int], ...] = ()
        previous = getattr(kiosk, "formula_defaults", None)
        if isinstance(previous, FormulaSetup):
            self.level = previous.computer or self.level
            self.rules = previous.rules
            self.overrides = previous.overrides  # config parameters (time_limit...)

    def _names(self, count: int) -> tuple[str, ...]:
        """The last formula players, else the last Cricket ones, for the places."""
        previous = getattr(self.kiosk, "formula_defaults", None)
        computer = self.t(COMPUTER)  # made distinct with a "'" when a player has its name
        names = [n for n in getattr(previous, "names", ()) if n.rstrip("'") != computer]
        if not names:
            names = list(getattr(self.kiosk, "cricket_defaults", None).names or ())  # type: ignore[union-attr]
        names += [f"{self.t('Player')} {i + 1}" for i in range(len(names), count)]
        return tuple(names[:count])

    def _set_level(self, value: str) -> None:
        self.level = value

    def _set_rules(self, value: str) -> None:
        self.rules = value

    def items(self) -> list[Item]:
        return [
            Item("Training (1 player)", lambda: self.start("training", 1)),
            Item(
                "Qualification (1 player, counts for the league)",
                lambda: self.start("qualification", 1),
            ),
            Item("Duel: 2 players", lambda: self.start("duel", 2)),
            Item("Duel against the computer", lambda: self.start("duel", 1, computer=True)),
            Item("Computer", choices=LEVELS, get=lambda: self.level, set=self._set_level),
            Item("Rules", choices=RULES, get=lambda: self.rules, set=self._set_rules),
        ]

    def start(self, mode: str, humans: int, computer: bool = False) -> None:
        """Who plays first (the players screen), then the game."""
        from kiosk.ui.screens.league import store_of
        from kiosk.ui.screens.player_pick import PlayerPick
        from kiosk.ui.session import CricketSetup

        rated = mode == "qualification" and store_of(self.kiosk) is not None
        subtitle = ""
        if mode == "training":
            subtitle = "Training never counts for the league"
        elif computer:
            subtitle = "Against the computer: never counts for the league"
        self.kiosk.stack.push(
            PlayerPick(
                self.kiosk,
                CricketSetup(names=self._names(humans)),
                humans,
                rated=rated,
                on_start=lambda names: self.begin(mode, names, computer),
                subtitle=subtitle,
            )
        )

    def begin(self, mode: str, names: tuple[str, ...], computer: bool = False) -> None:
        if computer:
            names = (*names, self.t(COMPUTER))
            if names[0] == names[1]:
                names = (names[0] + "'", names[1])
        setup = FormulaSetup(names=names, mode=mode, rules=self.rules,
                             computer=self.level if computer else "",
                             overrides=self.overrides)  # fmt: skip
        start_formula(self.kiosk, setup)


class FormulaPause(GameMenu):
    """``4`` on the keypad (Esc, the board's MENU) during a game. The clock runs on."""

    name = "formula-pause"
    subtitle = "The clock keeps running"

    def items(self) -> list[Item]:
        return [Item("Back to the game", self.back), self.end_item()]


def rematch_setup(setup: FormulaSetup) -> FormulaSetup:
    """The same game again with new digits."""
    return replace(setup, digits=(), seed=None)
