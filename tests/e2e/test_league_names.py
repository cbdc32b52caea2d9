"""Player names on the real kiosk, headless, with its SQLite file in the test's
directory: typed on the keypad's letter picker or a keyboard, refused when a name
cannot hold them or is taken, and a name typed at the kiosk finds the player a roster
wrote another way."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_league_screens import keypad, kiosk, rows, saved, to_league, to_the_first_place

CURLY, STRAIGHT = "Лук\u2019ян", "Лук'ян"


def test_a_name_typed_with_a_straight_apostrophe_finds_the_player_of_the_roster(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, CURLY, "Ann")  # as imported from a roster written in Word
        to_league(d)
        d.press("1")  # a rated Cricket game
        d.press("5")  # Choose players: on place 1
        d.press(STRAIGHT + "\n")  # the kiosk's name entry types only '
        assert d.screen.name == "players", d.texts  # no "not a saved player: add?"
        assert CURLY in d.texts and STRAIGHT not in d.texts
        d.keyboard("ann\n")
        d.press("3")  # Start game
        assert d.screen.name == "cricket"
        (game,) = store.games.unfinished()
        assert game.players == (CURLY, "Ann") and game.rated
        assert [p.name for p in store.players.roster()] == ["Ann", CURLY]


def test_a_name_typed_on_a_keyboard_with_start_game_chosen_goes_to_the_first_place(
    tmp_path: Path,
) -> None:
    # The players screen opens on "Start game" (Player 1 and 2 placed): typing "Anna"
    # lost the A, and the first n moved the choice, so "Na" was entered.
    with kiosk(tmp_path) as d:
        store = saved(d, "Anna", "Boris")
        d.press("\n")  # attract -> main menu
        d.press("1")  # Cricket
        d.press("5")  # Choose players
        assert d.screen.name == "players"
        d.keyboard("anna\n")
        assert d.screen.name == "players", d.texts
        d.keyboard("boris\n")
        d.press("3")  # Start game
        assert d.screen.name == "cricket"
        (game,) = store.games.unfinished()
        assert game.players == ("Anna", "Boris")


# In the Ukrainian alphabet's order (kiosk.domain.names.CYRILLIC_ORDER); code points put
# its own letters after the last, Я. Latin first, as before.
IN_ORDER = ["Anna", "Гена", "Ґалина", "Євген", "Ірина", "Олег", "Ярослав"]
ADDED = ["Ярослав", "Ірина", "Anna", "Олег", "Ґалина", "Євген", "Гена"]


def test_ukrainian_names_are_listed_in_alphabet_order_everywhere(tmp_path: Path) -> None:
    from tests.integration.test_store_support import draw_cricket

    with kiosk(tmp_path) as d:
        store = saved(d, *ADDED)
        for pair in (["Ярослав", "Гена"], ["Ірина", "Ґалина"], ["Олег", "Євген"]):
            draw_cricket(store, pair)  # all six level: listed by name
        to_league(d)
        d.press("4")  # Players
        listed = [t.split("   ·   ")[0] for t in d.texts if "   ·   " in t]
        assert listed == IN_ORDER
        d.press("/")
        d.press("2")  # Tonight's standings
        assert rows(d, IN_ORDER) == IN_ORDER[1:]
        d.look()  # (the standings read first)
        d.press("\n")  # the top row: Гена's page
        assert d.screen.name == "player-page" and "Гена" in d.texts
        d.press("+")  # the next player on the roster
        assert "Ґалина" in d.texts
        d.press("/")
        d.press("/")
        d.press("1")  # a rated Cricket game
        d.press("5")  # Choose players
        d.press("1")  # place 1: the saved players to choose from
        assert d.screen.name == "seat-chooser"
        # (tonight's players first, by name; then the others: Anna has not played)
        assert rows(d, IN_ORDER) == [*IN_ORDER[1:], "Anna"]


def test_a_player_typed_with_the_keypad_letter_picker_is_saved_and_listed(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        to_league(d)
        d.press("4")  # Players
        d.press("1")  # Add a player
        assert d.screen.name == "name-entry"
        # A (wake) Enter; N = A +5 +5 +1+1+1 Enter; N (wake on the last) Enter;
        # A = N -5 -5 -1-1-1 Enter; Enter on the empty place saves.
        keypad(d, "2\n" + "33222\n" + "2\n" + "99888\n")
        assert "Name: Anna" in d.texts
        keypad(d, "\n")
        assert d.screen.name == "players-list"
        store = d.kiosk.store
        assert store is not None
        assert store.players.find("Anna") is not None
        assert "Anna   ·   1500" in d.texts
        assert "Added: Anna" in d.texts


def test_after_a_space_the_keypad_picker_wakes_on_the_last_letter_never_a_second_space(
    tmp_path: Path,
) -> None:
    # "Anna", 0 (a space), then 2 to wake the picker for the surname: it woke on the
    # space just written, so 5 wrote a second one ("Anna  " on screen, which a
    # keyboard refuses), and the surname's first letter was five presses further on.
    with kiosk(tmp_path) as d:
        to_league(d)
        d.press("4")  # Players
        d.press("1")  # Add a player
        keypad(d, "2\n" + "33222\n" + "2\n" + "99888\n")  # Anna (as above)
        keypad(d, "0")  # a space
        keypad(d, "2")  # wake the picker: on the last letter, A (a new word: capital)
        assert "Name: Anna A" in d.texts, [t for t in d.texts if t.startswith("Name")]
        keypad(d, "2\n")  # B, written
        assert d.screen.editor.text == "Anna B"  # type: ignore[attr-defined]
        keypad(d, "\n")  # Enter on the empty place saves
        assert d.screen.name == "players-list"
        store = d.kiosk.store
        assert store is not None
        assert [p.name for p in store.players.roster()] == ["Anna B"]


@pytest.mark.parametrize(
    ("language", "keys", "name"),
    [
        # 9: five back, wrapping round to the Ukrainian letters; 8: back one, to I
        ("ru", "985" + "9789995" + "92295" + "35" + "175", "\u0406\u0440\u0438\u043d\u0430"),
        # 7: the symbols, 9s: five back into the Cyrillic letters...; after the
        # apostrophe the picker wakes on its last letter, and 3 3 3 is the last one
        ("en", "799995" + "175" + "323335" + "1225" + "3335" + "9229995" + "175", "Мар'яна"),  # noqa: RUF001
    ],
)
def test_the_keypad_types_cyrillic_names_the_kiosks_own_alphabet_lacks(
    tmp_path: Path, language: str, keys: str, name: str
) -> None:
    # On a kiosk that speaks Russian the picker had no Ukrainian I (nor Ї Є Ґ): Iryna
    # could only be typed with the Russian И, another player; one that speaks English
    # had no Cyrillic at all.
    with kiosk(tmp_path, size=(800, 480), language=language) as d:
        to_league(d)
        d.press("4")  # Players
        d.press("1")  # Add a player
        keypad(d, keys + "\n")  # Enter on the empty place saves
        assert d.screen.name == "players-list", d.texts
        store = d.kiosk.store
        assert store is not None
        assert [p.name for p in store.players.roster()] == [name]


def test_a_name_already_taken_is_refused_on_the_entry_screen(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Bob")
        to_league(d)
        d.press("41")
        d.press("BOB\n")
        assert d.screen.name == "name-entry"
        assert "There is already a player with this name" in d.texts
        assert [p.name for p in store.players.roster()] == ["Bob"]


def test_a_keyboard_types_a_name_starting_with_n_on_a_place_and_a_hyphen_in_it(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann")
        to_the_first_place(d)
        d.keyboard("nina-uma\n")  # N, U and - are letters and a hyphen here
        # Not on the roster: asked once (a typo would split a player's record in two).
        assert "Nina-Uma is not a saved player: Enter again to add" in d.texts
        assert store.players.find("Nina-Uma") is None
        d.keyboard("\n")
        assert d.screen.name == "players"
        assert "Nina-Uma" in d.texts
        assert store.players.find("Nina-Uma") is not None


def test_a_character_a_name_cannot_hold_is_said_and_the_name_typed_is_kept(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann")
        to_the_first_place(d)
        d.keyboard("ac/")  # a keyboard's "/" threw the name away (it was cancel)
        assert d.screen.name == "name-entry"
        assert "/ cannot be used in a name: letters, digits, space, - ' ." in d.texts
        d.keyboard("dc &")  # and "&" vanished without a word
        assert "& cannot be used in a name: letters, digits, space, - ' ." in d.texts
        d.keyboard("+")  # a keyboard's + stepped the letter picker ("Tom+Jerry" went in
        assert "+ cannot be used in a name: letters, digits, space, - ' ." in d.texts
        d.keyboard("*")  # as "Tommjerry"), its * saved the name half typed
        assert d.screen.name == "name-entry"
        assert "* cannot be used in a name: letters, digits, space, - ' ." in d.texts
        d.keyboard("\n\n")  # (a new player: Enter twice)
        assert d.screen.name == "players" and store.players.find("Acdc") is not None
