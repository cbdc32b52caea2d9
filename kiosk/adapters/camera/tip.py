"""Find a new dart's tip from a frame before it landed and a frame after.

1. Difference: the after frame is scaled to the before frame's brightness (a light that
   changed a little is not a dart), then the largest per-channel difference, smoothed.
2. Shadows out: a pixel that got darker by the same factor in every channel, with
   its colour kept (after ~ k * before, k < 1) is a shadow on the board, not a dart.
3. The dart: the largest remaining change, plus pieces of it along the same line (a
   grey barrel over a cream segment can pass for a shadow). Filter by shape, not size:
   it must be elongated.
4. Which end is the tip: the dart's body leaves the board towards the camera; the
   calibration's pose says which way that is in the image at this spot. The tip is
   the other end, where the steel point meets the board.
5. The end, to a fraction of a pixel: along the axis, where the difference falls to
   half the point's own contrast.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.adapters.camera.calibration import Calibration, CameraPose


@dataclass(frozen=True)
class TipParams:
    min_diff: float = 14.0  # grey levels (after a 3x3 mean) that count as changed
    noise_factor: float = 5.0  # ... or this many times the frame's typical difference
    shadow_k: float = 0.86  # darker than this factor, colour kept: a shadow
    min_area: int = 30  # pixels of change (the dart, shadows out) at least
    max_area_frac: float = 0.08  # more than this of the frame: a hand or the light, not a dart
    min_elongation: float = 1.2  # length / width of the dart's change
    band_px: float = 2.5  # half-width of the strip along the axis searched for the point


@dataclass(frozen=True)
class TipFinding:
    image: tuple[float, float]  # the tip, pixels
    axis: tuple[float, float]  # unit vector from the tip towards the flight
    area: int  # pixels of change that make up the dart
    elongation: float
    confidence: float  # 0-1: how sure the shape and the direction are


@dataclass(frozen=True)
class Change:
    diff: np.ndarray  # float32 (h, w), smoothed largest channel difference
    mask: np.ndarray  # bool, changed
    shadow: np.ndarray  # bool, changed but only darker (a shadow)
    threshold: float


def change(before: np.ndarray, after: np.ndarray, params: TipParams = TipParams()) -> Change:
    b = before.astype(np.float32)
    a = after.astype(np.float32)
    small_b = cv2.resize(before, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
    small_a = cv2.resize(after, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
    mb = small_b.reshape(-1, 3).mean(axis=0)
    ma = small_a.reshape(-1, 3).mean(axis=0)
    gain = np.where(ma > 1, mb / np.maximum(ma, 1), 1.0).astype(np.float32)
    a = np.asarray(cv2.multiply(a, cv2.merge([np.full(a.shape[:2], g, np.float32) for g in gain])))
    b = np.asarray(cv2.blur(b, (3, 3)))
    a = np.asarray(cv2.blur(a, (3, 3)))
    d = cv2.absdiff(a, b)
    diff = cv2.max(cv2.max(d[:, :, 0], d[:, :, 1]), d[:, :, 2])
    typical = float(np.median(diff[::4, ::4]))
    thr = max(params.min_diff, params.noise_factor * typical)
    mask = diff > thr
    shadow = np.zeros_like(mask)
    ys, xs = np.nonzero(mask)
    if len(ys):
        pa = a[ys, xs]
        pb = b[ys, xs]
        k = (pa * pb).sum(axis=1) / np.maximum((pb * pb).sum(axis=1), 1.0)
        res = np.abs(pa - k[:, None] * pb).max(axis=1)
        tol = 3.0 + 0.012 * pb.max(axis=1)
        sh = (k < params.shadow_k) & (k > 0.15) & (res < tol)
        shadow[ys[sh], xs[sh]] = True
    return Change(diff, mask, shadow, thr)


def find_tip(
    before: np.ndarray,
    after: np.ndarray,
    cal: Calibration,
    pose: CameraPose | None = None,
    params: TipParams = TipParams(),
) -> TipFinding | None:
    """The tip of the one new dart between ``before`` and ``after``, or None."""
    ch = change(before, after, params)
    h, w = ch.mask.shape
    if int(ch.mask.sum()) > params.max_area_frac * h * w:
        return None
    solid = ch.mask & ~ch.shadow
    # Group by the whole change (dart and shadow meet at the tip, a barrel can be cut
    # in two by a wire); the dart is the group with the most solid (non-shadow) change.
    n, labels = cv2.connectedComponents(ch.mask.astype(np.uint8), connectivity=8)
    if n <= 1:
        return None
    counts = np.bincount(labels[solid], minlength=n)
    counts[0] = 0
    best = int(np.argmax(counts))
    if counts[best] < params.min_area:
        return None
    ys, xs = np.nonzero(solid & (labels == best))
    pts = np.column_stack([xs, ys]).astype(np.float32)
    axis, centre = _thin_line(pts)
    pose = pose or cal.pose()
    up = cal.up_direction((float(centre[0]), float(centre[1])), pose)
    if float(axis @ up) < 0:
        axis = -axis
    rel = pts - centre
    along = rel @ axis
    across = rel @ np.array([-axis[1], axis[0]])
    length = float(along.max() - along.min()) + 1
    width = max(1.0, float(np.percentile(np.abs(across), 90)) * 2)
    elongation = length / width
    if elongation < params.min_elongation:
        return None
    s_tip = _walk(solid, ch.shadow, ch.mask, centre, axis, float(np.median(along)),
                  float(along.min()) - 30.0, params.band_px)  # fmt: skip
    # Refit the line on the dart itself near its tip (shadow specks beyond the tip and
    # the flight pull a fit of everything), then walk again.
    rel = pts - centre
    along = rel @ axis
    across = rel @ np.array([-axis[1], axis[0]])
    sel = (along >= s_tip - 1) & (along <= s_tip + 0.4 * length) & (np.abs(across) <= 4)
    if sel.sum() >= 10:
        axis2, centre2 = _line(pts[sel])
        if float(axis2 @ axis) < 0:
            axis2 = -axis2
        if float(axis2 @ axis) > 0.9:
            s_mid = float((pts[sel] - centre2).mean(axis=0) @ axis2)
            axis, centre = axis2, centre2
            s_tip = _walk(solid, ch.shadow, ch.mask, centre, axis, s_mid, s_mid - 0.5 * length - 30,
                          params.band_px)  # fmt: skip
    tip_s = _refine(ch.diff, centre, axis, s_tip, params.band_px)
    tip = centre + axis * tip_s
    agree = float(axis @ up)
    conf = min(1.0, elongation / 6.0) * min(1.0, 0.5 + abs(agree))
    return TipFinding((float(tip[0]), float(tip[1])), (float(axis[0]), float(axis[1])),
                      len(pts), elongation, conf)  # fmt: skip


def _thin_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The line along which most of the change lies within a few pixels: the dart's
    barrel, point and shaft (a flight seen face-on is a cross, a shadow is mostly
    filtered out), found by trying every direction, then fitted to those pixels."""
    th = np.radians(np.arange(0.0, 180.0, 1.0))
    normals = np.stack([-np.sin(th), np.cos(th)])
    off = pts @ normals  # (N, angles)
    best = (-1, 0, 0.0)
    for j in range(off.shape[1]):
        o = off[:, j]
        lo = float(o.min())
        bins = np.bincount(((o - lo) / 2.0).astype(np.int32))
        pair = bins[:-1] + bins[1:] if len(bins) > 1 else bins
        k = int(np.argmax(pair))
        if pair[k] > best[0]:
            best = (int(pair[k]), j, lo + 2.0 * k + 2.0)
    _, j, o0 = best
    sel = np.abs(off[:, j] - o0) <= 3.0
    if sel.sum() >= 5:
        return _line(pts[sel])
    return _line(pts)


def _line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    line = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array(line[:2], np.float64), np.array(line[2:], np.float64)


def _walk(
    solid: np.ndarray,
    shadow: np.ndarray,
    mask: np.ndarray,
    centre: np.ndarray,
    axis: np.ndarray,
    s_from: float,
    s_to: float,
    band: float,
) -> float:
    """From the dart's body towards its tip along the axis: the last position with
    dart (solid change) in the strip, crossing gaps of up to 3 px of no change (a
    wire, a point the colour of the board) but not a shadow."""
    h, w = solid.shape
    ss = np.arange(s_from, s_to, -0.5)
    offs = np.arange(-band, band + 0.01, 0.5)
    nrm = np.array([-axis[1], axis[0]])
    P = centre[None, None, :] + ss[:, None, None] * axis + offs[None, :, None] * nrm
    xi = np.clip(np.round(P[..., 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(P[..., 1]).astype(int), 0, h - 1)
    inside = (P[..., 0] >= 0) & (P[..., 0] < w) & (P[..., 1] >= 0) & (P[..., 1] < h)
    has_solid = (solid[yi, xi] & inside).any(axis=1)
    core = np.abs(offs) <= 1.0
    has_shadow = (shadow[yi[:, core], xi[:, core]] & inside[:, core]).any(axis=1) & ~has_solid
    last = ss[0]
    gap = 0.0
    for s, so, sh in zip(ss, has_solid, has_shadow, strict=True):
        if so:
            last, gap = s, 0.0
        elif sh:
            break
        else:
            gap += 0.5
            if gap > 3.0:
                break
    return float(last)


def _refine(
    diff: np.ndarray, centre: np.ndarray, axis: np.ndarray, s_end: float, band: float
) -> float:
    """Sub-pixel end of the point: where the difference along the axis drops to half
    of its level just inside the point."""
    ss = np.arange(s_end - 8.0, s_end + 4.0, 0.25, dtype=np.float32)
    os_ = np.arange(-band, band + 0.01, 0.5, dtype=np.float32)
    S, Off = np.meshgrid(ss, os_)
    nx, ny = -axis[1], axis[0]
    mx = (centre[0] + axis[0] * S + nx * Off).astype(np.float32)
    my = (centre[1] + axis[1] * S + ny * Off).astype(np.float32)
    prof = cv2.remap(diff, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT).max(axis=0)
    inside = prof[(ss >= s_end + 1.0) & (ss <= s_end + 3.5)]
    if not len(inside):
        return s_end
    level = float(np.median(inside))
    if level <= 0:
        return s_end
    half = level / 2
    # Walk outwards (decreasing s) from inside the point to the first drop below half.
    idx = np.nonzero(ss <= s_end + 1.0)[0][::-1]
    prev = None
    for i in idx:
        if prof[i] < half:
            if prev is None:
                return float(ss[i])
            v0, v1 = prof[prev], prof[i]
            frac = (v0 - half) / max(1e-6, v0 - v1)
            return float(ss[prev] + (ss[i] - ss[prev]) * frac)
        prev = i
    return s_end
