"""Formulas worked back from a whole result: ``a op b == r`` -> look up ``b`` in a table.

The solver knows which results a number can make (``results.py``); a formula is built
only for the result it chooses. For a top-level cut of the digits into a left and a
right piece, each value ``a`` of one piece gives the only partner ``b`` that could
make ``r`` with each operation (``r - a``, ``a - r``, ``r / a``, ``a / r``), one dict
look-up each instead of trying every pair.

Both sides' entries are walked shortest formula first (``tables.Ranked``), and a walk
stops as soon as no pair can beat the shortest formula found so far (``Best``), so a
search with a tight bound looks at a handful of entries.
"""

from __future__ import annotations

import math
from fractions import Fraction

from kiosk.domain.formula.exact import iroot
from kiosk.domain.formula.tables import Entry, Num, Ranked, binop, call, power

# How many characters an operation adds to its operands' formulas, at least.
BINOP_EXTRA = 1  # "a+b"
POW_EXTRA = 6  # "pow(a,b)"
# The exact search of fractional exponents raises r to the exponent's denominator
# first; beyond this size it gives up (as the previous, slower search did).
_RAISED_MAX = 10**60


class Best:
    """The shortest formula offered so far, if shorter than ``limit`` (which then shrinks)."""

    __slots__ = ("entry", "limit")

    def __init__(self, limit: int) -> None:
        self.entry: Entry | None = None
        self.limit = limit

    def offer(self, e: Entry) -> None:
        if e.length < self.limit:
            self.entry = e
            self.limit = e.length


Partners = tuple[tuple[str, Entry | None], ...]


def arith_back(left: Ranked, right: Ranked, r: int, best: Best) -> None:
    """Offer every ``a op b == r`` (``+ - * /``) with a in ``left``, b in ``right``,
    shorter than ``best.limit``.

    Walks whichever side has fewer entries short enough to matter, in order of length,
    and stops once no pair can beat the best formula found so far.
    """
    n_left = left.count_shorter(best.limit - BINOP_EXTRA - right.shortest)
    n_right = right.count_shorter(best.limit - BINOP_EXTRA - left.shortest)
    if n_left <= n_right:
        other_min = right.shortest + BINOP_EXTRA
        table, quotient = right.table, right.get_quotient
        for a, ea in left.items:
            if ea.length + other_min >= best.limit:
                break
            if type(a) is int and a and r:  # the common case, inline
                partners: Partners = (
                    ("+", table.get(r - a)),
                    ("-", table.get(a - r)),
                    ("*", quotient(r, a)),
                    ("/", quotient(a, r)),
                )
            else:
                partners = _left_partners(a, r, right)
            for op, match in partners:
                if match is not None and ea.length + match.length + BINOP_EXTRA < best.limit:
                    best.offer(binop(op, ea, match))
    else:
        other_min = left.shortest + BINOP_EXTRA
        table, quotient = left.table, left.get_quotient
        for b, eb in right.items:
            if eb.length + other_min >= best.limit:
                break
            if type(b) is int and b:  # the common case, inline
                partners = (
                    ("+", table.get(r - b)),
                    ("-", table.get(r + b)),
                    ("*", quotient(r, b)),
                    ("/", table.get(r * b)),
                )
            else:
                partners = _right_partners(b, r, left)
            for op, match in partners:
                if match is not None and match.length + eb.length + BINOP_EXTRA < best.limit:
                    best.offer(binop(op, match, eb))


def _left_partners(a: Num, r: int, right: Ranked) -> Partners:
    """For a left operand ``a``: (op, entry of b) with ``a op b == r``, or None."""
    table, quotient = right.table, right.get_quotient
    if a == 0:
        if r != 0:
            return (("+", table.get(r)), ("-", table.get(-r)))
        return (("+", table.get(0)), ("*", right.items[0][1]), ("/", _shortest_nonzero(right)))
    if r == 0:
        return (("+", table.get(-a)), ("-", table.get(a)), ("*", table.get(0)))
    if type(a) is int:
        return (
            ("+", table.get(r - a)),
            ("-", table.get(a - r)),
            ("*", quotient(r, a)),
            ("/", quotient(a, r)),
        )
    assert isinstance(a, Fraction)
    p, q = a.numerator, a.denominator
    return (
        ("+", quotient(r * q - p, q)),  # b = r - a
        ("-", quotient(p - r * q, q)),  # b = a - r
        ("*", quotient(r * q, p)),  # b = r / a
        ("/", quotient(p, q * r)),  # b = a / r
    )


def _right_partners(b: Num, r: int, left: Ranked) -> Partners:
    """For a right operand ``b``: (op, entry of a) with ``a op b == r``, or None."""
    table, quotient = left.table, left.get_quotient
    if b == 0:
        shortest = left.items[0][1] if r == 0 else None
        return (("+", table.get(r)), ("-", table.get(r)), ("*", shortest))
    if type(b) is int:
        return (
            ("+", table.get(r - b)),
            ("-", table.get(r + b)),
            ("*", quotient(r, b)),
            ("/", table.get(r * b)),
        )
    assert isinstance(b, Fraction)
    p, q = b.numerator, b.denominator
    return (
        ("+", quotient(r * q - p, q)),  # a = r - b
        ("-", quotient(r * q + p, q)),  # a = r + b
        ("*", quotient(r * q, p)),  # a = r / b
        ("/", quotient(r * p, q)),  # a = r * b
    )


def _shortest_nonzero(ranked: Ranked) -> Entry | None:
    return next((e for v, e in ranked.items if v != 0), None)


def pow_back(left: Ranked, right: Ranked, r: int, best: Best) -> None:
    """Offer ``pow(a, b) == r`` (whole or simple fractional exponents), like ``arith_back``."""
    n_left = left.count_shorter(best.limit - POW_EXTRA - right.shortest)
    n_right = right.count_shorter(best.limit - POW_EXTRA - left.shortest)
    if n_right <= n_left:
        other_min = left.shortest + POW_EXTRA
        for b, eb in right.items:
            if eb.length + other_min >= best.limit:
                break
            for a in bases(b, r):
                match = left.table.get(a)
                if match is not None and power(a, b) == r:
                    best.offer(call("pow", match, eb))
    else:
        other_min = right.shortest + POW_EXTRA
        for a, ea in left.items:
            if ea.length + other_min >= best.limit:
                break
            for b in exponents(a, r, right):
                match = right.table.get(b)
                if match is not None and power(a, b) == r:
                    best.offer(call("pow", ea, match))


def bases(b: Num, r: int) -> list[Num]:
    """Bases ``a`` with ``pow(a, b) == r`` could hold (checked by the caller)."""
    if b == 0:
        return [1] if r == 1 else []
    if r == 0:
        return [0] if b > 0 else []
    if type(b) is int:
        root = iroot(abs(r), abs(b))
        if root is None:
            return []
        a: Num = root if b > 0 or root == 1 else Fraction(1, root)
        if r < 0:
            return [-a] if b % 2 else []
        return [a, -a] if b % 2 == 0 else [a]
    assert isinstance(b, Fraction)
    q, p = b.denominator, abs(b.numerator)
    if r < 0 or q > 64:
        return []
    # a = r ** (q/p): raise to q first (bounded), then take the p-th root
    if (r.bit_length() - 1) * q > _RAISED_MAX.bit_length():
        return []  # r**q is certainly beyond _RAISED_MAX: don't compute it
    raised = r**q
    if raised > _RAISED_MAX:
        return []
    n = iroot(raised, p)
    if n is None:
        return []
    return [n if b > 0 or n == 1 else Fraction(1, n)]


def exponents(a: Num, r: int, right: Ranked) -> list[Num]:
    """Whole exponents ``b`` with ``pow(a, b) == r`` could hold (checked by the caller)."""
    if a == 0:
        if r != 0:
            return []
        return next(([v] for v, _ in right.items if v > 0), [])  # the shortest positive
    if r == 0:
        return []
    if abs(a) == 1:
        return [v for v in right.table if type(v) is int] if abs(r) == 1 else []
    if r == 1:
        return [0]
    ratio = math.log(abs(r)) / math.log(abs(float(a)))
    guess = round(ratio)
    return [guess - 1, guess, guess + 1] if abs(ratio - guess) < 1e-6 else []
