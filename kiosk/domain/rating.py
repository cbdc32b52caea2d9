"""Elo ratings from rated results.

- Everyone starts at ``START`` = 1500; ``K`` = 32.
- Two players (a Cricket league game, a formula duel): standard Elo. The expected
  score of A against B is ``1 / (1 + 10 ** ((Rb - Ra) / 400))``; A's new rating is
  ``Ra + K * (S - E)`` with S = 1 for a win, 0.5 for a draw, 0 for a loss. Both use
  the ratings from before the game.
- Three or four players (Cricket): the game counts as every pair of players from
  different sides meeting once, scored by placings (the better placing wins the pair,
  equal placings draw). A player's ``S - E`` over their pairs is averaged and
  multiplied by K: a game moves a rating at most K, as a two-player game does, and
  with two players this is exactly standard Elo. All pairs use the ratings from before
  the game (the order of the pairs does not matter). Team games (2 vs 2): partners are
  the same side and never a pair; each player meets each opponent with their own
  rating.
- Solo formula qualification: a game against a fixed par of ``PAR`` = 1500 that never
  changes: a win is a win against par, a loss a loss.
- A formula duel that both players lose (distance rules, neither at 0 after the last
  round) is rated as a draw: their placings are equal (``replay._formula_results``), so
  the lower-rated player gains a little, as in any draw.

Ratings are floats; screens round them. Only rated games reach this module; the caller
decides what is rated (training never is).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

START = 1500.0
K = 32.0
PAR = 1500.0

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Seat(Generic[P]):
    """One player in a finished game: who, which side, which placing (1 = first)."""

    player: P
    placing: int
    side: Hashable = None  # None: the player is their own side

    def side_key(self) -> Hashable:
        return ("player", self.player) if self.side is None else ("side", self.side)


def expected(rating: float, opponent: float) -> float:
    """The expected score (0..1) of ``rating`` against ``opponent``."""
    return float(1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0)))


def two_player(a: float, b: float, score_a: float, k: float = K) -> tuple[float, float]:
    """New ratings of A and B after a game; ``score_a`` is 1 (A won), 0.5 or 0."""
    if score_a not in (0.0, 0.5, 1.0):
        raise ValueError(f"score must be 0, 0.5 or 1, not {score_a!r}")
    delta = k * (score_a - expected(a, b))
    return a + delta, b - delta


def against_par(rating: float, won: bool, k: float = K, par: float = PAR) -> float:
    """New rating after a solo qualification game played against a fixed par."""
    return rating + k * ((1.0 if won else 0.0) - expected(rating, par))


def by_placings(
    ratings: Mapping[P, float], seats: Sequence[Seat[P]], k: float = K
) -> dict[P, float]:
    """New ratings after a game of 2 or more sides, from placings (see the module doc).

    ``ratings`` maps each player to their rating before the game (missing: ``START``).
    """
    sides = {s.side_key() for s in seats}
    if len(sides) < 2:
        raise ValueError("a rated game needs at least two sides")
    if len({s.player for s in seats}) != len(seats):
        raise ValueError("a player appears twice in the game")
    before = {s.player: float(ratings.get(s.player, START)) for s in seats}
    out: dict[P, float] = {}
    for me in seats:
        total = 0.0
        opponents = 0
        for other in seats:
            if other.side_key() == me.side_key():
                continue
            opponents += 1
            if me.placing < other.placing:
                score = 1.0
            elif me.placing == other.placing:
                score = 0.5
            else:
                score = 0.0
            total += score - expected(before[me.player], before[other.player])
        out[me.player] = before[me.player] + k * total / opponents
    return out
