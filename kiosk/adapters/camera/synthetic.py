"""Rendered camera views of a steel-tip board: the stand-in camera for tests, the
benchmark and demos.

A regulation board drawn from ``kiosk/domain/board.py`` (colours, wires, numbers) is
seen by a pinhole camera 0-50 degrees off-axis, rolled, at different distances and
fields of view. A dart (steel point, barrel with a highlight, shaft, four flight vanes)
sticks out of the board with its tip at a known point, and casts a shadow from a point
light (soft further from the board). Each frame gets a lighting gradient and colour
cast, a little flicker, sensor noise and JPEG artefacts. Everything follows from a
``numpy.random.Generator``: the same seed gives the same pixels.

This is a best case: real darts have specular glints, real boards are worn, real
lenses distort and real calibration clicks are worse than 0.3 px. Accuracy measured
on these images is an upper bound of real accuracy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from kiosk.adapters.camera.calibration import Calibration, PointPair
from kiosk.domain import board
from kiosk.domain.darts import Dart

FRAME_SIZE = (1280, 720)
TEX_PPM = 4.0  # texture pixels per mm
TEX_HALF = 240.0  # mm from the centre to the texture's edge
NUMBER_RING = 225.0  # mm: outer edge of the black surround with the numbers
WIRE_MM = 1.0

# BGR
BLACK = (30, 30, 32)
CREAM = (196, 226, 238)
RED = (48, 36, 192)
GREEN = (64, 138, 28)
WIRE = (180, 186, 192)
SURROUND = (20, 20, 22)
WALL = (70, 96, 122)
NUMBER = (226, 226, 226)
SKIN = (120, 152, 205)

RING_WIRES = (
    board.INNER_BULL, board.OUTER_BULL, board.TREBLE_INNER, board.TREBLE_OUTER,
    board.DOUBLE_INNER, board.DOUBLE_OUTER,
)  # fmt: skip


# -- the board ----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def board_texture() -> np.ndarray:
    """The board face seen straight on, ``TEX_PPM`` pixels per mm (cached, read-only)."""
    n = int(2 * TEX_HALF * TEX_PPM)
    c = (n - 1) / 2
    xs = (np.arange(n, dtype=np.float32) - c) / TEX_PPM
    x, y = np.meshgrid(xs, -xs)
    r = np.hypot(x, y)
    ang = np.degrees(np.arctan2(x, y)) % 360.0
    dark = (((ang + board.SEGMENT_DEGREES / 2) // board.SEGMENT_DEGREES) % 20) % 2 == 0
    img = np.empty((n, n, 3), np.uint8)
    img[:] = WALL
    img[r <= NUMBER_RING] = SURROUND
    single = r <= board.DOUBLE_OUTER
    img[single & dark] = BLACK
    img[single & ~dark] = CREAM
    ring = ((r >= board.TREBLE_INNER) & (r <= board.TREBLE_OUTER)) | (r >= board.DOUBLE_INNER)
    ring &= single
    img[ring & dark] = RED
    img[ring & ~dark] = GREEN
    img[r <= board.OUTER_BULL] = GREEN
    img[r <= board.INNER_BULL] = RED
    shift = 4
    k = 1 << shift
    centre = (round(c * k), round(c * k))
    thick = max(1, round(WIRE_MM * TEX_PPM))
    for rad in RING_WIRES:
        cv2.circle(img, centre, round(rad * TEX_PPM * k), WIRE, thick, cv2.LINE_AA, shift)
    for i in range(20):
        a = i * board.SEGMENT_DEGREES + board.SEGMENT_DEGREES / 2
        p0 = board.point_at(a, board.OUTER_BULL)
        p1 = board.point_at(a, board.DOUBLE_OUTER)
        q0 = (round((c + p0[0] * TEX_PPM) * k), round((c - p0[1] * TEX_PPM) * k))
        q1 = (round((c + p1[0] * TEX_PPM) * k), round((c - p1[1] * TEX_PPM) * k))
        cv2.line(img, q0, q1, WIRE, thick, cv2.LINE_AA, shift)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for i, number in enumerate(board.SEGMENTS):
        px, py = board.point_at(i * board.SEGMENT_DEGREES, (board.DOUBLE_OUTER + NUMBER_RING) / 2)
        text = str(number)
        scale = 18 * TEX_PPM / 22
        (tw, th), _ = cv2.getTextSize(text, font, scale, 6)
        org = (round(c + px * TEX_PPM - tw / 2), round(c - py * TEX_PPM + th / 2))
        cv2.putText(img, text, org, font, scale, NUMBER, 6, cv2.LINE_AA)
    img = np.asarray(cv2.GaussianBlur(img, (3, 3), 0.6), np.uint8)
    img.setflags(write=False)
    return img


def _texture_to_board() -> np.ndarray:
    n = int(2 * TEX_HALF * TEX_PPM)
    c = (n - 1) / 2
    return np.array([[1 / TEX_PPM, 0, -c / TEX_PPM], [0, -1 / TEX_PPM, c / TEX_PPM], [0, 0, 1]])


# -- the camera ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    """Pinhole camera in board mm: image point ~ K (R X + t)."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    size: tuple[int, int]
    off_axis_deg: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = np.asarray(pts, np.float64).reshape(-1, 3) @ self.R.T + self.t
        uvw = cam @ self.K.T
        return np.asarray(uvw[:, :2] / uvw[:, 2:3])

    def depth(self, pts: np.ndarray) -> np.ndarray:
        cam = np.asarray(pts, np.float64).reshape(-1, 3) @ self.R.T + self.t
        return np.asarray(cam[:, 2])

    @property
    def board_to_image(self) -> np.ndarray:
        return np.asarray(self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t]))

    def shaken(self, dx: float, dy: float) -> Camera:
        """The same camera nudged by (dx, dy) pixels (the board shaking after impact)."""
        K = self.K.copy()
        K[0, 2] += dx
        K[1, 2] += dy
        return replace(self, K=K)

    def calibration(self, rng: np.random.Generator, click_px: float = 0.3) -> Calibration:
        """What a careful calibration would give: the bull and the wire crossings of the
        double and treble rings, each marked with ``click_px`` of error."""
        brd = [(0.0, 0.0)]
        for i in range(20):
            a = i * board.SEGMENT_DEGREES + board.SEGMENT_DEGREES / 2
            brd += [board.point_at(a, board.DOUBLE_OUTER), board.point_at(a, board.TREBLE_OUTER)]
        b3 = np.array([[x, y, 0.0] for x, y in brd])
        img = self.project(b3) + rng.normal(0.0, click_px, (len(brd), 2))
        w, h = self.size
        pts = [
            PointPair((float(u), float(v)), p)
            for (u, v), p in zip(img, brd, strict=True)
            if 0 <= u <= w and 0 <= v <= h
        ]
        return Calibration.from_points(self.size, pts)


def random_camera(
    rng: np.random.Generator,
    off_axis_deg: float | None = None,
    size: tuple[int, int] = FRAME_SIZE,
    azimuth_deg: float | None = None,
) -> Camera:
    """A camera looking at the board from ``off_axis_deg`` (0-50 if None) off its
    normal, from any side, rolled at random, 55-75 degrees field of view, placed so the
    board fills 55-100% of the frame's height."""
    theta = math.radians(rng.uniform(0.0, 50.0) if off_axis_deg is None else off_axis_deg)
    phi = math.radians(rng.uniform(0.0, 360.0) if azimuth_deg is None else azimuth_deg)
    hfov = math.radians(rng.uniform(55.0, 75.0))
    roll = rng.uniform(-math.pi, math.pi)
    w, h = size
    f = w / 2 / math.tan(hfov / 2)
    K = np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1.0]])
    target = np.array([rng.normal(0, 8), rng.normal(0, 8), 0.0])
    away = np.array(
        [math.sin(theta) * math.cos(phi), math.sin(theta) * math.sin(phi), math.cos(theta)]
    )
    z_c = -away
    ref = np.array([0.0, 1.0, 0.0])
    y_c = -(ref - (ref @ z_c) * z_c)
    y_c /= np.linalg.norm(y_c)
    x_c = np.cross(y_c, z_c)
    cr, sr = math.cos(roll), math.sin(roll)
    x_c, y_c = cr * x_c + sr * y_c, -sr * x_c + cr * y_c
    R = np.vstack([x_c, y_c, z_c])
    rim = np.array([[*board.point_at(a, 185.0), 0.0] for a in range(0, 360, 10)])
    fill = rng.uniform(0.55, 1.0)
    d = 200.0
    while True:
        cam = Camera(K, R, -R @ (target + d * away), size, math.degrees(theta))
        p = cam.project(rim)
        span_ok = np.ptp(p[:, 1]) <= h * fill and np.ptp(p[:, 0]) <= w * 0.98
        inside = (p.min(axis=0) >= 0).all() and (p.max(axis=0) <= (w - 1, h - 1)).all()
        if span_ok and inside and (cam.depth(rim) > 50).all():
            return cam
        d *= 1.04


# -- the dart -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DartModel:
    tip: tuple[float, float]  # board mm, where the point enters the board
    direction: tuple[float, float, float]  # unit, out of the board (z > 0)
    spin: float  # radians: orientation of the flight vanes
    steel: int  # grey level of the point
    barrel: int  # grey level of the barrel
    shaft: tuple[int, int, int]
    flight: tuple[int, int, int]

    @property
    def dart(self) -> Dart:
        return board.dart_at(*self.tip)


def random_dart(rng: np.random.Generator, tip: tuple[float, float]) -> DartModel:
    tilt = math.radians(rng.uniform(0.0, 25.0))
    az = rng.uniform(0.0, 2 * math.pi)
    d = (math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt))
    hue = int(rng.integers(0, 180))
    hsv = np.array([[[hue, int(rng.integers(170, 256)), int(rng.integers(150, 240))]]], np.uint8)
    b, g, r = (int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    flight = (b, g, r)
    shaft = (40, 40, 40) if rng.random() < 0.5 else flight
    return DartModel(
        tip, d, rng.uniform(0, math.pi), int(rng.integers(110, 200)),
        int(rng.integers(70, 150)), shaft, flight,
    )  # fmt: skip


# Along the dart from the tip, mm: (start, end, radius at start, radius at end).
POINT_TAPER = (0.0, 6.0, 0.35, 1.1)
POINT = (6.0, 30.0, 1.1, 1.1)
BARREL = (30.0, 78.0, 3.6, 3.6)
SHAFT = (78.0, 112.0, 1.7, 1.7)
FLIGHT = (100.0, 145.0, 15.0)  # root, trailing edge, vane width


def _frame(d: np.ndarray, spin: float) -> tuple[np.ndarray, np.ndarray]:
    a = np.array([1.0, 0, 0]) if abs(d[0]) < 0.9 else np.array([0, 1.0, 0])
    e1 = np.cross(d, a)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(d, e1)
    c, s = math.cos(spin), math.sin(spin)
    return c * e1 + s * e2, -s * e1 + c * e2


def _parts(dm: DartModel, wobble: np.ndarray) -> list[tuple[str, np.ndarray, float, float]]:
    """3-D pieces: ("cyl", [a, b], ra, rb) or ("vane", quad, 0, 0)."""
    d = np.array(dm.direction) + wobble
    d /= np.linalg.norm(d)
    tip = np.array([dm.tip[0], dm.tip[1], 0.0])
    out: list[tuple[str, np.ndarray, float, float]] = []
    for s0, s1, r0, r1 in (POINT_TAPER, POINT, BARREL, SHAFT):
        out.append(("cyl", np.array([tip + s0 * d, tip + s1 * d]), r0, r1))
    e1, e2 = _frame(d, dm.spin)
    root, trail, width = FLIGHT
    for e in (e1, -e1, e2, -e2):
        quad = np.array(
            [tip + root * d, tip + (root + 12) * d + width * e, tip + trail * d + width * e,
             tip + trail * d]
        )  # fmt: skip
        out.append(("vane", quad, 0.0, 0.0))
    return out


def _cyl_poly(p: np.ndarray, wa: float, wb: float) -> np.ndarray:
    v = p[1] - p[0]
    n = float(np.hypot(*v))
    nv = np.array([-v[1], v[0]]) / n if n > 1e-6 else np.array([1.0, 0.0])
    return np.array([p[0] + nv * wa, p[1] + nv * wb, p[1] - nv * wb, p[0] - nv * wa])


def _fill(img: np.ndarray, poly: np.ndarray, colour: tuple[int, ...] | int) -> None:
    pts = np.round(poly * 16).astype(np.int32)
    if not np.isfinite(poly).all() or np.abs(pts).max() > 2**26:
        return
    cv2.fillConvexPoly(img, pts, colour, cv2.LINE_AA, 4)


def _draw_dart(img: np.ndarray, cam: Camera, dm: DartModel, wobble: np.ndarray) -> None:
    f = cam.K[0, 0]
    shades = {"point": (dm.steel,) * 3, "barrel": (dm.barrel,) * 3}
    vanes = []
    for i, (kind, pts, ra, rb) in enumerate(_parts(dm, wobble)):
        if kind == "vane":
            vanes.append((float(cam.depth(pts).mean()), pts, i))
            continue
        p = cam.project(pts)
        z = cam.depth(pts)
        wa, wb = f * ra / z[0], f * rb / z[1]
        colour = shades["point"] if i < 2 else shades["barrel"] if i == 2 else dm.shaft
        _fill(img, _cyl_poly(p, wa, wb), tuple(colour))
        if i == 2:  # the barrel's highlight: a bright band off its axis
            off = _cyl_poly(p, wa, wb)
            band = off[[0, 1]] * 0.75 + off[[3, 2]] * 0.25
            band2 = off[[0, 1]] * 0.45 + off[[3, 2]] * 0.55
            hi = min(255, dm.barrel + 95)
            _fill(img, np.vstack([band, band2[::-1]]), (hi, hi, hi))
    for _, pts, i in sorted(vanes, key=lambda v: -v[0]):
        shade = 1.0 if i % 2 else 0.8
        _fill(img, cam.project(pts), tuple(int(c * shade) for c in dm.flight))


def _shadow_mask(cam: Camera, dm: DartModel, light: np.ndarray, wobble: np.ndarray) -> np.ndarray:
    """Where the dart's shadow falls, 0-255, soft in proportion to height."""
    w, h = cam.size
    near = np.zeros((h, w), np.uint8)
    far = np.zeros((h, w), np.uint8)
    H = cam.board_to_image

    def on_board(p: np.ndarray) -> np.ndarray:
        k = light[2] / (light[2] - p[:, 2])
        s = light[None, :2] + (p[:, :2] - light[None, :2]) * k[:, None]
        q = np.column_stack([s, np.ones(len(s))]) @ H.T
        return np.asarray(q[:, :2] / q[:, 2:3])

    scale = cam.K[0, 0] / float(cam.depth(np.zeros((1, 3)))[0])  # px per mm near the bull
    for i, (kind, pts, ra, rb) in enumerate(_parts(dm, wobble)):
        if (pts[:, 2] >= light[2] * 0.95).any():
            continue
        q = on_board(pts)
        layer = near if i < 2 else far
        if kind == "vane":
            _fill(layer, q, 255)
        else:
            _fill(layer, _cyl_poly(q, ra * scale, rb * scale), 255)
    soft_near = cv2.GaussianBlur(near, (0, 0), 0.5)
    soft_far = cv2.GaussianBlur(far, (0, 0), max(0.8, 2.0 * scale / 2.0))
    return np.asarray(np.maximum(soft_near, soft_far), np.uint8)


# -- the scene and frames -----------------------------------------------------------------


@dataclass(frozen=True)
class Scene:
    """Lighting and sensor of one session (shared by the frames of a throw)."""

    light: tuple[float, float, float]  # board mm
    shadow: float  # fraction of light the shadow takes away
    gain: float
    colour: tuple[float, float, float]  # per-channel gain (BGR)
    gradient: tuple[float, float]
    noise: float  # sigma, grey levels
    jpeg: int  # quality; 0 = no JPEG


def random_scene(rng: np.random.Generator) -> Scene:
    return Scene(
        light=(rng.uniform(-700, 700), rng.uniform(-300, 900), rng.uniform(350, 1200)),
        shadow=rng.uniform(0.2, 0.55),
        gain=rng.uniform(0.75, 1.15),
        colour=(rng.uniform(0.9, 1.1), 1.0, rng.uniform(0.9, 1.1)),
        gradient=(rng.uniform(-0.25, 0.25), rng.uniform(-0.25, 0.25)),
        noise=rng.uniform(1.0, 3.5),
        jpeg=int(rng.integers(70, 93)),
    )


@dataclass(frozen=True)
class Hand:
    """A hand and forearm over the board (taking the darts out), in board mm."""

    at: tuple[float, float]
    angle: float  # degrees, direction the arm comes from


def render(
    cam: Camera,
    scene: Scene,
    rng: np.random.Generator,
    darts: tuple[DartModel, ...] = (),
    *,
    flicker: float = 0.0,
    shake: tuple[float, float] = (0.0, 0.0),
    wobble: float = 0.0,
    hand: Hand | None = None,
) -> np.ndarray:
    """One BGR frame. ``wobble``: the newest dart's flight swings this far (unit
    vector units) from rest, as it does for a few frames after impact."""
    if shake != (0.0, 0.0):
        cam = cam.shaken(*shake)
    w, h = cam.size
    H = cam.board_to_image @ _texture_to_board()
    img = cv2.warpPerspective(board_texture(), H, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=WALL)  # fmt: skip
    light = np.array(scene.light)
    wob = [np.zeros(3) for _ in darts]
    if darts and wobble:
        wob[-1] = np.array([wobble, -wobble * 0.5, 0.0])
    if darts:
        m = np.zeros((h, w), np.uint8)
        for dm, wv in zip(darts, wob, strict=True):
            m = np.maximum(m, _shadow_mask(cam, dm, light, wv))
        keep = 1.0 - scene.shadow * m.astype(np.float32) / 255.0
        img = cv2.multiply(img.astype(np.float32), cv2.merge([keep, keep, keep]))
        img = np.clip(img, 0, 255).astype(np.uint8)
        order = sorted(
            range(len(darts)), key=lambda i: -float(cam.depth(np.array([[*darts[i].tip, 80.0]]))[0])
        )
        for i in order:
            _draw_dart(img, cam, darts[i], wob[i])
    if hand is not None:
        _draw_hand(img, cam, hand)
    ys, xs = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    g = (
        scene.gain
        * (1 + flicker)
        * (1 + scene.gradient[0] * (xs / w - 0.5) + scene.gradient[1] * (ys / h - 0.5))
    )
    g = cv2.resize(g, (w, h), interpolation=cv2.INTER_LINEAR)
    gains = cv2.merge([g * c for c in scene.colour])
    noise = np.empty((h, w, 3), np.float32)
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    cv2.randn(noise, 0.0, scene.noise)  # type: ignore[call-overload]
    out = cv2.add(cv2.multiply(img.astype(np.float32), gains), noise)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if scene.jpeg:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        if decoded is not None:
            out = np.asarray(decoded, np.uint8)
    return out


def _draw_hand(img: np.ndarray, cam: Camera, hand: Hand) -> None:
    a = math.radians(hand.angle)
    ux, uy = math.sin(a), math.cos(a)
    hx, hy = hand.at
    z = 60.0
    arm = np.array(
        [[hx - 45 * uy, hy + 45 * ux, z], [hx + 45 * uy, hy - 45 * ux, z],
         [hx + 600 * ux + 60 * uy, hy + 600 * uy - 60 * ux, z + 200],
         [hx + 600 * ux - 60 * uy, hy + 600 * uy + 60 * ux, z + 200]]
    )  # fmt: skip
    p = cam.project(arm)
    if (cam.depth(arm) > 10).all():
        cv2.fillPoly(img, [np.round(p[[0, 1, 2, 3]]).astype(np.int32)], (90, 110, 150))
    c = cam.project(np.array([[hx, hy, z]]))[0]
    r = cam.K[0, 0] * 55.0 / max(10.0, float(cam.depth(np.array([[hx, hy, z]]))[0]))
    cv2.circle(img, (round(c[0]), round(c[1])), max(1, round(r)), SKIN, -1, cv2.LINE_AA)


# -- where darts land ---------------------------------------------------------------------


def sample_tip(rng: np.random.Generator, near_wire: bool = False) -> tuple[float, float]:
    """A tip position: uniform over the board out to 175 mm (a few misses), or within
    1 mm of a wire (a ring or a segment divider), where one mm decides the score."""
    if not near_wire:
        r = 175.0 * math.sqrt(rng.random())
        return board.point_at(rng.uniform(0.0, 360.0), r)
    off = rng.uniform(-WIRE_MM, WIRE_MM)
    if rng.random() < 0.5:
        r = float(rng.choice(RING_WIRES)) + off
        return board.point_at(rng.uniform(0.0, 360.0), max(0.0, r))
    a = int(rng.integers(0, 20)) * board.SEGMENT_DEGREES + board.SEGMENT_DEGREES / 2
    r = rng.uniform(board.OUTER_BULL + 1, board.DOUBLE_OUTER)
    x, y = board.point_at(a, r)
    nx, ny = board.point_at(a + 90.0, 1.0)
    return (x + off * nx, y + off * ny)


@dataclass(frozen=True)
class Throw:
    """One rendered throw: per camera the frame before and after, and the truth."""

    cameras: tuple[Camera, ...]
    calibrations: tuple[Calibration, ...]
    before: tuple[np.ndarray, ...]
    after: tuple[np.ndarray, ...]
    dart: DartModel

    @property
    def truth(self) -> Dart:
        return self.dart.dart


def rig(
    rng: np.random.Generator, n_cameras: int, off_axis: tuple[float, float] = (0.0, 50.0)
) -> tuple[Camera, ...]:
    """``n_cameras`` around the board, spread evenly in azimuth (as on a ring mount)."""
    base = rng.uniform(0.0, 360.0)
    return tuple(
        random_camera(
            rng,
            rng.uniform(*off_axis),
            azimuth_deg=base + 360.0 * i / n_cameras + rng.normal(0, 15),
        )
        for i in range(n_cameras)
    )


def render_throw(
    seed: int,
    n_cameras: int = 1,
    *,
    near_wire: bool = False,
    off_axis: tuple[float, float] = (0.0, 50.0),
    tip: tuple[float, float] | None = None,
) -> Throw:
    rng = np.random.default_rng(seed)
    cams = rig(rng, n_cameras, off_axis)
    cals = tuple(c.calibration(rng) for c in cams)
    scene = random_scene(rng)
    dm = random_dart(rng, tip if tip is not None else sample_tip(rng, near_wire))
    before = tuple(render(c, scene, rng, flicker=rng.normal(0, 0.01)) for c in cams)
    after = tuple(render(c, scene, rng, (dm,), flicker=rng.normal(0, 0.01)) for c in cams)
    return Throw(cams, cals, before, after, dm)


# -- a turn as a video --------------------------------------------------------------------

SHAKE_FRAMES = 8  # frames (at 30 fps: 267 ms) the board and the dart shake after impact


@dataclass(frozen=True)
class Step:
    """One thing that happens: "still" (n frames), "throw" (a dart lands at ``tip``),
    "bounce" (a dart hits and falls out), "takeout" (a hand pulls every dart)."""

    kind: str
    n: int = 10
    tip: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Video:
    frames: list[np.ndarray]
    impacts: list[tuple[int, DartModel | None]]  # frame index of impact; None = bounce-out
    takeouts: list[int]  # frame index where the hand has gone again
    camera: Camera
    calibration: Calibration


def render_turn(seed: int, steps: list[Step], off_axis: float | None = None) -> Video:
    """Frames (30 fps) of a turn: impacts shake the picture for ``SHAKE_FRAMES``."""
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, off_axis)
    cal = cam.calibration(rng)
    scene = random_scene(rng)
    frames: list[np.ndarray] = []
    impacts: list[tuple[int, DartModel | None]] = []
    takeouts: list[int] = []
    darts: tuple[DartModel, ...] = ()

    def frame(ds: tuple[DartModel, ...], k: int = -1, hand: Hand | None = None) -> None:
        decay = max(0.0, 1.0 - k / SHAKE_FRAMES) if k >= 0 else 0.0
        osc = math.cos(k * 2.2) if k >= 0 else 0.0
        frames.append(render(cam, scene, rng, ds, flicker=rng.normal(0, 0.005),
                             shake=(2.5 * decay * osc, 1.5 * decay * osc),
                             wobble=0.12 * decay * osc, hand=hand))  # fmt: skip

    for st in steps:
        if st.kind == "still":
            for _ in range(st.n):
                frame(darts)
        elif st.kind in ("throw", "bounce"):
            dm = random_dart(rng, st.tip)
            impacts.append((len(frames), dm if st.kind == "throw" else None))
            ds = (*darts, dm)
            for k in range(SHAKE_FRAMES if st.kind == "throw" else 3):
                frame(ds, k)
            if st.kind == "throw":
                darts = ds
        elif st.kind == "takeout":
            for k in range(24):
                at = (-120 + 10 * k, 60 - 3 * k)
                frame(darts if k < 12 else (), hand=Hand(at, 200.0))
            darts = ()
            takeouts.append(len(frames))
        else:
            raise ValueError(f"unknown step {st.kind!r}")
    return Video(frames, impacts, takeouts, cam, cal)
