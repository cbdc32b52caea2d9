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
        px = rect.h * 0.42 if len(lines) == 1 else two_lines_px(p, rect.h)
        colour = theme.TEXT if active else theme.GREY
        p.lines(lines, px, rect.center, colour, max_width=rect.w * 0.9, style="bold", leading=1.1)

    @staticmethod
    def need(
        p: theme.Painter, label: str, height: float, wrap: bool = False, least: bool = False
    ) -> float:
        """The width a button ``height`` high needs for ``label``: on one line at its
        size, or (``wrap``) on two if it has two words and that is narrower. ``least``:
        the narrowest it can be with its label at the smallest size a player reads."""
        px = theme.SMALL * p.u if least else height * 0.42
        one = p.fonts.get(int(px), "bold").size(label)[0]
        two = p.two_lines(label, px, one - 1, "bold", keep=1.0)
        if wrap and len(two) > 1:
            small = p.fonts.get(int(two_lines_px(p, height)), "bold")
            one = min(one, max(small.size(line)[0] for line in two))
        return one / 0.9 + 1

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.rect.collidepoint(pos)


def two_lines_px(p: theme.Painter, height: float) -> float:
    """A button's label on two lines: a third of its height, and never below the
    smallest size a player reads where the button has room for two such lines."""
    return max(height * 0.32, min(theme.SMALL * p.u, height * 0.4))


def widths_by_need(
    needs: list[float], room: float, least: list[float] | None = None
) -> list[float]:
    """Boxes in a row ``room`` wide, each as wide as it needs (``Button.need``) and the
    room left shared out evenly. Four equal boxes put "Исправить дротик (*)" on two
    small lines beside three large ones. Where there is not room enough, each between
    the ``least`` it can be and its need, as the room allows (a label on two lines
    already at the smallest size keeps its width; a larger one shrinks), else all
    narrowed alike."""
    spare = room - sum(needs)
    if spare >= 0:
        return [need + spare / len(needs) for need in needs]
    least = [min(a, b) for a, b in zip(least or needs, needs, strict=True)]
    give = sum(needs) - sum(least)
    if sum(least) <= room and give > 0:
        k = (room - sum(least)) / give
        return [low + (need - low) * k for low, need in zip(least, needs, strict=True)]
    return [need * room / sum(needs) for need in needs]
