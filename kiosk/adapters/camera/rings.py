"""Step 1 of the automatic calibration (``autocal``): the double and treble rings'
ellipses in a picture.

The double ring is the largest red+green ring, the treble ring the largest one inside
it; ellipses are fitted to the double ring's outer edge (170 mm) and the treble ring's
inner edge (99 mm).

Darts in the board break those rings: a flight over a ring hides 20-40 mm of it, and
the ring then has no hole (measured on rendered boards: with one dart in, 27 pictures
in 40 had no whole ring; with three, 39 in 40). Then the edges are read along rays from
the rings' middle instead: per ray, the outermost ring colour (the double's outer edge)
and the first ring colour out past the bull near 99/170 of the way (the treble's inner
edge). A dart gives a few rays a wrong radius; those are dropped (far from their
neighbours' median, then far from the ellipse fitted to the rest). The ellipses are only
the start: step 2 checks that their radii are in the rings' ratio, and step 4 fits the
board to the rings' colours.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from kiosk.domain import board

RAYS = 720  # rays from the rings' middle (every half degree)
# A ray's edge more than this far (a fraction of the radius) from its neighbours'
# median (``NEIGHBOURS`` rays) is a dart's, not the ring's
RAY_JUMP = 0.05
NEIGHBOURS = 31
# Fitted to the rays kept: an ellipse that 60 % of the rays lie on, within 1.5 % of its
# size, is the ring; fewer, and darts hid too much of it (or it is no ring)
ON_ELLIPSE = 0.015
MIN_ON_ELLIPSE = 0.6
# The treble's inner edge, as a fraction of the double's outer edge along a ray (99/170
# from the middle; more or less from a middle off the true centre, or a steep view)
TREBLE_FROM, TREBLE_TO = 0.4, 0.75
# px: a double ring read along rays narrower than this is not taken (a board under
# about 80 px across, in a small picture, was fitted 5-12 mm off)
MIN_RAYS_PX = 120.0


class Refused(Exception):
    """Why the board was not found: ``template`` (translated on the screen) with its
    ``values`` filled in is ``reason``."""

    def __init__(self, template: str, confidence: float = 0.0, **values: str) -> None:
        self.reason = template.format_map(values)  # (braces in a value are kept as they are)
        super().__init__(self.reason)
        self.template, self.values = template, values
        self.confidence = confidence


def colour_masks(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(red, green) uint8 masks of a BGR picture: saturated board colours only (the
    wall, skin and a brown cabinet are less red than a board's red)."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[:, :, 0], hsv[:, :, 1], hsv[:, :, 2]
    red = ((hue >= 160) | (hue <= 7)) & (sat >= 100) & (val >= 50)
    green = (hue >= 35) & (hue <= 95) & (sat >= 80) & (val >= 40)
    return red.astype(np.uint8) * 255, green.astype(np.uint8) * 255


Ellipse = tuple[tuple[float, float], tuple[float, float], float]


class Rings(NamedTuple):
    """The double ring's outer edge and the treble ring's inner edge."""

    outer: Ellipse
    inner: Ellipse


def ring_ellipses(img: np.ndarray) -> Rings:
    """The rings' ellipses: from whole rings, else from rays (darts over the rings)."""
    h, w = img.shape[:2]
    red, green = colour_masks(img)
    mask = cv2.bitwise_or(red, green)
    if cv2.countNonZero(mask) < 0.002 * w * h:
        raise Refused("no red and green board rings in the picture")
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k)
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hier is None:
        raise Refused("no red and green board rings in the picture")
    hier = hier[0]
    outers = [i for i in range(len(contours)) if hier[i][3] < 0]
    outers.sort(key=lambda i: -cv2.contourArea(contours[i]))
    for i in outers[:3]:
        found = _double_and_treble(list(contours), hier, i, mask.shape)
        if found is not None:
            return Rings(*found)
    if (found := _by_rays(mask)) is not None:
        return Rings(*found)
    raise Refused("no double and treble rings found (is the whole board in the picture?)")


def _children(hier: np.ndarray, i: int) -> list[int]:
    out, c = [], int(hier[i][2])
    while c >= 0:
        out.append(c)
        c = int(hier[c][0])
    return out


def _double_and_treble(
    contours: list[np.ndarray], hier: np.ndarray, i: int, shape: tuple[int, ...]
) -> tuple[Ellipse, Ellipse] | None:
    c = contours[i]
    area = cv2.contourArea(c)
    if len(c) < 40 or area < 400:
        return None
    holes = sorted(_children(hier, i), key=lambda j: -cv2.contourArea(contours[j]))
    if not holes or cv2.contourArea(contours[holes[0]]) < 0.5 * area:
        return None  # a ring has a hole of (162/170)^2 of its area; a blob does not
    h, w = shape[:2]
    x, y, bw, bh = cv2.boundingRect(c)
    if x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1:
        raise Refused("the board is cut off by the edge of the picture")
    outer = _fit_ellipse(c)
    if _ellipse_misfit(c, outer) > 0.02:
        return None
    # The treble ring: the largest ring-shaped contour inside, with a hole of its own.
    inside = [
        j
        for j in range(len(contours))
        if hier[j][3] < 0 and j != i and 0.2 * area < cv2.contourArea(contours[j]) < 0.6 * area
    ]
    inside.sort(key=lambda j: -cv2.contourArea(contours[j]))
    for j in inside:
        centre = tuple(float(v) for v in contours[j].reshape(-1, 2).mean(axis=0))
        if cv2.pointPolygonTest(contours[holes[0]], centre, False) <= 0:
            continue
        t_holes = sorted(_children(hier, j), key=lambda q: -cv2.contourArea(contours[q]))
        if not t_holes or len(contours[t_holes[0]]) < 30:
            continue
        inner = _fit_ellipse(contours[t_holes[0]])
        if _ellipse_misfit(contours[t_holes[0]], inner) > 0.03:
            continue
        return outer, inner
    return None


def _fit_ellipse(contour: np.ndarray) -> Ellipse:
    (cx, cy), (a1, a2), ang = cv2.fitEllipse(contour)
    return (float(cx), float(cy)), (float(a1), float(a2)), float(ang)


def _ellipse_misfit(contour: np.ndarray, e: Ellipse) -> float:
    """Mean distance of the contour from the ellipse, as a fraction of its size."""
    return float(np.mean(_off_ellipse(contour, e)))


def _off_ellipse(pts: np.ndarray, e: Ellipse) -> np.ndarray:
    """Per point, its distance from the ellipse as a fraction of the ellipse's size."""
    p = pts.reshape(-1, 2).astype(np.float64)
    (cx, cy), (ax1, ax2), ang = e
    if min(ax1, ax2) <= 1:
        return np.ones(len(p))
    p = p - (cx, cy)
    t = math.radians(ang)
    u = p[:, 0] * math.cos(t) + p[:, 1] * math.sin(t)
    v = -p[:, 0] * math.sin(t) + p[:, 1] * math.cos(t)
    return np.abs(np.hypot(u / (ax1 / 2), v / (ax2 / 2)) - 1.0)


# -- darts over the rings: rays -----------------------------------------------------------


def _by_rays(mask: np.ndarray) -> tuple[Ellipse, Ellipse] | None:
    """The two ellipses from the edges along rays of the red+green ``mask``; None when
    too many rays disagree."""
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = np.zeros(n, bool)
    keep[1:] = areas >= 0.02 * areas.max()  # the rings' pieces and flights, not specks
    rings = np.where(keep[labels], 255, 0).astype(np.uint8)
    big = np.flatnonzero(areas >= 0.1 * areas.max()) + 1
    weight = stats[big, cv2.CC_STAT_AREA].astype(np.float64)
    middle = (centroids[big] * weight[:, None]).sum(axis=0) / weight.sum()
    c = (float(middle[0]), float(middle[1]))
    h, w = mask.shape[:2]
    reach = max(math.hypot(c[0] - x, c[1] - y) for x in (0, w) for y in (0, h))
    steps = max(2, int(reach))
    flags = cv2.WARP_POLAR_LINEAR | cv2.INTER_NEAREST | cv2.WARP_FILL_OUTLIERS
    on = cv2.warpPolar(rings, (steps, RAYS), c, reach, flags) > 127  # (ray, radius)
    px = reach / steps
    theta = np.arange(RAYS) * 2.0 * math.pi / RAYS
    rays = np.stack([np.cos(theta), np.sin(theta)], axis=1)
    hit = on.any(axis=1)
    last = steps - 1 - np.argmax(on[:, ::-1], axis=1)
    r_out = np.where(hit, (last + 0.5) * px, np.nan)
    outer = _fit_rays(c, rays, r_out)
    if outer is None:
        return None
    if _cut_off(outer, w, h):  # (the rays stopped at the edge: a piece of the ring)
        raise Refused("the board is cut off by the edge of the picture")
    if min(outer[1]) < MIN_RAYS_PX:
        return None
    along = _radius_along(outer, c, rays)
    starts = on[:, 1:] & ~on[:, :-1]  # off -> on: an edge facing the middle
    r_in = np.full(RAYS, np.nan)
    for k in np.flatnonzero(np.isfinite(along)):
        r = (np.flatnonzero(starts[k]) + 0.5) * px  # (between the off and the on sample)
        frac = r / along[k]
        r = r[(frac > TREBLE_FROM) & (frac < TREBLE_TO)]
        if len(r):
            r_in[k] = r[np.argmin(np.abs(r / along[k] - board.TREBLE_INNER / board.DOUBLE_OUTER))]
    inner = _fit_rays(c, rays, r_in)
    return None if inner is None else (outer, inner)


def _fit_rays(c: tuple[float, float], rays: np.ndarray, r: np.ndarray) -> Ellipse | None:
    """An ellipse through the edge points ``c + r * ray``, rays that jump dropped."""
    ok = np.isfinite(r)
    if ok.sum() < RAYS / 2:
        return None
    pad = NEIGHBOURS // 2
    med = np.full_like(r, np.nan)
    wrapped = np.concatenate([r[-pad:], r, r[:pad]])
    windows = sliding_window_view(wrapped, NEIGHBOURS)
    some = np.isfinite(windows).any(axis=1)
    med[some] = np.nanmedian(windows[some], axis=1)
    ok &= np.abs(r - med) <= RAY_JUMP * med
    if ok.sum() < RAYS / 2:
        return None
    pts = (np.array(c) + r[ok, None] * rays[ok]).astype(np.float32)
    return _trimmed_fit(pts)


def _trimmed_fit(pts: np.ndarray) -> Ellipse | None:
    """An ellipse fitted to the points, refitted to those near it; None unless most lie
    on it."""
    e, kept = None, pts
    for _ in range(5):
        if len(kept) < max(20, 0.3 * len(pts)):
            return None
        e = _fit_ellipse(kept)
        off = _off_ellipse(pts, e)
        kept = pts[off < max(2.5 * float(np.median(off)), 0.004)]
    if e is None or float((_off_ellipse(pts, e) < ON_ELLIPSE).mean()) < MIN_ON_ELLIPSE:
        return None
    return e


def _cut_off(e: Ellipse, w: int, h: int) -> bool:
    """Whether the ellipse reaches past the edge of a ``w`` x ``h`` picture."""
    (cx, cy), (ax1, ax2), ang = e
    t = math.radians(ang)
    half_w = math.hypot(ax1 / 2 * math.cos(t), ax2 / 2 * math.sin(t))
    half_h = math.hypot(ax1 / 2 * math.sin(t), ax2 / 2 * math.cos(t))
    return cx - half_w <= 1 or cy - half_h <= 1 or cx + half_w >= w - 2 or cy + half_h >= h - 2


def _radius_along(e: Ellipse, c: tuple[float, float], rays: np.ndarray) -> np.ndarray:
    """Per ray from ``c`` (inside ``e``), the distance to the ellipse (NaN: none)."""
    (cx, cy), (ax1, ax2), ang = e
    t = math.radians(ang)
    rot = np.array([[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]])
    p = rot @ (np.array(c) - (cx, cy))
    d = rays @ rot.T
    a2, b2 = (ax1 / 2) ** 2, (ax2 / 2) ** 2
    qa = d[:, 0] ** 2 / a2 + d[:, 1] ** 2 / b2
    qb = 2.0 * (p[0] * d[:, 0] / a2 + p[1] * d[:, 1] / b2)
    qc = p[0] ** 2 / a2 + p[1] ** 2 / b2 - 1.0
    disc = qb**2 - 4.0 * qa * qc
    with np.errstate(invalid="ignore"):
        return np.where(disc >= 0, (-qb + np.sqrt(np.maximum(disc, 0.0))) / (2.0 * qa), np.nan)
