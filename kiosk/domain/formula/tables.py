"""Every value a short string of digits can make, with the shortest formula found for it.

The solver's building block: ``Tables.table("348")`` maps each value reachable from the
digits "348" (kept in order) to an ``Entry`` holding its shortest formula found. The
grammar explored (a subset of what ``evaluate`` accepts, and always accepted by it):

- a number made of adjacent digits (no leading 0 on multi-digit numbers);
- ``a + b``, ``a - b``, ``a * b``, ``a / b`` over two adjacent digit ranges;
- ``pow(a, b)`` with a whole exponent, or a fractional one where the result is exactly
  rational (``pow(8, 1/3)``);
- ``-x`` and ``sqrt(x)`` where the root is exact (repeated: ``sqrt(sqrt(81))``), of a
  fraction below 1 too (``sqrt(pow(2,-2))``);
- every value within the evaluator's bounds: at most 10**15 in size, its numerator too,
  and a denominator up to 10**300 (``pow(2,-80)``: ``pow(sqrt(pow(2,-80)),-1)`` is
  2**40). Checked against a brute force over the evaluator's rules on 1,500 random
  numbers: the same whole results for every one.

Of two formulas as short for a value, the one that binds tighter is kept
(``sqrt(4+0)`` over ``sqrt(4)+0``: no brackets when multiplied).

Not explored: irrational intermediate values (``sqrt(2)*sqrt(2)``), which the
evaluator accepts through floating point; fractions whose numerator is above 10**15.

Tables are cached per digit string: across all 9000 numbers there are only 10 + 100 +
1000 strings of up to 3 digits, so each is computed once (about 2 s for all of them).
Two views of a table serve the solver: ``Halves`` (non-negative values as plain ints,
for the whole results) and ``Ranked`` (entries by formula length, for the backward
search).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from fractions import Fraction
from typing import NamedTuple

from kiosk.domain.formula.exact import LIMIT, iroot

Num = int | Fraction  # ints wherever the value is whole: much faster than Fraction
SUM, PRODUCT, ATOM = 0, 1, 2  # how tightly a formula binds, for placing brackets


class Entry(NamedTuple):
    length: int
    prec: int
    neg_start: bool  # the formula starts with "-": never put it after a "-"
    formula: str


def normal(v: Num) -> Num:
    if type(v) is Fraction and v.denominator == 1:
        return v.numerator
    return v


# A value's denominator may be far above LIMIT: the evaluator refuses only values above
# 10**15 in size, or too close to 0 (exact.SMALL), and pow(2,-80) comes back whole
# through sqrt and pow(x,-1) (pow(sqrt(pow(2,-80)),-1) = 2**40).
DENOMINATOR_DIGITS = 300
DENOMINATOR_LIMIT = 10**DENOMINATOR_DIGITS


def in_bounds(v: Num) -> bool:
    if type(v) is int:
        return -LIMIT <= v <= LIMIT
    assert isinstance(v, Fraction)
    return abs(v.numerator) <= LIMIT and v.denominator <= DENOMINATOR_LIMIT


def leaf(s: str) -> Entry | None:
    if len(s) > 1 and s[0] == "0":
        return None
    return Entry(len(s), ATOM, False, s)


def _wrap(e: Entry) -> str:
    return f"({e.formula})"


def binop(op: str, a: Entry, b: Entry) -> Entry:
    left = _wrap(a) if op in "*/" and a.prec == SUM else a.formula
    if op == "+":
        right = b.formula
    elif op == "-":
        right = _wrap(b) if b.prec == SUM or b.neg_start else b.formula
    elif op == "*":
        right = _wrap(b) if b.prec == SUM else b.formula
    else:  # "/": a/(b*c) is not a/b*c
        right = _wrap(b) if b.prec < ATOM else b.formula
    text = f"{left}{op}{right}"
    return Entry(len(text), SUM if op in "+-" else PRODUCT, a.neg_start, text)


def call(name: str, *args: Entry) -> Entry:
    text = f"{name}({','.join(a.formula for a in args)})"
    return Entry(len(text), ATOM, False, text)


def negate(e: Entry) -> Entry:
    if e.prec == SUM or e.neg_start:
        text = f"-({e.formula})"
        return Entry(len(text), ATOM, True, text)
    return Entry(e.length + 1, e.prec, True, f"-{e.formula}")


def power(a: Num, b: Num) -> Num | None:
    """``pow(a, b)`` when exact and within bounds (checked before computing), else None."""
    if type(a) is int and type(b) is int and a > 1 and b > 0:  # the common case, fast
        return a**b if b <= max_exponent(a) else None
    if a == 0:
        return None if b < 0 else (1 if b == 0 else 0)
    if b == 0:
        return 1
    if type(b) is Fraction:
        if a < 0 or b.denominator > 64:
            return None
        if type(a) is int:
            p, q = a, 1
        else:
            p, q = a.numerator, a.denominator
        rp, rq = iroot(p, b.denominator), iroot(q, b.denominator)
        if rp is None or rq is None:
            return None
        a = rp if rq == 1 else Fraction(rp, rq)
        b = b.numerator
    assert type(b) is int
    num, den = (a, 1) if type(a) is int else (a.numerator, a.denominator)
    if b < 0:
        num, den = den, num
    e = abs(b)
    # Checked before computing: the result's numerator within the bounds, its
    # denominator within what the evaluator keeps (pow(2,-80) is a value of its own).
    if abs(num) > 1 and e * math.log10(abs(num)) > 15.01:
        return None
    if abs(den) > 1 and e * math.log10(abs(den)) > DENOMINATOR_DIGITS + 0.01:
        return None
    v = normal(Fraction(a) ** b) if b < 0 or type(a) is not int else a**b
    return v if in_bounds(v) else None


MAX_EXPONENTS: dict[int, int] = {}


def max_exponent(a: int) -> int:
    """The largest b with a**b within bounds, for a >= 2 (memoised: a pure function)."""
    m = MAX_EXPONENTS.get(a)
    if m is None:
        m = 0
        while a ** (m + 1) <= LIMIT:
            m += 1
        MAX_EXPONENTS[a] = m
    return m


def divide(a: Num, b: Num) -> Num:
    if type(a) is int and type(b) is int:
        return a // b if a % b == 0 else Fraction(a, b)
    return normal(Fraction(a) / b)


def exact_sqrt(v: Num) -> Num | None:
    if v < 0:
        return None
    if type(v) is int:
        return iroot(v, 2)
    assert isinstance(v, Fraction)
    p, q = iroot(v.numerator, 2), iroot(v.denominator, 2)
    return None if p is None or q is None else normal(Fraction(p, q))


def _better(e: Entry, old: Entry | None) -> bool:
    """Shorter, or as short and binding tighter: of "sqrt(4)+0" and "sqrt(4+0)" (both 2,
    both 9 characters) keep the one that needs no brackets in "...*50"."""
    if old is None or e.length < old.length:
        return True
    return e.length == old.length and (e.prec, not e.neg_start) > (old.prec, not old.neg_start)


def _offer(table: dict[Num, Entry], v: Num, e: Entry) -> bool:
    if _better(e, table.get(v)):
        table[v] = e
        return True
    return False


class Halves(NamedTuple):
    """A table's non-negative values, split by kind (tables are closed under negation),
    in the plain-int form the search for whole results works on."""

    ints: list[int]  # whole values >= 0, ascending
    max_exponents: list[int]  # per int x: the largest b with x**b in bounds (-1 if x < 2)
    fracs: list[tuple[int, int]]  # values > 0 that are not whole: (numerator, denominator)


class Ranked(NamedTuple):
    """A table with its entries in order of formula length, for searches that stop early."""

    table: dict[Num, Entry]
    items: list[tuple[Num, Entry]]  # shortest formula first
    lengths: list[int]  # the items' formula lengths, ascending
    denominators: frozenset[int]  # of the values that are not whole

    def get_quotient(self, n: int, d: int) -> Entry | None:
        """The entry for the value ``n / d`` (``d != 0``), without building a Fraction
        unless the table holds one with that denominator."""
        if n % d == 0:
            return self.table.get(n // d)
        if abs(d) // math.gcd(n, d) not in self.denominators:
            return None
        return self.table.get(Fraction(n, d))

    @property
    def shortest(self) -> int:
        return self.lengths[0]

    def count_shorter(self, length: int) -> int:
        """How many entries have a formula shorter than ``length``."""
        return bisect_left(self.lengths, length)


class Tables:
    """Cached tables for digit strings of up to 3 digits (the 4-digit level is the solver's)."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[Num, Entry]] = {}
        self._halves: dict[str, Halves] = {}
        self._ranked: dict[str, Ranked] = {}

    def ranked(self, s: str) -> Ranked:
        found = self._ranked.get(s)
        if found is None:
            table = self.table(s)
            items = sorted(table.items(), key=lambda item: item[1].length)
            lengths = [e.length for _, e in items]
            dens = frozenset(v.denominator for v in table if type(v) is Fraction)
            found = self._ranked[s] = Ranked(table, items, lengths, dens)
        return found

    def table(self, s: str) -> dict[Num, Entry]:
        found = self._tables.get(s)
        if found is None:
            found = self._tables[s] = self._build(s)
        return found

    def halves(self, s: str) -> Halves:
        found = self._halves.get(s)
        if found is None:
            values = self.table(s)
            ints = sorted(v for v in values if type(v) is int and v >= 0)
            exps = [max_exponent(x) if x >= 2 else -1 for x in ints]
            fracs = sorted(v for v in values if type(v) is Fraction and v > 0)
            pairs = [(f.numerator, f.denominator) for f in fracs]
            found = self._halves[s] = Halves(ints, exps, pairs)
        return found

    def _build(self, s: str) -> dict[Num, Entry]:
        out: dict[Num, Entry] = {}
        e = leaf(s)
        if e is not None:
            out[int(s)] = e
        for k in range(1, len(s)):
            left, right = self.table(s[:k]), self.table(s[k:])
            for a, ea in left.items():
                for b, eb in right.items():
                    # Build a formula only where it would be the shortest for its value:
                    # an operation adds at least 1 character ("a+b"), pow exactly 6.
                    shortest = ea.length + eb.length + 1
                    if type(a) is int and type(b) is int:  # most pairs: plain ints
                        values: tuple[Num, Num, Num] = (a + b, a - b, a * b)
                    else:
                        values = (normal(a + b), normal(a - b), normal(a * b))
                    for op, v in zip("+-*", values, strict=True):
                        if in_bounds(v):
                            old = out.get(v)
                            if old is None or shortest <= old.length:
                                _offer(out, v, binop(op, ea, eb))
                    if b != 0:
                        v = divide(a, b)
                        old = out.get(v)
                        if (old is None or shortest <= old.length) and in_bounds(v):
                            _offer(out, v, binop("/", ea, eb))
                    p = power(a, b)
                    if p is not None:
                        old = out.get(p)
                        if old is None or shortest + 5 <= old.length:
                            _offer(out, p, call("pow", ea, eb))
        close(out)
        return out


def close(out: dict[Num, Entry]) -> None:
    """Add ``-x`` and exact ``sqrt(x)`` of every value, repeatedly."""
    todo = list(out)
    while todo:
        v = todo.pop()
        e = out[v]
        neg = normal(-v)
        old = out.get(neg)
        # "-x", or "-(x)" after a sum or a leading minus: build it only if no longer
        extra = 3 if e.prec == SUM or e.neg_start else 1
        if (old is None or e.length + extra <= old.length) and _offer(out, neg, negate(e)):
            todo.append(neg)
        # exact roots of fractions below 1 too: sqrt(pow(2,-2)) = 1/2
        r = exact_sqrt(v) if v > 0 and v != 1 else None
        if r is not None:
            old = out.get(r)
            if (old is None or e.length + 6 <= old.length) and _offer(out, r, call("sqrt", e)):
                todo.append(r)
