"""A game log kept in memory: ``LiveGame``'s interface with no disk.

The sessions play on one of these when there is no database (tests, a side game, or a
kiosk whose database could not be opened: then a banner says results are not saved).
Inputs go through ``kiosk.domain.replay.apply`` exactly as ``LiveGame`` does them, so
the events held here always replay to ``engine``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kiosk.adapters.store.live import require_last_dart
from kiosk.domain.darts import Dart
from kiosk.domain.replay import (
    Engine,
    GameEvent,
    SeatResult,
    apply,
    correction,
    new_game,
    seat_results,
)


class MemoryGame:
    id = None  # not stored

    def __init__(
        self,
        kind: str,
        settings: Mapping[str, Any],
        players: Sequence[str],
        events: Sequence[GameEvent] = (),
    ) -> None:
        self.kind = kind
        self.settings = dict(settings)
        self.players = tuple(players)
        self.engine: Engine = new_game(kind, self.settings, self.players)
        self.events: list[GameEvent] = []
        self.clock: tuple[int, float] | None = None
        self.draft: tuple[int, int, tuple[str, ...]] | None = None  # seat, seq, keys
        self.status = "playing"
        self.failure = ""  # a memory log never fails to save
        for event in events:
            self._do(event)

    @property
    def seq(self) -> int:
        return len(self.events)

    @property
    def last_event(self) -> GameEvent | None:
        return self.events[-1] if self.events else None

    def _do(self, *events: GameEvent) -> Any:
        """The events on the engine and the log, all or (one refused) none."""
        if self.status != "playing":
            raise ValueError(f"the game is {self.status}: no more inputs")
        result, done = None, 0
        try:
            for event in events:
                result = apply(self.engine, event, self.players)
                self.events.append(event)
                done += 1
        except BaseException:
            if done:
                del self.events[-done:]
                self.engine = new_game(self.kind, self.settings, self.players)
                for event in self.events:
                    apply(self.engine, event, self.players)
            raise
        self.draft = None  # (typed for the game as it was: as the store's log does)
        return result

    def dart(self, dart: Dart | str) -> None:
        self._do(GameEvent.dart(dart))

    def end_turn(self) -> None:
        self._do(GameEvent.turn_end())

    def replace_last(self, dart: Dart | str) -> None:
        require_last_dart(self.engine)
        self._do(GameEvent.undo(), GameEvent.dart(dart))

    def correct(self, index: int, dart: Dart | str) -> tuple[Any, ...]:
        events, dropped = correction(self.settings, self.players, self.engine, index, dart)
        self._do(*events)
        return dropped

    def submit(self, seat: int, formula: str) -> Any:
        return self._do(GameEvent.formula(seat, formula))

    def timeout(self, seat: int) -> Any:
        return self._do(GameEvent.timeout(seat))

    def concede(self, seat: int) -> Any:
        return self._do(GameEvent.concede(seat))

    def undo(self) -> Any:
        return self._do(GameEvent.undo())

    def save_clock(self, seat: int, remaining_s: float) -> None:
        self.clock = (seat, max(0.0, remaining_s))

    def save_draft(self, seat: int, tokens: Sequence[str]) -> None:
        self.draft = (seat, self.seq, tuple(tokens)) if tokens else None

    def is_over(self) -> bool:
        return self.engine.outcome() is not None

    def finish(self) -> list[SeatResult]:
        results = seat_results(self.engine, self.players)
        self.status = "finished"
        return results

    def abandon(self) -> None:
        self.status = "abandoned"
