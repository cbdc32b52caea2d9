"""Formula darts: the game menu, starting a game, the in-game menu, the side game.

Menu (keypad: the item's number, Enter): training, qualification, a duel of two on
this kiosk, a duel against the computer; the computer's level and the rule set change
with left/right or Enter. Then who plays, on the players screen (``PlayerPick``): a
saved player, a new one typed, or "Player N"; a qualification takes saved players only
(it counts for the league), and so does a duel of two saved players.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from kiosk.adapters.keypad import KeyAction
from kiosk.ui.formula_session import PLAYING, FormulaSession, FormulaSetup
from kiosk.ui.screen import next_second
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
    """Formula darts for a player waiting for their turn, over the Cricket match. With
    two players only one waits; with more, the kiosk asks who plays (``SideGameWho``):
    it cannot tell who is at the keypad, and each keeps their own game."""
    from kiosk.ui.screens.formula_play import waiting_player

    session = cricket_screen.session
    thrower = str(session.game.current_player)
    waiting = [str(p) for p in session.players if str(p) != thrower]
    if len(waiting) <= 1:
        side_game_of(kiosk, cricket_screen, waiting[0] if waiting else waiting_player(session))
        return
    who = SideGameWho(kiosk, cricket_screen, waiting)
    first = waiting_player(session)
    who.selected = waiting.index(first) if first in waiting else 0
    kiosk.stack.push(who)


def side_game_of(kiosk: Any, cricket_screen: Any, player: str) -> None:
    """``player``'s side game: the one they set aside when they went to throw, where
    they left it (its clock stopped meanwhile), else a new one."""
    from kiosk.ui.formula_session import OVER
    from kiosk.ui.screens.formula_play import FormulaSideGame

    kept = cricket_screen.side_games.get(player)
    if kept is None or kept.session.phase == OVER:
        kept = FormulaSideGame(kiosk, cricket_screen, player)
    kiosk.stack.push(kept)


class SideGameWho(MenuScreen):
    """Who plays formula darts while they wait: one line a waiting player (their game
    goes on where they left it, if they have one), and back to the scoreboard. A dart
    meanwhile goes to the match, as from any menu over it."""

    name = "side-game-who"
    title = "Formula darts while you wait"
    subtitle = "Who plays?"

    def __init__(self, kiosk: Any, cricket_screen: Any, players: list[str]) -> None:
        super().__init__(kiosk)
        self.cricket = cricket_screen
        self.players = players

    def items(self) -> list[Item]:
        out = [Item(name, partial(self.play, name), raw_label=True, state=self._state(name))
               for name in self.players]  # fmt: skip
        return [*out, Item("Back to the game", self.back)]

    def _state(self, name: str) -> Any:
        from kiosk.ui import theme
        from kiosk.ui.formula_session import OVER

        kept = self.cricket.side_games.get(name)
        if kept is None or kept.session.phase == OVER:
            return None
        return lambda: ("goes on", theme.DIM)

    def play(self, name: str) -> None:
        self.kiosk.stack.pop()
        side_game_of(self.kiosk, self.cricket, name)


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
    """``4`` on the keypad (Esc, the board's MENU) during a game. The clock runs on,
    shown here; when it runs out the menu goes and the game takes the timeout (the
    loss, or a duel's automatic move), as it would have without the menu. A player
    alone who ends a game once they have seen digits loses it
    (``FormulaSession.concede``): a qualification cannot be kept off the standings by
    ending it. Before any digits were shown (a rematch started by mistake) the game
    is just ended: abandoned, no result, and the item does not say "counts as lost"."""

    name = "formula-pause"

    def __init__(self, kiosk: Any, game_screen: Any) -> None:
        super().__init__(kiosk, game_screen)
        self._second = -1

    @property
    def session(self) -> FormulaSession:
        session: FormulaSession = self.game_screen.session
        return session

    @property
    def subtitle(self) -> str:  # type: ignore[override]
        return "The clock keeps running: {}" if self._running() else ""  # (none runs)

    @property
    def subtitle_args(self) -> tuple[object, ...]:  # type: ignore[override]
        from kiosk.ui.screens.formula_view import clock_text

        return (clock_text(self.session.remaining(self.game_screen.now())),)

    def _running(self) -> bool:
        return self.session.phase == PLAYING and self.session.deadline is not None

    def items(self) -> list[Item]:
        return [Item("Back to the game", self.back), self.end_item()]

    def key(self, event: KeyAction, items: list[Item]) -> None:
        if (event.name == "digit" and event.digit == 4) or event.name == "left":
            self.back()  # the key that opened it (4, or 4 with NumLock off) closes it
            return
        super().key(event, items)

    def _concedes(self) -> bool:
        s = self.session
        return len(s.players) == 1 and not s.over and s.digits_seen

    def end_item(self) -> Item:
        if not self._concedes():
            return super().end_item()
        end = ("Really end the game? It counts as lost: choose again" if self.confirm_end
               else "End game (counts as lost)")  # fmt: skip
        return Item(end, self.end_game)

    def _league_result_lost(self) -> bool:
        return not self._concedes() and super()._league_result_lost()  # (a loss counts)

    def end_game(self) -> None:
        if self.confirm_end and self._concedes() and self.session.concede(self.game_screen.now()):
            # Lost, and shown so, as a game lost on time: its end screen (and the
            # attract screen's list) say it, and Enter plays again or / goes to the menu.
            self.game_screen.end_at = self.game_screen.now()
            self.back()
            return
        super().end_game()

    def update(self, now: float) -> None:
        if not self._running():
            return
        screen = self.game_screen
        screen.clock = max(screen.clock, now)  # (the game's clock: it never goes back)
        now = screen.clock
        screen.play(self.session.update(now))  # the warning, the timeout
        if not self._running():  # the time ran out: the game shows what it did
            self.back()
            return
        second = int(self.session.remaining(now) + 0.999)
        if second != self._second:
            self._second, self.dirty = second, True

    def wake_at(self) -> float | None:
        deadline = self.session.deadline
        if not self._running() or deadline is None:
            return None
        due = self.session.draft_due  # (the formula typed, saved by ``update``)
        tick = next_second(self.game_screen.now(), deadline)
        return tick if due is None else min(tick, due)


def rematch_setup(setup: FormulaSetup) -> FormulaSetup:
    """The same game again with new digits."""
    return replace(setup, digits=(), seed=None)
