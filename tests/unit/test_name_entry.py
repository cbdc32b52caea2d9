"""The keypad letter picker: what each key does to the name being typed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.ui.screens.name_entry import LATIN, NameEditor, alphabets


def pick(ed: NameEditor, letter: str) -> None:
    """Wake the picker and turn it down to ``letter`` (as a player would with 2s)."""
    ed.step(1)
    while ed.wheel[ed.pick] != letter:  # type: ignore[index]
        ed.step(1)
    assert ed.accept() is False


def test_two_turns_the_letters_and_enter_writes_them_capitalised_by_place() -> None:
    ed = NameEditor()
    ed.step(1)  # wakes on A
    assert ed.preview() == "A"
    assert ed.accept() is False
    pick(ed, "N")
    ed.step(1)  # wakes on the last letter written: a double letter is one press
    assert ed.preview() == "Ann"
    ed.accept()
    pick(ed, "A")
    assert ed.text == "Anna"
    assert ed.accept() is True  # Enter on the empty place: save


def test_eight_goes_back_and_wraps_round_the_alphabets() -> None:
    ed = NameEditor()
    ed.step(1)
    ed.step(-1)
    assert ed.wheel[ed.pick] == "."  # type: ignore[index]
    ed.step(1)
    ed.step(5)
    assert ed.wheel[ed.pick] == "F"  # type: ignore[index]


def test_ukrainian_puts_cyrillic_first_and_one_jumps_to_latin() -> None:
    ed = NameEditor(language="uk")
    assert ed.sets[0].startswith("АБВГҐ")
    ed.step(1)
    assert ed.preview() == "\u0410"  # Cyrillic A
    ed.jump_set(1)
    assert ed.preview() == "A" and ed.wheel[ed.pick] in LATIN  # type: ignore[index]
    ed.jump_set(-1)
    ed.jump_set(-1)  # wraps to the symbols
    assert ed.wheel[ed.pick] == " "  # type: ignore[index]
    assert "Ё" in alphabets("ru")[0] and "Ґ" not in alphabets("ru")[0]
    assert alphabets("en")[0] == LATIN


def test_letters_after_the_first_are_lower_case_and_a_new_word_starts_upper() -> None:
    ed = NameEditor(language="uk")
    for ch in "ОЛЕГ":
        ed.type(ch)
    ed.type(" ")
    ed.type("Б")
    assert ed.text == "Олег Б"


def test_cursor_moves_and_two_changes_a_written_letter_in_place() -> None:
    ed = NameEditor("Bob")
    ed.move(-3)
    assert ed.cursor == 0
    ed.step(1)
    assert ed.text == "Cob"
    ed.move(1)
    ed.step(-1)
    assert ed.text == "Cnb"  # lower case: not the start of a word
    assert ed.accept() is False and ed.cursor == 2


def test_dot_deletes_the_pick_then_letters_then_reports_an_empty_name() -> None:
    ed = NameEditor("Al")
    ed.step(1)
    assert ed.delete() and ed.text == "Al" and ed.pick is None
    assert ed.delete() and ed.text == "A"
    ed.move(-1)
    assert ed.delete() and ed.text == ""
    assert ed.delete() is False


def test_moving_the_cursor_keeps_a_picked_letter() -> None:
    ed = NameEditor("Jo")
    pick_only = ed.step(1)
    assert pick_only
    ed.move(-1)
    assert ed.text == "Joo"


def test_the_name_stops_at_its_length_limit() -> None:
    ed = NameEditor("X" * 16)
    assert ed.full and ed.step(1) is False
    assert ed.type("Y") is False
    assert ed.text == "X" * 16


def test_a_keyboard_space_is_never_leading_or_doubled() -> None:
    ed = NameEditor()
    assert ed.type(" ") is False
    ed.type("A")
    ed.type(" ")
    assert ed.type(" ") is False
    assert ed.text == "A "


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["step+", "step-", "jump", "left", "right", "enter", "del", "a"])))
def test_no_key_sequence_breaks_the_editor(keys: list[str]) -> None:
    ed = NameEditor("Ann", language="ru")
    for key in keys:
        {
            "step+": lambda: ed.step(1),
            "step-": lambda: ed.step(-5),
            "jump": lambda: ed.jump_set(1),
            "left": lambda: ed.move(-1),
            "right": lambda: ed.move(1),
            "enter": ed.accept,
            "del": ed.delete,
            "a": lambda: ed.type("a"),
        }[key]()
        assert 0 <= ed.cursor <= len(ed.chars) <= ed.max_len
        assert all(len(c) == 1 for c in ed.chars)
