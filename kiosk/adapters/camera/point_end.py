"""Along a dart's axis, towards the board: where its steel point ends.

``tip`` finds the dart's axis; here, from the barrel towards the tip, the last place
the point is still seen (``walk``: its solid change, bridging a wire or a number of
its own colour, and a thin line over a light board that passes for shadow), then past
that while the after frame keeps the point's own colour (``opaque_point``: the point's
end beside its own shadow over a cream segment), then the sub-pixel end where the
difference drops to half the point's level (``refine``). A shadow in line with the
dart can still carry the end along it, which is why the tip point is trusted less than
the axis line (``tip.TipFinding.tip_sigma_px``, ``fusion``).
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.adapters.camera.change import Change

MAX_GAP_PX = 8.0  # the point can vanish this long over a wire or a number of its colour
REFINE_BEYOND_PX = 2.0  # the point's end lies at most this far past the last dart seen
# A board this bright (mean of B, G, R before the dart) or brighter can be darker under
# a grey steel point; a black segment cannot: a darker line over it is a shadow.
LIGHT_BOARD = 100.0
# The point past the walk's end (``opaque_point``): its colour within this many grey
# levels of the point's just inside (JPEG, noise), the board's at least twice this
# far from it, for at most OPAQUE_MAX_PX. Face-on tuning seeds 430,000..431,499 at
# 1920x1080: one camera's tip within 1.5 px along the dart 50 more times of 4,500,
# 19 fewer; 1,482 -> 1,484 of 1,500 fused exact; all angles (seeds 450,000..451,499):
# one camera 4,304 -> 4,319 of 4,500 exact, three cameras unchanged.
OPAQUE_TOL = 10.0
OPAQUE_MAX_PX = 10.0


def walk(
    ch: Change,
    dart: np.ndarray,
    centre: np.ndarray,
    axis: np.ndarray,
    s_from: float,
    s_to: float,
    band: float,
) -> float:
    """From the dart's body towards its tip along the axis: the last position with
    dart (``dart``: its pieces of solid change) in the strip, crossing gaps of up to
    ``MAX_GAP_PX`` where it is not (a wire, a number or a board of the point's colour;
    a barrel's end that passes for shadow). Change that passes for shadow counts as
    the dart where it is a thin line centred on the axis over a light board (a steel
    point over a cream segment, its colour smeared by JPEG; over a black segment the
    point is lighter than the board, and a darker line is the dart's shadow in line
    with it, ``LIGHT_BOARD``); a shadow leaves the axis at the tip (unless the light
    is right behind the camera). So does solid change left out of the dart
    where it lies across the axis, centred on it, with less shadow than itself beside
    it: the steel point, a thin piece of its own beside its shadow, taken for the
    shadow's rim (``tip._dart_pieces``)."""
    solid, shadow = dart, ch.shadow
    h, w = solid.shape
    ss = np.arange(s_from, s_to, -0.5)
    if not len(ss):
        return float(s_from)
    offs = np.arange(-4.0, 4.01, 0.5)
    nrm = np.array([-axis[1], axis[0]])
    P = centre[None, None, :] + ss[:, None, None] * axis + offs[None, :, None] * nrm
    xi = np.clip(np.round(P[..., 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(P[..., 1]).astype(int), 0, h - 1)
    inside = (P[..., 0] >= 0) & (P[..., 0] < w) & (P[..., 1] >= 0) & (P[..., 1] < h)
    in_band = np.abs(offs) <= band
    core = np.abs(offs) <= 1.0
    has_solid = (solid[yi[:, in_band], xi[:, in_band]] & inside[:, in_band]).any(axis=1)
    at_shadow = shadow[yi, xi] & inside
    has_shadow = at_shadow[:, core].any(axis=1) & ~has_solid
    d = np.where(inside, ch.diff[yi, xi], 0.0)
    on = d > ch.threshold
    mass = d * on
    centroid = (mass * offs).sum(axis=1) / np.maximum(mass.sum(axis=1), 1e-6)
    thin_line = on[:, core].any(axis=1) & (np.abs(centroid) <= 1.0) & (on.sum(axis=1) <= 13)
    if ch.before is not None:
        board = ch.before[yi[:, core], xi[:, core]].astype(np.float32).mean(axis=2)
        thin_line &= (board >= LIGHT_BOARD).any(axis=1)
    loose = ch.mask[yi, xi] & ~at_shadow & ~solid[yi, xi] & inside
    n_loose = loose.sum(axis=1)
    loose_mid = (loose * offs).sum(axis=1) / np.maximum(n_loose, 1)
    point = (loose[:, core].all(axis=1) & (np.abs(loose_mid) <= 1.0) & (n_loose <= 15)
             & (at_shadow.sum(axis=1) < n_loose))  # fmt: skip
    last = ss[0]
    gap = 0.0
    for s, so, sh, tl, pt in zip(ss, has_solid, has_shadow, thin_line, point, strict=True):
        if so or (sh and tl) or pt:
            last, gap = s, 0.0
        else:
            gap += 0.5
            if gap > MAX_GAP_PX:
                break
    return float(last)


def opaque_point(
    ch: Change, after: np.ndarray, centre: np.ndarray, axis: np.ndarray, s_end: float
) -> float:
    """Past where ``walk`` stopped: the steel point is opaque, so over a board that
    differs from it, it keeps its own colour whatever lies under it, while a shadow
    takes the board's (darkened). Where the point's last millimetres lie over a cream
    segment beside their own shadow, the two merge into one wide darkening that passes
    for shadow and the walk stops short, in every camera alike. Onwards from ``s_end``
    while the after frame on the axis keeps the colour of the point just inside it and
    differs from the board before it."""
    if ch.before is None:
        return s_end
    h, w = ch.mask.shape

    def colour(img: np.ndarray, s: float) -> np.ndarray | None:
        q = centre + axis * s
        x, y = round(float(q[0])), round(float(q[1]))
        if not (0 <= x < w and 0 <= y < h):
            return None
        return np.asarray(img[y, x], np.float32)

    inside = [
        c for d in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0) if (c := colour(after, s_end + d)) is not None
    ]
    if len(inside) < 4:
        return s_end
    point = np.median(np.array(inside), axis=0)
    last = s = s_end
    while (s := s - 0.5) >= s_end - OPAQUE_MAX_PX:
        a, b = colour(after, s), colour(ch.before, s)
        if a is None or b is None:
            break
        if (
            float(np.abs(a - point).max()) > OPAQUE_TOL
            or float(np.abs(a - b).max()) < 2 * OPAQUE_TOL
        ):
            break
        last = s
    return last


def refine(
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
    idx = np.nonzero((ss <= s_end + 1.0) & (ss >= s_end - REFINE_BEYOND_PX))[0][::-1]
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
