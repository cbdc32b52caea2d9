"""Key codes -> kiosk actions: the one table for the USB numeric keypad and a keyboard.

Pure: the codes are SDL2 keycodes (what pygame-ce reports as ``event.key``), spelled
out here so this module needs no pygame; ``tests/unit/test_keypad.py`` checks them
against pygame's constants.

The keypad is the kiosk's only input device behind a bar, so every action has a
keypad key:

========  ==========  =================================================
key       action      meaning
========  ==========  =================================================
0-9       ``digit``   menus: choose item N; game: manual dart entry
Enter     ``enter``   confirm (menu item, typed dart)
``+``     ``next``    game: next player; menus: move down
``-``     ``undo``    game: undo the last dart (repeatable); menus: move up
``*``     ``times``   manual entry separator: ``3 * 20`` = T20
``/``     ``menu``    game: the pause menu; menus: back
``.``     ``back``    delete the last typed character, else back
========  ==========  =================================================

Formula darts gives the keypad's digit keys their own meanings (``formula_keys``).

A keyboard adds arrows, Esc (``cancel``), Backspace, Space (a separator like ``*``)
and letters (``char``, as typed: Shift and the layout's own letters kept) so codes
such as ``T20``, ``DB`` or ``MISS`` can be typed; ``N`` and ``U`` are next player and
undo, Tab is next player, ``/`` is the menu. Where a keyboard types a name, its N, U
and ``-`` are letters and a hyphen (``typed_text``).

``KeyAction.pad`` is True for the numeric keypad's keys, so a screen can tell the
keypad's ``7`` from the main row's (formula darts: keypad digits are editing tokens,
main-row digits are digits). Cricket entry and menus read both alike.

NumLock off: SDL2 (pygame-ce 2.5.8 ships SDL 2.32) still reports the keypad's keys as
``K_KP_1``... (only ``KMOD_NUM`` and the missing text change), so the table above holds
with NumLock on or off. Some keypads translate in their own firmware and send the
navigation keys printed under the digits instead; those arrive exactly as a
keyboard's Home/End/arrows, so they are mapped to the digit they sit on: Ins = 0,
End = 1, PgDn = 3, Clear = 5, Home = 7, PgUp = 9 (``digit`` actions with ``pad``), and
the arrows keep their ``up``/``down``/``left``/``right`` names (menus move with them)
but carry the digit they sit on in ``char`` (8, 2, 4, 6) with ``pad`` set, for
screens that want the keypad's meaning. Del is ``back``, as the keypad's ``.``.
"""

from __future__ import annotations

from dataclasses import dataclass

# SDL2 keycodes (SDL_keycode.h). Keypad keys are scancode | 0x40000000.
_KP = 0x40000000
K_BACKSPACE = 8
K_TAB = 9
K_RETURN = 13
K_ESCAPE = 27
K_SPACE = 32
K_DELETE = 127
K_RIGHT = _KP | 79
K_LEFT = _KP | 80
K_DOWN = _KP | 81
K_UP = _KP | 82
K_KP_DIVIDE = _KP | 84
K_KP_MULTIPLY = _KP | 85
K_KP_MINUS = _KP | 86
K_KP_PLUS = _KP | 87
K_KP_ENTER = _KP | 88
K_KP_1 = _KP | 89  # K_KP_1 .. K_KP_9 are consecutive
K_KP_0 = _KP | 98
K_KP_PERIOD = _KP | 99
K_INSERT = _KP | 73
K_HOME = _KP | 74
K_PAGEUP = _KP | 75
K_END = _KP | 77
K_PAGEDOWN = _KP | 78
K_CLEAR = _KP | 156
K_F11 = _KP | 68

ACTIONS = frozenset(
    {
        "digit",
        "char",
        "enter",
        "back",
        "next",
        "undo",
        "menu",
        "cancel",
        "times",
        "up",
        "down",
        "left",
        "right",
    }
)


@dataclass(frozen=True, slots=True)
class KeyAction:
    """What a key means. ``char`` is the text the key types (a digit, a letter, "+"),
    for screens that edit text (names, formulas); ``pad``: a key of the numeric keypad
    (see the module's notes on NumLock)."""

    name: str
    char: str = ""
    pad: bool = False

    @property
    def digit(self) -> int | None:
        return int(self.char) if self.name == "digit" else None


def _table() -> dict[int, KeyAction]:
    t: dict[int, KeyAction] = {}
    for n in range(10):
        t[ord("0") + n] = KeyAction("digit", str(n))
        t[K_KP_0 if n == 0 else K_KP_1 + n - 1] = KeyAction("digit", str(n), pad=True)
    t[K_RETURN] = KeyAction("enter")
    t[K_KP_ENTER] = KeyAction("enter", pad=True)
    t[K_KP_PLUS] = KeyAction("next", "+", pad=True)
    t[K_KP_MINUS] = KeyAction("undo", "-", pad=True)
    t[K_KP_MULTIPLY] = KeyAction("times", "*", pad=True)
    t[K_KP_DIVIDE] = KeyAction("menu", "/", pad=True)
    t[K_KP_PERIOD] = KeyAction("back", ".", pad=True)
    t[K_BACKSPACE] = t[K_DELETE] = KeyAction("back")
    t[K_ESCAPE] = KeyAction("cancel")
    t[K_SPACE] = KeyAction("times", " ")
    t[K_TAB] = KeyAction("next")
    # The keypad with NumLock off, when the keypad itself translates its keys.
    for key, digit in NUMLOCK_OFF_DIGITS.items():
        t[key] = KeyAction("digit", digit, pad=True)
    for key, (name, digit) in NUMLOCK_OFF_ARROWS.items():
        t[key] = KeyAction(name, digit, pad=True)
    t[ord("n")] = KeyAction("next", "n")
    t[ord("u")] = KeyAction("undo", "u")
    return t


# The navigation keys printed under the keypad's digits (NumLock off).
NUMLOCK_OFF_DIGITS = {K_INSERT: "0", K_END: "1", K_PAGEDOWN: "3", K_CLEAR: "5",
                      K_HOME: "7", K_PAGEUP: "9"}  # fmt: skip
NUMLOCK_OFF_ARROWS = {K_DOWN: ("down", "2"), K_LEFT: ("left", "4"),
                      K_RIGHT: ("right", "6"), K_UP: ("up", "8")}  # fmt: skip

KEY_TABLE: dict[int, KeyAction] = _table()

# Main-keyboard characters that mean the same as keypad keys (their keycodes depend
# on the layout, so they are matched by the text they type).
_TEXT = {
    "+": KeyAction("next", "+"),
    "-": KeyAction("undo", "-"),
    "*": KeyAction("times", "*"),
    "/": KeyAction("menu", "/"),
}


def action_for(key: int, text: str = "") -> KeyAction | None:
    """The action of a key press: ``key`` is the keycode, ``text`` the character it
    typed ("" if none). Letters and other printable signs become ``char`` actions (as
    typed, upper or lower case); anything else unknown is None (ignored).

    A main-row digit key that typed something else (Shift+9 is "(" on a US keyboard,
    Shift+7 is "/" on a German one) means what it typed."""
    action = KEY_TABLE.get(key)
    shifted = action is not None and action.name == "digit" and not action.pad
    if action is not None and not (shifted and text and text != action.char):
        if action.char in ("n", "u") and len(text) == 1 and text.isalpha():
            return KeyAction(action.name, text)  # next / undo, and the letter as typed
        return action
    if text in _TEXT:
        return _TEXT[text]
    if len(text) == 1 and text.isdigit() and text.isascii():
        return KeyAction("digit", text)  # a layout whose digits need Shift (AZERTY)
    if len(text) == 1 and text.isalpha():
        return KeyAction("char", text)
    if text in ("(", ")", ",", "'", "."):
        return KeyAction("char", text)
    if len(text) == 1 and text.isprintable() and not text.isspace():
        # Any other sign a keyboard typed ("&", '"'): a character, for the screen
        # that types text to take or to refuse with a word (the name entry).
        return KeyAction("char", text)
    return None


def typed_text(action: KeyAction) -> str:
    """What a key typed where a keyboard types a name: a letter (the keyboard's N and
    U too, next and undo elsewhere), ``-`` from the main keyboard, ``'`` or ``.``;
    "" for every other key (the keypad's keys keep their meanings there)."""
    if action.pad:
        return ""
    if action.name == "char" and (action.char.isalpha() or action.char in ("'", ".")):
        return action.char
    if action.name in ("next", "undo") and (action.char.isalpha() or action.char == "-"):
        return action.char
    return ""
