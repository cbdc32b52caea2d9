"""Undo and correction are exact: the state after k pops is a fresh game fed the rest."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.domain.cricket import TURN_END, CricketGame, Entry, parse_input
from kiosk.domain.darts import Dart, all_darts

TEAMS = [["Ann", "Cid"], ["Bob", "Dan"]]
SETUPS = [
    {"players": ["Ann", "Bob"]},
    {"players": ["Ann", "Bob", "Cid"]},
    {"players": ["Ann", "Bob", "Cid", "Dan"]},
    {"players": [], "teams": TEAMS},
]
CRICKET_DARTS = [d for d in all_darts() if d.number >= 15]
# Mostly Cricket targets, so that many generated games reach a winner or the round limit.
INPUTS: list[Entry] = [*CRICKET_DARTS * 6, *all_darts(), TURN_END, TURN_END]


def play(game: CricketGame, script: str) -> CricketGame:
    for token in script.split():
        game.apply(parse_input(token))
    return game


def feed(game: CricketGame, entries: list[Entry]) -> CricketGame:
    """Applies entries until the game ends; the rest are dropped."""
    for entry in entries:
        if game.outcome() is not None:
            break
        game.apply(entry)
    return game


def observed(game: CricketGame) -> tuple[object, ...]:
    """Everything a player or the UI can see, through the public API."""
    per_player = tuple(
        (
            tuple(game.marks(p, t) for t in game.targets),
            game.points(p),
            game.stats(p),
            game.side_stats(p),
        )
        for p in game.players
    )
    return (
        per_player,
        tuple(game.is_closed(t) for t in game.targets),
        game.current_player,
        game.round,
        game.outcome(),
        game.darts_this_turn,
        game.darts_left,
        game.history,
    )


games = st.fixed_dictionaries(
    {
        "setup": st.sampled_from(SETUPS),
        "variant": st.sampled_from(["standard", "cut-throat", "no-score"]),
        "round_limit": st.sampled_from([0, 0, 3, 8]),
        "single_bull": st.booleans(),
        "entries": st.integers(0, 250).flatmap(
            lambda n: st.lists(st.sampled_from(INPUTS), min_size=n, max_size=n)
        ),
    }
)


def new_game(g: dict[str, Any]) -> CricketGame:
    return CricketGame(
        variant=g["variant"],
        round_limit=g["round_limit"],
        single_bull=g["single_bull"],
        **g["setup"],
    )


@settings(max_examples=120, deadline=None)
@given(g=games, data=st.data())
def test_popping_k_inputs_equals_a_fresh_game_fed_all_but_the_last_k(
    g: dict[str, Any], data: st.DataObject
) -> None:
    game = feed(new_game(g), g["entries"])
    fed = list(game.history)
    k = data.draw(st.integers(0, len(fed)), label="k")
    popped = [game.pop() for _ in range(k)]
    assert popped == fed[len(fed) - k :][::-1]
    fresh = feed(new_game(g), fed[: len(fed) - k])
    assert observed(game) == observed(fresh)
    assert game.state == fresh.state


def a_dart_to_correct(game: CricketGame, data: st.DataObject) -> tuple[int, Dart] | None:
    """A dart of the game's history (its index) and another dart to put there."""
    darts_at = [i for i, e in enumerate(game.history) if isinstance(e, Dart)]
    if not darts_at:
        return None
    index = data.draw(st.sampled_from(darts_at), label="index")
    return index, data.draw(st.sampled_from(all_darts()), label="dart")


@settings(max_examples=60, deadline=None)
@given(g=games, data=st.data())
def test_correcting_a_dart_equals_replaying_with_the_right_dart(
    g: dict[str, Any], data: st.DataObject
) -> None:
    game = feed(new_game(g), g["entries"])
    chosen = a_dart_to_correct(game, data)
    if chosen is None:
        return
    index, dart = chosen
    wanted = list(game.history)
    wanted[index] = dart
    replayed = new_game(g)
    for k, entry in enumerate(wanted):
        if replayed.outcome() is not None:  # the corrected game ended before it
            dropped = tuple(wanted[k:])
            break
        replayed.apply(entry)
    else:
        dropped = ()
    assert game.correct(index, dart) == dropped
    assert observed(game) == observed(replayed)
    assert game.history == replayed.history


def test_undo_across_turns_restores_points_stats_and_the_player() -> None:
    game = play(CricketGame(["Ann", "Bob"]), "T20 T20 T19 S20")
    assert game.current_player == "Bob" and game.points("Ann") == 60
    assert game.pop() == Dart(20, 1)
    assert game.pop() == Dart(19, 3)
    assert game.current_player == "Ann" and game.darts_this_turn == (Dart(20, 3), Dart(20, 3))
    assert game.stats("Ann").nine_mark_turns == 0 and game.stats("Ann").darts == 2
    assert game.points("Ann") == 60


def test_a_replayed_history_is_the_same_game() -> None:
    game = play(CricketGame(["Ann", "Bob"], variant="cut-throat"), "T20 END S19 D20 MISS")
    again = CricketGame.replay(game.history, ["Ann", "Bob"], variant="cut-throat")
    assert again.state == game.state
    assert [parse_input(str(e)) for e in game.history] == list(game.history)


@settings(max_examples=60, deadline=None)
@given(g=games, data=st.data())
def test_a_correction_said_in_log_events_replays_to_the_corrected_game(
    g: dict[str, Any], data: st.DataObject
) -> None:
    # The kiosk stores a correction as undo ... undo, the right dart, the later inputs
    # again: the log must rebuild exactly what ``correct`` shows on screen.
    from kiosk.domain.replay import GameEvent, apply, correction, replay

    if "teams" in g["setup"]:
        players = ["Ann", "Bob", "Cid", "Dan"]  # A1 B1 A2 B2
        stored = {"teams": [[0, 2], [1, 3]]}
    else:
        players, stored = g["setup"]["players"], {}
    stored |= {k: g[k] for k in ("variant", "round_limit", "single_bull")}
    game = feed(new_game(g), g["entries"])
    chosen = a_dart_to_correct(game, data)
    if chosen is None:
        return
    index, dart = chosen
    log = [GameEvent.dart(e) if isinstance(e, Dart) else GameEvent.turn_end() for e in game.history]
    events, dropped = correction(stored, players, game, index, dart)
    assert observed(game) == observed(replay("cricket", stored, players, log))  # unchanged
    for event in events:
        apply(game, event, players)
    corrected = feed(new_game(g), g["entries"])
    assert corrected.correct(index, dart) == dropped
    assert observed(game) == observed(corrected)
    assert observed(replay("cricket", stored, players, [*log, *events])) == observed(corrected)


@settings(max_examples=60, deadline=None)
@given(g=games)
def test_the_turns_hold_every_dart_once_with_who_threw_it_and_when(g: dict[str, Any]) -> None:
    # What the correction screen pages through: each dart, in its thrower's turn.
    game = feed(new_game(g), g["entries"])
    turns = game.turns()
    listed = [pair for turn in turns for pair in turn.darts]
    assert listed == [(i, e) for i, e in enumerate(game.history) if isinstance(e, Dart)]
    replayed = new_game(g)
    thrower: dict[int, tuple[str, int]] = {}
    for i, entry in enumerate(game.history):
        thrower[i] = (replayed.current_player, replayed.round)
        replayed.apply(entry)
    for turn in turns:
        assert 1 <= len(turn.darts) <= 3
        assert {thrower[i] for i, _ in turn.darts} == {(turn.player, turn.round)}
    assert [t.turn for t in turns] == sorted({t.turn for t in turns})  # one entry a turn
