"""Typing a name with the numeric keypad: a letter picker (an arcade high-score entry).

The name is a row of places; the cursor is on one of them. On the empty place after
the name, 2 / 8 (or + / -) wake the picker (on the last letter written: never on a
space, hyphen, apostrophe or dot) and turn it through the letters, Enter (or
5) writes the letter and moves on; Enter on the empty place saves the name. On a
letter already written, 2 / 8 change it in place. The keys, laid out as the keypad's
own arrows:

=============  ==========================================================
2 / + / down   next letter            8 / - / up    previous letter
3              5 letters on           9             5 letters back
1              next alphabet          7             previous alphabet
4 / left       cursor left            6 / right     cursor right
5 / Enter      write the letter; on the empty place: save
0              a space                ``.``         delete (on an empty name: cancel)
``*``          save                   ``/`` Esc     cancel
=============  ==========================================================

The digit keys above are the numeric keypad's (``KeyAction.pad``, NumLock on or off).
A keyboard types letters, digits, space and ``- ' .`` directly: its main-row digits
are part of the name ("Team 2"), never picker moves, and its N, U and ``-`` are
letters and a hyphen, not next and undo. Alphabets: Ukrainian or Russian first
when the kiosk speaks it, then A-Z, digits, the other Cyrillic letters and ``- ' .``.
Letters are capitalised by place: the first of each word upper case, the rest lower
(the keypad has no shift); a keyboard's capital stays a capital wherever it is typed
("McDonald", "DJ").

``NameEditor`` is the pure part (unit-tested); ``NameEntry`` is the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from kiosk.adapters.keypad import KeyAction, typed_text
from kiosk.domain.names import CYRILLIC_ORDER, fold_apostrophes
from kiosk.ui import theme
from kiosk.ui.screen import Click, DartInput, Screen

LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
UKRAINIAN = "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ"
RUSSIAN = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
DIGITS = "0123456789"
SYMBOLS = " -'."
MAX_LEN = 16  # the store takes 24; 16 still fits a scoreboard column at 3 m
WORD_BREAKS = " -"


# The Cyrillic letters of both languages, in one alphabet order (``CYRILLIC_ORDER``,
# without Belarusian's Ў)
CYRILLIC = "".join(c for c in CYRILLIC_ORDER.upper() if c in UKRAINIAN + RUSSIAN)


def alphabets(language: str) -> list[str]:
    """The picker's alphabets, in the order 1 / 7 step through them: the kiosk's own
    first, then A-Z and the digits, then the Cyrillic letters its own alphabet lacks
    (just before the symbols: 7 twice from its first letter). A league in Ukraine
    plays in both languages: "Євген" on a kiosk that speaks Russian, "Эдуард" on one
    that speaks Ukrainian, and any Cyrillic name on one that speaks English could not
    be typed on the keypad at all (a new player's name spelt otherwise is another
    player)."""
    local = {"uk": UKRAINIAN, "ru": RUSSIAN}.get(language, "")
    others = "".join(c for c in CYRILLIC if c not in local)
    return [a for a in (local, LATIN, DIGITS, others, SYMBOLS) if a]


class NameEditor:
    """The name being typed, the cursor and the picker. No pygame."""

    def __init__(self, text: str = "", language: str = "en", max_len: int = MAX_LEN) -> None:
        self.sets = alphabets(language)
        self.wheel = "".join(self.sets)
        text = " ".join(text.split())
        # A saved name longer than typing allows (the store takes 24: a roster import)
        # is kept whole when it is edited, never cut short unasked.
        self.max_len = max(max_len, len(text))
        self.chars = list(text)
        self.cursor = len(self.chars)
        self.pick: int | None = None  # wheel index shown on the empty place, not written yet
        # The wheel index the picker wakes at: the last letter or digit written (not a
        # space, a hyphen, an apostrophe or a dot: ``_remember``).
        letters = [c for c in self.chars if c not in SYMBOLS]
        self.last = self._index_of(letters[-1]) if letters else 0

    # -- questions -------------------------------------------------------------------

    @property
    def text(self) -> str:
        return "".join(self.chars)

    @property
    def at_end(self) -> bool:
        return self.cursor >= len(self.chars)

    @property
    def full(self) -> bool:
        return len(self.chars) >= self.max_len

    def current(self) -> int | None:
        """The wheel index under the cursor (None: an empty place, picker asleep)."""
        if self.at_end:
            return self.pick
        return self._index_of(self.chars[self.cursor])

    def preview(self) -> str:
        """The name as it would be saved now (with the picked letter)."""
        if self.pick is None:
            return self.text.strip()
        return (self.text + self._cased(self.wheel[self.pick], len(self.chars))).strip()

    # -- edits -----------------------------------------------------------------------

    def _index_of(self, ch: str) -> int:
        i = self.wheel.find(ch.upper())
        return i if i >= 0 else 0

    def _cased(self, ch: str, position: int) -> str:
        start = position == 0 or self.chars[position - 1] in WORD_BREAKS
        return ch.upper() if start else ch.lower()

    def step(self, delta: int) -> bool:
        """Turn the picker ``delta`` letters; False if there is no room for a letter."""
        n = len(self.wheel)
        if self.at_end:
            if self.full:
                return False
            if self.pick is None:
                # The first press wakes the picker at the last letter written, so a
                # double letter ("Anna") is one press and Enter.
                self.pick = self.last if abs(delta) == 1 else (self.last + delta) % n
            else:
                self.pick = (self.pick + delta) % n
            return True
        i = (self._index_of(self.chars[self.cursor]) + delta) % n
        self.chars[self.cursor] = self._cased(self.wheel[i], self.cursor)
        self._remember(i)
        return True

    def _remember(self, index: int) -> None:
        """The picker wakes next at ``index``: a letter or digit, never a space, hyphen,
        apostrophe or dot (a second one is not wanted, and what follows one is a letter:
        "Jean-Luc", "O'Neil", "J.R.")."""
        if self.wheel[index] not in SYMBOLS:
            self.last = index

    def jump_set(self, delta: int) -> bool:
        """The first letter of the next (previous) alphabet."""
        current = self.current()
        here = self.last if current is None else current
        starts = []
        pos = 0
        for s in self.sets:
            starts.append(pos)
            pos += len(s)
        which = max(k for k, start in enumerate(starts) if start <= here)
        target = starts[(which + delta) % len(starts)]
        if self.at_end:
            if self.full:
                return False
            self.pick = target
        else:
            self.chars[self.cursor] = self._cased(self.wheel[target], self.cursor)
        self._remember(target)
        return True

    def accept(self) -> bool:
        """Enter: write the picked letter, or step past a written one. True when there
        was nothing to write: the name is to be saved."""
        if not self.at_end:
            self.cursor += 1
            return False
        if self.pick is None:
            return True
        ch = self.wheel[self.pick]
        if ch == " " and (not self.chars or self.chars[-1] == " "):
            self.pick = None  # no leading or double space, as ``type`` refuses them
            return False
        self._insert(ch)
        self._remember(self.pick)
        self.pick = None
        return False

    def settle(self) -> None:
        """Write a picked letter before the cursor moves away or the name is saved."""
        if self.at_end and self.pick is not None:
            self.accept()

    def move(self, delta: int) -> None:
        self.settle()
        self.cursor = max(0, min(len(self.chars), self.cursor + delta))

    def _insert(self, ch: str) -> bool:
        if self.full:
            return False
        self.chars.insert(self.cursor, self._cased(ch, self.cursor))
        self.cursor += 1
        return True

    def type(self, ch: str) -> bool:
        """A character from a keyboard, written at the cursor. Every kind of apostrophe
        is written ``'`` (a Ukrainian layout or a phone types U+2019 or U+02BC; the
        store takes them as one, and U+2019 was refused)."""
        ch = fold_apostrophes(ch)
        if len(ch) != 1 or not (ch.isalnum() or ch in SYMBOLS):
            return False
        self.settle()
        if ch == " " and (self.cursor == 0 or self.chars[self.cursor - 1] == " "):
            return False  # no leading or double spaces
        if ch.upper() in self.wheel:
            self._remember(self.wheel.index(ch.upper()))
        if ch.isupper() and self.cursor > 0 and not self.full:  # Shift: a capital kept
            self.chars.insert(self.cursor, ch)
            self.cursor += 1
            return True
        return self._insert(ch)

    def delete(self) -> bool:
        """``.``: drop the picked letter, the letter under the cursor, or the last one.
        False when the name is already empty (the screen then cancels)."""
        if self.at_end and self.pick is not None:
            self.pick = None
            return True
        if not self.chars:
            return False
        if self.at_end:
            self.chars.pop()
            self.cursor = len(self.chars)
        else:
            del self.chars[self.cursor]
        return True


Done = Callable[[str], "str | None"]


class NameEntry(Screen):
    """The picker on screen. ``on_done(name)`` returns None to close the screen (it
    may also push or replace screens itself) or a message to show and stay."""

    name = "name-entry"
    idles_to_attract = True

    def __init__(
        self,
        kiosk: Any,
        title: str,
        on_done: Done,
        initial: str = "",
        on_cancel: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(kiosk)
        self.title = title
        self.on_done = on_done
        self.on_cancel = on_cancel
        self.editor = NameEditor(initial, kiosk.settings.language)
        self.message = ""

    # -- input -----------------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput):
            return  # a dart at the board types nothing
        if isinstance(event, Click):
            self.save()  # the mouse has no letters: a click means "done" (the hint says)
        elif isinstance(event, KeyAction):
            self.message = ""
            self.key(event)
        self.dirty = True

    def key(self, event: KeyAction) -> None:
        ed = self.editor
        name, digit = event.name, event.digit
        if name == "digit" and not event.pad:  # the main keyboard's row: a digit typed
            name, digit = "char", None
        elif typed_text(event):  # the keyboard's N, U and "-" are letters here
            name = "char"
        elif not event.pad and name in ("menu", "next", "times") and event.char in ("/", "+", "*"):
            # A keyboard's "/", "+" or "*" is a character it typed, refused and said so,
            # not the keypad's cancel, letter step or save ("Tom+Jerry" was saved as
            # "Tommjerry"): Esc, or the keypad's own keys, do those.
            name = "char"
        moves = {2: 1, 8: -1, 3: 5, 9: -5}
        if digit in moves or name in ("next", "undo", "down", "up"):
            delta = moves.get(digit or 0) or (1 if name in ("next", "down") else -1)
            if not ed.step(delta):
                self.message = self.t("The name is full")
        elif digit in (1, 7):
            if not ed.jump_set(1 if digit == 1 else -1):
                self.message = self.t("The name is full")
        elif digit == 4 or name == "left":
            ed.move(-1)
        elif digit == 6 or name == "right":
            ed.move(1)
        elif digit == 0 or (name == "times" and event.char == " "):
            ed.type(" ")
        elif digit == 5 or name == "enter":
            if ed.accept():
                self.save()
        elif name == "times":
            self.save()
        elif name == "char":
            if not ed.type(event.char):
                self.message = self.refused(event.char)
        elif name == "back":
            if not ed.delete():
                self.cancel()
        elif name in ("menu", "cancel"):
            self.cancel()

    def refused(self, ch: str) -> str:
        """Why a character typed was not written ("" when nothing needs saying)."""
        if self.editor.full:
            return self.t("The name is full")
        if len(ch) == 1 and not (ch.isalnum() or ch in SYMBOLS):
            return self.t("{} cannot be used in a name: letters, digits, space, - ' .").format(ch)
        return ""  # (a second space in a row: nothing to say)

    def save(self) -> None:
        self.editor.settle()
        text = self.editor.text.strip()
        if not text:
            self.message = self.t("Type a name first")
            return
        result = self.on_done(text)
        if result:
            self.message = result
        elif self.kiosk.stack.top is self:
            self.kiosk.stack.pop()

    def cancel(self) -> None:
        if self.kiosk.stack.top is self:
            self.kiosk.stack.pop()
        if self.on_cancel is not None:
            self.on_cancel()

    # -- drawing ---------------------------------------------------------------------

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        ed = self.editor
        p.text(
            self.title,
            7 * u,
            (w / 2, 5 * u),
            theme.ACCENT,
            anchor="midtop",
            style="bold",
            max_width=w * 0.9,
        )
        places = len(ed.chars) + (0 if ed.full else 1)
        box = min(8.5 * u, w * 0.92 / max(1, places))
        left = (w - box * places) / 2
        cy = 46 * u
        current = ed.current()
        for i in range(places):
            rect = pygame.Rect(
                int(left + i * box + 0.06 * box), int(cy - 6 * u), int(box * 0.88), int(12 * u)
            )
            on = i == ed.cursor
            p.rect(rect, theme.PANEL_HI if on else theme.PANEL, radius=0.8 * u)
            if on:
                p.rect(rect, theme.ACCENT, radius=0.8 * u, width=max(2, int(0.5 * u)))
            if i < len(ed.chars):
                ch, colour = ed.chars[i], theme.TEXT
            elif ed.pick is not None:
                ch, colour = ed._cased(ed.wheel[ed.pick], i), theme.ACCENT
            else:
                ch, colour = "_", theme.GREY
            p.text(_visible(ch), box * 0.8, rect.center, colour, anchor="center", style="bold")
            if on and current is not None:
                self._draw_wheel(p, rect, current, i)
        p.text(
            f"{self.t('Name')}: {ed.preview() or '—'}",
            3.6 * u,
            (w / 2, 71.5 * u),
            theme.TEXT,
            anchor="center",
            max_width=w * 0.9,
        )
        if self.message:
            p.text(
                self.message,
                3.6 * u,
                (w / 2, 77 * u),
                theme.BAD,
                anchor="center",
                max_width=w * 0.95,
            )
        help_lines = (
            self.t("2 / 8: next / previous letter   3 / 9: jump 5   1 / 7: other alphabet"),
            self.t("4 / 6: move   5 or Enter: write the letter   0: space   . : delete"),
            self.t(
                "Enter on the empty place or *: save   / : cancel   A keyboard types (Esc: cancel)"
            ),
        )
        for k, line in enumerate(help_lines):
            p.text(
                line,
                3.3 * u,
                (w / 2, (83 + 5 * k) * u),
                theme.DIM,
                anchor="center",
                max_width=w * 0.96,
            )

    def _draw_wheel(self, p: theme.Painter, rect: pygame.Rect, index: int, place: int) -> None:
        """The letters either side of the one picked, cased as it is at ``place``."""
        u = p.u
        wheel = self.editor.wheel
        for off in (-2, -1, 1, 2):
            ch = _visible(self.editor._cased(wheel[(index + off) % len(wheel)], place))
            y = rect.centery + off * 7.5 * u + (2.5 * u if off > 0 else -2.5 * u)
            size = 5.5 * u if abs(off) == 1 else 4 * u
            colour = theme.DIM if abs(off) == 1 else theme.GREY
            p.text(ch, size, (rect.centerx, y), colour, anchor="center", style="bold")


def _visible(ch: str) -> str:
    return "\u2423" if ch == " " else ch
