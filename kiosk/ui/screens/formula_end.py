"""The end of a formula game: win (PERFECT in ``min_rounds``), loss (time ran out,
rounds used up, ended from the game menu), a duel's result; every round with the
solver's best formula.

Keys: Enter plays again (new digits), ``/`` ``4`` ``.`` or Esc to the menu. After a
side game, Enter plays another, any other key or dart goes back (a dart, the board's
buttons and the match's questions to the Cricket match, as during the side game).
Enter is taken ``REMATCH_GUARD_S`` after the screen appeared (the key line offers it
then): one meant for the last move must not start the next game unseen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kiosk.adapters.keypad import KeyAction
from kiosk.domain.formula.game import FormulaGame, Termination
from kiosk.ui import theme
from kiosk.ui.context import ResultLine
from kiosk.ui.formula_session import FormulaSession, move_text
from kiosk.ui.i18n import fill
from kiosk.ui.screen import DartInput, Screen
from kiosk.ui.screens.formula_rounds import short_names
from kiosk.ui.screens.formula_view import shown_formula
from kiosk.ui.screens.results import RESULTS_IDLE_S, RematchGuard, back_to_attract_when_idle

DRAWN = (Termination.BOTH_ZERO, Termination.DRAW)
# The rounds table: its rows end above the keys' line (in % of the height), and each
# is at least ROW_MIN high when the heading can make room for it.
TABLE_BOTTOM = 91.0
ROW_MIN = 4.6
# The player's formula's column, and its share with the best formula's (fractions of the
# table's width; ``FormulaEndScreen._columns``)
FORMULA_COLUMN = 0.28
FORMULA_AND_BEST = 0.70


def end_title(game: FormulaGame, t: Any) -> tuple[str, str]:
    """(headline, reason) of a formula game that is over (a stored one too)."""
    outcome = game.outcome()
    if outcome is None:
        return "", ""
    solo = len(game.players) == 1
    if outcome.winner is not None:
        if outcome.perfect:  # a duel's winner named in the headline, not under it
            head = t("PERFECT!") if solo else fill(t("{name}: PERFECT!"), name=outcome.winner)
        elif solo:
            head = t("You win!")
        else:
            head = fill(t("{name} wins!"), name=outcome.winner)
        rounds = [r for r in game.history if r.moves][-1].number
        return head, fill(t("Score 0 in round {n}"), n=rounds)
    term = outcome.termination
    if term == Termination.CONCEDED:
        return t("Game ended"), t("You ended the game: it counts as lost")
    if term == Termination.TIMEOUT:
        return t("Time ran out"), t("No formula in time: the game is lost")
    used_up = fill(t("Rounds played: {n}, 0 not reached"), n=game.rules.max_rounds)
    if term == Termination.MAX_ROUNDS:
        return t("Rounds used up"), used_up
    if term == Termination.BOTH_ZERO:
        return t("Draw!"), t("Both reached 0")
    if term == Termination.BOTH_LOSE:
        return t("Both lose"), used_up
    return t("Draw!"), used_up


def formula_line(game: FormulaGame) -> ResultLine:
    """A formula game that is over, as the attract screen's last results say it."""
    outcome = game.outcome()
    assert outcome is not None

    def detail(t: Callable[[str], str]) -> str:
        return t("PERFECT!") if outcome.perfect else end_title(game, t)[1]

    drawn = outcome.termination in DRAWN
    return ResultLine("Formula darts", outcome.winner, tuple(game.players), detail,
                      all_lost=outcome.winner is None and not drawn)  # fmt: skip


class FormulaEndScreen(Screen):
    name = "formula-end"

    def __init__(self, kiosk: Any, session: FormulaSession, side: Any = None) -> None:
        super().__init__(kiosk)
        self.session = session
        self.side = side
        self.idle_since = time.monotonic()
        self.rematch = RematchGuard()
        if side is None and session.over:  # for the attract screen, as said here
            kiosk.add_result(formula_line(session.game))

    def update(self, now: float) -> None:
        if self.rematch.update(now):
            self.dirty = True  # (Enter offered on the key line)
        if self.side is None:  # (a side game's end waits over the match)
            back_to_attract_when_idle(self.kiosk, self.idle_since, now)

    def wake_at(self) -> float | None:
        times = [self.rematch.wake_at()]
        if self.side is None:
            times.append(self.idle_since + RESULTS_IDLE_S)
        return min((t for t in times if t is not None), default=None)

    def seen(self) -> None:
        self.rematch.seen()
        self.dirty = True

    def process_event(self, event: Any) -> None:
        self.idle_since = time.monotonic()
        if self.side is not None:
            self.back_to_side(event)
        elif isinstance(event, KeyAction):
            self.key(event)

    def key(self, event: KeyAction) -> None:
        from kiosk.ui.screens.formula import rematch_setup, start_formula
        from kiosk.ui.screens.main_menu import MainMenu

        if event.name == "enter":
            if self.rematch.taken(self.name):
                start_formula(self.kiosk, rematch_setup(self.session.setup))
        elif event.name in ("menu", "cancel", "back") or event.char == "4":
            self.kiosk.stack.reset(MainMenu(self.kiosk))

    def back_to_side(self, event: Any) -> None:
        """After a side game: Enter plays another (once taken, ``REMATCH_GUARD_S``: before,
        it does nothing, nor goes back: the end is there to be read), any other key
        returns to Cricket. The match's own inputs go to it as during the side game: a
        dart (back to the scoreboard with it), its questions, darts pulled, the board's
        buttons."""
        from kiosk.ui.screens.formula_play import FormulaSideGame, is_board_button

        stack = self.kiosk.stack
        cricket = self.side.cricket

        def back() -> None:
            while stack.top is not cricket and len(stack) > 1:
                stack.pop()

        if isinstance(event, KeyAction) and event.name == "enter":
            if self.rematch.taken(self.name):
                stack.pop()
                stack.replace(FormulaSideGame(self.kiosk, cricket, self.side.side_player))
        elif isinstance(event, DartInput):
            back()
            cricket.process_event(event)
        elif is_board_button(event):
            back()
            cricket.process_event(event)  # the press is the match's
        elif self.side.for_the_match(event, back):
            self.dirty = True
        elif isinstance(event, KeyAction):
            back()

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        t = self.t
        s = self.session
        head, reason = end_title(s.game, t)
        outcome = s.game.outcome()
        colour = theme.BAD  # lost: time ran out, rounds used up, ended, both lost
        if outcome is not None and outcome.winner is not None:
            colour = theme.ACCENT
        elif outcome is not None and outcome.termination in DRAWN:
            colour = theme.TEXT  # a draw is no loss: not in the loss's red
        lines = self._lines()
        # A long duel (14 rows) under the full-size heading had rows of 13 px at
        # 800x480: the heading then makes room, so each row stays readable.
        compact = len(lines) * ROW_MIN > TABLE_BOTTOM - 31 - 3.6
        y_head, y_reason, y_scores, top = (6.5, 13.5, 18.5, 22.5) if compact else (10, 20, 26.5, 31)
        p.text(head, (9 if compact else 13) * u, (w / 2, y_head * u), colour, anchor="center",
               style="bold", max_width=w * 0.94)  # fmt: skip
        p.text(reason, 3.6 * u, (w / 2, y_reason * u), theme.TEXT, anchor="center",
               max_width=w * 0.94)  # fmt: skip
        if len(s.players) > 1:
            scores = "   ".join(f"{q}: {s.game.score(q)}" for q in s.players)
            p.text(scores, 4.4 * u, (w / 2, y_scores * u), theme.TEXT, anchor="center",
                   style="bold", max_width=w * 0.94)  # fmt: skip
        self._table(p, top * u, lines)
        # Enter offered once it is taken (``REMATCH_GUARD_S``)
        live = self.rematch.live
        if self.side is not None and live:
            foot = t("Enter: another side game · any other key: back to Cricket")
        elif self.side is not None:
            foot = t("Any key but Enter: back to Cricket")
        else:
            foot = t("Enter: play again · / or 4: menu") if live else t("/ or 4: menu")
        p.text(foot, 3.4 * u, (w / 2, 95 * u), theme.DIM, anchor="center", max_width=w * 0.94)

    def _lines(self, initials: bool = False) -> list[tuple[str, ...]]:
        """The table's rows: one a move, its round's number and digits on its first; in
        a duel, whose move by the player's name (``initials``: by theirs, "CF")."""
        t = self.t
        s = self.session
        who = dict(zip(s.players, short_names(s.players) if initials else s.players, strict=True))
        lines: list[tuple[str, ...]] = []
        for rnd in s.finished_rounds():
            for i, move in enumerate(rnd.moves):
                text = shown_formula(move_text(move)) if move.formula else t(move_text(move))
                if len(s.players) > 1:
                    text = f"{who.get(move.player, move.player)}: {text}"
                best = s.best_for(rnd.number, move.player)
                best_text = f"{shown_formula(best.formula)} = {best.result} ({best.points:+d})"
                pts = "" if move.result is None else f"{move.points:+d}"
                first = str(rnd.number) if i == 0 else ""
                digits = str(rnd.digits) if i == 0 else ""
                lines.append((first, digits, text, pts, str(move.score), best_text))
        return lines

    def _table(self, p: theme.Painter, top: float, lines: list[tuple[str, ...]]) -> None:
        u, w = p.u, p.w
        t = self.t
        x0, width = w * 0.03, w * 0.94
        small = theme.SMALL * u
        row_h = min(6 * u, (TABLE_BOTTOM * u - top - 3.6 * u) / max(1, len(lines)))
        px = min(row_h * 0.75, 4.2 * u)

        def rooms_of(cols: tuple[float, ...]) -> list[float]:
            return [((cols[k + 1] if k + 1 < len(cols) else 1.0) - cols[k]) * width - 8
                    for k in range(len(cols))]  # fmt: skip

        def column_size(k: int, rows: list[tuple[str, ...]], rooms: list[float]) -> float:
            return min([p.fit(row[k], px, rooms[k]) for row in rows], default=px)

        cols = self._columns(p, lines, px, width)
        rooms = rooms_of(cols)
        players = self.session.players
        if len(players) > 1 and int(column_size(2, lines, rooms)) < int(small):
            named = lines, cols
            lines = self._lines(initials=True)  # ("CF: 45+8*9 = 117")
            cols = self._columns(p, lines, px, width)
            rooms = rooms_of(cols)
            if int(column_size(2, lines, rooms)) < int(small) and all(len(q) <= 8 for q in players):
                lines, cols = named  # (a long formula, not long names: "Anna" is kept)
                rooms = rooms_of(cols)
        # (each head fits its column at the smallest size a player reads, in English,
        # Ukrainian and Russian, down to 800x480: "Рахунок")
        heads = ("#", t("Digits"), t("Formula"), t("Pts"), t("Score"), t("Best"))
        # One size for the heads, as for each column below
        size = max(small, min(p.fit(head, small, rooms[k]) for k, head in enumerate(heads)))
        for k, head in enumerate(heads):
            p.text(head, size, (x0 + cols[k] * width, top), theme.DIM, max_width=rooms[k])
        # One size down each column, that of its longest cell: a cell shrunk on its own
        # made the "Best" column jump from size to size, row by row. Never below the
        # smallest size a player reads: a cell longer still is shortened.
        sizes = [max(small, column_size(k, lines, rooms)) for k in range(len(cols))]
        for r, row in enumerate(lines):
            y = top + 3.6 * u + r * row_h
            p.rect((x0, y - 0.3 * u, width, row_h * 0.92), theme.PANEL if r % 2 == 0 else theme.BG)
            for k, cell in enumerate(row):
                colour = theme.ACCENT if k == 5 else theme.TEXT
                shown = p.shortened(
                    cell, sizes[k], rooms[k], keep_from=" = " if k in (2, 5) else ""
                )
                p.text(shown, sizes[k],
                       (x0 + cols[k] * width + 4, y), colour, max_width=rooms[k])  # fmt: skip

    @staticmethod
    def _columns(
        p: theme.Painter, lines: list[tuple[str, ...]], px: float, width: float
    ) -> tuple[float, ...]:
        """Where the columns start, in fractions of the table's ``width``. The player's
        formula and the best one share what the other columns leave: 28 % and 42 %
        while their cells fit there, else in proportion to their longest cells, the
        player's formula taking up to 42 %, and never less than it needs at the smallest
        size while the best one fits too (else the best one is shortened first). Its
        cell also holds whose move it is: a Russian league duel's "<name>: pow(2-9,3…
        = 2401" was cut at 1280x720 beside a "Best" column half empty."""
        shared, formula = FORMULA_AND_BEST, FORMULA_COLUMN
        most = shared - formula  # (the best column keeps at least the formula's 28 %)

        def need(k: int, size: float) -> float:
            font = p.fonts.get(int(size), "regular")
            return max((font.size(row[k])[0] + 12 for row in lines), default=0) / width

        def need_shortened(k: int, size: float) -> float:
            # (its start shortened to one letter: "6… = 49412580000000 (+150)")
            font = p.fonts.get(int(size), "regular")
            cells = [row[k][:1] + theme.ELLIPSIS + row[k][row[k].rfind(" = "):]
                     for row in lines if " = " in row[k]]  # fmt: skip
            return max((font.size(c)[0] + 12 for c in cells), default=0) / width

        mine, best = need(2, px), need(5, px)
        if mine > formula or best > shared - formula:
            least_mine, least_best = need(2, theme.SMALL * p.u), need(5, theme.SMALL * p.u)
            if least_mine + least_best <= shared:
                share = shared * mine / (mine + best)
                formula = min(max(share, least_mine), shared - least_best)
            else:  # the best one shortened, but never into its result ("= 49412580…")
                formula = min(least_mine, shared - need_shortened(5, theme.SMALL * p.u))
            formula = min(max(formula, FORMULA_COLUMN), most)
        start = 0.13  # after "#" and the digits
        return (0.0, 0.05, start, start + formula, start + formula + 0.07, start + formula + 0.17)
