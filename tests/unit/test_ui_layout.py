"""The scoreboard laid out at the three screen sizes: big digits, nothing off screen,
and the screen stack keeps its root."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from kiosk.ui import theme
from kiosk.ui.screen import Screen, ScreenStack


@pytest.fixture(scope="module")
def fonts() -> theme.Fonts:
    pygame.font.init()
    return theme.Fonts()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 600)])
def test_score_digits_are_at_least_a_tenth_of_the_screen_height(
    size: tuple[int, int], fonts: theme.Fonts
) -> None:
    surface = pygame.Surface(size)
    p = theme.Painter(surface, fonts)
    # The scoreboard draws points at 18 units in the condensed bold face.
    font = fonts.get(int(18 * p.u), "condensed")
    glyph = font.metrics("8")[0]  # (minx, maxx, miny, maxy, advance)
    digit_height = glyph[3] - glyph[2]
    assert digit_height >= size[1] / 10


def test_the_painter_shrinks_text_to_fit_and_remembers_what_it_drew(fonts: theme.Fonts) -> None:
    surface = pygame.Surface((400, 300))
    p = theme.Painter(surface, fonts)
    rect = p.text("Oleksandra & Bohdana", 40, (0, 0), max_width=200)
    assert rect.width <= 200
    assert p.texts == ["Oleksandra & Bohdana"]


@pytest.mark.parametrize("style", ["regular", "bold", "condensed"])
def test_text_shrunk_to_fit_never_overruns_its_width(fonts: theme.Fonts, style: str) -> None:
    # Sizes scale glyph widths only roughly (whole pixels, hinting): the proportional
    # size overran by a few pixels, and a centred line began off the screen's left edge.
    surface = pygame.Surface((1280, 720))
    p = theme.Painter(surface, fonts)
    texts = [
        "99: наберите 3*20 для T20, 20 для S20, 25 / 50 для булла, 0 для промаха",
        "\u25b6 Щедрослав Ярославович Ж",
        "Oleksandra-Viktoriia Kuzm",
        "WWWWWWWWWWWWWWWW",
    ]
    for text in texts:
        for width in range(120, 1280, 37):
            for px in (26.0, 36.0, 50.0):
                fitted = p.fit(text, px, width, style)
                assert fonts.get(int(fitted), style).size(text)[0] <= width or fitted == 8.0


class _Named(Screen):
    def __init__(self, name: str) -> None:
        self.name = name
        self.dirty = True
        self.entered = 0

    def on_enter(self) -> None:
        self.entered += 1

    def draw(self, p: theme.Painter) -> None:
        return None


def test_the_stack_never_pops_its_root_and_reset_keeps_it() -> None:
    stack = ScreenStack()
    root, a, b = _Named("root"), _Named("a"), _Named("b")
    stack.push(root)
    stack.push(a)
    stack.replace(b)
    assert [s.name for s in stack.screens()] == ["root", "b"]
    assert stack.pop() is b and root.entered == 2
    assert stack.pop() is None and stack.top is root
    stack.push(a)
    stack.reset(b)
    assert [s.name for s in stack.screens()] == ["root", "b"]


def test_the_text_pictures_kept_for_reuse_stay_within_their_memory(
    fonts: theme.Fonts, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(theme.Painter, "CACHE_BYTES", 2 * 2**20)
    p = theme.Painter(pygame.Surface((1920, 1080)), fonts)
    big = int(18 * p.u)  # the points' size at 1080p
    for points in range(0, 400, 5):  # a long night's scores, each a picture
        p.render(str(points), big, style="condensed")
    kept = p._cache.values()
    assert 0 < p.cached_bytes <= 2 * 2**20
    assert p.cached_bytes == sum(img.get_pitch() * img.get_height() for img in kept)
    assert p.render("395", big, style="condensed") is p.render("395", big, style="condensed")


@pytest.mark.parametrize(
    ("text", "refused", "shown"),
    [
        ("34+89", None, "34+89"),  # fits: all of it
        ("(((((3+4)+8)+9)))", None, "\u2026)+9)))"),  # too long: its end, where typing goes
        ("(((((3+4)+8)+9)))", 16, "\u2026)+9)))"),  # refused at the end: the end
        ("(((((3+4)+8)+9)))", 6, "\u2026((3+4)\u2026"),  # refused further back: around it
    ],
)
def test_a_long_formula_shows_the_part_that_matters_with_ellipses(
    text: str, refused: int | None, shown: str
) -> None:
    from kiosk.ui.screens.formula_view import ELLIPSIS, formula_window

    def width(part: str) -> int:  # one unit a character
        return len(part)

    start, end = formula_window(text, refused, width, 8)
    drawn = (ELLIPSIS if start else "") + text[start:end] + (ELLIPSIS if end < len(text) else "")
    assert drawn == shown
    assert width(drawn) <= 8


@pytest.mark.parametrize(
    ("text", "lines"),
    [("Александра-Виктория", ["Александра-", "Виктория"]),  # a name: cut after its hyphen
     ("Not set: the clock is at 2026-12-05", ["Not set: the clock", "is at 2026-12-05"]),
     ("Not saved: /var/lib/darts-kiosk/kiosk.toml", ["Not saved:",
                                                     "/var/lib/darts-kiosk/kiosk.toml"])],
)  # fmt: skip
def test_two_lines_cut_a_name_at_its_hyphen_but_never_a_date_or_a_path(
    fonts: theme.Fonts, text: str, lines: list[str]
) -> None:
    p = theme.Painter(pygame.Surface((400, 300)), fonts)
    assert p.two_lines(text, 40, 200) == lines
