"""Drawing the formula screen (reads the screen's state, changes nothing but caches).

Left: the round's four digits, huge (used ones dim, the next one outlined), the
formula as typed with the refused place in red, the live preview (value, points, the
score it leaves) and the keypad legend in the keypad's own shape. Right: the clock
(red in the last 10 s), the score(s), whether a perfect game is still possible, the
rounds so far. Between turns the left side shows who is next, or the round's result
with the solver's best formula.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

import pygame

from kiosk.domain.formula import solver
from kiosk.domain.formula.errors import CODES, FormulaError
from kiosk.domain.formula.rules import Rules
from kiosk.ui import theme
from kiosk.ui.entry import dart_name
from kiosk.ui.formula_session import OVER, PLAYING, READY, WARN_AT, move_text
from kiosk.ui.i18n import DECIMAL_MARKS, fill

if TYPE_CHECKING:
    from kiosk.ui.formula_session import FormulaSession
    from kiosk.ui.screens.formula_play import FormulaScreen

MODE_LABELS = {"training": "Training", "qualification": "Qualification", "duel": "Duel"}
# The keypad's shape: (column, row, columns wide, rows tall, key, what it does)
KEYPAD = (
    (0, 0, 1, 1, "NumLk", ""), (1, 0, 1, 1, "/", "\u00f7"), (2, 0, 1, 1, "*", "\u00d7"),
    (3, 0, 1, 1, "-", "\u2212"), (0, 1, 1, 1, "7", "("), (1, 1, 1, 1, "8", "pow("),
    (2, 1, 1, 1, "9", ")"), (3, 1, 1, 2, "+", "+"), (0, 2, 1, 1, "4", "menu"),
    (1, 2, 1, 1, "5", "sqrt("), (2, 2, 1, 1, "6", ","), (0, 3, 1, 1, "1", "hint"),
    (1, 3, 1, 1, "2", ""), (2, 3, 1, 1, "3", ""), (3, 3, 1, 2, "Enter", "submit"),
    (0, 4, 2, 1, "0", "next digit"), (2, 4, 1, 1, ".", "delete"),
)  # fmt: skip


# The engine's refusals that carry a number: (code, English pattern, msgid template).
# The rest are fixed texts, translated as they are; an unknown one by its code.
REFUSAL_TEMPLATES = (
    ("wrong_digit", r"(?P<d>\d) is not a digit of (?P<n>\d+)", "{d} is not a digit of {n}"),
    ("extra_digit", r"digit (?P<d>\d) can be used only once", "digit {d} can be used only once"),
    ("extra_digit", r"digit (?P<d>\d) can be used only (?P<k>\d+) times",
     "digit {d} can be used only {k} times"),
    ("missing_digit", r"digit (?P<d>\d) is missing", "digit {d} is missing"),
    ("missing_digit", r"digits (?P<list>[\d, ]+) and (?P<d>\d) are missing",
     "digits {list} and {d} are missing"),
    ("digit_order", r"digits must come in the order (?P<order>[\d ]+)",
     "digits must come in the order {order}"),
    ("not_whole", r"not a whole number: (?P<value>.+)", "not a whole number: {value}"),
)  # fmt: skip


def refusal_text(t: Callable[[str], str], error: FormulaError, mark: str = ".") -> str:
    """The engine's refusal in the player's language: the message itself if it is in
    the catalogue, else its template with the numbers put back (a decimal written with
    the language's ``mark``), else the code's general text; English when none of these
    is translated."""
    message = error.message
    translated = t(message)
    if translated != message:
        return translated
    for code, pattern, template in REFUSAL_TEMPLATES:
        found = re.fullmatch(pattern, message)
        if code == error.code and found is not None:
            fields = found.groupdict()
            value = fields.get("value", "")
            if any(c.isalpha() for c in value):
                break  # 4.99317e-137, inf: no figure a player reads; the general text
            if value:
                fields["value"] = value.replace(".", mark)
            return fill(t(template), **fields)
    general = CODES.get(error.code)
    if general is not None and t(general) != general:
        return t(general)
    return message


class Layout:
    """Units of 1% of the height, below the side game's strip when there is one."""

    def __init__(self, p: theme.Painter, top_margin: float) -> None:
        self.u = p.u
        self.top = top_margin * p.u
        self.k = (100.0 - top_margin) / 100.0

    def y(self, v: float) -> float:
        return self.top + v * self.k * self.u

    def s(self, v: float) -> float:
        return v * self.k * self.u

    def small(self, v: float) -> float:
        """A secondary text's size: ``s(v)``, never below the smallest a player reads
        (under the side game's strip everything else is a little smaller)."""
        return max(self.s(v), theme.SMALL * self.u)


def shown_formula(text: str) -> str:
    """The formula as shown: ``*`` as a times sign (one character for one: positions hold)."""
    return text.replace("*", "\u00d7")


NO_CLOCK = "\u2013:\u2013\u2013"  # no time to show


def clock_text(seconds: float) -> str:
    whole = int(seconds + 0.999)
    return f"{whole // 60}:{whole % 60:02d}"


def draw_formula(p: theme.Painter, screen: FormulaScreen) -> None:
    from kiosk.ui.screens.formula_rounds import draw_rounds

    L = Layout(p, screen.top_margin)
    w = p.w
    x0, x1 = 2 * p.u, w * 0.60
    xr = w * 0.63
    _header(p, screen, L, x0, w - 2 * p.u)
    s = screen.session
    if s.phase == PLAYING:
        _digits(p, screen, L, x0, x1)
        _formula_line(p, screen, L, x0, x1)
    elif s.phase == READY:
        _ready(p, screen, L, x0, x1)
    else:
        _round_result(p, screen, L, x0, x1)
    _legend(p, screen, L, x0, x1)
    _clock(p, screen, L, xr, w - 2 * p.u)
    _scores(p, screen, L, xr, w - 2 * p.u)
    draw_rounds(p, screen, L, xr, w - 2 * p.u)
    if screen.top_margin:
        _cricket_strip(p, screen, L)


def _header(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    s = screen.session
    t = screen.t
    parts = [t("Formula darts"), t(s.rules.name.capitalize()), t(MODE_LABELS[s.setup.mode])]
    if s.setup.computer:
        parts.append(f"{t('Computer')}: {t(s.setup.computer.capitalize())}")
    has_name = s.player is not None and len(s.players) > 1
    room = (x1 - x0) * (0.4 if has_name else 0.6)
    title = " · ".join(parts)
    if p.fit(title, L.s(3.4), room) < L.s(3.4) * 5 / 6:
        title = " · ".join(parts[1:])  # (the screen says it is formula darts) not a speck
    left = p.text(title, L.s(3.4), (x0, L.y(4)), theme.DIM, anchor="midleft", max_width=room)
    number = s.shown_round.number if s.phase != PLAYING and s.shown_round else s.game.round
    if s.phase == READY:
        number = s.game.round
    rnd = f"{t('Round')} {number} / {s.rules.max_rounds}"
    right = p.text(rnd, L.s(4.8), (x1, L.y(4)), theme.TEXT, anchor="midright", style="bold")
    if has_name and s.player is not None:
        # Between the title and the round, never over either (a long title: a computer
        # opponent named in it).
        colour = theme.PLAYER_COLOURS[s.players.index(s.player) % len(theme.PLAYER_COLOURS)]
        room = right.left - left.right - 4 * p.u
        p.text(f"\u25b6 {s.player}", L.s(4.8), ((left.right + right.left) / 2, L.y(4)), colour,
               anchor="center", style="bold", max_width=room)  # fmt: skip


def _digits(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    digits = screen.editor.digits
    used = screen.editor.used
    gap = 2 * p.u
    box_w = min((x1 - x0 - 3 * gap) / 4, L.s(19))
    left = x0 + (x1 - x0 - 4 * box_w - 3 * gap) / 2
    top, h = L.y(9), L.s(21)
    for i, d in enumerate(digits):
        rect = pygame.Rect(int(left + i * (box_w + gap)), int(top), int(box_w), int(h))
        nxt = i == used
        p.rect(rect, theme.PANEL_HI if nxt else theme.PANEL, radius=p.u)
        if nxt:
            p.rect(rect, theme.ACCENT, radius=p.u, width=max(3, int(0.6 * p.u)))
        colour = theme.GREY if i < used else (theme.ACCENT if nxt else theme.TEXT)
        p.text(d, h * 0.86, rect.center, colour, anchor="center", style="condensed")
        if i < used:
            pygame.draw.line(p.surface, theme.GOOD, (rect.x + box_w * 0.2, rect.bottom - h * 0.12),
                             (rect.right - box_w * 0.2, rect.bottom - h * 0.12),
                             max(3, int(0.7 * p.u)))  # fmt: skip


def _formula_line(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    t = screen.t
    s = screen.session
    text = screen.editor.text
    preview = s.preview(text)
    box = pygame.Rect(int(x0), int(L.y(32)), int(x1 - x0), int(L.s(13)))
    p.rect(box, theme.PANEL, radius=p.u)
    p.rect(box, theme.LINE, radius=p.u, width=max(2, int(0.25 * p.u)))
    whole = shown_formula(text)
    position = screen.error_position
    if preview.error is not None and not preview.still_typing:
        position = preview.error.position
    room = box.w - 4 * p.u
    # Shrunk to fit, but never below a size read from the oche: a longer formula shows
    # the part being typed (or the refused place) with an ellipsis for the rest.
    size = max(p.fit(whole + "  ", L.s(8.5), room, "bold"), L.s(FORMULA_MIN))
    font = p.fonts.get(int(size), "bold")
    # The end where typing goes, unless a refused submit points further back.
    start, end = formula_window(whole, screen.error_position, lambda part: font.size(part)[0], room)
    before = ELLIPSIS if start > 0 else ""
    shown = before + whole[start:end] + (ELLIPSIS if end < len(whole) else "")
    tx = box.x + 2 * p.u
    if position is not None and start <= position <= end and position <= len(whole):
        px = font.size(before + whole[start:position])[0]
        cw = font.size(whole[position])[0] if position < len(whole) else int(size * 0.5)
        mark = pygame.Rect(int(tx + px - 2), int(box.y + p.u), int(cw + 4), int(box.h - 2 * p.u))
        p.rect(mark, theme.BAD, radius=0.5 * p.u)
    if shown:
        p.text(shown, size, (tx, box.centery), theme.TEXT, anchor="midleft", style="bold",
               max_width=room)  # fmt: skip
    cursor_x = tx + font.size(shown)[0] + 2
    if end == len(whole):  # (the end, where typing goes, is in sight)
        pygame.draw.rect(p.surface, theme.ACCENT,
                         (int(cursor_x), int(box.y + 2 * p.u), max(3, int(0.5 * p.u)),
                          int(box.h - 4 * p.u)))  # fmt: skip
    if not shown:
        nxt = screen.editor.next_digit
        p.text(t("Press 0 for the first digit ({digit})").replace("{digit}", nxt or ""),
               L.s(4), (cursor_x + 2 * p.u, box.centery), theme.DIM, anchor="midleft",
               max_width=box.right - cursor_x - 3 * p.u)  # fmt: skip
    y = L.y(51)
    if preview.value is not None:
        r = p.text(f"= {preview.value}", L.s(6.5), (x0, y), theme.TEXT, anchor="midleft",
                   style="bold", max_width=(x1 - x0) * 0.45)  # fmt: skip
        pts = f"{preview.points:+d} {t('points')}"
        colour = theme.GOOD if preview.gains else theme.BAD  # the score goes up: a warning
        # A huge negative result (-pow(9,8)*76: ten-digit points and score) shares the
        # line's room with its score, never past the pane into the right-hand column.
        rest = x1 - r.right - 6 * p.u
        r = p.text(pts, L.s(5), (r.right + 3 * p.u, y), colour, anchor="midleft", style="bold",
                   max_width=rest * 0.5)  # fmt: skip
        after = f"\u2192 {t('score')} {preview.score_after}"
        p.text(after, L.s(5), (r.right + 3 * p.u, y), theme.ACCENT, anchor="midleft",
               style="bold", max_width=max(1.0, x1 - r.right - 3 * p.u))  # fmt: skip
    elif preview.error is not None and text:
        refused = text == screen.refused_text
        colour = theme.DIM if preview.still_typing and not refused else theme.BAD
        decimal = DECIMAL_MARKS.get(screen.kiosk.settings.language, ".")
        p.text(refusal_text(t, preview.error, decimal), L.s(4.6), (x0, y), colour, anchor="midleft",
               style="bold", max_width=x1 - x0)  # fmt: skip
    line = ""
    colour = theme.ACCENT
    if screen.message:
        line, colour = screen.message, theme.BAD if screen.message_bad else theme.ACCENT
    elif s.hint is not None:
        h = s.hint
        line = f"{t('Hint')}: {shown_formula(h.formula)} = {h.result} ({h.points:+d})"
    if line:  # (on two lines rather than smaller: Russian at 800x480)
        lines, size = p.wrapped(line, L.s(3.8), x1 - x0, "bold", floor=L.small(3), keep=0)
        p.lines(lines, size, (x0, L.y(58 if len(lines) == 1 else 57.3)), colour,
                max_width=x1 - x0, style="bold", anchor="midleft")  # fmt: skip


FORMULA_MIN = 5.0  # the formula's smallest size, in % of the height
ELLIPSIS = "\u2026"


def formula_window(
    text: str, position: int | None, width_of: Callable[[str], float], room: float
) -> tuple[int, int]:
    """The part ``text[start:end]`` of a formula that fits ``room`` with an ellipsis
    for each part left out: all of it if it fits, else its end (where typing goes),
    or, when a refused ``position`` is further back, the part from just before it."""
    if width_of(text + "  ") <= room:
        return 0, len(text)
    # (bisected: a keyboard's letters can make a long text, and this runs each frame)
    low, high = 1, len(text)  # the first start whose tail fits
    while low < high:
        mid = (low + high) // 2
        if width_of(ELLIPSIS + text[mid:] + " ") <= room:
            high = mid
        else:
            low = mid + 1
    if position is None or position >= low:
        return low, len(text)
    start = max(0, position - 3)
    before = ELLIPSIS if start else ""
    low, high = position + 1, len(text)  # the last end that fits
    while low < high:
        mid = (low + high + 1) // 2
        if width_of(before + text[start:mid] + ELLIPSIS) <= room:
            low = mid
        else:
            high = mid - 1
    return start, low


def _ready(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    t = screen.t
    s = screen.session
    cx = (x0 + x1) / 2
    player = s.player or ""
    colour = (
        theme.PLAYER_COLOURS[s.players.index(player) % 4] if player in s.players else theme.TEXT
    )
    p.text(player, L.s(11), (cx, L.y(20)), colour, anchor="center", style="bold",
           max_width=x1 - x0)  # fmt: skip
    p.text(t("Press Enter to see the digits"), L.s(5.5), (cx, L.y(34)), theme.ACCENT,
           anchor="center", style="bold", max_width=x1 - x0)  # fmt: skip
    budget = s.time_for(player) if player in s.players else s.time_limit
    p.text(f"{t('Your clock starts then')}: {clock_text(budget)}", L.s(4), (cx, L.y(43)),
           theme.TEXT, anchor="center", max_width=x1 - x0)  # fmt: skip
    answered = [q for q in s.players if q != player and s.game.history[-1].move(q)]
    if answered:
        note = f"{', '.join(answered)} {t('has answered: the formula stays hidden')}"
        p.text(note, L.s(3.4), (cx, L.y(51)), theme.DIM, anchor="center", max_width=x1 - x0)
    if screen.message:
        p.text(screen.message, L.s(3.4), (cx, L.y(57)), theme.ACCENT, anchor="center",
               max_width=x1 - x0)  # fmt: skip


def _round_result(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    t = screen.t
    s = screen.session
    rnd = s.shown_round
    if rnd is None:
        return
    p.text(f"{t('Round')} {rnd.number} · {rnd.digits}", L.s(6), (x0, L.y(13)), theme.ACCENT,
           anchor="midleft", style="bold", max_width=x1 - x0)  # fmt: skip
    y = L.y(20)
    step = L.s(13) if len(rnd.moves) > 1 else L.s(18)
    for move in rnd.moves:
        name = f"{move.player}: " if len(s.players) > 1 else ""
        text = t(move_text(move)) if move.formula is None else shown_formula(move_text(move))
        p.text(name + text, L.s(5.2), (x0, y + L.s(3)), theme.TEXT, anchor="midleft",
               style="bold", max_width=x1 - x0)  # fmt: skip
        gain_right = x0
        if move.result is not None:
            gain = f"{move.points:+d} {t('points')} \u2192 {t('score')} {move.score}"
            before = s.game.score_before(move.player, rnd.number)
            colour = theme.GOOD if move.score < before else theme.BAD  # (up: a warning)
            r = p.text(gain, L.s(4.4), (x0, y + L.s(8.5)), colour, anchor="midleft",
                       style="bold", max_width=x1 - x0)  # fmt: skip
            gain_right = r.right + L.s(2)
        if move.auto:  # beside the points, so the formula keeps its size
            note = f"({t('time ran out: automatic move')})"
            room = max(1.0, x1 - gain_right)
            # On two lines rather than tiny where it is long (Ukrainian, a small screen).
            rows = p.two_lines(note, L.s(3.4), room)
            px = L.s(3.4) if len(rows) == 1 else L.s(3.0)
            for n, row in enumerate(rows):
                dy = (n - (len(rows) - 1) / 2) * px * 1.05
                p.text(row, px, (gain_right, y + L.s(8.5) + dy), theme.DIM, anchor="midleft",
                       max_width=room)  # fmt: skip
        y += step
    best_y = y + L.s(1)
    players = list(s.order(rnd.number) if len(s.players) > 1 else s.players)
    bests = [s.best_for(rnd.number, player) for player in players]
    if len({(b.formula, b.points) for b in bests}) == 1:  # the same for all: said once
        players, bests = players[:1], bests[:1]
    named = len(players) > 1
    for player, best in zip(players, bests, strict=True):
        who = f" ({player})" if named else ""
        text = f"{t('best')}{who}: {shown_formula(best.formula)} = {best.result} ({best.points:+d})"
        p.text(text, L.s(3.8), (x0, best_y), theme.ACCENT, anchor="midleft", max_width=x1 - x0)
        best_y += L.s(5)
    if s.phase != OVER:
        label = t("Enter: next round")
        if s.setup.mode == "training":  # (only the README said so)
            label = t("Enter: next round   . : take the formula back")
        p.text(label, L.s(4), (x0, L.y(57)), theme.DIM, anchor="midleft", style="bold",
               max_width=x1 - x0)  # fmt: skip


def _legend(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    t = screen.t
    hint = screen.session.hint_left()  # (lit while there is one to ask)
    side = getattr(screen, "cricket", None) is not None  # 4 goes back to the scoreboard
    top = L.y(62)
    cw = (x1 - x0) / 4
    ch = L.s(7.2)
    u = p.u
    small = theme.SMALL * u
    for col, row, cols, rows, key, label in KEYPAD:
        rect = pygame.Rect(int(x0 + col * cw + 2), int(top + row * ch + 2),
                           int(cols * cw - 4), int(rows * ch - 4))  # fmt: skip
        active = bool(label) and (label != "hint" or hint)
        p.rect(rect, theme.PANEL_HI if active else theme.PANEL, radius=0.6 * u)
        # The key's own label, as printed on the keypad, big enough to find from 3 m;
        # what it does beside it, in the room the label leaves ("подсказка" beside a
        # "1"), or in the lower half of a tall key ("Enter" above "submit").
        cap = p.text(key, max(ch * 0.46, small), (rect.x + 0.9 * u, rect.y + ch / 2 - 2), theme.DIM,
                     anchor="midleft", style="bold", max_width=rect.w - 1.8 * u)  # fmt: skip
        if label:
            colour = theme.ACCENT if label in ("next digit", "submit") else theme.TEXT
            left, cy = cap.right + 1.2 * u, float(rect.centery)
            if rows > 1:
                left, cy = rect.x + 0.9 * u, rect.y + ch * 1.5 - 2
            shown = t("scoreboard") if side and label == "menu" else t(label)
            p.text(shown, max(ch * 0.5, small), ((left + rect.right - 0.6 * u) / 2, cy),
                   colour if active else theme.GREY, anchor="center", style="bold",
                   max_width=rect.right - 0.6 * u - left)  # fmt: skip


def _clock(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    """The running clock; before a turn, the time the player named will get; after
    one, the time that was left (0:00 when it ran out). A duel's round result is two
    players' turns: no one time to show, so none is."""
    s = screen.session
    playing = s.phase == PLAYING
    left = s.remaining(screen.clock)
    text = clock_text(left)
    if len(s.players) > 1 and s.phase not in (PLAYING, READY):
        text, left = NO_CLOCK, 0.0
    red = playing and left <= WARN_AT
    box = pygame.Rect(int(x0), int(L.y(8)), int(x1 - x0), int(L.s(18)))
    p.rect(box, theme.PANEL, radius=p.u)
    colour = theme.BAD if red else (theme.TEXT if playing else theme.GREY)
    p.text(text, L.s(15), (box.centerx, box.centery - L.s(1)), colour,
           anchor="center", style="condensed")  # fmt: skip
    frac = left / s.time_limit if s.time_limit else 0.0
    bar = pygame.Rect(box.x + p.u, box.bottom - int(L.s(2)), int((box.w - 2 * p.u) * frac),
                      int(L.s(1)))  # fmt: skip
    p.rect(bar, theme.BAD if red else theme.ACCENT)


def _scores(p: theme.Painter, screen: FormulaScreen, L: Layout, x0: float, x1: float) -> None:
    t = screen.t
    s = screen.session
    duel = len(s.players) > 1
    n = len(s.players)
    gap = p.u
    bw = (x1 - x0 - gap * (n - 1)) / n
    for i, player in enumerate(s.players):
        score = s.score_before_round(player) if duel and not s.over else s.game.score(player)
        box = pygame.Rect(int(x0 + i * (bw + gap)), int(L.y(28)), int(bw), int(L.s(17)))
        current = player == s.player
        p.rect(box, theme.PANEL_HI if current else theme.PANEL, radius=p.u)
        if current and duel:
            p.rect(box, theme.ACCENT, radius=p.u, width=max(2, int(0.4 * p.u)))
        label = player if duel else t("Score")
        colour = theme.PLAYER_COLOURS[i % 4] if duel else theme.DIM
        # (a long name shortened: the header names the player to answer in full)
        shown, size = p.wrapped(label, L.s(3.2), box.w * 0.9, "bold", floor=L.small(3), two=False)
        p.text(shown[0], size, (box.centerx, box.y + L.s(2.6)), colour, anchor="center",
               style="bold", max_width=box.w * 0.9)  # fmt: skip
        # digits' ink at least a tenth of the height (issue 5), the side game's too
        p.text(str(score), L.s(14.5), (box.centerx, box.y + L.s(10.8)), theme.TEXT,
               anchor="center", style="condensed", max_width=box.w * 0.9)  # fmt: skip
    player = s.player or s.players[0]
    if s.rules.min_rounds > s.rules.max_rounds:
        return  # (no game of these settings can be perfect: nothing to say)
    if duel and s.player is None:
        return  # (a duel's note is the answering player's: between turns, nobody's)
    if perfect_still_possible(s, player):
        note, colour = t("Perfect game (0 by round {n}): still possible"), theme.GOOD
    elif s.perfect_possible(player):  # the points allow it, this round's digits do not
        note, colour = t("Perfect game (0 by round {n}): not with these digits"), theme.DIM
    else:
        note, colour = t("Perfect game (0 by round {n}): not any more"), theme.DIM
    note = fill(note, n=s.rules.min_rounds)
    # On two lines where one would be smaller than a player reads (800x480): a duel's
    # whose it is (said) above the note, else the note parted after its colon.
    one = f"{player}: {note}" if duel else note
    head, colon, tail = note.rpartition(": ")
    two = [f"{player}:", note] if duel else [head + colon.strip(), tail] if head else [note]
    keep = [""] * len(two)  # (of each line, the end kept whole when it is shortened)
    size = p.fit(one, L.s(3.2), x1 - x0)
    lines = [one]
    if int(size) < int(L.small(3)):
        if duel and head and int(p.fit(note, L.s(3.2), x1 - x0)) < int(L.small(3)):
            # The note too long for a line of its own as well (Ukrainian and Russian;
            # English at 800x480): parted after its colon as a player's alone, the
            # player named before the verdict, so what is shortened is the name, never
            # "still possible" ("Perfect game (0 by round 4): still possi…").
            two, keep = [head + colon.strip(), f"{player}: {tail}"], ["", f": {tail}"]
        size = max(L.small(3), min(p.fit(line, L.s(3.2), x1 - x0) for line in two))
        parts = zip(two, keep, strict=True)
        lines = [p.shortened(line, size, x1 - x0, keep_from=k) for line, k in parts]
    p.lines(lines, size, (x0, L.y(48.5 if len(lines) == 1 else 49)), colour, max_width=x1 - x0,
            anchor="midleft")  # fmt: skip


def perfect_still_possible(s: FormulaSession, player: str) -> bool:
    """The session's answer (points only), and once the player sees the round's digits,
    whether those digits still allow it: some result this round must leave a score the
    remaining rounds can finish."""
    if not s.perfect_possible(player) or s.phase != PLAYING or s.player != player:
        return s.perfect_possible(player)
    left = s.rules.min_rounds - s.game.round + 1
    return perfect_with_digits(s.rules, s.game.digits, s.game.score(player), left)


@lru_cache(maxsize=64)
def perfect_with_digits(rules: Rules, digits: int, score: int, left: int) -> bool:
    """Can ``score`` reach 0 in ``left`` rounds, this one played with ``digits``? (The
    later rounds' digits are unknown: only their points limit them.)"""
    points = {rules.points(v) for v in solver.reachable(digits)}
    return any(rules.can_finish(rules.next_score(score, q), left - 1) for q in points)


def _cricket_strip(p: theme.Painter, screen: FormulaScreen, L: Layout) -> None:
    """The side game's top strip: the Cricket match going on under it."""
    t = screen.t
    cricket = getattr(screen, "cricket", None)
    if cricket is None:
        return
    c = cricket.session
    u = p.u
    h = L.top
    p.rect((0, 0, p.w, h - 0.4 * u), theme.PANEL_HI)
    # The hint first, at its own size: the one line a player must act on ("Anna: 4, then
    # +"); the match's points only where room is left for them to be read (the
    # scoreboard, one key away, has them all).
    if c.hold is not None:  # the thrower at the keypad: + here would go into the formula
        hint, colour = t("{}: 4, then + (next player)").format(c.hold.player), theme.ACCENT
    else:
        hint, colour = t("4 = back to the scoreboard"), theme.DIM
    # (on two lines rather than smaller: a long name, 800x480)
    small = theme.SMALL * u
    lines, size = p.wrapped(hint, small, p.w * 0.5, floor=small)
    p.lines(lines, size, (p.w - 2 * u, h / 2), colour, max_width=p.w * 0.5, anchor="midright",
            leading=1.05)  # fmt: skip
    hint_left = p.w - 2 * u - max(p.fonts.get(int(size)).size(line)[0] for line in lines)
    darts = " ".join(dart_name(d, t) for d in c.shown_darts) or "\u2013"
    room = min(p.w * 0.45, hint_left - 5 * u)
    text = f"{t('Cricket')} \u25b6 {c.shown_player}: {darts}"
    if int(p.fit(text, 4 * u, room, "bold")) < int(small):
        text = f"\u25b6 {c.shown_player}: {darts}"  # (the strip is the match's anyway)
    shown, size = p.wrapped(text, 4 * u, room, "bold", floor=small, two=False)
    r = p.text(shown[0], size, (2 * u, h / 2), theme.ACCENT, anchor="midleft", style="bold",
               max_width=room)  # fmt: skip
    points = "   ".join(f"{q} {c.game.points(q)}" for q in c.players[:4])
    room = hint_left - r.right - 6 * u
    if room > 0 and int(p.fit(points, 3.2 * u, room)) >= int(theme.SMALL * u):
        p.text(points, 3.2 * u, (r.right + 3 * u, h / 2), theme.TEXT, anchor="midleft",
               max_width=room)  # fmt: skip
