"""The keypad letter picker: what each key does to the name being typed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.adapters import keypad as kp
from kiosk.ui.context import Kiosk, Settings
from kiosk.ui.screens.attract import AttractScreen
from kiosk.ui.screens.name_entry import LATIN, NameEditor, NameEntry, alphabets
from kiosk.ui.sound import Sound
from kiosk.ui.theme import assets_dir


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
    for ch in "олег":  # a keyboard's lower case letters
        ed.type(ch)
    ed.type(" ")
    ed.type("б")  # noqa: RUF001
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


def test_the_picker_writes_no_leading_or_doubled_space_either() -> None:
    ed = NameEditor()
    ed.jump_set(-1)  # 7: the symbols, from their first: a space
    assert ed.wheel[ed.pick or 0] == " "
    ed.accept()
    assert ed.text == "" and ed.pick is None
    ed.step(1)
    ed.accept()  # A
    ed.type(" ")
    ed.jump_set(-1)  # the space again
    ed.accept()
    assert ed.text == "A "


def test_after_a_hyphen_or_an_apostrophe_the_picker_wakes_on_the_last_letter() -> None:
    # As after a space: woken on the "-" just written, 5 wrote a second one
    # ("Jean--"), and the next letter was far from where the name left off.
    for typed, shown in (("Jean-", "Jean-N"), ("\u041c\u0430\u0440'", "\u041c\u0430\u0440'\u0440")):
        ed = NameEditor("", "uk")
        for ch in typed:
            ed.type(ch)
        ed.step(1)
        assert ed.preview() == shown
        assert NameEditor(typed, "uk").last == ed.last  # (a name given to edit, too)


def test_every_kind_of_apostrophe_typed_is_written_straight() -> None:
    # A curly one (a Ukrainian layout, a phone's) was refused, and the name saved
    # without it: "Dmytro OHara".
    for mark in ("'", "\u2019", "\u02bc", "`"):
        ed = NameEditor()
        for ch in f"O{mark}Hara":
            assert ed.type(ch), (mark, ch)
        assert ed.text == "O'Hara"


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


class NoBoard:
    """The name screen takes no darts: the devices are never asked for one."""

    source = "serial"
    virtual = False
    active = "serial"

    def throw(self, dart: object) -> bool:
        return False

    def switch(self, source: str) -> None:
        return None


def entry_screen() -> tuple[NameEntry, list[str]]:
    assets = assets_dir()
    kiosk = Kiosk(settings=Settings(), sound=Sound(assets / "sounds", 0), devices=NoBoard(),
                  locale_dir=assets / "locale")  # fmt: skip
    kiosk.stack.push(AttractScreen(kiosk))
    saved: list[str] = []

    def done(name: str) -> None:
        saved.append(name)  # None: the screen closes

    screen = NameEntry(kiosk, "New player", done)
    kiosk.stack.push(screen)
    return screen, saved


KP_2, KP_8 = kp.K_KP_1 + 1, kp.K_KP_1 + 7


def keys(screen: NameEntry, *presses: tuple[int, str]) -> None:
    """Key presses as pygame reports them: (keycode, the text it typed)."""
    for code, text in presses:
        action = kp.action_for(code, text)
        assert action is not None
        screen.process_event(action)


def test_main_keyboard_digits_type_digits_while_keypad_digits_drive_the_picker() -> None:
    screen, saved = entry_screen()
    keys(screen, (ord("t"), "t"), (ord("e"), "e"), (ord("a"), "a"), (ord("m"), "m"),
         (kp.K_SPACE, " "), (ord("2"), "2"))  # fmt: skip
    assert screen.editor.text == "Team 2"
    keys(screen, (kp.K_KP_0, "0"), (KP_2, "2"))  # the keypad: a space, wake the picker
    assert screen.editor.preview() == "Team 2 2"  # woken on the last written, not the space
    keys(screen, (KP_8, "8"), (kp.K_KP_1 + 4, "5"))  # back one: "1", written
    assert screen.editor.text == "Team 2 1"
    keys(screen, (kp.K_KP_ENTER, ""))  # Enter on the empty place saves
    assert saved == ["Team 2 1"]


def test_a_keypad_with_numlock_off_still_drives_the_picker() -> None:
    screen, saved = entry_screen()
    keys(screen, (kp.K_DOWN, ""), (kp.K_CLEAR, ""))  # 2 wakes the picker on A, 5 writes it
    keys(screen, (kp.K_PAGEDOWN, ""), (kp.K_DOWN, ""), (kp.K_CLEAR, ""))  # A +5 +1 = G
    keys(screen, (kp.K_DOWN, ""), (kp.K_UP, ""))  # wake on G, back one
    assert screen.editor.preview() == "Agf"
    keys(screen, (kp.K_KP_ENTER, ""), (kp.K_END, ""))  # write it; 1: the next alphabet
    keys(screen, (kp.K_KP_ENTER, ""), (kp.K_KP_ENTER, ""))  # write its first, save
    assert saved == ["Agf0"]


def typed(screen: NameEntry, text: str) -> None:
    """Text typed on a US keyboard, each key as pygame reports it: the keycode is the
    unshifted key's, the text what it typed (Shift included)."""
    for ch in text:
        keys(screen, (ord(ch.lower()) if ch.isalpha() else ord(ch), ch))


def test_a_keyboard_types_n_u_hyphen_and_apostrophe_as_letters_not_next_and_undo() -> None:
    screen, saved = entry_screen()
    typed(screen, "anna jean-luc")
    assert screen.editor.text == "Anna Jean-Luc"
    keys(screen, (kp.K_RETURN, ""))
    assert saved == ["Anna Jean-Luc"]
    screen, saved = entry_screen()
    typed(screen, "bruno o'neil j.")
    assert screen.editor.text == "Bruno O'neil J."


def test_a_keyboard_capital_stays_where_it_was_typed() -> None:
    screen, _ = entry_screen()
    typed(screen, "McDonald DJ")
    assert screen.editor.text == "McDonald DJ"
    screen, _ = entry_screen()
    typed(screen, "o'Brien")
    assert screen.editor.text == "O'Brien"


def test_the_keypads_plus_and_minus_still_turn_the_picker() -> None:
    screen, _ = entry_screen()
    keys(screen, (kp.K_KP_PLUS, "+"), (kp.K_KP_PLUS, "+"), (kp.K_KP_MINUS, "-"))
    assert screen.editor.preview() == "A"  # woken on A, on to B, back to A


def test_a_saved_name_longer_than_typing_allows_is_kept_whole_when_edited() -> None:
    ed = NameEditor("Bartholomew Worthington")  # 23 letters, from a roster import
    assert ed.text == "Bartholomew Worthington"
    ed.delete()
    assert ed.text == "Bartholomew Worthingto"
    assert ed.type("n") and ed.text == "Bartholomew Worthington"
