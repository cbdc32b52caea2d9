"""The keypad table: every key of a USB numeric keypad means something, and the SDL
keycodes spelled out in kiosk.adapters.keypad are pygame's own."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from kiosk.adapters import keypad  # noqa: E402
from kiosk.adapters.keypad import KeyAction, action_for  # noqa: E402

KEYPAD = [
    (pygame.K_KP0, KeyAction("digit", "0", pad=True)),
    (pygame.K_KP1, KeyAction("digit", "1", pad=True)),
    (pygame.K_KP5, KeyAction("digit", "5", pad=True)),
    (pygame.K_KP9, KeyAction("digit", "9", pad=True)),
    (pygame.K_KP_ENTER, KeyAction("enter", pad=True)),
    (pygame.K_KP_PLUS, KeyAction("next", "+", pad=True)),
    (pygame.K_KP_MINUS, KeyAction("undo", "-", pad=True)),
    (pygame.K_KP_MULTIPLY, KeyAction("times", "*", pad=True)),
    (pygame.K_KP_DIVIDE, KeyAction("menu", "/", pad=True)),
    (pygame.K_KP_PERIOD, KeyAction("back", ".", pad=True)),
]


@pytest.mark.parametrize(("key", "action"), KEYPAD)
def test_every_numeric_keypad_key_has_its_action(key: int, action: KeyAction) -> None:
    assert action_for(key, "") == action


@pytest.mark.parametrize(
    ("name", "ours"),
    [
        ("K_RETURN", keypad.K_RETURN),
        ("K_ESCAPE", keypad.K_ESCAPE),
        ("K_BACKSPACE", keypad.K_BACKSPACE),
        ("K_SPACE", keypad.K_SPACE),
        ("K_UP", keypad.K_UP),
        ("K_DOWN", keypad.K_DOWN),
        ("K_LEFT", keypad.K_LEFT),
        ("K_RIGHT", keypad.K_RIGHT),
        ("K_KP0", keypad.K_KP_0),
        ("K_KP1", keypad.K_KP_1),
        ("K_KP_ENTER", keypad.K_KP_ENTER),
        ("K_KP_PERIOD", keypad.K_KP_PERIOD),
        ("K_PAGEUP", keypad.K_PAGEUP),
        ("K_PAGEDOWN", keypad.K_PAGEDOWN),
        ("K_HOME", keypad.K_HOME),
        ("K_END", keypad.K_END),
        ("K_INSERT", keypad.K_INSERT),
        ("K_DELETE", keypad.K_DELETE),
        ("K_CLEAR", keypad.K_CLEAR),
        ("K_TAB", keypad.K_TAB),
    ],
)
def test_the_keycodes_written_out_are_pygames(name: str, ours: int) -> None:
    assert getattr(pygame, name) == ours


def test_main_keyboard_digits_enter_and_arrows_work_like_the_keypad() -> None:
    assert action_for(pygame.K_3, "3") == KeyAction("digit", "3")
    assert not action_for(pygame.K_3, "3").pad  # type: ignore[union-attr]
    assert action_for(pygame.K_RETURN, "\r") == KeyAction("enter")
    assert action_for(pygame.K_UP, "").name == "up"
    assert action_for(pygame.K_ESCAPE, "\x1b").name == "cancel"


def test_letters_type_dart_codes_and_n_u_are_next_and_undo() -> None:
    assert action_for(pygame.K_t, "t") == KeyAction("char", "t")  # as typed
    assert action_for(pygame.K_t, "T") == KeyAction("char", "T")
    assert action_for(pygame.K_n, "n").name == "next"
    assert action_for(pygame.K_u, "u").name == "undo"
    assert action_for(pygame.K_n, "N") == KeyAction("next", "N")  # the letter kept, for names
    assert action_for(0, "д") == KeyAction("char", "д")  # a Cyrillic layout types names


def test_plus_and_minus_on_the_main_keyboard_follow_the_text_typed() -> None:
    assert action_for(pygame.K_EQUALS, "+").name == "next"
    assert action_for(pygame.K_MINUS, "-").name == "undo"


def test_unknown_keys_are_ignored_not_errors() -> None:
    assert action_for(pygame.K_F5, "") is None
    assert action_for(pygame.K_LSHIFT, "") is None
    assert KeyAction("digit", "7").digit == 7 and KeyAction("enter").digit is None


def test_a_keypad_with_numlock_off_still_sends_its_digits() -> None:
    # SDL2 reports the keypad's own keycodes with NumLock off; only the text is gone.
    assert action_for(pygame.K_KP_7, "") == KeyAction("digit", "7", pad=True)
    assert action_for(pygame.K_KP_PERIOD, "") == KeyAction("back", ".", pad=True)


@pytest.mark.parametrize(
    ("key", "digit"),
    [
        (pygame.K_INSERT, "0"),
        (pygame.K_END, "1"),
        (pygame.K_PAGEDOWN, "3"),
        (pygame.K_CLEAR, "5"),
        (pygame.K_HOME, "7"),
        (pygame.K_PAGEUP, "9"),
    ],
)
def test_a_keypad_sending_navigation_keys_types_the_digit_printed_above_them(
    key: int, digit: str
) -> None:
    assert action_for(key, "") == KeyAction("digit", digit, pad=True)


def test_arrows_move_in_menus_and_carry_the_keypad_digit_they_sit_on() -> None:
    arrows = {pygame.K_UP: ("up", "8"), pygame.K_DOWN: ("down", "2"),
              pygame.K_LEFT: ("left", "4"), pygame.K_RIGHT: ("right", "6")}  # fmt: skip
    for key, (name, digit) in arrows.items():
        action = action_for(key, "")
        assert action is not None and (action.name, action.char, action.pad) == (name, digit, True)
    assert action_for(pygame.K_DELETE, "").name == "back"  # type: ignore[union-attr]


def test_slash_on_the_main_keyboard_is_the_menu_key_like_the_keypads() -> None:
    assert action_for(pygame.K_SLASH, "/") == KeyAction("menu", "/")
    assert action_for(pygame.K_7, "/") == KeyAction("menu", "/")  # Shift+7, German layout


def test_shifted_digit_keys_mean_what_they_typed() -> None:
    assert action_for(pygame.K_9, "(") == KeyAction("char", "(")  # Shift+9, US layout
    assert action_for(pygame.K_8, "*") == KeyAction("times", "*")
    assert action_for(pygame.K_AMPERSAND, "1") == KeyAction("digit", "1")  # AZERTY
