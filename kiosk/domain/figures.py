"""Figures as a league secretary's spreadsheet writes them.

A spreadsheet's ROUND takes an exact half away from zero: an MPR of 13 marks in 24
darts (1.625) is 1.63, a formula average of 501 in 4 rounds (125.25) is 125.3. Python's
``round`` and ``format`` round a half to the even digit (1.62, 125.2), and work on the
binary float, where 2.675 is a hair below the half (2.67). Here a figure is taken as the
decimal its float prints as (``repr``: 2.675) and rounded half up, so every screen, the
commands and the export show the same digits as the secretary's sheet.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal


def _rounded(value: float, places: int) -> Decimal:
    exact = Decimal(repr(float(value)))
    done = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return done if done else abs(done)  # -0.001 is 0.00, not -0.00


def rounded(value: float, places: int) -> float:
    """``value`` to ``places`` decimals, an exact half away from zero: 1.625 -> 1.63."""
    if not math.isfinite(value):
        return value
    return float(_rounded(value, places))


def fixed(value: float, places: int, *, plus: bool = False) -> str:
    """``value`` written with ``places`` decimals, rounded as ``rounded``: "1.63",
    "125.3", "1517"; with ``plus``, a sign on every figure ("+16", "-3", "+0")."""
    if not math.isfinite(value):
        return f"{value:.{places}f}"
    done = _rounded(value, places)
    text = f"{done:f}"
    return f"+{text}" if plus and done >= 0 else text
