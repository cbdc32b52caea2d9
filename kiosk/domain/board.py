"""Regulation board geometry (WDF/BDO), in millimetres from the centre of the bull.

Coordinates: x to the right, y up, 20 at the top (12 o'clock). Every radius below is
the distance from the centre to the *outer* edge of a ring's wire, except the treble
and double rings which give both edges. A point exactly on a boundary belongs to the
inner region (the ring closer to the centre), and a point exactly on a segment wire
belongs to the segment clockwise of it; real wires have a width, so neither choice
is more "right", but this one is stable and tested. "Exactly" allows for floating
point: an angle or a radius within ``SNAP`` of a wire or an edge is on it, so a point
built as ``point_at(9.0, 162.0)`` is on the wire and on the edge it was built on.
"""

from __future__ import annotations

import math

from kiosk.domain.darts import BULL, Dart

INNER_BULL = 6.35
OUTER_BULL = 15.9
TREBLE_INNER = 99.0
TREBLE_OUTER = 107.0
DOUBLE_INNER = 162.0
DOUBLE_OUTER = 170.0
SEGMENT_DEGREES = 18.0
SNAP = 1e-9  # degrees or mm: closer than this to a wire or an edge is on it

# Clockwise from the top; 20 is centred at 12 o'clock.
SEGMENTS: tuple[int, ...] = (20, 1, 18, 4, 13, 6, 10, 15, 2, 17, 3, 19, 7, 16, 8, 11, 14, 9, 12, 5)


def angle_of(x_mm: float, y_mm: float) -> float:
    """Clockwise angle from 12 o'clock, in degrees, 0 <= a < 360."""
    a = math.degrees(math.atan2(x_mm, y_mm)) % 360.0
    return 0.0 if a >= 360.0 else a  # a hair left of 12 o'clock rounds up to 360.0


def segment_at(x_mm: float, y_mm: float) -> int:
    """The number (1-20) of the segment that contains the direction of (x, y)."""
    a = (angle_of(x_mm, y_mm) + SEGMENT_DEGREES / 2) % 360.0
    k = round(a / SEGMENT_DEGREES)
    if abs(a - k * SEGMENT_DEGREES) <= SNAP:  # on a wire: the segment clockwise of it
        return SEGMENTS[k % 20]
    return SEGMENTS[int(a // SEGMENT_DEGREES) % 20]


def multiplier_at_radius(r_mm: float) -> int:
    """0 outside the board, 1 single, 2 double, 3 treble (bulls handled by dart_at)."""
    if r_mm > DOUBLE_OUTER:
        return 0
    if r_mm > DOUBLE_INNER:
        return 2
    if TREBLE_INNER < r_mm <= TREBLE_OUTER:
        return 3
    return 1


def dart_at(x_mm: float, y_mm: float) -> Dart:
    """The dart that a tip at (x, y) mm scores; outside the double ring is a miss."""
    if not (math.isfinite(x_mm) and math.isfinite(y_mm)):
        return Dart.MISS
    r = _snapped(math.hypot(x_mm, y_mm))
    if r <= INNER_BULL:
        return Dart(BULL, 2)
    if r <= OUTER_BULL:
        return Dart(BULL, 1)
    m = multiplier_at_radius(r)
    if m == 0:
        return Dart.MISS
    return Dart(segment_at(x_mm, y_mm), m)


def _snapped(r_mm: float) -> float:
    """``r_mm``, or the ring edge it lies within ``SNAP`` of."""
    for edge in (INNER_BULL, OUTER_BULL, TREBLE_INNER, TREBLE_OUTER, DOUBLE_INNER, DOUBLE_OUTER):
        if abs(r_mm - edge) <= SNAP:
            return edge
    return r_mm


def segment_centre_angle(number: int) -> float:
    """Clockwise angle from 12 o'clock of the middle of segment ``number``."""
    return SEGMENTS.index(number) * SEGMENT_DEGREES


def point_at(angle_deg: float, r_mm: float) -> tuple[float, float]:
    """(x, y) mm of the point at clockwise angle ``angle_deg`` and radius ``r_mm``."""
    a = math.radians(angle_deg)
    return (r_mm * math.sin(a), r_mm * math.cos(a))


def centre_of(dart: Dart) -> tuple[float, float]:
    """A point in the middle of the area that scores ``dart`` (a miss: outside the board)."""
    if dart.is_miss:
        return (0.0, DOUBLE_OUTER + 30.0)
    if dart.is_bull:
        return (0.0, 0.0) if dart.multiplier == 2 else (0.0, (INNER_BULL + OUTER_BULL) / 2)
    radius = {
        1: (OUTER_BULL + TREBLE_INNER) / 2,
        2: (DOUBLE_INNER + DOUBLE_OUTER) / 2,
        3: (TREBLE_INNER + TREBLE_OUTER) / 2,
    }[dart.multiplier]
    return point_at(segment_centre_angle(dart.number), radius)


RING_WIRES: tuple[float, ...] = (
    INNER_BULL, OUTER_BULL, TREBLE_INNER, TREBLE_OUTER, DOUBLE_INNER, DOUBLE_OUTER,
)  # fmt: skip


def wire_distance(x_mm: float, y_mm: float) -> float:
    """Distance in mm from (x, y) to the nearest wire's centre line: a ring wire (the
    circles above) or a segment divider (a straight wire from the outer bull out to the
    double ring)."""
    r = math.hypot(x_mm, y_mm)
    best = min(abs(r - ring) for ring in RING_WIRES)
    off = (angle_of(x_mm, y_mm) + SEGMENT_DEGREES / 2) % SEGMENT_DEGREES
    da = math.radians(min(off, SEGMENT_DEGREES - off))  # to the nearest divider
    along = r * math.cos(da)
    if OUTER_BULL <= along <= DOUBLE_OUTER:  # else the ring where the divider ends is nearer
        best = min(best, r * math.sin(da))
    return best
