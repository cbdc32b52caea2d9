"""An independent audit of formula darts against rules.md section 2 and issue 3.

Written from the rules and the seeds (000 classic, 001 distance) alone, table-driven,
without reading the engine's own tests. Table rows are grouped by the rule they check.
"""

from __future__ import annotations

import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from types import FrameType
from typing import Any

import pytest

from kiosk.domain.formula import FormulaError, evaluate
from kiosk.domain.formula.game import FormulaGame, auto_move
from kiosk.domain.formula.rules import CLASSIC, DISTANCE, Rules

# -- the digit rule -------------------------------------------------------------------

ACCEPTED: list[tuple[str, int, int]] = [
    # (formula, digits, result)
    ("34+89", 3489, 123),  # seed 000 round 1
    ("300*1", 3001, 300),  # seed 000 round 2
    ("1+23-1", 1231, 23),  # seed 000 round 3
    ("pow(2,5)+78", 2578, 110),  # seed 001
    ("348*9", 3489, 3132),  # rules.md: adjacent digits joined
    ("3+489", 3489, 492),
    ("3489", 3489, 3489),  # all four joined
    ("3+0+0+1", 3001, 4),  # a lone 0 is fine
    ("3*0*0*1", 3001, 0),
    ("30*0+1", 3001, 1),  # 30 ends in 0: not a leading zero
    ("1000", 1000, 1000),
    ("1+0+0+0", 1000, 1),
    ("-3+489", 3489, 486),  # unary minus
    ("+3+4+8+9", 3489, 24),  # unary plus
    ("-(3+4)*(8-9)", 3489, 7),
    ("3*-4+89", 3489, 77),
    (" 3 + 4 + 8 + 9 ", 3489, 24),  # spaces anywhere between tokens
    ("3\t+489", 3489, 492),  # a tab is white space too
    ("POW(3,4)-89", 3489, -8),  # PHP names are case-insensitive
    ("Pow(3, 4) - 89", 3489, -8),
    ("Sqrt(4)+89+3", 4893, 94),  # sqrt(4)=2 ... digits read 4 8 9 3
    ("SQRT(49)*1*2", 4912, 14),
    ("sqrt(49)+12", 4912, 19),  # rules.md: sqrt exact where rational
    ("pow (3, 4) + 89", 3489, 170),  # a space before the bracket, as PHP allows
    ("1/3*3+0", 1330, 1),  # exact arithmetic: 1/3*3 is exactly 1
    ("pow(8,1/3)+0", 8130, 2),  # exact fractional power
    ("sqrt(2)*sqrt(2)+0+0", 2200, 2),  # floating point, whole within 1e-9 relative
    ("sqrt(9/4)*2+0", 9420, 3),
    ("pow(2,-1)*2+0", 2120, 1),
    ("pow(10,15)", 1015, 10**15),  # "above 10^15" is refused; 10^15 itself is not
    ("-pow(10,15)", 1015, -(10**15)),
    ("((3))+((4))+8+9", 3489, 24),
    ("9/9*9*9", 9999, 81),
    ("1-2-3-4", 1234, -8),  # a negative result is a result
]


@pytest.mark.parametrize(("formula", "digits", "result"), ACCEPTED)
def test_a_formula_that_follows_the_rules_gives_its_whole_result(
    formula: str, digits: int, result: int
) -> None:
    got = evaluate(formula, digits)
    assert got == result
    assert type(got) is int


# (formula, digits, words the message must contain, the position to highlight or None
# where it is not checked here)
REFUSED: list[tuple[str, int, str, int | None]] = [
    # digits: exactly the four, in order, each once
    ("3+4+8", 3489, "digit 9 is missing", None),
    ("34+98", 3489, "digits must come in the order 3 4 8 9", 3),
    ("43+89", 3489, "digits must come in the order 3 4 8 9", 0),
    ("3+4+8+9+9", 3489, "9", 8),  # a digit used twice
    ("3+4+8+9+1", 3489, "1", 8),  # a digit not in the number
    ("3+4+8+9+5", 3489, "5", 8),  # "no other digits or numbers"
    ("1+23", 1231, "missing", None),
    # leading zeros: "09", "007", "00" refused; in PHP octal or invalid
    ("30+01", 3001, "can't start with 0", 3),
    ("3+001", 3001, "can't start with 0", 2),
    ("3+00+1", 3001, "can't start with 0", 2),
    ("10+09", 1009, "can't start with 0", 3),
    ("1+007", 1007, "can't start with 0", 2),
    # nothing but the allowed characters and names
    ("34.+89", 3489, "only + - * / ( ) pow sqrt are allowed", 2),
    ("3.4+89", 3489, "only + - * / ( ) pow sqrt are allowed", 1),
    ("3**4+89", 3489, "allowed", 2),
    ("3^4+89", 3489, "allowed", 1),
    ("3%4+89", 3489, "allowed", 1),
    ("34//89", 3489, "allowed", 3),
    ("abs(3489)", 3489, "allowed", 0),
    ("pi+3489", 3489, "allowed", 0),
    ("max(3,4)+89", 3489, "allowed", 0),
    ("'3489'", 3489, "allowed", 0),
    ('"3489"', 3489, "allowed", 0),
    ("3489;", 3489, "allowed", 4),
    ("$a=3489", 3489, "allowed", 0),
    ("3489 == 3489", 3489, "allowed", None),
    ("[3489]", 3489, "allowed", 0),
    ("3<<489", 3489, "allowed", 1),
    ("~3489", 3489, "allowed", 0),
    # Python-only literal forms
    ("1_0+23", 1023, "allowed", 1),
    ("10+0x1", 1001, "allowed", 4),
    ("30+0o7", 3007, "allowed", 4),
    ("1e3+45", 1345, "allowed", 1),
    ("2j+345", 2345, "allowed", 1),
    ("True+3489", 3489, "allowed", 0),
    ("\u0663+489", 3489, "allowed", 0),  # an Arabic-Indic digit three
    ("\uff13+489", 3489, "allowed", 0),  # a full-width digit three
    ("3\u2212489", 3489, "allowed", 1),  # a Unicode minus sign
    ("", 3489, "empty", None),
    ("   ", 3489, "empty", None),
    # brackets
    ("(34+89", 3489, "unbalanced parentheses", 0),
    ("34+89)", 3489, "unbalanced parentheses", 5),
    (")34+89(", 3489, "unbalanced parentheses", 0),
    ("pow(3,4+89", 3489, "unbalanced parentheses", 3),
    # the functions
    ("pow(3489)", 3489, "pow", 0),
    ("sqrt(3,489)", 3489, "sqrt", 0),
    ("pow(3,4,89)", 3489, "pow", 0),
    ("sqrt+3489", 3489, "sqrt", 0),
    ("3pow(4,8)+9", 3489, "operator", 1),
    ("3 4+89", 3489, "operator", 2),
    ("(3)(4)+89", 3489, "operator", 3),
    ("3,489", 3489, "comma", 1),  # "," is allowed, but only inside pow(x, y)
    ("(3,4)+89", 3489, "comma", 2),
    ("3+()+489", 3489, "number is missing", 3),
    ("(3(4+89))", 3489, "operator", 2),  # the real mistake first, not the bracket
    # arithmetic refusals
    ("3/(4-4)+9", 3449, "division by zero", 1),
    ("34/(8-8)", 3488, "division by zero", 2),
    ("sqrt(-3)+489", 3489, "negative", 0),
    ("1*pow(0,-2)+3", 1023, "0", 2),  # pow(0, negative)
    ("25/2+0", 2520, "not a whole number: 12.5", None),
    ("1/3+0+0", 1300, "not a whole number", None),
    ("sqrt(2)+2+0+0", 2200, "not a whole number", None),
    ("pow(10,16)", 1016, "number too large", None),
    ("pow(99,99)", 9999, "number too large", None),
    ("pow(99,9)*0", 9990, "number too large", None),  # an intermediate above 10^15
    ("pow(9,pow(9,99))", 9999, "number too large", None),
]


@pytest.mark.parametrize(("formula", "digits", "words", "position"), REFUSED)
def test_a_formula_against_the_rules_is_refused_with_a_clear_message(
    formula: str, digits: int, words: str, position: int | None
) -> None:
    with pytest.raises(FormulaError) as caught:
        evaluate(formula, digits)
    error = caught.value
    assert words.lower() in str(error).lower(), str(error)
    if position is not None:
        assert error.position == position, repr(error)


@pytest.mark.parametrize(
    ("formula", "digits"), [("3+4+8", 3489), ("25/2+0", 2520), ("", 3489), ("1+23", 1231)]
)
def test_a_refusal_about_the_whole_formula_highlights_nothing(formula: str, digits: int) -> None:
    with pytest.raises(FormulaError) as caught:
        evaluate(formula, digits)
    assert caught.value.position is None


def test_the_refusal_for_a_too_large_power_points_at_it() -> None:
    with pytest.raises(FormulaError) as caught:
        evaluate("1+pow(9,99)", 1999)
    assert caught.value.position == 2


@pytest.mark.parametrize(
    ("formula", "digits"),
    [("pow(pow(9,-9),pow(9,-9))", 9999), ("pow(3/4,-89)", 3489), ("1-pow(9,-9)*9", 1999)],
)
def test_a_result_that_is_not_whole_is_never_shown_as_a_whole_number(
    formula: str, digits: int
) -> None:
    with pytest.raises(FormulaError) as caught:
        evaluate(formula, digits)
    shown = str(caught.value).removeprefix("not a whole number: ")
    assert shown != str(caught.value)
    assert not float(Fraction(shown) if "/" in shown else shown).is_integer(), shown


def test_a_refused_formula_is_a_value_error_so_callers_can_catch_one_kind() -> None:
    with pytest.raises(ValueError):
        evaluate("3+4+8", 3489)


# -- hostile input: refused at once, never computed ----------------------------------


@contextmanager
def hang_guard(seconds: float = 3.0) -> Iterator[None]:
    """Turn a hang into a failure (not a speed test: the figures are in bench/)."""

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"still computing after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


HOSTILE: list[tuple[str, int]] = [
    ("pow(9,pow(9,9))*9", 9999),
    ("pow(9,pow(9,pow(9,9)))", 9999),
    ("pow(pow(9,9),pow(9,9))", 9999),
    ("pow(99,99)", 9999),
    ("pow(9,999)", 9999),
    ("pow(9,-pow(9,9))*9", 9999),
    ("sqrt(" * 1000 + "3489" + ")" * 1000, 3489),
    ("(" * 5000 + "3489" + ")" * 5000, 3489),
    ("-" * 10_000 + "3489", 3489),
    ("3+4+8+9" + " " * 10_000, 3489),
    ("pow(" * 200 + "3,4)" * 200 + "+89", 3489),
]


@pytest.mark.parametrize(("formula", "digits"), HOSTILE)
def test_a_hostile_formula_is_refused_not_computed(formula: str, digits: int) -> None:
    with hang_guard():
        try:
            result = evaluate(formula, digits)
        except FormulaError:
            return
    assert abs(result) <= 10**15


# -- points ---------------------------------------------------------------------------

CLASSIC_POINTS: list[tuple[int, int]] = [
    # (result, points): rest = result mod goal; above goal: goal - rest; else result
    (123, 77),  # seed 000 round 1
    (300, 150),  # seed 000 round 2: rest 0 -> 100 points -> + bonus
    (23, 23),  # seed 000 round 3
    (100, 150),  # the goal itself: points == goal -> + bonus
    (200, 150),
    (101, 99),
    (199, 1),
    (150, 50),
    (99, 99),
    (0, 0),
    (1, 1),
    (-5, -5),  # negative result: negative points
    (-100, -100),  # not == goal: no bonus
    (-150, -150),
    (3489, 11),
    (10**15, 150),
]


@pytest.mark.parametrize(("result", "points"), CLASSIC_POINTS)
def test_classic_points_follow_seed_000(result: int, points: int) -> None:
    assert CLASSIC.points(result) == points


DISTANCE_POINTS: list[tuple[int, int]] = [
    (110, 90),  # seed 001: pow(2,5)+78
    (90, 90),
    (100, 150),  # result == goal -> + bonus
    (0, 0),
    (200, 0),
    (300, -100),
    (-10, -10),
    (123, 77),
]


@pytest.mark.parametrize(("result", "points"), DISTANCE_POINTS)
def test_distance_points_follow_seed_001(result: int, points: int) -> None:
    assert DISTANCE.points(result) == points


@pytest.mark.parametrize(
    ("score", "points", "new"),
    [(501, 77, 424), (424, 150, 274), (274, 23, 251), (501, 90, 411), (34, 39, 5), (5, -5, 10)],
)
def test_the_new_score_is_the_distance_from_zero(score: int, points: int, new: int) -> None:
    for rules in (CLASSIC, DISTANCE):
        assert rules.next_score(score, points) == new


def test_the_defaults_are_the_classic_parameters_of_seed_000() -> None:
    for rules in (CLASSIC, DISTANCE):
        assert (rules.start, rules.goal, rules.bonus) == (501, 100, 50)
        assert (rules.max_rounds, rules.time_limit, rules.min_rounds) == (7, 120, 4)


@pytest.mark.parametrize(
    ("changes", "min_rounds"),
    [
        ({"start": 301}, 3),
        ({"start": 150}, 1),
        ({"start": 151}, 2),
        ({"bonus": 0}, 6),
        ({"goal": 50, "bonus": 25}, 7),
        ({"start": 1001, "goal": 200, "bonus": 100}, 4),
    ],
)
def test_variants_made_with_replace_derive_min_rounds(
    changes: dict[str, Any], min_rounds: int
) -> None:
    for rules in (CLASSIC, DISTANCE):
        variant: Rules = replace(rules, **changes)
        assert variant.min_rounds == min_rounds
        assert variant.points(variant.goal) == variant.goal + variant.bonus
        assert type(variant) is type(rules)


# -- the game: solo ---------------------------------------------------------------------


def test_seed_000_rounds_one_to_three_leave_251() -> None:
    g = FormulaGame(["Ann"], rules=CLASSIC, mode="training", digits=[3489, 3001, 1231])
    seen = []
    for formula in ("34+89", "300*1", "1+23-1"):
        digits = g.digits
        points = g.submit("Ann", formula)
        seen.append((digits, points, g.score("Ann")))
    assert seen == [(3489, 77, 424), (3001, 150, 274), (1231, 23, 251)]
    assert g.round == 4
    assert g.outcome() is None


def test_seed_001_example_leaves_411() -> None:
    g = FormulaGame(["Ann"], rules=DISTANCE, mode="qualification", digits=[2578])
    assert g.submit("Ann", "pow(2,5)+78") == 90
    assert g.score("Ann") == 411


def test_a_negative_result_raises_the_score() -> None:
    g = FormulaGame(["Ann"], digits=[1234])
    assert g.submit("Ann", "1-2-3-4") == -8
    assert g.score("Ann") == 509


PERFECT_RUN = [1010, 1010, 1010, 5100]  # 150, 150, 150, 51: 501 -> 0 in 4 rounds
PERFECT_FORMULAS = ["10*10", "10*10", "10*10", "51+0+0"]


@pytest.mark.parametrize("mode", ["training", "qualification"])
def test_a_solo_player_reaching_0_in_min_rounds_wins_a_perfect_game(mode: str) -> None:
    g = FormulaGame(["Ann"], rules=CLASSIC, mode=mode, digits=PERFECT_RUN)
    for formula in PERFECT_FORMULAS:
        assert g.outcome() is None
        g.submit("Ann", formula)
    outcome = g.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.perfect) == ("Ann", True)
    assert g.mode == mode


def test_a_solo_win_after_min_rounds_is_not_perfect() -> None:
    g = FormulaGame(["Ann"], digits=[1111, *PERFECT_RUN])
    g.submit("Ann", "1*1*1*1")  # 1 point: 500
    for formula in ["10*10", "10*10", "10*10", "5*10+0"]:
        g.submit("Ann", formula)
    assert g.score("Ann") == 0
    outcome = g.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.perfect) == ("Ann", False)


def test_a_solo_player_who_runs_out_of_time_loses_at_once() -> None:
    g = FormulaGame(["Ann"], digits=[3489, 3001])
    g.submit("Ann", "34+89")
    g.timeout("Ann")
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.winner is None and not outcome.perfect
    assert g.score("Ann") == 424
    with pytest.raises(ValueError):
        g.submit("Ann", "300*1")


def test_a_solo_player_not_at_0_after_max_rounds_loses() -> None:
    rules = replace(CLASSIC, max_rounds=3)
    g = FormulaGame(["Ann"], rules=rules, digits=[3489, 3001, 1231, 3489])
    g.submit("Ann", "34+89")
    g.submit("Ann", "300*1")
    assert g.outcome() is None
    g.submit("Ann", "1+23-1")
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.winner is None and not outcome.perfect


def test_reaching_0_in_the_last_round_still_wins() -> None:
    rules = replace(CLASSIC, max_rounds=4)
    g = FormulaGame(["Ann"], rules=rules, digits=PERFECT_RUN)
    for formula in PERFECT_FORMULAS:
        g.submit("Ann", formula)
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == "Ann"


def test_a_refused_formula_changes_nothing_and_can_be_fixed() -> None:
    g = FormulaGame(["Ann"], digits=[3489, 3001])
    before = (g.round, g.digits, g.score("Ann"), g.outcome())
    for bad in ("34+98", "3+4+8", "3/(4-4)+89", "34.+89", "(34+89"):
        with pytest.raises(FormulaError):
            g.submit("Ann", bad)
        assert (g.round, g.digits, g.score("Ann"), g.outcome()) == before
    assert g.submit("Ann", "34+89") == 77
    assert (g.round, g.score("Ann")) == (2, 424)


def test_pop_undoes_exactly_across_rounds_and_the_end() -> None:
    g = FormulaGame(["Ann"], digits=PERFECT_RUN)
    snapshots = []
    for formula in PERFECT_FORMULAS:
        snapshots.append((g.round, g.digits, g.score("Ann"), g.outcome()))
        g.submit("Ann", formula)
    assert g.outcome() is not None
    for snapshot in reversed(snapshots):
        g.pop()
        assert (g.round, g.digits, g.score("Ann"), g.outcome()) == snapshot
    with pytest.raises(ValueError):
        g.pop()


def test_pop_undoes_a_solo_timeout() -> None:
    g = FormulaGame(["Ann"], digits=[3489])
    g.timeout("Ann")
    g.pop()
    assert g.outcome() is None
    assert g.submit("Ann", "34+89") == 77


# -- the game: duel ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("digits", "formula", "result"),
    [(4589, "45+89", 134), (4505, "45+05", 50), (1000, "10+00", 10), (9999, "99+99", 198)],
)
def test_the_automatic_move_sums_the_two_halves(digits: int, formula: str, result: int) -> None:
    move = auto_move(digits)
    assert (move.formula, move.result) == (formula, result)


def test_a_duel_timeout_gets_the_automatic_move_scored_normally() -> None:
    g = FormulaGame(["Ann", "Bob"], rules=CLASSIC, mode="duel", digits=[4589, 4505, 3489])
    g.timeout("Ann")
    g.submit("Bob", "4+5+8+9")
    assert g.score("Ann") == 501 - 66  # 134 -> 100 - 34
    assert g.round == 2 and g.digits == 4505
    g.timeout("Bob")
    g.timeout("Ann")
    assert g.score("Bob") == 501 - 26 - 50
    assert g.score("Ann") == 501 - 66 - 50
    assert g.outcome() is None


def test_both_duel_players_get_the_same_digits_and_answer_in_any_order() -> None:
    g = FormulaGame(["Ann", "Bob"], seed=7)
    first = g.digits
    one_by_one = "+".join(str(first))  # 4589 -> 4+5+8+9: always allowed
    g.submit("Bob", one_by_one)
    assert g.digits == first and g.round == 1
    with pytest.raises(ValueError):
        g.submit("Bob", one_by_one)  # answered already
    g.timeout("Ann")
    assert g.round == 2


def _duel(rules: Rules, digits: list[int]) -> FormulaGame:
    return FormulaGame(["Ann", "Bob"], rules=rules, mode="duel", digits=digits)


def test_a_duel_is_decided_only_at_the_end_of_the_round() -> None:
    g = _duel(CLASSIC, [*PERFECT_RUN, 3489])
    for formula in PERFECT_FORMULAS[:3]:
        g.submit("Ann", formula)
        g.submit("Bob", formula)
    g.submit("Ann", PERFECT_FORMULAS[3])
    assert g.score("Ann") == 0
    assert g.outcome() is None  # Bob may still reach 0 this round
    g.submit("Bob", "5*1+0+0")
    outcome = g.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.perfect) == ("Ann", True)


def test_a_duel_where_the_second_player_answers_first_still_waits() -> None:
    g = _duel(CLASSIC, PERFECT_RUN)
    for formula in PERFECT_FORMULAS[:3]:
        g.submit("Bob", formula)
        g.submit("Ann", formula)
    g.submit("Bob", PERFECT_FORMULAS[3])
    assert g.outcome() is None
    g.timeout("Ann")  # 51+00 = 51: Ann reaches 0 too
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.winner is None and not outcome.perfect
    assert "draw" in outcome.reason


@pytest.mark.parametrize(("rules", "word"), [(CLASSIC, "draw"), (DISTANCE, "lose")])
def test_a_duel_with_nobody_at_0_after_max_rounds_is_a_draw_or_both_lose(
    rules: Rules, word: str
) -> None:
    g = _duel(replace(rules, max_rounds=2), [3489, 3001, 1231])
    g.submit("Ann", "34+89")
    g.submit("Bob", "3+4+8+9")
    assert g.outcome() is None
    g.timeout("Ann")
    g.timeout("Bob")
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.winner is None and not outcome.perfect
    assert word in outcome.reason


def test_pop_in_a_duel_restores_the_round_and_the_scores() -> None:
    g = _duel(CLASSIC, [3489, 3001])
    g.submit("Ann", "34+89")
    state = (g.round, g.digits, g.score("Ann"), g.score("Bob"))
    g.submit("Bob", "3+4+8+9")
    assert g.round == 2
    g.pop()
    assert (g.round, g.digits, g.score("Ann"), g.score("Bob")) == state
    g.submit("Bob", "34+89")
    assert (g.round, g.digits) == (2, 3001)


def test_a_stranger_cannot_move() -> None:
    g = _duel(CLASSIC, [3489])
    with pytest.raises(ValueError):
        g.submit("Eve", "34+89")
    with pytest.raises(ValueError):
        g.timeout("Eve")


# -- the draw ---------------------------------------------------------------------------


def _draws(seed: int, rounds: int) -> list[int]:
    g = FormulaGame(["Ann", "Bob"], seed=seed)
    out = []
    for _ in range(rounds):
        out.append(g.digits)
        g.timeout("Ann")
        g.timeout("Bob")
        if g.outcome() is not None:
            break
    return out


def test_a_seed_gives_the_same_digits_every_time() -> None:
    assert _draws(42, 7) == _draws(42, 7)
    assert len(_draws(42, 7)) == 7


def test_the_digits_are_drawn_uniformly_from_1000_to_9999() -> None:
    draws = [FormulaGame(["Ann"], seed=s).digits for s in range(3000)]
    assert all(1000 <= d <= 9999 for d in draws)
    assert abs(sum(draws) / len(draws) - 5499.5) < 200
    leading = Counter(d // 1000 for d in draws)
    assert set(leading) == set(range(1, 10))
    assert all(250 <= n <= 420 for n in leading.values()), leading


def test_given_digits_come_first_then_the_seeded_draw() -> None:
    g = FormulaGame(["Ann"], digits=[3489], seed=1)
    assert g.digits == 3489
    g.submit("Ann", "34+89")
    assert 1000 <= g.digits <= 9999


@pytest.mark.parametrize(
    ("players", "mode"),
    [(["Ann"], "duel"), (["Ann", "Bob"], "training"), (["Ann", "Bob"], "qualification")],
)
def test_modes_match_the_number_of_players(players: list[str], mode: str) -> None:
    with pytest.raises(ValueError):
        FormulaGame(players, mode=mode)
