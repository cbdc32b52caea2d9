"""The Dart value type: one dart as the board reports it.

Text form, as on the serial protocol and the scoreboard: ``S20``, ``D20``, ``T20``,
``SB`` (outer bull, 25), ``DB`` (inner bull, 50) and ``MISS``. ``Dart.parse(text)`` and
``str(dart)`` round-trip.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

BULL = 25
_PREFIX = {1: "S", 2: "D", 3: "T"}
_MULTIPLIER = {"S": 1, "D": 2, "T": 3}
_NUMBERED = re.compile(r"([SDT])([1-9]|1[0-9]|20)")


class DartError(ValueError):
    """A text or a value that is not a dart."""


@dataclass(frozen=True, slots=True)
class Dart:
    """A dart: ``number`` 1-20 or 25 (bull), 0 for a miss; ``multiplier`` 0-3."""

    number: int
    multiplier: int

    MISS: ClassVar[Dart]

    def __post_init__(self) -> None:
        whole = all(type(v) is int for v in (self.number, self.multiplier))  # not 20.0, True
        ok = whole and (
            (self.number == 0 and self.multiplier == 0)
            or (1 <= self.number <= 20 and 1 <= self.multiplier <= 3)
            or (self.number == BULL and self.multiplier in (1, 2))
        )
        if not ok:
            raise DartError(f"not a dart: number={self.number!r} multiplier={self.multiplier!r}")

    @classmethod
    def parse(cls, text: str) -> Dart:
        """``"T20"`` -> ``Dart(20, 3)``. Case and surrounding spaces are ignored."""
        if not isinstance(text, str):
            raise DartError(f"not a dart: {text!r}")
        t = text.strip().upper()
        if t == "MISS":
            return cls.MISS
        if t == "SB":
            return cls(BULL, 1)
        if t == "DB":
            return cls(BULL, 2)
        m = _NUMBERED.fullmatch(t)
        if m is None:
            raise DartError(f"not a dart: {text!r} (expected S1-S20, D1-D20, T1-T20, SB, DB, MISS)")
        return cls(int(m.group(2)), _MULTIPLIER[m.group(1)])

    @property
    def score(self) -> int:
        """Points of the dart on the board face (T20 = 60, DB = 50, MISS = 0)."""
        return self.number * self.multiplier

    @property
    def is_miss(self) -> bool:
        return self.number == 0

    @property
    def is_bull(self) -> bool:
        return self.number == BULL

    def __str__(self) -> str:
        if self.number == 0:
            return "MISS"
        if self.number == BULL:
            return "SB" if self.multiplier == 1 else "DB"
        return f"{_PREFIX[self.multiplier]}{self.number}"

    def __repr__(self) -> str:
        return f"Dart.parse({str(self)!r})"


Dart.MISS = Dart(0, 0)


def all_darts() -> list[Dart]:
    """Every distinct dart: 60 numbered, two bulls and the miss (63)."""
    out = [Dart(n, m) for n in range(1, 21) for m in (1, 2, 3)]
    out += [Dart(BULL, 1), Dart(BULL, 2), Dart.MISS]
    return out
