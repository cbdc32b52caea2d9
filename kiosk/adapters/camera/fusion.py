"""Several cameras' guesses of one tip -> one board point -> one ``Dart``.

Each camera gives a board-mm point and a weight (how well it sees that spot: pixels
per mm there, squared, times its confidence in the shape). The fused point is the
weighted mean of the largest group of estimates that agree within ``AGREE_MM``; a
camera that took a shadow or a flight for the tip disagrees and is left out. With
two cameras that disagree, the one with the better view wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kiosk.domain.board import dart_at
from kiosk.domain.darts import Dart

AGREE_MM = 4.0


@dataclass(frozen=True, slots=True)
class Estimate:
    camera: int
    board: tuple[float, float]  # mm
    weight: float


@dataclass(frozen=True, slots=True)
class Fused:
    board: tuple[float, float]
    dart: Dart
    used: tuple[int, ...]  # cameras that agreed
    spread_mm: float  # largest distance of a used estimate from the fused point


def fuse(
    estimates: list[Estimate] | tuple[Estimate, ...], agree_mm: float = AGREE_MM
) -> Fused | None:
    ests = [e for e in estimates if e.weight > 0 and all(map(math.isfinite, e.board))]
    if not ests:
        return None
    best: list[Estimate] = []
    best_w = -1.0
    for e in ests:
        group = [o for o in ests if math.dist(o.board, e.board) <= agree_mm]
        w = sum(o.weight for o in group)
        if len(group) > len(best) or (len(group) == len(best) and w > best_w):
            best, best_w = group, w
    x = sum(e.board[0] * e.weight for e in best) / best_w
    y = sum(e.board[1] * e.weight for e in best) / best_w
    spread = max(math.dist(e.board, (x, y)) for e in best)
    return Fused((x, y), dart_at(x, y), tuple(sorted(e.camera for e in best)), spread)
