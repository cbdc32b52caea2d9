"""Merging two league players from the keypad (the real kiosk, headless, its SQLite
file in the test's folder): a merge is not undone, so only a choice of "Yes" does it."""

from __future__ import annotations

from pathlib import Path

from kiosk.ui.driver import Driver
from kiosk.ui.session import CricketSetup
from tests.e2e.test_league_screens import kiosk, rated_win, saved, to_league


def to_merge_confirm(d: Driver) -> None:
    """League -> Players -> Bob -> Merge into another player -> Ann."""
    to_league(d)
    d.press("4")  # Players: Add a player, Show retired players, Ann, Bob
    d.press("4")  # Bob
    assert d.screen.name == "player-actions", d.screen.name
    d.press("4")  # Merge into another player
    assert d.screen.name == "merge-pick"
    d.press("1")  # Ann, the one who stays
    assert d.screen.name == "merge-confirm"
    assert "Bob \u2192 Ann" in d.texts, d.texts


def test_enter_alone_on_the_merge_question_merges_nobody(tmp_path: Path) -> None:
    # "Yes, merge them" was lit: an Enter (meant for the list before) merged Bob away.
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        to_merge_confirm(d)
        d.look()
        d.press("\n")
        assert d.screen.name == "merge-pick"
        assert {p.name for p in store.players.roster()} == {"Ann", "Bob"}


def test_yes_on_the_merge_question_merges_the_two(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        to_merge_confirm(d)
        d.press("1")  # Yes, merge them
        assert d.screen.name == "players-list"
        assert "Merged: Bob \u2192 Ann" in d.texts, d.texts
        assert [p.name for p in store.players.roster()] == ["Ann"]


def test_a_merge_refused_says_why_large_and_leaves_only_a_way_back(tmp_path: Path) -> None:
    # The refusal was a small red line at the foot, under a lit "Yes, merge them".
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        rated_win(d, ["Ann", "Bob"], "Ann")  # they played each other: two people
        to_merge_confirm(d)
        d.press("1")  # Yes, merge them
        assert d.screen.name == "merge-confirm"
        assert "These two cannot be merged" in d.texts, d.texts
        assert "They played in the same game: two players, not one" in d.texts, d.texts
        assert any(t.startswith("Keypad:") for t in d.texts)  # (the foot is the keys again)
        assert "Yes, merge them" not in d.texts and "Back" in d.texts
        d.look()
        d.press("\n")  # the one line left: back
        assert d.screen.name == "merge-pick"
        assert {p.name for p in store.players.roster()} == {"Ann", "Bob"}


def test_a_merge_the_database_could_not_take_can_be_tried_again(tmp_path: Path) -> None:
    # Only the store's refusal ends the question: a locked or full disk is said at the
    # foot, with the question still there to answer again.
    import sqlite3

    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        to_merge_confirm(d)
        merge = store.players.merge

        def busy(source: str, into: str) -> object:
            raise sqlite3.OperationalError("database is locked")

        store.players.merge = busy  # type: ignore[method-assign]
        d.press("1")  # Yes, merge them
        assert "These two cannot be merged" not in d.texts and "Yes, merge them" in d.texts
        assert "The database did not answer: nothing was changed" in d.texts, d.texts
        store.players.merge = merge  # type: ignore[method-assign]
        d.press("1")
        assert d.screen.name == "players-list"
        assert [p.name for p in store.players.roster()] == ["Ann"]


def test_a_seats_default_name_is_not_offered_for_a_merge(tmp_path: Path) -> None:
    # "Player 2" (kept retired for the friendly games played under it) merged into a
    # player made every later game with default names fail to be stored.
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann")
        d.kiosk.games.cricket_log("cricket", CricketSetup(names=("Player 1", "Player 2")))
        to_league(d)
        d.press("4")  # Players
        d.press("2")  # Show retired players: on
        labels = [item.label for item in d.screen.items()]  # type: ignore[attr-defined]
        d.press(str(next(n for n, x in enumerate(labels, 1) if x.startswith("Player 2 "))))
        assert d.screen.name == "player-actions", d.screen.name
        offered = [item.label for item in d.screen.items()]  # type: ignore[attr-defined]
        assert "Merge into another player" not in offered and "Rename" in offered
        assert [p.name for p in store.players.roster()] == ["Ann"]


def test_a_default_name_merged_all_the_same_still_stores_its_games(tmp_path: Path) -> None:
    # (merged from the command line, or before the screen stopped offering it) It was
    # "the cricket game cannot be stored: 'Player 2' was merged into 'Ann'", at ERROR,
    # for every game played with the default names from then on: played in memory only.
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann")
        keeper = d.kiosk.games
        keeper.close(keeper.cricket_log("cricket", CricketSetup(names=("Player 1", "Player 2"))))
        store.players.merge("Player 2", "Ann")  # as `darts-kiosk players merge` does
        game = keeper.cricket_log("cricket", CricketSetup(names=("Player 1", "Player 2")))
        assert getattr(game, "id", None) is not None  # stored
        assert not store.games.get(game.id).rated  # a friendly game, as ever
        assert [p.name for p in store.players.roster()] == ["Ann"]
