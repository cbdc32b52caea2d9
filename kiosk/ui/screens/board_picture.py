"""A camera's picture on the screen, and a calibration's rings, wires and numbers drawn
over it: what a person compares with the board in the picture. The calibration screen
shows a calibration just fitted this way before it is saved; the check screen shows
the one saved, over the camera's picture now."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pygame

from kiosk.adapters.camera.calibration import Calibration
from kiosk.domain import board
from kiosk.ui import theme

OVERLAY = (0, 230, 255)
# The numbers are drawn in the outer singles, inside the board's own (left to compare).
NUMBERS_AT_MM = 135.0
ZOOM_SIDE = 0.36  # the magnifier: its side, of the picture's smaller side


def overlay_lines(cal: Calibration, steps: int = 120) -> list[np.ndarray]:
    """Polylines (picture pixels) of the rings and the wires, as the calibration says
    they appear: what a person compares with the picture."""
    lines = []
    t = np.linspace(0.0, 360.0, steps + 1)
    for r in (board.INNER_BULL, board.OUTER_BULL, board.TREBLE_INNER, board.TREBLE_OUTER,
              board.DOUBLE_INNER, board.DOUBLE_OUTER):  # fmt: skip
        pts = np.array([board.point_at(a, r) for a in t])
        lines.append(cal.board_to_image(pts))
    for i in range(20):
        a = i * board.SEGMENT_DEGREES + board.SEGMENT_DEGREES / 2
        rs = np.linspace(board.OUTER_BULL, board.DOUBLE_OUTER, 12)
        lines.append(cal.board_to_image(np.array([board.point_at(a, r) for r in rs])))
    return lines


def number_places(cal: Calibration) -> list[tuple[int, tuple[float, float]]]:
    """Each segment's number and where the calibration puts it in the picture: in the
    outer singles, just inside the board's own number."""
    at = [board.point_at(i * board.SEGMENT_DEGREES, NUMBERS_AT_MM) for i in range(20)]
    pts = cal.board_to_image(np.array(at))
    return [(n, (float(x), float(y))) for n, (x, y) in zip(board.SEGMENTS, pts, strict=True)]


def picture_place(
    size: tuple[int, int], image_size: tuple[int, int], top: float, bottom: float
) -> pygame.Rect:
    """Where a picture of ``image_size`` goes on a screen of ``size``: between ``top``
    and ``bottom`` (pixels), as large as fits with its aspect kept, centred."""
    sw, sh = size
    u = sh / 100.0
    w, h = image_size
    s = min((sw - 2 * u) / w, (bottom - top) / h)
    rw, rh = round(w * s), round(h * s)
    return pygame.Rect(round((sw - rw) / 2), round(top + (bottom - top - rh) / 2), rw, rh)


class BoardPicture:
    """A camera's picture (BGR, as OpenCV gives it) scaled into ``rect``: its pixels to
    the screen's and back, and a calibration drawn over it."""

    def __init__(self, image: np.ndarray) -> None:
        self.rect = pygame.Rect(0, 0, 1, 1)  # where the picture is drawn
        self._surface: pygame.Surface | None = None
        self._scaled: pygame.Surface | None = None
        self.zoom_box = pygame.Rect(0, 0, 0, 0)  # the magnifier as drawn last (empty: none)
        self._zoom_src = pygame.Rect(0, 0, 1, 1)  # the part of the picture it shows
        self._zoom_corner: tuple[bool, bool] | None = None  # (on the right, at the foot)
        self.image = image
        self.set_image(image)

    def set_image(self, image: np.ndarray) -> None:
        """A newer picture from the camera (of the same size)."""
        self.image = image
        h, w = image.shape[:2]
        self.image_size = (w, h)
        self._surface = self._scaled = None

    @property
    def scale(self) -> float:
        return float(self.rect.w / self.image_size[0])

    def image_to_screen(self, pt: tuple[float, float]) -> tuple[float, float]:
        s = self.scale
        return (self.rect.x + (pt[0] + 0.5) * s, self.rect.y + (pt[1] + 0.5) * s)

    def screen_to_image(self, pos: tuple[float, float]) -> tuple[float, float]:
        s = self.scale
        return ((pos[0] - self.rect.x) / s - 0.5, (pos[1] - self.rect.y) / s - 0.5)

    def draw(self, p: theme.Painter, rect: pygame.Rect) -> None:
        self.rect = rect
        self.zoom_box = pygame.Rect(0, 0, 0, 0)
        if self._surface is None:
            rgb = cv2.cvtColor(self.image, cv2.COLOR_BGR2RGB)
            w, h = self.image_size
            self._surface = pygame.image.frombuffer(rgb.tobytes(), (w, h), "RGB")
        if self._scaled is None or self._scaled.get_size() != rect.size:
            self._scaled = pygame.transform.smoothscale(self._surface, rect.size)
        p.surface.blit(self._scaled, rect)

    def draw_overlay(self, p: theme.Painter, cal: Calibration) -> None:
        clip = p.surface.get_clip()
        p.surface.set_clip(self.rect)
        width = max(1, round(p.u * 0.22))
        for line in overlay_lines(cal):
            pts = [self.image_to_screen((float(x), float(y))) for x, y in line]
            if all(np.isfinite(pts).ravel()) and len(pts) > 1:
                pygame.draw.lines(p.surface, OVERLAY, False, pts, width)
        # The numbers, where the board has its own: 20 drawn over another number is a
        # calibration turned round, which the rings and wires alone would not show.
        for number, (x, y) in number_places(cal):
            if np.isfinite(x) and np.isfinite(y):
                big = number == 20
                p.text(str(number), (3.6 if big else 2.4) * p.u, self.image_to_screen((x, y)),
                       OVERLAY, anchor="center", style="bold")  # fmt: skip
        p.surface.set_clip(clip)

    def draw_zoom(self, p: theme.Painter, centre: tuple[float, float], zoom: float) -> pygame.Rect:
        """The picture around ``centre`` (picture pixels) magnified ``zoom`` times the
        screen's own scale, in a square in the corner of the picture furthest from it,
        with a cross on ``centre``: what the keypad's fine steps are aimed by (a wire
        meeting the double ring's edge is a pixel or two on the screen); a click in it
        is on the point it shows (``zoom_to_image``). Returns where."""
        if self._surface is None:
            return self.zoom_box
        side = max(8, round(min(self.rect.w, self.rect.h) * ZOOM_SIDE))
        half = side / (2 * zoom * self.scale)  # picture pixels either side of the centre
        w, h = self.image_size
        cx, cy = centre
        # The part of the picture to show, whole pixels, kept inside the picture (a mark
        # at its edge: the last row and column shown too).
        n = max(1, math.ceil(2 * half))
        x0 = min(max(math.floor(cx + 0.5 - half), 0), max(0, w - n))
        y0 = min(max(math.floor(cy + 0.5 - half), 0), max(0, h - n))
        src = pygame.Rect(x0, y0, n, n).clip(pygame.Rect(0, 0, w, h))
        mx, my = self.image_to_screen(centre)
        m = max(2, round(p.u * 0.6))  # margin from the picture's edge
        box = self._zoom_box_at(self._zoom_corner, side, m) if self._zoom_corner else None
        if box is None or box.inflate(side // 2, side // 2).collidepoint(mx, my):
            # (it stays in its corner until the crosshair comes near it: a box jumping
            # across while the fine steps are aimed by it loses the eye)
            self._zoom_corner = (mx < self.rect.centerx, my < self.rect.centery)
            box = self._zoom_box_at(self._zoom_corner, side, m)
        zoomed = pygame.transform.smoothscale(self._surface.subsurface(src), box.size)
        p.surface.blit(zoomed, box)
        self.zoom_box, self._zoom_src = box, src
        pygame.draw.rect(p.surface, theme.ACCENT, box, max(1, round(p.u * 0.3)))
        # The centre inside the box (not its middle when clamped at the picture's edge).
        sx = box.x + (cx + 0.5 - src.x) * box.w / src.w
        sy = box.y + (cy + 0.5 - src.y) * box.h / src.h
        arm, gap, width = side * 0.3, side * 0.06, max(1, round(p.u * 0.2))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            a = (sx + dx * gap, sy + dy * gap)
            b = (sx + dx * arm, sy + dy * arm)
            pygame.draw.line(p.surface, (0, 0, 0), a, b, width + 2)
            pygame.draw.line(p.surface, theme.ACCENT, a, b, width)
        return box

    def _zoom_box_at(self, corner: tuple[bool, bool], side: int, m: int) -> pygame.Rect:
        """The magnifier in a corner of the picture: (on the right, at the foot)."""
        right, below = corner
        box = pygame.Rect(0, 0, side, side)
        box.right = self.rect.right - m if right else self.rect.left + m + side
        box.top = self.rect.bottom - m - side if below else self.rect.top + m
        return box

    def zoom_to_image(self, pos: tuple[float, float]) -> tuple[float, float] | None:
        """The picture point a screen point in the magnifier shows (None: not in it)."""
        box, src = self.zoom_box, self._zoom_src
        if not box.collidepoint(pos):
            return None
        return (src.x + (pos[0] - box.x) * src.w / box.w - 0.5,
                src.y + (pos[1] - box.y) * src.h / box.h - 0.5)  # fmt: skip
