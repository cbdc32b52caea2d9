"""Cricket marks and points, rules.md §1 (wins and endings: test_cricket_endings.py)."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.domain.cricket import TURN_END, CricketError, CricketGame, parse_input
from kiosk.domain.darts import Dart

TWO = ["Ann", "Bob"]
THREE = ["Ann", "Bob", "Cid"]


def play(game: CricketGame, script: str) -> CricketGame:
    """Feeds whitespace-separated darts ("T20", "SB", "MISS") and "END" (turn end)."""
    for token in script.split():
        game.apply(parse_input(token))
    return game


# (why, game arguments, script, {(player, target): marks}, {player: points})
POINT_CASES = [
    (
        "the rules.md example: 2 marks, then T20 closes with 1 and scores 2 x 20",
        {},
        "S20 S20 T20",
        {("Ann", 20): 3},
        {"Ann": 40, "Bob": 0},
    ),
    ("a treble on an empty target owns it and scores nothing", {}, "T20", {("Ann", 20): 3}, {}),
    (
        "two singles, then a double: 1 mark closes, 1 scores",
        {},
        "S19 S19 D19",
        {("Ann", 19): 3},
        {"Ann": 19},
    ),
    ("a single and a double make exactly 3: nothing scores", {}, "S19 D19", {}, {"Ann": 0}),
    (
        "marks beyond the third score in every later dart",
        {},
        "T18 S18 D18",
        {("Ann", 18): 3},
        {"Ann": 54},
    ),
    ("outer bull is 1 mark, inner bull 2", {}, "SB DB", {("Ann", 25): 3}, {"Ann": 0}),
    ("a surplus bull mark scores 25", {}, "DB DB", {("Ann", 25): 3}, {"Ann": 25}),
    (
        "single_bull: the inner bull is only 1 mark",
        {"single_bull": True},
        "DB DB",
        {("Ann", 25): 2},
        {"Ann": 0},
    ),
    (
        "single_bull: the fourth bull mark scores 25",
        {"single_bull": True},
        "DB DB DB MISS MISS MISS DB",
        {("Ann", 25): 3},
        {"Ann": 25},
    ),
    (
        "numbers below 15 and misses are not Cricket targets",
        {},
        "T14 S1 MISS",
        {("Ann", 20): 0, ("Ann", 15): 0},
        {"Ann": 0},
    ),
    (
        "a target the opponent owns no longer scores",
        {},
        "T20 MISS MISS T20 MISS MISS T20",
        {("Ann", 20): 3, ("Bob", 20): 3},
        {"Ann": 0, "Bob": 0},
    ),
    (
        "the opponent's closing dart: its surplus scores nothing on the now closed target",
        {},
        "T20 MISS MISS S20 S20 T20",
        {("Bob", 20): 3},
        {"Ann": 0, "Bob": 0},
    ),
    (
        "the opponent scores on a target the leader has not owned",
        {},
        "T20 MISS MISS T19 S19 D19",
        {("Bob", 19): 3, ("Ann", 19): 0},
        {"Ann": 0, "Bob": 57},
    ),
    (
        "cut-throat: surplus marks go to the opponent who has not closed",
        {"variant": "cut-throat"},
        "S20 S20 T20",
        {("Ann", 20): 3},
        {"Ann": 0, "Bob": 40},
    ),
    (
        "cut-throat: nothing to give once the opponent owns it",
        {"variant": "cut-throat"},
        "T20 MISS MISS T20 MISS MISS T20",
        {},
        {"Ann": 0, "Bob": 0},
    ),
    (
        "no-score: surplus marks give nobody points",
        {"variant": "no-score"},
        "T20 T20 DB DB",
        {("Ann", 20): 3, ("Ann", 25): 2, ("Bob", 25): 2},
        {"Ann": 0, "Bob": 0},
    ),
    (
        "3 players: the target scores while any opponent is open",
        {"players": THREE},
        "T20 MISS MISS T20 MISS MISS MISS MISS MISS T20",
        {("Ann", 20): 3, ("Bob", 20): 3, ("Cid", 20): 0},
        {"Ann": 60, "Bob": 0, "Cid": 0},
    ),
    (
        "3 players: it stops scoring once every opponent owns it",
        {"players": THREE},
        "T20 MISS MISS T20 MISS MISS T20 MISS MISS T20",
        {("Cid", 20): 3},
        {"Ann": 0, "Bob": 0, "Cid": 0},
    ),
    (
        "3 players cut-throat: points go only to the opponent still open",
        {"players": THREE, "variant": "cut-throat"},
        "T20 MISS MISS T20 MISS MISS MISS MISS MISS T20",
        {},
        {"Ann": 0, "Bob": 0, "Cid": 60},
    ),
    (
        "3 players cut-throat: to both open opponents",
        {"players": THREE, "variant": "cut-throat"},
        "T17 S17",
        {},
        {"Ann": 0, "Bob": 17, "Cid": 17},
    ),
]


@pytest.mark.parametrize(
    ("kwargs", "script", "marks", "points"),
    [case[1:] for case in POINT_CASES],
    ids=[case[0] for case in POINT_CASES],
)
def test_marks_and_points_follow_the_rules(
    kwargs: dict[str, Any],
    script: str,
    marks: dict[tuple[str, int], int],
    points: dict[str, int],
) -> None:
    game = play(CricketGame(**{"players": TWO, **kwargs}), script)
    assert {key: game.marks(*key) for key in marks} == marks
    assert {name: game.points(name) for name in points} == points


def test_a_closed_target_is_closed_only_when_every_player_owns_it() -> None:
    game = play(CricketGame(THREE), "T20 MISS MISS T20 MISS MISS")
    assert game.owns("Ann", 20) and game.owns("Bob", 20)
    assert not game.is_closed(20)
    play(game, "S20 D20")
    assert game.is_closed(20)
    assert not game.is_closed(19)


def test_three_darts_pass_the_turn_and_the_round_counts_from_one() -> None:
    game = CricketGame(THREE)
    assert (game.current_player, game.round, game.darts_left) == ("Ann", 1, 3)
    play(game, "S20 MISS")
    assert game.darts_this_turn == (Dart(20, 1), Dart.MISS)
    assert game.darts_left == 1
    play(game, "T5")
    assert (game.current_player, game.round, game.darts_left) == ("Bob", 1, 3)
    assert not game.darts_this_turn
    play(game, "END END")
    assert (game.current_player, game.round) == ("Ann", 2)


def test_ending_a_turn_early_does_not_throw_the_missing_darts() -> None:
    game = play(CricketGame(TWO), "T20 END")
    assert game.current_player == "Bob"
    assert game.stats("Ann").darts == 1
    assert game.history == (Dart(20, 3), TURN_END)


def test_teams_share_marks_and_points_and_alternate_turns() -> None:
    teams = [["Ann", "Cid"], ["Bob", "Dan"]]
    game = CricketGame([], teams=teams)
    assert game.players == ("Ann", "Bob", "Cid", "Dan")
    order = []
    for _ in range(5):
        order.append(game.current_player)
        game.end_turn()
    assert order == ["Ann", "Bob", "Cid", "Dan", "Ann"]
    assert game.round == 2

    game = CricketGame(["Dan", "Cid", "Bob", "Ann"], teams=teams)
    play(game, "S20 END")  # Ann: 1 mark for her team
    play(game, "END")  # Bob
    play(game, "D20 S20")  # Cid: 2 marks close 20 for the team, the third scores
    assert game.marks("Ann", 20) == game.marks("Cid", 20) == 3
    assert game.points("Ann") == game.points("Cid") == 20
    assert game.marks("Bob", 20) == game.points("Dan") == 0
    assert game.owns("Ann", 20) and not game.owns("Dan", 20)


def test_a_team_closes_a_target_only_for_opponents_that_own_it_together() -> None:
    game = CricketGame([], teams=[["Ann", "Cid"], ["Bob", "Dan"]])
    play(game, "T20 END T20 END S20")  # Ann owns, Bob's team owns: closed; Cid's S20 idle
    assert game.is_closed(20)
    assert game.points("Cid") == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": []}, "2 to 4 players"),
        ({"players": ["Ann"]}, "2 to 4 players"),
        ({"players": ["A", "B", "C", "D", "E"]}, "2 to 4 players"),
        ({"players": ["Ann", "Ann"]}, "duplicate"),
        ({"players": ["Ann", " ann "]}, "duplicate"),
        ({"players": ["Ann", ""]}, "non-empty"),
        ({"players": "AnnBob"}, "list of names"),
        ({"players": [], "teams": [["Ann"], ["Bob"], ["Cid"]]}, "two teams"),
        ({"players": [], "teams": [["Ann", "Cid"], ["Bob"]]}, "same number"),
        ({"players": [], "teams": [[], []]}, "same number"),
        ({"players": None}, "2 to 4 players"),
        ({"players": [], "teams": [["Ann", "Cid"], "Bob"]}, "two teams"),
        ({"players": [], "teams": [["A", "B", "C"], ["D", "E", "F"]]}, "2 to 4 players"),
        ({"players": ["Ann", "Eve"], "teams": [["Ann", "Cid"], ["Bob", "Dan"]]}, "teams"),
        ({"players": ["Ann", "Ann"], "teams": [["Ann", "Cid"], ["Bob", "Dan"]]}, "teams"),
        ({"players": TWO, "variant": "killer"}, "unknown Cricket variant"),
        ({"players": TWO, "round_limit": -1}, "round_limit"),
        ({"players": TWO, "round_limit": 2.5}, "round_limit"),
    ],
)
def test_a_bad_setup_is_refused_with_a_clear_message(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CricketGame(**kwargs)


def test_questions_about_unknown_players_or_targets_are_refused() -> None:
    game = CricketGame(TWO)
    with pytest.raises(ValueError, match="Zed"):
        game.points("Zed")
    with pytest.raises(ValueError, match="14"):
        game.marks("Ann", 14)


def test_text_that_is_not_a_dart_is_refused_and_changes_nothing() -> None:
    game = CricketGame(TWO)
    with pytest.raises(ValueError, match="T21"):
        game.push("T21")
    with pytest.raises(CricketError):
        game.push(20)  # type: ignore[arg-type]
    assert game.history == ()


def test_the_ui_sees_targets_settings_and_history() -> None:
    game = CricketGame(TWO, variant="cut-throat", round_limit=15)
    assert game.targets == (20, 19, 18, 17, 16, 15, 25)
    assert (game.variant, game.round_limit, game.players) == ("cut-throat", 15, ("Ann", "Bob"))
    play(game, "T20 END S19")
    assert [str(e) for e in game.history] == ["T20", "END", "S19"]
