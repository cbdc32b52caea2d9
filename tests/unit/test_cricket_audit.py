"""An independent audit of the Cricket engine, written from rules.md §1, seed 004 and
the contract of issue 2 alone (not from the engine's own tests).

Games are written as turns: ``"T20 T19 T18 / MISS / - / DB SB"``. Turns are split by
``/``; a turn of fewer than three darts is ended early with ``end_turn()`` (unless the
game is over), and ``-`` is a turn ended before any dart.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.domain.cricket import TURN_END, CricketGame
from kiosk.domain.darts import Dart, all_darts

TARGETS = (20, 19, 18, 17, 16, 15, 25)
AB = ["A", "B"]
ABC = ["A", "B", "C"]
ABCD = ["A", "B", "C", "D"]
TEAMS = [["Ann", "Cid"], ["Bob", "Dan"]]
TEAM_PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


def play(game: CricketGame, script: str) -> CricketGame:
    for turn in script.split("/"):
        darts = turn.split()
        if darts == ["-"]:
            game.end_turn()
            continue
        assert darts, f"empty turn in {script!r}"
        for text in darts:
            game.push(Dart.parse(text))
        if len(darts) < 3 and game.outcome() is None:
            game.end_turn()
    return game


def new(players: list[str] | None = None, **kw: Any) -> CricketGame:
    if "teams" in kw:
        return CricketGame(players or TEAM_PLAYERS, **kw)
    return CricketGame(players or AB, **kw)


def snapshot(game: CricketGame) -> dict[str, Any]:
    """Everything a user can see of the game through the contract."""
    names = list(game.players)
    return {
        "player": game.current_player,
        "round": game.round,
        "outcome": game.outcome(),
        "marks": {(p, t): game.marks(p, t) for p in names for t in TARGETS},
        "points": {p: game.points(p) for p in names},
        "stats": {p: asdict(game.stats(p)) for p in names},
    }


# ------------------------------------------------------------ marks and points

POINT_CASES = [
    # (why, players, options, script, {player: points}, {(player, target): marks})
    ("a single is one mark", AB, {}, "S20", {"A": 0}, {("A", 20): 1}),
    ("a double is two marks", AB, {}, "D19", {"A": 0}, {("A", 19): 2}),
    ("a triple owns the target and scores nothing", AB, {}, "T18", {"A": 0}, {("A", 18): 3}),
    ("outer bull is one mark", AB, {}, "SB", {"A": 0}, {("A", 25): 1}),
    ("inner bull is two marks", AB, {}, "DB", {"A": 0}, {("A", 25): 2}),
    (
        "single_bull: inner bull is one mark",
        AB,
        {"single_bull": True},
        "DB",
        {"A": 0},
        {("A", 25): 1},
    ),
    (
        "numbers 1-14 are misses for Cricket",
        AB,
        {},
        "T14 D1 S10",
        {"A": 0},
        {("A", t): 0 for t in TARGETS},
    ),
    ("seed example: 2 marks then T20 scores 40", AB, {}, "S20 S20 / - / T20", {"A": 40}, {}),
    ("S20 S20 D20: the closing mark never scores", AB, {}, "S20 S20 D20", {"A": 20}, {}),
    ("T20 T20 T20 against an open opponent", AB, {}, "T20 T20 T20", {"A": 120}, {}),
    ("marks stop at three on the board", AB, {}, "T20 T20", {}, {("A", 20): 3}),
    ("owned bull: outer 25, inner 50", AB, {}, "T20 DB SB / - / SB DB", {"A": 75}, {}),
    ("DB DB: one surplus mark scores 25", AB, {}, "DB DB", {"A": 25}, {("A", 25): 3}),
    (
        "single_bull: owned inner bull scores 25",
        AB,
        {"single_bull": True},
        "DB DB DB / - / DB",
        {"A": 25},
        {},
    ),
    (
        "single_bull: outer bull still one mark",
        AB,
        {"single_bull": True},
        "SB SB SB",
        {"A": 0},
        {("A", 25): 3},
    ),
    (
        "no points once the opponent owns the target too",
        AB,
        {},
        "T20 / T20 / T20 T20",
        {"A": 0, "B": 0},
        {},
    ),
    (
        "the opponent's closing dart scores nothing on a target now closed",
        AB,
        {},
        "T20 T20 / T20 T20",
        {"A": 60, "B": 0},
        {("B", 20): 3},
    ),
    (
        "a closed target takes no more marks for anyone",
        AB,
        {},
        "T20 / S20 S20 S20 / S20",
        {"A": 0, "B": 0},
        {("A", 20): 3, ("B", 20): 3},
    ),
    (
        "3 players: scores while one opponent is still open",
        ABC,
        {},
        "T20 / T20 / - / T20",
        {"A": 60, "B": 0, "C": 0},
        {},
    ),
    (
        "3 players: no points once every opponent owns it",
        ABC,
        {},
        "T20 / T20 / T20 / T20",
        {"A": 0, "B": 0, "C": 0},
        {},
    ),
    (
        "4 players: scores while the last opponent is open",
        ABCD,
        {},
        "T19 / T19 / T19 / - / T19",
        {"A": 57, "B": 0, "C": 0, "D": 0},
        {},
    ),
    (
        "cut-throat: surplus goes to the open opponent",
        AB,
        {"variant": "cut-throat"},
        "T20 T20",
        {"A": 0, "B": 60},
        {},
    ),
    (
        "cut-throat: closing part never scores",
        AB,
        {"variant": "cut-throat"},
        "S20 S20 / - / T20",
        {"A": 0, "B": 40},
        {},
    ),
    (
        "cut-throat: every open opponent gets the points, owners do not",
        ABCD,
        {"variant": "cut-throat"},
        "- / T20 / - / - / T20 T20 T20",
        {"A": 0, "B": 0, "C": 120, "D": 120},
        {},
    ),
    (
        "cut-throat: nothing once every opponent owns it",
        AB,
        {"variant": "cut-throat"},
        "T20 / T20 / T20",
        {"A": 0, "B": 0},
        {},
    ),
    (
        "no-score: surplus marks score nothing",
        AB,
        {"variant": "no-score"},
        "T20 T20 T20",
        {"A": 0, "B": 0},
        {},
    ),
    (
        "teams share marks",
        TEAM_PLAYERS,
        {"teams": TEAMS},
        "S20 S20",
        {},
        {("Ann", 20): 2, ("Cid", 20): 2, ("Bob", 20): 0, ("Dan", 20): 0},
    ),
    (
        "teams share points: a partner scores on the team's owned target",
        TEAM_PLAYERS,
        {"teams": TEAMS},
        "T20 / - / T20",
        {"Ann": 60, "Cid": 60, "Bob": 0, "Dan": 0},
        {},
    ),
    (
        "teams: a target owned by both teams is closed",
        TEAM_PLAYERS,
        {"teams": TEAMS},
        "T20 / T20 / T20 / T20",
        {"Ann": 0, "Bob": 0},
        {},
    ),
    (
        "teams cut-throat: points go to both opposing partners",
        TEAM_PLAYERS,
        {"teams": TEAMS, "variant": "cut-throat"},
        "T20 T20",
        {"Ann": 0, "Cid": 0, "Bob": 60, "Dan": 60},
        {},
    ),
]


@pytest.mark.parametrize(
    ("players", "options", "script", "points", "marks"),
    [c[1:] for c in POINT_CASES],
    ids=[c[0] for c in POINT_CASES],
)
def test_marks_and_points_follow_the_rules(
    players: list[str],
    options: dict[str, Any],
    script: str,
    points: dict[str, int],
    marks: dict[tuple[str, int], int],
) -> None:
    game = play(new(players, **options), script)
    assert {p: game.points(p) for p in points} == points
    assert {k: game.marks(*k) for k in marks} == marks


# ------------------------------------------------------------ turns and rounds


def test_the_turn_passes_after_the_third_dart_and_the_round_after_everyone() -> None:
    game = new(ABC)
    seen = []
    for _ in range(4):
        seen.append((game.current_player, game.round))
        for _ in range(3):
            game.push(Dart.MISS)
    assert seen == [("A", 1), ("B", 1), ("C", 1), ("A", 2)]


def test_teams_throw_in_the_order_a1_b1_a2_b2() -> None:
    game = new(teams=TEAMS)
    seen = []
    for _ in range(5):
        seen.append((game.current_player, game.round))
        game.end_turn()
    assert seen == [("Ann", 1), ("Bob", 1), ("Cid", 1), ("Dan", 1), ("Ann", 2)]


def test_ending_a_turn_early_passes_the_turn_and_the_darts_are_not_thrown() -> None:
    game = new()
    game.push(Dart.parse("T20"))
    game.end_turn()
    assert game.current_player == "B"
    assert game.stats("A").darts == 1
    assert game.stats("A").mpr == pytest.approx(9.0)


def test_a_turn_ended_before_any_dart_throws_no_dart() -> None:
    game = new()
    game.end_turn()
    assert game.current_player == "B"
    assert game.stats("A").darts == 0
    assert game.stats("A").mpr == 0.0


def test_a_dart_at_a_non_target_still_counts_as_thrown() -> None:
    game = play(new(), "S1 S2 S3")
    assert game.current_player == "B"
    assert game.stats("A").darts == 3
    assert game.stats("A").marks == 0


# ------------------------------------------------------------ winning

CLOSE_OUT = "T20 T19 T18 / {b} / T17 T16 T15 / {b} / DB SB"

WIN_CASES = [
    # (why, players, options, script, winner, darts of the winning turn)
    (
        "owns all seven ahead: wins at that dart",
        AB,
        {},
        "T20 T20 T19 / - / T18 T17 T16 / - / T15 DB SB",
        "A",
        3,
    ),
    ("owns all seven level at 0-0: wins at once", AB, {}, CLOSE_OUT.format(b="-"), "A", 2),
    (
        "owns all but behind keeps scoring until ahead",
        AB,
        {},
        "T20 T19 T18 / T17 T17 T17 / T17 T16 T15 / - / DB SB T20 / - / S20 T20",
        "A",
        2,
    ),
    (
        "owns all but behind keeps scoring until exactly level",
        AB,
        {},
        "T20 T19 T18 / T15 T15 S15 / T17 T16 T15 / - / DB SB / - / S20 D20",
        "A",
        2,
    ),
    (
        "owns all but behind: the opponent closes out ahead and wins",
        AB,
        {},
        "T20 T19 T18 / T17 T17 T17 / T17 T16 T15 / T20 T19 T18 / DB SB MISS / T16 T15 DB / - / SB",
        "B",
        1,
    ),
    (
        "3 players: the first winner ends the game",
        ABC,
        {},
        "T20 T19 T18 / - / - / T17 T16 T15 / - / - / DB SB",
        "A",
        2,
    ),
    (
        "4 players: a later player can win first",
        ABCD,
        {},
        "- / T20 T19 T18 / - / - / - / T17 T16 T15 / - / - / - / SB DB",
        "B",
        2,
    ),
    (
        "no-score: the first to own everything wins",
        AB,
        {"variant": "no-score"},
        CLOSE_OUT.format(b="T20 T20 T20"),
        "A",
        2,
    ),
    (
        "cut-throat: owns all with the lowest points wins",
        AB,
        {"variant": "cut-throat"},
        "T20 T20 T19 / - / T18 T17 T16 / - / T15 DB SB",
        "A",
        3,
    ),
    (
        "cut-throat: owns all but higher; the opponent closes out lower and wins",
        AB,
        {"variant": "cut-throat"},
        "- / T20 T20 / T20 T19 T18 / T19 T18 T17 / T17 T16 T15 / T16 T15 / DB SB / DB SB",
        "B",
        2,
    ),
    (
        "cut-throat: owns all but higher; feeds the opponent until level and wins",
        AB,
        {"variant": "cut-throat"},
        "- / T20 T20 / T20 T19 T18 / - / T17 T16 T15 / - / DB SB / - / T19 T19",
        "A",
        2,
    ),
    (
        "teams: a partner completes the team's targets and the team wins",
        TEAM_PLAYERS,
        {"teams": TEAMS},
        "T20 T19 T18 / - / T17 T16 T15 / - / DB SB",
        "Ann",
        2,
    ),
]


@pytest.mark.parametrize(
    ("players", "options", "script", "winner", "winning_turn_darts"),
    [c[1:] for c in WIN_CASES],
    ids=[c[0] for c in WIN_CASES],
)
def test_a_game_is_won_at_the_moment_the_rules_say(
    players: list[str],
    options: dict[str, Any],
    script: str,
    winner: str,
    winning_turn_darts: int,
) -> None:
    turns = script.split("/")
    game = play(new(players, **options), "/".join(turns[:-1]))
    assert game.outcome() is None
    last = turns[-1].split()
    for i, text in enumerate(last, 1):
        game.push(Dart.parse(text))
        if i < winning_turn_darts:
            assert game.outcome() is None, f"over too early, at dart {i} of the last turn"
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == winner
    assert isinstance(outcome.reason, str) and outcome.reason
    assert len(last) == winning_turn_darts


def test_the_owner_of_everything_who_is_behind_is_not_the_winner_yet() -> None:
    game = play(new(), "T20 T19 T18 / T17 T17 T17 / T17 T16 T15 / - / DB SB T20")
    assert all(game.marks("A", t) == 3 for t in TARGETS)
    assert (game.points("A"), game.points("B")) == (60, 102)
    assert game.outcome() is None
    assert game.current_player == "B"


def test_the_closer_behind_cannot_score_on_a_target_both_own() -> None:
    game = play(new(), "T20 T19 T18 / T17 T17 T17 / T17 T16 T15 / - / DB SB T17")
    assert game.points("A") == 0
    assert game.outcome() is None


def test_cut_throat_owner_of_everything_with_more_points_plays_on() -> None:
    game = play(
        new(variant="cut-throat"), "- / T20 T20 / T20 T19 T18 / - / T17 T16 T15 / - / DB SB"
    )
    assert game.points("A") == 60
    assert game.outcome() is None


def test_points_alone_never_win() -> None:
    game = play(new(), "- / T20 T20")
    assert game.points("B") == 60
    assert game.outcome() is None


def test_a_winning_dart_ends_the_turn_and_the_game_refuses_more_input() -> None:
    game = play(new(), CLOSE_OUT.format(b="-"))
    assert game.outcome() is not None
    before = snapshot(game)
    with pytest.raises(ValueError):
        game.push(Dart.parse("T20"))
    with pytest.raises(ValueError):
        game.end_turn()
    assert snapshot(game) == before
    assert game.stats("A").darts == 8


def test_places_two_to_four_are_by_targets_owned_then_points() -> None:
    game = play(
        new(ABCD),
        "T20 T20 T20 / T20 S19 / T20 T19 T18 / D20 / T19 T18 T17 / T19 T19 / - / -"
        " / T16 T15 DB / - / - / - / SB",
    )
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "A"
    # C owns three targets with 0 points, B two with 76 (D was open on 19), D none.
    assert (game.points("A"), game.points("B"), game.points("C")) == (120, 76, 0)
    assert outcome.placings == ("A", "C", "B", "D")


# ------------------------------------------------------------ round limit


def test_the_default_round_limit_is_twenty_rounds() -> None:
    game = new()
    for _ in range(39):
        game.end_turn()
    assert game.outcome() is None
    assert (game.round, game.current_player) == (20, "B")
    game.end_turn()
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None


def test_round_limit_zero_means_no_limit() -> None:
    game = new(round_limit=0)
    for _ in range(2 * 60):
        for _ in range(3):
            game.push(Dart.MISS)
    assert game.outcome() is None
    assert game.round == 61


def test_the_round_limit_counts_whole_rounds_of_every_player_and_team() -> None:
    three = new(ABC, round_limit=2)
    for _ in range(5):
        three.end_turn()
    assert three.outcome() is None
    three.end_turn()
    assert three.outcome() is not None
    teams = new(teams=TEAMS, round_limit=1)
    for _ in range(3):
        teams.end_turn()
    assert teams.outcome() is None
    teams.end_turn()
    assert teams.outcome() is not None


ROUND_LIMIT_CASES = [
    # (why, players, options, script, winner or None)
    ("most points wins", AB, {}, "T20 T20 / T19 T19", "A"),
    ("most points wins even owning less", AB, {}, "T20 T20 / T19 T18 T17", "A"),
    ("equal points: more marks on the board wins", AB, {}, "T20 / S19", "A"),
    ("equal points, equal marks: a draw", AB, {}, "T20 / T19", None),
    ("nothing at all: a draw", AB, {}, "- / -", None),
    ("cut-throat: fewest points wins", AB, {"variant": "cut-throat"}, "T20 T20 / -", "A"),
    (
        "cut-throat: the player given points loses",
        AB,
        {"variant": "cut-throat"},
        "- / T19 T19",
        "B",
    ),
    ("cut-throat: equal points, more marks wins", AB, {"variant": "cut-throat"}, "S20 / D19", "B"),
    ("no-score: more marks wins", AB, {"variant": "no-score"}, "T20 T20 / T19 S18", "B"),
    ("3 players: most points wins", ABC, {}, "T20 / T19 T19 / T18", "B"),
    ("3 players: top two equal is a draw", ABC, {}, "T20 / T19 / S18", None),
    (
        "teams: the team with most points wins",
        TEAM_PLAYERS,
        {"teams": TEAMS},
        "- / T20 / - / T20 T20",
        ("Bob", "Dan"),
    ),
]


@pytest.mark.parametrize(
    ("players", "options", "script", "winner"),
    [c[1:] for c in ROUND_LIMIT_CASES],
    ids=[c[0] for c in ROUND_LIMIT_CASES],
)
def test_the_last_round_ending_with_no_winner_decides_the_game(
    players: list[str], options: dict[str, Any], script: str, winner: str | tuple[str, ...] | None
) -> None:
    game = play(new(players, round_limit=1, **options), script)
    outcome = game.outcome()
    assert outcome is not None
    if isinstance(winner, tuple):
        assert outcome.winner in winner
    else:
        assert outcome.winner == winner
    assert isinstance(outcome.reason, str) and outcome.reason


def test_a_close_out_in_the_last_turn_wins_at_that_dart() -> None:
    game = play(new(round_limit=3), "- / T20 T19 T18 / - / T17 T16 T15 / -")
    game.push(Dart.parse("DB"))
    assert game.outcome() is None
    game.push(Dart.parse("SB"))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "B"


def test_the_owner_of_everything_behind_at_the_round_limit_loses_on_points() -> None:
    game = play(new(round_limit=3), "T20 T19 T18 / T17 T17 T17 / T17 T16 T15 / - / DB SB T20")
    assert game.outcome() is None
    game.end_turn()
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "B"


# ------------------------------------------------------------ statistics

STATS_CASES = [
    # (why, options, script, player, darts, marks)
    ("T20 S20 MISS: 4 marks in 3 darts", {}, "T20 S20 MISS", "A", 3, 4),
    ("surplus marks that score count", {}, "T20 T20 T20", "A", 3, 9),
    ("marks on a closed target do not count", {}, "T20 / T20 / T20 T20 T20", "A", 4, 3),
    (
        "the opponent's surplus on a target now closed does not count",
        {},
        "T20 / S20 T20",
        "B",
        2,
        3,
    ),
    ("no-score: surplus marks do not count", {"variant": "no-score"}, "T20 T20", "A", 2, 3),
    (
        "cut-throat: surplus marks that give points count",
        {"variant": "cut-throat"},
        "T20 T20",
        "A",
        2,
        6,
    ),
    ("bulls: SB DB SB", {}, "SB DB SB", "A", 3, 4),
    ("misses count as darts", {}, "MISS MISS MISS / - / S1", "A", 4, 0),
]


@pytest.mark.parametrize(
    ("options", "script", "player", "darts", "marks"),
    [c[1:] for c in STATS_CASES],
    ids=[c[0] for c in STATS_CASES],
)
def test_mpr_is_scoring_marks_per_three_darts(
    options: dict[str, Any], script: str, player: str, darts: int, marks: int
) -> None:
    stats = play(new(**options), script).stats(player)
    assert (stats.darts, stats.marks) == (darts, marks)
    assert stats.mpr == pytest.approx(marks / darts * 3)


def test_stats_count_rounds_and_points() -> None:
    game = play(new(), "T20 T20 / - / S20 / S19 S19 S19")
    stats = game.stats("A")
    assert (stats.rounds, stats.points, stats.darts) == (2, 80, 3)
    assert game.stats("B").rounds == 2


TURN_CASES = [
    # (why, script, field, expected)
    ("white horse: three fresh triples", "T20 T19 T18", "white_horses", 1),
    ("white horse also on partly marked targets", "S17 / - / T20 T19 T17", "white_horses", 1),
    ("no white horse with a triple on an owned target", "T20 T20 T19", "white_horses", 0),
    ("no white horse with a bull", "T20 T19 DB", "white_horses", 0),
    ("hat trick: three bulls", "SB DB SB", "hat_tricks", 1),
    ("hat trick with inner bulls", "DB DB DB", "hat_tricks", 1),
    ("no hat trick with two bulls", "SB DB S20", "hat_tricks", 0),
    ("triples are counted", "T20 T19 S18 / - / T17", "triples", 3),
    ("a 5-mark turn", "T20 D19 MISS", "five_mark_turns", 1),
    ("a 6-mark turn", "T20 T20", "six_mark_turns", 1),
    ("a 7-mark turn", "T20 T19 S18", "seven_mark_turns", 1),
    ("an 8-mark turn", "T20 T19 D18", "eight_mark_turns", 1),
    ("a 9-mark turn", "T20 T19 T18", "nine_mark_turns", 1),
    ("a 9-mark turn is not a 5-mark turn", "T20 T19 T18", "five_mark_turns", 0),
    ("a 4-mark turn is nothing", "T20 S19", "five_mark_turns", 0),
    (
        "marks on a closed target do not make a 5-mark turn",
        "T20 / T20 / T20 T19",
        "six_mark_turns",
        0,
    ),
]


@pytest.mark.parametrize(
    ("script", "field", "expected"),
    [c[1:] for c in TURN_CASES],
    ids=[c[0] for c in TURN_CASES],
)
def test_turn_feats_are_counted(script: str, field: str, expected: int) -> None:
    stats = play(new(), script).stats("A")
    assert getattr(stats, field) == expected


# ------------------------------------------------------------ undo


def test_pop_across_turns_restores_player_round_points_and_stats() -> None:
    game = new()
    play(game, "T20 T20")
    earlier = snapshot(game)
    play(game, "S19 / T20 T20 T20 / -")
    assert game.round == 3
    for _ in range(6):  # B's END, A's 3 darts, B's END, B's S19
        game.pop()
    assert snapshot(game) == earlier
    for _ in range(3):  # A's END and 2 darts
        game.pop()
    assert snapshot(game) == snapshot(new())


def test_pop_after_a_win_takes_the_win_back_and_play_goes_on() -> None:
    game = play(new(), CLOSE_OUT.format(b="-"))
    assert game.outcome() is not None
    game.pop()
    assert game.outcome() is None
    assert game.current_player == "A"
    game.push(Dart.parse("MISS"))
    assert game.outcome() is None
    assert game.stats("A").darts == 8


def test_pop_after_a_round_limit_ending_takes_it_back() -> None:
    game = play(new(round_limit=1), "T20 T20 / T19")
    assert game.outcome() is not None
    game.pop()
    assert game.outcome() is None
    assert game.current_player == "B"


def test_pop_on_a_fresh_game_raises_value_error() -> None:
    game = new()
    with pytest.raises(ValueError):
        game.pop()
    assert snapshot(game) == snapshot(new())


INPUTS = st.sampled_from(
    ["T20", "T19", "T18", "T17", "T16", "T15", "DB", "SB", "S20", "D19", "S1", "MISS", "END"]
)


@settings(max_examples=40, deadline=None)
@given(
    inputs=st.lists(INPUTS, max_size=60),
    pops=st.integers(min_value=0, max_value=60),
    variant=st.sampled_from(["standard", "cut-throat", "no-score"]),
    players=st.sampled_from([AB, ABC, ABCD]),
)
def test_n_inputs_then_k_pops_equals_the_first_n_minus_k_inputs(
    inputs: list[str], pops: int, variant: str, players: list[str]
) -> None:
    def feed(game: CricketGame, items: list[str]) -> int:
        fed = 0
        for item in items:
            if game.outcome() is not None:
                break
            if item == "END":
                game.end_turn()
            else:
                game.push(Dart.parse(item))
            fed += 1
        return fed

    game = new(players, variant=variant, round_limit=3)
    fed = feed(game, inputs)
    k = min(pops, fed)
    for _ in range(k):
        game.pop()
    fresh = new(players, variant=variant, round_limit=3)
    feed(fresh, inputs[: fed - k])
    assert snapshot(game) == snapshot(fresh)


# ------------------------------------------------------------ setup and values

BAD_SETUPS = [
    ("one player", {"players": ["A"]}),
    ("no players", {"players": []}),
    ("five players", {"players": ["A", "B", "C", "D", "E"]}),
    ("duplicate names", {"players": ["A", "A"]}),
    ("unknown variant", {"players": AB, "variant": "shanghai"}),
    ("negative round limit", {"players": AB, "round_limit": -1}),
    ("teams of unequal size", {"players": ["A", "B", "C"], "teams": [["A", "C"], ["B"]]}),
    ("three teams", {"players": ["A", "B", "C"], "teams": [["A"], ["B"], ["C"]]}),
    (
        "a player in both teams",
        {"players": ["A", "B", "B", "A"], "teams": [["A", "B"], ["B", "A"]]},
    ),
]


@pytest.mark.parametrize("kwargs", [c[1] for c in BAD_SETUPS], ids=[c[0] for c in BAD_SETUPS])
def test_a_bad_setup_is_refused_with_value_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        CricketGame(**kwargs)


def test_asking_about_a_non_target_or_a_stranger_raises_value_error() -> None:
    game = new()
    with pytest.raises(ValueError):
        game.marks("A", 14)
    with pytest.raises(ValueError):
        game.points("Zed")


def test_the_contract_defaults() -> None:
    game = CricketGame(["Ann", "Bob"])
    assert (game.current_player, game.round, game.outcome()) == ("Ann", 1, None)
    assert game.round_limit == 20
    assert game.variant == "standard"
    stats = game.stats("Ann")
    assert (stats.darts, stats.marks, stats.mpr) == (0, 0, 0.0)


@pytest.mark.parametrize("dart", all_darts(), ids=str)
def test_dart_text_round_trips(dart: Dart) -> None:
    assert Dart.parse(str(dart)) == dart


@pytest.mark.parametrize("text", ["S25", "T25", "D0", "S21", "", "X20", "T", "25", "BULL"])
def test_bad_dart_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Dart.parse(text)


# ------------------------------------------------------------ cut-throat, 3 players

CUT_THROAT_BOTH_OWN_ALL = (
    "- / - / T20 T20 / T20 T19 T18 / T20 T19 T18 / - / T17 T16 T15 / T17 T16 T15 / -"
    " / DB SB / DB SB / -"
)


def test_cut_throat_two_owners_of_everything_level_the_first_owner_wins() -> None:
    game = play(new(ABC, variant="cut-throat"), CUT_THROAT_BOTH_OWN_ALL)
    assert (game.points("A"), game.points("B"), game.points("C")) == (60, 60, 0)
    assert game.outcome() is None
    game.push(Dart.parse("T19"))
    assert game.points("C") == 57
    assert game.outcome() is None
    game.push(Dart.parse("S19"))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "A"


def test_cut_throat_an_opponents_dart_can_make_the_owner_of_everything_lowest() -> None:
    game = play(new(ABC, variant="cut-throat"), CUT_THROAT_BOTH_OWN_ALL + " / -")
    assert game.current_player == "B"
    game.push(Dart.parse("T19"))
    game.push(Dart.parse("T19"))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "A"


# ------------------------------------------------------------ correction


def test_a_dart_corrected_in_place_rescores_the_rest_of_the_game() -> None:
    game = play(new(), "T20 T20 / S19 / T20")
    assert game.points("A") == 120
    game.correct(1, Dart.parse("S20"))
    assert game.points("A") == 80
    assert game.stats("A").marks == 3 + 1 + 3
    assert game.current_player == "B"


def test_a_correction_that_wins_ends_the_game_at_that_dart() -> None:
    # A's S1 was really a single bull: with it A owned everything, level at 0, and won
    # there. B's dart after it was never part of the game; it comes back to be shown.
    game = play(new(), "T20 T19 T18 / - / T17 T16 T15 / - / DB S1 / S20")
    assert game.outcome() is None
    assert game.correct(-4, Dart.parse("SB")) == (TURN_END, Dart.parse("S20"), TURN_END)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "A"
    assert game.history[-1] == Dart.parse("SB") and game.stats("B").darts == 0
    game.pop()  # and undone like any dart
    assert game.outcome() is None and game.current_player == "A"


@pytest.mark.parametrize(
    ("spelling", "variant"),
    [("Cut-Throat", "cut-throat"), ("cut_throat", "cut-throat"), (" No Score ", "no-score")],
)
def test_a_variant_name_is_forgiven_its_case_and_separators(spelling: str, variant: str) -> None:
    assert CricketGame(AB, variant=spelling).variant == variant


@pytest.mark.parametrize("name", [None, 3, "", "cutthroat", "killer"])
def test_a_variant_that_is_not_one_is_refused(name: Any) -> None:
    with pytest.raises(ValueError):
        CricketGame(AB, variant=name)
