"""Finishing games, ratings, league nights and standings, in a real SQLite file."""

from datetime import UTC, datetime, timedelta

import pytest
from test_store_support import quick_formula_settings, win_cricket

from kiosk.adapters.store import GameError, LeagueError, Store
from kiosk.adapters.store.league import night_date


class Clock:
    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    # 20:00 local time on a league evening.
    return Clock(datetime(2025, 3, 4, 20, 0).astimezone())


@pytest.fixture
def store(tmp_path, clock):
    with Store.open(tmp_path / "kiosk.sqlite3", clock=clock) as s:
        for name in ("Ann", "Bob", "Cy", "Di"):
            s.players.add(name)
        yield s


def rating(store, name):
    return store.players.rating(store.players.find(name).id)


def test_a_rated_cricket_win_between_new_players_is_plus_and_minus_16(store):
    night = store.league.tonight()
    results = win_cricket(
        store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=night.id), 0
    )
    assert [r.outcome for r in results] == ["won", "lost"]
    assert rating(store, "Ann") == pytest.approx(1516)
    assert rating(store, "Bob") == pytest.approx(1484)
    table = store.league.standings(night_id=night.id)
    assert [(s.name, s.played, s.won, s.lost, s.drawn) for s in table] == [
        ("Ann", 1, 1, 0, 0),
        ("Bob", 1, 0, 1, 0),
    ]
    # Ann: 8 darts, 7 targets closed with 3 marks each, the 8th (SB on her closed bull) 0.
    assert table[0].cricket_mpr == pytest.approx(21 / 8 * 3)
    assert table[0].best_cricket_game == 1


def test_training_games_never_change_ratings_or_standings(store):
    night = store.league.tonight()
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=False, night_id=night.id), 0)
    live = store.start_game("formula", ["Cy"], quick_formula_settings("training"))
    live.submit(0, "50+0*1")
    live.finish()
    assert rating(store, "Ann") == rating(store, "Cy") == 1500
    assert store.league.standings(night_id=night.id) == []
    assert store.games.get(1).status == "finished"


def test_a_formula_training_game_cannot_be_started_rated(store):
    with pytest.raises(GameError, match="never rated"):
        store.start_game("formula", ["Ann"], {"mode": "training"}, rated=True)


def test_an_abandoned_game_counts_for_nothing(store):
    night = store.league.tonight()
    live = store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=night.id)
    live.dart("T20")
    live.abandon()
    assert store.league.standings(night_id=night.id) == []
    assert rating(store, "Ann") == 1500


def test_a_game_that_is_not_over_cannot_be_finished_and_nothing_is_written(store):
    live = store.start_game("cricket", ["Ann", "Bob"], rated=True)
    live.dart("T20")
    with pytest.raises(GameError, match="not over"):
        live.finish()
    assert store.games.get(live.id).status == "playing"
    assert store.players.rating_history(1) == []


def test_three_player_cricket_is_rated_pairwise_by_placings(store):
    night = store.league.tonight()
    live = store.start_game("cricket", ["Ann", "Bob", "Cy"], rated=True, night_id=night.id)
    live.dart("S19")  # Ann: one mark, so she places above Cy
    live.end_turn()
    results = win_cricket(live, 1)
    assert [r.placement for r in results] == [2, 1, 3]
    # Each pair is an Elo game, averaged over the opponents: Bob beat both (+16), Ann
    # beat Cy and lost to Bob (0), Cy lost both (-16).
    assert rating(store, "Bob") == pytest.approx(1516)
    assert rating(store, "Ann") == pytest.approx(1500)
    assert rating(store, "Cy") == pytest.approx(1484)


def test_cricket_losers_level_on_targets_points_and_marks_share_their_place(store):
    live = store.start_game("cricket", ["Ann", "Bob", "Cy"], rated=True)
    results = win_cricket(live, 1)
    assert [r.placement for r in results] == [2, 1, 2]  # not 2nd and 3rd by turn order
    # Ann and Cy drew with each other: each -16 to Bob and 0 to the other, averaged.
    assert rating(store, "Bob") == pytest.approx(1516)
    assert rating(store, "Ann") == rating(store, "Cy") == pytest.approx(1492)
    seats = store.start_game("cricket", ["Cy", "Bob", "Ann"], rated=True)
    assert [r.placement for r in win_cricket(seats, 1)] == [2, 1, 2]


def test_a_formula_qualification_win_is_a_win_against_par(store):
    night = store.league.tonight()
    live = store.start_game(
        "formula", ["Ann"], quick_formula_settings("qualification"), rated=True, night_id=night.id
    )
    assert live.submit(0, "50+0*1") == 50
    (result,) = live.finish()
    assert result.outcome == "won"
    assert rating(store, "Ann") == pytest.approx(1516)
    lose = store.start_game(
        "formula", ["Bob"], quick_formula_settings("qualification"), rated=True, night_id=night.id
    )
    lose.timeout(0)
    lose.finish()
    assert rating(store, "Bob") == pytest.approx(1484)
    (ann,) = [s for s in store.league.standings(night_id=night.id) if s.name == "Ann"]
    assert (ann.formula_games, ann.formula_avg_points, ann.formula_avg_rounds) == (1, 50.0, 1.0)
    assert ann.best_formula_game == live.id


def test_a_formula_duel_is_rated_as_standard_elo(store):
    live = store.start_game("formula", ["Ann", "Bob"], quick_formula_settings("duel"), rated=True)
    live.submit(0, "50+0*1")
    live.submit(1, "5+0+0+1")
    assert live.is_over()
    results = live.finish()
    assert [r.outcome for r in results] == ["won", "lost"]
    assert (rating(store, "Ann"), rating(store, "Bob")) == pytest.approx((1516, 1484))


def test_standings_per_night_and_per_season(store, clock):
    first = store.league.tonight()
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=first.id), 0)
    clock.now += timedelta(days=7)
    second = store.league.tonight()
    assert second.id != first.id and second.season_id == first.season_id
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=second.id), 1)
    win_cricket(store.start_game("cricket", ["Cy", "Bob"], rated=True, night_id=second.id), 0)
    night2 = {s.name: (s.played, s.won, s.lost) for s in store.league.standings(night_id=second.id)}
    assert night2 == {"Bob": (2, 1, 1), "Cy": (1, 1, 0), "Ann": (1, 0, 1)}
    season = store.league.standings(season_id=first.season_id)
    # Most wins, then most draws, then fewest played: Cy 1-0 is above Ann 1-1.
    assert [(s.name, s.played, s.won) for s in season] == [
        ("Cy", 1, 1),
        ("Ann", 2, 1),
        ("Bob", 3, 1),
    ]


def test_a_past_nights_table_keeps_the_ratings_it_ended_with(store, clock):
    # A night's and a season's table showed each player's rating now: last week's
    # table changed with every game played since.
    first = store.league.tonight()
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=first.id), 0)
    win_cricket(store.start_game("cricket", ["Ann", "Cy"], rated=True, night_id=first.id), 0)
    after_first = {n: rating(store, n) for n in ("Ann", "Bob", "Cy")}
    clock.now += timedelta(days=7)
    second = store.league.tonight()
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=second.id), 1)
    assert rating(store, "Ann") < after_first["Ann"] and rating(store, "Bob") > after_first["Bob"]
    night1 = {s.name: s.rating for s in store.league.standings(night_id=first.id)}
    assert night1 == pytest.approx(after_first)
    night2 = {s.name: s.rating for s in store.league.standings(night_id=second.id)}
    assert night2 == pytest.approx({n: rating(store, n) for n in ("Ann", "Bob")})
    store.league.start_season("Spring 2025")
    clock.now += timedelta(days=7)
    win_cricket(store.start_game("cricket", ["Cy", "Bob"], rated=True), 0)
    season = {s.name: s.rating for s in store.league.standings(season_id=first.season_id)}
    assert season == pytest.approx({**night2, "Cy": after_first["Cy"]})
    assert rating(store, "Cy") > after_first["Cy"]  # (now: the new season's game counted)
    exported = {r["name"]: r["rating"] for r in store.league.export("2025")["standings"]}
    assert exported == pytest.approx(season, abs=0.01)


def test_a_game_after_midnight_belongs_to_the_evening_before():
    late = datetime(2025, 3, 5, 1, 30).astimezone()
    assert night_date(late).isoformat() == "2025-03-04"
    assert night_date(datetime(2025, 3, 5, 7, 0).astimezone()).isoformat() == "2025-03-05"


def test_a_new_season_takes_the_following_nights(store, clock):
    first = store.league.tonight()
    assert store.league.current_season().name == "2025"
    store.league.start_season("Spring 2025")
    clock.now += timedelta(days=1)
    night = store.league.tonight()
    assert night.season_id != first.season_id
    with pytest.raises(LeagueError):
        store.league.start_season("Spring 2025")


def test_results_and_ratings_rebuild_from_the_events_alone(store):
    night = store.league.tonight()
    win_cricket(store.start_game("cricket", ["Ann", "Bob", "Cy"], rated=True, night_id=night.id), 2)
    win_cricket(store.start_game("cricket", ["Ann", "Di"], rated=True, night_id=night.id), 1)
    conn = store.db.conn
    before_results = conn.execute("SELECT * FROM results ORDER BY game_id, seat").fetchall()
    before_ratings = conn.execute(
        "SELECT player_id, game_id, before, after FROM ratings"
    ).fetchall()
    conn.execute("DELETE FROM results")
    conn.execute("DELETE FROM ratings")
    assert store.rebuild_results() == 2
    assert conn.execute("SELECT * FROM results ORDER BY game_id, seat").fetchall() == before_results
    assert (
        conn.execute("SELECT player_id, game_id, before, after FROM ratings").fetchall()
        == before_ratings
    )


def test_the_season_export_holds_tables_and_games(store):
    night = store.league.tonight()
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True, night_id=night.id), 0)
    data = store.league.export("2025")
    assert data["season"] == "2025"
    assert [row["name"] for row in data["standings"]] == ["Ann", "Bob"]
    assert data["nights"][0]["date"] == night.date
    assert data["games"][0]["results"][0] == {
        "player": "Ann",
        "placement": 1,
        "outcome": "won",
        "points": 0,
    }
    with pytest.raises(LeagueError):
        store.league.export("1999")


def test_game_times_are_stamped_by_the_store_clock(store, clock):
    live = store.start_game("cricket", ["Ann", "Bob"])
    live.dart("T20")
    stamp = clock.now.astimezone(UTC).isoformat(timespec="milliseconds")
    assert store.games.get(live.id).started_at == stamp
    assert store.games.event_times(live.id) == [stamp]


def test_a_rated_game_started_without_a_night_joins_tonight(store):
    live = store.start_game("cricket", ["Ann", "Bob"], rated=True)
    assert live.record.night_id == store.league.tonight().id
    assert store.start_game("cricket", ["Cy", "Di"]).record.night_id is None


def test_tonights_players_are_those_of_games_begun_since_the_evening_began(store, clock):
    # Yesterday evening's game is not tonight's; one at 01:00 still belongs to the
    # evening before it (the night runs on to 06:00), and so do its players.
    clock.now -= timedelta(days=1)
    win_cricket(store.start_game("cricket", ["Ann", "Bob"]), 0)  # yesterday, 20:00
    clock.now += timedelta(days=1)
    win_cricket(store.start_game("cricket", ["Cy", "Bob"]), 0)  # tonight, 20:00
    ids = {name: store.players.find(name).id for name in ("Ann", "Bob", "Cy", "Di")}
    assert store.league.tonights_players() == {ids["Bob"], ids["Cy"]}
    clock.now += timedelta(hours=5)  # 01:00: still tonight
    win_cricket(store.start_game("cricket", ["Di", "Cy"]), 0)
    assert store.league.tonights_players() == {ids["Bob"], ids["Cy"], ids["Di"]}
    clock.now += timedelta(hours=6)  # 07:00: a new day, no one yet
    assert store.league.tonights_players() == set()
