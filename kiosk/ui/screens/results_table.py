"""The results screen's table: a row a player (place and name, then their figures), a
column a figure.

Each column is as wide as its head (on two lines where it has two words) and its
figures need; the names take the rest, on two lines where one would not be read
from the oche. Where even that leaves the names too little room (an 800x480 display,
long translations), the figures least asked about go (``LEFT_OUT_FIRST``): nothing
is shrunk below the smallest size a player reads (``theme.SMALL``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.ui import theme

MARK_TURNS_LISTED = 4  # more 5+ mark turns than this: the best ones and "+N"


def mark_turns_text(mark_turns: dict[int, int]) -> str:
    """A player's 5-9 mark turns, best first, one figure a turn: "9, 7, 5" (a 9-mark
    turn, a 7 and a 5), "8, 6, 5 +3" past ``MARK_TURNS_LISTED``, an en dash for none.
    Their count alone hid the 9-mark turn the bar talks about; with spaces only, two
    9-mark turns, "9 9", read as 99."""
    turns = [marks for marks, n in sorted(mark_turns.items(), reverse=True) for _ in range(n)]
    if not turns:
        return "\u2013"
    if len(turns) <= MARK_TURNS_LISTED:
        return ", ".join(map(str, turns))
    shown = MARK_TURNS_LISTED - 1
    return ", ".join(map(str, turns[:shown])) + f" +{len(turns) - shown}"


# (header msgid, value (a number, or text as it is shown), decimals)
COLUMNS: tuple[tuple[str, Callable[[Any], float | str], int], ...] = (
    ("Points", lambda s: s.points, 0),
    ("MPR", lambda s: s.mpr, 2),
    ("Marks", lambda s: s.marks, 0),
    ("Darts", lambda s: s.darts, 0),
    ("Triples", lambda s: s.triples, 0),
    ("White horse", lambda s: s.white_horses, 0),
    ("Hat trick", lambda s: s.hat_tricks, 0),
    ("5+ mark turns", lambda s: mark_turns_text(s.mark_turns), 0),
)
# Left out in this order where the names would have too little room: figures the
# others add up to (darts: marks / MPR) or rarely other than 0.
LEFT_OUT_FIRST = ("Darts", "Hat trick", "Triples")
NAMES_MIN = 0.2  # of the table's width: the names' column at the least
GAP_U = 1.6  # between two columns' widest texts, in units


@dataclass(frozen=True)
class Column:
    label: str  # the msgid
    head: tuple[str, ...]  # its lines, translated
    figures: tuple[str, ...]  # a row's each
    width: float
    centre: float = 0.0


@dataclass(frozen=True)
class Row:
    name: str  # "1. Anna"
    figures: tuple[str, ...]  # in ``COLUMNS``' order
    won: bool


def _column(p: theme.Painter, label: str, head: str, figures: Sequence[str], size: float) -> Column:
    """A column as narrow as its texts allow: the head on two lines if that is narrower."""
    u, small = p.u, theme.SMALL * p.u
    one = p.fonts.get(int(small)).size(head)[0]
    two = p.two_lines(head, small, one - 1, keep=1.0)  # (split wherever it can be)
    lines = [head] if len(two) == 1 else two
    head_w = max(p.fonts.get(int(small)).size(line)[0] for line in lines)
    figure_w = max((p.fonts.get(int(size)).size(f)[0] for f in figures), default=0)
    return Column(label, tuple(lines), tuple(figures), max(head_w, figure_w) + GAP_U * u)


def layout(
    p: theme.Painter, heads: Sequence[str], rows: Sequence[Row], size: float, width: float
) -> tuple[float, list[Column]]:
    """-> (the names' width, the columns shown, placed from x = 0 after the names)."""
    columns = [
        _column(p, label, head, [row.figures[k] for row in rows], size)
        for k, ((label, _, _), head) in enumerate(zip(COLUMNS, heads, strict=True))
    ]
    for label in LEFT_OUT_FIRST:
        if width - sum(c.width for c in columns) >= NAMES_MIN * width:
            break
        columns = [c for c in columns if c.label != label]
    names_need = max(p.fonts.get(int(size), "bold").size(r.name)[0] for r in rows) + 3 * p.u
    room = width - sum(c.width for c in columns)
    names_w = max(min(room, max(names_need, 0.24 * width)), NAMES_MIN * width)
    spare = max(0.0, room - names_w) / max(1, len(columns))  # shared out: an even table
    placed, x = [], names_w
    for c in columns:
        w = c.width + spare
        placed.append(Column(c.label, c.head, c.figures, w, x + w / 2))
        x += w
    return names_w, placed


def draw_table(
    p: theme.Painter, heads: Sequence[str], rows: Sequence[Row], top: float, dim_figure: str
) -> float:
    """The heads at ``top``, then a row a player; ``dim_figure``: a column whose figures
    mean nothing in this game (no-score's points), shown as a dash. -> the rows' bottom."""
    u, w = p.u, p.w
    x0, width = w * 0.03, w * 0.94
    row_h = min(10 * u, 48 * u / max(1, len(rows)))
    size = row_h * 0.42
    names_w, columns = layout(p, heads, rows, size, width)
    small = theme.SMALL * u
    for c in columns:
        p.lines(list(c.head), small, (x0 + c.centre, top), theme.DIM,
                max_width=c.width, leading=1.1)  # fmt: skip
    y = top + 4 * u
    labels = [label for label, _, _ in COLUMNS]
    for r, row in enumerate(rows):
        ry = y + r * row_h
        p.rect((x0, ry, width, row_h * 0.9), theme.PANEL_HI if row.won else theme.PANEL, radius=u)
        room = names_w - 2 * u
        lines, px = p.wrapped(row.name, size, room, "bold", floor=small)
        p.lines(lines, px, (x0 + 1.5 * u, ry + row_h * 0.45), theme.ACCENT if row.won else
                theme.TEXT, max_width=room, style="bold", anchor="midleft")  # fmt: skip
        for c in columns:
            figure = row.figures[labels.index(c.label)]
            p.text("\u2013" if c.label == dim_figure else figure, size,
                   (x0 + c.centre, ry + row_h * 0.45), theme.TEXT, anchor="center",
                   max_width=c.width - u)  # fmt: skip
    return y + len(rows) * row_h
