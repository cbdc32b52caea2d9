"""Automatic calibration: find a regulation board in one picture and return its
homography (image px -> board mm), or refuse with a reason.

How (all numpy / OpenCV, no learning):

1. Red and green masks (HSV): ellipses fitted to the double ring's outer edge
   (170 mm) and the treble ring's inner edge (99 mm), from whole rings or, with darts
   over them, along rays (``rings.py``).
2. Two concentric circles fix a view up to a rotation: the pencil of their two conics
   holds the image of the line at infinity (a double line) and a cone whose vertex is
   the image of the centre (the generalised eigenvectors). The eigenvalue ratio must be
   (99/170)^2: a check that the two ellipses really are those rings.
3. The rotation modulo 36 degrees comes from the red/green pattern around the double
   and treble rings.
4. ECC alignment (``cv2.findTransformECCWithMask``, eight parameters) of a model of
   the rings' colours (Lab a*: red +, green -) refines the homography to a fraction of
   a millimetre (the model repeats every 36 degrees, as the rings do).
5. Which of the ten turns has 20 at its top comes from the number ring, read through
   the fine fit (one- and two-digit numbers have different amounts of ink: the pattern
   of digit counts is unique under a 36 degree turn; coloured pixels, flights over the
   numbers, are left out), or from a hint (an image point on the 20 segment, e.g. a
   click). Numbers read clearly overrule a hint: a hint they contradict (a first mark
   on the wrong wire) is refused, not trusted.

The result has the bull and the wire crossings of the double and treble rings as
point pairs, so it is saved like a hand-made calibration. Tuned on rendered boards
(``synthetic.py``): real boards (worn colours, a spider with thick wires, odd number
fonts, lens distortion) can be worse; the screen shows the overlay for a person to
accept, and the confidence is only the fit's own opinion.

``refit`` finds the board again from a calibration made before with the same steps
(``board_turns``, ``refine``, ``turn_from_numbers``, ``point_pairs``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from kiosk.adapters.camera.board_colours import GREEN, RED, colour_at
from kiosk.adapters.camera.calibration import (
    Calibration,
    CalibrationError,
    PointPair,
    jacobian_det,
)
from kiosk.adapters.camera.rings import Ellipse, Refused, ring_ellipses
from kiosk.domain import board

R_OUTER = board.DOUBLE_OUTER
WORK_SIZE = (1920, 1080)  # larger pictures (photos) are searched scaled down to fit
R_INNER = board.TREBLE_INNER
TEMPLATE_PPM = 2.0  # template pixels per mm for the ECC fit
TEMPLATE_HALF = 180.0  # mm from the centre to the template's edge
# mm: a regulation board is 451 mm across, numbers included (226 mm to its edge); a
# hint off it is refused (judged on the fine fit; this leaves room for a rough one)
OFF_BOARD_MM = 250.0
# Lab chroma off the number ring's own black or white (tinted alike by the light): a
# flight or a coloured shaft over the numbers is further (a saturated flight is 68-87
# off grey; its shaded side less)
NUMBER_CHROMA = 30.0
NUMBER_RING_KEPT = 6.0  # mm: the first of the radii read, kept however coloured
MIN_ECC = 0.55  # a correlation below this is not a board we can trust
MIN_PATTERN = 0.45  # normalised red/green pattern correlation
# A read rests on one number when, with that number left out, another turn leads the
# one read by more than this (wrong reads measured: 0.12 or more; at 0, right reads
# were lost: bench/camera_marks.py refused or asked 1 more in 60 in six of its cases)
ONE_NUMBER_LEAD = 0.05
MIN_DIGIT_MARGIN = 0.17  # best minus second-best number-ring correlation; wrong picks
# measured on rendered boards had margins <= 0.12
# Digit counts of the numbers clockwise from 20: the ink pattern of the number ring.
DIGITS = tuple(len(str(n)) for n in board.SEGMENTS)
# ... and per turn j (of the ten, 36 degrees each), the digit counts it puts round
TURN_DIGITS = np.array([[DIGITS[(m + 2 * j) % 20] for m in range(20)] for j in range(10)], float)


@dataclass(frozen=True)
class AutoResult:
    """What the automatic calibration found. ``calibration`` is None when it refused;
    ``reason`` then says why (a sentence for the log and the command line; the screen
    translates ``template`` and fills in ``values``: ``{name}`` placeholders, numbers
    already written out). ``confidence`` is 0-1."""

    calibration: Calibration | None
    confidence: float
    reason: str
    homography: np.ndarray | None = None  # image px -> board mm
    # How 20 was told: "numbers", "hint", "refit" (kept from before, the numbers not
    # read: ``refit.refit``);
    # "unconfirmed": a refit that lines the rings up (``homography``) but may be 36
    # degrees off.
    twenty_from: str = ""
    template: str = ""  # "": no translatable form (``reason`` is shown as it is)
    values: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.calibration is not None


def auto_calibrate(image: np.ndarray, twenty_hint: tuple[float, float] | None = None) -> AutoResult:
    """Find the board in a BGR ``image``. ``twenty_hint``: an image point on the 20
    segment (any radius off the bull; the 20/1 wire will do), for when the numbers cannot
    be read; refused when numbers read clearly put 20 elsewhere."""
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
        return AutoResult(None, 0.0, "not a colour picture", template="not a colour picture")
    h, w = image.shape[:2]
    if (s := min(WORK_SIZE[0] / w, WORK_SIZE[1] / h)) < 1.0:  # a photo: found at video
        # size (the rings' search is tuned for it: a board over about 900 px across is
        # not found), the calibration scaled back
        small = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        hint = None if twenty_hint is None else (twenty_hint[0] * s, twenty_hint[1] * s)
        found = auto_calibrate(small, hint)
        if found.calibration is None:
            return found
        try:
            cal = found.calibration.for_size((w, h))
        except CalibrationError as e:
            return AutoResult(None, 0.0, f"the fitted board gives no calibration: {e}",
                              template="the fitted board gives no calibration: {error}",
                              values={"error": str(e)})  # fmt: skip
        return replace(found, calibration=cal, homography=cal.homography)
    try:
        return _calibrate(np.ascontiguousarray(image, np.uint8), twenty_hint)
    except Refused as r:
        return AutoResult(None, r.confidence, r.reason, template=r.template, values=r.values)


def _calibrate(img: np.ndarray, hint: tuple[float, float] | None) -> AutoResult:
    h, w = img.shape[:2]
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab).astype(np.float32)
    a_star = lab[:, :, 1] - 128.0
    H0, phase, pattern, _ = board_turns(img, a_star)
    # The fine fit first: the rings' colours repeat every 36 degrees, so it is right up
    # to such a turn, and the numbers are then read where they are (the rough fit can
    # be some millimetres off at a steep angle)
    H, ecc = refine(a_star, _rotate(phase) @ H0)
    if ecc < MIN_ECC:
        raise Refused("the rings do not line up with a board (fit {fit})", ecc, fit=f"{ecc:.2f}")
    read, read_margin = turn_from_numbers(lab, H, 0.0)
    if hint is not None:
        turn = _turn_from_hint(H, 0.0, hint)
        margin, how = 1.0, "hint"
        if read_margin >= MIN_DIGIT_MARGIN and read != turn:  # the numbers are the authority
            raise Refused("the board's numbers put 20 elsewhere than the mark: mark a point "
                          "on the 20 segment (no darts over the numbers)", 0.5)  # fmt: skip
    else:
        turn, margin = read, read_margin
        how = "numbers"
        if margin < MIN_DIGIT_MARGIN:
            raise Refused("cannot tell which segment is 20 from the numbers; mark the 20 by hand",
                           0.5 * margin)  # fmt: skip
    H = _rotate(36.0 * turn) @ H
    pts = point_pairs(H, (w, h))
    try:
        cal = Calibration.from_points((w, h), pts)
    except CalibrationError as e:
        raise Refused("the fitted board gives no calibration: {error}", error=str(e)) from e
    confidence = float(min(1.0, ecc, 0.5 + pattern / 2, 0.5 + margin))
    # (the fit's correlation is in ``confidence``, said next to this)
    found = {"numbers": "board found (20 from the numbers)",
             "hint": "board found (20 from the hint)"}[how]  # fmt: skip
    return AutoResult(cal, confidence, found, cal.homography, how, found)


class Turns(NamedTuple):
    """Steps 1-2: the rings' rectification ``H0``; the turn (mod 36 degrees) that lines
    the red/green pattern up, and how well; the ten turns it allows (image -> board
    each)."""

    H0: np.ndarray
    phase: float
    pattern: float
    turns: list[np.ndarray]


def board_turns(img: np.ndarray, a_star: np.ndarray) -> Turns:
    """Steps 1-2 (``Turns``)."""
    rings = ring_ellipses(img)
    H0 = _rectify(_conic(rings.outer), _conic(rings.inner))
    phase, pattern = _rotation_phase(a_star, H0)
    if pattern < MIN_PATTERN:
        raise Refused("the red/green segments do not match a board (pattern {pattern})", pattern,
                      pattern=f"{pattern:.2f}")  # fmt: skip
    turns = [_rotate(phase + 36.0 * j) @ H0 for j in range(10)]
    return Turns(H0, phase, pattern, turns)


def _conic(e: Ellipse) -> np.ndarray:
    """The 3x3 conic matrix (x^T C x = 0) of a ``cv2.fitEllipse`` result."""
    (cx, cy), (ax1, ax2), ang = e
    a, b = ax1 / 2, ax2 / 2
    t = math.radians(ang)
    ct, st = math.cos(t), math.sin(t)
    R = np.array([[ct, -st], [st, ct]])
    M = R @ np.diag([1 / a**2, 1 / b**2]) @ R.T
    c = np.array([cx, cy])
    C = np.zeros((3, 3))
    C[:2, :2] = M
    C[:2, 2] = C[2, :2] = -M @ c
    C[2, 2] = c @ M @ c - 1.0
    return C


# -- 2. the view up to a rotation --------------------------------------------------------


def _rectify(c_out: np.ndarray, c_in: np.ndarray) -> np.ndarray:
    """Image px -> board mm, right up to a rotation about the bull, from the conics of
    the 170 mm and 99 mm circles."""
    vals, vecs = np.linalg.eig(np.linalg.solve(c_out, c_in))
    if np.abs(vals.imag).max() > 1e-6 * np.abs(vals).max():
        raise Refused("the rings are not the images of two concentric circles")
    vals, vecs = vals.real, vecs.real
    # The odd one out is the centre; the other two are equal (up to noise).
    d = [abs(vals[(k + 1) % 3] - vals[(k + 2) % 3]) for k in range(3)]
    k = int(np.argmin(d))
    mu = (vals[(k + 1) % 3] + vals[(k + 2) % 3]) / 2
    ratio = vals[k] / mu
    want = (R_INNER / R_OUTER) ** 2
    if not 0.7 * want < ratio < 1.3 * want:
        raise Refused("the rings found are not the double and treble rings (radius ratio "
                      "{ratio})", ratio=f"{math.sqrt(max(ratio, 0)):.2f}")  # fmt: skip
    centre = vecs[:, k] / vecs[2, k]
    D = c_in - mu * c_out
    ev, evec = np.linalg.eigh((D + D.T) / 2)
    line = evec[:, int(np.argmax(np.abs(ev)))]
    T = np.array([[1.0, 0, -centre[0]], [0, 1.0, -centre[1]], [0, 0, 1.0]])
    lt = np.linalg.inv(T).T @ line
    if abs(lt[2]) < 1e-12:
        raise Refused("the view is too oblique")
    lt = lt / lt[2]
    P = np.array([[1.0, 0, 0], [0, 1.0, 0], [lt[0], lt[1], 1.0]])
    PT = P @ T
    Pinv = np.linalg.inv(PT)
    Q = Pinv.T @ c_out @ Pinv
    M = Q[:2, :2] / -Q[2, 2]
    ew, ev2 = np.linalg.eigh((M + M.T) / 2)
    if ew.min() <= 0:
        raise Refused("the outer ring does not rectify to a circle")
    S = ev2 @ np.diag(np.sqrt(ew)) @ ev2.T  # x^T M x = |S x|^2
    A = np.eye(3)
    A[:2, :2] = R_OUTER * S
    H0 = A @ PT
    # A camera in front of the board sees it unmirrored: image y runs down, board y up.
    if jacobian_det(H0, centre[:2]) > 0:
        H0 = np.diag([1.0, -1.0, 1.0]) @ H0
    return np.asarray(H0 / H0[2, 2])


def apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    q = np.column_stack([pts, np.ones(len(pts))]) @ H.T
    return np.asarray(q[:, :2] / q[:, 2:3])


def _rotate(deg: float) -> np.ndarray:
    """Board mm -> board mm: what was at clockwise angle a is then at a + deg."""
    t = math.radians(deg)
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])


def _sample(channel: np.ndarray, H: np.ndarray, board_pts: np.ndarray) -> np.ndarray:
    """``channel`` at the image points of board points (NaN outside the picture)."""
    img = apply(np.linalg.inv(H), board_pts.reshape(-1, 2)).astype(np.float32)
    h, w = channel.shape[:2]
    mx, my = img[:, 0].reshape(1, -1), img[:, 1].reshape(1, -1)
    out = cv2.remap(channel, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=float("nan"))  # fmt: skip
    out = out.reshape(board_pts.shape[:-1]).astype(np.float64)
    inside = (img[:, 0] >= 0) & (img[:, 0] <= w - 1) & (img[:, 1] >= 0) & (img[:, 1] <= h - 1)
    out[~inside.reshape(board_pts.shape[:-1])] = np.nan
    return out


def _polar(angles: np.ndarray, radii: np.ndarray) -> np.ndarray:
    a = np.radians(angles)[:, None]
    r = radii[None, :]
    return np.stack([r * np.sin(a), r * np.cos(a)], axis=-1)  # (len(angles), len(radii), 2)


# -- 3 and 5. the rotation: the rings' pattern, then the numbers ----------------------


STEP = 0.25  # degrees


def _rotation_phase(a_star: np.ndarray, H0: np.ndarray) -> tuple[float, float]:
    """The turn (mod 36 degrees) that lines the red/green pattern up, and how well
    (normalised correlation, 1 = perfect)."""
    angles = np.arange(0.0, 360.0, STEP)
    radii = np.array([163.5, 166.0, 168.5, 100.5, 103.0, 105.5])
    s = np.nanmean(_sample(a_star, H0, _polar(angles, radii)), axis=1)
    s = np.nan_to_num(s - np.nanmean(s))
    sector = (((angles + 9.0) % 360.0) // 18.0).astype(int)
    e = np.where(sector % 2 == 0, 1.0, -1.0)  # 20's rings are red
    # score[k]: the pattern observed at a, seen at a + k*STEP on the board
    score = np.array([s @ np.roll(e, -k) for k in range(int(36 / STEP))])
    k = int(np.argmax(score))
    n = len(score)
    y0, y1, y2 = score[(k - 1) % n], score[k], score[(k + 1) % n]
    den = y0 - 2 * y1 + y2
    frac = 0.5 * (y0 - y2) / den if den < 0 else 0.0
    norm = float(np.linalg.norm(s) * np.linalg.norm(e)) or 1.0
    return (k + frac) * STEP, float(y1 / norm)


def turn_from_numbers(lab: np.ndarray, H0: np.ndarray, phase: float) -> tuple[int, float]:
    """Which of the ten 36-degree turns puts 20 at the top, from the ink of the numbers
    in a float Lab picture; and the margin of the best over the second best correlation
    (0 when the best rests on any one number)."""
    H = _rotate(phase) @ H0
    offs = np.arange(-7.0, 7.01, 0.5)
    radii = np.arange(180.0, 214.1, 1.0)
    cells = np.stack([_polar(18.0 * m + offs, radii) for m in range(20)])
    light, a, b = (_sample(lab[:, :, k], H, cells) for k in range(3))
    coloured = _coloured(light, a, b)
    # (the first millimetres are kept: at a steep angle a fit a little off puts them
    # on the double ring's red and green)
    coloured[..., radii < radii[0] + NUMBER_RING_KEPT] = False
    vals = np.where(coloured, np.nan, light)
    ink = np.full(20, np.nan)
    # Mean brightness over the local dark surround: blur (a far, foreshortened number)
    # keeps the mean where a threshold would lose the thin strokes.
    for m, v in enumerate(vals):
        if np.isfinite(v).mean() > 0.8:
            ink[m] = float(np.nanmean(v) - np.nanpercentile(v, 10))
    ok = np.isfinite(ink)
    if ok.sum() < 8:
        return 0, 0.0
    scores = _number_scores(ink, ok)
    order = np.argsort(scores)[::-1]
    best, margin = int(order[0]), float(scores[order[0]] - scores[order[1]])
    # A read that rests on one number (a dart over it: another turn wins clearly
    # without it, ``ONE_NUMBER_LEAD``) is no read (margin 0). Measured on rendered
    # pictures with darts in: in 7 of 8 wrong reads another turn led by 0.12-0.29
    # without one number (the 8th had a margin of 0.001: no read anyway); of 279 right
    # reads with a margin of 0.17 or more, 1 had another turn lead at all.
    for k in np.flatnonzero(ok):
        without = ok.copy()
        without[k] = False
        s = _number_scores(ink, without)
        if np.delete(s, best).max() - s[best] > ONE_NUMBER_LEAD:
            return best, 0.0
    return best, margin


def _number_scores(ink: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Per turn, the correlation of the numbers' ink (where ``ok``) with the digit
    counts that turn puts there."""
    scores = np.zeros(10)
    x = ink[ok]
    for j, want in enumerate(TURN_DIGITS):
        y = want[ok]
        if x.std() >= 1e-9 and y.std() >= 1e-9:
            scores[j] = float(np.corrcoef(x, y)[0, 1])
    return scores


def _coloured(light: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Which of the number ring's pixels (Lab channels sampled over it) are coloured:
    neither the ring's black nor its numbers' white or silver, in whatever tint the
    light gives them, but a dart's flight or shaft."""
    seen = np.isfinite(light)
    if seen.sum() < 10:
        return np.zeros(light.shape, bool)
    dark = seen & (light <= np.nanpercentile(light, 50))
    black = (float(np.median(a[dark])), float(np.median(b[dark])))
    # The numbers' white: the brightest tenth, its least coloured fifth (bright flights
    # may outnumber the numbers' own pixels there)
    bright = seen & (light >= np.nanpercentile(light, 90))
    tint = np.hypot(a[bright] - black[0], b[bright] - black[1])
    white = bright.copy()
    white[bright] = tint <= np.percentile(tint, 20)
    tints = [black, (float(np.median(a[white])), float(np.median(b[white])))]
    off = np.min([np.hypot(a - ta, b - tb) for ta, tb in tints], axis=0)
    with np.errstate(invalid="ignore"):
        return np.asarray(off > NUMBER_CHROMA)


def _turn_from_hint(H0: np.ndarray, phase: float, hint: tuple[float, float]) -> int:
    """Which of the ten turns puts 20 where ``hint`` is; refused when the hint is on
    the bull (no direction) or off the board."""
    bx, by = apply(_rotate(phase) @ H0, np.array([hint], float))[0]
    r = float(np.hypot(bx, by))
    if r < board.OUTER_BULL:
        raise Refused("the mark for 20 is on the bull: mark a point out on the 20 segment")
    if not np.isfinite(r) or r > OFF_BOARD_MM:
        raise Refused("the mark for 20 is off the board: mark a point on the 20 segment")
    a = board.angle_of(float(bx), float(by))
    return int(np.argmin([abs((a + 36.0 * j + 180.0) % 360.0 - 180.0) for j in range(10)]))


# -- 4. the fine fit -------------------------------------------------------------------


def ring_model(ppm: float = TEMPLATE_PPM, half: float = TEMPLATE_HALF) -> np.ndarray:
    """The rings' colours seen face on, as Lab a* would see them: red +1, green -1,
    wires and everything else 0; ``ppm`` pixels per mm, ``half`` mm to each edge."""
    n = round(2 * half * ppm)
    c = (n - 1) / 2
    xs = (np.arange(n, dtype=np.float32) - c) / ppm
    x, y = np.meshgrid(xs, -xs)
    r = np.hypot(x, y)
    ang = np.degrees(np.arctan2(x, y)) % 360.0
    colour = colour_at(x, y)
    out = np.zeros((n, n), np.float32)
    out[colour == RED] = 1.0
    out[colour == GREEN] = -1.0
    # Wires (about 1 mm) between the segments and around the rings.
    wire = np.zeros(r.shape, bool)
    for rad in (board.INNER_BULL, board.OUTER_BULL, board.TREBLE_INNER, board.TREBLE_OUTER,
                board.DOUBLE_INNER, board.DOUBLE_OUTER):  # fmt: skip
        wire |= np.abs(r - rad) < 0.5
    d_ang = np.abs(((ang + 9.0) % 18.0) - 9.0)
    dist_to_wire = r * np.sin(np.radians(9.0 - d_ang))
    wire |= (dist_to_wire < 0.5) & (r > board.OUTER_BULL) & (r < board.DOUBLE_OUTER)
    out[wire] = 0.0
    return np.asarray(cv2.GaussianBlur(out, (0, 0), 0.6 * ppm))


def template_to_board(ppm: float, half: float) -> np.ndarray:
    c = (round(2 * half * ppm) - 1) / 2
    return np.array([[1 / ppm, 0, -c / ppm], [0, -1 / ppm, c / ppm], [0, 0, 1.0]])


def refine(a_star: np.ndarray, H: np.ndarray) -> tuple[np.ndarray, float]:
    """ECC fit of the ring model; returns the refined image->board homography and the
    correlation coefficient (1 = perfect)."""
    tmpl = ring_model()
    n = tmpl.shape[0]
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n]
    tmask = np.hypot(xx - c, yy - c) <= (board.DOUBLE_OUTER + 4.0) * TEMPLATE_PPM
    B = template_to_board(TEMPLATE_PPM, TEMPLATE_HALF)
    W = np.linalg.inv(H) @ B
    W = (W / W[2, 2]).astype(np.float32)
    src = np.asarray(a_star / 64.0, np.float32)
    imask = np.full(src.shape, 255, np.uint8)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 80, 1e-6)
    try:
        cc, W = cv2.findTransformECCWithMask(tmpl, src, tmask.astype(np.uint8) * 255, imask, W,
                                             cv2.MOTION_HOMOGRAPHY, criteria, 5)  # fmt: skip
    except cv2.error as e:
        why = str(e).splitlines()[-1][:60]
        raise Refused("the fine fit did not converge ({error})", error=why) from e
    Hb2i = W.astype(np.float64) @ np.linalg.inv(B)
    Hi2b = np.linalg.inv(Hb2i)
    return Hi2b / Hi2b[2, 2], float(cc)


# -- the result ------------------------------------------------------------------------


def known_points() -> list[tuple[float, float]]:
    """Board points a calibration keeps: the bull, then the wire crossings of the
    double ring's and the treble ring's outer edges."""
    pts = [(0.0, 0.0)]
    for i in range(20):
        a = i * board.SEGMENT_DEGREES + board.SEGMENT_DEGREES / 2
        pts += [board.point_at(a, board.DOUBLE_OUTER), board.point_at(a, board.TREBLE_OUTER)]
    return pts


def point_pairs(H: np.ndarray, size: tuple[int, int]) -> list[PointPair]:
    w, h = size
    brd = np.array(known_points())
    img = apply(np.linalg.inv(H), brd)
    return [
        PointPair(
            (round(float(u), 2), round(float(v), 2)), (round(float(x), 3), round(float(y), 3))
        )
        for (u, v), (x, y) in zip(img, brd, strict=True)
        if 0 <= u <= w - 1 and 0 <= v <= h - 1
    ]
