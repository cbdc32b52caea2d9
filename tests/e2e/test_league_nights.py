"""League nights on the real kiosk, headless, with its SQLite file in the test's
directory, and the commands that list and export them."""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.adapters.store import Store
from tests.e2e.test_league_screens import kiosk, rated_cricket_typed, saved, to_league
from tests.integration.test_store_support import WINNING, command


def test_a_night_whose_only_league_game_was_ended_is_no_league_night(tmp_path: Path) -> None:
    db = tmp_path / "data" / "kiosk.sqlite3"
    with kiosk(tmp_path) as d:
        saved(d, "Ann", "Bob")  # a fresh database: no season, no night
        to_league(d)
        rated_cricket_typed(d, "ann", "bob")
        assert d.screen.name == "cricket"
        d.throw("T20")
        d.pad("/")  # the game menu
        d.press("5")  # End game
        assert "Really end the game? Choose again" in d.texts
        assert "A game ended early gets no league result" in d.texts, d.texts
        d.press("5")  # Really end the game
        assert d.screen.name == "main-menu"
    listed = command(db, "league", "season", "list").splitlines()
    assert listed[1].split()[1:3] == ["0", "0"], listed  # nights 0, games 0
    season = listed[1].split()[0]
    data = json.loads(command(db, "export", "--season", season, "--format", "json"))
    assert data["nights"] == [] and data["games"] == [] and data["standings"] == []
    # Nothing lost: the game is kept, abandoned, with its dart, in its evening's list.
    with Store.open(db) as store:
        assert store.games.get(1).status == "abandoned"
        assert [e.kind for e in store.games.events(1)] == ["dart"]
    assert "abandoned" in command(db, "league", "night", "tonight")
    # A result that evening makes it a league night after all.
    with Store.open(db) as store:
        live = store.start_game("cricket", ["Ann", "Bob"], rated=True)
        darts = iter(WINNING)
        while not live.is_over():
            live.dart(next(darts)) if live.engine.current_player == "Ann" else live.end_turn()
        live.finish()
    listed = command(db, "league", "season", "list").splitlines()
    assert listed[1].split()[1:3] == ["1", "1"], listed
    data = json.loads(command(db, "export", "--season", season, "--format", "json"))
    assert [len(n["standings"]) for n in data["nights"]] == [2]


def test_ending_a_game_that_is_not_rated_does_not_speak_of_the_league(tmp_path: Path) -> None:
    from kiosk_support import start_game

    with kiosk(tmp_path) as d:
        start_game(d, ("Ann", "Bob"))  # not saved players: a friendly game
        d.pad("/")
        d.press("5")
        assert "Really end the game? Choose again" in d.texts, d.texts
        assert "A game ended early gets no league result" not in d.texts
