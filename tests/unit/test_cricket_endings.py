"""How Cricket games end: closing out, the seed's end cases, round limits, game over."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.domain.cricket import CricketGame, GameOver, NothingToUndo, parse_input
from kiosk.domain.darts import Dart

TWO = ["Ann", "Bob"]
THREE = ["Ann", "Bob", "Cid"]
MISSES = "MISS MISS MISS"


def play(game: CricketGame, script: str) -> CricketGame:
    """Feeds whitespace-separated darts ("T20", "SB", "MISS") and "END" (turn end)."""
    for token in script.split():
        game.apply(parse_input(token))
    return game


def test_owning_everything_with_more_points_wins_at_that_dart() -> None:
    game = play(CricketGame(TWO), f"T20 S20 T19 {MISSES} T18 T17 T16 {MISSES} T15 DB")
    assert game.outcome() is None
    play(game, "SB")
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.placings) == ("Ann", ("Ann", "Bob"))
    # The turn does not pass: the winning darts stay on the board.
    assert game.current_player == "Ann"
    assert game.darts_this_turn == (Dart(15, 3), Dart(25, 2), Dart(25, 1))


def test_equal_points_go_to_the_first_player_to_own_everything() -> None:
    # Seed: "on equal points the one who owned everything first wins".
    game = play(CricketGame(TWO), "T20 T20 MISS T15 T15 S15")  # Ann 60, Bob 60
    assert (game.points("Ann"), game.points("Bob")) == (60, 60)
    play(game, f"T19 T18 T17 {MISSES} T16 T15 DB {MISSES}")
    assert game.outcome() is None
    play(game, "SB")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"


def test_nobody_scoring_the_first_to_own_everything_wins() -> None:
    game = play(CricketGame(TWO), f"T20 T19 T18 {MISSES} T17 T16 T15 {MISSES} DB SB")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"


def test_owning_everything_but_behind_keeps_scoring_until_level_then_wins() -> None:
    game = play(CricketGame(TWO), "T19 T18 T17 T20 D20 MISS")  # Bob leads 40
    play(game, f"T16 T15 DB {MISSES} SB T20")
    assert all(game.owns("Ann", t) for t in game.targets)
    assert game.outcome() is None  # owns everything, 0 < 40
    play(game, "S15")
    assert game.points("Ann") == 15 and game.outcome() is None
    play(game, MISSES)
    assert game.current_player == "Ann"
    play(game, "SB")  # 40 = 40: level is enough
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"


def test_owning_everything_but_behind_loses_if_the_opponent_closes_out_first() -> None:
    game = play(CricketGame(TWO), "T19 T18 T17 T20 D20 MISS T16 T15 DB T19 T18 T17")
    play(game, "SB T20 MISS T16 T15 DB")
    assert all(game.owns("Ann", t) for t in game.targets) and game.outcome() is None
    play(game, f"{MISSES} SB")
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.placings) == ("Bob", ("Bob", "Ann"))


def test_cut_throat_owning_everything_with_more_points_waits_until_lowest_or_equal() -> None:
    game = CricketGame(TWO, variant="cut-throat")
    play(game, "T19 T18 T17 T20 D20 MISS")  # Bob's surplus gives Ann 40
    assert game.points("Ann") == 40
    play(game, f"T16 T15 DB {MISSES} SB T20 S15 {MISSES}")
    assert game.points("Bob") == 15 and game.outcome() is None
    play(game, "SB")  # Bob 40, Ann 40: equal is enough
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert "no more points" in outcome.reason


def test_cut_throat_an_opponents_dart_can_make_the_closed_out_player_the_winner() -> None:
    game = CricketGame(THREE, variant="cut-throat")
    play(game, f"T19 T18 T17 T20 S20 MISS {MISSES}")  # Ann 20, Bob 0, Cid 20
    play(game, f"T16 T15 DB {MISSES} {MISSES} SB T20 MISS {MISSES}")
    assert game.outcome() is None  # Ann owns everything, but Bob has 0
    play(game, "T16 S16")  # Cid's surplus gives Bob 16: still below Ann's 20
    assert game.outcome() is None
    play(game, "S16")  # Bob 32: Ann now has the fewest
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert game.current_player == "Cid"


def test_cut_throat_two_closed_out_players_level_and_lowest_the_first_owner_wins() -> None:
    game = CricketGame(THREE, variant="cut-throat")
    play(game, "T19 T18 T17 T19 T18 T17 T20 S20 MISS")  # Ann 20, Bob 20, Cid 0
    play(game, f"T16 T15 T20 T16 T15 T20 {MISSES} DB SB MISS DB MISS MISS {MISSES} {MISSES}")
    assert game.outcome() is None  # Ann owns everything, but Cid has 0
    play(game, "DB")  # Bob owns everything too, and his surplus gives Cid 25
    assert (game.points("Ann"), game.points("Bob"), game.points("Cid")) == (20, 20, 25)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert outcome.placings == ("Ann", "Bob", "Cid")


def test_no_score_the_first_to_own_everything_wins_whatever_happened_before() -> None:
    game = CricketGame(TWO, variant="no-score")
    play(game, f"T20 T20 T20 {MISSES} T19 T18 T17 {MISSES} T16 T15 DB {MISSES}")
    assert game.outcome() is None
    play(game, "SB")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert game.points("Ann") == 0


@pytest.mark.parametrize(
    ("cid_turn", "placings"),
    [
        ("T16 T15 MISS", ("Ann", "Cid", "Bob")),  # Cid owns 2 targets, Bob 1
        ("T16 MISS MISS", ("Ann", "Bob", "Cid")),  # 1 target each, Bob has 17 points
    ],
    ids=["more targets owned places higher", "then more points"],
)
def test_three_players_end_at_the_first_winner_and_place_the_rest(
    cid_turn: str, placings: tuple[str, ...]
) -> None:
    game = play(CricketGame(THREE), f"T20 T19 T18 T17 S17 MISS {cid_turn}")
    play(game, f"T17 T16 T15 {MISSES} {MISSES} DB SB")
    assert game.outcome() is None  # Ann owns everything, 0 < Bob's 17
    play(game, "S20")
    outcome = game.outcome()
    assert outcome is not None and outcome.placings == placings


def test_a_team_win_names_the_team() -> None:
    game = CricketGame([], teams=[["Ann", "Cid"], ["Bob", "Dan"]])
    play(game, f"T20 T19 T18 {MISSES} T17 T16 T15 {MISSES} DB SB")
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.winners) == ("Ann", ("Ann", "Cid"))
    assert outcome.placings == ("Ann", "Cid", "Bob", "Dan")
    assert game.current_player == "Ann"


# (why, game arguments, script, winner, words in the reason, placings)
ROUND_LIMIT_CASES = [
    ("most points wins", {}, "T20 S20 MISS T19 END", "Ann", "most points", ("Ann", "Bob")),
    (
        "cut-throat: fewest points wins",
        {"variant": "cut-throat"},
        "T20 S20 MISS T19 END",
        "Ann",
        "fewest points",
        ("Ann", "Bob"),
    ),
    ("equal points: more marks wins", {}, "T20 END S19 END", "Ann", "more marks", ("Ann", "Bob")),
    ("equal points and marks: a draw", {}, "T20 END T19 END", None, "draw", ("Ann", "Bob")),
    (
        "no-score: the marks decide",
        {"variant": "no-score"},
        "S20 END T19 END",
        "Bob",
        "more marks",
        ("Bob", "Ann"),
    ),
    (
        "3 players: placed by points, then marks",
        {"players": THREE},
        "T20 S20 MISS S19 END T18 END",
        "Ann",
        "most points",
        ("Ann", "Cid", "Bob"),
    ),
    (
        "teams: the team with more points",
        {"players": [], "teams": [["Ann", "Cid"], ["Bob", "Dan"]]},
        "END T20 S20 MISS END END",
        "Bob",
        "most points",
        ("Bob", "Dan", "Ann", "Cid"),
    ),
]


@pytest.mark.parametrize(
    ("kwargs", "script", "winner", "reason", "placings"),
    [case[1:] for case in ROUND_LIMIT_CASES],
    ids=[case[0] for case in ROUND_LIMIT_CASES],
)
def test_the_last_round_ending_without_a_winner_decides_on_points(
    kwargs: dict[str, Any], script: str, winner: str | None, reason: str, placings: tuple[str, ...]
) -> None:
    args = {"players": TWO, **kwargs, "round_limit": 1}
    game = CricketGame(**args)
    tokens = script.split()
    play(game, " ".join(tokens[:-1]))
    assert game.outcome() is None  # not before the last player's turn ends
    play(game, tokens[-1])
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == winner
    assert reason in outcome.reason
    assert outcome.placings == placings
    assert game.round == 1


def test_the_round_limit_counts_whole_rounds() -> None:
    game = play(CricketGame(TWO, round_limit=2), "T20 S20 END END END")
    assert game.outcome() is None and game.round == 2 and game.current_player == "Bob"
    play(game, "END")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Ann"


def test_the_default_limit_is_twenty_rounds_and_zero_means_none() -> None:
    game = play(CricketGame(TWO), " ".join(["END"] * 39))
    assert game.outcome() is None
    play(game, "END")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None

    unlimited = play(CricketGame(TWO, round_limit=0), " ".join(["END"] * 100))
    assert unlimited.outcome() is None and unlimited.round == 51


@pytest.mark.parametrize(
    ("round_limit", "script"),
    [(0, f"T20 T19 T18 {MISSES} T17 T16 T15 {MISSES} DB SB"), (1, "T20 END END")],
    ids=["won", "round limit"],
)
def test_after_the_game_is_over_inputs_are_refused_and_change_nothing(
    round_limit: int, script: str
) -> None:
    game = play(CricketGame(TWO, round_limit=round_limit), script)
    assert game.outcome() is not None
    before = (game.state, game.history)
    with pytest.raises(GameOver, match="over"):
        game.push(Dart(20, 3))
    with pytest.raises(ValueError, match="over"):
        game.end_turn()
    assert (game.state, game.history) == before


def test_undo_of_the_winning_dart_reopens_the_game() -> None:
    game = play(CricketGame(TWO), f"T20 T19 T18 {MISSES} T17 T16 T15 {MISSES} DB SB")
    assert game.pop() == Dart(25, 1)
    assert game.outcome() is None and game.darts_left == 2
    play(game, "MISS MISS")
    assert game.outcome() is None and game.current_player == "Bob"


def test_undo_on_a_fresh_game_is_refused() -> None:
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        CricketGame(TWO).pop()
    with pytest.raises(IndexError):  # as python-chess's Board.pop() on no moves
        CricketGame(TWO).pop()
    assert issubclass(NothingToUndo, ValueError)


def test_a_no_score_game_at_its_round_limit_is_not_said_to_be_won_on_equal_points() -> None:
    # It has no points: "wins on equal points, more marks on the board" read as if it had.
    game = CricketGame(TWO, variant="no-score", round_limit=1)
    play(game, "S20 END T19 END")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Bob"
    assert outcome.reason.endswith("Bob wins on more marks on the board"), outcome.reason
    assert "points" not in outcome.reason
