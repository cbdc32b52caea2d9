"""The best formula for a round: ``best(3489, CLASSIC, score=424)``.

How it stays fast (all 9000 numbers in about 12 s, median about 1 ms per number, see
``bench/solver.py``):

- Values of the 1-, 2- and 3-digit pieces come from ``tables.Tables``, cached per
  digit string and shared by every number (only 1110 such strings exist).
- The whole-number results of a 4-digit number are found without formulas and with
  plain ints (``results.py``): a fraction only takes part where the result can be
  whole (``x/3 * 6`` but never ``x/3 + 2``).
- The best points (or new score) are decided by the set of results alone; a formula
  is built only for the results that reach it, by working back from the result
  (``backward.py``: ``a + b = r`` -> look up ``r - a``) over the pieces' entries in
  order of length, stopping as soon as nothing shorter can come.
- Tied results (classic without a score: every reachable multiple of 100) are tried
  in order of a cheap lower bound on their formula's length (``_least_length``), and
  the search ends once the bound reaches the shortest formula found.

The grammar explored is the one described in ``tables.py`` (no irrational
intermediates); ``reachable`` and ``best`` cover exactly that grammar. The formula
returned is the shortest the backward search finds; exotic exponents (a fraction with
a large digit range as the exponent) are tried only when nothing else makes the
result, so in such rare cases a shorter formula may exist (none in a test against
the full forward table on a sample of numbers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from itertools import compress, repeat

from kiosk.domain.formula.backward import Best, arith_back, pow_back
from kiosk.domain.formula.exact import LIMIT
from kiosk.domain.formula.results import whole_results
from kiosk.domain.formula.rules import Rules
from kiosk.domain.formula.tables import (
    Entry,
    Tables,
    call,
    leaf,
    negate,
    power,
)


@dataclass(frozen=True)
class Solution:
    formula: str
    result: int
    points: int


class Solver:
    """Holds the shared piece tables; one per process is enough (see ``shared``)."""

    def __init__(self) -> None:
        self.tables = Tables()
        self._recent: dict[int, frozenset[int]] = {}  # the last numbers' results

    # -- public ---------------------------------------------------------------------------

    def reachable(self, digits: int) -> frozenset[int]:
        found = self._recent.get(digits)
        if found is None:
            if len(self._recent) >= 64:
                self._recent.clear()
            found = self._recent[digits] = self._reachable(digits)
        return found

    def _reachable(self, digits: int) -> frozenset[int]:
        s = _digit_string(digits)
        found: set[int] = set()
        if s[0] != "0":
            found.add(int(s))
        halves = self.tables.halves
        for k in range(1, len(s)):
            whole_results(halves(s[:k]), halves(s[k:]), found)
        found = {v for v in found if -LIMIT <= v <= LIMIT}
        found.update([-v for v in found])
        isqrt = math.isqrt
        todo = [r for v in found if v > 1 and (r := isqrt(v)) * r == v]
        while todo:
            r = todo.pop()
            if r not in found:
                found.update((r, -r))
                if r > 1 and (q := isqrt(r)) * q == r:
                    todo.append(q)
        return frozenset(found)

    def best(self, digits: int, rules: Rules, score: int | None = None) -> Solution:
        results = list(self.reachable(digits))
        points = list(map(rules.points, results))
        if score is None:
            top = max(points)
            candidates = list(compress(results, map(top.__eq__, points)))
        else:
            after = list(map(rules.next_score, repeat(score), points))
            candidates = list(compress(results, map(min(after).__eq__, after)))
        s = _digit_string(digits)
        # Shortest formula among the tied results: try the likely short ones first and
        # stop when no formula of the rest can be shorter than the one in hand.
        candidates.sort(key=lambda r: (_least_length(s, r), abs(r), r))
        chosen: tuple[Entry, int] | None = None
        for r in candidates:
            if chosen is not None and _least_length(s, r) >= chosen[0].length:
                break
            e = self.formula_for(s, r, shorter_than=None if chosen is None else chosen[0].length)
            if e is not None and (chosen is None or e.length < chosen[0].length):
                chosen = (e, r)
        if chosen is None:  # a value in reachable always has a formula: a bug if not
            raise RuntimeError(f"solver found no formula for {digits} = {candidates[0]}")
        return Solution(chosen[0].formula, chosen[1], rules.points(chosen[1]))

    def formula_for(self, s: str, r: int, shorter_than: int | None = None) -> Entry | None:
        """The shortest formula found for the whole number ``r`` from the digits ``s``;
        with ``shorter_than``, only a formula shorter than that (else None)."""
        known = self.reachable(int(s))
        limit = LIMIT if shorter_than is None else shorter_than
        found = self._formula_for(s, r, known, limit, exotic=False)
        if found is None and shorter_than is None:
            found = self._formula_for(s, r, known, limit, exotic=True)
        return found

    def _formula_for(
        self, s: str, r: int, known: frozenset[int], limit: int, exotic: bool
    ) -> Entry | None:
        found: Entry | None = None
        for sign in (1, -1):
            target = sign * r
            for depth in range(6):  # r = +-sqrt(sqrt(...(d)))
                if depth and target < 0:
                    break
                d = target ** (2**depth)
                if d > LIMIT or (depth and d == target):
                    break
                if d not in known:
                    continue
                extra = 6 * depth + (sign < 0)  # "sqrt(...)" and "-"
                if extra + _least_length(s, d) >= limit:
                    continue
                e = self._direct(s, d, exotic, limit - extra)
                if e is None:
                    continue
                for _ in range(depth):
                    e = call("sqrt", e)
                if sign < 0:
                    e = negate(e)
                if e.length < limit and (found is None or e.length < found.length):
                    found = e
                    limit = e.length
        return found

    # -- formulas, backward ------------------------------------------------------------------

    def _direct(self, s: str, r: int, exotic: bool, limit: int) -> Entry | None:
        """Shortest formula shorter than ``limit`` for ``r`` that is the leaf or one
        operation at the top.

        ``exotic``: also try every pair for ``pow`` (fractional exponents the backward
        search does not solve for); slow, used only when nothing else is found.
        """
        best = Best(limit)
        if str(r) == s:
            e = leaf(s)
            if e is not None:
                best.offer(e)
        for k in range(1, len(s)):
            if best.limit <= 5:  # nothing with an operator can be shorter
                break
            left, right = self.tables.ranked(s[:k]), self.tables.ranked(s[k:])
            arith_back(left, right, r, best)
            if best.limit > 10:  # "pow(a,b)" is at least 10 characters
                pow_back(left, right, r, best)
        if exotic:
            for k in range(1, len(s)):
                left_table, right_table = self.tables.table(s[:k]), self.tables.table(s[k:])
                for a, ea in left_table.items():
                    for b, eb in right_table.items():
                        if power(a, b) == r:
                            best.offer(call("pow", ea, eb))
        return best.entry


# Every formula of 4 digits with only + - * / and brackets (no pow, no sqrt) has a value
# of at most 9801 in size, or is the 4-digit number itself (checked for all 9000
# numbers; a test repeats the check on the extreme ones). pow and sqrt each cost 6
# characters more, so a value above 9999 in size needs a formula of at least 10
# characters: "pow(3,489)", "sqrt(4598)".
PLAIN_MAX = 9999


def _least_length(s: str, v: int) -> int:
    """A lower bound on the length of any formula of the digits ``s`` worth ``v``."""
    if str(v) == s:
        return 4
    return 10 if abs(v) > PLAIN_MAX else 5


def _digit_string(digits: int) -> str:
    if type(digits) is not int or not 1000 <= digits <= 9999:
        raise ValueError(f"digits must be a number from 1000 to 9999, not {digits!r}")
    return str(digits)


@cache
def shared() -> Solver:
    """One solver per process, built on first use (its tables fill as numbers are solved)."""
    return Solver()


def best(digits: int, rules: Rules, score: int | None = None) -> Solution:
    """The formula leaving the lowest new score (ties: shorter), or without ``score``
    the one earning the most points. Its formula passes ``evaluate`` with its result."""
    return shared().best(digits, rules, score)


def reachable(digits: int) -> frozenset[int]:
    """Every whole result of the explored grammar (see ``tables.py``) for ``digits``."""
    return shared().reachable(digits)
