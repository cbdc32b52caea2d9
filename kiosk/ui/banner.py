"""The banners drawn over whatever screen is up: the board is lost (or sends what
cannot be read: set to another speed); some of the cameras are not scoring (the
others are); the board map did not load; the database is damaged; results are not
being saved (no database, or the last input could not be committed)."""

from __future__ import annotations

from kiosk.adapters.serial_board.reader import UNREADABLE
from kiosk.ui import theme
from kiosk.ui.context import Kiosk


def draw_banner(p: theme.Painter, kiosk: Kiosk) -> None:
    u = p.u
    h = 7 * u
    top = p.h - h  # at the foot, over the key hints: the round and the scores stay visible
    if kiosk.board.lost:
        if kiosk.board.detail == "cameras moved":
            text = kiosk.t("A camera was moved: calibrate it again (Settings). Darts can be typed.")
        elif kiosk.board.detail.startswith(UNREADABLE):
            text = kiosk.t(
                "Board unreadable: check its speed (baud in the config). Darts can be typed."
            )
        elif kiosk.board.detail == "cameras" or kiosk.devices.source == "camera":
            text = kiosk.t("Cameras lost: reconnecting... The game waits; darts can be typed.")
        else:
            text = kiosk.t(
                "Board disconnected: reconnecting... The game waits; darts can be typed."
            )
        _strip(p, top, h, text)
        top -= h
    elif kiosk.cameras_down:
        _strip(p, top, h, _cameras_down(kiosk), theme.ACCENT_DARK)
        top -= h
    if kiosk.board_map_problem:
        text = kiosk.t("Board map {} not loaded (see the log): learnt contacts do not score")
        _strip(p, top, h, text.format(kiosk.board_map_problem), theme.ACCENT_DARK)
        top -= h
    if kiosk.store_damaged:
        text = kiosk.t("Games database damaged (see the log): back it up now")
        _strip(p, top, h, text, theme.ACCENT_DARK)
        top -= h
    reason = kiosk.not_saved_reason
    if reason:
        _strip(p, top, h, f"{kiosk.t('Results are not being saved')}: {reason}")


def _cameras_down(kiosk: Kiosk) -> str:
    """Which cameras are not scoring and what to do, e.g. "Not scoring: camera 2 (no
    pictures). The other cameras go on."."""
    parts = []
    for number, why in kiosk.cameras_down:
        if why == "calibrate":
            parts.append(kiosk.t("camera {} (calibrate it again: Settings)").format(number))
        else:
            parts.append(kiosk.t("camera {} (no pictures)").format(number))
    return kiosk.t("Not scoring: {}. The other cameras go on.").format("; ".join(parts))


def _strip(
    p: theme.Painter, top: float, h: float, text: str, colour: tuple[int, int, int] = theme.BAD
) -> None:
    u = p.u
    p.rect((0, top, p.w, h), colour)
    p.text(
        text,
        3.2 * u,
        (p.w / 2, top + h / 2),
        theme.TEXT,
        anchor="center",
        style="bold",
        max_width=p.w * 0.96,
    )
