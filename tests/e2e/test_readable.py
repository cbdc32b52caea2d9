"""Every text a player meets is readable from the oche, down to an 800x480 display, in
English, Ukrainian and Russian: drawn at 3 % of the screen's height or more (the size
its font is set in; the box a line takes is about a sixth taller), never on top of
another text.

3 % is the floor for secondary text (a footer's keys, a table's column heads); the main
figures are far larger. A text that does not fit at its size is wrapped, shortened or
left out by its screen, not shrunk below the floor. Each case walks the screens a
player meets in one kiosk, with long names (24 letters, what the store takes) where a
name is shown. Not here: the owner's screens (camera calibration and checks, the board
map), read at arm's length at setting-up time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from kiosk_support import kiosk_on_board, kiosk_on_virtual_board

from kiosk.adapters.store import Store
from kiosk.config import Config
from kiosk.ui import theme
from kiosk.ui.driver import ANNA_WINS, Driver
from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.cricket_menu import start_cricket
from kiosk.ui.screens.formula import open_side_game, start_formula
from kiosk.ui.session import CricketSetup

FLOOR = 0.03  # of the screen's height: the smallest text a player is asked to read
SIZES = [(800, 480), (1280, 720)]
LANGUAGES = ["en", "uk", "ru"]
CASES = [pytest.param(s, lang, id=f"{s[0]}x{s[1]}-{lang}") for s in SIZES for lang in LANGUAGES]
# 24 letters, the longest name the store takes; a Cyrillic one that breaks at a hyphen.
LONG = ("Christopher Featherstone", "Олександра-Вікторія Ткач")
SHORT = ("Anna", "Boris", "Chen", "Dana", "Eve", "Fred", "Gus", "Hal")


@pytest.fixture
def drawn_sizes(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Filled in as the kiosk draws a frame: beside each of its texts (``Driver.texts``),
    the size it was drawn at, in pixels (after a fit to its width)."""
    sizes: list[float] = []
    text = theme.Painter.text
    begin = theme.Painter.begin

    def began(self: Any, surface: pygame.Surface) -> None:
        begin(self, surface)
        sizes.clear()

    def recorded(self: Any, shown: str, px: float, *args: Any, **kwargs: Any) -> pygame.Rect:
        width = kwargs.get("max_width")
        style = kwargs.get("style", "regular")
        sizes.append(px if width is None else self.fit(shown, px, width, style))
        return text(self, shown, px, *args, **kwargs)

    monkeypatch.setattr(theme.Painter, "begin", began)
    monkeypatch.setattr(theme.Painter, "text", recorded)
    return sizes


class Reader:
    """Looks at each screen as a player would, and notes what cannot be read there."""

    def __init__(self, d: Driver, size: tuple[int, int], sizes: list[float]) -> None:
        self.d = d
        self.h = size[1]
        self.sizes = sizes
        self.problems: list[str] = []

    def look(self, where: str) -> None:
        d = self.d
        d.screen.dirty = True  # a frame drawn now, of the screen as it is
        d.settle()
        texts, rects = d.texts, d.app.text_rects
        assert len(self.sizes) == len(texts)
        for text, px in zip(texts, self.sizes, strict=True):
            # (fonts come in whole pixels: 3 % of 480 is drawn at 14)
            if text.strip() and int(px) < int(FLOOR * self.h):
                self.problems.append(f"{where}: {text!r} at {100 * px / self.h:.2f} %")
        if d.app.banners:
            return  # (a banner is drawn over the screen, on purpose)
        for i, (a, ra) in enumerate(zip(texts, rects, strict=True)):
            for b, rb in zip(texts[i + 1 :], rects[i + 1 :], strict=True):
                # Over each other, not two lines' boxes touching (a line's box has room
                # for accents above and descenders below its letters).
                both = ra.clip(rb)
                if a.strip() and b.strip() and both.w > 2 and both.h > min(ra.h, rb.h) / 4:
                    self.problems.append(f"{where}: {a!r} over {b!r}")

    def verdict(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def players(store: Store, names: tuple[str, ...]) -> None:
    for name in names:
        store.players.add(name)


def league_games(store: Store) -> None:
    """A few rated games, the long names among them (standings, player pages)."""
    darts = ["T20", "T19", "T18", "T17", "T16", "T15", "DB", "MISS", "S20", "S1"]
    for n, pair in enumerate([(LONG[0], "Anna"), (LONG[1], "Boris"), ("Anna", "Chen")]):
        live = store.start_game("cricket", list(pair), rated=True)
        k = n
        while not live.is_over():
            live.dart(darts[k % len(darts)])
            k += 3
        live.finish()


@pytest.mark.parametrize(("size", "language"), CASES)
def test_the_menus_and_league_screens_read_from_the_oche(
    tmp_path: Path, drawn_sizes: list[float], size: tuple[int, int], language: str
) -> None:
    with kiosk_on_board(tmp_path, size=size, config=Config(language=language)) as (d, _board):
        store = d.kiosk.store
        assert store is not None
        players(store, (*SHORT, *LONG))
        league_games(store)
        r = Reader(d, size, drawn_sizes)
        r.look("attract")
        d.press("1")
        r.look("main menu")
        d.press("1")
        r.look("Cricket menu")
        d.key("cancel")
        d.press("2")
        r.look("formula menu")
        d.key("cancel")
        d.press("3")
        r.look("league menu")
        d.press("2")
        r.look("tonight's standings")
        d.look()
        d.press("\n")
        r.look("a player's page")
        d.press("//")
        d.press("4")
        assert d.screen.name == "players-list"
        r.look("players (more than seven)")
        d.pad("1")
        assert d.screen.name == "name-entry"
        d.pad("2\n33222\n2")
        r.look("name entry")
        d.pad("/")
        d.pad("/")
        d.key("cancel")
        d.press("4")
        assert d.screen.name == "settings"
        r.look("settings")
        r.verdict()


@pytest.mark.parametrize(("size", "language"), CASES)
def test_the_cricket_screens_read_from_the_oche(
    tmp_path: Path, drawn_sizes: list[float], size: tuple[int, int], language: str
) -> None:
    with kiosk_on_board(tmp_path, size=size, config=Config(language=language)) as (d, _board):
        r = Reader(d, size, drawn_sizes)
        games = [
            ("two players", CricketSetup(names=("Anna", LONG[0]))),
            ("three players", CricketSetup(names=("Anna", "Boris", LONG[1]))),
            ("four players", CricketSetup(names=(*LONG, "Chen", "Dana"))),
            ("teams", CricketSetup(names=(LONG[0], "Anna", "Boris", LONG[1]), teams=True)),
        ]
        for what, setup in games:
            start_cricket(d.kiosk, setup)
            d.settle()
            d.throw("T20", "S19", "S19", "T18", "S15", "D17", "S20")
            r.look(what)
        d.throw("S20", "S20")  # a third dart: take them out, then +
        assert d.game().hold is not None
        r.look("teams, darts to take out")
        d.press("/")
        r.look("pause menu")
        d.key("cancel")
        start_cricket(d.kiosk, CricketSetup(names=(LONG[1], LONG[0])))
        d.settle()
        d.throw(*ANNA_WINS)
        d.wait_screen("results")
        r.look("results")
        start_cricket(d.kiosk, CricketSetup(names=(LONG[0], "Anna", "Boris", LONG[1]), teams=True))
        d.settle()
        for _ in range(6):
            d.throw("T20", "T19", "T18", "MISS", "MISS", "MISS")
        d.throw("T17", "T16", "T15", "MISS", "MISS", "MISS", "DB", "DB")
        d.wait_screen("results")
        r.look("a team's results")
        d.kiosk.stack.reset(d.kiosk.stack.screens()[0])
        d.settle()
        assert d.screen.name == "attract"
        r.look("attract, the last results")
        r.verdict()


@pytest.mark.parametrize(("size", "language"), CASES)
def test_the_formula_screens_read_from_the_oche(
    tmp_path: Path, drawn_sizes: list[float], size: tuple[int, int], language: str
) -> None:
    with kiosk_on_board(tmp_path, size=size, config=Config(language=language)) as (d, _board):
        r = Reader(d, size, drawn_sizes)
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001, 1231, 5720)))
        d.settle()
        r.look("formula, ready")
        d.pad("\n00+00")
        r.look("formula, typing")
        d.pad("\n")
        r.look("formula, the round's result")
        d.pad("\n00/0*0\n")
        r.look("formula, refused")
        setup = FormulaSetup(names=LONG, mode="duel", digits=(4589, 3001),
                             overrides=(("max_rounds", 2),))  # fmt: skip
        start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+0*0\n")
        d.pad("\n00+0*0\n")
        r.look("a duel's round")
        d.pad("\n")
        r.look("a duel, the rounds so far")
        d.pad("\n00+0*0\n")
        d.pad("\n00+0*0\n")
        d.wait_screen("formula-end")
        r.look("a duel's end")
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3001, 1000, 1000, 5100)))
        d.settle()
        d.pad("\n000*0\n\n0000\n\n0000\n\n00+0+0\n")
        d.wait_screen("formula-end")
        r.look("formula, the end")
        start_cricket(d.kiosk, CricketSetup(names=("Anna", LONG[1])))
        d.settle()
        d.throw("T20", "S19", "S19", "T20")
        open_side_game(d.kiosk, d.screen)
        d.settle()
        d.pad("\n0000\n\n")  # a round played: the table under the scores
        d.pad("\n07")
        r.look("side game")
        d.throw("S20", "S20", source="board")  # the thrower's turn on hold: "4, then +"
        assert d.screen.name == "formula-side" and d.screen.cricket.session.hold is not None  # type: ignore[attr-defined]
        r.look("side game, a turn on hold")
        r.verdict()


@pytest.mark.parametrize(("size", "language"), CASES)
def test_the_scoreboard_beside_the_on_screen_board_reads_from_the_oche(
    tmp_path: Path, drawn_sizes: list[float], size: tuple[int, int], language: str
) -> None:
    with kiosk_on_virtual_board(tmp_path, size=size) as d:
        d.kiosk.set_language(language)
        r = Reader(d, size, drawn_sizes)
        start_cricket(d.kiosk, CricketSetup(names=("Anna", "Boris")))
        d.settle()
        d.throw("T20", "S19")
        r.look("two players, the board on screen")
        start_cricket(d.kiosk, CricketSetup(names=("Anna", "Boris", "Chen", "Dana"), teams=True))
        d.settle()
        d.throw("T20", "S19", "S19")
        assert d.game().hold is not None
        r.look("teams, darts to take out")
        d.throw("S1", "S1", "S1")
        r.look("teams, the other side's darts to take out")
        # Four players: the board's panel narrows to a quarter of the screen.
        start_cricket(d.kiosk, CricketSetup(names=("Anna", "Boris", "Chen", "Dana")))
        d.settle()
        d.throw("T20")
        r.look("four players, the board on screen")
        r.verdict()
