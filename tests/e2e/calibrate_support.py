"""Rendered board pictures for the calibration tests, and the truth to check against
(the renderer's camera)."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.calibration import Calibration

CHECK = np.array([[0.0, 0.0], [100.0, 50.0], [-120.0, -90.0], [0.0, 165.0], [-150.0, 60.0]])


def rendered(seed: int, angle: float) -> tuple[synthetic.Camera, np.ndarray]:
    """A camera ``angle`` degrees off the board's axis, and its picture of the board."""
    rng = np.random.default_rng(seed)
    cam = synthetic.random_camera(rng, angle)
    return cam, synthetic.render(cam, synthetic.random_scene(rng), rng)


def truth(cam: synthetic.Camera, b: tuple[float, float]) -> tuple[float, float]:
    """Where board point ``b`` (mm) is in the camera's picture."""
    q = cam.board_to_image @ np.array([b[0], b[1], 1.0])
    return (float(q[0] / q[2]), float(q[1] / q[2]))


def error_mm(cal: Calibration, cam: synthetic.Camera) -> float:
    """How far (mm, at worst over a few board points) ``cal`` is from the truth."""
    img = np.array([truth(cam, (float(x), float(y))) for x, y in CHECK])
    return float(np.linalg.norm(cal.image_to_board(img) - CHECK, axis=1).max())


def numbers_hidden(cam: synthetic.Camera, image: np.ndarray) -> np.ndarray:
    """The picture with the number ring painted dark: which segment is 20 cannot be read."""
    hidden = image.copy()
    rings = [np.array([truth(cam, (r * math.cos(a), r * math.sin(a)))
                       for a in np.linspace(0, 2 * math.pi, 200)], np.int32)
             for r in (240.0, 172.0)]  # fmt: skip
    mask = np.zeros(hidden.shape[:2], np.uint8)
    cv2.fillPoly(mask, [rings[0]], 255)
    cv2.fillPoly(mask, [rings[1]], 0)
    hidden[mask > 0] = (20, 20, 20)
    return hidden


def film(video: synthetic.Video, path: Path) -> None:
    """``video`` as the file the kiosk's camera reads."""
    h, w = video.frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (w, h))
    for frame in video.frames:
        out.write(frame)
    out.release()
