"""Which of two pictures has the dart: a dart that landed, or one taken out.

The change between two pictures is the same whether a dart landed between them or
was pulled out (``camera-score`` given AFTER and BEFORE the wrong way round, or a
pair across a takeout). What tells them apart is the board: where the dart is, the
picture without it shows the segment the calibration puts there (black or cream, red
or green), and the picture with it shows steel, a shaft, a flight. So, over the
dart's pixels away from the wires, how often each picture's colour is nearest to
the colour of the segment that should be there (that colour taken from the same
picture, round the dart): the picture that agrees clearly more often is the one
without the dart.
"""

from __future__ import annotations

import math

import numpy as np

from kiosk.adapters.camera.board_colours import colour_at
from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.change import change
from kiosk.domain import board

CLASSES = 4  # board_colours: BLACK, CREAM (singles); RED, GREEN (doubles, trebles, bull)
AROUND_PX = 40  # the segments' colours are taken this close round the change
WIRE_CLEAR_MM = 1.5  # pixels this close to a wire could be either side of it
MIN_PIXELS = 30  # fewer of the dart's pixels to judge by: cannot tell
MIN_SAMPLES = 20  # a colour of the board seen fewer times round the dart is not used
# The picture without the dart agrees this much more often. On 30 rendered throws
# (seeds 8,000,000.., 3 cameras each, 0-50 deg) the picture without it agreed on all
# the dart's pixels; the one with it on 12-100 % of them (median 69 %), a tenth of
# the time on 89 % or more (a black shaft over a black segment, a grey barrel over
# a grey-looking one): a dart landed never came out ahead, a dart taken out came
# out ahead by 0.15 or more in nine cases of ten.
MARGIN = 0.15
# The picture without the dart agrees at least this often, else it cannot be told (the
# calibration, or the board's colours, are not what this expects). With every
# calibration point moved 2-3 px, 2 of 300 camera views of darts landed in a double
# were flagged at 0.6 (the ring's edges in the wrong place), none at 0.95; with good
# calibrations the picture without the dart agrees on all but a few pixels.
BOARD_AGREES = 0.95


def board_class(x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
    """The colour of the board at board points (``board_colours``: 0 black, 1 cream, 2
    red, 3 green), -1 near a wire or off the scoring area (the surround, the numbers)."""
    r = np.hypot(x_mm, y_mm)
    ang = (np.degrees(np.arctan2(x_mm, y_mm)) + board.SEGMENT_DEGREES / 2) % 360.0
    out = colour_at(x_mm, y_mm)
    out = np.where((_wire_distance(r, ang) < WIRE_CLEAR_MM) | (r > board.DOUBLE_OUTER), -1, out)
    return np.asarray(out, np.int64)


def _wire_distance(r: np.ndarray, ang: np.ndarray) -> np.ndarray:
    """``board.wire_distance`` for arrays: ``r`` mm from the bull, ``ang`` degrees
    clockwise from the 20's left divider."""
    best = np.min(np.abs(r[..., None] - np.array(board.RING_WIRES)), axis=-1)
    off = ang % board.SEGMENT_DEGREES
    da = np.radians(np.minimum(off, board.SEGMENT_DEGREES - off))
    along = r * np.cos(da)
    divider = np.where((along >= board.OUTER_BULL) & (along <= board.DOUBLE_OUTER),
                       r * np.sin(da), np.inf)  # fmt: skip
    return np.asarray(np.minimum(best, divider))


def _agreement(img: np.ndarray, cls: np.ndarray, on: np.ndarray, ring: np.ndarray) -> float:
    """Of the pixels ``on`` (the dart's), the share whose colour in ``img`` is nearest
    to their own class's colour, each class's colour the median of the pixels
    ``ring`` (round the dart) of that class; NaN when too few can be judged."""
    pix = img.reshape(-1, 3).astype(np.float32)
    c = cls.ravel()
    protos = np.full((CLASSES, 3), np.nan, np.float32)
    for k in range(CLASSES):
        sel = ring.ravel() & (c == k)
        if int(sel.sum()) >= MIN_SAMPLES:
            protos[k] = np.median(pix[sel], axis=0)
    known = ~np.isnan(protos[:, 0])
    judged = on.ravel() & (c >= 0)
    judged[judged] = known[c[judged]]
    if int(judged.sum()) < MIN_PIXELS or int(known.sum()) < 2:
        return math.nan
    p = pix[judged]
    d = np.linalg.norm(p[:, None, :] - np.where(known[:, None], protos, np.inf)[None], axis=2)
    return float(np.mean(np.argmin(d, axis=1) == c[judged]))


def dart_in_before(
    before: np.ndarray,
    after: np.ndarray,
    cal: Calibration,
    dart: np.ndarray,
    margin: float = MARGIN,
    changed: np.ndarray | None = None,
) -> bool:
    """Whether the dart whose pixels are ``dart`` (bool, frame-sized: ``TipFinding.
    pixels``) is in ``before`` and not in ``after``: taken out, not landed (``after``
    agreeing with the board ``margin`` more often than ``before``). False when it
    cannot be told (too few pixels of it over the board's colours). ``changed``: the
    change between them (frame-sized), when it was worked out already."""
    ys, xs = np.nonzero(dart)
    if len(xs) < MIN_PIXELS or before.ndim != 3 or after.ndim != 3:
        return False
    h, w = dart.shape
    x0, x1 = max(0, int(xs.min()) - AROUND_PX), min(w, int(xs.max()) + AROUND_PX + 1)
    y0, y1 = max(0, int(ys.min()) - AROUND_PX), min(h, int(ys.max()) + AROUND_PX + 1)
    box = (slice(y0, y1), slice(x0, x1))
    gy, gx = np.mgrid[y0:y1, x0:x1]
    mm = cal.image_to_board(np.column_stack([gx.ravel(), gy.ravel()]).astype(np.float64))
    cls = board_class(mm[:, 0], mm[:, 1]).reshape(gx.shape)
    changed = (change(before, after).mask if changed is None else changed)[box]
    ring = ~changed  # round the dart: the board as it is in both pictures
    on = dart[box]
    before_agrees = _agreement(before[box], cls, on, ring)
    after_agrees = _agreement(after[box], cls, on, ring)
    if math.isnan(before_agrees) or math.isnan(after_agrees):
        return False
    return after_agrees >= BOARD_AGREES and after_agrees > before_agrees + margin
