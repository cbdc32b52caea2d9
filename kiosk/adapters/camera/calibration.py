"""Per-camera calibration: the homography from image pixels to board millimetres.

File format (JSON)::

    {"image_size": [w, h],
     "points": [{"image": [x, y], "board": [x_mm, y_mm]}, ...]}

at least 4 points; board mm as in ``kiosk/domain/board.py`` (origin at the bull centre,
x right, y up, 20 at the top). Up to ``RANSAC_FROM - 1`` points the homography is the
least-squares fit of all of them; from ``RANSAC_FROM`` points on, RANSAC drops points
more than ``RANSAC_MM`` off (a mis-click) and fits the rest.

Besides the plane mapping, the detector needs to know which way a dart sticks out of
the board in the image (its body points "up", away from the surface, its tip is at
the other end). A homography alone does not give that; with square pixels and the
principal point at the image centre it gives the focal length and the camera pose
(Zhang's constraints), see ``CameraPose``.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from kiosk.adapters.files import write_text_atomically

SAME_SHAPE = 0.01  # pictures whose width / height is within this of the calibration's
# Points; below this every point is trusted (least squares: a mis-click is named). With
# 6, one mis-click leaves 5 that agree against at most 4 for any fit through it.
RANSAC_FROM = 6
RANSAC_MM = 3.0  # a point further than this from the fit is a mis-click
MAX_RMS_MM = 5.0  # a least-squares fit worse than this means the points disagree
# 5 points: a least-squares fit spreads one mis-click over all of them (one mark 30 px
# off on a 1280x720 picture: rms about 3 mm, the darts 18 mm off), and the rms check
# misses most. A fit through 4 of them must put the fifth within this of its mark (the
# kiosk's marks: the bull, where the four crossings' diagonals meet). bench/
# camera_marks.py, 300 rendered cameras: marks with 1-2 px of error never refused, 3 px
# 0.3 %; one mark 15 / 30 / 60 px off refused 11 / 38 / 75 % (the rms check alone:
# 3 / 21 / 65 %). A mark moved along its diagonal cannot be told from a good one with
# these 5 points; the kiosk's check on each camera's first picture refits the board's
# rings (``recheck``) and mends that.
LEFT_OUT_MM = 10.0
STEADY_SUBSET = 0.1  # of the extent: each of 4 points this far off the others' lines
LINE_TOLERANCE = 0.005  # of the points' extent: this close to a line counts as on it
ALL_PAIRS_UP_TO = 40  # points; more are checked for a line through the first two only
MAX_IMAGE_SIZE = 16384
MAX_BOARD_MM = 1000.0  # a point further from the bull is not on the board or its cabinet
# Points closer together than this tell the homography too little (or are in other
# units: the double ring's points span 340 mm, or 34 in cm; pixels given as fractions).
MIN_BOARD_SPREAD_MM = 60.0
MIN_IMAGE_SPREAD_PX = 20.0
# A camera closer than this to the board's axis (straight in front) sees every dart lean
# the same way as the other cameras: their lines through the tip are nearly parallel
# and the tip is placed worse along them. On rendered throws (bench/camera.py, held-out
# seeds) three cameras score 97.3 % exact at 0-15 degrees, 99.6 % at 15-30, 100 % at
# 30-50 (a fifth of the throws near a wire).
FACE_ON_DEG = 15.0


class CalibrationError(ValueError):
    """A calibration file or point set that does not give a usable homography."""


class PointsDisagree(CalibrationError):
    """Points that give a board but not one board (a mis-click among them): which one
    is off cannot be told from the points alone, but the board's rings in a picture
    can tell (``marked.check_marks``)."""

    def __init__(self, message: str, image_size: tuple[int, int], points: tuple[PointPair, ...]):
        super().__init__(message)
        self.image_size, self.points = image_size, points

    def __reduce__(self) -> tuple[Any, ...]:  # (picklable: from a worker process)
        return (PointsDisagree, (str(self), self.image_size, self.points))


@dataclass(frozen=True, slots=True)
class PointPair:
    image: tuple[float, float]
    board: tuple[float, float]


@dataclass(frozen=True, slots=True)
class CameraPose:
    """Pinhole camera estimated from a homography: ``x ~ K (R X + t)``, X in board mm."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    focal_estimated: bool  # False: the view was too face-on to tell, a default was used

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Board-frame 3-D points (N, 3) mm -> image points (N, 2)."""
        cam = pts @ self.R.T + self.t
        uvw = cam @ self.K.T
        return np.asarray(uvw[:, :2] / uvw[:, 2:3])

    @property
    def centre(self) -> np.ndarray:
        """The camera's position in board mm (z > 0: in front of the board)."""
        return np.asarray(-self.R.T @ self.t)


@dataclass(frozen=True)
class Calibration:
    image_size: tuple[int, int]
    points: tuple[PointPair, ...]
    homography: np.ndarray = field(compare=False, repr=False)  # image px -> board mm
    inliers: tuple[bool, ...] = field(compare=False, repr=False)
    rms_mm: float = field(compare=False)

    # -- building -----------------------------------------------------------------------

    @classmethod
    def from_points(
        cls, image_size: tuple[int, int], points: list[PointPair] | tuple[PointPair, ...]
    ) -> Calibration:
        w, h = _size(image_size)
        pts = tuple(points)
        if len(pts) < 4:
            raise CalibrationError(f"need at least 4 points, got {len(pts)}")
        img = np.array([p.image for p in pts], dtype=np.float64)
        brd = np.array([p.board for p in pts], dtype=np.float64)
        if not (np.isfinite(img).all() and np.isfinite(brd).all()):
            raise CalibrationError("a point is not a finite number")
        for i, (x, y) in enumerate(img):
            if not (-0.5 <= x <= w + 0.5 and -0.5 <= y <= h + 0.5):
                raise CalibrationError(f"point {i + 1}: image {x:g},{y:g} is outside {w}x{h}")
        for i, (x, y) in enumerate(brd):
            if math.hypot(x, y) > MAX_BOARD_MM:
                raise CalibrationError(
                    f"point {i + 1}: board {x:.4g},{y:.4g} is further than {MAX_BOARD_MM:.0f} mm"
                    " from the bull; board points are in mm from the bull (the board is 451 mm"
                    " across)"
                )
        for name, arr in (("image", img), ("board", brd)):
            if _spread_area(arr) < 1e-3 * max(1.0, float(np.ptp(arr, axis=0).max()) ** 2):
                raise CalibrationError(f"the {name} points are (nearly) on one line")
            lined = _all_but_one_on_a_line(arr)
            if lined:
                listed = ", ".join(str(i + 1) for i in lined)
                raise CalibrationError(
                    f"the {name} points {listed} are (nearly) on one line and only one point"
                    " is off it (given once or more): a calibration needs 4 points with no"
                    " three on a line (add a point off that line)"
                )
        for name, arr, least, unit in (("image", img, MIN_IMAGE_SPREAD_PX, "px"),
                                       ("board", brd, MIN_BOARD_SPREAD_MM, "mm")):  # fmt: skip
            spread = float(np.ptp(arr, axis=0).max())
            if spread < least:
                raise CalibrationError(
                    f"the {name} points lie within {spread:.3g} {unit} of each other: mark"
                    " points far apart, on the double ring (board points in mm, image"
                    " points in pixels)"
                )
        if len(pts) >= RANSAC_FROM:
            H, mask = cv2.findHomography(img, brd, cv2.RANSAC, RANSAC_MM)
        else:
            H, mask = cv2.findHomography(img, brd, 0)
        if H is None or not np.isfinite(H).all() or abs(np.linalg.det(H)) < 1e-12:
            raise CalibrationError("the points do not give a homography (degenerate layout)")
        # (Least squares trusts every point: OpenCV's mask then only says which are
        # within 3 units, and a mis-click among few points would read "fewer than 4
        # agree" instead of naming the point, below.)
        ransac = len(pts) >= RANSAC_FROM and mask is not None
        inl = tuple(bool(m) for m in mask.ravel()) if ransac else (True,) * len(pts)
        # RANSAC's fit through exactly 4 points agrees with them whatever they are: it
        # needs a fifth to vouch for it.
        if sum(inl) < (5 if ransac else 4):
            raise PointsDisagree(
                f"only {sum(inl)} of the {len(pts)} points agree with each other; check them",
                (w, h),
                pts,
            )
        if not ransac and len(pts) > 4:
            left_out = _left_out_error(img, brd)
            if left_out is not None and left_out[1] > LEFT_OUT_MM:
                i, off = left_out
                raise PointsDisagree(
                    f"the points disagree: the others put point {i + 1} {off:.0f} mm from"
                    " where it is marked; one of them is off: mark them again",
                    (w, h),
                    pts,
                )
        err = np.linalg.norm(_apply(H, img) - brd, axis=1)
        rms = float(np.sqrt(np.mean(err[np.array(inl)] ** 2)))
        if rms > MAX_RMS_MM:
            if len(pts) < RANSAC_FROM:
                # 4 or 5 points: a fit can pass through any 4, so which one is off cannot
                # be told (the largest error is often on a good point): none is named
                raise PointsDisagree(
                    f"the points disagree: {rms:.1f} mm rms; one of them is off: mark them"
                    " again (in a file, from 6 points on a mis-click is found and left out)",
                    (w, h),
                    pts,
                )
            worst = int(np.argmax(err)) + 1
            raise PointsDisagree(
                f"the points disagree: {rms:.1f} mm rms (worst: point {worst}, "
                f"{err[worst - 1]:.1f} mm); check the marked points",
                (w, h),
                pts,
            )
        return cls((w, h), pts, H / H[2, 2], inl, rms)

    @classmethod
    def from_dict(cls, data: Any) -> Calibration:
        if not isinstance(data, dict):
            raise CalibrationError("calibration must be a JSON object")
        for key in ("image_size", "points"):
            if key not in data:
                raise CalibrationError(f"missing {key!r}")
        raw = data["points"]
        if not isinstance(raw, list):
            raise CalibrationError("'points' must be a list")
        pts = []
        for i, p in enumerate(raw):
            if not isinstance(p, dict) or "image" not in p or "board" not in p:
                raise CalibrationError(f"point {i + 1}: needs 'image' and 'board'")
            pts.append(PointPair(_pair(p["image"], f"point {i + 1} image"),
                                 _pair(p["board"], f"point {i + 1} board")))  # fmt: skip
        return cls.from_points(_size(data["image_size"]), pts)

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            if Path(path).exists() and not Path(path).is_file():  # a folder; a pipe would
                raise CalibrationError(f"{path}: not a file")  # block the start for good
            raw = Path(path).read_bytes()
        except OSError as e:
            raise CalibrationError(f"{path}: cannot read: {e.strerror or e}") from e
        if (kind := picture_kind(raw)) is not None:
            raise CalibrationError(
                f"{path}: this is a picture ({kind}), not a calibration file (the .json file "
                "camera-calibrate writes)"
            )
        try:
            # UTF-8 (with a BOM: Windows Notepad), or UTF-16/32 (Notepad's "Unicode");
            # a picture or other bytes given by mistake is "not JSON", never a crash.
            data = json.loads(raw.removeprefix(b"\xef\xbb\xbf"))
        except (ValueError, RecursionError) as e:  # (not JSON, not text, a number of
            # thousands of digits, lists nested thousands deep: all "not JSON" here)
            # (json's own message in full, with where: the file may have been edited
            # by hand; the others cut, a number of thousands of digits among them)
            why = (f"{e.msg} at line {e.lineno}, column {e.colno}"
                   if isinstance(e, json.JSONDecodeError) else _short(str(e)))  # fmt: skip
            raise CalibrationError(f"{path}: not JSON: {why}") from e
        try:
            return cls.from_dict(data)
        except PointsDisagree as e:
            raise PointsDisagree(f"{path}: {e}", e.image_size, e.points) from e
        except CalibrationError as e:
            raise CalibrationError(f"{path}: {e}") from e

    def to_dict(self) -> dict[str, Any]:
        return {
            "image_size": list(self.image_size),
            "points": [{"image": list(p.image), "board": list(p.board)} for p in self.points],
        }

    def save(self, path: str | Path) -> None:
        """Write atomically (temp file + rename): a power cut leaves the old file or the new."""
        write_text_atomically(path, json.dumps(self.to_dict(), indent=1) + "\n")

    def for_size(self, size: tuple[int, int]) -> Calibration:
        """The same calibration for pictures of another size from the same camera (a
        camera that gives 640x480 when it was calibrated at 1280x960, photos scaled
        down): the points scaled. Only when the shape is the same (within 1 %): a
        different shape is a different crop, and needs a calibration of its own."""
        w, h = _size(size)
        w0, h0 = self.image_size
        if (w, h) == (w0, h0):
            return self
        if abs((w / h) / (w0 / h0) - 1.0) > SAME_SHAPE:
            raise CalibrationError(
                f"the pictures are {w}x{h} but the calibration is for {w0}x{h0} "
                "(another shape: calibrate this camera at this size)"
            )
        sx, sy = w / w0, h / h0
        pts = [PointPair((p.image[0] * sx, p.image[1] * sy), p.board) for p in self.points]
        try:
            return Calibration.from_points((w, h), pts)
        except CalibrationError as e:  # its points bunched together at this size
            raise CalibrationError(
                f"the pictures are {w}x{h}, too small for the calibration made at {w0}x{h0} ({e})"
            ) from e

    # -- using --------------------------------------------------------------------------

    def image_to_board(self, pts: np.ndarray) -> np.ndarray:
        return _apply(self.homography, np.asarray(pts, dtype=np.float64).reshape(-1, 2))

    def board_to_image(self, pts: np.ndarray) -> np.ndarray:
        Hi = np.linalg.inv(self.homography)
        return _apply(Hi, np.asarray(pts, dtype=np.float64).reshape(-1, 2))

    def scale_at(self, image_pt: tuple[float, float]) -> float:
        """Pixels per mm at a point, in the board's worst direction (smallest singular
        value of the board->image Jacobian): what one pixel of error costs there."""
        x, y = image_pt
        b = self.image_to_board(np.array([[x, y], [x + 1, y], [x, y + 1]]))
        J = np.column_stack([b[1] - b[0], b[2] - b[0]])  # mm per px
        s = np.linalg.svd(J, compute_uv=False)
        return float(1.0 / s[0]) if s[0] > 0 else 0.0

    def pose(self) -> CameraPose:
        return _pose(np.linalg.inv(self.homography), self.image_size)

    @cached_property
    def off_axis_deg(self) -> float:
        """How far the camera sits off the board's axis, degrees (0: straight in front
        of the bull), from its pose (within about 2 degrees on rendered views); NaN
        when no pose can be worked out (then nothing is said about it). Worked out once:
        the calibration screen asks for it on every frame it draws."""
        try:
            c = self.pose().centre
        except (np.linalg.LinAlgError, ValueError, ZeroDivisionError):
            return math.nan
        return math.degrees(math.atan2(math.hypot(float(c[0]), float(c[1])), abs(float(c[2]))))

    @cached_property
    def mirrored(self) -> bool:
        """Whether the board comes out mirrored: board y given pointing down (image
        style) or x pointing left, or a camera that mirrors its picture. A camera
        however turned keeps the board's handedness (the picture's y points down, the
        board's up); a mirror flips it. Darts are then scored at their mirror image
        (T20 as T3) unless the picture is mirrored too."""
        ((x, y),) = self.board_to_image(np.zeros((1, 2)))
        return jacobian_det(self.homography, np.array([x, y])) > 0

    @property
    def face_on(self) -> bool:
        """Whether the camera is too close to the board's axis to score its best
        (``FACE_ON_DEG``): the kiosk says so when it is calibrated and started."""
        return self.off_axis_deg < FACE_ON_DEG

    def up_direction(
        self, image_pt: tuple[float, float], pose: CameraPose | None = None
    ) -> np.ndarray:
        """Unit image vector in which a dart's body leaves the board at ``image_pt``."""
        pose = pose or self.pose()
        bx, by = self.image_to_board(np.array(image_pt))[0]
        side = 1.0 if pose.centre[2] >= 0 else -1.0
        p = pose.project(np.array([[bx, by, 0.0], [bx, by, side * 20.0]]))
        d = p[1] - p[0]
        n = float(np.hypot(*d))
        return d / n if n > 1e-9 else np.array([0.0, -1.0])


# How picture files begin: a picture given where a calibration was asked for (the two
# sit side by side in a support folder) is named as such, not as "not JSON: 'utf-8'
# codec can't decode byte 0x89".
PICTURE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "PNG"), (b"\xff\xd8\xff", "JPEG"), (b"GIF8", "GIF"),
    (b"BM", "BMP"), (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"),
)  # fmt: skip


def picture_kind(raw: bytes) -> str | None:
    """The kind of picture the bytes of a file are, or None."""
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "WebP"
    return next((kind for magic, kind in PICTURE_MAGIC if raw.startswith(magic)), None)


def jacobian_det(H: np.ndarray, p: np.ndarray) -> float:
    """The determinant of the homography ``H``'s Jacobian at ``p``: its sign says
    whether ``H`` mirrors (image to board: image y runs down, board y up, so a camera
    in front of the board gives a negative one)."""
    q = _apply(H, np.array([p, p + np.array([1.0, 0.0]), p + np.array([0.0, 1.0])]))
    return float(np.linalg.det(np.column_stack([q[1] - q[0], q[2] - q[0]])))


def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    q = np.column_stack([pts, np.ones(len(pts))]) @ H.T
    return np.asarray(q[:, :2] / q[:, 2:3])


def _left_out_error(img: np.ndarray, brd: np.ndarray) -> tuple[int, float] | None:
    """Each point left out in turn, where the homography through the others puts it
    (board mm from its own board point): the point and distance of the worst, None if
    no 4 of the others fix a homography steadily (three of them nearly on a line)."""
    worst: tuple[int, float] | None = None
    for i in range(len(img)):
        keep = np.arange(len(img)) != i
        if not (_steady(img[keep]) and _steady(brd[keep])):
            continue
        H, _ = cv2.findHomography(img[keep], brd[keep], 0)
        if H is None or not np.isfinite(H).all():
            continue
        off = float(np.linalg.norm(_apply(H, img[i : i + 1])[0] - brd[i]))
        if worst is None or off > worst[1]:
            worst = (i, off)
    return worst


def _steady(pts: np.ndarray) -> bool:
    """No point within ``STEADY_SUBSET`` of the extent of a line through two others."""
    tol = STEADY_SUBSET * max(1e-9, float(np.ptp(pts, axis=0).max()))
    for i, j, k in itertools.permutations(range(len(pts)), 3):
        d = pts[j] - pts[i]
        length = float(np.hypot(*d))
        rel = pts[k] - pts[i]
        if length <= tol or abs(rel[0] * d[1] - rel[1] * d[0]) / length <= tol:
            return False
    return True


def _all_but_one_on_a_line(pts: np.ndarray) -> list[int]:
    """The points on a line that holds all of them but one (any 4 then include three on
    it, and the homography is not fixed: the bull with 20/1 and 3/19, which face each
    other across it), or [] when 4 points with no three on a line exist. Points given
    twice (or within the tolerance of each other) count once: the bull marked three
    times with three points on a line through it and one off it is still a line and
    one point."""
    tol = LINE_TOLERANCE * max(1e-9, float(np.ptp(pts, axis=0).max()))
    distinct = _distinct(pts, tol)
    n = len(distinct)
    # Up to ``ALL_PAIRS_UP_TO`` points every pair's line is tried. With more, a line
    # through all but one passes through the first point or (that point being the one
    # off it) the second: the lines through those two and every other are enough.
    firsts = range(n) if n <= ALL_PAIRS_UP_TO else range(min(n, 2))
    for i in firsts:
        for j in range(i + 1, n):
            d = distinct[j] - distinct[i]
            length = float(np.hypot(*d))
            if length <= tol:
                continue
            rel = distinct - distinct[i]
            off = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0]) / length
            if int(np.count_nonzero(off <= tol)) >= n - 1:
                rel = pts - distinct[i]
                off = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0]) / length
                return [k for k in range(len(pts)) if off[k] <= tol]
    return []


def _distinct(pts: np.ndarray, tol: float) -> np.ndarray:
    """``pts`` less those within ``tol`` of one before them."""
    kept: list[np.ndarray] = []
    for p in pts:
        if not kept or float(np.min(np.hypot(*(np.array(kept) - p).T))) > tol:
            kept.append(p)
    return np.array(kept)


def _spread_area(pts: np.ndarray) -> float:
    c = pts - pts.mean(axis=0)
    s = np.linalg.svd(c, compute_uv=False)
    return float(s[0] * s[1]) / max(1, len(pts))


def _pair(v: Any, what: str) -> tuple[float, float]:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise CalibrationError(f"{what}: expected [x, y], got {_short(repr(v))}")
    out = []
    for c in v:
        try:
            f = math.nan if isinstance(c, bool) or not isinstance(c, int | float) else float(c)
        except OverflowError:  # an integer of hundreds of digits
            f = math.inf
        if not math.isfinite(f):
            raise CalibrationError(f"{what}: {_short(repr(c))} is not a finite number")
        out.append(f)
    return (out[0], out[1])


def _short(text: str, most: int = 40) -> str:
    """A value from a file as a message shows it: a number of a thousand digits cut."""
    return text if len(text) <= most else f"{text[: most - 3]}..."


def _size(v: Any) -> tuple[int, int]:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise CalibrationError(f"image_size: expected [w, h], got {_short(repr(v))}")
    w, h = v
    for c in (w, h):
        whole = isinstance(c, int) or (isinstance(c, float) and c.is_integer())  # 1280.0
        if isinstance(c, bool) or not whole or not 1 <= c <= MAX_IMAGE_SIZE:
            raise CalibrationError(f"image_size: {_short(repr(c))} is not a size in pixels")
    return (int(w), int(h))


def default_focal(image_size: tuple[int, int]) -> float:
    """A typical webcam: about 65 degrees across the width."""
    return image_size[0] / 2 / math.tan(math.radians(65 / 2))


def _pose(H_b2i: np.ndarray, image_size: tuple[int, int]) -> CameraPose:
    w, h = image_size
    cx, cy = (w - 1) / 2, (h - 1) / 2
    T = np.array([[1.0, 0, -cx], [0, 1.0, -cy], [0, 0, 1.0]])
    G = T @ H_b2i
    G = G / np.linalg.norm(G[:, :2])
    g1, g2 = G[:, 0], G[:, 1]
    # With K = diag(f, f, 1): r1 . r2 = 0 and |r1| = |r2| are linear in u = 1/f^2.
    a = np.array([g1[0] * g2[0] + g1[1] * g2[1], g1[0] ** 2 + g1[1] ** 2 - g2[0] ** 2 - g2[1] ** 2])
    b = np.array([g1[2] * g2[2], g1[2] ** 2 - g2[2] ** 2])
    f0 = default_focal(image_size)
    denom = float(a @ a)
    u = -float(a @ b) / denom if denom > 0 else -1.0
    if u > 0 and 0.3 * w <= 1 / math.sqrt(u) <= 4 * w:
        K, R, t = _extrinsics(H_b2i, 1 / math.sqrt(u), cx, cy)
        # Within ~8 degrees of face-on the constraints barely depend on f: keep f0.
        if abs(R[2, 2]) < math.cos(math.radians(8.0)):
            return CameraPose(K, R, t, True)
    K, R, t = _extrinsics(H_b2i, f0, cx, cy)
    return CameraPose(K, R, t, False)


def _extrinsics(
    H_b2i: np.ndarray, f: float, cx: float, cy: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    M = np.linalg.inv(K) @ H_b2i
    lam = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    if M[2, 2] * lam < 0:  # the board must be in front of the camera (t_z > 0)
        lam = -lam
    r1, r2, t = M[:, 0] * lam, M[:, 1] * lam, M[:, 2] * lam
    R = np.column_stack([r1, r2, np.cross(r1, r2)])
    U, _, Vt = np.linalg.svd(R)
    return K, U @ Vt, t
