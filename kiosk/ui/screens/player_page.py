"""A player's page: rating (and its last change), form, MPR trend, formula average,
this season's record. ``+`` / ``-`` step through the roster, ``/`` or ``.`` go back.

Form is the last five *league* (rated) results, since that is what the table counts;
the MPR trend (last 20 Cricket games) and the formula average (over the last 200
games) use every finished game, training too: the throwing is the same. The games come
from ``League.player_games``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from kiosk.adapters.keypad import KeyAction
from kiosk.domain.figures import fixed
from kiosk.ui import theme
from kiosk.ui.screen import Click
from kiosk.ui.screens.league import StorePage, guarded, roster, store_of, store_or_say
from kiosk.ui.screens.menu import centred, footer

if TYPE_CHECKING:
    from kiosk.adapters.store import Store

FORM_GAMES = 5
TREND_GAMES = 20
HISTORY_GAMES = 200  # the formula average is over at most this many recent games
COLOURS = {"won": theme.GOOD, "lost": theme.BAD, "drawn": theme.DIM}


@dataclass
class Summary:
    name: str
    rating: float
    change: float | None = None  # the last rated game's change
    form: list[str] = field(default_factory=list)  # outcomes, oldest first
    mpr: list[float] = field(default_factory=list)  # per Cricket game, oldest first
    # Those games' MPR together (all their marks over all their darts), as the
    # standings count it: not the mean of the games' MPRs, which weighs a short game
    # as much as a long one and would disagree with the standings.
    mpr_avg: float | None = None
    formula_avg: float | None = None
    formula_games: int = 0
    season: str = ""
    record: tuple[int, int, int, int] | None = None  # played, won, lost, drawn


def summary(store: Store, player_id: int) -> Summary:
    player = store.players.get(player_id)
    out = Summary(player.name, store.players.rating(player_id))
    history = store.players.rating_history(player_id)
    if history:
        out.change = history[-1][2] - history[-1][1]
    games = store.league.player_games(player_id, limit=HISTORY_GAMES)
    out.form = [g.outcome for g in games if g.rated][:FORM_GAMES][::-1]
    cricket = [g for g in games if g.mpr is not None][:TREND_GAMES]
    out.mpr = [g.mpr for g in cricket if g.mpr is not None][::-1]
    if cricket:
        out.mpr_avg = sum(g.marks for g in cricket) * 3 / sum(g.darts for g in cricket)
    formula = [g for g in games if g.kind == "formula" and g.rounds > 0]
    if formula:
        points = sum(g.points_total for g in formula)
        out.formula_avg = points / sum(g.rounds for g in formula)
        out.formula_games = len(formula)
    season = store.league.current_season()
    if season is not None:
        out.season = season.name
        for s in store.league.standings(season_id=season.id):
            if s.player_id == player_id:
                out.record = (s.played, s.won, s.lost, s.drawn)
    return out


class PlayerPage(StorePage):
    name = "player-page"

    def __init__(self, kiosk: Any, player_id: int) -> None:
        super().__init__(kiosk)
        self.player_id = player_id
        self.data: Summary | None = None

    def load(self) -> None:
        store = store_or_say(self)
        if store is None:
            self.data = None
            return
        self.data = guarded(self, lambda: summary(store, self.player_id), None)

    def process_event(self, event: Any) -> None:
        if isinstance(event, Click):
            self.kiosk.stack.pop()
        elif isinstance(event, KeyAction):
            if event.name in ("next", "undo", "down", "up", "right", "left"):
                self.step(1 if event.name in ("next", "down", "right") else -1)
            elif event.name in ("menu", "back", "cancel", "enter"):
                self.kiosk.stack.pop()

    def step(self, delta: int) -> None:
        store = store_of(self.kiosk)
        if store is None:
            return
        ids = [p.id for p in roster(self)]
        if not ids:
            return
        i = ids.index(self.player_id) if self.player_id in ids else -delta
        self.player_id = ids[(i + delta) % len(ids)]
        self.load()
        self.dirty = True

    # -- drawing ---------------------------------------------------------------------

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        d = self.data
        if d is None:
            centred(p, self.t("Player"), 8, 5, theme.ACCENT, bold=True, width=None)
            centred(p, self.message, 4, 45, theme.BAD, anchor="center", width=0.94)
            self._footer(p)
            return
        centred(p, d.name, 9, 3, theme.ACCENT, bold=True)
        left = w * 0.05
        p.text(self.t("Rating"), 3.6 * u, (left, 17 * u), theme.DIM)
        rect = p.text(self.number(d.rating, 0), 16 * u, (left, 21 * u), theme.TEXT, style="bold")
        if d.change is not None:
            colour = theme.GOOD if d.change > 0 else theme.BAD if d.change < 0 else theme.DIM
            p.text(
                fixed(d.change, 0, plus=True),
                6 * u,
                (rect.right + 2 * u, rect.centery),
                colour,
                anchor="midleft",
                style="bold",
            )
        self._draw_form(p, left, 44 * u, d)
        y = 68 * u
        season = f"{self.t('Season')} {d.season}:"
        if d.record is not None:
            played, won, lost, drawn = d.record
            text = (
                f"{self.t('Played')} {played} · {self.t('Won')} {won} · "
                f"{self.t('Lost')} {lost} · {self.t('Drawn')} {drawn}"
            )
        else:
            text = self.t("no league games yet")
        # The season's record after its name, or under it where one line would not be
        # read (800x480): the lines below move down to make room.
        rows = [f"{season}  {text}"]
        if p.fit(rows[0], 3.6 * u, w * 0.42) < theme.SMALL * u:
            rows = [season, text]
        for row in rows:
            p.text(row, 3.6 * u, (left, y), theme.TEXT, max_width=w * 0.42)
            y += 4.4 * u
        y -= 4.4 * u
        if d.formula_avg is not None:
            avg = self.number(d.formula_avg, 1)
            text = (
                f"{self.t('Formula darts')}, {self.t('points per round')}: {avg}"
                f"  ({self.t('Games')}: {d.formula_games})"
            )
        else:
            text = f"{self.t('Formula darts')}: {self.t('no games yet')}"
        lines = p.two_lines(text, 3.6 * u, w * 0.42)
        for n, line in enumerate(lines):  # (two lines rather than a smaller one)
            p.text(line, 3.6 * u, (left, y + (6 + 4.4 * n) * u), theme.TEXT, max_width=w * 0.42)
        self._draw_trend(p, pygame.Rect(int(w * 0.52), int(21 * u), int(w * 0.43), int(52 * u)), d)
        if self.message:
            centred(p, self.message, 3.4, 89, theme.BAD, anchor="center", width=0.94)
        self._footer(p)

    def _footer(self, p: theme.Painter) -> None:
        footer(p, self.t("+ / - : next / previous player    / : back"))

    def _draw_form(self, p: theme.Painter, left: float, top: float, d: Summary) -> None:
        u = p.u
        p.text(self.t("Form: last 5 league games"), 3.6 * u, (left, top), theme.DIM)
        size = 10 * u
        letters = {"won": self.t("W"), "lost": self.t("L"), "drawn": self.t("D")}
        if not d.form:
            p.text(
                self.t("no league games yet"),
                4 * u,
                (left, top + 5 * u + size / 2),
                theme.GREY,
                anchor="midleft",
            )
        for i, outcome in enumerate(d.form):
            rect = pygame.Rect(int(left + i * size * 1.15), int(top + 5 * u), int(size), int(size))
            colour = COLOURS.get(outcome, theme.DIM)
            p.rect(rect, colour, radius=u)
            p.text(
                letters.get(outcome, "?"),
                size * 0.6,
                rect.center,
                theme.BG,
                anchor="center",
                style="bold",
            )

    def _draw_trend(self, p: theme.Painter, box: pygame.Rect, d: Summary) -> None:
        u = p.u
        values = d.mpr
        title = f"{self.t('MPR')}, {self.t('last Cricket games')}: {len(values)}"
        p.text(title, 3.6 * u, (box.x, box.y - 4 * u), theme.DIM, max_width=box.w)
        p.rect(box, theme.PANEL, radius=u)
        if not values:
            p.text(self.t("no Cricket games yet"), 4 * u, box.center, theme.GREY, anchor="center")
            return
        label_w = 9 * u
        plot = pygame.Rect(
            box.x + int(label_w),
            box.y + int(3 * u),
            box.w - int(label_w + 3 * u),
            box.h - int(6 * u),
        )
        top = float(max(1, math.ceil(max(values))))  # whole marks: ticks at 0, half, top
        bottom = 0.0

        def y_of(v: float) -> float:
            return plot.bottom - (v - bottom) / (top - bottom) * plot.h

        for v in (0.0, top / 2, top):
            y = y_of(v)
            pygame.draw.line(p.surface, theme.LINE, (plot.x, y), (plot.right, y), 1)
            p.text(self.number(v, 1), 3 * u, (plot.x - 1.5 * u, y), theme.DIM, anchor="midright")
        avg = d.mpr_avg if d.mpr_avg is not None else sum(values) / len(values)
        ya = y_of(avg)
        for x in range(plot.x, plot.right, int(2 * u)):
            pygame.draw.line(
                p.surface,
                theme.DIM,
                (x, ya),
                (min(x + u, plot.right), ya),
                max(2, int(0.4 * u)),
            )
        n = len(values)
        points = [
            (plot.x + (plot.w * i / (n - 1) if n > 1 else plot.w / 2), y_of(v))
            for i, v in enumerate(values)
        ]
        if len(points) > 1:
            pygame.draw.lines(p.surface, theme.ACCENT, False, points, max(3, int(0.6 * u)))
        for px, py in points:
            pygame.draw.circle(p.surface, theme.ACCENT, (int(px), int(py)), max(3, int(0.9 * u)))
        # Side by side, never overlapping ("Последняя игра" is long): where both do not
        # fit, the box's width is shared as they need it, so they shrink alike.
        last = f"{self.t('Last game')}: {self.number(values[-1], 2)}"
        mean = f"{self.t('Average')}: {self.number(avg, 2)}"
        need = [p.fonts.get(int(4 * u), style).size(text)[0]
                for text, style in ((last, "bold"), (mean, "regular"))]  # fmt: skip
        share = min(1.0, (box.w - 2 * u) / max(1, sum(need)))
        p.text(last, 4 * u, (box.x, box.bottom + 1.5 * u), theme.ACCENT, style="bold",
               max_width=max(1.0, need[0] * share))  # fmt: skip
        p.text(mean, 4 * u, (box.right, box.bottom + 1.5 * u), theme.DIM, anchor="topright",
               max_width=max(1.0, need[1] * share))  # fmt: skip
