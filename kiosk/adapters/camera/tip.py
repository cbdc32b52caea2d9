"""Find a new dart in one camera's view: its axis line and its tip.

The homography is only valid on the board plane, so what is wanted is the image point
of the tip (where the steel point enters the board), not the barrel. Two things are
measured, because they fail differently:

- **The axis**, to a tenth of a pixel: the dart's point, barrel and shaft are a thin
  solid of revolution, so across its image every cross-section has two edges whose
  midpoint lies on the projected axis. Midpoints from many cross-sections (the
  flight, wide and lopsided, is left out by its width) are fitted with a robust line.
  The axis passes through the tip's image point even when the tip itself is hidden
  or lost in a shadow, and mapped to the board through the homography it is a board
  line through the tip: two or three cameras' lines cross at the tip (``fusion``).
- **The tip**, along that axis (``point_end``): from the barrel towards the board, the
  last position where the dart (change that is not a shadow) is still under the axis,
  on while the point keeps its own colour over a board of another (it is opaque; a
  shadow takes the board's colour), then to a fraction of a pixel where the change
  drops to half of the point's contrast. A shadow that lies in line with the dart can
  extend this, which is why the point is trusted less than the line
  (``TipFinding.tip_sigma_px``).

The dart is the solid change less specks, slivers lying in a shadow (its rim; a
thick piece beside a shadow is the dart next to its own shadow, a light near the
camera), and pieces lying mostly where earlier darts are (``known``: a dart nudged by
the new one), unless that leaves little of the change (a dart grouped with them).
When a good part of the dart is coloured (a flight, a coloured shaft), its axis is
looked for on the grey part only (steel point, barrel, black shaft): a camera nearly
face-on sees the point and barrel foreshortened, and a vane seen
edge-on is a longer thin strip than they are (``axis.coloured``); the first
reading of such a dart then follows the line from its flight's centre through its
grey part (``_flight_to_grey``), the longest strips come after it. Which end
is the tip: away from the flight (what an opening with a disc wider than a barrel
leaves, ``axis.split_flight``); with no flight in view, the side the calibration's
pose says the dart leaves the board towards, where that is sure whatever the dart's
lean; else the end the picture's edge does not cut off (a dart near the board's
edge leaning out of a tightly framed picture); else the end with less change. The
tip end is bounded by the longest a dart can look from this camera (a shadow in
line with the dart reaches further).

Tuned on rendered throws with seeds below 1,000,000 (see ``bench/camera.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from kiosk.adapters.camera import exposure
from kiosk.adapters.camera.axis import (
    COLOUR_MIN_CHROMA,
    COLOUR_MIN_FRAC,
    AxisFit,
    axis_from_sections,
    coloured,
    first_axes,
    image_line,
    points_mask,
    px_per_mm,
    solid_grey,
    split_flight,
)
from kiosk.adapters.camera.calibration import Calibration, CameraPose
from kiosk.adapters.camera.change import Change, ChangeParams, change
from kiosk.adapters.camera.point_end import opaque_point, refine, walk
from kiosk.adapters.camera.reach import reach_mask
from kiosk.adapters.camera.shadow import ShadowLine, find_shadow

SHAFT_MAX_MM = 45.0  # the longest stretch of a dart that can be invisible (its shaft)
DART_MAX_MM = 160.0  # no dart is longer, flight included
FLIGHT_GAP_PX = 6.0  # a flight's change has no wider gap (a wire across it is narrower)
RIM_THICK = 2.0  # area / border of a shadow's rim at most (a piece of the dart: more)
RIM_CORE_PX = 2.5  # no point of a shadow's rim is further than this from its edge
MAX_TILT_DEG = 30.0  # a dart in the board leans at most this far from its normal
GREY_MIN_PX = 12  # a dart's grey part (point, barrel) seen end-on is at least this big
GREY_APART_PX = 3.0  # ... and its middle at least this far from the flight's centre
EDGE_PX = 2  # change this close to the picture's edge runs on out of the picture
ON_AXIS_PX = 6.0  # change this close to a first axis is the dart's (``_cut_end``)


@dataclass(frozen=True)
class TipParams:
    change: ChangeParams = field(default_factory=ChangeParams)
    min_area: int = 30  # pixels of change (the dart, shadows out) at least
    min_piece: int = 8  # smaller pieces of change are noise
    max_area_frac: float = 0.08  # more than this of the frame: a hand or the light, not a dart
    min_elongation: float = 1.2  # length / width of the dart's change
    band_px: float = 1.5  # half-width of the strip along the axis searched for the point
    tip_sigma_px: float = 1.5  # how far the tip along the axis is trusted
    tip_bias_px: float = 0.7  # the half-level end lies this far beyond the true tip
    alternatives: int = 2  # other first axes followed (see ``TipFinding.alternatives``)
    flipped: bool = True  # also the first axis turned round, when which end is the tip is a guess


@dataclass(frozen=True)
class TipFinding:
    image: tuple[float, float]  # the tip, pixels
    axis: tuple[float, float]  # unit vector from the tip towards the flight
    area: int  # pixels of change that make up the dart
    elongation: float
    confidence: float  # 0-1: how sure the shape and the direction are
    line_sigma_px: float = math.inf  # the axis line's error across itself, at the tip
    tip_sigma_px: float = math.inf  # the tip's error along the axis
    thin_px: float = 0.0  # length of the thin part (point, barrel, shaft) measured
    pixels: np.ndarray | None = field(default=None, compare=False, repr=False)  # the dart
    # Other readings of the same change, less likely (a flight's vane seen edge-on
    # taken for the barrel): several cameras' agreement may prefer one (``fusion``).
    alternatives: tuple[TipFinding, ...] = field(default=(), compare=False, repr=False)
    # The centre line of the dart's shadow from the tip (``shadow``), when a lamp casts
    # a clear one: one more line through the tip, the same for every reading.
    shadow: ShadowLine | None = field(default=None, compare=False, repr=False)
    # How the camera's picture moved from the before frame to the after frame
    # (``register``; None: it did not). The finding is in the before frame's pixels.
    motion: np.ndarray | None = field(default=None, compare=False, repr=False)
    # The change between the two pictures it was found in (the detector asks of it
    # whether a dart fell out, without working it out again).
    change: Change | None = field(default=None, compare=False, repr=False)

    def image_line(self) -> np.ndarray:
        """The axis as a homogeneous image line (a, b, c), a x + b y + c = 0."""
        return image_line(self.image, self.axis)


def find_tip(
    before: np.ndarray,
    after: np.ndarray,
    cal: Calibration,
    pose: CameraPose | None = None,
    params: TipParams = TipParams(),
    known: np.ndarray | None = None,
) -> TipFinding | None:
    """The tip and axis of the one new dart between ``before`` and ``after``, or None.

    ``known``: where darts already in the board are (bool, frame-sized, grown by a
    margin); a piece of change lying mostly there is one of them nudged by the new
    dart, not the new dart."""
    before, after = exposure.lifted(before, after)
    ch = change(before, after, params.change)
    if ch.after is not None:  # the camera moved: the after frame in the before's pixels
        after = ch.after
    if _too_much(ch, params):
        return None
    dart = _dart_pieces(ch, params, known, reach_mask(cal, ch.solid.shape))
    if dart is None:
        return None
    ys, xs = ch.where(dart)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    pose = pose or cal.pose()
    thin, flight = split_flight(dart, xs, ys, cal)
    # (Tinted dark pixels do not count here: an all-black dart taken for a coloured one
    # was read from its flight's end; 200 throws seen by one camera, seeds 6,200,000..:
    # 45 -> 88 % exact. Its grey part below is as before: a coloured flight's shaded
    # side, taken for grey, made face-on rigs' axes worse.)
    is_coloured = bool(coloured(after, pts, COLOUR_MIN_CHROMA).sum() >= COLOUR_MIN_FRAC * len(pts))
    if is_coloured:
        # A coloured flight (or shaft): seen end-on, a vane is a thin strip longer than
        # the foreshortened point and barrel, and is taken for them. The grey part
        # (steel point, tungsten barrel, black shaft) is the dart's axis.
        grey_thin = thin[solid_grey(after, thin)]
        if len(grey_thin) >= params.min_area:
            thin = grey_thin
    axes = first_axes(thin if len(thin) >= params.min_area else pts, 1 + params.alternatives)
    # Seen nearly face-on, which end is the tip was a guess (the end with less
    # change): the first axis the other way round is one more reading.
    tries = [(a, c, False) for a, c in axes] + ([(*axes[0], True)] if params.flipped else [])
    # A coloured dart seen nearly end-on: the flight's centre and the grey part say
    # where its axis is better than the longest strip (the others stay readings).
    flights = [flight] * len(tries)
    if is_coloured and (towards := _flight_to_grey(after, pts, flight)) is not None:
        tries = [(towards[0], towards[1], False), *tries]
        flights = [towards[2], *flights]
    found: list[TipFinding] = []
    for (axis0, centre0, flip), fl in zip(tries, flights, strict=True):
        if flip and not found:
            break
        cand = _follow(pts, axis0, centre0, fl, ch, after, dart, cal, pose, params, flip)
        if cand is not None and (not found or cand.fit is not None):
            f = _finding(cand, ch, fl, cal, pose, params, len(pts), dart)
            if f is not None:
                found.append(f)
    if not found:
        return None
    first = found[0]
    shadow = find_shadow(before, after, first.image, dart, cal, first.axis, first.line_sigma_px)
    found = [replace(f, shadow=shadow) for f in found]
    return replace(found[0], alternatives=tuple(found[1:]), motion=ch.motion, change=ch)


def too_much_change(before: np.ndarray, after: np.ndarray, params: TipParams = TipParams()) -> bool:
    """Whether more changed between the pictures than a dart can (a hand, a person in
    front of the board, the light): ``find_tip`` then finds no dart, whether one is
    there or not."""
    return _too_much(change(before, after, params.change), params)


def _too_much(ch: Change, params: TipParams) -> bool:
    h, w = ch.mask.shape
    return bool(int(ch.mask.sum()) > params.max_area_frac * h * w)


def _flight_to_grey(
    after: np.ndarray, pts: np.ndarray, flight: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """A first axis from the flight's centre through the middle of the dart's grey
    part (steel point, barrel), for a dart seen nearly end-on: there its point and
    barrel are a short blob and a coloured vane seen edge-on is the longest thin strip
    of change, so the longest strip (``first_axes``) runs along a vane and puts the tip
    at the vane's end. The dart's axis runs through the flight's centre (the vanes
    cross on it) and through its barrel: (the axis from the barrel towards the flight,
    a point on it, the flight's centre). None without enough grey (a few pixels of it
    are the vanes' blended rims, ``solid_grey``) or colour."""
    grey = solid_grey(after, pts)
    if int(grey.sum()) < GREY_MIN_PX:
        return None
    if int((~grey).sum()) >= GREY_MIN_PX:
        # The middle of the largest coloured piece: the flight's centre, or with vanes
        # seen edge-on (no blob wider than a barrel, ``split_flight``) the middle of
        # the X of strips they make.
        colour = pts[~grey]
        label, size = _pieces(colour)
        flight = colour[label == int(np.argmax(size))].mean(axis=0)
    if flight is None:
        return None
    # The barrel is the largest grey piece of the part of the change the flight is
    # in (gaps of a few pixels, a wire across the dart, bridged), not board that an
    # earlier dart, nudged, has uncovered.
    near, _ = _pieces(pts, grow=2)
    mine = near == near[int(np.argmin(((pts - flight) ** 2).sum(axis=1)))]
    barrel = pts[grey & mine]
    if len(barrel) < GREY_MIN_PX:
        return None
    label, size = _pieces(barrel)
    centre = barrel[label == int(np.argmax(size))].mean(axis=0).astype(np.float64)
    d = flight - centre
    n = float(np.hypot(*d))
    if n < GREY_APART_PX:
        return None
    return d / n, centre, flight


def _pieces(pts: np.ndarray, grow: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The 8-connected pieces among ``pts`` (x, y), pixels apart by up to ``2 *
    grow`` counted as touching: each point's piece (0, 1, ...) and each piece's size."""
    m, rows, cols = points_mask(pts, pad=grow)
    grown = cv2.dilate(m, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)) if grow else m
    _, labels, _, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    label = labels[rows, cols] - 1
    return label, np.bincount(label)


# Darts already in the board (``known``) are left out of the change when what is left
# is at least this share of it. One camera at 15-50 deg, each later dart knocking the
# one before it by 5 deg and landing 30-150 mm from the centre, 40 turns: second and
# third darts right 25 / 23 without leaving them out, 33 / 27 leaving them out always,
# 33 / 29 with this share; three darts at one target (6 mm scatter): 34 / 32, 21 / 17,
# 28 / 25 (a share of 1/2: 26 / 24 knocked, 28 / 26 grouped).
KNOWN_KEEP = 0.25
DARK_PIECE = 0.8  # this share of a piece ``Change.dark``: a low lamp's shadow ...
DARK_VS_REST = 0.5  # ... if this large beside the largest other piece (a black shaft
# between a barrel and a flight is a small dark piece)


def _dart_pieces(
    ch: Change, params: TipParams, known: np.ndarray | None, reach: np.ndarray | None = None
) -> np.ndarray | None:
    """Where the new dart is in ``ch`` (bool, frame-sized), or None when no solid
    change is left that could be one (specks, a shadow's rim, pieces of darts
    already in the board: ``known``, change wholly outside the board's ``reach``: a
    television or a passer-by behind, far off the board)."""
    if ch.box is None:
        return None
    solid = ch.solid
    # (Worked in the change's box, a pixel wider for the pieces' borders.)
    h, w = solid.shape
    x0, y0, x1, y1 = ch.box
    box = (slice(max(0, y0 - 1), min(h, y1 + 1)), slice(max(0, x0 - 1), min(w, x1 + 1)))
    # The dart is all the solid (non-shadow) change: with one new dart since the last
    # still frame it may be in pieces (a black shaft over a black segment, a barrel
    # cut by a wire). Specks of noise are left out, and so are pieces that lie in a
    # shadow (its rim, where JPEG blurs the shadow's edge, fails the colour test):
    # most of what borders them is shadow. A dart touches its shadow at the tip only.
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        solid[box].astype(np.uint8), connectivity=8)  # fmt: skip
    if n <= 1:
        return None
    size = stats[:, cv2.CC_STAT_AREA].astype(np.int64)
    size[0] = 0
    # Pieces too small to matter are not looked at.
    rim = np.zeros(n, bool)
    shadow = ch.shadow[box]
    for k in np.nonzero(size >= params.min_piece)[0]:
        x, y, bw, bh = stats[k, :4]
        sl = (slice(max(0, y - 1), y + bh + 1), slice(max(0, x - 1), x + bw + 1))
        rim[k] = _is_rim((labels[sl] == k).astype(np.uint8), labels[sl] == 0, shadow[sl])
    if reach is not None and reach.shape == solid.shape:
        near = np.bincount(labels[reach[box]], minlength=n) > 0
        size = np.where(near, size, 0)
    big = (size >= params.min_piece) & ~rim
    big[0] = False
    if known is not None and known.shape == solid.shape:
        # Pieces lying mostly where earlier darts are: one of them nudged by the new
        # dart, unless leaving them out leaves less than ``KNOWN_KEEP`` of the change.
        # A dart grouped with earlier ones (three at one treble) crosses them in the
        # picture, and much of its own change lies there: left out, it went unseen or
        # was read from a sliver of itself (``bench/camera_turns.py``).
        inside = np.bincount(labels[known[box]], minlength=n)
        out = 10 * inside < 7 * np.maximum(size, 1)
        if int(size[big & out].sum()) >= KNOWN_KEEP * int(size[big].sum()):
            big &= out
            size = np.where(out, size, 0)
    if ch.dark is not None and big.sum() > 1:
        # A piece nearly all ``dark`` (a low lamp's long shadow, which fails the
        # shadow test by being too dark) beside pieces that are not: the others are
        # the dart. (A black barrel over cream is dark too, but the dart's point and
        # flight, in the same piece or not, are not.)
        dark = np.bincount(labels[ch.dark[box]], minlength=n)
        shade = big & (dark >= DARK_PIECE * np.maximum(size, 1))
        rest = np.where(big & ~shade, size, 0)
        shade &= size >= DARK_VS_REST * int(rest.max())
        if shade.any() and int(rest.sum()) >= params.min_area:
            big &= ~shade
            size = np.where(shade, 0, size)
    if not big.any():  # specks and a shadow's rim, nothing else: no dart
        return None
    # The largest piece is the dart's even if it passed for a rim (a thin point or
    # shaft along its own shadow); a shadow's rim alone is no dart.
    big[int(np.argmax(size))] = True
    if int(size[big].sum()) < params.min_area:
        return None
    dart = np.zeros_like(solid)
    dart[box] = big[labels]
    return dart


def _is_rim(piece: np.ndarray, free: np.ndarray, shadow: np.ndarray) -> bool:
    """Whether a piece of change (uint8 mask, in a window a pixel wider than it) is a
    shadow's rim: most of its border (the pixels round it that are no other piece,
    ``free``) is ``shadow``, it is thin for its border (a piece thicker than a rim,
    with area several times its border, is the dart beside its own shadow: a light
    near the camera casts the shadow alongside), and no point of it is further than a
    rim is thick from its edge (however ragged the edge: a grey barrel over a cream
    segment passes for shadow in part)."""
    ring = cv2.dilate(piece, np.ones((3, 3), np.uint8)).astype(bool) & free
    border = int(np.count_nonzero(ring))
    if 2 * int(np.count_nonzero(ring & shadow)) <= border:
        return False
    if int(np.count_nonzero(piece)) >= RIM_THICK * max(border, 1):
        return False
    return float(cv2.distanceTransform(piece, cv2.DIST_L2, 3).max()) <= RIM_CORE_PX


def _finding(
    best: _Candidate,
    ch: Change,
    flight: np.ndarray | None,
    cal: Calibration,
    pose: CameraPose,
    params: TipParams,
    area: int,
    dart: np.ndarray,
) -> TipFinding | None:
    centre, axis, s_tip, fit = best.centre, best.axis, best.s_tip, best.fit
    tip_s = refine(ch.sharp_score, centre, axis, s_tip, params.band_px)
    tip_s += params.tip_bias_px
    tip = centre + axis * tip_s
    agree = float(axis @ cal.up_direction((float(tip[0]), float(tip[1])), pose))
    conf = min(1.0, best.elongation / 6.0) * min(1.0, 0.5 + abs(agree))
    line_sigma = fit.sigma_at(tip_s) if fit is not None else math.inf
    tip_sigma = params.tip_sigma_px
    if flight is not None:
        # The flight sits on the axis: a line that misses it was fitted to something
        # else (a vane seen edge-on, a shadow); trust neither line nor tip much.
        miss = abs(float((flight - tip) @ np.array([-axis[1], axis[0]])))
        if miss > max(4.0, 0.15 * float(np.hypot(*(flight - tip)))):
            line_sigma, tip_sigma, conf = math.inf, 4 * tip_sigma, 0.5 * conf
    return TipFinding(
        (float(tip[0]), float(tip[1])), (float(axis[0]), float(axis[1])), area,
        best.elongation, conf, line_sigma, tip_sigma, fit.span if fit else 0.0, dart,
    )  # fmt: skip


@dataclass(frozen=True)
class _Candidate:
    centre: np.ndarray
    axis: np.ndarray
    s_tip: float
    fit: AxisFit | None
    elongation: float

    @property
    def rank(self) -> float:
        """The longer the thin part and the straighter it is, the likelier the dart."""
        if self.fit is None:
            return 0.0
        return self.fit.span / (1.0 + 2.0 * self.fit.sigma)


def _up_is_sure(cal: Calibration, pose: CameraPose, pt: np.ndarray) -> bool:
    """Whether every dart tilted up to ``MAX_TILT_DEG`` from the board's normal leaves
    the board on the same side in the image at ``pt`` (false for a camera that looks
    at the board nearly face-on: there a tilted dart can point any way)."""
    ((bx, by),) = cal.image_to_board(pt)
    side = 1.0 if pose.centre[2] >= 0 else -1.0
    t = math.radians(MAX_TILT_DEG)
    az = np.radians(np.arange(0.0, 360.0, 30.0))
    ends = np.column_stack([np.sin(t) * np.cos(az), np.sin(t) * np.sin(az),
                            np.full(len(az), side * math.cos(t))]) * 20.0  # fmt: skip
    base = np.array([[bx, by, 0.0]])
    p = pose.project(np.vstack([base, base + np.array([[0, 0, side * 20.0]]), base + ends]))
    up = p[1] - p[0]
    d = p[2:] - p[0]
    cos = (d @ up) / np.maximum(np.linalg.norm(d, axis=1) * np.linalg.norm(up), 1e-9)
    return bool(cos.min() > 0.2)


def _orient(
    pts: np.ndarray,
    axis: np.ndarray,
    centre: np.ndarray,
    up: np.ndarray,
    up_sure: bool,
    frame: tuple[int, int],
) -> np.ndarray:
    """Which way along the axis the flight is: where the view says the body leaves the
    board when that is sure; else the end the picture's edge cuts off (``_cut_end``);
    else the end with more change (a flight is larger than the point). ``frame``: the
    picture's (width, height)."""
    if up_sure:
        return axis if float(axis @ up) >= 0 else -axis
    if cut := _cut_end(pts, axis, centre, frame):
        return axis if cut > 0 else -axis
    rel = pts - centre
    along = rel @ axis
    across = np.abs(rel @ np.array([-axis[1], axis[0]]))
    on = across <= 3.0
    lo, hi = float(along[on].min()), float(along[on].max())
    span = hi - lo
    near = across <= max(8.0, 0.6 * span)
    a_end = near & (along <= lo + 0.3 * span)
    b_end = near & (along >= hi - 0.3 * span)
    na, nb = int(a_end.sum()), int(b_end.sum())  # area: specks of shadow count little
    if nb >= 2 * na + 10:
        return axis
    if na >= 2 * nb + 10:
        return -axis
    return axis if float(axis @ up) >= 0 else -axis


def _cut_end(pts: np.ndarray, axis: np.ndarray, centre: np.ndarray, frame: tuple[int, int]) -> int:
    """Which end of the dart's change along ``axis`` the picture's edge cuts off: 1
    the end ``axis`` points to, -1 the other, 0 neither or both. A dart near the
    board's edge leaning out of a tightly framed picture runs out of it at the
    flight's end; its tip, on the board, is in the picture. Seen nearly face-on, such
    a dart was read from the wrong end first as often as not (the end with more
    change). A tip a few pixels from the edge (its point's change or its shadow
    reaching it) is now the one read from the wrong end first: a far narrower band
    of the picture than the dart's length, and the other end stays a reading
    (``TipParams.flipped``). Only change on the axis counts (a shadow on the wall
    that runs out of the picture is not the dart). ``frame``: (width, height)."""
    w, h = frame
    rel = pts - centre
    on = np.abs(rel @ np.array([-axis[1], axis[0]])) <= ON_AXIS_PX
    x, y = pts[on, 0], pts[on, 1]
    edge = (x < EDGE_PX) | (y < EDGE_PX) | (x >= w - EDGE_PX) | (y >= h - EDGE_PX)
    if not edge.any():
        return 0
    along = rel[on] @ axis
    lo, hi = float(along.min()), float(along.max())
    reach = 0.25 * (hi - lo)
    lo_cut = bool((edge & (along <= lo + reach)).any())
    hi_cut = bool((edge & (along >= hi - reach)).any())
    return 0 if lo_cut == hi_cut else (1 if hi_cut else -1)


def _follow(
    pts: np.ndarray,
    axis: np.ndarray,
    centre: np.ndarray,
    flight: np.ndarray | None,
    ch: Change,
    after: np.ndarray,
    dart: np.ndarray,
    cal: Calibration,
    pose: CameraPose,
    params: TipParams,
    flip: bool = False,
) -> _Candidate | None:
    """From a first axis: which end is the tip, then the axis refined on sections.
    ``after``: the after frame in the before frame's pixels (the point's own colour,
    ``point_end.opaque_point``). ``flip``: the other end, when which end it is was a
    guess (else None)."""
    up = cal.up_direction((float(centre[0]), float(centre[1])), pose)
    if flight is not None and abs(float((flight - centre) @ axis)) > 3.0:
        if flip:
            return None
        axis = axis if float((flight - centre) @ axis) > 0 else -axis
    else:
        up_sure = _up_is_sure(cal, pose, centre)
        if flip and up_sure:
            return None
        frame = (ch.mask.shape[1], ch.mask.shape[0])
        axis = _orient(pts, axis, centre, up, up_sure, frame)
        axis = -axis if flip else axis
    score = ch.score
    images = (ch.diff, score) if ch.shadow.any() else (ch.diff,)
    rel = pts - centre
    along = rel @ axis
    across = rel @ np.array([-axis[1], axis[0]])
    on = np.abs(across) <= 3.0
    if on.sum() < 5:
        return None
    # The flight end; past the flight, specks in line with the dart are not the dart.
    flight_s = None if flight is None else float((flight - centre) @ axis)
    far = _flight_end(along[on], flight_s)
    on &= along <= far
    length = float(along[on].max() - along[on].min()) + 1
    width = max(1.0, float(np.percentile(np.abs(across[on]), 90)) * 2)
    elongation = length / width
    if elongation < params.min_elongation:
        return None
    longest = _longest_dart_px(cal, pose, centre)
    s_tip = max(_tip_end(along[on], px_per_mm(cal, centre)), far - longest)
    fit = None
    for _ in range(2):  # refine the axis on cross-sections, then again on the better axis
        # Cross-sections on all the change, and on the change less what passed for
        # shadow: a grey point or barrel over a cream segment is darker with the colour
        # kept and passes for shadow, which cuts its sections short on that side and
        # turns the line by pixels; a shadow alongside the dart widens them instead.
        # The fit whose line is surer at the tip is kept (with no shadow at all the
        # two are the same: one fit).
        fits = [axis_from_sections(img, ch.threshold, centre, axis, s_tip, length)
                for img in images]  # fmt: skip
        ok = [f for f in fits if f is not None]
        got = min(ok, key=lambda f: f.sigma_at(s_tip)) if ok else None
        if got is None:
            break
        fit = got
        centre, axis = got.centre, got.axis
        # ``far`` in the refined axis' coordinates: the axis moved by a fraction of a
        # degree, so the far end's position along it barely changed.
        if flight_s is not None:
            flight_s = float((flight - centre) @ axis)
        far = _flight_end((pts[on] - centre) @ axis, flight_s)
        s_tip = walk(ch, dart, centre, axis, got.s_mid, max(got.s_mid - length - 30.0,
                      far - longest), params.band_px)  # fmt: skip
        s_tip = opaque_point(ch, after, centre, axis, s_tip)
    return _Candidate(centre, axis, s_tip, fit, elongation)


def _longest_dart_px(cal: Calibration, pose: CameraPose, pt: np.ndarray) -> float:
    """The longest a dart (``DART_MAX_MM``, leaning up to ``MAX_TILT_DEG``) can look in
    the image near ``pt``: a shadow in line with the dart reaches further."""
    ((bx, by),) = cal.image_to_board(pt)
    side = 1.0 if pose.centre[2] >= 0 else -1.0
    t = math.radians(MAX_TILT_DEG)
    az = np.radians(np.arange(0.0, 360.0, 30.0))
    dirs = np.column_stack([np.sin(t) * np.cos(az), np.sin(t) * np.sin(az),
                            np.full(len(az), side * math.cos(t))])  # fmt: skip
    base = np.array([[bx, by, 0.0]])
    p = pose.project(np.vstack([base, base + DART_MAX_MM * dirs]))
    return float(np.linalg.norm(p[1:] - p[0], axis=1).max()) + 5.0


# -- the tip along the axis ---------------------------------------------------------------


def _flight_end(along: np.ndarray, flight_s: float | None) -> float:
    """The flight's end of the dart's pieces along the axis: the furthest piece, or
    with the flight's centre known (at ``flight_s``) the end of the run of change from
    it outward with no gap over ``FLIGHT_GAP_PX``."""
    if flight_s is None or float(along.max()) <= flight_s:
        return float(along.max())
    s = np.sort(along[along >= flight_s])
    gaps = np.diff(np.concatenate([[flight_s], s]))
    wide = np.nonzero(gaps > FLIGHT_GAP_PX)[0]
    if not len(wide):
        return float(s[-1])
    return float(s[wide[0] - 1]) if wide[0] > 0 else flight_s


def _tip_end(along: np.ndarray, px_per_mm: float) -> float:
    """The tip end of the dart's pieces along a first axis: from the far (flight) end
    towards the tip, pieces follow each other across gaps up to a shaft's length (a
    black shaft over a black segment is invisible) and no further than a dart's
    length; what lies beyond (a shadow in line with the dart) is not the dart."""
    s = np.sort(along)[::-1]
    gaps = -np.diff(s)
    cut = np.nonzero(gaps > max(5.0, SHAFT_MAX_MM * px_per_mm))[0]
    end = float(s[cut[0]]) if len(cut) else float(s[-1])
    return max(end, float(s[0]) - DART_MAX_MM * px_per_mm)


__all__ = ["Change", "TipFinding", "TipParams", "find_tip", "too_much_change"]
