"""What changed between a still frame before a dart and the settled frame after it.

0. A camera that moved between the frames (by a fraction of a pixel or more) would
   show every edge of the board as change: the after frame is moved back onto the
   before frame first (``register``).
1. Where: at an eighth of the resolution, then only there at full resolution.
   The after frame is brought to the before frame's tones per channel (a lamp that
   drifted, an exposure that changed, is not a dart: ``tone``), both are smoothed a
   little, and the change is the largest per-channel difference.
2. A shadow darkens the board by the same factor in every channel and keeps its
   colour (after ~ k * before, k < 1). Changed pixels that fit that model are flagged
   as shadow: the dart is the change that is left. (A grey point over a cream
   segment, its colour smeared by JPEG, can pass for a shadow: the tip search bridges
   short gaps for that reason.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from kiosk.adapters.camera import register, tone

ROI_MARGIN = 48  # px around the coarse change worked at full resolution
MOVED_RESIDUAL_PX = 0.35  # a moved camera's frames line up to about this, edges blurred
WIDE_FRAC = 0.05  # this much of the picture changed (coarse): did the camera move?
FOCUS_RATIO = 0.88  # edges this much weaker or stronger after: the focus changed
MIN_EDGE_PIXELS = 50  # fewer strong edges in the crop: too few to tell
CLIP_LEVEL = 245.0  # a channel this bright (after a 3x3 mean) may have been clipped


@dataclass(frozen=True)
class ChangeParams:
    min_diff: float = 14.0  # grey levels (after a 3x3 mean) that count as changed
    noise_factor: float = 5.0  # ... or this many times the frame's typical difference
    shadow_k: float = 0.95  # darker than this factor, colour kept: a shadow (see _shadows)
    rim_factor: float = 2.0  # weaker change than this x threshold next to a shadow: its rim
    rim_steps: int = 2  # pixels the rim reaches
    shadow_min_k: float = 0.4  # darker than this: not a shadow (a dark barrel; lit boards
    # have ambient light, a shadow takes at most about half of it)
    dark_min_k: float = 0.08  # down to this, colour kept: maybe a low lamp's shadow (``dark``)


@dataclass(frozen=True)
class Change:
    diff: np.ndarray  # float32 (h, w), smoothed largest channel difference
    mask: np.ndarray  # bool, changed
    shadow: np.ndarray  # bool, changed but only darker with the colour kept
    threshold: float
    # How the picture moved from before to after (``register``; None: it did not).
    motion: np.ndarray | None = field(default=None, compare=False, repr=False)
    # When it moved: the after frame moved back onto the before frame.
    after: np.ndarray | None = field(default=None, compare=False, repr=False)
    # The box (x0, y0, x1, y1) outside which nothing changed (None: nothing did).
    box: tuple[int, int, int, int] | None = None
    # The before frame (BGR) the change was worked out against: what the board looked
    # like under the change.
    before: np.ndarray | None = field(default=None, compare=False, repr=False)
    # The after frame in the before frame's tones over ``box`` (float32), for the
    # difference without the 3x3 mean (``sharp_score``); None when the camera moved:
    # resampled edges are only tamed on the smoothed difference.
    toned: np.ndarray | None = field(default=None, compare=False, repr=False)
    # Changed, not ``shadow``, but darker by one factor in every channel, down to
    # ``dark_min_k``: the shadow of a low lamp, or a black barrel over a grey part of
    # the board (which it is, the piece it lies in tells: ``tip._dart_pieces``).
    dark: np.ndarray | None = field(default=None, compare=False, repr=False)

    def where(self, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``np.nonzero`` of a frame-sized mask that is empty outside ``box`` (rows,
        columns), looked for in the box only."""
        if self.box is None:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        x0, y0, x1, y1 = self.box
        ys, xs = np.nonzero(m[y0:y1, x0:x1])
        return ys + y0, xs + x0

    @property
    def shift(self) -> tuple[float, float]:
        """How far the middle of the picture moved (pixels)."""
        h, w = self.mask.shape
        return register.shift_at(self.motion, (w / 2, h / 2))

    @property
    def solid(self) -> np.ndarray:
        """Changed and not a shadow: the dart itself."""
        return np.asarray(self.mask & ~self.shadow)

    @cached_property
    def score(self) -> np.ndarray:
        """The difference with shadow pixels zeroed (float32), for profiles (worked
        out once: the tip search reads it for every axis it tries)."""
        s = self.diff.copy()
        s[self.shadow] = 0.0
        return s

    @cached_property
    def sharp_score(self) -> np.ndarray:
        """``score`` without the 3x3 mean, where the camera held still: the steel
        point's end, a pixel or two wide, is not spread over its neighbours (the tip's
        sub-pixel end, ``point_end.refine``). Worked out when asked for: the other callers
        of ``change`` (is it a hand, did the camera move) do not need it."""
        if self.toned is None or self.before is None or self.box is None:
            return self.score
        x0, y0, x1, y1 = self.box
        s = np.zeros_like(self.diff)
        s[y0:y1, x0:x1] = _largest_channel(self.toned, self.before[y0:y1, x0:x1].astype(np.float32))
        s[self.shadow] = 0.0
        return s


def change(before: np.ndarray, after: np.ndarray, params: ChangeParams = ChangeParams()) -> Change:
    """The change between two BGR frames of one size. The work is done at full
    resolution only around what changed at an eighth of it (plus a margin); the
    arrays returned are frame-sized. When the camera moved between the frames, the
    after frame is moved back onto the before frame first (``register``; the motion
    is in ``Change.motion``, and the arrays are in the before frame's pixels, which
    the calibration was made on)."""
    h, w = before.shape[:2]
    taken = after
    after, motion, lut, d_small = _lined_up(before, after, params)
    ys, xs = np.nonzero(d_small > 0.5 * params.min_diff)
    if motion is not None and len(ys):  # (where the dart is looked for: resampled sharp)
        register.sharpen(after, taken, motion, before, _roi(xs, ys, w, h))
    moved_after = after if motion is not None else None
    diff = np.zeros((h, w), np.float32)
    mask = np.zeros((h, w), bool)
    shadow = np.zeros((h, w), bool)
    thr = params.min_diff
    if not len(ys):
        return Change(diff, mask, shadow, thr, motion, moved_after)
    x0, y0, x1, y1 = _roi(xs, ys, w, h)
    b_roi = before[y0:y1, x0:x1]
    a_roi = tone.apply(lut, after[y0:y1, x0:x1], b_roi)
    b = np.asarray(cv2.blur(b_roi.astype(np.float32), (3, 3)))
    a = np.asarray(cv2.blur(a_roi, (3, 3)))
    d = _largest_channel(a, b)
    if motion is not None or _focus_changed(a, b):
        d = _less_edges(d, b)
    typical = float(np.median(d[::4, ::4])) if d.size else 0.0
    thr = max(params.min_diff, params.noise_factor * typical)
    mk = d > thr
    sh, dk = _shadows(a, b, d, mk, thr, params)
    dark = np.zeros((h, w), bool)
    dark[y0:y1, x0:x1] = dk
    diff[y0:y1, x0:x1] = d
    mask[y0:y1, x0:x1] = mk
    shadow[y0:y1, x0:x1] = sh
    toned = None if motion is not None else np.asarray(a_roi, np.float32)
    box = (x0, y0, x1, y1)
    return Change(diff, mask, shadow, thr, motion, moved_after, box, before, toned, dark)


def _largest_channel(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest of the B, G, R differences of two float32 BGR images."""
    dd = cv2.absdiff(a, b)
    return np.asarray(cv2.max(cv2.max(dd[:, :, 0], dd[:, :, 1]), dd[:, :, 2]))


def _lined_up(
    before: np.ndarray, after: np.ndarray, params: ChangeParams
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray]:
    """The after frame moved back onto the before frame (itself if the camera held
    still; resampled bilinearly, enough at an eighth of the resolution), the motion
    (None: still), the tone curves and the change at an eighth of the resolution
    between the lined-up frames (``_coarse``)."""
    h, w = before.shape[:2]
    small_b = _small(before)
    lut, d_small = _coarse(small_b, _small(after))
    ys, xs = np.nonzero(d_small > 0.5 * params.min_diff)
    start: np.ndarray | None = None
    if len(ys) > WIDE_FRAC * d_small.size:  # most of the picture changed: moved?
        start = register.whole_motion(before, tone.apply(lut, after, before))
        if start is not None:
            blurred = register.back(after, start, before, quick=True)
            lut, d_small = _coarse(small_b, _small(blurred))
            ys, xs = np.nonzero(d_small > 0.5 * params.min_diff)
    motion = start
    if len(ys):
        x0, y0, x1, y1 = _roi(xs, ys, w, h)
        a_roi = tone.apply(lut, after[y0:y1, x0:x1], before[y0:y1, x0:x1])
        motion = register.local_motion(before[y0:y1, x0:x1], a_roi, (x0, y0), start)
    if motion is None:
        if start is not None:  # (the whole frame looked moved, its middle did not)
            lut, d_small = _coarse(small_b, _small(after))
        return after, None, lut, d_small
    after = register.back(after, motion, before, quick=True)  # (see ``change``)
    if motion is not start:
        lut, d_small = _coarse(small_b, _small(after))
    return after, motion, lut, d_small


def _less_edges(d: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``d`` less what ``MOVED_RESIDUAL_PX`` of misregistration makes at the edges of
    ``b`` (a moved camera's frames, lined up: resampling and JPEG blocks that moved
    with the picture leave specks along every edge)."""
    return np.asarray(np.maximum(d - MOVED_RESIDUAL_PX * register.edges(b), 0.0), np.float32)


def _focus_changed(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the after crop ``a`` is blurrier or sharper than the before crop ``b``
    (an autofocus that hunted between the frames): the board's strong edges in ``b``
    are weaker or stronger in ``a`` by more than ``FOCUS_RATIO``. Its edges then show
    as change along every wire, as a moved camera's do. (A dart covers a few of those
    edges: the median does not see them.)"""
    grey_b = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY)[::2, ::2]  # (plenty of edges, a quarter
    grey_a = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)[::2, ::2]  # of the work)
    eb = register.edges(grey_b)
    strong = eb > np.percentile(eb, 95)
    if int(strong.sum()) < MIN_EDGE_PIXELS:
        return False
    ratio = float(np.median(register.edges(grey_a)[strong] / eb[strong]))
    return not FOCUS_RATIO < ratio < 1.0 / FOCUS_RATIO


def _small(frame: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.resize(frame, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA))


def _coarse(small_b: np.ndarray, small_a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tone curves that bring the after frame to the before frame's brightness
    and colour (``tone``), and the change between them at an eighth of the
    resolution (``small_b``, ``small_a``: the frames at that scale)."""
    lut = tone.match(small_b, small_a)
    d_small = np.abs(tone.apply(lut, small_a, small_b) - small_b.astype(np.float32)).max(axis=2)
    return lut, d_small


def _roi(xs: np.ndarray, ys: np.ndarray, w: int, h: int) -> tuple[int, int, int, int]:
    """The full-resolution box around the coarse change at (xs, ys), plus a margin."""
    m = ROI_MARGIN
    x0, y0 = max(0, int(xs.min()) * 8 - m), max(0, int(ys.min()) * 8 - m)
    x1, y1 = min(w, int(xs.max()) * 8 + 8 + m), min(h, int(ys.max()) * 8 + 8 + m)
    return x0, y0, x1, y1


def _shadows(
    a: np.ndarray, b: np.ndarray, diff: np.ndarray, mask: np.ndarray, thr: float,
    params: ChangeParams,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Changed pixels that are shadow, and those darker than a shadow usually is that
    keep the colour (``Change.dark``)."""
    shadow = np.zeros_like(mask)
    dark = np.zeros_like(mask)
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return shadow, dark
    pa = a[ys, xs]
    pb = b[ys, xs]
    # A channel the camera clipped before (a bright cream segment) was brighter than
    # it reads: shaded, it keeps more than the shadow's factor of what it reads. The
    # factor comes from the channels that were not clipped (if none, the darkest
    # ratio), and a clipped channel only has to keep at least that factor.
    clip = pb >= CLIP_LEVEL
    fit = ~clip
    none_fit = np.asarray(~fit.any(axis=1))
    fit[none_fit] = True
    pbf = np.where(fit, pb, 0.0)
    k = (pa * pbf).sum(axis=1) / np.maximum((pbf * pbf).sum(axis=1), 1.0)
    ratio = pa / np.maximum(pb, 1.0)
    k = np.where(none_fit, ratio.min(axis=1), k)
    dev = pa - k[:, None] * pb
    dev = np.where(clip & ~(none_fit[:, None]), np.minimum(dev, 0.0), dev)
    res = np.abs(dev).max(axis=1)
    tol = 3.0 + 0.012 * pb.max(axis=1)
    # Even a faint darkening is a shadow when it keeps the colour: a thin steel point's
    # shadow is only 5-14 % dark, and taken for the dart it leads the tip search along
    # it to the flight's shadow, a point every camera agrees on (a confident error of
    # tens of mm). Measured on 3000 + 1200 held-out throws of two renderers, 0.95
    # against 0.86: three cameras 98.7 -> 98.9 % and 97.8 -> 98.4 % exact, the largest
    # error 77 -> 29 mm and 41 -> 22 mm.
    sh = (k < params.shadow_k) & (k > params.shadow_min_k) & (res < tol)
    shadow[ys[sh], xs[sh]] = True
    dk = (k <= params.shadow_min_k) & (k > params.dark_min_k) & (res < tol)
    dark[ys[dk], xs[dk]] = True
    # The rim of a shadow (weak change next to shadow, where the blur and JPEG mix
    # lit and shaded board) is shadow too.
    weak = mask & (diff < params.rim_factor * thr)
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(params.rim_steps):
        grown = cv2.dilate(shadow.astype(np.uint8), kernel).astype(bool) & weak
        if (grown == shadow).all():
            break
        shadow |= grown
    return shadow, dark
