"""A game's state is the replay of its events: the live engine and the replay agree."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.domain.cricket import CricketGame
from kiosk.domain.darts import all_darts
from kiosk.domain.formula.game import FormulaGame
from kiosk.domain.replay import (
    GameEvent,
    ReplayError,
    apply,
    new_game,
    replay,
    seat_results,
)

DARTS = [str(d) for d in all_darts()]
# Weighted towards the Cricket numbers so games get somewhere.
CRICKET_DARTS = [d for d in DARTS if d[1:] in ("20", "19", "18", "17", "16", "15", "B")]


def play(engine, events, players):
    """Feed events as the kiosk would: refused ones are not logged."""
    log = []
    for event in events:
        try:
            apply(engine, event, players)
        except ValueError:
            continue
        log.append(event)
    return log


cricket_event = st.one_of(
    st.sampled_from(CRICKET_DARTS).map(GameEvent.dart),
    st.sampled_from(DARTS).map(GameEvent.dart),
    st.just(GameEvent.turn_end()),
    st.just(GameEvent.undo()),
)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 4),
    variant=st.sampled_from(["standard", "cut-throat", "no-score"]),
    round_limit=st.sampled_from([0, 3, 20]),
    events=st.lists(cricket_event, max_size=120),
)
def test_a_replayed_cricket_game_equals_the_live_one(n, variant, round_limit, events):
    players = ["Ann", "Bob", "Cy", "Di"][:n]
    cfg = {"variant": variant, "round_limit": round_limit}
    live = new_game("cricket", cfg, players)
    log = play(live, events, players)
    again = replay("cricket", cfg, players, log)
    assert again.state == live.state
    assert again.history == live.history
    assert again.outcome() == live.outcome()


def formula_for(digits: int, shape: int) -> str:
    a, b, c, d = str(digits)
    return [f"{a}{b}+{c}{d}", f"{a}+{b}+{c}+{d}", f"{a}*{b}*{c}*{d}", f"{a}{b}{c}{d}", "1+1"][shape]


@settings(max_examples=30, deadline=None)
@given(
    duel=st.booleans(),
    seed=st.integers(0, 10**6),
    steps=st.lists(st.tuples(st.sampled_from("fftuc"), st.integers(0, 4)), max_size=40),
)
def test_a_replayed_formula_game_equals_the_live_one(duel, seed, steps):
    players = ["Ann", "Bob"] if duel else ["Ann"]
    cfg = {"rules": "classic", "mode": "duel" if duel else "qualification", "seed": seed}
    live = new_game("formula", cfg, players)
    log = []
    for kind, k in steps:
        seat = k % len(players)
        if kind == "f":
            event = GameEvent.formula(seat, formula_for(live.digits, k))
        elif kind == "t":
            event = GameEvent.timeout(seat)
        elif kind == "c":
            event = GameEvent.concede(seat)  # (a duel refuses it: not logged)
        else:
            event = GameEvent.undo()
        log += play(live, [event], players)
    again = replay("formula", cfg, players, log)
    assert again.history == live.history
    assert [again.score(p) for p in players] == [live.score(p) for p in players]
    assert again.outcome() == live.outcome()


def test_undo_in_the_log_takes_back_the_dart_before_it():
    players = ["Ann", "Bob"]
    log = [GameEvent.dart("T20"), GameEvent.dart("T19"), GameEvent.undo()]
    game = replay("cricket", {}, players, log)
    assert isinstance(game, CricketGame)
    assert game.marks("Ann", 20) == 3 and game.marks("Ann", 19) == 0


def test_a_formula_game_rebuilds_the_same_digits_from_its_seed():
    a = new_game("formula", {"seed": 7}, ["Ann"])
    b = replay("formula", {"seed": 7}, ["Ann"], [])
    assert isinstance(a, FormulaGame) and a.digits == b.digits


def test_an_event_that_does_not_fit_names_itself():
    log = [GameEvent.dart("T20"), GameEvent.formula(0, "1+2")]
    with pytest.raises(ReplayError, match="event 2"):
        replay("cricket", {}, ["Ann", "Bob"], log)


def test_an_unknown_event_kind_is_refused():
    with pytest.raises(ValueError):
        GameEvent("explode", {})


def closes_everything(game: CricketGame, player: str) -> None:
    """``player`` throws the seven targets shut; everybody else ends their turns."""
    darts = iter(["T20", "T19", "T18", "T17", "T16", "T15", "DB", "SB"])
    while game.outcome() is None:
        if game.current_player == player:
            game.push(next(darts))
        else:
            game.end_turn()


def test_cricket_results_rank_the_winner_first():
    players = ["Ann", "Bob", "Cy"]
    game = new_game("cricket", {}, players)
    closes_everything(game, "Bob")
    results = seat_results(game, players)
    assert [r.outcome for r in results] == ["lost", "won", "lost"]
    assert results[1].placement == 1 and results[1].stats["darts"] > 0


def test_results_of_a_team_game_made_with_the_captains_name_every_seat_asked_for():
    game = CricketGame(["Ann", "Bob"], teams=[["Ann", "Cid"], ["Bob", "Dan"]])
    closes_everything(game, "Ann")
    assert game.outcome().winner == "Ann"
    results = seat_results(game, ["Ann", "Bob"])  # the captains only: no KeyError
    assert [(r.outcome, r.placement) for r in results] == [("won", 1), ("lost", 2)]


def test_a_round_limit_draw_is_drawn_by_the_level_players():
    players = ["Ann", "Bob"]
    game = new_game("cricket", {"round_limit": 1}, players)
    game.push("T20")
    game.end_turn()
    game.push("T20")
    game.end_turn()
    assert game.outcome() is not None and game.outcome().winner is None
    assert [r.outcome for r in seat_results(game, players)] == ["drawn", "drawn"]


def test_formula_solo_timeout_is_a_loss_and_a_win_is_finished():
    lost = new_game("formula", {"mode": "qualification", "seed": 1}, ["Ann"])
    lost.timeout("Ann")
    (r,) = seat_results(lost, ["Ann"])
    assert r.outcome == "lost" and r.stats["finished"] is False
    won = new_game(
        "formula",
        {"mode": "qualification", "digits": [5001], "start": 50, "bonus": 0},
        ["Ann"],
    )
    won.submit("Ann", "50+0*1")
    (r,) = seat_results(won, ["Ann"])
    assert r.outcome == "won" and r.stats["finished"] and r.stats["rounds"] == 1


def test_a_formula_game_ended_by_its_player_is_a_loss_in_the_rounds_played():
    players = ["Ann"]
    log = [GameEvent.formula(0, "300*1"), GameEvent.concede(0)]
    game = replay("formula", {"mode": "qualification", "digits": [3001, 9839]}, players, log)
    (r,) = seat_results(game, players)
    assert r.outcome == "lost" and r.stats["rounds"] == 1 and r.stats["timeouts"] == 0
    assert r.points == 351
