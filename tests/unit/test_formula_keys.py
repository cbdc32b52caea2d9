"""Keypad keys -> formula tokens, and the editor they drive (pure, no pygame)."""

from __future__ import annotations

import pytest

from kiosk.adapters import formula_keys as fk
from kiosk.adapters import keypad as kp
from kiosk.adapters.formula_keys import FormulaEditor, Token, token_for, token_of

KEYPAD = [
    (kp.K_KP_0, "0", Token(fk.NEXT_DIGIT)),
    (kp.K_KP_1, "1", Token(fk.HINT)),
    (kp.K_KP_1 + 3, "4", Token(fk.MENU)),
    (kp.K_KP_1 + 4, "5", Token(fk.TEXT, "sqrt(")),
    (kp.K_KP_1 + 5, "6", Token(fk.TEXT, ",")),
    (kp.K_KP_1 + 6, "7", Token(fk.TEXT, "(")),
    (kp.K_KP_1 + 7, "8", Token(fk.TEXT, "pow(")),
    (kp.K_KP_1 + 8, "9", Token(fk.TEXT, ")")),
    (kp.K_KP_1 + 1, "2", Token(fk.UNUSED)),
    (kp.K_KP_PLUS, "+", Token(fk.TEXT, "+")),
    (kp.K_KP_MINUS, "-", Token(fk.TEXT, "-")),
    (kp.K_KP_MULTIPLY, "*", Token(fk.TEXT, "*")),
    (kp.K_KP_DIVIDE, "/", Token(fk.TEXT, "/")),
    (kp.K_KP_PERIOD, ".", Token(fk.DELETE)),
    (kp.K_BACKSPACE, "", Token(fk.DELETE)),
    (kp.K_KP_ENTER, "", Token(fk.SUBMIT)),
    (kp.K_ESCAPE, "", Token(fk.MENU)),
]


@pytest.mark.parametrize(("key", "text", "token"), KEYPAD)
def test_every_keypad_key_has_its_formula_meaning(key: int, text: str, token: Token) -> None:
    action = kp.action_for(key, text)
    assert action is not None
    assert token_of(action) == token


def test_the_boards_buttons_are_not_editing_keys() -> None:
    assert token_for("next", "") == Token(fk.FORWARD)
    assert token_for("undo", "") == Token(fk.FORWARD)
    assert token_for("menu", "") == Token(fk.MENU)


def keyboard(editor: FormulaEditor, text: str) -> None:
    """``text`` typed on a keyboard, through the key table (Backspace as ``\\b``)."""
    for ch in text:
        code = kp.K_BACKSPACE if ch == "\b" else ord(ch.lower()) if ch.isalpha() else 0
        action = kp.action_for(code, "" if ch == "\b" else ch)
        assert action is not None, ch
        token = token_of(action)
        assert token is not None, ch
        editor.apply(token)


def test_a_keyboard_types_brackets_commas_and_function_names_a_key_at_a_time() -> None:
    editor = FormulaEditor(3489)
    keyboard(editor, "POW(")
    assert editor.text == "pow("
    keyboard(editor, "\b")  # Backspace takes back the bracket, as a keyboard does
    assert editor.text == "pow"
    keyboard(editor, "\b\b")
    assert editor.text == "p"


def test_backspace_after_a_mistyped_word_takes_back_one_letter_not_the_word() -> None:
    # One Backspace took the whole word: "sqrtt" typo'd, and all of it was gone.
    editor = FormulaEditor(3489)
    keyboard(editor, "sqrtt\b(")
    assert editor.text == "sqrt("


def test_letters_count_towards_the_formulas_keys_and_stop_there() -> None:
    # Letters gathered into one token the cap never counted: a word grew without end.
    editor = FormulaEditor(3489)
    keyboard(editor, "x" * (fk.MAX_TOKENS + 50))
    assert editor.full and len(editor.text) == fk.MAX_TOKENS
    assert not editor.apply(Token(fk.TEXT, "x"))
    keyboard(editor, "\b")
    assert len(editor.text) == fk.MAX_TOKENS - 1


def test_main_row_digits_are_digits_when_the_key_table_tells_them_apart() -> None:
    assert token_for("digit", "7", pad=False) == Token(fk.TEXT, "7")
    assert token_for("digit", "7", pad=True) == Token(fk.TEXT, "(")


def test_zero_inserts_the_next_digit_and_pressed_twice_joins_them() -> None:
    editor = FormulaEditor(3489)
    for token in [Token(fk.NEXT_DIGIT), Token(fk.NEXT_DIGIT), Token(fk.TEXT, "+")]:
        editor.apply(token)
    assert editor.text == "34+" and editor.next_digit == "8" and editor.used == 2
    editor.apply(Token(fk.NEXT_DIGIT))
    editor.apply(Token(fk.NEXT_DIGIT))
    assert editor.text == "34+89" and editor.next_digit is None
    assert not editor.apply(Token(fk.NEXT_DIGIT))  # no fifth digit
    assert editor.text == "34+89"


def test_delete_takes_back_a_whole_token() -> None:
    editor = FormulaEditor(3489)
    for token in [Token(fk.TEXT, "sqrt("), Token(fk.NEXT_DIGIT), Token(fk.TEXT, "pow(")]:
        editor.apply(token)
    assert editor.text == "sqrt(3pow("
    editor.apply(Token(fk.DELETE))
    assert editor.text == "sqrt(3"
    editor.apply(Token(fk.DELETE))
    editor.apply(Token(fk.DELETE))
    assert editor.text == ""
    assert not editor.apply(Token(fk.DELETE))  # nothing left: no error


def test_a_keypad_sending_arrows_with_numlock_off_gets_the_same_tokens() -> None:
    up = kp.action_for(kp.K_UP, "")
    left = kp.action_for(kp.K_LEFT, "")
    end = kp.action_for(kp.K_END, "")
    assert up is not None and token_of(up) == Token(fk.TEXT, "pow(")
    assert left is not None and token_of(left) == Token(fk.MENU)
    assert end is not None and token_of(end) == Token(fk.HINT)


def test_a_full_keyboard_types_a_whole_formula_with_digits_and_slash() -> None:
    editor = FormulaEditor(3489)
    typed = [("(", "("), ("3", "3"), ("4", "4"), ("+", "+"), ("8", "8"), (")", ")"),
             ("/", "/"), ("9", "9")]  # fmt: skip
    for key_text, text in typed:
        key = ord(key_text) if key_text.isdigit() else 0
        action = kp.action_for(key, text)
        assert action is not None
        token = token_of(action)
        assert token is not None
        editor.apply(token)
    assert editor.text == "(34+8)/9"


def test_a_formula_taken_back_comes_back_as_tokens() -> None:
    editor = FormulaEditor(3489)
    editor.load("pow(3,4)+89")
    assert editor.tokens[0] == "pow(" and editor.text == "pow(3,4)+89"
    editor.apply(Token(fk.DELETE))
    assert editor.text == "pow(3,4)+8" and editor.next_digit == "9"
    editor.load("sqrt( 34 )*pow(8, 9)")  # (spaces left out: the keypad types none)
    assert editor.tokens[:2] == ["sqrt(", "3"] and "pow(" in editor.tokens


@pytest.mark.parametrize("typed", ["2^5+78", "2.5*78", "25%78", "25+78!"])
def test_a_sign_the_rules_refuse_is_kept_for_them_to_refuse_not_dropped(typed: str) -> None:
    # It was dropped: 2^5+78 was scored as 25+78 without a word.
    from kiosk.domain.formula.expression import FormulaError, evaluate

    editor = FormulaEditor(2578)
    for ch in typed:
        action = kp.action_for(0, ch)
        assert action is not None
        token = token_of(action)
        assert token is not None, ch
        editor.apply(token)
    assert editor.text.replace(" ", "") == typed
    with pytest.raises(FormulaError):
        evaluate(editor.text, 2578)
