"""A numbered menu, usable from the keypad alone, a keyboard or a mouse.

Keypad: a digit picks item N, ``+``/``-`` (or arrows) move, Enter chooses, ``/`` or
``.`` go back. An item with choices (``Variant: Standard``) changes with left/right,
or with Enter / a click (next choice).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from kiosk.adapters.keypad import KeyAction
from kiosk.ui import theme
from kiosk.ui.screen import Click, DartInput, Notice, Screen, back_to_the_match


def centred(
    p: theme.Painter,
    text: str,
    size: float,
    y: float,
    colour: tuple[int, ...],
    *,
    anchor: str = "midtop",
    bold: bool = False,
    width: float | None = 0.9,
) -> pygame.Rect:
    """A line of ``text`` centred across the screen: ``size`` and ``y`` in ``p.u``
    (hundredths of the height), at most ``width`` of the screen wide (None: any)."""
    return p.text(
        text,
        size * p.u,
        (p.w / 2, y * p.u),
        colour,
        anchor=anchor,
        style="bold" if bold else "regular",
        max_width=None if width is None else p.w * width,
    )


def footer(p: theme.Painter, text: str, colour: tuple[int, ...] = theme.DIM) -> None:
    """The line at the foot of a screen: its keys, or a refusal in their place."""
    centred(p, text, theme.SMALL, 95, colour, anchor="center", width=0.95)


def foot_message(p: theme.Painter, text: str, colour: tuple[int, ...] = theme.BAD) -> None:
    """A refusal in the footer's place, on two lines where one would shrink it (one
    naming a file, "Not saved: /var/lib/...", was drawn at 11 px on a 480-line screen)."""
    px, width = theme.SMALL * p.u, p.w * 0.95
    lines = p.two_lines(text, px, width, keep=1.0)  # (not shrunk at all: two lines)
    y = 95 if len(lines) == 1 else 93
    p.lines(lines, px, (p.w / 2, y * p.u), colour, max_width=width, leading=1.15)


@dataclass
class Item:
    """A menu line. ``label`` is an English msgid (translated when drawn).

    With ``choices``: ``(value, label)`` pairs, ``get()`` the current value and
    ``set(value)`` to change it. Without: ``action()`` runs on Enter. ``enabled``
    False greys it out with ``note`` (e.g. "coming soon")."""

    label: str
    action: Callable[[], None] | None = None
    choices: Sequence[tuple[Any, str]] = ()
    get: Callable[[], Any] | None = None
    set: Callable[[Any], None] | None = None
    enabled: bool = True
    note: str = ""
    raw_label: bool = False  # a name, not a msgid: shown as it is
    # A word on the thing the line is about, shown at its right end (a camera's state:
    # "scoring", "no pictures"): (English msgid, colour), or "" for none.
    state: Callable[[], tuple[str, tuple[int, int, int]]] | None = None
    # With choices: what choosing the line does instead of stepping to the next choice
    # (a screen of its own, where a keypad can go both ways).
    pick: Callable[[], None] | None = None
    # With choices: False for a scale (the volume), where left at the bottom stays
    # there rather than coming round to the top.
    wraps: bool = True

    def choice_label(self) -> str:
        if not self.choices or self.get is None:
            return ""
        value = self.get()
        for v, label in self.choices:
            if v == value:
                return label
        return str(value)

    def ends(self) -> tuple[bool, bool]:
        """Whether a step down / up is there to take (both, unless a scale is at its
        end): the value's arrows."""
        if self.wraps or not self.choices or self.get is None:
            return True, True
        values = [v for v, _ in self.choices]
        value = self.get()
        if value not in values:
            return True, True
        i = values.index(value)
        return i > 0, i < len(values) - 1

    def step(self, delta: int) -> None:
        if not self.choices or self.get is None or self.set is None:
            return
        values = [v for v, _ in self.choices]
        try:
            i = values.index(self.get())
        except ValueError:
            i = 0
        to = (i + delta) % len(values) if self.wraps else min(max(i + delta, 0), len(values) - 1)
        if to != i:  # (at the end of a scale: nothing, not even its sound)
            self.set(values[to])


# A menu left alone this long, with no game under it, gives way to the attract screen:
# the next group finds the machine ready, not someone's half-chosen settings.
MENU_IDLE_S = 300.0


def may_idle(stack: Any) -> bool:
    """No game anywhere in the stack: a game (and a menu over it) is never left."""
    return len(stack) > 1 and not any(
        getattr(screen, "session", None) is not None for screen in stack.screens()
    )


def idle_back_to_attract(stack: Any, idle_since: float, now: float) -> None:
    """A menu (or a screen of one) left alone ``MENU_IDLE_S``: the attract screen."""
    if now - idle_since >= MENU_IDLE_S and may_idle(stack):
        stack.reset(stack.screens()[0])


class MenuScreen(Screen):
    name = "menu"
    title = ""
    subtitle = ""
    subtitle_args: tuple[object, ...] = ()  # put into the translated subtitle's {} fields

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.selected = 0
        self.message = ""
        self._rects: list[pygame.Rect] = []
        self.idle_since = time.monotonic()

    def on_enter(self) -> None:
        super().on_enter()
        self.idle_since = time.monotonic()  # (uncovered: someone was just here)

    def update(self, now: float) -> None:
        idle_back_to_attract(self.kiosk.stack, self.idle_since, now)

    def wake_at(self) -> float | None:
        return self.idle_since + MENU_IDLE_S if may_idle(self.kiosk.stack) else None

    def items(self) -> list[Item]:
        raise NotImplementedError

    def back(self) -> None:
        self.kiosk.stack.pop()

    # -- input ---------------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        self.idle_since = time.monotonic()
        items = self.items()
        if isinstance(event, Click):
            for i, rect in enumerate(self._rects):
                if rect.collidepoint(event.pos) and i < len(items):
                    self.selected = i
                    self.choose(items[i])
                    break
        elif isinstance(event, KeyAction):
            self.key(event, items)
        elif isinstance(event, DartInput) or (isinstance(event, Notice) and event.act):
            # over a match: back to it, the dart on it (or the dart it must have typed:
            # one not read, on a contact the board map lacks); else nothing to score
            back_to_the_match(self.kiosk.stack, event)
            return
        self.dirty = True

    def key(self, event: KeyAction, items: list[Item]) -> None:
        n = len(items)
        if n == 0:  # an empty list (no other player to merge into): only a way back
            if event.name in ("back", "menu", "cancel"):
                self.back()
            return
        if event.name == "digit" and event.digit is not None:
            index = (event.digit - 1) % 10
            if index < n:
                self.selected = index
                self.kiosk.stack.digit_chose()
                self.choose(items[index])
        elif event.name in ("down", "next"):
            self.selected = (self.selected + 1) % n
        elif event.name in ("up", "undo"):
            self.selected = (self.selected - 1) % n
        elif event.name in ("left", "right") and self.selected < n:
            items[self.selected].step(-1 if event.name == "left" else 1)
        elif event.name == "enter" and self.selected < n:
            self.choose(items[self.selected])
        elif event.name in ("back", "menu", "cancel"):
            self.back()

    def choose(self, item: Item) -> None:
        self.message = ""
        if not item.enabled:
            self.message = self.t(item.note) if item.note else ""
        elif item.pick is not None:
            item.pick()
        elif item.choices:
            item.step(1)
        elif item.action is not None:
            item.action()

    # -- drawing -------------------------------------------------------------------

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        centred(p, self.t(self.title), 8, 6, theme.ACCENT, bold=True)
        if self.subtitle:
            text = self.t(self.subtitle)
            if self.subtitle_args:
                text = text.format(*self.subtitle_args)
            centred(p, text, 3.2, 16, theme.DIM)
        items = self.items()
        top = 22 * u
        row = min(9.5 * u, 66 * u / max(1, len(items)))
        width = min(w * 0.8, 110 * u)
        left = (w - width) / 2
        self._rects = []
        for i, item in enumerate(items):
            rect = pygame.Rect(int(left), int(top + i * row), int(width), int(row * 0.86))
            self._rects.append(rect)
            chosen = i == self.selected
            p.rect(rect, theme.PANEL_HI if chosen else theme.PANEL, radius=u)
            if chosen:
                p.rect(rect, theme.ACCENT, radius=u, width=max(2, int(0.4 * u)))
            colour = theme.TEXT if item.enabled else theme.GREY
            # (ten lines, a page of players: a little more of a line's height, not
            # smaller text)
            size = max(row * 0.42, min(theme.SMALL * u, row * 0.5))
            p.text(
                key_of(i),
                size,
                (rect.x + 2.5 * u, rect.centery),
                theme.ACCENT,
                anchor="midleft",
                style="bold",
            )
            label = item.label if item.raw_label else self.t(item.label)
            if not item.enabled and item.note:
                label = f"{label}  ({self.t(item.note)})"
            value = item.choice_label()
            state, state_colour = item.state() if item.state is not None else ("", colour)
            drawn = p.text(
                label,
                size,
                (rect.x + 8 * u, rect.centery),
                colour,
                anchor="midleft",
                max_width=rect.w * (0.55 if value or state else 0.85),
            )
            if state and not value:
                room = max(rect.w * 0.3, rect.right - 2.5 * u - drawn.right - 4 * u)
                p.text(self.t(state), size * 0.85, (rect.right - 2.5 * u, rect.centery),
                       state_colour, anchor="midright", max_width=room)  # fmt: skip
            if value:
                # The room the label leaves (a long value, "віртуальна мішень (миша)",
                # beside a short label), and never less than 40% of the row.
                room = max(rect.w * 0.4, rect.right - 2.5 * u - drawn.right - 4 * u)
                down, up = item.ends()  # (a scale at its end: no arrow that way)
                before, after = ("\u25c0 " if down else ""), (" \u25b6" if up else "")
                p.text(
                    f"{before}{self.t(value)}{after}",
                    size,
                    (rect.right - 2.5 * u, rect.centery),
                    theme.ACCENT if chosen else theme.TEXT,
                    anchor="midright",
                    style="bold",
                    max_width=room,
                )
        if self.message:
            foot_message(p, self.message)
        else:
            footer(p, self.t("Keypad: number = choose, + / - = move, Enter = select, / = back"))


def key_of(index: int) -> str:
    """The keypad digit that picks item ``index`` (0-based): 1-9, then 0 for the tenth;
    none for the items after it (reached with + / - and Enter). The tenth used to be
    numbered 10, and its 1 picked the first item."""
    if index < 9:
        return str(index + 1)
    return "0" if index == 9 else ""
