"""The one place where inputs change a game: ``CricketSession``.

Screens never call the engine's ``push``/``pop``: every dart, turn end and undo goes
through :meth:`CricketSession.throw`, :meth:`next_player` and :meth:`undo`, which
first hand the input to the ``recorder`` (the SQLite store of issue 7 appends it there,
committed, before the screen shows it), then apply it to the engine and report what
happened (the sounds to play, a message). No pygame here.

The engine passes the turn by itself after the third dart. A bar machine then shows
the finished turn until the player has pulled the darts, so the session keeps the
last turn "on hold" for the scoreboard until the next input: NEXT during the hold
only ends the hold (it must not skip the next player), a dart during the hold is the
next player's first dart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.domain.darts import Dart

log = logging.getLogger("kiosk.game")

Recorder = Callable[[str, str], None]  # (kind: "dart"|"end"|"undo", value text)


@dataclass(frozen=True)
class CricketSetup:
    """What the menus chose: enough to start (or restart) a game."""

    names: tuple[str, ...] = ("Player 1", "Player 2")
    variant: str = "standard"
    round_limit: int = 20
    single_bull: bool = False
    teams: bool = False  # 4 names as two teams: names[0]&names[2] vs names[1]&names[3]

    def team_lists(self) -> list[list[str]] | None:
        if not self.teams or len(self.names) != 4:
            return None
        return [[self.names[0], self.names[2]], [self.names[1], self.names[3]]]


@dataclass
class Feedback:
    """What one input did, for the screen: sounds and a one-line message."""

    accepted: bool
    sounds: list[str] = field(default_factory=list)
    message: str = ""


@dataclass(frozen=True)
class LastTurn:
    player: str
    darts: tuple[Dart, ...]


class CricketSession:
    kind = "cricket"

    def __init__(self, setup: CricketSetup, recorder: Recorder | None = None) -> None:
        from kiosk.domain.cricket import CricketGame  # built at start, not at import

        self.setup = setup
        self.recorder = recorder
        self.game: Any = CricketGame(
            list(setup.names),
            variant=setup.variant,
            round_limit=setup.round_limit,
            single_bull=setup.single_bull,
            teams=setup.team_lists(),
        )
        self.hold: LastTurn | None = None
        self.revision = 0  # bumped on every change; screens redraw when it moves

    # -- questions -------------------------------------------------------------------

    @property
    def players(self) -> Sequence[str]:
        return tuple(self.game.players)

    @property
    def over(self) -> bool:
        return self.game.outcome() is not None

    @property
    def shown_player(self) -> str:
        """The player the scoreboard highlights: during a hold, the one who just threw."""
        return self.hold.player if self.hold else str(self.game.current_player)

    @property
    def shown_darts(self) -> tuple[Dart, ...]:
        return self.hold.darts if self.hold else tuple(self.game.darts_this_turn)

    # -- inputs ----------------------------------------------------------------------

    def _record(self, kind: str, value: str) -> None:
        if self.recorder is not None:
            self.recorder(kind, value)

    def throw(self, dart: Dart, source: str = "board") -> Feedback:
        game = self.game
        if self.over:
            return Feedback(False, message="game over")
        player = str(game.current_player)
        darts_before = tuple(game.darts_this_turn)
        before = {t: game.marks(player, t) for t in game.targets}
        closed_before = {t for t in game.targets if game.is_closed(t)}
        self._record("dart", str(dart))
        game.push(dart)
        self.revision += 1
        passed = not self.over and str(game.current_player) != player
        self.hold = LastTurn(player, (*darts_before, dart)) if passed else None
        log.info("dart %s by %s (%s)", dart, player, source)
        sounds = self._sounds(dart, player, before, closed_before)
        outcome = game.outcome()
        if outcome is not None:
            log.info("game over: winner %s (%s)", outcome.winner, outcome.reason)
        return Feedback(True, sounds)

    def _sounds(
        self, dart: Dart, player: str, before: dict[int, int], closed_before: set[int]
    ) -> list[str]:
        game = self.game
        if game.outcome() is not None:
            return ["win"]
        if dart.number in before:
            newly_closed = game.is_closed(dart.number) and dart.number not in closed_before
            newly_owned = before[dart.number] < 3 <= game.marks(player, dart.number)
            if newly_closed or newly_owned:
                return ["close"]
            if dart.is_bull:
                return ["bull"]
            if dart.multiplier == 3:
                return ["triple"]
            return ["hit"]
        return ["miss"]

    def next_player(self) -> Feedback:
        if self.over:
            return Feedback(False, message="game over")
        if self.hold is not None:
            # The engine already passed the turn after the third dart.
            self.hold = None
            self.revision += 1
            return Feedback(True)
        self._record("end", "END")
        self.game.end_turn()
        self.revision += 1
        log.info("turn ended early; %s to throw", self.game.current_player)
        return Feedback(True)

    def undo(self) -> Feedback:
        if not self.game.history:
            return Feedback(False, message="nothing to undo")
        self._record("undo", "")
        entry = self.game.pop()
        self.hold = None
        self.revision += 1
        log.info("undo %s; %s to throw", entry, self.game.current_player)
        return Feedback(True, ["undo"])
