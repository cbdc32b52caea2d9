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

A keyboard adds arrows, Esc (``cancel``), Backspace, Space (a separator like ``*``)
and letters (``char``) so codes such as ``T20``, ``DB`` or ``MISS`` can be typed;
``N`` and ``U`` are next player and undo.
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
K_PAGEUP = _KP | 75
K_PAGEDOWN = _KP | 78
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
    for screens that edit text (names, later formulas)."""

    name: str
    char: str = ""

    @property
    def digit(self) -> int | None:
        return int(self.char) if self.name == "digit" else None


def _table() -> dict[int, KeyAction]:
    t: dict[int, KeyAction] = {}
    for n in range(10):
        t[ord("0") + n] = KeyAction("digit", str(n))
        t[K_KP_0 if n == 0 else K_KP_1 + n - 1] = KeyAction("digit", str(n))
    t[K_RETURN] = t[K_KP_ENTER] = KeyAction("enter")
    t[K_KP_PLUS] = KeyAction("next", "+")
    t[K_KP_MINUS] = KeyAction("undo", "-")
    t[K_KP_MULTIPLY] = KeyAction("times", "*")
    t[K_KP_DIVIDE] = KeyAction("menu", "/")
    t[K_KP_PERIOD] = KeyAction("back", ".")
    t[K_BACKSPACE] = t[K_DELETE] = KeyAction("back")
    t[K_ESCAPE] = KeyAction("cancel")
    t[K_SPACE] = KeyAction("times", " ")
    t[K_TAB] = t[K_PAGEDOWN] = KeyAction("next")
    t[K_PAGEUP] = KeyAction("undo")
    t[K_UP] = KeyAction("up")
    t[K_DOWN] = KeyAction("down")
    t[K_LEFT] = KeyAction("left")
    t[K_RIGHT] = KeyAction("right")
    t[ord("n")] = KeyAction("next", "n")
    t[ord("u")] = KeyAction("undo", "u")
    return t


KEY_TABLE: dict[int, KeyAction] = _table()

# Main-keyboard characters that mean the same as keypad keys (their keycodes depend
# on the layout, so they are matched by the text they type).
_TEXT = {"+": KeyAction("next", "+"), "-": KeyAction("undo", "-"), "*": KeyAction("times", "*")}


def action_for(key: int, text: str = "") -> KeyAction | None:
    """The action of a key press: ``key`` is the keycode, ``text`` the character it
    typed ("" if none). Letters become ``char`` actions (upper case); anything else
    unknown is None (ignored)."""
    action = KEY_TABLE.get(key)
    if action is not None:
        return action
    if text in _TEXT:
        return _TEXT[text]
    if len(text) == 1 and text.isalpha():
        return KeyAction("char", text.upper())
    if text in ("(", ")", ","):
        return KeyAction("char", text)
    return None
