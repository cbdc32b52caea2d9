"""Player names on the real kiosk, headless, with its SQLite file in the test's
directory: a name typed at the kiosk finds the player a roster wrote another way."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_league_screens import kiosk, rows, saved, to_league

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
