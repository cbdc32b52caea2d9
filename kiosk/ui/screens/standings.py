"""The table of one league night or one season, in the store's order (most wins, then
most draws, then fewest games, then name). Players level on all but the name share a
position, shown "2=" as ``darts-kiosk league standings`` shows it; a dash is a figure
over no games of its kind (the same rules as that command's table).

Keys: ``+`` / ``-`` move the highlight, Enter opens that player's page, 4 / 6 (or
left / right) show the previous / next night (season), ``/`` or ``.`` go back.
Ten rows at a time; the window follows the highlight.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from kiosk.adapters.keypad import KeyAction
from kiosk.adapters.store.league import positions
from kiosk.ui import theme
from kiosk.ui.screen import Click
from kiosk.ui.screens.league import StorePage, guarded, store_of, store_or_say
from kiosk.ui.screens.menu import centred, footer

ROWS = 10
NONE = "\u2013"  # an en dash: no games of that kind

# (header msgid, value (None: no games of that kind), decimals, width in % of the
# screen) after the rank and the name: each head fits its column at the smallest size
# a player reads, in English, Ukrainian and Russian, down to 800x480.
COLUMNS: tuple[tuple[str, Callable[[Any], float | None], int, float], ...] = (
    ("Played", lambda s: s.played, 0, 7.0),
    ("Won", lambda s: s.won, 0, 5.0),
    ("Lost", lambda s: s.lost, 0, 5.0),
    ("Drawn", lambda s: s.drawn, 0, 6.5),
    ("MPR", lambda s: s.cricket_mpr if s.cricket_darts else None, 2, 6.0),
    ("Best MPR", lambda s: s.best_cricket_mpr, 2, 8.0),
    # formula darts: average points a round, average rounds to bring the score to 0 (of
    # the games that did), the fewest in one game
    ("Formula points", lambda s: s.formula_avg_points if s.formula_rounds else None, 1, 8.5),
    ("Rounds to 0", lambda s: s.formula_avg_rounds if s.formula_finished else None, 1, 8.5),
    ("Fewest rounds", lambda s: s.best_formula_rounds, 0, 8.5),
    ("Rating", lambda s: s.rating, 0, 8.0),
)


class StandingsScreen(StorePage):
    name = "standings"

    def __init__(self, kiosk: Any, *, night: Any = None, season: Any = None) -> None:
        super().__init__(kiosk)
        self.night = night
        self.season = season
        self.rows: list[Any] = []
        self.selected = 0
        self._rects: list[pygame.Rect] = []

    def load(self) -> None:
        store = store_or_say(self)
        if store is None:
            self.rows = []
            return
        if self.night is not None:
            self.rows = guarded(self, lambda: store.league.standings(night_id=self.night.id), [])
        else:
            self.rows = guarded(self, lambda: store.league.standings(season_id=self.season.id), [])
        self.selected = min(self.selected, max(0, len(self.rows) - 1))

    def heading(self) -> str:
        if self.night is not None:
            return f"{self.t('League night')}  {self.kiosk.date(self.night.date)}"
        return f"{self.t('Season')}  {self.season.name}"

    # -- input -----------------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        if isinstance(event, Click):
            for i, rect in self._visible_rects():
                if rect.collidepoint(event.pos):
                    self.selected = i
                    self.open()
                    break
        elif isinstance(event, KeyAction):
            self.key(event)
        self.dirty = True

    def key(self, event: KeyAction) -> None:
        n = len(self.rows)
        if event.name in ("next", "down") and n:
            self.selected = (self.selected + 1) % n
        elif event.name in ("undo", "up") and n:
            self.selected = (self.selected - 1) % n
        elif event.name == "enter":
            self.open()
        elif event.digit in (4, 6) or event.name in ("left", "right"):
            self.turn(1 if event.digit == 6 or event.name == "right" else -1)
        elif event.name in ("menu", "back", "cancel"):
            self.kiosk.stack.pop()

    def open(self) -> None:
        if 0 <= self.selected < len(self.rows):
            from kiosk.ui.screens.player_page import PlayerPage

            self.kiosk.stack.push(PlayerPage(self.kiosk, self.rows[self.selected].player_id))

    def turn(self, delta: int) -> None:
        """The previous / next night of the season (or season)."""
        store = store_of(self.kiosk)
        if store is None:
            return
        if self.night is not None:
            nights: list[Any] = []
            pages = guarded(self, lambda: store.league.nights(self.night.season_id), nights)
            current = self.night
        else:
            seasons: list[Any] = []
            pages = guarded(self, store.league.seasons, seasons)
            current = self.season
        ids = [x.id for x in pages]
        if current.id in ids:
            i = ids.index(current.id) + delta
        elif self.night is not None:  # tonight, before its first game: by date
            earlier = sum(1 for x in pages if x.date < current.date)
            i = earlier - 1 if delta < 0 else earlier
        else:
            return
        if not 0 <= i < len(pages):
            self.message = self.t("No more tables that way")
            return
        if self.night is not None:
            self.night = pages[i]
        else:
            self.season = pages[i]
        self.selected = 0
        self.load()

    # -- drawing ---------------------------------------------------------------------

    def _window(self) -> int:
        return max(0, min(self.selected - ROWS // 2, len(self.rows) - ROWS))

    def _visible_rects(self) -> list[tuple[int, pygame.Rect]]:
        first = self._window()
        return [(first + k, r) for k, r in enumerate(self._rects)]

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        centred(p, self.heading(), 7, 3, theme.ACCENT, bold=True)
        x0 = w * 0.03
        rank_w, name_w = w * 0.045, w * 0.20
        header_y = 15 * u
        xs: list[tuple[float, float]] = []
        x = x0 + rank_w + name_w
        for _label, _value, _places, width in COLUMNS:
            xs.append((x, w * width / 100))
            x += w * width / 100
        heads = [
            p.two_lines(self.t(label), 3.4 * u, cw * 0.95, keep=1.0)
            for (label, *_), (_cx, cw) in zip(COLUMNS, xs, strict=True)
        ]
        # One size for the row of heads, that of the one shrunk most: "Drawn" shrunk
        # on its own beside a full-size "Won" looked like a lesser column. So a head
        # takes two lines rather than shrink at all ("Best" "MPR").
        # (never below the smallest size a player reads: at it, each head fits its
        # column in English, Ukrainian and Russian down to 800x480)
        size = max(theme.SMALL * u, min(
            p.fit(line, 3.4 * u, cw * 0.95) for lines, (_cx, cw) in zip(heads, xs, strict=True)
            for line in lines
        ))  # fmt: skip
        p.text(self.t("Player"), size, (x0 + rank_w, header_y), theme.DIM, anchor="midleft")
        for lines, (cx, cw) in zip(heads, xs, strict=True):
            p.lines(lines, size, (cx + cw / 2, header_y), theme.DIM, max_width=cw * 0.95)
        self._rects = []
        if not self.rows:
            text = self.message or self.t(
                "No league games yet: standings start with the first rated game"
            )
            colour = theme.BAD if self.message else theme.DIM
            centred(p, text, 4, 45, colour, anchor="center", width=0.92)
            self._footer(p)
            return
        first = self._window()
        row_h = 7.0 * u
        ranks = positions(self.rows)
        for k, s in enumerate(self.rows[first : first + ROWS]):
            i = first + k
            top = 18.5 * u + k * row_h
            rect = pygame.Rect(int(x0 - u), int(top), int(x - x0 + 2 * u), int(row_h * 0.9))
            self._rects.append(rect)
            chosen = i == self.selected
            p.rect(rect, theme.PANEL_HI if chosen else theme.PANEL, radius=0.8 * u)
            if chosen:
                p.rect(rect, theme.ACCENT, radius=0.8 * u, width=max(2, int(0.35 * u)))
            size = row_h * 0.55
            cy = rect.centery
            rank = ranks[i]
            p.text(  # inside its row: "6=", "10=" shrink rather than leave it
                f"{rank}{'=' if ranks.count(rank) > 1 else ''}",
                size,
                (x0 + rank_w * 0.8, cy),
                theme.ACCENT,
                anchor="midright",
                style="bold",
                max_width=rank_w * 0.8 + 0.4 * u,
            )
            # A long name on two lines where one would be smaller than a player reads
            # (24 letters, 800x480), as large as the row holds two; shortened past that.
            small = theme.SMALL * u
            names, name_px = p.wrapped(s.name, size, name_w * 0.96, "bold", floor=small, keep=0,
                                       two_px=max(small, row_h * 0.9 / 2.1))  # fmt: skip
            p.lines(names, name_px, (x0 + rank_w, cy), theme.TEXT, max_width=name_w * 0.96,
                    style="bold", anchor="midleft")  # fmt: skip
            for (_label, value, places, _width), (cx, cw) in zip(COLUMNS, xs, strict=True):
                v = value(s)
                p.text(
                    NONE if v is None else self.number(v, places),
                    size,
                    (cx + cw / 2, cy),
                    theme.TEXT,
                    anchor="center",
                    max_width=cw * 0.95,
                )
        if len(self.rows) > ROWS:
            more = f"{first + 1}\u2013{min(first + ROWS, len(self.rows))} / {len(self.rows)}"
            p.text(more, 3 * u, (w - x0, 89.5 * u), theme.DIM, anchor="midright")
        if self.message:
            centred(p, self.message, 3.2, 89.5, theme.BAD, anchor="center", width=0.8)
        self._footer(p)

    def _footer(self, p: theme.Painter) -> None:
        if self.night is not None:
            keys = self.t("+ / - : move   Enter: player page   4 / 6: other nights   / : back")
        else:
            keys = self.t("+ / - : move   Enter: player page   4 / 6: other seasons   / : back")
        footer(p, keys)
