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
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.synth_board import (
    RING_WIRES,
    WALL,
    WIRE_MM,
    board_texture,
    texture_to_board,
)
from kiosk.adapters.camera.synth_camera import FRAME_SIZE, Camera, random_camera
from kiosk.adapters.camera.synth_dart import (
    DartModel,
    Hand,
    draw_dart,
    draw_hand,
    random_dart,
    shadow_mask,
)
from kiosk.domain import board
from kiosk.domain.darts import Dart

__all__ = [
    "FRAME_SIZE", "SHAKE_FRAMES", "Camera", "DartModel", "Hand", "Scene", "Step", "Throw",
    "Video", "random_camera", "random_dart", "random_scene", "render", "render_grouped",
    "render_throw", "render_turn", "rig", "sample_tip",
]  # fmt: skip

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
    H = cam.board_to_image @ texture_to_board()
    img = cv2.warpPerspective(board_texture(), H, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=WALL)  # fmt: skip
    light = np.array(scene.light)
    wob = [np.zeros(3) for _ in darts]
    if darts and wobble:
        wob[-1] = np.array([wobble, -wobble * 0.5, 0.0])
    if darts:
        m = np.zeros((h, w), np.uint8)
        for dm, wv in zip(darts, wob, strict=True):
            m = np.maximum(m, shadow_mask(cam, dm, light, wv))
        keep = 1.0 - scene.shadow * m.astype(np.float32) / 255.0
        img = cv2.multiply(img.astype(np.float32), cv2.merge([keep, keep, keep]))
        img = np.clip(img, 0, 255).astype(np.uint8)
        order = sorted(
            range(len(darts)), key=lambda i: -float(cam.depth(np.array([[*darts[i].tip, 80.0]]))[0])
        )
        for i in order:
            draw_dart(img, cam, darts[i], wob[i])
    if hand is not None:
        draw_hand(img, cam, hand)
    ys, xs = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    g = (
        scene.gain
        * (1 + flicker)
        * (1 + scene.gradient[0] * (xs / w - 0.5) + scene.gradient[1] * (ys / h - 0.5))
    )
    g = cv2.resize(g, (w, h), interpolation=cv2.INTER_LINEAR)
    gains = cv2.merge([g * c for c in scene.colour])
    # Sensor noise: a window of a fixed field of white noise at a random offset (as
    # random as fresh noise for a difference of two frames, and far cheaper).
    dy, dx = (int(v) for v in rng.integers(0, NOISE_PAD, 2))
    noise = _noise_bank(w, h)[dy : dy + h, dx : dx + w]
    out = cv2.scaleAdd(noise, scene.noise, cv2.multiply(img.astype(np.float32), gains))
    out = np.clip(out, 0, 255).astype(np.uint8)
    if scene.jpeg:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        if decoded is not None:
            out = np.asarray(decoded, np.uint8)
    return out


# -- where darts land ---------------------------------------------------------------------


def sample_tip(rng: np.random.Generator, near_wire: bool = False) -> tuple[float, float]:
    """A tip position: uniform over the board out to 175 mm (a few misses), or near a
    wire (a ring or a segment divider: 0.5 to 1 mm from its centre line, so touching to
    half a millimetre off its metal), where a fraction of a mm decides the score.

    Never inside a wire (within ``WIRE_MM / 2`` of its centre line): a steel point that
    meets the wire's metal bounces out or glances off into the sisal beside it, so a tip
    drawn in the wire is a throw nobody makes, and its "true" segment a coin toss."""
    while True:
        tip = _tip_anywhere(rng) if not near_wire else _tip_near_wire(rng)
        if board.wire_distance(*tip) >= WIRE_MM / 2:
            return tip


def _tip_anywhere(rng: np.random.Generator) -> tuple[float, float]:
    r = 175.0 * math.sqrt(rng.random())
    return board.point_at(rng.uniform(0.0, 360.0), r)


def _tip_near_wire(rng: np.random.Generator) -> tuple[float, float]:
    u = rng.uniform(-1.0, 1.0)
    off = math.copysign(WIRE_MM / 2 * (1.0 + abs(u)), u)  # 0.5..1 mm either side
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
    rng: np.random.Generator,
    n_cameras: int,
    off_axis: tuple[float, float] = (0.0, 50.0),
    size: tuple[int, int] = FRAME_SIZE,
) -> tuple[Camera, ...]:
    """``n_cameras`` around the board, spread evenly in azimuth (as on a ring mount),
    each giving pictures of ``size``."""
    base = rng.uniform(0.0, 360.0)
    return tuple(
        random_camera(
            rng,
            rng.uniform(*off_axis),
            size,
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
    moved: tuple[float, float] = (0.0, 0.0),
    size: tuple[int, int] = FRAME_SIZE,
    lighting: Callable[[Scene], Scene] | None = None,
    look: Callable[[DartModel], DartModel] | None = None,
) -> Throw:
    """One dart thrown at a still board, seen by ``n_cameras`` giving pictures of
    ``size``. ``moved``: every camera's picture moved by this many pixels (x, y)
    between the before and the after frame (a knock; rendered, not resampled: the
    same throw otherwise). ``lighting``: what to change in the throw's random scene
    (a low lamp, a darker shadow), ``look`` in its random dart (an all-black dart);
    the same throw otherwise."""
    rng = np.random.default_rng(seed)
    cams = rig(rng, n_cameras, off_axis, size)
    cals = tuple(c.calibration(rng) for c in cams)
    scene = random_scene(rng)
    if lighting is not None:
        scene = lighting(scene)
    dm = random_dart(rng, tip if tip is not None else sample_tip(rng, near_wire))
    if look is not None:
        dm = look(dm)
    before = tuple(render(c, scene, rng, flicker=rng.normal(0, 0.01)) for c in cams)
    after = tuple(render(c, scene, rng, (dm,), flicker=rng.normal(0, 0.01), shake=moved)
                  for c in cams)  # fmt: skip
    return Throw(cams, cals, before, after, dm)


def render_grouped(
    seed: int,
    tips: list[tuple[float, float]],
    n_cameras: int = 3,
    *,
    off_axis: tuple[float, float] = (0.0, 50.0),
    size: tuple[int, int] = FRAME_SIZE,
) -> list[Throw]:
    """The darts of one turn landing at ``tips`` in turn, each left in the board: per
    dart a ``Throw`` whose before frame has the darts before it (a later dart can hide
    behind an earlier one, or hide it), all seen by the same cameras."""
    rng = np.random.default_rng(seed)
    cams = rig(rng, n_cameras, off_axis, size)
    cals = tuple(c.calibration(rng) for c in cams)
    scene = random_scene(rng)
    darts = [random_dart(rng, tip) for tip in tips]
    frames = [tuple(render(c, scene, rng, tuple(darts[:k]), flicker=rng.normal(0, 0.01))
                    for c in cams) for k in range(len(darts) + 1)]  # fmt: skip
    return [Throw(cams, cals, frames[k], frames[k + 1], dm) for k, dm in enumerate(darts)]


# -- a turn as a video --------------------------------------------------------------------

SHAKE_FRAMES = 8  # frames (at 30 fps: 267 ms) the board and the dart shake after impact


@dataclass(frozen=True)
class Step:
    """One thing that happens: "still" (n frames), "throw" (a dart lands at ``tip``;
    with ``nudge`` it knocks the dart before it over by that many degrees), "bounce" (a
    dart hits and falls out), "fallout" (the last dart in the board, there a while,
    tips over and drops out), "takeout" (a hand pulls every dart), "knock" (someone
    knocks the camera, which turns ``turn``: pan, tilt, roll degrees about its lens, as
    ``Camera.turned``; its picture swings there over ``n`` frames and stays; of a rig,
    camera ``camera`` only, from 0, or every one: -1). ``moved``:
    the impact (or the hand) knocks the camera, whose picture then rests this many
    pixels (x, y) from where it was."""

    kind: str
    n: int = 10
    tip: tuple[float, float] = (0.0, 0.0)
    nudge: float = 0.0
    moved: tuple[float, float] = (0.0, 0.0)
    turn: tuple[float, float, float] = (0.0, 0.0, 0.0)
    camera: int = -1


@dataclass(frozen=True)
class Video:
    frames: list[np.ndarray]
    impacts: list[tuple[int, DartModel | None]]  # frame index of impact; None = bounce-out
    takeouts: list[int]  # frame index where the hand has gone again
    camera: Camera
    calibration: Calibration
    fallouts: list[int] = field(default_factory=list)  # frame index where it has dropped


def render_turn(
    seed: int,
    steps: list[Step],
    off_axis: float | None = None,
    turned_since_calibrated: tuple[float, ...] = (),
    size: tuple[int, int] = FRAME_SIZE,
) -> Video:
    """Frames (30 fps) of a turn: impacts shake the picture for ``SHAKE_FRAMES``.
    ``turned_since_calibrated``: the camera was turned (pan, tilt[, roll] degrees
    about its lens, ``Camera.turned``) after its calibration was made, before the
    first frame. ``size``: the camera's pictures."""
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, off_axis, size)
    cal = cam.calibration(rng)
    if turned_since_calibrated:
        cam = cam.turned(*turned_since_calibrated)
    return _film(rng, (cam,), (cal,), steps)[0]


def render_rig_turn(
    seed: int,
    steps: list[Step],
    n_cameras: int = 3,
    off_axis: tuple[float, float] = (15.0, 50.0),
    size: tuple[int, int] = FRAME_SIZE,
) -> list[Video]:
    """``render_turn`` seen by ``n_cameras`` at once (``rig``: mounted round the board),
    one video each, frame for frame: the same darts, the same hand, the same light."""
    rng = np.random.default_rng(seed)
    cams = rig(rng, n_cameras, off_axis, size)
    cals = tuple(c.calibration(rng) for c in cams)
    return _film(rng, cams, cals, steps)


def _film(
    rng: np.random.Generator,
    cams: tuple[Camera, ...],
    cals: tuple[Calibration, ...],
    steps: list[Step],
) -> list[Video]:
    scene = random_scene(rng)
    frames: list[list[np.ndarray]] = [[] for _ in cams]
    impacts: list[tuple[int, DartModel | None]] = []
    takeouts: list[int] = []
    fallouts: list[int] = []
    darts: tuple[DartModel, ...] = ()
    rest = (0.0, 0.0)  # where the cameras' pictures rest (pixels): knocks add up

    def frame(ds: tuple[DartModel, ...], k: int = -1, hand: Hand | None = None) -> None:
        decay = max(0.0, 1.0 - k / SHAKE_FRAMES) if k >= 0 else 0.0
        osc = math.cos(k * 2.2) if k >= 0 else 0.0
        flicker = rng.normal(0, 0.005)  # the room's light: the same in every camera
        for cam, out in zip(cams, frames, strict=True):
            out.append(render(cam, scene, rng, ds, flicker=flicker,
                              shake=(rest[0] + 2.5 * decay * osc, rest[1] + 1.5 * decay * osc),
                              wobble=0.12 * decay * osc, hand=hand))  # fmt: skip

    for st in steps:
        rest = (rest[0] + st.moved[0], rest[1] + st.moved[1])
        if st.kind == "still":
            for _ in range(st.n):
                frame(darts)
        elif st.kind in ("throw", "bounce"):
            dm = random_dart(rng, st.tip)
            impacts.append((len(frames[0]), dm if st.kind == "throw" else None))
            if st.nudge and darts:
                darts = (*darts[:-1], _nudged(darts[-1], st.nudge))
            ds = (*darts, dm)
            for k in range(SHAKE_FRAMES if st.kind == "throw" else 3):
                frame(ds, k)
            if st.kind == "throw":
                darts = ds
        elif st.kind == "fallout":  # the last dart tips over, slides and drops: no hand
            last = darts[-1]
            for degrees, slide_mm in ((25.0, 0.0), (50.0, -15.0), (70.0, -45.0)):
                tipped = _nudged(last, degrees)
                tipped = replace(tipped, tip=(tipped.tip[0], tipped.tip[1] + slide_mm))
                frame((*darts[:-1], tipped))
            darts = darts[:-1]
            fallouts.append(len(frames[0]))
        elif st.kind == "takeout":
            for k in range(24):
                at = (-120 + 10 * k, 60 - 3 * k)
                frame(darts if k < 12 else (), hand=Hand(at, 200.0))
            darts = ()
            takeouts.append(len(frames[0]))
        elif st.kind == "knock":
            start = cams
            for k in range(1, st.n + 1):
                cams = tuple(c.turned(*(a * k / st.n for a in st.turn)) if st.camera in (-1, j)
                             else c for j, c in enumerate(start))  # fmt: skip
                frame(darts)
        else:
            raise ValueError(f"unknown step {st.kind!r}")
    return [
        Video(f, list(impacts), list(takeouts), cam, cal, list(fallouts))
        for f, cam, cal in zip(frames, cams, cals, strict=True)
    ]


NOISE_PAD = 64


@lru_cache(maxsize=2)
def _noise_bank(w: int, h: int) -> np.ndarray:
    """Unit white noise a little larger than a ``w`` x ``h`` frame (cached, read-only)."""
    bank = np.random.default_rng(12345).standard_normal((h + NOISE_PAD, w + NOISE_PAD, 3))
    out = bank.astype(np.float32)
    out.setflags(write=False)
    return out


def _nudged(dm: DartModel, degrees: float) -> DartModel:
    """The same dart, knocked over by ``degrees`` (its tip stays in the board)."""
    d = np.array(dm.direction)
    side = np.cross(d, [0.0, 0.0, 1.0])
    side = side / np.linalg.norm(side) if np.linalg.norm(side) > 1e-6 else np.array([1.0, 0, 0])
    a = math.radians(degrees)
    n = d * math.cos(a) + side * math.sin(a)
    return replace(dm, direction=(float(n[0]), float(n[1]), float(n[2])))
