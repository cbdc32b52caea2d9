"""The stand-in board for rendered camera views: a regulation board face drawn from
``kiosk/domain/board.py`` (colours, wires, numbers), as a texture in board mm."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from kiosk.domain import board

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

RING_WIRES = board.RING_WIRES


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


def texture_to_board() -> np.ndarray:
    n = int(2 * TEX_HALF * TEX_PPM)
    c = (n - 1) / 2
    return np.array([[1 / TEX_PPM, 0, -c / TEX_PPM], [0, -1 / TEX_PPM, c / TEX_PPM], [0, 0, 1]])
