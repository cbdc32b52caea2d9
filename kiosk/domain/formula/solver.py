"""The best formula for a round: ``best(3489, CLASSIC, score=424)``.

How it stays fast (all 9000 numbers in seconds, see ``bench/solver.py``):

- Values of the 1-, 2- and 3-digit pieces come from ``tables.Tables``, cached per
  digit string and shared by every number (only 1110 such strings exist).
- The whole-number results of a 4-digit number are found without formulas, on the
  non-negative halves of the pieces' tables (they are closed under negation, so
  ``a - b``, ``a * b`` ... over signed values are ``+-(x - y)``, ``+-x*y`` ... over
  non-negative ones), and with plain ints wherever the values are whole. A fraction
  only takes part where the result can be whole (``x/3 * 6`` but never ``x/3 + 2``).
- Only for the few best results is a formula built, by working back from the result
  (``a + b = r`` -> look up ``r - a``) rather than by trying every pair.

The grammar explored is the one described in ``tables.py`` (no irrational
intermediates); ``reachable`` and ``best`` cover exactly that grammar. The formula
returned is the shortest the backward search finds; exotic exponents (a fraction with
a large digit range as the exponent) are tried only when nothing else makes the
result, so in such rare cases a shorter formula may exist.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from kiosk.domain.formula.exact import LIMIT, iroot
from kiosk.domain.formula.rules import Rules
from kiosk.domain.formula.tables import (
    Entry,
    Num,
    Tables,
    binop,
    call,
    divide,
    leaf,
    max_exponent,
    negate,
    normal,
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
        for k in range(1, len(s)):
            self._whole_results(s[:k], s[k:], found)
        found = {v for v in found if -LIMIT <= v <= LIMIT}
        found |= {-v for v in found}
        todo = [v for v in found if v > 1]
        while todo:
            r = iroot(todo.pop(), 2)
            if r is not None and r not in found:
                found.update((r, -r))
                if r > 1:
                    todo.append(r)
        return frozenset(found)

    def best(self, digits: int, rules: Rules, score: int | None = None) -> Solution:
        results = self.reachable(digits)
        if score is None:

            def key(r: int) -> int:
                return -rules.points(r)
        else:
            start = score

            def key(r: int) -> int:
                return rules.next_score(start, rules.points(r))

        keyed = [(key(r), r) for r in results]
        best_key = min(k for k, _ in keyed)
        candidates = sorted((r for k, r in keyed if k == best_key), key=abs)
        s = _digit_string(digits)
        chosen: tuple[Entry, int] | None = None
        for r in candidates:
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
                # a direct formula is at least 4 digits and an operator long
                extra = 6 * depth + (sign < 0)
                if extra + (4 if str(d) == s else 5) >= limit:
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

    # -- whole results, fast ----------------------------------------------------------------

    def _whole_results(self, ls: str, rs: str, out: set[int]) -> None:
        left, right = self.tables.halves(ls), self.tables.halves(rs)
        li, lf, ri, rf = left.ints, left.fracs, right.ints, right.fracs
        for x in li:
            out.update([x + y for y in ri])
            out.update([x - y for y in ri])
            out.update([x * y for y in ri])
            out.update([x // y for y in ri if y and x % y == 0])
            if x >= 2:
                m = max_exponent(x)
                out.update([x**y for y in ri if y <= m])
            elif ri:
                out.add(1)  # pow(1, y), pow(x, 0)
                if x == 0:
                    out.add(0)
            for y in rf:
                if x % y.denominator == 0:
                    out.add(x // y.denominator * y.numerator)
                if x % y.numerator == 0:
                    out.add(x // y.numerator * y.denominator)
                _add_whole(out, power(x, y))
                _add_whole(out, power(x, -y))
        if 0 in ri and (li or lf):
            out.add(1)  # pow(a, 0)
        for xf in lf:
            q = xf.denominator
            for yi in ri:
                if yi % q == 0:
                    out.add(yi // q * xf.numerator)
                if xf.numerator == 1 and yi:
                    _add_whole(out, power(xf, -yi))
            for yf in rf:
                if yf.denominator == q:
                    _add_whole(out, normal(xf + yf))
                    _add_whole(out, normal(xf - yf))
                _add_whole(out, normal(xf * yf))
                _add_whole(out, normal(xf / yf))
                if xf.numerator == 1:
                    _add_whole(out, power(xf, -yf))

    # -- formulas, backward ------------------------------------------------------------------

    def _direct(self, s: str, r: Num, exotic: bool, limit: int) -> Entry | None:
        """Shortest formula for ``r`` that is the leaf or one operation at the top.

        ``exotic``: also try every pair for ``pow`` (fractional exponents the backward
        search does not solve for); slow, used only when nothing else is found.
        """
        found: Entry | None = None

        def offer(e: Entry) -> None:
            nonlocal found
            if found is None or e.length < found.length:
                found = e

        if str(r) == s:
            e = leaf(s)
            if e is not None:
                offer(e)
        for k in range(1, len(s)):
            if found is not None:
                limit = min(limit, found.length)
            if limit <= 5:  # nothing with an operator can be shorter
                break
            left, right = self.tables.table(s[:k]), self.tables.table(s[k:])
            self._arith_back(left, right, r, offer)
            if limit > 10:  # "pow(a,b)" is at least 10 characters
                self._pow_back(left, right, r, offer)
        if exotic:
            for k in range(1, len(s)):
                left, right = self.tables.table(s[:k]), self.tables.table(s[k:])
                for a, ea in left.items():
                    for b, eb in right.items():
                        if power(a, b) == r:
                            offer(call("pow", ea, eb))
        return found

    @staticmethod
    def _arith_back(
        left: dict[Num, Entry],
        right: dict[Num, Entry],
        r: Num,
        offer: Callable[[Entry], None],
    ) -> None:
        if len(left) <= len(right):
            for a, ea in left.items():
                for op, b in _partners_of_left(a, r, right):
                    eb_found = right.get(b)
                    if eb_found is not None:
                        offer(binop(op, ea, eb_found))
        else:
            for b, eb in right.items():
                for op, a in _partners_of_right(b, r, left):
                    ea_found = left.get(a)
                    if ea_found is not None:
                        offer(binop(op, ea_found, eb))

    @staticmethod
    def _pow_back(
        left: dict[Num, Entry],
        right: dict[Num, Entry],
        r: Num,
        offer: Callable[[Entry], None],
    ) -> None:
        if len(right) <= len(left):
            for b, eb in right.items():
                for a in _bases(b, r):
                    ea_found = left.get(a)
                    if ea_found is not None and power(a, b) == r:
                        offer(call("pow", ea_found, eb))
        else:
            for a, ea in left.items():
                for b in _exponents(a, r, right):
                    eb_found = right.get(b)
                    if eb_found is not None and power(a, b) == r:
                        offer(call("pow", ea, eb_found))


def _add_whole(out: set[int], v: Num | None) -> None:
    if type(v) is int:
        out.add(v)


def _digit_string(digits: int) -> str:
    if type(digits) is not int or not 1000 <= digits <= 9999:
        raise ValueError(f"digits must be a number from 1000 to 9999, not {digits!r}")
    return str(digits)


def _shortest(table: dict[Num, Entry]) -> Num:
    return min(table, key=lambda v: table[v].length)


def _partners_of_left(a: Num, r: Num, right: dict[Num, Entry]) -> Iterable[tuple[str, Num]]:
    """For a known left operand ``a``: (op, b) with ``a op b == r``."""
    yield "+", normal(r - a)
    yield "-", normal(a - r)
    if a != 0:
        yield "*", divide(r, a)
    elif r == 0:
        yield "*", _shortest(right)
    if r != 0 and a != 0:
        yield "/", divide(a, r)
    elif r == 0 and a == 0:
        nonzero = {v: e for v, e in right.items() if v != 0}
        if nonzero:
            yield "/", _shortest(nonzero)


def _partners_of_right(b: Num, r: Num, left: dict[Num, Entry]) -> Iterable[tuple[str, Num]]:
    """For a known right operand ``b``: (op, a) with ``a op b == r``."""
    yield "+", normal(r - b)
    yield "-", normal(r + b)
    if b != 0:
        yield "*", divide(r, b)
        yield "/", normal(r * b)
    elif r == 0:
        yield "*", _shortest(left)


def _bases(b: Num, r: Num) -> list[Num]:
    """Bases ``a`` with ``pow(a, b) == r`` could hold (checked by the caller)."""
    if b == 0:
        return [1] if r == 1 else []
    if r == 0:
        return [0] if b > 0 else []
    if type(b) is Fraction:
        if r < 0 or b.denominator > 64:
            return []
        # a = r ** (q/p): raise to q first (bounded), then take the p-th root
        q, p = b.denominator, abs(b.numerator)
        rq = Fraction(r) ** q
        if max(abs(rq.numerator), rq.denominator) > 10**60:
            return []
        n, d = iroot(rq.numerator, p), iroot(rq.denominator, p)
        if n is None or d is None:
            return []
        a = Fraction(n, d) if b > 0 else Fraction(d, n)
        return [normal(a)]
    assert type(b) is int
    rr = Fraction(r)
    n, d = iroot(abs(rr.numerator), abs(b)), iroot(rr.denominator, abs(b))
    if n is None or d is None:
        return []
    root = Fraction(n, d) if b > 0 else Fraction(d, n)
    if r < 0:
        return [normal(-root)] if b % 2 else []
    return [normal(root), normal(-root)] if b % 2 == 0 else [normal(root)]


def _exponents(a: Num, r: Num, right: dict[Num, Entry]) -> list[Num]:
    """Whole exponents ``b`` with ``pow(a, b) == r`` could hold (checked by the caller)."""
    if a == 0:
        return (
            [_shortest({v: e for v, e in right.items() if v > 0})]
            if r == 0 and any(v > 0 for v in right)
            else []
        )
    if r == 0:
        return []
    if abs(a) == 1:
        return [v for v in right if type(v) is int] if abs(r) == 1 else []
    if r == 1:
        return [0]
    ratio = math.log(abs(float(r))) / math.log(abs(float(a)))
    guess = round(ratio)
    return [guess - 1, guess, guess + 1] if abs(ratio - guess) < 1e-6 else []


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
