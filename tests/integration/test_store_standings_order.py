"""The order of a standings table, ties included, is fixed by the games alone:
most wins, then most draws, then fewest played; level players share a position and are
listed by name (casefolded), so two runs, or two kiosks, print the same table."""

from datetime import datetime

import pytest
from test_store_support import Clock, draw_cricket, win_cricket

from kiosk.adapters.store import Store
from kiosk.adapters.store.league import positions


def open_store(path, names):
    store = Store.open(path, clock=Clock(datetime(2025, 3, 4, 20, 0).astimezone()))
    for name in names:
        store.players.add(name)
    return store


def season_table(store):
    return store.league.standings(season_id=store.league.current_season().id)


# (players by seat, winner's seat or None for a draw)
GAMES = [
    (["Bob", "Cy"], 0),
    (["amy", "Di"], 0),
    (["Cy", "Di"], None),
    (["Eve", "Di"], 0),
    (["Eve", "Cy"], None),
]


def play(store, games):
    night = store.league.tonight()
    for players, winner in games:
        if winner is None:
            draw_cricket(store, players, night.id)
        else:
            win_cricket(store.start_game("cricket", players, rated=True, night_id=night.id), winner)


def test_most_wins_then_most_draws_then_fewest_played_then_name(tmp_path):
    with open_store(tmp_path / "a.sqlite3", ["Bob", "Cy", "amy", "Di", "Eve"]) as store:
        play(store, GAMES)
        table = season_table(store)
    assert [(s.name, s.won, s.drawn, s.played) for s in table] == [
        ("Eve", 1, 1, 2),  # a win and a draw: above the one-win players despite more games
        ("amy", 1, 0, 1),  # level with Bob: by name, casefolded ("amy" before "Bob")
        ("Bob", 1, 0, 1),
        ("Cy", 0, 2, 3),  # draws count before games played
        ("Di", 0, 1, 3),
    ]
    assert positions(table) == [1, 2, 2, 4, 5]


def test_the_same_games_give_the_same_table_whatever_the_order_of_entry(tmp_path):
    with open_store(tmp_path / "a.sqlite3", ["Bob", "Cy", "amy", "Di", "Eve"]) as store:
        play(store, GAMES)
        first = [s.as_row() for s in season_table(store)]
        again = [s.as_row() for s in season_table(store)]
    # Players added in the reverse order (other ids) and the games played backwards.
    with open_store(tmp_path / "b.sqlite3", ["Eve", "Di", "amy", "Cy", "Bob"]) as store:
        play(store, GAMES[::-1])
        other = [s.as_row() for s in season_table(store)]
    assert again == first
    names = [r["name"] for r in first]
    assert [r["name"] for r in other] == names
    strip = ("player_id", "best_cricket_game", "rating")
    assert [{k: v for k, v in r.items() if k not in strip} for r in other] == [
        {k: v for k, v in r.items() if k not in strip} for r in first
    ]


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ([(2, 0, 2), (2, 0, 2), (1, 0, 1)], [1, 1, 3]),
        ([(1, 1, 2), (1, 0, 1)], [1, 2]),
        ([(0, 0, 1), (0, 0, 1), (0, 0, 1)], [1, 1, 1]),
        ([], []),
    ],
)
def test_players_level_on_wins_draws_and_games_share_a_position(record, expected):
    from kiosk.adapters.store.league import Standing

    table = [Standing(i, f"P{i}", played=p, won=w, drawn=d) for i, (w, d, p) in enumerate(record)]
    assert positions(table) == expected
