"""A player's finished games (``League.player_games``), the list the player page reads,
in a real SQLite file."""

from datetime import datetime, timedelta

import pytest
from test_store_support import Clock, quick_formula_settings, win_cricket

from kiosk.adapters.store import PlayerGame, Store


@pytest.fixture
def clock():
    return Clock(datetime(2025, 3, 4, 20, 0).astimezone())


@pytest.fixture
def store(tmp_path, clock):
    with Store.open(tmp_path / "kiosk.sqlite3", clock=clock) as s:
        for name in ("Ann", "Bob", "Cy"):
            s.players.add(name)
        yield s


def pid(store, name):
    return store.players.find(name).id


def play_an_evening(store, clock):
    """Ann: a rated Cricket win, a training Cricket loss, a qualification win; Bob and
    Cy play one game Ann is not in; one game of Ann's is abandoned, one left in play."""
    night = store.league.tonight()
    ids = {}
    live = store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=night.id)
    win_cricket(live, 0)
    ids["league"] = live.id
    clock.now += timedelta(minutes=10)
    live = store.start_game("cricket", ["Ann", "Cy"])
    win_cricket(live, 1)
    ids["training"] = live.id
    clock.now += timedelta(minutes=10)
    live = store.start_game("cricket", ["Bob", "Cy"], rated=True)
    win_cricket(live, 0)
    ids["others"] = live.id
    clock.now += timedelta(minutes=10)
    live = store.start_game("formula", ["Ann"], quick_formula_settings("qualification"), rated=True)
    live.submit(0, "50+0*1")
    live.finish()
    ids["formula"] = live.id
    clock.now += timedelta(minutes=10)
    live = store.start_game("cricket", ["Ann", "Bob"])
    live.dart("T20")
    store.abandon(live.id)
    ids["abandoned"] = live.id
    live = store.start_game("cricket", ["Ann", "Cy"])
    live.dart("T19")
    ids["playing"] = live.id
    return night, ids


def test_a_players_finished_games_come_newest_first_with_what_the_page_shows(store, clock):
    night, ids = play_an_evening(store, clock)
    games = store.league.player_games(pid(store, "Ann"))
    assert [g.game_id for g in games] == [ids["formula"], ids["training"], ids["league"]]
    assert [(g.kind, g.rated, g.outcome) for g in games] == [
        ("formula", True, "won"),
        ("cricket", False, "lost"),
        ("cricket", True, "won"),
    ]
    formula, training, league = games
    assert (formula.rounds, formula.points_total, formula.finished) == (1, 50, True)
    assert formula.mpr is None
    # The league win: 8 darts, 21 scoring marks (see test_store_league).
    assert league.mpr == pytest.approx(21 / 8 * 3)
    assert league.night == night.date
    assert training.night is None  # a training game belongs to no league night
    assert all(isinstance(g, PlayerGame) for g in games)


def test_abandoned_unfinished_and_other_players_games_are_not_in_the_list(store, clock):
    _night, ids = play_an_evening(store, clock)
    anns = {g.game_id for g in store.league.player_games(pid(store, "Ann"))}
    assert anns == {ids["league"], ids["training"], ids["formula"]}
    bobs = [g.game_id for g in store.league.player_games(pid(store, "Bob"))]
    assert bobs == [ids["others"], ids["league"]]


def test_the_limit_keeps_the_newest_games(store, clock):
    play_an_evening(store, clock)
    ann = pid(store, "Ann")
    assert store.league.player_games(ann, limit=2) == store.league.player_games(ann)[:2]
    assert store.league.player_games(ann, limit=0) == []


def test_a_player_with_no_games_has_an_empty_list(store):
    assert store.league.player_games(pid(store, "Cy")) == []
    assert store.league.player_games(9999) == []


def test_a_player_game_is_a_frozen_value(store, clock):
    play_an_evening(store, clock)
    game = store.league.player_games(pid(store, "Ann"))[0]
    with pytest.raises(AttributeError):
        game.outcome = "lost"  # type: ignore[misc]


def test_merged_players_games_follow_the_player_they_were_merged_into(store, clock):
    night = store.league.tonight()
    store.players.add("Annie")
    win_cricket(store.start_game("cricket", ["Annie", "Bob"], rated=True, night_id=night.id), 0)
    store.players.merge("Annie", "Ann")
    assert [g.outcome for g in store.league.player_games(pid(store, "Ann"))] == ["won"]


def test_the_games_finished_last_come_in_the_order_played_whatever_the_clock(store, clock):
    # A kiosk whose clock ran a day ahead, then set right: the attract screen's last
    # results must still start with tonight's game, not fill with yesterday's.
    clock.now += timedelta(days=1)
    for _ in range(2):
        win_cricket(store.start_game("cricket", ["Ann", "Bob"]), 0)
    clock.now -= timedelta(days=1)
    live = store.start_game("cricket", ["Bob", "Cy"])
    win_cricket(live, 1)
    abandoned = store.start_game("cricket", ["Ann", "Cy"])
    store.abandon(abandoned.id)
    assert store.games.last_finished(8) == [live.id, live.id - 1, live.id - 2]
    assert store.games.last_finished(1) == [live.id]


def test_a_players_games_come_newest_first_after_the_clock_went_back(store, clock):
    # Three losses on Friday; the Pi restarts with last week's date, and Ann wins: her
    # page listed the win as her oldest game (form, MPR trend, formula average).
    for _ in range(3):
        win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 1)
        clock.now += timedelta(minutes=20)
    clock.now -= timedelta(days=7)
    won = store.start_game("cricket", ["Ann", "Bob"], rated=True)
    win_cricket(won, 0)
    games = store.league.player_games(pid(store, "Ann"))
    assert [g.outcome for g in games] == ["won", "lost", "lost", "lost"]
    assert games[0].game_id == won.id
