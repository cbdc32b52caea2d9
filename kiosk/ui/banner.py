"""The banners drawn over whatever screen is up: the board is lost; results are not
being saved (no database, or the last input could not be committed)."""

from __future__ import annotations

from kiosk.ui import theme
from kiosk.ui.context import Kiosk


def draw_banner(p: theme.Painter, kiosk: Kiosk) -> None:
    u = p.u
    h = 7 * u
    top = p.h - h  # at the foot, over the key hints: the round and the scores stay visible
    if kiosk.board.lost:
        if kiosk.board.detail == "cameras moved":
            text = kiosk.t("A camera was moved: calibrate it again (Settings). Darts can be typed.")
        elif kiosk.board.detail == "cameras" or kiosk.devices.source == "camera":
            text = kiosk.t("Cameras lost: reconnecting... The game waits; darts can be typed.")
        else:
            text = kiosk.t(
                "Board disconnected: reconnecting... The game waits; darts can be typed."
            )
        _strip(p, top, h, text)
        top -= h
    reason = kiosk.not_saved_reason
    if reason:
        _strip(p, top, h, f"{kiosk.t('Results are not being saved')}: {reason}")


def _strip(p: theme.Painter, top: float, h: float, text: str) -> None:
    u = p.u
    p.rect((0, top, p.w, h), theme.BAD)
    p.text(
        text,
        3.2 * u,
        (p.w / 2, top + h / 2),
        theme.TEXT,
        anchor="center",
        style="bold",
        max_width=p.w * 0.96,
    )
