"""The on-screen dartboard: drawn from ``kiosk.domain.board`` geometry; a click is a
dart at that point (``dart_at``), so what you see is exactly what scores."""

from __future__ import annotations

import math

import pygame

from kiosk.domain import board
from kiosk.domain.darts import Dart
from kiosk.ui import theme

BLACK = (28, 28, 28)
CREAM = (236, 222, 180)
RED = (206, 40, 40)
GREEN = (20, 140, 70)
WIRE = (170, 170, 170)
# The board is drawn with a rim for the numbers: the face is this part of the radius.
FACE = 0.84


def _ring(
    surface: pygame.Surface,
    c: tuple[float, float],
    scale: float,
    a0: float,
    a1: float,
    r0: float,
    r1: float,
    colour: tuple[int, int, int],
) -> None:
    steps = 6
    pts = []
    for i in range(steps + 1):
        x, y = board.point_at(a0 + (a1 - a0) * i / steps, r1)
        pts.append((c[0] + x * scale, c[1] - y * scale))
    for i in range(steps, -1, -1):
        x, y = board.point_at(a0 + (a1 - a0) * i / steps, r0)
        pts.append((c[0] + x * scale, c[1] - y * scale))
    pygame.draw.polygon(surface, colour, pts)


def render_board(radius: int) -> pygame.Surface:
    """A board of ``radius`` px (numbers ring included), on a transparent square."""
    size = radius * 2
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = (radius, radius)
    scale = radius * FACE / board.DOUBLE_OUTER
    pygame.draw.circle(surf, (10, 10, 10), c, radius)
    half = board.SEGMENT_DEGREES / 2
    font_px = max(8, int(radius * 0.085))
    font = pygame.font.Font(theme.assets_dir() / "fonts" / "DejaVuSans-Bold.ttf", font_px)
    for i, number in enumerate(board.SEGMENTS):
        a = i * board.SEGMENT_DEGREES
        dark = i % 2 == 0
        single = BLACK if dark else CREAM
        ring = RED if dark else GREEN
        bands = (
            (board.OUTER_BULL, board.TREBLE_INNER, single),
            (board.TREBLE_INNER, board.TREBLE_OUTER, ring),
            (board.TREBLE_OUTER, board.DOUBLE_INNER, single),
            (board.DOUBLE_INNER, board.DOUBLE_OUTER, ring),
        )
        for r0, r1, colour in bands:
            _ring(surf, c, scale, a - half, a + half, r0, r1, colour)
        img = font.render(str(number), True, (240, 240, 240))
        x, y = board.point_at(a, (board.DOUBLE_OUTER + radius * (1 - FACE) / 2 / scale))
        surf.blit(img, img.get_rect(center=(c[0] + x * scale, c[1] - y * scale)))
    pygame.draw.circle(surf, GREEN, c, int(board.OUTER_BULL * scale))
    pygame.draw.circle(surf, RED, c, max(2, int(board.INNER_BULL * scale)))
    for r in (board.TREBLE_INNER, board.TREBLE_OUTER, board.DOUBLE_INNER, board.DOUBLE_OUTER):
        pygame.draw.circle(surf, WIRE, c, int(r * scale), 1)
    return surf


class VirtualBoard:
    """Where the on-screen board is, and which dart a pixel is."""

    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._image: pygame.Surface | None = None
        self.marks: list[tuple[float, float]] = []  # mm points of the shown turn's clicks

    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        radius = min(rect.w, rect.h) // 2
        if self._image is None or self._image.get_width() != radius * 2:
            self._image = render_board(radius)
        self.rect = self._image.get_rect(center=rect.center)
        surface.blit(self._image, self.rect)
        scale = self.scale
        for x, y in self.marks:
            px = (self.rect.centerx + x * scale, self.rect.centery - y * scale)
            pygame.draw.circle(surface, theme.ACCENT, px, max(3, radius // 28))
            pygame.draw.circle(surface, (0, 0, 0), px, max(3, radius // 28), 2)

    @property
    def scale(self) -> float:
        """Pixels per mm."""
        return (self.rect.w / 2) * FACE / board.DOUBLE_OUTER

    def contains(self, pos: tuple[int, int]) -> bool:
        if self.rect.w == 0:
            return False
        return math.hypot(pos[0] - self.rect.centerx, pos[1] - self.rect.centery) <= self.rect.w / 2

    def to_mm(self, pos: tuple[int, int]) -> tuple[float, float]:
        s = self.scale
        return ((pos[0] - self.rect.centerx) / s, (self.rect.centery - pos[1]) / s)

    def dart_at(self, pos: tuple[int, int]) -> Dart:
        return board.dart_at(*self.to_mm(pos))

    def pixel_of(self, dart: Dart) -> tuple[int, int]:
        """A pixel that scores ``dart`` (tests click here)."""
        x, y = board.centre_of(dart)
        s = self.scale
        return (round(self.rect.centerx + x * s), round(self.rect.centery - y * s))
