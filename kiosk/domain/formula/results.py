"""The whole-number results of two adjacent digit pieces joined by one operation.

The hot loop of ``Solver.reachable``: for a 4-digit number cut into a left and a right
piece, every whole ``a op b`` (``+ - * /`` and ``pow``) over the pieces' values. It
works on the non-negative halves of the tables (``tables.Halves``): the tables are
closed under negation, so over signed values ``a - b``, ``a * b`` ... are ``+-(x - y)``,
``+-x*y`` ... over non-negative ones, and the caller adds the negatives at the end.

Plain ints throughout: a fraction is a ``(numerator, denominator)`` pair in lowest
terms, and only the combinations that can be whole are tried (``x/3 * 6``, never
``x/3 + 2``):

- int op fraction: ``x * p/q`` is whole iff ``q | x``; ``x / (p/q)`` iff ``p | x``;
  ``pow(x, p/q)`` iff x is a perfect q-th power; ``pow(x, -p/q)`` only for x = 1.
- fraction op int: only ``p/q * y`` (iff ``q | y``) and ``pow(1/q, -y) = q**y``.
- fraction op fraction: a sum or difference only with equal denominators; a product
  or quotient by divisibility; ``pow(1/q, -y) = pow(q, y)``.

A result may lie beyond the bounds: the caller drops those.
"""

from __future__ import annotations

from kiosk.domain.formula.exact import iroot
from kiosk.domain.formula.tables import Halves, max_exponent

MAX_ROOT = 64  # the largest root taken for a fractional exponent (as tables.power)

_ROOTS: dict[int, dict[int, int]] = {}


def perfect_roots(x: int) -> dict[int, int]:
    """``{q: r}`` for every 2 <= q <= MAX_ROOT with ``r**q == x`` (x >= 2; memoised:
    the bases come from the small tables of 1 and 2 digits, so there are few)."""
    found = _ROOTS.get(x)
    if found is None:
        found = {}
        for q in range(2, min(MAX_ROOT, x.bit_length()) + 1):
            r = iroot(x, q)
            if r is not None:
                found[q] = r
        if len(_ROOTS) < 100_000:  # a safety bound; in practice a few thousand
            _ROOTS[x] = found
    return found


def _root_powers(x: int, fracs: list[tuple[int, int]], out: set[int]) -> None:
    """Whole ``pow(x, p/q)`` for x >= 2 and each positive fraction p/q."""
    roots = perfect_roots(x)
    if roots:
        for p, q in fracs:
            r = roots.get(q)
            if r is not None and p <= max_exponent(r):
                out.add(r**p)


def whole_results(left: Halves, right: Halves, out: set[int]) -> None:
    """Add to ``out`` every whole ``a op b`` with ``a``, ``b`` non-negative values of the
    left and right piece (negatives are the caller's)."""
    li, ri, lf, rf = left.ints, right.ints, left.fracs, right.fracs
    update = out.update
    if len(li) <= len(ri):
        for x in li:
            update([x + y for y in ri])
            update([x - y for y in ri])
            update([x * y for y in ri])
            update([x // y for y in ri if y and x % y == 0])
            if x >= 2:
                m = max_exponent(x)
                update([x**y for y in ri if y <= m])
    else:
        pairs = list(zip(li, left.max_exponents, strict=True))
        for y in ri:
            update([x + y for x in li])
            update([x - y for x in li])
            update([x * y for x in li])
            if y:
                update([x // y for x in li if x % y == 0])
            update([x**y for x, m in pairs if y <= m])
    if li and ri:
        if li[0] < 2:
            out.add(1)  # pow(1, y), pow(0, 0)
        if li[0] == 0:
            out.add(0)  # pow(0, y)
        if ri[0] == 0:
            out.add(1)  # pow(x, 0)
    if lf and ri and ri[0] == 0:
        out.add(1)  # pow(p/q, 0)
    if rf:
        for x in li:
            update([x // q * p for p, q in rf if x % q == 0])  # x * p/q
            update([x // p * q for p, q in rf if x % p == 0])  # x / (p/q)
            if x >= 2:
                _root_powers(x, rf, out)
    for xp, xq in lf:
        update([y // xq * xp for y in ri if y % xq == 0])  # p/q * y
        if xp == 1:  # pow(1/q, -y) = q**y
            m = max_exponent(xq)
            update([xq**y for y in ri if 0 < y <= m])
            _root_powers(xq, rf, out)  # pow(1/q, -p'/q') = pow(q, p'/q')
        for yp, yq in rf:
            if yq == xq:
                if (xp + yp) % xq == 0:
                    out.add((xp + yp) // xq)
                if (xp - yp) % xq == 0:
                    out.add((xp - yp) // xq)
            if yp % xq == 0 and xp % yq == 0:
                out.add(xp // yq * (yp // xq))  # p/q * p'/q'
            if yq % xq == 0 and xp % yp == 0:
                out.add(xp // yp * (yq // xq))  # (p/q) / (p'/q')
