"""A game log kept in memory: ``LiveGame``'s interface with no disk.

The sessions play on one of these when there is no database (tests, a side game, or a
kiosk whose database could not be opened: then a banner says results are not saved).
Inputs go through ``kiosk.domain.replay.apply`` exactly as ``LiveGame`` does them, so
the events held here always replay to ``engine``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
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

log = logging.getLogger("kiosk.store")


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


class KeptGame(MemoryGame):
    """A ``MemoryGame`` whose whole state (``state``: settings, events, clock, formula
    typed) is handed to ``keep`` after each change: a side game kept with the Cricket
    game beside it (``Games.save_side_game``), which has no log of its own. A keep that
    fails is logged and the game goes on (it is a side game: the match is what counts)."""

    def __init__(
        self,
        kind: str,
        settings: Mapping[str, Any],
        players: Sequence[str],
        events: Sequence[GameEvent] = (),
        *,
        keep: Callable[[dict[str, Any]], None],
    ) -> None:
        self._keep: Callable[[dict[str, Any]], None] | None = None  # (not while replaying)
        super().__init__(kind, settings, players, events)
        self._keep = keep

    @classmethod
    def from_state(
        cls,
        state: Mapping[str, Any],
        players: Sequence[str],
        keep: Callable[[dict[str, Any]], None],
    ) -> KeptGame:
        """A game back from its kept ``state`` (``ValueError`` and the like if it does not
        replay)."""
        events = [GameEvent(str(e["kind"]), dict(e["payload"])) for e in state["events"]]
        game = cls("formula", dict(state["settings"]), players, events, keep=keep)
        clock, draft = state.get("clock"), state.get("draft")
        if clock is not None:
            game.clock = (int(clock[0]), float(clock[1]))
        if draft is not None and int(draft[1]) == game.seq:
            game.draft = (int(draft[0]), int(draft[1]), tuple(str(t) for t in draft[2]))
        return game

    def state(self) -> dict[str, Any]:
        return {
            "settings": self.settings,
            "events": [{"kind": e.kind, "payload": dict(e.payload)} for e in self.events],
            "clock": None if self.clock is None else list(self.clock),
            "draft": None if self.draft is None else [*self.draft[:2], list(self.draft[2])],
        }

    def _kept(self) -> None:
        if self._keep is None:
            return
        try:
            self._keep(self.state())
        except Exception as e:
            log.error("side game not kept: %s", e)

    def _do(self, *events: GameEvent) -> Any:
        result = super()._do(*events)
        self._kept()
        return result

    def save_clock(self, seat: int, remaining_s: float) -> None:
        super().save_clock(seat, remaining_s)
        self._kept()

    def save_draft(self, seat: int, tokens: Sequence[str]) -> None:
        super().save_draft(seat, tokens)
        self._kept()
