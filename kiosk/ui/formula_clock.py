"""The answering player's clock in formula darts: when it runs out, the warning at
10 s left, and the time left saved to the game log about once a second, so that a
restart gives the player what was left (``limit``). No clock of its own: every call
gets ``now`` (``time.monotonic()`` in the app, anything in tests)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.ui.games import GameLog

log = logging.getLogger("kiosk.game")

CLOCK_SAVE_EVERY = 1.0  # s between saves of a running clock
WARN_AT = 10.0  # s left: red clock and a warning sound


class TurnClock:
    def __init__(self, budget: tuple[int, float] | None = None) -> None:
        """``budget``: a resumed game's saved clock (seat, seconds left)."""
        self.budget = budget
        self.deadline: float | None = None  # None: no clock runs
        self.paused_at: float | None = None  # (set aside: see ``pause``)
        self.warned = False
        self._saved_at = 0.0

    def limit(self, seat: int, full: float) -> float:
        """The time for ``seat``'s turn: ``full``, or, once, what a saved game had left
        for the player whose turn it was (at least 1 s)."""
        limit = self.peek(seat, full)
        self.budget = None
        return limit

    def peek(self, seat: int, full: float) -> float:
        """What ``limit`` will give ``seat``, without using the saved time up."""
        if self.budget is None:
            return full
        saved_seat, left = self.budget
        return max(1.0, min(full, left)) if saved_seat == seat else full

    def start(self, now: float, limit: float) -> None:
        self.deadline = now + limit
        self.warned = limit <= WARN_AT

    def stop(self) -> None:
        self.deadline = None
        self.paused_at = None

    def pause(self, now: float) -> None:
        """Stopped with its time left kept (``resume`` runs it on from there)."""
        if self.deadline is not None and self.paused_at is None:
            self.paused_at = now

    def resume(self, now: float) -> None:
        if self.deadline is not None and self.paused_at is not None:
            self.deadline += max(0.0, now - self.paused_at)
        self.paused_at = None

    def expired(self, now: float) -> bool:
        return self.deadline is not None and now >= self.deadline

    def warn(self, now: float) -> bool:
        """True once per turn, when ``WARN_AT`` seconds or less are left."""
        if self.deadline is None or self.warned or self.deadline - now > WARN_AT:
            return False
        self.warned = True
        return True

    def save(self, game_log: GameLog, seat: int, left: float, now: float, force: bool) -> None:
        """``left`` for ``seat`` into the log, at most once a second unless ``force``."""
        if not force and now - self._saved_at < CLOCK_SAVE_EVERY:
            return
        self._saved_at = now
        try:
            game_log.save_clock(seat, left)
        except Exception as e:  # never stops the game; the log's failure raises the banner
            log.warning("clock not saved: %s", e)

    @staticmethod
    def save_stopped(game_log: GameLog) -> None:
        """No clock runs now (seat -1): a restart must not hand the last player's time
        left to the next one."""
        try:
            game_log.save_clock(-1, 0.0)
        except Exception as e:
            log.warning("clock not saved: %s", e)
