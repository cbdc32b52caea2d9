"""Screens are laid out for landscape. A screen mounted on its side (``display.rotation``
90 or 270), or any screen taller than wide, gets them in a landscape band across its
middle: nothing runs off the sides, and a click lands where it is drawn."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from kiosk.bootstrap import Options, build
from kiosk.config import Config, DisplayConfig
from kiosk.ui import theme
from kiosk.ui.driver import Driver


@pytest.mark.parametrize("rotation", [90, 270])
def test_a_screen_on_its_side_shows_the_menus_in_a_band_and_clicks_land_on_them(
    tmp_path: Path, rotation: int
) -> None:
    options = Options(window=True, size=(1280, 720), virtual=True, env={}, data_dir=tmp_path)
    running = build(options, Config(display=DisplayConfig(rotation=rotation)))
    try:
        d = Driver(running)
        d.settle()
        canvas = d.app.canvas
        width, height = canvas.get_size()
        assert width == 720 and 1.5 <= width / height <= 1.8  # landscape, the full width
        full = canvas.get_abs_parent()
        assert tuple(full.get_at((360, 5)))[:3] == theme.BG  # dark above the band
        d.key("enter")  # the attract screen -> the main menu
        assert d.screen.name == "main-menu"
        item = d.screen._rects[0]  # type: ignore[attr-defined]
        ox, oy = canvas.get_abs_offset()
        fx, fy = item.centerx + ox, item.centery + oy  # on the turned picture
        w, h = pygame.display.get_surface().get_size()
        pos = (w - 1 - fy, fx) if rotation == 90 else (fy, h - 1 - fx)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        d.wait_for(lambda: d.screen.name == "cricket-menu", timeout=5, what="the click")
    finally:
        running.close()


def test_the_attract_screen_moves_a_little_every_while_so_nothing_burns_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np
    from kiosk_support import kiosk_on_board

    from kiosk.ui.screens import attract

    monkeypatch.setattr(attract, "DRIFT_EVERY", 0.5)

    def title_corner(d: Driver) -> tuple[int, int]:
        """Where the title's accent-coloured pixels start (left, top)."""
        d.screenshot(str(tmp_path / "attract.png"))
        pixels = pygame.surfarray.array3d(d.app.canvas)  # (x, y, rgb)
        top = pixels[:, : pixels.shape[1] // 3]
        xs, ys = np.nonzero(np.all(top == theme.ACCENT[:3], axis=2))
        return int(xs.min()), int(ys.min())

    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "attract" and "DARTS" in d.texts
        first = title_corner(d)
        d.wait_for(lambda: d.screen.drift != attract.DRIFT[0], what="the next drift")
        moved = title_corner(d)
        assert moved != first and "DARTS" in d.texts
        assert (
            max(abs(a - b) for a, b in zip(moved, first, strict=True))
            < d.app.canvas.get_height() / 30
        )
