"""The formula screen's table of the rounds played, under the scores (drawn by
``formula_view.draw_formula``; reads the session, changes nothing).

One row a move: the round's number and digits (once a round), in a duel whose move
it is, the formula (in the player's colour, as their score box), its points and the
score it left. A duel's rows keep the players' order (seat 1 first) whoever answered
first, and each says whose it is by the player's initials: a colour alone does not
tell the two apart for a colour-blind player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kiosk.ui import theme
from kiosk.ui.formula_session import move_text
from kiosk.ui.screens.formula_view import Layout, shown_formula

if TYPE_CHECKING:
    from kiosk.ui.screens.formula_play import FormulaScreen


COLUMN_MAX = 0.17  # of the table's width, for any column but the formula's


def short_names(names: Sequence[str]) -> list[str]:
    """Initials that tell the players apart: "A" "B" (Anna, Boris); "BK" (Bohdan
    Kostiantynovych); "P1" "P2" (Player 1, Player 2); "An" "Ar" (Anna, Artem)."""
    words = [name.split() or [name] for name in names]
    longest = max((len(w[0]) for w in words), default=0)
    for k in range(1, longest + 1):
        labels = [w[0][:k] + "".join(x[0] for x in w[1:]) for w in words]
        if len(set(labels)) == len(labels):
            return labels
    return list(names)


def draw_rounds(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    t = screen.t
    s = screen.session
    duel = len(s.players) > 1
    initials = dict(zip(s.players, short_names(s.players), strict=True))
    rows: list[tuple[str, ...]] = []
    colours: list[tuple[int, ...]] = []
    firsts: list[bool] = []  # a round's first row: its number and digits written once
    for rnd in s.finished_rounds():
        moves = sorted(rnd.moves, key=lambda m: s.players.index(m.player))
        for n, move in enumerate(moves):
            formula = shown_formula(move_text(move)) if move.formula else t(move_text(move))
            if duel and move.formula and not move.auto:
                # The formula alone (the points and score are beside it): a name cut to
                # 8 letters read like a typo. Whose it is: the initials before it.
                formula = shown_formula(move.formula)
            pts = "" if move.result is None else f"{move.points:+d}"
            who = (initials.get(move.player, move.player),) if duel else ()
            rows.append((str(rnd.number), str(rnd.digits), *who, formula, pts, str(move.score)))
            firsts.append(n == 0)
            seat = s.players.index(move.player) if move.player in s.players else 0
            colours.append(theme.PLAYER_COLOURS[seat % 4] if duel else theme.TEXT)
    top = L.y(53)
    row_h = L.s(4.4)
    heads: tuple[str, ...] = ("#", t("Digits"), t("Formula"), t("Pts"), t("Score"))
    if duel:  # whose row: a column of initials before the formula
        heads = ("#", t("Digits"), "", t("Formula"), t("Pts"), t("Score"))
    formula_col = heads.index(t("Formula"))
    coloured = (2, 3) if duel else (2,)  # the initials and the formula
    styles = ["bold" if duel and k == 2 else "regular" for k in range(len(heads))]
    # Each column as wide as its widest cell (the round number, 4 digits, initials...)
    # or its head; the formula takes the rest. Fixed shares of the width shrank the
    # round's number to a speck at 800x480.
    widths = [0.0] * len(heads)
    head_px = L.small(3)  # (the smallest size a player reads: each head fits at it)
    cell_px = L.small(3.2)
    head_ws = [p.fonts.get(int(head_px)).size(head)[0] + 1.2 * p.u for head in heads]
    widest = [
        "8" * len(str(s.rules.max_rounds)),
        "8888",
        *([""] if duel else []),
        "",
        "+150",
        "888",
    ]
    for k in range(len(heads)):
        if k == formula_col:
            continue
        font = p.fonts.get(int(cell_px), styles[k])
        cells = [row[k] for row in rows] + widest[k : k + 1]
        value = max((font.size(cell)[0] for cell in cells), default=0)
        widths[k] = value + 1.2 * p.u
    width = x1 - x0
    # A huge negative result's points and score (ten digits and more) are shrunk into
    # their column: grown to fit, they squeezed the formula to a speck under them. Its
    # head is not ("Рахунок" shrunk to a speck beside "Оч.").
    widths = [
        w if k == formula_col else max(min(w, width * COLUMN_MAX), head_ws[k])
        for k, w in enumerate(widths)
    ]
    widths[formula_col] = max(0.0, width - sum(widths))
    lefts = [x0 + sum(widths[:k]) for k in range(len(heads))]
    # A duel's "Formula" heads the initials' column too (it has none): a narrow
    # formula column at 800x480 left it no room.
    head_lefts, head_rooms = list(lefts), [w - 0.6 * p.u for w in widths]
    if duel:
        head_lefts[formula_col] = lefts[formula_col - 1]
        head_rooms[formula_col] += widths[formula_col - 1]
    # One size for the heads ("Рахунок" shrunk on its own beside a full-size "Оч.")
    size = min(p.fit(head, head_px, head_rooms[k]) for k, head in enumerate(heads))
    for k, head in enumerate(heads):
        p.text(head, size, (head_lefts[k], top), theme.DIM, max_width=head_rooms[k])
    fit = int((L.y(99) - top - row_h) // row_h)
    shown = list(zip(rows, colours, firsts, strict=True))[-fit:] if fit > 0 else []
    for r, (row, colour, first) in enumerate(shown):
        if not first and r > 0:  # (the top row says its round, its first row scrolled off)
            row = ("", "", *row[2:])
        y = top + (r + 1) * row_h
        p.rect((x0, y - 0.3 * p.u, width, row_h * 0.92), theme.PANEL if r % 2 == 0 else theme.BG)
        for k, cell in enumerate(row):
            if k == formula_col:  # (too long for its column: its start, an ellipsis, and
                # its result if it says one)
                cell = p.shortened(cell, cell_px, widths[k] - 0.6 * p.u, styles[k], keep_from=" = ")
            p.text(cell, cell_px, (lefts[k] + 2, y), colour if k in coloured else theme.TEXT,
                   style=styles[k], max_width=widths[k] - 0.6 * p.u)  # fmt: skip
