"""A second renderer of darts in a board, written apart from the kiosk's own
(``kiosk.adapters.camera.synth_*``) and sharing none of its code, to see whether the
camera figures hold for pictures the detector was not tuned on.

Everything here is different on purpose: the board is painted top-down from the
rules' dimensions alone (its own ring radii, segment order and colours, thicker
wires, other numbers) and warped by a pinhole camera that may roll and aim off the
bull; the dart is another model (a thin steel point, a shaded barrel, a shaft, two
flat vanes crossed, in several looks); its shadow is cast by a lamp above and in
front, often long; the after picture has another exposure, noise and JPEG. The
truth (which segment) is worked out here from the same dimensions, not by
``kiosk.domain.board``. The calibration is the 20 points where the double ring's
outer edge meets the wires, plus the bull, as a person would click them (to a third
of a pixel), only those in the picture.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

ORDER = (20, 1, 18, 4, 13, 6, 10, 15, 2, 17, 3, 19, 7, 16, 8, 11, 14, 9, 12, 5)
RINGS = (6.35, 15.9, 99.0, 107.0, 162.0, 170.0)  # bull, outer bull, treble, double (mm)
W, H = 1280, 720
PX_PER_MM = 4.0  # the board painted top-down
HALF_MM = 230.0  # the painting's half width
POINT_CONE_MM = 3.5  # the steel point's sharpened end


def _segment(clockwise_deg: np.ndarray) -> np.ndarray:
    """Index into ``ORDER`` of the segment at each angle clockwise from the top."""
    return np.asarray(((clockwise_deg + 9.0) % 360.0) // 18.0).astype(int)


def _wire_deg(k: int) -> float:
    """Angle (counter-clockwise from x) of the wire between ``ORDER[k - 1]`` and
    ``ORDER[k]``."""
    return 90.0 - (k * 18 - 9)


def truth(x: float, y: float) -> str:
    """The dart at board mm (x right, y up, 20 at the top), as the kiosk prints one."""
    r = math.hypot(x, y)
    bull, outer, t_in, t_out, d_in, d_out = RINGS
    if r > d_out:
        return "MISS"
    if r <= bull:
        return "DB"
    if r <= outer:
        return "SB"
    clockwise = (90.0 - math.degrees(math.atan2(y, x))) % 360.0
    n = ORDER[int(_segment(np.array(clockwise)))]
    if t_in <= r <= t_out:
        return f"T{n}"
    return f"D{n}" if r >= d_in else f"S{n}"


@dataclass(frozen=True)
class Look:
    wall: tuple[int, int, int]  # BGR
    dark: tuple[int, int, int]
    light: tuple[int, int, int]
    red: tuple[int, int, int]
    green: tuple[int, int, int]
    wire: tuple[int, int, int]
    wire_mm: float


LOOKS = (
    Look(
        (200, 200, 200),
        (30, 30, 30),
        (190, 225, 235),
        (40, 40, 200),
        (60, 140, 30),
        (200, 200, 200),
        1.2,
    ),
    Look(
        (120, 150, 170),
        (45, 40, 40),
        (150, 200, 215),
        (50, 50, 160),
        (70, 120, 50),
        (170, 175, 180),
        0.9,
    ),
    Look(
        (60, 60, 60),
        (20, 22, 25),
        (175, 215, 230),
        (30, 30, 215),
        (40, 160, 20),
        (215, 215, 215),
        1.5,
    ),
)


@functools.lru_cache(maxsize=len(LOOKS))
def painted(k: int) -> np.ndarray:
    """Board ``LOOKS[k]`` painted top-down, ``PX_PER_MM``, bull in the middle."""
    look = LOOKS[k]
    n = int(2 * HALF_MM * PX_PER_MM)
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    x = xs / PX_PER_MM - HALF_MM
    y = HALF_MM - ys / PX_PER_MM
    r = np.hypot(x, y)
    clockwise = (90.0 - np.degrees(np.arctan2(y, x))) % 360.0
    even = _segment(clockwise) % 2 == 0  # 20 is dark
    img = np.empty((n, n, 3), np.uint8)
    img[:] = look.wall
    img[r <= 225.0] = (18, 18, 18)  # the surround
    bull, outer, t_in, t_out, d_in, d_out = RINGS
    inside = r <= d_out
    img[inside & even] = look.dark
    img[inside & ~even] = look.light
    rings = ((r >= t_in) & (r <= t_out)) | ((r >= d_in) & (r <= d_out))
    img[rings & even] = look.red
    img[rings & ~even] = look.green
    img[r <= outer] = look.green
    img[r <= bull] = look.red
    half = look.wire_mm / 2
    wire = np.zeros(r.shape, bool)
    for radius in RINGS:
        wire |= np.abs(r - radius) < half
    for k in range(20):
        th = math.radians(_wire_deg(k))
        across = np.abs(-math.sin(th) * x + math.cos(th) * y)
        along = math.cos(th) * x + math.sin(th) * y
        wire |= (across < half) & (along > outer) & (along < d_out)
    img[wire] = look.wire
    for k, number in enumerate(ORDER):
        th = math.radians(90.0 - k * 18)
        cx, cy = 197 * math.cos(th), 197 * math.sin(th)
        text = str(number)
        (tw, th_px), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 2.4, 6)
        org = (
            int((cx + HALF_MM) * PX_PER_MM) - tw // 2,
            int((HALF_MM - cy) * PX_PER_MM) + th_px // 2,
        )
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 2.4, (225, 225, 225), 6, cv2.LINE_AA)
    return img


class Camera:
    """A pinhole camera ``off_deg`` off the board's axis, 520-720 mm from the bull,
    aimed near it, rolled, focal length ``f`` 700-950 px at 1280 px wide (the same
    field of view at other ``size``s), centre in the middle."""

    def __init__(
        self, rng: np.random.Generator, off_deg: float, size: tuple[int, int] = (W, H)
    ) -> None:
        self.size = size
        az = rng.uniform(0, 2 * math.pi)
        t = math.radians(off_deg)
        dist = rng.uniform(520, 720)
        self.centre = dist * np.array(
            [math.sin(t) * math.cos(az), math.sin(t) * math.sin(az), math.cos(t)]
        )
        forward = np.array([rng.normal(0, 15), rng.normal(0, 15), 0.0]) - self.centre
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, np.array([0.0, 1.0, 0.0]))
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        roll = math.radians(rng.uniform(-25, 25))
        right, down = (
            math.cos(roll) * right + math.sin(roll) * down,
            -math.sin(roll) * right + math.cos(roll) * down,
        )
        # World -> camera, by rows (right x down = forward: no mirror).
        self.rot = np.stack([right, down, forward])
        self.f = rng.uniform(700, 950) * size[0] / W
        w, h = size
        self.k = np.array([[self.f, 0, w / 2], [0, self.f, h / 2], [0, 0, 1]])

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World points (n, 3) -> image points (n, 2) and their depths."""
        cam = (np.atleast_2d(pts) - self.centre) @ self.rot.T
        uv = cam @ self.k.T
        return uv[:, :2] / uv[:, 2:3], cam[:, 2]

    def board_to_image(self) -> np.ndarray:
        t = -self.rot @ self.centre
        m = self.k @ np.column_stack([self.rot[:, 0], self.rot[:, 1], t])
        return np.asarray(m / m[2, 2])


def _fixed(pts: np.ndarray) -> np.ndarray:
    return np.round(pts * 16).astype(np.int32)  # cv2's 4 fractional bits


def _quad(
    cam: Camera, p0: np.ndarray, p1: np.ndarray, radius: tuple[float, float], lo: float, hi: float
) -> np.ndarray:
    """The image polygon of a strip along a cylinder or cone from ``p0`` to ``p1``
    (``radius`` at each end, mm), from ``lo`` to ``hi`` of its half width (-1 to 1:
    all of it), fixed point for cv2."""
    (a, b), (za, zb) = cam.project(np.array([p0, p1]))
    d = b - a
    side = np.array([-d[1], d[0]]) / max(float(np.linalg.norm(d)), 1e-6)
    ra, rb = side * radius[0] * cam.f / za, side * radius[1] * cam.f / zb
    return _fixed(np.array([a + ra * hi, b + rb * hi, b + rb * lo, a + ra * lo]))


def _tube(
    img: np.ndarray,
    cam: Camera,
    p0: np.ndarray,
    p1: np.ndarray,
    radius: tuple[float, float],
    colour: tuple[int, int, int],
    shine: float,
) -> None:
    """A cylinder or cone (``radius`` at ``p0``, at ``p1``, mm) seen from ``cam``:
    darker at its sides, a highlight along it (seen end-on: a disc)."""
    (a, b), (za, _) = cam.project(np.array([p0, p1]))
    if np.linalg.norm(b - a) < 1e-6:
        r = max(1, int(radius[1] * cam.f / za * 16))
        cv2.circle(img, tuple(_fixed(a)), r, colour, -1, cv2.LINE_AA, 4)
        return
    strips = (
        (-1.0, 1.0, 0.6),  # round: darker at the sides
        (-0.7, 0.7, 0.85),
        (-0.35, 0.35, 1.0),
        (0.15, 0.4, 1.0 + shine),  # a highlight, off the middle
    )
    for lo, hi, gain in strips:
        c = tuple(int(min(255, v * gain)) for v in colour)
        cv2.fillPoly(img, [_quad(cam, p0, p1, radius, lo, hi)], c, cv2.LINE_AA, 4)


@dataclass(frozen=True)
class Dart:
    tip: np.ndarray  # (3,), z = 0
    axis: np.ndarray  # unit, out of the board
    spin: float
    lengths: tuple[float, float, float, float]  # point, barrel, shaft, flight (mm)
    barrel: tuple[int, int, int]
    shaft: tuple[int, int, int]
    flight: tuple[int, int, int]
    vane: float  # half width of a vane, mm

    def tubes(
        self,
    ) -> list[tuple[np.ndarray, np.ndarray, tuple[float, float], tuple[int, int, int], float]]:
        """The steel point (its sharpened end a cone), the barrel, the shaft."""
        p, barrel, shaft, _ = self.lengths
        s = [0.0, POINT_CONE_MM, p, p + barrel, p + barrel + shaft]
        at = [self.tip + self.axis * v for v in s]
        steel = (185, 185, 190)
        return [
            (at[0], at[1], (0.25, 1.0), steel, 0.4),
            (at[1], at[2], (1.0, 1.0), steel, 0.4),
            (at[2], at[3], (3.4, 3.4), self.barrel, 0.5),
            (at[3], at[4], (2.4, 2.4), self.shaft, 0.2),
        ]

    def vanes(self) -> list[np.ndarray]:
        a = np.array([1.0, 0, 0]) if abs(self.axis[0]) < 0.9 else np.array([0, 1.0, 0])
        v1 = np.cross(self.axis, a)
        v1 /= np.linalg.norm(v1)
        v2 = np.cross(self.axis, v1)
        c, s = math.cos(self.spin), math.sin(self.spin)
        v1, v2 = c * v1 + s * v2, -s * v1 + c * v2
        root = self.tip + self.axis * sum(self.lengths[:3])
        end = root + self.axis * self.lengths[3]
        out = []
        for v in (v1, v2):
            for sign in (1.0, -1.0):
                out.append(
                    np.array(
                        [
                            root - self.axis * 3,
                            root + self.axis * 9 + sign * v * self.vane * 0.55,
                            end + sign * v * self.vane,
                            end,
                        ]
                    )
                )
        return out


def random_dart(rng: np.random.Generator, tip: tuple[float, float]) -> Dart:
    lean, toward = math.radians(rng.uniform(0, 20)), rng.uniform(0, 2 * math.pi)
    axis = np.array(
        [math.sin(lean) * math.cos(toward), math.sin(lean) * math.sin(toward), math.cos(lean)]
    )
    grey = int(rng.integers(70, 170))
    barrel = (grey, grey, grey + 8)
    hsv = np.array(
        [[[int(rng.integers(0, 180)), int(rng.integers(150, 256)), int(rng.integers(130, 230))]]],
        np.uint8,
    )
    b, g, r = (int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    flight = (b, g, r)
    shaft = (25, 25, 25) if rng.random() < 0.6 else flight
    lengths = (rng.uniform(24, 32), rng.uniform(38, 50), rng.uniform(28, 42), rng.uniform(34, 42))
    return Dart(
        np.array([tip[0], tip[1], 0.0]),
        axis,
        rng.uniform(0, math.pi),
        lengths,
        barrel,
        shaft,
        flight,
        rng.uniform(13, 17),
    )


def _shadow(img: np.ndarray, cam: Camera, dart: Dart, lamp: np.ndarray, strength: float) -> None:
    """The dart's shadow on the board from a lamp in direction ``lamp`` (z > 0)."""

    def flat(p: np.ndarray) -> np.ndarray:
        p = np.atleast_2d(p)
        return p - np.outer(p[:, 2] / lamp[2], lamp)

    mask = np.zeros(img.shape[:2], np.uint8)
    for p0, p1, radius, _, _ in dart.tubes():
        f0, f1 = flat(np.array([p0, p1]))
        cv2.fillPoly(mask, [_quad(cam, f0, f1, radius, -1.0, 1.0)], 255, cv2.LINE_AA, 4)
    for vane in dart.vanes():
        uv, _ = cam.project(flat(vane))
        cv2.fillPoly(mask, [_fixed(uv)], 255, cv2.LINE_AA, 4)
    soft = cv2.GaussianBlur(mask, (0, 0), 2.0).astype(np.float32) / 255.0
    img[:] = np.clip(img * (1.0 - strength * soft[..., None]), 0, 255).astype(np.uint8)


def _draw(img: np.ndarray, cam: Camera, dart: Dart) -> None:
    """The dart, furthest parts from the camera first."""
    parts: list[tuple[float, Callable[[], object]]] = []  # (-depth, draw it)
    for tube in dart.tubes():
        depth = float(cam.project(np.array(tube[:2]))[1].mean())
        parts.append((-depth, functools.partial(_tube, img, cam, *tube)))
    for k, vane in enumerate(dart.vanes()):
        shade = tuple(int(v * (0.8 if k >= 2 else 1.0)) for v in dart.flight)
        uv, z = cam.project(vane)
        fill = functools.partial(cv2.fillPoly, img, [_fixed(uv)], shade, cv2.LINE_AA, 4)
        parts.append((-float(z.mean()), fill))
    for _, draw in sorted(parts, key=lambda p: p[0]):
        draw()


def _calibration(cam: Camera, rng: np.random.Generator) -> dict[str, Any]:
    pts = [(0.0, 0.0)]
    for k in range(20):
        th = math.radians(_wire_deg(k))
        pts.append((RINGS[-1] * math.cos(th), RINGS[-1] * math.sin(th)))
    uv, _ = cam.project(np.array([[x, y, 0.0] for x, y in pts]))
    uv = uv + rng.normal(0, 0.33, uv.shape)
    w, h = cam.size
    return {
        "image_size": [w, h],
        "points": [
            {"image": [float(u), float(v)], "board": [x, y]}
            for (u, v), (x, y) in zip(uv, pts, strict=True)
            if 2 < u < w - 2 and 2 < v < h - 2
        ],
    }


@dataclass(frozen=True)
class Throw:
    tip: tuple[float, float]
    truth: str
    calibrations: list[dict[str, Any]]  # as the JSON file holds it
    before: list[np.ndarray]
    after: list[np.ndarray]


def render(
    seed: int, cameras: int, off_axis: tuple[float, float], size: tuple[int, int] = (W, H)
) -> Throw:
    """One dart, uniform over the board and a little beyond, seen by ``cameras``
    cameras each ``off_axis`` degrees off the board's axis, giving ``size`` pictures."""
    rng = np.random.default_rng(seed)
    look = int(rng.integers(len(LOOKS)))
    top = painted(look)
    r, a = math.sqrt(rng.uniform(0, 1)) * 175.0, rng.uniform(0, 2 * math.pi)
    tip = (r * math.cos(a), r * math.sin(a))
    dart = random_dart(rng, tip)
    lamp = np.array([rng.normal(0, 0.35), rng.uniform(0.0, 0.7), 1.0])  # above, in front
    strength = rng.uniform(0.2, 0.5)
    to_top = np.array([[1 / PX_PER_MM, 0, -HALF_MM], [0, -1 / PX_PER_MM, HALF_MM], [0, 0, 1]])
    cals, befores, afters = [], [], []
    for _ in range(cameras):
        cam = Camera(rng, rng.uniform(*off_axis), size)
        before = cv2.warpPerspective(
            top,
            cam.board_to_image() @ to_top,
            size,
            flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=LOOKS[look].wall,
        )
        after = before.copy()
        _shadow(after, cam, dart, lamp, strength)
        _draw(after, cam, dart)
        gain = rng.uniform(0.93, 1.07)
        pair = []
        for img, g in ((before, 1.0), (after, gain)):
            noisy = img.astype(np.float32) * g + rng.normal(0, 2.5, img.shape)
            jpeg = cv2.imencode(
                ".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 88]
            )[1]
            pair.append(np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)))
        cals.append(_calibration(cam, rng))
        befores.append(pair[0])
        afters.append(pair[1])
    return Throw(tip, truth(*tip), cals, befores, afters)
