"""Guarded arithmetic on exact rationals, falling back to floating point where it must.

How the two kinds of number mix (the rules ask for "exact where rational"):

- Every number typed in is a ``Fraction``; ``+ - * /`` on Fractions stay exact, so
  ``1/3*3`` is exactly 1.
- ``sqrt`` and ``pow`` give a ``Fraction`` whenever the true result is rational
  (``sqrt(49)``, ``sqrt(9/4)``, ``pow(8, 1/3)``, ``pow(4, -1/2)``, ``pow(2, -3)``) and a
  ``float`` only when it is irrational (``sqrt(2)``).
- Once a value is a float, everything computed from it is a float (Python's own rule
  for ``Fraction`` op ``float``); floats never turn back into Fractions. The final
  result counts as whole when within 1e-9 relative (1e-9 absolute near 0) of an
  integer: ``sqrt(2)*sqrt(2)`` is 2.
- Like PHP (which returns NAN), a negative number to a fractional power is refused,
  even where a real odd root exists: ``pow(-8, 1/3)``.

Every bound is checked before the work is done: values stay within 10**15 in size, and
``pow`` estimates the size of its result with a logarithm first, so ``pow(9, pow(9, 9))``
is refused without computing anything large. Its mirror, ``pow(9, -pow(9, 9))``, is
refused too ("too close to 0"): its exact value has 370 million digits, and in floating
point it would be 0, so ``pow(2, -pow(3, 8)) * 9`` would pass for the whole number 0
when it is 9 / 2**6561. No value but 0 is smaller than 10**-300 in size.
"""

from __future__ import annotations

import math
from fractions import Fraction

Value = Fraction | float

LIMIT = 10**15
LOG_LIMIT = 15.0
SMALL_LOG_LIMIT = -300.0  # floats reach 1e-308; nothing whole is built from less
SMALL = 10**300
# An exact power is computed only when its numerator and denominator stay this small
# (in decimal digits): enough for anything four digits can write within the size limits
# above. The most digits come from a base near 1 to an exponent that is itself a power:
# pow(8/9, pow(4, 6)) is about 1e-210 and has 3,908 digits (under a millisecond). It
# must stay exact: in floating point it would pass for the whole number 0.
EXACT_DIGITS = 6000.0
WHOLE_TOLERANCE = 1e-9


class Refusal(Exception):
    """Raised by the arithmetic; the evaluator turns it into a FormulaError with a position."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _too_large() -> Refusal:
    return Refusal("too_large", "number too large")


def _too_small() -> Refusal:
    return Refusal("too_small", "number too close to 0")


def check(value: Value) -> Value:
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > LIMIT:
            raise _too_large()
        if 0.0 < abs(value) < 10.0**SMALL_LOG_LIMIT:
            raise _too_small()
    elif abs(value.numerator) > LIMIT * value.denominator:
        raise _too_large()
    elif value and abs(value.numerator) * SMALL < value.denominator:
        raise _too_small()
    return value


def add(a: Value, b: Value) -> Value:
    return check(a + b)


def sub(a: Value, b: Value) -> Value:
    return check(a - b)


def mul(a: Value, b: Value) -> Value:
    return check(a * b)


def div(a: Value, b: Value) -> Value:
    if b == 0:
        raise Refusal("division_by_zero", "division by zero")
    return check(a / b)


def neg(a: Value) -> Value:
    return -a


def pos(a: Value) -> Value:
    return a


def _log10_abs(x: Value) -> float:
    if isinstance(x, float):
        return math.log10(abs(x))
    # Exact for huge numerators/denominators, where float(x) would overflow.
    return math.log10(abs(x.numerator)) - math.log10(x.denominator)


def iroot(n: int, k: int) -> int | None:
    """The integer k-th root of n >= 0 if n is a perfect k-th power, else None."""
    if n < 2:
        return n
    if k == 1:
        return n
    if k == 2:
        r = math.isqrt(n)
        return r if r * r == n else None
    if k > n.bit_length():
        return None  # the root would be below 2, and n > 1
    x = 1 << ((n.bit_length() + k - 1) // k)  # at least the root; Newton from above
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            break
        x = y
    return x if x**k == n else None


def sqrt(x: Value) -> Value:
    if x < 0:
        raise Refusal("negative_root", "square root of a negative number")
    if isinstance(x, Fraction):
        p, q = iroot(x.numerator, 2), iroot(x.denominator, 2)
        if p is not None and q is not None:
            return Fraction(p, q)
    return math.sqrt(x)


def power(x: Value, y: Value) -> Value:
    """PHP's ``pow(x, y)``, exact where the result is rational, guarded before computing."""
    if x == 0:
        if y < 0:
            raise Refusal("zero_power", "0 can't be raised to a negative power")
        return Fraction(1) if y == 0 else Fraction(0)
    if y == 0:
        return Fraction(1)
    whole_y = y.denominator == 1 if isinstance(y, Fraction) else float(y).is_integer()
    if x < 0 and not whole_y:
        raise Refusal("negative_root", "a negative number to a fractional power")
    size = float(y) * _log10_abs(x)
    if size > LOG_LIMIT + 0.5:
        raise _too_large()
    if size < SMALL_LOG_LIMIT - 0.5:
        raise _too_small()
    if isinstance(x, Fraction) and isinstance(y, Fraction):
        return check(_exact_power(x, y))
    if whole_y:
        # A float base to a whole power: Python's float ** int keeps the sign.
        return check(float(x) ** int(y))
    return check(math.pow(float(x), float(y)))


def _exact_power(x: Fraction, y: Fraction) -> Value:
    p, q = x.numerator, x.denominator
    a, b = y.numerator, y.denominator
    if b > 1:
        rp, rq = iroot(p, b), iroot(q, b)  # x > 0 here: checked by the caller
        if rp is None or rq is None:
            return math.pow(float(x), float(y))
        p, q = rp, rq
    size = abs(a) * max(math.log10(abs(p)), math.log10(q))
    if size > EXACT_DIGITS:
        # A moderate value with a huge numerator and denominator, which four digits
        # cannot write: kept as a float rather than a fraction of this many digits.
        return math.pow(p / q, a)
    return Fraction(p, q) ** a


def whole(value: Value) -> int:
    """The value as an int, or a Refusal saying it is not a whole number."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return value.numerator
    else:
        nearest = round(value)
        if abs(value - nearest) <= WHOLE_TOLERANCE * max(1.0, abs(value)):
            return int(nearest)
    raise Refusal("not_whole", f"not a whole number: {show(value)}")


def show(value: Value) -> str:
    """A value as a player would write it: 12.5, 1/3, 1.41421.

    A value that is not whole never reads as whole: 0.99999995 shows as
    0.999999948977547, not as 1.
    """
    if isinstance(value, float):
        return _show_float(value)
    if value.denominator > 10**6:
        return _show_float(float(value))
    q = value.denominator
    while q % 2 == 0:
        q //= 2
    while q % 5 == 0:
        q //= 5
    if q == 1:
        text = f"{float(value):.6f}".rstrip("0").rstrip(".")
        if Fraction(text) == value:
            return text
    return f"{value.numerator}/{value.denominator}"


def _show_float(value: float) -> str:
    text = f"{value:.6g}"
    if float(text).is_integer():
        text = f"{value:.15g}"
    return text
