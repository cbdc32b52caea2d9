"""A game in play: the engine the screen draws, and its log, kept in step.

Every input goes to the engine first (which refuses what the rules refuse, so the log
only ever holds events that replay), then to the log, committed; only then does the
call return and the screen may show it. If the commit fails, the engine input is taken
back and ``NotSaved`` raised: the screen never shows what the disk does not hold. (An
input the engine refuses raises the engine's ``ValueError`` and records nothing.)

``MemoryGame`` (``memory.py``) is the same interface with no disk, for tests and for a
kiosk whose database cannot be opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kiosk.adapters.store.games import GameError, GameRecord, Games
from kiosk.domain.cricket import CricketGame
from kiosk.domain.darts import Dart
from kiosk.domain.replay import Engine, GameEvent, SeatResult, apply, correction


class NotSaved(GameError):
    """An input whose commit failed (disk full, read-only, game closed): taken back."""


class LiveGame:
    def __init__(
        self, games: Games, record: GameRecord, engine: Engine, finish: Any, seq: int = 0
    ) -> None:
        self._games = games
        self._finish = finish
        self.record = record
        self.engine = engine
        self.seq = seq  # the sequence number of the last event committed (0: none yet)
        self.last_event: GameEvent | None = None
        self.failure = ""  # why the last write failed ("" once one succeeds): the banner

    @property
    def id(self) -> int:
        return self.record.id

    def _do(self, *events: GameEvent) -> Any:
        """The events on the engine, then committed together; what the last returned.
        Taken back from the engine if refused or not saved (``_take_back``)."""
        applied: list[tuple[GameEvent, Any]] = []
        try:
            for event in events:
                applied.append((event, apply(self.engine, event, self.record.players)))
        except BaseException:
            self._take_back(applied)
            raise
        try:
            seq = self._games.record(self.record.id, *events)
        except BaseException as e:
            self._take_back(applied)
            self.failure = str(e)
            if isinstance(e, Exception) and not isinstance(e, NotSaved):
                raise NotSaved(f"not saved: {e}") from e
            raise
        self.seq, self.last_event, self.failure = seq, events[-1], ""
        return applied[-1][1]

    def _take_back(self, applied: list[tuple[GameEvent, Any]]) -> None:
        """The engine as before these events, last first: a pop for a dart or a turn
        end, the popped input again for a Cricket undo. Never by reading the disk, which
        may be what just failed; only a formula move's undo is rebuilt from the log."""
        for event, result in reversed(applied):
            if event.kind != "undo":
                self.engine.pop()
            elif isinstance(self.engine, CricketGame):
                self.engine.apply(result)
            else:
                self.engine = self._games.replay(self.record.id)
                return

    def dart(self, dart: Dart | str) -> None:
        """Cricket: the current player's dart."""
        self._do(GameEvent.dart(dart))

    def end_turn(self) -> None:
        """Cricket: the turn ends early (NEXT button)."""
        self._do(GameEvent.turn_end())

    def replace_last(self, dart: Dart | str) -> None:
        """Cricket: the last dart taken back and ``dart`` counted in its place (the
        cameras' other reading), an undo and a dart in one commit: a power cut between
        the two would have lost the dart from a turn that showed it."""
        require_last_dart(self.engine)
        self._do(GameEvent.undo(), GameEvent.dart(dart))

    def correct(self, index: int, dart: Dart | str) -> tuple[Any, ...]:
        """Cricket: the dart at ``engine.history[index]`` replaced by ``dart`` and the
        later inputs kept, in one commit (``replay.correction``); returns the later
        inputs dropped because the game now ends before them."""
        events, dropped = correction(
            self.record.settings, self.record.players, self.engine, index, dart
        )
        self._do(*events)
        return dropped

    def submit(self, seat: int, formula: str) -> Any:
        """Formula: player at ``seat`` submits; returns what the engine returns (points).
        A refused formula raises the engine's error and records nothing."""
        return self._do(GameEvent.formula(seat, formula))

    def timeout(self, seat: int) -> Any:
        """Formula: the player at ``seat`` ran out of time."""
        return self._do(GameEvent.timeout(seat))

    def concede(self, seat: int) -> Any:
        """Formula: the player alone at ``seat`` ends the game, lost."""
        return self._do(GameEvent.concede(seat))

    def undo(self) -> Any:
        """Undoes the last input (recorded as an ``undo`` event); returns what was undone."""
        return self._do(GameEvent.undo())

    def save_clock(self, seat: int, remaining_s: float) -> None:
        """The time left on a formula clock (seat -1: none running), committed."""
        try:
            self._games.save_clock(self.record.id, seat, remaining_s)
        except Exception as e:
            self.failure = str(e)
            raise NotSaved(f"clock not saved: {e}") from e
        self.failure = ""

    def save_draft(self, seat: int, tokens: Sequence[str]) -> None:
        """Formula: the keys the player at ``seat`` has typed and not sent, committed
        (never an event: a resumed turn finds them in its editor)."""
        try:
            self._games.save_draft(self.record.id, seat, self.seq, tokens)
        except Exception as e:
            self.failure = str(e)
            raise NotSaved(f"formula typed not saved: {e}") from e
        self.failure = ""

    def is_over(self) -> bool:
        return self.engine.outcome() is not None

    def finish(self) -> list[SeatResult]:
        """Records results (and ratings if rated) once the engine has an outcome."""
        return list(self._finish(self.record.id))

    def abandon(self) -> None:
        self._games.abandon(self.record.id)


def require_last_dart(engine: Engine) -> None:
    history = getattr(engine, "history", ())
    if not history or not isinstance(history[-1], Dart):
        raise ValueError("the last input is not a dart: nothing to put in its place")
