"""Cricket statistics (rules.md §Statistics): MPR, triples, white horse, hat trick, n-mark turns."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from kiosk.domain.cricket import CricketGame, CricketStats, parse_input

TWO = ["Ann", "Bob"]


def play(game: CricketGame, script: str) -> CricketGame:
    """Feeds whitespace-separated darts ("T20", "SB", "MISS") and "END" (turn end)."""
    for token in script.split():
        game.apply(parse_input(token))
    return game


def test_a_fresh_game_has_zero_stats_and_an_mpr_of_zero() -> None:
    stats = CricketGame(TWO).stats("Ann")
    assert stats == CricketStats()
    assert stats.mpr == 0.0


def test_stats_are_a_frozen_value() -> None:
    stats = CricketGame(TWO).stats("Ann")
    with pytest.raises(dataclasses.FrozenInstanceError):
        stats.darts = 5  # type: ignore[misc]


# (why, game arguments, script, Ann's expected figures)
STATS_CASES = [
    (
        "closing and scoring marks both count: 4 marks in 3 darts is 4.0 MPR",
        {},
        "T20 S20 MISS",
        {"darts": 3, "marks": 4, "mpr": 4.0, "points": 20, "rounds": 1},
    ),
    (
        "marks on a target every player owns do not count",
        {},
        "T20 MISS MISS T20 MISS MISS T20 MISS MISS",
        {"darts": 6, "marks": 3, "mpr": 1.5, "points": 0},
    ),
    (
        "surplus marks that score nothing do not count (no-score)",
        {"variant": "no-score"},
        "T20 T20 MISS",
        {"marks": 3, "mpr": 3.0, "points": 0},
    ),
    (
        "cut-throat surplus counts: it gave the opponent points",
        {"variant": "cut-throat"},
        "T20 T20 MISS",
        {"marks": 6, "points": 0},
    ),
    (
        "a turn ended early counts as a round but its missing darts are not thrown",
        {},
        "T20 END END END",
        {"darts": 1, "rounds": 2, "marks": 3, "mpr": 9.0},
    ),
    (
        "triples are counted on Cricket numbers only",
        {},
        "T20 T20 T5",
        {"triples": 2, "white_horses": 0},
    ),
    (
        "white horse: three triples on three targets not yet owned",
        {},
        "T20 T19 T18",
        {"white_horses": 1, "nine_mark_turns": 1, "triples": 3},
    ),
    (
        "a repeated triple is not a white horse, though it is a 9-mark turn",
        {},
        "T20 T20 T19",
        {"white_horses": 0, "nine_mark_turns": 1},
    ),
    (
        "the third triple off the Cricket numbers is no white horse",
        {},
        "T20 T19 T5",
        {"white_horses": 0, "triples": 2},
    ),
    (
        "the third triple on a target just owned is no white horse",
        {},
        "T20 T19 T19",
        {"white_horses": 0, "triples": 3},
    ),
    (
        "a target owned before the turn spoils the white horse",
        {},
        "T20 MISS MISS MISS MISS MISS T20 T19 T18",
        {"white_horses": 0, "nine_mark_turns": 1, "points": 60},
    ),
    ("hat trick: three bulls in one turn", {}, "SB DB SB", {"hat_tricks": 1, "marks": 4}),
    ("two bulls are no hat trick", {}, "SB DB MISS", {"hat_tricks": 0}),
    (
        "bulls across two turns are no hat trick",
        {},
        "MISS SB DB MISS MISS MISS SB",
        {"hat_tricks": 0},
    ),
    (
        "a 5-mark turn",
        {},
        "T20 D19 MISS",
        {"five_mark_turns": 1, "six_mark_turns": 0},
    ),
    (
        "a turn counts once, in its final bucket",
        {},
        "T20 D19 S18",
        {"five_mark_turns": 0, "six_mark_turns": 1},
    ),
    (
        "a 7-mark and an 8-mark turn",
        {},
        "T20 T19 S18 MISS MISS MISS T17 T16 D15",
        {"seven_mark_turns": 1, "eight_mark_turns": 1},
    ),
]


@pytest.mark.parametrize(
    ("kwargs", "script", "expected"),
    [case[1:] for case in STATS_CASES],
    ids=[case[0] for case in STATS_CASES],
)
def test_stats_count_what_the_rules_say(
    kwargs: dict[str, Any], script: str, expected: dict[str, Any]
) -> None:
    stats = play(CricketGame(TWO, **kwargs), script).stats("Ann")
    assert {name: getattr(stats, name) for name in expected} == expected


def test_mark_turns_are_also_given_as_a_mapping() -> None:
    stats = play(CricketGame(TWO), "T20 T19 T18").stats("Ann")
    assert stats.mark_turns == {5: 0, 6: 0, 7: 0, 8: 0, 9: 1}


def test_a_winning_turn_counts_in_the_stats() -> None:
    game = play(CricketGame(TWO), "T20 T19 T18 MISS MISS MISS T17 T16 T15 MISS MISS MISS DB SB")
    assert game.outcome() is not None
    stats = game.stats("Ann")
    assert (stats.darts, stats.rounds, stats.marks) == (8, 3, 21)
    assert stats.nine_mark_turns == 2
    assert stats.mpr == pytest.approx(21 / 8 * 3)


def test_a_team_players_stats_are_their_own_and_side_stats_sum_the_partners() -> None:
    game = CricketGame([], teams=[["Ann", "Cid"], ["Bob", "Dan"]])
    play(game, "T20 S20 END END T19 MISS MISS")
    ann, cid = game.stats("Ann"), game.stats("Cid")
    assert (ann.darts, ann.marks, ann.mpr) == (2, 4, 6.0)
    assert (cid.darts, cid.marks, cid.mpr) == (3, 3, 3.0)
    assert ann.points == cid.points == 20  # points are the team's
    team = game.side_stats("Cid")
    assert (team.darts, team.marks, team.points, team.rounds) == (5, 7, 20, 2)
    assert game.side_stats("Ann") == team
    assert game.side_stats("Bob").darts == 0


def test_a_team_game_may_name_only_the_captains_the_teams_give_the_order() -> None:
    game = CricketGame(["Ann", "Bob"], teams=[["Ann", "Cid"], ["Bob", "Dan"]])
    assert game.players == ("Ann", "Bob", "Cid", "Dan")
    play(game, "T20 END END")
    assert game.current_player == "Cid"


def test_mpr_is_the_nearest_number_to_marks_times_three_over_darts() -> None:
    # 2 marks in 10 darts is 0.6 MPR and 12 in 5 is 7.2: exactly those numbers, as a
    # person works them out (marks / darts * 3 in floating point gives 0.6000000000000001)
    game = play(CricketGame(TWO), "S20 S20 MISS END " + "MISS MISS MISS END " * 2 + "MISS")
    assert (game.stats("Ann").marks, game.stats("Ann").darts, game.stats("Ann").mpr) == (2, 10, 0.6)
    game = play(CricketGame(TWO), "T20 T20 T19 END T19 MISS")
    assert (game.stats("Ann").marks, game.stats("Ann").darts, game.stats("Ann").mpr) == (12, 5, 7.2)
