"""Keypad and keyboard keys -> formula editing tokens (pure, table-tested).

The digits of a formula must come in the order of the round's number, so on the
numeric keypad the digit keys are free for other tokens. The layout, as the legend on
the formula screen draws it (the keypad's own shape)::

    NumLock  /        *        -
    7  (     8  pow(  9  )     +
    4  menu  5  sqrt( 6  ,
    1  hint  2  -     3  -     Enter = submit
    0  next digit     .  delete

- ``0`` inserts the round's next digit; pressed again it joins the next one on:
  with 3489, ``0 0`` is ``34``.
- ``+ - * /`` are themselves; ``.`` (or Backspace) deletes the last key's token
  (``pow(`` from ``8`` is one token); Enter submits.
- ``1`` is a hint in training (one per round); ``4`` opens the menu (leave the game).
- ``2`` and ``3`` do nothing but remind the player that ``0`` gives the next digit.

A full keyboard types the formula as text: its main-row digits are digits (the key
table tells them apart from the keypad's: ``KeyAction.pad``), letters make ``pow`` and
``sqrt``, ``(`` ``)`` ``,`` ``/`` are themselves, Esc is the menu. Each key is a token
of its own, a letter too: Backspace takes back one letter, as a keyboard does, and
letters count towards the formula's ``MAX_TOKENS`` keys like any other.

NumLock off changes nothing (SDL2 still sends the keypad's own keys); a keypad that
sends its navigation keys instead (End for 1, the arrows for 2 4 6 8...) gets the
same tokens, so on the formula screen the arrow keys mean 8 ``pow(``, 2, 4 menu and 6
``,`` (the key table cannot tell a keyboard's arrows from such a keypad's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# Token kinds
TEXT = "text"  # insert ``text``
NEXT_DIGIT = "next_digit"  # insert the round's next expected digit
DELETE = "delete"  # remove the last token
SUBMIT = "submit"
HINT = "hint"
MENU = "menu"
UNUSED = "unused"  # a key with no job here: the screen says what the keys do
FORWARD = "forward"  # not an editing key (a board button): for the game around it


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str = ""


# The keypad's digit keys, by the digit they carry.
PAD_DIGITS: dict[str, Token] = {
    "0": Token(NEXT_DIGIT),
    "1": Token(HINT),
    "2": Token(UNUSED),
    "3": Token(UNUSED),
    "4": Token(MENU),
    "5": Token(TEXT, "sqrt("),
    "6": Token(TEXT, ","),
    "7": Token(TEXT, "("),
    "8": Token(TEXT, "pow("),
    "9": Token(TEXT, ")"),
}

# The legend the screen prints: (key, what it does), in the keypad's rows.
LEGEND: tuple[tuple[tuple[str, str], ...], ...] = (
    (("NumLk", ""), ("/", "/"), ("*", "*"), ("-", "-")),
    (("7", "("), ("8", "pow("), ("9", ")"), ("+", "+")),
    (("4", "menu"), ("5", "sqrt("), ("6", ","), ("", "")),
    (("1", "hint"), ("2", ""), ("3", ""), ("Enter", "submit")),
    (("0", "next digit"), ("", ""), (".", "delete"), ("", "")),
)

OPERATORS = {"+", "-", "*", "/"}
KEYBOARD_CHARS = {"(", ")", ","}


def is_pad(action: Any) -> bool:
    """True for a key of the numeric keypad (``KeyAction.pad``). An action without the
    field (made by hand) is taken as the keypad's: the keypad is the kiosk's input."""
    return bool(getattr(action, "pad", True))


def token_for(name: str, char: str = "", pad: bool = True) -> Token | None:
    """The token of one key action (``KeyAction.name``/``.char``); None: ignore it."""
    if name == "digit":
        if pad:
            return PAD_DIGITS.get(char)
        return Token(TEXT, char) if char.isdigit() and len(char) == 1 else None
    if name in ("up", "down", "left", "right"):  # a keypad with NumLock off (see above)
        return PAD_DIGITS.get(char) if pad else None
    if name == "enter":
        return Token(SUBMIT)
    if name == "back":  # keypad "." and Backspace / Delete
        return Token(DELETE)
    if name == "cancel":  # Esc
        return Token(MENU)
    if name in ("next", "undo", "times", "menu"):
        if char in OPERATORS:
            return Token(TEXT, char)
        if char == " ":
            return None  # the keyboard's space: spacing is the screen's job
        if name == "menu":
            return Token(MENU)  # the board's MENU button
        return Token(FORWARD)  # the board's NEXT / UNDO buttons, Tab, Page keys
    if name == "char":
        if char in KEYBOARD_CHARS:
            return Token(TEXT, char)
        if len(char) == 1 and char.isalpha():
            return Token(TEXT, char.lower())
        if char in OPERATORS:
            return Token(TEXT, char)
        if len(char) == 1 and char.isprintable() and not char.isspace():
            # Any other sign a keyboard types (^ . % ! =): into the formula, where the
            # rules refuse it with their message and its place. Dropped, it scored
            # another formula unsaid (2^5+78 as 25+78).
            return Token(TEXT, char)
    return None


def token_of(action: Any) -> Token | None:
    """``token_for`` on a ``KeyAction``."""
    return token_for(str(action.name), str(getattr(action, "char", "")), is_pad(action))


# The keys a formula holds: a keypad formula needs at most 4 digits and a few
# operators and brackets around each; a keyboard's letters are a key each. Without a
# bound on letters, a word typed on a keyboard grew without end (the preview reads it
# every frame) and one Backspace took all of it.
MAX_TOKENS = 48

# A formula taken back (``FormulaEditor.load``) as the keypad types it: a function
# with its bracket is one token, as one key (``8``, ``5``) makes it.
_KEYPAD_TOKEN = re.compile(r"pow\(|sqrt\(|\S", re.IGNORECASE)


class FormulaEditor:
    """The formula being typed, as tokens: one a key (``34`` is two digit tokens,
    ``pow(`` from the keypad's ``8`` one, ``pow(`` typed on a keyboard four), so
    delete takes back the last key, whichever it was.

    ``digits`` is the round's number: ``NEXT_DIGIT`` inserts the digit after those
    already typed.
    """

    def __init__(self, digits: int) -> None:
        self.digits = str(digits)
        self.tokens: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self.tokens)

    @property
    def used(self) -> int:
        """How many digit characters the formula holds."""
        return sum(ch.isdigit() for ch in self.text)

    @property
    def next_digit(self) -> str | None:
        """The digit ``0`` would insert (None once all four are in)."""
        used = self.used
        return self.digits[used] if used < len(self.digits) else None

    @property
    def full(self) -> bool:
        """No more tokens fit (``MAX_TOKENS``): only delete and submit do anything."""
        return len(self.tokens) >= MAX_TOKENS

    def clear(self) -> None:
        self.tokens = []

    def load(self, text: str) -> None:
        """Start again from ``text`` (a formula taken back), tokens as the keypad would
        have typed it (``pow(`` one token), spaces left out."""
        self.tokens = _KEYPAD_TOKEN.findall(text)[:MAX_TOKENS]

    def apply(self, token: Token) -> bool:
        """Edit with ``token``; False if it changed nothing."""
        if token.kind == DELETE:
            if not self.tokens:
                return False
            self.tokens.pop()
            return True
        if self.full:
            return False
        if token.kind == NEXT_DIGIT:
            digit = self.next_digit
            if digit is None:
                return False
            self.tokens.append(digit)
            return True
        if token.kind != TEXT or not token.text:
            return False
        self.tokens.append(token.text)
        return True
