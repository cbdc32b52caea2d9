"""The two scoring rule sets of formula darts (rules.md section 2).

``CLASSIC`` (seed 000, the default) and ``DISTANCE`` (seed 001) share the parameters
and the score update ``new score = |score - points|``; they differ in how a result
becomes points, and in how a duel ends when ``max_rounds`` pass with nobody at 0.
Variants are ``dataclasses.replace(CLASSIC, max_rounds=10)``; ``rules_by_name`` finds
a rule set by its name.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Rules(ABC):
    """Parameters shared by both rule sets; subclasses say how a result scores."""

    name: str
    start: int = 501
    goal: int = 100
    bonus: int = 50
    max_rounds: int = 7
    time_limit: int = 120  # seconds for a move in each round
    # How a duel ends after max_rounds with neither player at 0: a draw (seed 000) or a
    # loss for both (seed 001).
    both_lose_at_max_rounds: bool = False

    def __post_init__(self) -> None:
        for field in ("start", "goal", "max_rounds", "time_limit"):
            if getattr(self, field) < 1:
                raise ValueError(f"{field} must be at least 1, not {getattr(self, field)}")
        if self.bonus < 0:
            raise ValueError(f"bonus can't be negative, not {self.bonus}")

    @property
    def min_rounds(self) -> int:
        """The fewest rounds that can bring ``start`` to 0: a perfect game."""
        return math.ceil(self.start / (self.goal + self.bonus))

    def can_finish(self, score: int, rounds: int) -> bool:
        """Can ``score`` come to exactly 0 in ``rounds`` rounds, as far as the points
        allow (whatever digits come)? A round's points are any whole number below
        ``goal`` (results below the goal or between its multiples, negatives too), or
        ``goal + bonus``; ``goal`` itself only with no bonus. So one round finishes 0-99
        or 150 (not 100: it earns 150 and bounces to 50), two rounds 0-249 or 300, three
        0-399 or 450 (not 424)."""
        if rounds <= 0 or score < 0:
            return score == 0 and rounds >= 0
        low = self.goal - 1 if self.bonus else self.goal  # every points value up to this
        spans = _finishing(low, self.goal + self.bonus, rounds)
        return any(first <= score <= last for first, last in spans)

    @abstractmethod
    def points(self, result: int) -> int:
        """The points a formula's result earns this round."""

    @staticmethod
    def next_score(score: int, points: int) -> int:
        """Seed 001 rule 7: overshooting 0 bounces back (34 - 39 -> 5)."""
        return abs(score - points)


@dataclass(frozen=True)
class ClassicRules(Rules):
    """Seed 000: points grow as the result nears the goal or any multiple of it.

    ``rest = result mod goal``; above the goal ``points = goal - rest``, otherwise
    ``points = result``; exactly ``goal`` points earn the bonus. Python's ``%`` and
    PHP's differ for negative numbers, but ``rest`` is used only when the result is
    above the (positive) goal, so they never disagree here; a negative result is at or
    below the goal and scores itself: negative points, which raise the score.
    """

    name: str = "classic"

    def points(self, result: int) -> int:
        points = self.goal - result % self.goal if result > self.goal else result
        if points == self.goal:
            points += self.bonus
        return points


@dataclass(frozen=True)
class DistanceRules(Rules):
    """Seed 001: ``points = goal - |result - goal|``, plus the bonus for hitting the goal."""

    name: str = "distance"
    both_lose_at_max_rounds: bool = True

    def points(self, result: int) -> int:
        points = self.goal - abs(result - self.goal)
        if result == self.goal:
            points += self.bonus
        return points


CLASSIC: Rules = ClassicRules()
DISTANCE: Rules = DistanceRules()
RULE_SETS: dict[str, Rules] = {CLASSIC.name: CLASSIC, DISTANCE.name: DISTANCE}


def rules_by_name(name: str) -> Rules:
    """``"classic"`` or ``"distance"`` (any case) -> the rule set with default parameters."""
    try:
        return RULE_SETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise ValueError(f"unknown rule set {name!r}: choose one of {known}") from None


@lru_cache(maxsize=256)
def _finishing(low: int, top: int, rounds: int) -> tuple[tuple[int, int], ...]:
    """The scores that come to 0 within ``rounds`` rounds, as sorted disjoint
    ``(first, last)`` spans (``Rules.can_finish``): a score x comes to y when
    |x - p| = y for some points p: p = x - y (any value up to ``low``: every x up to
    low + y), or p = top (x = top + y, or top - y). A few spans whatever the start, and
    computed once per rounds left: the formula screen asks for every points value the
    round's digits can earn, on every redraw."""
    spans = [(0, 0)]
    for done in range(rounds):
        most = spans[-1][1]
        if len(spans) == 1 and top <= most + low + 1:
            # one span [0, most] that its shift by ``top`` joins: from here each round
            # adds ``top`` (>= low) to its end, in closed form
            return ((0, most + (rounds - done) * top),)
        new = [(0, low + most)]
        new += [(a + top, b + top) for a, b in spans]
        new += [(max(0, top - b), top - a) for a, b in spans if a <= top]
        spans = _merged(new)
    return tuple(spans)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
