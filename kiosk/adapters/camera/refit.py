"""The board found again in a camera's picture from a calibration made before (the
camera knocked or turned since), with the automatic calibration's steps
(``autocal``): its step 4 from the old homography; from the old homography moved by
the picture's shift; steps 1-3 with the turn nearest the old one; or from the old
homography turned by the roll that best lines the rings up. And how far
two calibrations of one camera are apart. ``recheck`` decides what to do with it."""

from __future__ import annotations

import math

import cv2
import numpy as np

from kiosk.adapters.camera import autocal
from kiosk.adapters.camera.autocal import AutoResult
from kiosk.adapters.camera.calibration import Calibration, CalibrationError
from kiosk.adapters.camera.rings import Refused

GOOD_ECC = 0.8  # a fit this good from the old homography needs no other start
# A roll about the line of sight looked for this far either way (further, the rings'
# colours, which repeat every 36 degrees, line up as well with a roll the other way).
ROLL_SEARCH_DEG = 17.0
ROLL_STEP_DEG = 0.5
ROLL_SCALE = 0.25  # the picture scaled down for that search
MIN_ROLL_DEG = 1.0  # a roll found nearer none: the old homography was the start already
# The numbers must read this clearly to confirm a fit from a roll looked for: the roll
# found is the one nearest the old homography, 36 degrees off the truth when the camera
# rolled further than 18 degrees, and then only the numbers tell. (80 rendered cameras
# rolled 25 degrees, 0-3 darts in: one such fit confirmed at 0.20; fits from a roll
# that were right read at 0.17-0.6, a fifth of them under 0.25: "moved" instead.)
ROLLED_DIGIT_MARGIN = 0.25
MAX_REFIT_TURN_DEG = 2.0  # a board turned further must be confirmed by the numbers
TIE_MM = 5.0  # turns this near as near as the nearest: the numbers pick among them


def refit(image: np.ndarray, homography: np.ndarray) -> AutoResult:
    """The board as it lines up in ``image`` now, from a homography that lined it up
    before (image px -> board mm: a calibration of the same camera, since knocked or
    turned). Step 4 from the old homography; when that does not fit well, from the old
    homography moved by the picture's shift since, steps 1-3 with the turn nearest
    the old homography that the numbers confirm, or the old homography turned about the
    picture's centre by the roll that lines the rings up best (``_rolled``; then the
    numbers must read clearly, ``ROLLED_DIGIT_MARGIN``). The numbers must not disagree, and a
    board that seems turned by more than ``MAX_REFIT_TURN_DEG`` about its centre must
    be confirmed by them (the rings repeat every 36 degrees: a camera rolled by about
    36 or 72 degrees whose numbers cannot be read is the case this cannot tell).
    Refuses when the rings do not line up (a person in front of the board, a camera
    turned away from it). ``confidence``: the fit's correlation."""
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
        return AutoResult(None, 0.0, "not a colour picture")
    img = np.ascontiguousarray(image, np.uint8)
    h, w = img.shape[:2]
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab).astype(np.float32)
    a_star = lab[:, :, 1] - 128.0
    fits: list[tuple[float, np.ndarray, int]] = []  # (fit, homography, from start k)
    why = ""

    def start(k: int) -> np.ndarray:  # worked out only when the one before fits badly
        if k == 0:
            return homography
        if k == 1:
            return _shifted(a_star, homography)
        return _near(img, lab, homography) if k == 2 else _rolled(a_star, homography)

    for k in range(4):
        try:
            H, ecc = autocal.refine(a_star, start(k))
        except Refused as r:
            why = r.reason if k < 3 or not why else why  # (the roll's, only if alone)
            continue
        fits.append((ecc, H, k))
        if ecc >= GOOD_ECC:
            break
    if not fits:
        return AutoResult(None, 0.0, why)
    ecc, H, k = max(fits, key=lambda f: f[0])
    if ecc < autocal.MIN_ECC:
        return AutoResult(None, ecc, f"the rings do not line up with a board (fit {ecc:.2f})")
    # The rings repeat every 36 degrees: a fit turned 36 degrees off lines them up as
    # well. The numbers, where they can be read, must agree; a board that seems turned
    # more than a knock turns a camera must be confirmed by them.
    turned = _turn_between(homography, H, (w, h))
    j, margin = autocal.turn_from_numbers(lab, H, 0.0)
    read = margin >= (ROLLED_DIGIT_MARGIN if k == 3 else autocal.MIN_DIGIT_MARGIN)
    if (read and j != 0) or (not read and abs(turned) > MAX_REFIT_TURN_DEG):
        why = f"the board looks turned by {turned:.0f} degrees, not confirmed by the numbers"
        return AutoResult(None, ecc, why, H, "unconfirmed")  # the board moved, but how?
    try:
        cal = Calibration.from_points((w, h), autocal.point_pairs(H, (w, h)))
    except CalibrationError as e:
        return AutoResult(None, 0.0, f"the fitted board gives no calibration: {e}")
    # "numbers": they were read and put 20 where it was; "refit": kept from before
    how = "numbers" if read else "refit"
    return AutoResult(cal, ecc, f"board found again (fit {ecc:.2f})", cal.homography, how)


def _shifted(a_star: np.ndarray, old: np.ndarray) -> np.ndarray:
    """The old homography moved by the picture's shift since (phase correlation of the
    rings' colours as the old homography expects them with the picture's): a camera
    panned or tilted a few degrees, the board perhaps no longer whole in the picture."""
    h, w = a_star.shape
    B = autocal.template_to_board(autocal.TEMPLATE_PPM, autocal.TEMPLATE_HALF)
    to_image = np.linalg.inv(old) @ B
    expected = cv2.warpPerspective(autocal.ring_model(), to_image, (w, h), flags=cv2.INTER_LINEAR)
    win = cv2.createHanningWindow((w, h), cv2.CV_32F)
    (dx, dy), peak = cv2.phaseCorrelate(expected.astype(np.float32),
                                        np.asarray(a_star / 64.0, np.float32), win)  # fmt: skip
    if peak < 0.05:
        raise Refused("the rings are not found shifted in the picture (peak {peak})",
                              peak=f"{peak:.2f}")  # fmt: skip
    shift = np.array([[1.0, 0, -dx], [0, 1.0, -dy], [0, 0, 1.0]])
    return np.asarray(old @ shift)


def _rolled(a_star: np.ndarray, old: np.ndarray) -> np.ndarray:
    """The old homography turned about the picture's centre by the roll (up to
    ``ROLL_SEARCH_DEG`` either way) that best lines up the rings' colours as it expects
    them with the picture's: a camera turned about its line of sight, which steps 1-3
    (``_near``) often do not find again with darts in the board (15 of 20 rendered
    cameras rolled 10 degrees, with 1-3 darts in: not checked, and scoring on)."""
    h, w = a_star.shape
    sw, sh = max(8, round(w * ROLL_SCALE)), max(8, round(h * ROLL_SCALE))
    small = cv2.resize(np.asarray(a_star, np.float32), (sw, sh), interpolation=cv2.INTER_AREA)
    small = (small - small.mean()) / (small.std() + 1e-6)
    to_small = np.diag([sw / w, sh / h, 1.0])
    model = autocal.ring_model()
    B = autocal.template_to_board(autocal.TEMPLATE_PPM, autocal.TEMPLATE_HALF)
    best, best_deg, none = -math.inf, 0.0, 0.0
    for deg in np.arange(-ROLL_SEARCH_DEG, ROLL_SEARCH_DEG + 1e-9, ROLL_STEP_DEG):
        R = _roll(float(deg), (w, h))
        expected = cv2.warpPerspective(model, to_small @ np.linalg.inv(old @ R) @ B, (sw, sh),
                                       flags=cv2.INTER_LINEAR)  # fmt: skip
        score = float(np.mean(small * (expected - expected.mean())))
        none = score if abs(deg) < ROLL_STEP_DEG / 2 else none
        if score > best:
            best, best_deg = score, float(deg)
    # (a blank picture, a lens cap: every roll scores alike, none better than none)
    if abs(best_deg) < MIN_ROLL_DEG or best <= max(none, 0.0) + 1e-6:
        raise Refused("no roll lines the rings up better than none")
    return np.asarray(old @ _roll(best_deg, (w, h)))


def _roll(deg: float, size: tuple[int, int]) -> np.ndarray:
    """Image px -> image px: a turn by ``deg`` about the picture's centre."""
    centre = ((size[0] - 1) / 2, (size[1] - 1) / 2)
    return np.vstack([cv2.getRotationMatrix2D(centre, -deg, 1.0), [0.0, 0.0, 1.0]])


def _near(img: np.ndarray, lab: np.ndarray, old: np.ndarray) -> np.ndarray:
    """Steps 1-3 with the turn nearest the old homography ``old``: of the ten turns the
    red/green pattern allows, the one that moves the known points least, when the
    numbers agree."""
    H0, phase, _, turns = autocal.board_turns(img, lab[:, :, 1] - 128.0)
    size = (img.shape[1], img.shape[0])
    drifts = np.array([homography_drift(old, H, size) for H in turns])
    by_numbers, margin = autocal.turn_from_numbers(lab, H0, phase)
    # (a board turned about a wire's width, 18 degrees, lies halfway between two
    # turns: either is as near, and the numbers say which)
    if margin < autocal.MIN_DIGIT_MARGIN or drifts[by_numbers] > drifts.min() + TIE_MM:
        raise Refused("the numbers do not confirm where 20 is: calibrate it again")
    return turns[by_numbers]


def least_drift(image: np.ndarray, homography: np.ndarray) -> float | None:
    """At least how far (mm) the board in ``image`` is from where ``homography`` (image
    -> board) puts it, whichever segment is 20 (steps 1-2 only, a few mm coarse); None
    when no board is found."""
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
        return None
    img = np.ascontiguousarray(image, np.uint8)
    a_star = cv2.cvtColor(img, cv2.COLOR_BGR2Lab).astype(np.float32)[:, :, 1] - 128.0
    try:
        turns = autocal.board_turns(img, a_star).turns
    except Refused:
        return None
    size = (img.shape[1], img.shape[0])
    return min(homography_drift(homography, H, size) for H in turns)


def _turn_between(old: np.ndarray, new: np.ndarray, size: tuple[int, int]) -> float:
    """How far (degrees) the board seems turned about its centre from homography
    ``old`` to ``new`` (image -> board), over the double ring's points in the picture."""
    pts = np.array(autocal.known_points()[1::2])  # the double ring's wire crossings
    img = autocal.apply(np.linalg.inv(old), np.vstack([[0.0, 0.0], pts]))
    w, h = size
    now = autocal.apply(new, img)
    seen = (img[1:, 0] >= 0) & (img[1:, 0] <= w - 1) & (img[1:, 1] >= 0) & (img[1:, 1] <= h - 1)
    if not seen.any():
        return 0.0
    v = now[1:][seen] - now[0]
    d = np.degrees(np.arctan2(v[:, 0], v[:, 1]) - np.arctan2(pts[seen, 0], pts[seen, 1]))
    return float(np.median((d + 180.0) % 360.0 - 180.0))


def homography_drift(old: np.ndarray, new: np.ndarray, size: tuple[int, int]) -> float:
    """How far apart (mm, at worst over the known points ``old`` puts in the picture)
    two image -> board homographies put the same image points."""
    pts = np.array(autocal.known_points())
    img = autocal.apply(np.linalg.inv(old), pts)
    w, h = size
    seen = (img[:, 0] >= 0) & (img[:, 0] <= w - 1) & (img[:, 1] >= 0) & (img[:, 1] <= h - 1)
    if not seen.any():
        return math.inf
    return float(np.linalg.norm(autocal.apply(new, img[seen]) - pts[seen], axis=1).max())
