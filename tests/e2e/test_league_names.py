"""Player names on the real kiosk, headless, with its SQLite file in the test's
directory: a name typed at the kiosk finds the player a roster wrote another way."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_league_screens import kiosk, saved, to_league

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
