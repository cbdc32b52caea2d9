"""Colours, fonts and the text painter.

Sizes are given in units of the screen height (``Painter.u`` = 1% of it), so one layout
serves 1920x1080, 1280x720 and 1024x600; widths are checked against the screen width
where a row could overflow (see ``fit``).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path
from typing import ClassVar

import pygame

# A dark bar scoreboard: light text on near-black, one warm accent for "now".
BG = (14, 17, 23)
PANEL = (28, 33, 43)
PANEL_HI = (44, 52, 68)
LINE = (70, 80, 100)
TEXT = (236, 239, 244)
DIM = (130, 138, 152)
GREY = (78, 84, 96)
ACCENT = (255, 196, 0)
ACCENT_DARK = (92, 70, 0)
GOOD = (96, 200, 120)
BAD = (235, 80, 70)
MARK = (250, 250, 250)
CLOSED_BG = (22, 25, 31)
PLAYER_COLOURS = ((80, 160, 255), (255, 120, 90), (120, 210, 120), (210, 130, 255))

# The smallest text a player is asked to read (a footer's keys, a table's column heads),
# in units (% of the height): read from the oche, 3 m off, on an 800x480 display too.
# A text that does not fit at its size is wrapped, shortened or left out, not shrunk
# below this (``Painter.wrapped``).
SMALL = 3.0
ELLIPSIS = "\u2026"

ASSETS = Path(__file__).resolve().parents[1] / "assets"


def assets_dir() -> Path:
    """``$DARTS_KIOSK_ASSETS`` or the package's ``kiosk/assets/``."""
    env = os.environ.get("DARTS_KIOSK_ASSETS", "")
    return Path(env) if env else ASSETS


class Fonts:
    """DejaVu Sans (Latin and Cyrillic) at any pixel size, loaded once per size."""

    FILES: ClassVar[dict[str, str]] = {
        "regular": "DejaVuSans.ttf",
        "bold": "DejaVuSans-Bold.ttf",
        "condensed": "DejaVuSansCondensed-Bold.ttf",
    }

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or assets_dir() / "fonts"
        self._fonts: dict[tuple[str, int], pygame.font.Font] = {}

    def get(self, px: int, style: str = "regular") -> pygame.font.Font:
        key = (style, max(6, int(px)))
        font = self._fonts.get(key)
        if font is None:
            path = self.directory / self.FILES[style]
            # A missing asset must not stop the kiosk: pygame's own font has Latin only.
            font = pygame.font.Font(path if path.is_file() else None, key[1])
            self._fonts[key] = font
        return font

    def close(self) -> None:
        """Let go of every font loaded: each holds its file open, and an app made again
        and again in one process (the tests) must not gather them until the garbage
        collector comes by (past 1,024 open files, select() refuses the board's port)."""
        self._fonts.clear()


def _size(img: pygame.Surface) -> int:
    return img.get_pitch() * img.get_height()


def _word_at(text: str, i: int) -> str:
    """The word (between spaces) that ``text[i]`` is in."""
    start = text.rfind(" ", 0, i) + 1
    end = text.find(" ", i)
    return text[start : len(text) if end < 0 else end]


def _lettered(word: str) -> bool:
    """Letters and hyphens (or apostrophes) only, after any punctuation at its ends: a
    double-barrelled name, "Александра-Виктория,"."""
    return all(c.isalpha() or c in "-'\u2019" for c in word.strip(',.:;!?()"«»'))


class Painter:
    """Draws on one surface; caches rendered text; remembers every text drawn this
    frame (``texts``) so tests and screenshots can check what a screen shows."""

    CACHE = 768
    # And at most this many bytes of pictures: 768 texts, many of them a fifth of a
    # 1080p screen high (points, names), took 68 MB of a Pi's memory in a long soak.
    CACHE_BYTES = 24 * 2**20

    def __init__(self, surface: pygame.Surface, fonts: Fonts) -> None:
        self.fonts = fonts
        self._cache: OrderedDict[tuple[str, int, str, tuple[int, ...]], pygame.Surface] = (
            OrderedDict()
        )
        self.cached_bytes = 0
        self.texts: list[str] = []
        self.placed: list[pygame.Rect] = []  # where each of ``texts`` was drawn
        self.surface = surface

    @property
    def w(self) -> int:
        return self.surface.get_width()

    @property
    def h(self) -> int:
        return self.surface.get_height()

    @property
    def u(self) -> float:
        return self.h / 100.0

    def begin(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.texts, self.placed = [], []

    def render(
        self, text: str, px: float, colour: tuple[int, ...] = TEXT, style: str = "regular"
    ) -> pygame.Surface:
        key = (text, int(px), style, tuple(colour))
        img = self._cache.get(key)
        if img is None:
            img = self.fonts.get(int(px), style).render(text, True, colour)
            self._cache[key] = img
            self.cached_bytes += _size(img)
            while len(self._cache) > 1 and (
                len(self._cache) > self.CACHE or self.cached_bytes > self.CACHE_BYTES
            ):
                self.cached_bytes -= _size(self._cache.popitem(last=False)[1])
        else:
            self._cache.move_to_end(key)
        return img

    def text(
        self,
        text: str,
        px: float,
        pos: tuple[float, float],
        colour: tuple[int, ...] = TEXT,
        *,
        anchor: str = "topleft",
        style: str = "regular",
        max_width: float | None = None,
    ) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` ("center", "midleft", ...) at ``pos``;
        shrinks the font until it fits ``max_width``."""
        if max_width is not None:
            px = self.fit(text, px, max_width, style)
        img = self.render(text, px, colour, style)
        rect = img.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
        self.surface.blit(img, rect)
        self.texts.append(text)
        self.placed.append(rect)
        return rect

    def two_lines(
        self, text: str, px: float, width: float, style: str = "regular", keep: float = 5 / 6
    ) -> list[str]:
        """A label on one line, or on two (at the space or after the hyphen in a word
        nearest its middle) when one line would shrink it below ``keep`` of its size (by
        more than a sixth: "Белая лошадь" in a narrow column, "Александра-" "Виктория" in
        a name box)."""
        if self.fit(text, px, width, style) >= px * keep:
            return [text]
        cuts = [(i, i + 1) for i, c in enumerate(text) if c == " "]
        # (a hyphen in a word of letters: one in a date, "2026-12-05", a minus or a
        # path, "/var/lib/darts-kiosk", cut it in two that read as two things)
        cuts += [
            (i + 1, i + 1)
            for i, c in enumerate(text[:-1])
            if c == "-"
            and i > 0
            and text[i - 1].isalpha()
            and text[i + 1].isalpha()
            and _lettered(_word_at(text, i))
        ]
        if not cuts:
            return [text]
        end, start = min(cuts, key=lambda c: abs(c[0] - len(text) / 2))
        return [text[:end], text[start:]]

    def lines(
        self,
        lines: list[str],
        px: float,
        centre: tuple[float, float],
        colour: tuple[int, ...],
        *,
        max_width: float,
        style: str = "regular",
        leading: float = 1.0,
        anchor: str = "center",
    ) -> None:
        """``lines`` centred one under the other about ``centre``, ``leading`` x ``px``
        apart (the two of ``two_lines``), all at one size: that of the widest, shrunk to
        fit (a shrunk "формулах" under a full-size "Очки в" looked like two labels).
        ``anchor``: "midleft" or "midright" line them up on ``centre``'s x instead."""
        size = min([self.fit(line, px, max_width, style) for line in lines], default=px)
        for n, line in enumerate(lines):
            dy = (n - (len(lines) - 1) / 2) * px * leading
            self.text(line, size, (centre[0], centre[1] + dy), colour, anchor=anchor,
                      style=style, max_width=max_width)  # fmt: skip

    def shortened(
        self, text: str, px: float, width: float, style: str = "regular", *, keep_from: str = ""
    ) -> str:
        """``text`` as it is if it fits ``width`` at ``px``, else its start and an
        ellipsis ("Christopher Feathe…"): a name too long for its place at the
        smallest size a player reads. ``keep_from``: the text from its last
        ``keep_from`` on is kept whole, and the start before it shortened
        ("pow(4,5)-p… = 512": a formula's result is what the player looks for)."""
        font = self.fonts.get(int(px), style)
        if font.size(text)[0] <= width:
            return text
        cut = text.rfind(keep_from) if keep_from else -1
        head, tail = (text[:cut], text[cut:]) if cut > 0 else (text, "")
        low, high = 0, len(head)  # the longest start that fits, with the ellipsis
        while low < high:
            mid = (low + high + 1) // 2
            if font.size(head[:mid].rstrip() + ELLIPSIS + tail)[0] <= width:
                low = mid
            else:
                high = mid - 1
        if tail and low == 0:  # (not even the end fits with a letter before it)
            return self.shortened(text, px, width, style)
        return head[:low].rstrip() + ELLIPSIS + tail

    def wrapped(
        self,
        text: str,
        px: float,
        width: float,
        style: str = "regular",
        *,
        floor: float = 0.0,
        keep: float = 5 / 6,
        two: bool = True,
        two_px: float | None = None,
    ) -> tuple[list[str], float]:
        """``text`` for a place ``width`` wide: one line, or (``two``) two lines
        (``two_lines``) where one would shrink below ``keep`` of ``px`` or below
        ``floor`` (pixels), at the size they fit at, at most ``px`` (``two_px`` for two
        lines, where the place is only so high) and never below ``floor``: there a
        line still too long is shortened. -> (lines, size), for ``lines``."""
        lines = [text]
        size = self.fit(text, px, width, style)
        if two and (size < px * keep or int(size) < int(floor)):
            lines = self.two_lines(text, px, width, style, keep=1.0)
            if len(lines) > 1:
                px = min(px, two_px or px)
            size = min(self.fit(line, px, width, style) for line in lines)
        if int(size) < int(floor):
            size = floor
            lines = [self.shortened(line, size, width, style) for line in lines]
        return lines, size

    def fit(self, text: str, px: float, max_width: float, style: str = "regular") -> float:
        font = self.fonts.get(int(px), style)
        width = font.size(text)[0]
        if width <= max_width or width == 0:
            return px
        # Glyph widths do not scale exactly with the size (whole pixels, hinting): the
        # proportional size can overrun by a few pixels, off the screen's edge.
        fitted = max(8.0, px * max_width / width)
        while fitted > 8.0 and self.fonts.get(int(fitted), style).size(text)[0] > max_width:
            fitted = max(8.0, fitted - 1.0)
        return fitted

    def rect(
        self,
        rect: pygame.Rect | tuple[float, float, float, float],
        colour: tuple[int, ...],
        *,
        radius: float = 0,
        width: int = 0,
    ) -> None:
        pygame.draw.rect(self.surface, colour, pygame.Rect(rect), width, int(radius))
