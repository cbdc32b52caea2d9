"""A dart and a hand in rendered views: a dart is a 3-D solid (steel point, barrel
with a highlight, shaft, four flight vanes) along a straight axis from its tip on the
board plane, leaning up to 25 degrees off the board's normal, projected through the
camera; its shadow is cast on the board from a point light (softer further from the
board). A hand and forearm reach over the board to take the darts out."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.adapters.camera.synth_board import SKIN
from kiosk.adapters.camera.synth_camera import Camera
from kiosk.domain import board
from kiosk.domain.darts import Dart


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


def draw_dart(img: np.ndarray, cam: Camera, dm: DartModel, wobble: np.ndarray) -> None:
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


def shadow_mask(cam: Camera, dm: DartModel, light: np.ndarray, wobble: np.ndarray) -> np.ndarray:
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


@dataclass(frozen=True)
class Hand:
    """A hand and forearm over the board (taking the darts out), in board mm."""

    at: tuple[float, float]
    angle: float  # degrees, direction the arm comes from


def draw_hand(img: np.ndarray, cam: Camera, hand: Hand) -> None:
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
