"""Many banners at once (the cameras lost, the board map, a settings mistake, the
database in trouble) on a small 800x480 screen and a 1920x1080 one: the players' names
and points and whose turn it is stay in sight. Two strips at most, at the top and the
foot; with three or more the first stays and the others take turns at the foot, each
at a readable size with its number (headless, real pty)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from kiosk_support import kiosk_on_board, start_game, text_sizes

from kiosk.ui import banner, theme
from kiosk.ui.driver import Driver

# Most urgent first, as the kiosk orders them: play stopped, then results at risk, then
# what the night can wait for.
BANNERS = [
    "Cameras lost: reconnecting... The game waits; darts can be typed.",
    "Results are not being saved: the disk is full: free some space",
    "The games database was deleted or replaced: the kiosk keeps its games in a copy (see the log)",
    "Games database damaged (see the log): back it up now",
    "Board map bar.json not loaded (see the log): learnt contacts do not score",
    "Settings mistake, not used: [sound] volume = 150 (see the log)",
]


def raise_banners(d: Driver, count: int) -> None:
    """The first ``count`` of BANNERS up, as the devices and the store raise them."""
    k = d.kiosk
    steps = [
        lambda: k.set_board("lost", "cameras"),
        lambda: k.set_save_problem("database or disk is full"),
        k.set_store_moved,
        k.set_store_damaged,
        lambda: k.set_board_map_problem("bar.json"),
        lambda: setattr(k, "settings_mistakes", ("/etc/kiosk.toml: [sound] volume = 150: 0-100",)),
    ]
    for step in steps[:count]:
        step()
    k.banner_revision += 1
    d.settle()


def banner_pixels_across(d: Driver, rect: pygame.Rect) -> list[tuple[int, int, int]]:
    """The banners' colours found on the line through the middle of ``rect``."""
    y = rect.centery
    found = {tuple(d.app.canvas.get_at((x, y)))[:3] for x in range(rect.left, rect.right)}
    return [c for c in (theme.BAD, theme.ACCENT_DARK) if c in found]


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("count", [1, 2, 3, 6])
def test_banners_never_cover_the_players_names_points_or_whose_turn_it_is(
    tmp_path: Path, size: tuple[int, int], count: int
) -> None:
    with kiosk_on_board(tmp_path, size) as (d, _board):
        start_game(d, ("Anna", "Boris"))
        d.throw("T20", "S19")
        raise_banners(d, count)
        d.screenshot(str(tmp_path / "board.png"))
        # The name boxes ("Anna", "Boris"), the points (both 0: Anna's is drawn first)
        # and the turn's line ("▶ Anna" and her darts).
        seen = [d.rect_of(t) for t in ("Anna", "Boris", "0", "\u25b6 Anna", "T20", "S19")]
        for rect in seen:
            assert banner_pixels_across(d, rect) == [], (rect, d.texts)
            assert not any(rect.colliderect(strip) for strip in d.app.banners.rects)
        assert len(d.app.banners.rects) == min(count, 2)
        assert BANNERS[0] in d.texts  # the first stays at the top
        h = d.app.canvas.get_height()
        tops = sorted(r.top for r in d.app.banners.rects)
        assert tops[0] == 0 and (count == 1 or tops[-1] + d.app.banners.rects[0].h >= h - 1)


def test_three_banners_or_more_take_turns_at_the_foot_each_readable_with_its_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(banner, "TURN_S", 0.3)
    sizes = text_sizes(monkeypatch)
    with kiosk_on_board(tmp_path, (800, 480)) as (d, _board):
        start_game(d, ("Anna", "Boris"))
        raise_banners(d, 6)
        for k, text in enumerate(BANNERS[1:], 2):
            # Each comes round by itself (no key pressed): the app draws the next turn.
            d.wait_for(lambda t=text: t in " ".join(d.texts), timeout=5, what=text)
            assert BANNERS[0] in d.texts and f"{k}/6" in d.texts
            shown = [t for t in d.texts if t in text]  # one line, or the two of a long one
            assert min(sizes[t] for t in shown) >= 2.4, (shown, sizes)
        # The turns go round again; down to two banners, they stay put, unnumbered.
        d.wait_for(lambda: BANNERS[1] in d.texts, timeout=5, what="the second again")
        d.kiosk.set_board("connected")
        d.kiosk.set_board_map_problem("")
        d.kiosk.settings_mistakes = ()
        d.kiosk.set_save_problem("")
        d.settle()
        assert not d.app.banners.turning and len(d.app.banners.rects) == 2
        assert BANNERS[2] in " ".join(d.texts) and BANNERS[3] in d.texts
        assert not [t for t in d.texts if t[:1].isdigit() and "/" in t]


def test_results_not_being_saved_stays_at_the_top_over_what_the_night_can_wait_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The board plays on; a settings mistake and a board map came up at start, then the
    # disk filled: the warning that results are being lost does not wait its turn.
    monkeypatch.setattr(banner, "TURN_S", 0.2)
    with kiosk_on_board(tmp_path, (800, 480)) as (d, _board):
        start_game(d, ("Anna", "Boris"))
        k = d.kiosk
        k.set_board_map_problem("bar.json")
        k.settings_mistakes = ("/etc/kiosk.toml: [sound] volume = 150: 0-100",)
        k.set_save_problem("database or disk is full")
        k.banner_revision += 1
        d.settle()
        top = min(d.app.banners.rects, key=lambda r: r.top)
        assert top.top == 0 and d.rect_of(BANNERS[1]).colliderect(top), d.texts
        for other in BANNERS[4:]:  # the other two come round in turn at the foot
            d.wait_for(lambda t=other: t in " ".join(d.texts), timeout=5, what=other)
            assert BANNERS[1] in d.texts
