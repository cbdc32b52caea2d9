"""The board-lost banner, drawn over whatever screen is up."""

from __future__ import annotations

from kiosk.ui import theme
from kiosk.ui.context import Kiosk


def draw_banner(p: theme.Painter, kiosk: Kiosk) -> None:
    if not kiosk.board.lost:
        return
    u = p.u
    h = 7 * u
    top = p.h - h  # at the foot, over the key hints: the round and the scores stay visible
    p.rect((0, top, p.w, h), theme.BAD)
    p.text(
        kiosk.t("Board disconnected: reconnecting... The game waits; darts can be typed."),
        3.2 * u,
        (p.w / 2, top + h / 2),
        theme.TEXT,
        anchor="center",
        style="bold",
        max_width=p.w * 0.96,
    )
