"""Small drawings shared by screens: Cricket marks and buttons."""

from __future__ import annotations

import pygame

from kiosk.ui import theme


def draw_marks(
    surface: pygame.Surface,
    centre: tuple[float, float],
    size: float,
    marks: int,
    colour: tuple[int, int, int],
) -> None:
    """One ``/``, two ``X``, three a circled ``X``; drawn with lines so they stay sharp
    at any size."""
    if marks <= 0:
        return
    cx, cy = centre
    r = size / 2
    width = max(2, int(size * 0.12))
    d = r * 0.62
    pygame.draw.line(surface, colour, (cx - d, cy + d), (cx + d, cy - d), width)
    if marks >= 2:
        pygame.draw.line(surface, colour, (cx - d, cy - d), (cx + d, cy + d), width)
    if marks >= 3:
        pygame.draw.circle(surface, colour, (int(cx), int(cy)), int(r), width)


class Button:
    """A clickable labelled box (for the mouse on the virtual board and menus)."""

    def __init__(self, action: str, label: str) -> None:
        self.action = action
        self.label = label
        self.rect = pygame.Rect(0, 0, 0, 0)

    def draw(self, p: theme.Painter, rect: pygame.Rect, label: str, active: bool = True) -> None:
        self.rect = rect
        p.rect(rect, theme.PANEL_HI if active else theme.PANEL, radius=p.u)
        p.rect(rect, theme.LINE, radius=p.u, width=max(1, int(0.25 * p.u)))
        # A label that would shrink much (a long translation) goes on two lines.
        lines = p.two_lines(label, rect.h * 0.42, rect.w * 0.9, "bold")
        px = rect.h * (0.42 if len(lines) == 1 else 0.32)
        colour = theme.TEXT if active else theme.GREY
        p.lines(lines, px, rect.center, colour, max_width=rect.w * 0.9, style="bold", leading=1.1)

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.rect.collidepoint(pos)
