"""Several cameras' views of one dart -> one board point -> one ``Dart``.

Each camera gives up to three things, in board mm (see ``estimate_from``):

- a **line**: the dart's axis in its image, mapped through the homography. The axis
  passes through the tip, which lies on the board plane, so the mapped line passes
  through the tip too, whatever the barrel's height. It is precise across itself
  (fitted on the whole barrel), and says nothing along itself;
- a **point**: the tip found along the axis, less sure (a shadow in line with the
  dart extends it, the barrel can hide it);
- the **shadow's line**, when a lamp casts a clear shadow (see ``shadow``): a board
  line through the tip as seen from the lamp, which crosses the cameras' lines at a
  good angle even when they look at the board nearly face-on and their lines are
  nearly parallel (one camera alone then has two lines). With other cameras, a
  shadow whose line meets its dart before the tip is left out (a flight's vane's
  shadow cast beside the tip, which they all find alike: ``shadow``).

The fused point minimises the weighted squared distances to all lines and points
(weights 1 / sigma^2): two or three lines at good angles pin it down, the points
decide along a line when the lines are nearly parallel or there is only one. An
observation that disagrees by more than ``REJECT_SIGMA`` of its own error (a camera
that took a shadow for the tip, a flight for the barrel) is dropped, the worst first,
while the rest still fix the point.

How sure the point is: its covariance from the sigmas of what was used (larger when
they disagree more than their sigmas say). When the ellipse of ``DOUBT_SIGMAS``
crosses a wire, ``Fused.doubt`` names the other dart it could be: the kiosk scores
the likelier one and asks the player to check (tuned on rendered throws with seeds
below 1,000,000: on 900 of them, seeds 300000.., 2.5 sigmas flag about 1 dart in 50
thrown at random and 1 in 20 overall, and leave none wrong without a flag). It names
one too when a point well away scores another dart at nearly the same cost (one
camera whose tip point and shadow disagree), and, for one camera, when its other
reading of the change does: on the same throws seen by one camera at a time, 1 dart
in 110 is wrong without a flag instead of 1 in 40, for 1 in 25 more flagged.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from kiosk.adapters.camera.axis import SPAN_OK_PX
from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.tip import TipFinding
from kiosk.domain.board import dart_at
from kiosk.domain.darts import Dart

REJECT_SIGMA = 3.5  # an observation further off than this many of its sigmas is dropped
MIN_SIGMA_MM = 0.03
MAX_SIGMA_MM = 1e4  # vaguer than this (a weight of next to nothing) is no observation
ALT_COST = 2.0  # robust cost of taking a camera's less likely reading
VIEW_SIGMA_PX = 2.0  # the tip lies this close to its dart's change in each view
# ... past the first VIEW_SLACK_PX: the point's last millimetre over a wire or over a
# board of its own colour leaves no change, and a tip made to lie on the change was
# pulled back along the dart, in every camera the same way (face-on tuning seeds
# 430,000..431,499 at 1920x1080: 1,482 -> 1,484 of 1,500 exact; all angles, seeds
# 450,000..451,499: 1,496 -> 1,497, the largest error 6.1 -> 2.7 mm).
VIEW_SLACK_PX = 2.0
VIEW_TRUST = 1.0
VIEW_MAX_PIXELS = 1500
DOUBT_SIGMAS = 2.5  # a wire within this many sigmas of the point: ask the player to check
DOUBT_DIRECTIONS = 16
POINT_TRUST = 0.5  # a tip point is more often a blunder than a line (shadows in line)
SHADOW_TRUST = 1.0  # a shadow's line (``shadow``): one lamp, a clear shadow from the tip
# A point this much costlier (about two thirds of one trusted observation dropped) that
# scores another dart, RIVAL_APART_MM or more away: ask the player (see ``_rival``).
RIVAL_COST = 8.0
RIVAL_APART_MM = 2.0


@dataclass(frozen=True, slots=True)
class Estimate:
    camera: int
    board: tuple[float, float]  # the tip, mm
    weight: float  # 1 / sigma^2 of the tip point, 1/mm^2 (0: no point)
    line: tuple[float, float, float] | None = None  # a x + b y = c, (a, b) unit, mm
    line_weight: float = 0.0  # 1 / sigma^2 across the line, 1/mm^2
    line_trust: float = 1.0  # 0-1: how likely the line is the dart's axis (see tip.py)
    # Less likely readings of the same camera's change (``TipFinding.alternatives``):
    # with several cameras, the reading that agrees with the others is taken.
    alternatives: tuple[Estimate, ...] = ()
    # Where the dart's change is in this camera's image (pixels, (n, 2)) and the
    # homography board mm -> image: the true tip lies on the dart in every view (a
    # flight's vane taken for the barrel by one camera is off the dart in the others).
    view: tuple[np.ndarray, np.ndarray] | None = field(default=None, compare=False, repr=False)
    # The dart's shadow seen by this camera, as a board line through the tip (a x + b y
    # = c, (a, b) unit, mm) and its weight (1 / sigma^2, 1/mm^2): see ``shadow``.
    shadow: tuple[float, float, float] | None = None
    shadow_weight: float = 0.0
    # The shadow's line meets the dart's axis before the tip, where the dart is still
    # seen (``shadow.ShadowLine.before_tip``): with other cameras it is left out.
    shadow_before_tip: bool = False


@dataclass(frozen=True, slots=True)
class Fused:
    board: tuple[float, float]
    dart: Dart
    used: tuple[int, ...]  # cameras of which something was used
    spread_mm: float  # largest distance of a used observation from the fused point
    lines: int = 0  # lines used
    sigma_mm: float = math.inf  # the point's error along its worst direction (1 sigma)
    # Another dart the point could as well be: the kiosk scores ``dart`` and asks the
    # player to check. None: sure.
    doubt: Dart | None = None
    # Why: "wire" (the point's error region crosses a wire) or "reading" (the pictures
    # fit a point well away about as well: another reading, or a camera's tip point
    # and shadow disagreeing).
    doubt_why: str = ""


@dataclass(frozen=True, slots=True, eq=False)  # the same observation, not equal arrays
class _Obs:
    camera: int
    rows: np.ndarray  # (k, 2): each row a unit direction
    rhs: np.ndarray  # (k,)
    sigma: float
    is_line: bool
    trust: float  # 0-1: how likely it is no blunder (a flight taken for the tip)
    shadow: bool = False  # a line of the dart's shadow (every camera sees the same one)


def _observations(estimates: list[Estimate] | tuple[Estimate, ...]) -> list[_Obs]:
    obs = []
    # A shadow whose line meets its dart before the tip is another shadow or comes with
    # a tip found too far on. One camera has no other second line, and it is more often
    # the tip (so it stays); other cameras' lines do the shadow's work, and a flight's
    # shadow is found by all of them alike, so it is left out.
    several = len({e.camera for e in estimates}) > 1
    for e in estimates:
        point_ok = e.weight >= MAX_SIGMA_MM**-2 and math.isfinite(e.weight)
        if point_ok and all(map(math.isfinite, e.board)):
            s = max(MIN_SIGMA_MM, 1 / math.sqrt(e.weight))
            obs.append(_Obs(e.camera, np.eye(2), np.array(e.board), s, False, POINT_TRUST))
        lines = ((e.line, e.line_weight, e.line_trust, False),
                 (None if several and e.shadow_before_tip else e.shadow, e.shadow_weight,
                  SHADOW_TRUST, True))  # fmt: skip
        for line, weight, trust, shadow in lines:
            if line is None or not weight >= MAX_SIGMA_MM**-2 or not all(map(math.isfinite, line)):
                continue
            a, b, c = line
            n = math.hypot(a, b)
            if n > 0 and math.isfinite(weight):
                s = max(MIN_SIGMA_MM, 1 / math.sqrt(weight))
                obs.append(_Obs(e.camera, np.array([[a / n, b / n]]), np.array([c / n]), s, True,
                                trust, shadow))  # fmt: skip
    return obs


def _one_shadow(obs: list[_Obs], x: np.ndarray) -> list[_Obs]:
    """``obs`` with the shadow's lines (one per camera that saw it) merged into one
    line near ``x``. They are the same line on the board, measured several times:
    where two of them cross, a fraction of a degree apart, says nothing about where
    the tip lies along them (and least squares would take it for a fix)."""
    shadows = [o for o in obs if o.shadow]
    if len(shadows) < 2:
        return obs
    w = np.array([1.0 / o.sigma**2 for o in shadows])
    ref = shadows[0].rows[0]
    normals, feet = [], []
    for o in shadows:
        n, c = o.rows[0], float(o.rhs[0])
        if float(n @ ref) < 0:
            n, c = -n, -c
        normals.append(n)
        feet.append(x - n * (float(n @ x) - c))
    n = (w[:, None] * np.array(normals)).sum(axis=0)
    n /= np.linalg.norm(n)
    foot = (w[:, None] * np.array(feet)).sum(axis=0) / w.sum()
    merged = _Obs(shadows[0].camera, n[None, :], np.array([float(n @ foot)]),
                  1.0 / math.sqrt(float(w.sum())), True, SHADOW_TRUST, True)  # fmt: skip
    return [o for o in obs if not o.shadow] + [merged]


def _normal(obs: list[_Obs]) -> tuple[np.ndarray, np.ndarray] | None:
    """The weighted design matrix (rows / sigma) and its normal matrix, or None when
    the observations do not fix a point (parallel lines and no point)."""
    A = np.vstack([o.rows / o.sigma for o in obs])
    M = A.T @ A
    if np.linalg.cond(M) > 1e10:
        return None
    return A, M


def _solve(obs: list[_Obs]) -> np.ndarray | None:
    if (got := _normal(obs)) is None:
        return None
    A, M = got
    y = np.concatenate([o.rhs / o.sigma for o in obs])
    return np.asarray(np.linalg.solve(M, A.T @ y))


def _covariance(obs: list[_Obs], x: np.ndarray) -> np.ndarray:
    """Covariance (mm^2) of the least-squares point from ``obs``: from the sigmas, and
    larger when the observations disagree more than their sigmas say (chi^2 / dof)."""
    if (got := _normal(obs)) is None:
        return np.eye(2) * 1e6
    A, M = got
    cov = np.linalg.inv(M)
    dof = len(A) - 2
    if dof > 0:
        chi2 = sum(_residual(o, x) ** 2 for o in obs)
        cov = cov * max(1.0, chi2 / dof)
    return np.asarray(cov)


def _doubt(x: np.ndarray, cov: np.ndarray, dart: Dart) -> Dart | None:
    """The likeliest other dart within ``DOUBT_SIGMAS`` of the point (its error
    ellipse), or None when the whole ellipse scores ``dart``."""
    vals, vecs = np.linalg.eigh(cov)
    axes = vecs * np.sqrt(np.maximum(vals, 0.0))  # columns: the ellipse's half-axes, 1 sigma
    seen: dict[Dart, float] = {}
    for k in (0.5, 1.0):
        for a in np.linspace(0.0, 2 * math.pi, DOUBT_DIRECTIONS, endpoint=False):
            p = x + DOUBT_SIGMAS * k * (axes @ np.array([math.cos(a), math.sin(a)]))
            d = dart_at(float(p[0]), float(p[1]))
            if d != dart:
                seen.setdefault(d, k)
    if not seen:
        return None
    return min(seen, key=lambda d: seen[d])  # the one reached closest in


def _residual(o: _Obs, x: np.ndarray) -> float:
    """Distance of ``x`` from the observation, in its own sigmas."""
    return float(np.linalg.norm(o.rows @ x - o.rhs)) / o.sigma


def _candidates(obs: list[_Obs]) -> list[np.ndarray]:
    """Points the fused tip could be: each tip point, each crossing of two lines, and
    the foot of each camera's point on its own line."""
    out = [o.rhs for o in obs if not o.is_line]
    lines = [o for o in obs if o.is_line]
    for i, a in enumerate(lines):
        for b in lines[i + 1 :]:
            M = np.vstack([a.rows, b.rows])
            # (The sine of the angle between them, by hand: np.linalg.det factorises
            # and warned of a division by zero for some pairs of random lines.)
            if abs(float(M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0])) > 0.05:  # > ~3 degrees
                out.append(np.linalg.solve(M, np.concatenate([a.rhs, b.rhs])))
        for p in obs:
            if not p.is_line and p.camera == a.camera:
                n = a.rows[0]
                out.append(p.rhs - n * (float(n @ p.rhs) - float(a.rhs[0])))
    return out


class _DistanceMap:
    """How far (pixels) any image point is from the nearest of a view's dart pixels,
    out to the distance where the cost is capped: one distance transform, then a
    lookup per candidate (fusion tries many candidates per combination of readings)."""

    def __init__(self, pix: np.ndarray, board_to_image: np.ndarray) -> None:
        self.H = board_to_image
        self.reach = VIEW_SLACK_PX + REJECT_SIGMA * VIEW_SIGMA_PX + 2.0
        m = math.ceil(self.reach)
        xi = np.round(pix[:, 0]).astype(np.int64)
        yi = np.round(pix[:, 1]).astype(np.int64)
        self.x0, self.y0 = int(xi.min()) - m, int(yi.min()) - m
        w, h = int(xi.max()) + m + 1 - self.x0, int(yi.max()) + m + 1 - self.y0
        free = np.full((h, w), 255, np.uint8)
        free[yi - self.y0, xi - self.x0] = 0
        self.dist = cv2.distanceTransform(free, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)

    def squared(self, xs: np.ndarray) -> np.ndarray:
        """Squared distance (px^2) of board points ``xs`` (k, 2) from the dart in this
        view, at most ``reach``^2 (also for points behind the camera)."""
        q = np.column_stack([xs, np.ones(len(xs))]) @ self.H.T
        ahead = q[:, 2] > 1e-9
        p = q[:, :2] / np.where(ahead, q[:, 2], 1.0)[:, None]
        u, v = p[:, 0] - self.x0, p[:, 1] - self.y0
        h, w = self.dist.shape
        inside = ahead & (u >= 0) & (v >= 0) & (u <= w - 1) & (v <= h - 1)
        u, v = np.clip(u, 0, w - 1), np.clip(v, 0, h - 1)
        u0, v0 = np.minimum(u.astype(np.int64), w - 2), np.minimum(v.astype(np.int64), h - 2)
        fu, fv = u - u0, v - v0
        d = self.dist
        near = (d[v0, u0] * (1 - fu) * (1 - fv) + d[v0, u0 + 1] * fu * (1 - fv)
                + d[v0 + 1, u0] * (1 - fu) * fv + d[v0 + 1, u0 + 1] * fu * fv)  # fmt: skip
        return np.where(inside, np.minimum(near, self.reach), self.reach) ** 2


def _costs(obs: list[_Obs], xs: np.ndarray, views: list[_DistanceMap]) -> np.ndarray:
    """Robust cost of each candidate (rows of ``xs``): squared residuals in sigmas,
    capped, each times how much its kind of observation is trusted to be no blunder
    (``_Obs.trust``); and per camera that gave its dart's pixels, how far from them the
    candidate falls past ``VIEW_SLACK_PX``."""
    cap = REJECT_SIGMA**2
    xs = np.atleast_2d(xs)
    cost = np.zeros(len(xs))
    for o in obs:
        r2 = ((xs @ o.rows.T - o.rhs) ** 2).sum(axis=1) / o.sigma**2
        cost += o.trust * np.minimum(r2, cap)
    for view in views:
        past = np.maximum(0.0, np.sqrt(view.squared(xs)) - VIEW_SLACK_PX)
        cost += VIEW_TRUST * np.minimum(past**2 / VIEW_SIGMA_PX**2, cap)
    return cost


def fuse(estimates: list[Estimate] | tuple[Estimate, ...]) -> Fused | None:
    """The board point most observations agree with (see the module's doc). When a
    camera has other readings (``Estimate.alternatives``) and there are other cameras,
    every combination is tried and the one the cameras agree on best is kept (an
    alternative costs ``ALT_COST``, and ``_lost_line`` more without an axis line)."""
    views: dict[int, _DistanceMap] = {}
    for e in estimates:
        if e.view is None or e.camera in views:
            continue
        pix, board_to_image = e.view
        if len(pix) and np.isfinite(pix).all():
            views[e.camera] = _DistanceMap(pix, board_to_image)  # the same for every reading
    first = _fit(estimates, views)
    if len(estimates) == 1 and first is not None:
        fused = _fused(first)
        return _other_reading(fused, estimates[0], views) if fused.doubt is None else fused
    others = len(estimates) > 1 and any(e.alternatives for e in estimates)
    if first is not None and (not others or _lines_agree(first.x, estimates)):
        return _fused(first)  # (every camera's first reading has a line, and it agrees)
    if not others:
        return None
    best = (math.inf if first is None else first.cost, first)
    for combo in itertools.product(*[(e, *e.alternatives) for e in estimates]):
        fit = _fit(combo, views)
        if fit is None:
            continue
        pairs = list(zip(combo, estimates, strict=True))
        cost = fit.cost + sum(ALT_COST + _lost_line(c, e) for c, e in pairs if c is not e)
        if cost < best[0]:
            best = (cost, fit)
    return None if best[1] is None else _fused(best[1])


def _lost_line(reading: Estimate, first: Estimate) -> float:
    """What a less likely reading without an axis line pays when the camera's first
    reading has one: what that line would cost if it disagreed. Else choosing it would
    drop a term from the robust cost for nothing, and a reading that cannot be checked
    against the other cameras' lines would win because it cannot be (held-out seed
    7,000,290: a bull read 4 mm off, no flag)."""
    if reading.line is not None and reading.line_weight > 0:
        return 0.0
    if first.line is None or not first.line_weight > 0:
        return 0.0
    return REJECT_SIGMA**2 * first.line_trust


def _other_reading(first: Fused, estimate: Estimate, views: dict[int, _DistanceMap]) -> Fused:
    """One camera: ``first``, in doubt when a less likely reading of the same change
    (``Estimate.alternatives``) scores another dart. No other camera can say which
    reading is the dart, and the first is wrong often enough (a vane taken for the
    barrel) that the player should check."""
    for alt in estimate.alternatives:
        other = _fit((alt,), views)
        if other is not None and (dart := dart_at(*map(float, other.x))) != first.dart:
            return replace(first, doubt=dart, doubt_why="reading")
    return first


def _lines_agree(point: np.ndarray, estimates: list[Estimate] | tuple[Estimate, ...]) -> bool:
    """Whether every camera's axis line passes within ``REJECT_SIGMA`` of ``point`` (a
    camera with only a tip point, or a vague one, agrees with almost anything)."""
    x, y = float(point[0]), float(point[1])
    for e in estimates:
        if e.line is None or not e.line_weight > 0:
            return False
        a, b, c = e.line
        if abs(a * x + b * y - c) * math.sqrt(e.line_weight) > REJECT_SIGMA:
            return False
    return True


@dataclass(frozen=True, slots=True, eq=False)
class _Fit:
    """One combination of readings fitted: the point, what it used, its robust cost."""

    obs: list[_Obs]
    seen: list[_DistanceMap]
    cands: list[np.ndarray]
    x: np.ndarray
    used: list[_Obs]
    cost: float


def _fit(
    estimates: list[Estimate] | tuple[Estimate, ...], views: dict[int, _DistanceMap]
) -> _Fit | None:
    obs = _observations(estimates)
    if not obs:
        return None
    # Robust start: the candidate that the most observations agree with (a least
    # squares start would be dragged by a flight taken for the tip).
    seen = [views[c] for c in sorted({e.camera for e in estimates}) if c in views]
    cands = _candidates(obs)
    x = cands[int(np.argmin(_costs(obs, np.array(cands), seen)))] if cands else None
    if x is None:
        x = _solve(obs)
    if x is None:
        return None
    x, used = _settle(obs, x)
    if not used:
        return None
    return _Fit(obs, seen, cands, x, used, float(_costs(obs, x, seen)[0]))


def _fused(fit: _Fit) -> Fused:
    """The dart of a fit, how sure it is, and the other dart it could be."""
    x, used = fit.x, fit.used
    px, py = float(x[0]), float(x[1])
    spread = max(float(np.linalg.norm(o.rows @ x - o.rhs)) for o in used)
    cov = _covariance(_one_shadow(used, x), x)
    dart = dart_at(px, py)
    near = _doubt(x, cov, dart)
    fused = Fused((px, py), dart, tuple(sorted({o.camera for o in used})), spread,
                  sum(o.is_line for o in used), math.sqrt(float(np.linalg.eigvalsh(cov)[-1])),
                  near, "" if near is None else "wire")  # fmt: skip
    if fused.doubt is None:
        rival = _rival(fit.obs, fit.seen, fit.cands, fused, fit.cost)
        fused = replace(fused, doubt=rival, doubt_why="" if rival is None else "reading")
    return fused


def _settle(obs: list[_Obs], x: np.ndarray) -> tuple[np.ndarray, list[_Obs]]:
    """Least squares on the observations that agree with ``x``, until they settle: the
    point and what it used."""
    used: list[_Obs] = []
    for _ in range(3):
        inl = [o for o in obs if _residual(o, x) <= REJECT_SIGMA]
        if inl == used:
            break
        x2 = _solve(_one_shadow(inl, x)) if inl else None
        if x2 is None:
            # What agrees does not fix a point (two parallel lines, no point): keep the
            # robust start, with the error of an unfixed point (so the player checks).
            used = used or inl
            break
        used, x = inl, x2
    return x, used


def _rival(
    obs: list[_Obs], seen: list[_DistanceMap], cands: list[np.ndarray], fused: Fused, cost: float
) -> Dart | None:
    """Another dart that a point well away from ``fused`` scores, when what agrees with
    that point costs at most ``RIVAL_COST`` more (one camera whose tip point and shadow
    disagree: either may be the blunder, and nothing else says which)."""
    x0 = np.array(fused.board)
    apart = max(3.0 * fused.sigma_mm, RIVAL_APART_MM)
    far = [p for p in cands if np.linalg.norm(p - x0) > apart]
    if not far:
        return None
    costs = _costs(obs, np.array(far), seen)
    k = int(np.argmin(costs))
    if costs[k] - cost >= RIVAL_COST:
        return None
    x, used = _settle(obs, far[k])
    if not used or np.linalg.norm(x - x0) <= apart or _costs(obs, x, seen)[0] - cost >= RIVAL_COST:
        return None
    dart = dart_at(float(x[0]), float(x[1]))
    if dart == fused.dart:  # the same dart, unless that point is itself near a wire
        dart = _doubt(x, _covariance(_one_shadow(used, x), x), dart) or fused.dart
    return None if dart == fused.dart else dart


def estimate_from(finding: TipFinding, cal: Calibration, camera: int) -> Estimate:
    """One camera's view of a dart, in board mm: its tip point and its axis line."""
    view = None
    if finding.pixels is not None:
        ys, xs = np.nonzero(finding.pixels)
        if len(xs):
            step = len(xs) // VIEW_MAX_PIXELS + 1
            pix = np.column_stack([xs[::step], ys[::step]]).astype(np.float64)
            view = (pix, np.linalg.inv(cal.homography))
    shadow: tuple[tuple[float, float, float] | None, float, bool] = (None, 0.0, False)
    if (sh := finding.shadow) is not None:
        line = _board_line(cal, sh.image_line(), sh.point, sh.direction, sh.sigma_px)
        shadow = (*line, sh.before_tip)
    return _estimate(finding, cal, camera, view, shadow)


def _estimate(
    finding: TipFinding,
    cal: Calibration,
    camera: int,
    view: tuple[np.ndarray, np.ndarray] | None,
    shadow: tuple[tuple[float, float, float] | None, float, bool],
) -> Estimate:
    """``estimate_from`` for one reading; its other readings share the dart's pixels
    and its shadow (worked out once per camera)."""
    tip_img = np.array(finding.image, np.float64)
    ((bx, by),) = cal.image_to_board(tip_img)
    mm_per_px = 1.0 / max(1e-9, cal.scale_at(finding.image))
    s_pt = finding.tip_sigma_px * mm_per_px / max(0.2, finding.confidence)
    line, line_w = _board_line(cal, finding.image_line(), finding.image, finding.axis,
                               finding.line_sigma_px)  # fmt: skip
    trust = min(1.0, finding.thin_px / SPAN_OK_PX) ** 2
    alts = tuple(_estimate(a, cal, camera, view, shadow) for a in finding.alternatives)
    return Estimate(camera, (float(bx), float(by)), 1.0 / s_pt**2, line, line_w, trust, alts,
                    view, *shadow)  # fmt: skip


def _board_line(
    cal: Calibration,
    image_line: np.ndarray,
    at: tuple[float, float],
    direction: tuple[float, float],
    sigma_px: float,
) -> tuple[tuple[float, float, float] | None, float]:
    """An image line (homogeneous) and its error across itself at ``at`` (px) as a
    board line (a x + b y = c, (a, b) unit) and its weight (1 / sigma^2, 1/mm^2)."""
    if not math.isfinite(sigma_px):
        return None, 0.0
    # Image line l -> board line H^-T l (H: image -> board).
    bl = np.linalg.inv(cal.homography).T @ image_line
    n = math.hypot(bl[0], bl[1])
    if not n > 0 or not np.isfinite(bl).all():
        return None, 0.0
    a, b, c = bl[0] / n, bl[1] / n, -bl[2] / n
    nrm = np.array([-direction[1], direction[0]])
    ((qx, qy),) = cal.image_to_board(np.array(at, np.float64) + nrm * sigma_px)
    s_line = abs(a * qx + b * qy - c)
    if not s_line > 0 or not math.isfinite(s_line):
        return None, 0.0
    return (float(a), float(b), float(c)), 1.0 / s_line**2
