"""Per-player Cricket statistics: the running tally and the ``CricketStats`` report.

Definitions (rules.md §Statistics, with the choices where it is silent):

- ``marks`` are *scoring* marks: marks that closed part of a target or scored points.
  Marks on a closed target, and surplus marks that score nothing (no opponent open, or
  the no-score variant), do not count.
- ``mpr`` = marks / darts * 3, computed as marks * 3 / darts (exactly 7.2, not
  7.199999999999999; 0.0 before the first dart). Darts not thrown because a
  turn was ended early do not count.
- ``rounds`` = turns taken: a turn counts once its first dart lands or it is ended.
- ``triples`` counts trebles on the Cricket numbers 15-20, closed or not.
- ``white_horses``: three trebles in one turn, each on a target the thrower did not own
  before that dart (so three different targets).
- ``hat_tricks``: three bulls (outer or inner, closed or not) in one turn.
- ``five_mark_turns`` .. ``nine_mark_turns``: turns with exactly that many scoring
  marks. The current turn counts as it stands, so a winning turn is included.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

_FIRST_COUNTED_TURN = 5
_LAST_COUNTED_TURN = 9


@dataclass(frozen=True, slots=True)
class CricketStats:
    """A player's (or a team's) figures at one moment of a game."""

    darts: int = 0
    rounds: int = 0
    points: int = 0
    marks: int = 0
    mpr: float = 0.0
    triples: int = 0
    white_horses: int = 0
    hat_tricks: int = 0
    five_mark_turns: int = 0
    six_mark_turns: int = 0
    seven_mark_turns: int = 0
    eight_mark_turns: int = 0
    nine_mark_turns: int = 0

    @property
    def mark_turns(self) -> dict[int, int]:
        """``{5: n5, 6: n6, ..., 9: n9}``."""
        return {
            5: self.five_mark_turns,
            6: self.six_mark_turns,
            7: self.seven_mark_turns,
            8: self.eight_mark_turns,
            9: self.nine_mark_turns,
        }


@dataclass(frozen=True, slots=True)
class Tally:
    """Running counters for one player; part of the frozen game state."""

    darts: int = 0
    rounds: int = 0
    marks: int = 0
    triples: int = 0
    white_horses: int = 0
    hat_tricks: int = 0
    mark_turns: tuple[int, ...] = (0,) * (_LAST_COUNTED_TURN - _FIRST_COUNTED_TURN + 1)

    def after_dart(
        self,
        *,
        first_of_turn: bool,
        turn_marks_before: int,
        scoring_marks: int,
        cricket_triple: bool,
        white_horse: bool,
        hat_trick: bool,
    ) -> Tally:
        buckets = list(self.mark_turns)
        after = turn_marks_before + scoring_marks
        if after != turn_marks_before:
            # The turn moves from one n-mark bucket to the next as its darts land.
            if _FIRST_COUNTED_TURN <= turn_marks_before <= _LAST_COUNTED_TURN:
                buckets[turn_marks_before - _FIRST_COUNTED_TURN] -= 1
            if _FIRST_COUNTED_TURN <= after <= _LAST_COUNTED_TURN:
                buckets[after - _FIRST_COUNTED_TURN] += 1
        return replace(
            self,
            darts=self.darts + 1,
            rounds=self.rounds + (1 if first_of_turn else 0),
            marks=self.marks + scoring_marks,
            triples=self.triples + (1 if cricket_triple else 0),
            white_horses=self.white_horses + (1 if white_horse else 0),
            hat_tricks=self.hat_tricks + (1 if hat_trick else 0),
            mark_turns=tuple(buckets),
        )

    def after_empty_turn(self) -> Tally:
        """A turn ended before its first dart still counts as a round taken."""
        return replace(self, rounds=self.rounds + 1)


def report(tallies: list[Tally], points: int) -> CricketStats:
    """Sum ``tallies`` (one player, or a team's players) into a ``CricketStats``."""
    darts = sum(t.darts for t in tallies)
    marks = sum(t.marks for t in tallies)
    buckets = [sum(t.mark_turns[i] for t in tallies) for i in range(len(Tally().mark_turns))]
    return CricketStats(
        darts=darts,
        rounds=sum(t.rounds for t in tallies),
        points=points,
        marks=marks,
        mpr=marks * 3 / darts if darts else 0.0,
        triples=sum(t.triples for t in tallies),
        white_horses=sum(t.white_horses for t in tallies),
        hat_tricks=sum(t.hat_tricks for t in tallies),
        five_mark_turns=buckets[0],
        six_mark_turns=buckets[1],
        seven_mark_turns=buckets[2],
        eight_mark_turns=buckets[3],
        nine_mark_turns=buckets[4],
    )
