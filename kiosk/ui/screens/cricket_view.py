"""Drawing the Cricket scoreboard (reads the screen's state, changes nothing).

The classic bar layout: sides left and right of a middle column of targets (20 to 15
and BULL, top to bottom); each side's marks ``/``, ``X``, circled ``X`` in its column;
targets closed by everyone greyed out; points large (digits about 13% of the screen
height); the side to throw outlined; the turn's darts and the darts left at the foot.
With the virtual board, the board and mouse buttons take the right part.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from kiosk.domain.darts import BULL
from kiosk.ui import theme
from kiosk.ui.banner import banner_up
from kiosk.ui.entry import TIMES, dart_name
from kiosk.ui.widgets import Button, draw_marks, widths_by_need

if TYPE_CHECKING:
    from kiosk.ui.screens.cricket import CricketScreen

VARIANT_LABELS = {"standard": "Standard", "cut-throat": "Cut-throat", "no-score": "No score"}


def target_label(target: int, t: Callable[[str], str]) -> str:
    return t("BULL") if target == BULL else str(target)


def sides_of(game: object) -> list[tuple[str, ...]]:
    sides = getattr(game, "sides", None)
    return [tuple(s) for s in sides] if sides else [(p,) for p in game.players]  # type: ignore[attr-defined]


def draw_scoreboard(p: theme.Painter, screen: CricketScreen) -> None:
    u, W = p.u, p.w
    game = screen.session.game
    sides = sides_of(game)
    n = len(sides)
    board_w = 0.0
    if screen.show_board:
        # Four sides beside the virtual board: a smaller board, so that the points keep
        # their height (a tenth of the screen, read from the oche)
        board_w = min(W * (0.26 if n >= 4 else 0.36), 78 * u)
    x0, x1 = 1.5 * u, W - board_w - (3 * u if board_w else 1.5 * u)
    left_count = (n + 1) // 2
    target_w = (12 if n >= 4 and board_w else 14) * u
    col_w = (x1 - x0 - target_w) / n
    xs: list[float] = []
    for i in range(n):
        x = x0 + i * col_w + (target_w if i >= left_count else 0)
        xs.append(x)
    target_x = x0 + left_count * col_w
    shown = screen.session.shown_player
    current = next(i for i, s in enumerate(sides) if shown in s)

    _header(p, screen, x0, x1)
    head_top, head_h = 8 * u, 29 * u
    rows_top, row_h = 38.5 * u, 6.4 * u
    rows_bottom = rows_top + row_h * len(game.targets)

    # Target rows: stripes, closed rows dimmed, the target in the middle.
    for r, target in enumerate(game.targets):
        y = rows_top + r * row_h
        closed = game.is_closed(target)
        stripe = theme.CLOSED_BG if closed else (theme.PANEL if r % 2 == 0 else theme.BG)
        p.rect((x0, y, x1 - x0, row_h), stripe)
        label_colour = theme.GREY if closed else theme.TEXT
        p.text(
            target_label(target, screen.t),
            row_h * 0.72,
            (target_x + target_w / 2, y + row_h / 2),
            label_colour,
            anchor="center",
            style="bold",
            max_width=target_w * 0.9,
        )
        if closed:
            pygame.draw.line(
                p.surface,
                theme.GREY,
                (target_x + 2 * u, y + row_h / 2),
                (target_x + target_w - 2 * u, y + row_h / 2),
                max(2, int(0.4 * u)),
            )
        for i, side in enumerate(sides):
            marks = game.marks(side[0], target)
            colour = theme.GREY if closed else theme.MARK
            draw_marks(p.surface, (xs[i] + col_w / 2, y + row_h / 2), row_h * 0.9, marks, colour)

    # Side headers: name, points, MPR; the side to throw outlined down to the last row.
    for i, side in enumerate(sides):
        x = xs[i]
        box = pygame.Rect(int(x + 0.6 * u), int(head_top), int(col_w - 1.2 * u), int(head_h))
        is_current = i == current and not screen.session.over
        p.rect(box, theme.PANEL_HI if is_current else theme.PANEL, radius=1.2 * u)
        colour = theme.PLAYER_COLOURS[i % len(theme.PLAYER_COLOURS)]
        # A team's partner up is marked: the side is outlined, but which of the two?
        names = [f"\u25b6 {n}" if is_current and len(side) > 1 and n == shown else n for n in side]
        lines, px = _name_lines(p, " & ".join(names), box.w * 0.92)
        # (two lines: a deeper box, above the points' digits, so each keeps its size)
        name_box = pygame.Rect(box.x, box.y, box.w, int((6.5 if len(lines) == 1 else 8.2) * u))
        p.rect(name_box, theme.ACCENT if is_current else colour, radius=1.2 * u)
        p.lines(lines, px, name_box.center, theme.BG, max_width=box.w * 0.92, style="bold",
                leading=1.05)  # fmt: skip
        if game.variant == "no-score":
            owned = sum(1 for t in game.targets if game.owns(side[0], t))
            big = f"{owned}/7"
        else:
            big = str(game.points(side[0]))
        p.text(
            big,
            18 * u,
            (box.centerx, box.y + 17 * u),
            theme.TEXT,
            anchor="center",
            style="condensed",
            max_width=box.w * 0.94,
        )
        stats = game.side_stats(side[0])  # a team's MPR is the team's
        p.text(
            f"{screen.t('MPR')} {screen.number(stats.mpr, 2)}",
            3.4 * u,
            (box.centerx, box.bottom - 2.6 * u),
            theme.DIM,
            anchor="center",
            max_width=box.w * 0.9,
        )
        if is_current:
            outline = pygame.Rect(
                int(x + 0.3 * u),
                int(head_top - 0.3 * u),
                int(col_w - 0.6 * u),
                int(rows_bottom - head_top + 0.6 * u),
            )
            p.rect(outline, theme.ACCENT, radius=1.2 * u, width=max(2, int(0.45 * u)))

    _footer(p, screen, x0, x1, rows_bottom)
    _announcement(p, screen, x0, x1, (rows_top + rows_bottom) / 2)
    if screen.show_board:
        _board_panel(p, screen, x1 + 1.5 * u, board_w)
    else:
        for button in screen.buttons:
            button.rect = pygame.Rect(0, 0, 0, 0)


def _header(p: theme.Painter, screen: CricketScreen, x0: float, x1: float) -> None:
    u = p.u
    game = screen.session.game
    t = screen.t
    title = f"{t('Cricket')} · {t(VARIANT_LABELS.get(game.variant, game.variant))}"
    if game.variant == "cut-throat":  # the other way round from every other game
        title += f" · {t('fewest points win')}"
    if getattr(game, "single_bull", False):
        title += f" · {t('single bull')}"
    p.text(title, 3.6 * u, (x0, 3.8 * u), theme.DIM, anchor="midleft", max_width=(x1 - x0) * 0.5)
    rnd, colour = round_text(screen)
    p.text(rnd, 4.6 * u, (x1, 3.8 * u), colour, anchor="midright", style="bold",
           max_width=(x1 - x0) * 0.45)  # fmt: skip


def round_text(screen: CricketScreen) -> tuple[str, tuple[int, ...]]:
    """ "Round 3 / 20" ("Last round 20 / 20" lit), as the header says it."""
    game = screen.session.game
    t = screen.t
    shown = screen.session.shown_round
    if game.round_limit and shown >= game.round_limit:
        return f"{t('Last round')} {shown} / {game.round_limit}", theme.ACCENT
    if game.round_limit:
        return f"{t('Round')} {shown} / {game.round_limit}", theme.TEXT
    return f"{t('Round')} {shown}", theme.TEXT


def _footer(p: theme.Painter, screen: CricketScreen, x0: float, x1: float, top: float) -> None:
    u = p.u
    t = screen.t
    session = screen.session
    game = session.game
    y = top + 2 * u
    box_h = 8 * u
    outcome = game.outcome()
    if outcome is not None:
        winners = outcome.won_by
        wins = t("win!") if len(winners) > 1 else t("wins!")  # a team: "Anna & Chen win!"
        text = f"{' & '.join(winners)} {wins}" if winners else t("Draw!")
        p.text(
            text,
            7 * u,
            ((x0 + x1) / 2, y + box_h / 2),
            theme.ACCENT,
            anchor="center",
            style="bold",
            max_width=x1 - x0,
        )
        if screen.message:  # what ended it ("dart 3 corrected"), or a dart refused since
            _message(p, screen, x0, x1)
        return
    # Whose turn, the line read from the oche: a long name (24 letters) on two lines
    # rather than shrunk to a third of the size.
    name = f"\u25b6 {session.shown_player}"
    name_rect = _left_lines(p, name, (5 * u, 3.9 * u), (x0, y + box_h / 2), (x1 - x0) * 0.3,
                            theme.ACCENT, leading=1.05)  # fmt: skip
    darts = session.shown_darts
    bx = name_rect.right + 2.5 * u
    box_w = 12 * u
    for k in range(3):
        rect = pygame.Rect(int(bx + k * (box_w + 1.2 * u)), int(y), int(box_w), int(box_h))
        if k < len(darts):
            p.rect(rect, theme.PANEL_HI, radius=u)
            p.text(
                dart_name(darts[k], t),
                4.8 * u,
                rect.center,
                theme.TEXT,
                anchor="center",
                style="bold",
                max_width=rect.w * 0.9,
            )
        else:
            nxt = k == len(darts) and session.hold is None
            p.rect(rect, theme.PANEL, radius=u)
            p.rect(
                rect,
                theme.ACCENT if nxt else theme.LINE,
                radius=u,
                width=max(2, int((0.5 if nxt else 0.2) * u)),
            )
    after = bx + 3 * (box_w + 1.2 * u) + 1.5 * u
    sizes = (3.8 * u, 3.3 * u)  # the status on one line, on two
    if session.hold is not None and screen.kiosk.devices.active == "camera":
        # (the cameras see the darts pulled and pass the turn: no + to press)
        status, colour = t("Pull your darts: the turn passes"), theme.ACCENT
    elif session.hold is not None:
        # A banner (the board lost: darts typed meanwhile) lies over the header and its
        # round: the round is said here while it does.
        rnd = f"\n{round_text(screen)[0]}" if banner_up(screen.kiosk) else ""
        status, colour = t("Remove darts, then + (next player)") + rnd, theme.ACCENT
        if not _left_rows(p, status, sizes, x1 - after)[2]:
            # Beside the on-screen board: what + does is said on the line below.
            status = t("Remove darts, then +") + rnd
    else:
        status, colour = f"{t('Darts left')}: {game.darts_left}", theme.TEXT
        if banner_up(screen.kiosk):  # (as above)
            rnd, rnd_colour = round_text(screen)
            status = f"{status}\n{rnd}"
            colour = rnd_colour if rnd_colour == theme.ACCENT else colour
    if screen.typed:
        status, colour = f"{t('Typed')}: {screen.typed.replace('*', TIMES)}_", theme.ACCENT
    # Beside the virtual board the row is narrow: two lines rather than a tiny one
    # ("Remove darts, then + (next player)", longer still in Ukrainian).
    _left_lines(p, status, sizes, (after, y + box_h / 2), x1 - after, colour, leading=1.1)
    if screen.message:
        _message(p, screen, x0, x1)
    else:
        hint = t("+ next player   - undo   / menu   keypad 3*20 Enter = T20")
        p.text(
            hint, 3.0 * u, ((x0 + x1) / 2, 96.5 * u), theme.DIM, anchor="center", max_width=x1 - x0
        )


def announcement(screen: CricketScreen) -> tuple[str, str] | None:
    """What is announced across the board, as bar machines do: the winning dart of a
    game won by closing everything ("Game shot!", until the results come), or what the
    last turn earned (``Award``); (headline, who) or None."""
    t = screen.t
    game = screen.session.game
    outcome = game.outcome()
    if outcome is not None:
        won = outcome.winner is not None and all(game.owns(outcome.winner, x) for x in game.targets)
        if screen.finish_at is None or not won:
            return None  # (the round limit's end: the footer says who won)
        return t("Game shot!"), " & ".join(outcome.won_by)
    award = screen.award
    if award is None:
        return None
    if award.kind == "white horse":
        return t("White horse!"), award.player
    if award.kind == "hat trick":
        return t("Hat trick!"), award.player
    return t("{} marks!").format(award.marks), award.player


def _announcement(p: theme.Painter, screen: CricketScreen, x0: float, x1: float, y: float) -> None:
    said = announcement(screen)
    if said is None:
        return
    u = p.u
    headline, who = said
    w = min(x1 - x0, 110 * u)
    box = pygame.Rect(int((x0 + x1 - w) / 2), int(y - 12 * u), int(w), int(24 * u))
    p.rect(box, theme.BG, radius=2 * u)
    p.rect(box, theme.ACCENT, radius=2 * u, width=max(3, int(0.7 * u)))
    p.text(headline, 11 * u, (box.centerx, box.y + 9.5 * u), theme.ACCENT, anchor="center",
           style="bold", max_width=w * 0.92)  # fmt: skip
    p.text(who, 5 * u, (box.centerx, box.bottom - 5 * u), theme.TEXT, anchor="center",
           style="bold", max_width=w * 0.92)  # fmt: skip


def _board_panel(p: theme.Painter, screen: CricketScreen, x: float, w: float) -> None:
    u = p.u
    area = pygame.Rect(int(x), int(2 * u), int(w), int(min(w, 76 * u)))
    screen.board.marks = list(screen.clicks)
    screen.board.draw(p.surface, area)
    # On two lines where one would shrink it (longer in Ukrainian, a small screen):
    # the buttons then start lower.
    hint, size = p.wrapped(screen.t("Click the board to throw, or type T20 Enter"), theme.SMALL * u,
                           w, floor=theme.SMALL * u)  # fmt: skip
    mid = area.bottom + (2.6 if len(hint) == 1 else 3.9) * u
    p.lines(hint, size, (x + w / 2, mid), theme.DIM, max_width=w, leading=1.1)
    by = area.bottom + (6 if len(hint) == 1 else 8.6) * u
    bh = min(9 * u, 98 * u - by)
    labels = [screen.t(LABELS[button.action]) for button in screen.buttons]
    # Each as wide as its label needs: "Следующий игрок" beside "Меню"
    needs = [Button.need(p, label, bh, wrap=True) for label in labels]
    least = [Button.need(p, label, bh, wrap=True, least=True) for label in labels]
    room = w - (len(labels) - 1) * u
    if sum(least) > room:
        # (four players' narrow panel, in Ukrainian: side by side, "Наступний гравець"
        # was 2 % of the height) one under another, the panel's width each
        bh = min(bh, (98 * u - by) / len(labels) - u)
        for k, (button, label) in enumerate(zip(screen.buttons, labels, strict=True)):
            button.draw(p, pygame.Rect(int(x), int(by + k * (bh + u)), int(w), int(bh)), label)
        return
    widths = widths_by_need(needs, room, least)
    left = x
    for button, label, bw in zip(screen.buttons, labels, widths, strict=True):
        button.draw(p, pygame.Rect(int(left), int(by), int(bw), int(bh)), label)
        left += bw + u


LABELS = {"next": "Next player", "undo": "Undo", "menu": "Menu"}  # the board's buttons


NAME_U, TWO_LINES_U = 4.4, 3.4  # a side's name on one line, on two


def _name_lines(p: theme.Painter, name: str, width: float) -> tuple[list[str], float]:
    """A side's name for its box: on one line, or on two when that reads larger (long
    names, teams, four sides on a small screen); a line still too long at the smallest
    size a player reads is shortened. -> (lines, size)"""
    px, two_px = NAME_U * p.u, TWO_LINES_U * p.u
    lines = p.two_lines(name, px, width, "bold")
    one = p.fit(name, px, width, "bold")
    if len(lines) == 1 or one >= two_px:
        return p.wrapped(name, px, width, "bold", floor=theme.SMALL * p.u, two=False)
    size = min(two_px, *(p.fit(line, two_px, width, "bold") for line in lines))
    if int(size) < int(theme.SMALL * p.u):
        size = theme.SMALL * p.u
        lines = [p.shortened(line, size, width, "bold") for line in lines]
    return lines, size


def _left_rows(
    p: theme.Painter, text: str, sizes: tuple[float, float], width: float
) -> tuple[list[str], float, bool]:
    """``_left_lines``' lines, their size, and whether they are whole (not shortened)."""
    if "\n" in text:
        one = text.replace("\n", "  \u00b7  ")
        fits = p.fit(one, sizes[0], width, "bold") >= sizes[0]
        rows = [one] if fits else text.split("\n")
    else:
        rows = p.two_lines(text, sizes[0], width, "bold")
    size = sizes[0] if len(rows) == 1 else sizes[1]
    small = theme.SMALL * p.u
    if int(min(p.fit(row, size, width, "bold") for row in rows)) < int(small):
        return [p.shortened(row, small, width, "bold") for row in rows], small, False
    return rows, size, True


def _left_lines(
    p: theme.Painter,
    text: str,
    sizes: tuple[float, float],
    left_middle: tuple[float, float],
    width: float,
    colour: tuple[int, ...],
    leading: float,
) -> pygame.Rect:
    """``text`` in bold from ``left_middle``: on one line at ``sizes[0]``, or on two at
    ``sizes[1]`` (``two_lines``) where one would shrink it; the rectangle drawn. A
    newline in ``text`` is where its two lines part ("Darts left: 2" / "Round 3 / 20"),
    or "  ·  " on one line. A line too long even so is shortened, not shrunk below the
    smallest size a player reads."""
    rows, size, _ = _left_rows(p, text, sizes, width)
    x, y = left_middle
    rects = []
    for n, row in enumerate(rows):
        at = (x, y + (n - (len(rows) - 1) / 2) * size * leading)
        rects.append(p.text(row, size, at, colour, anchor="midleft", style="bold",
                            max_width=width))  # fmt: skip
    return rects[0].unionall(rects[1:])


def _message(p: theme.Painter, screen: CricketScreen, x0: float, x1: float) -> None:
    p.text(
        screen.message,
        3.6 * p.u,  # a question for the player (the cameras unsure), read from the oche
        ((x0 + x1) / 2, 96.4 * p.u),
        theme.BAD if screen.refusal else theme.ACCENT,  # refused / said ("corrected")
        anchor="center",
        style="bold",
        max_width=x1 - x0,
    )
