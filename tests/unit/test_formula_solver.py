"""The solver: its formulas are real formulas, and it finds the best the rules allow."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kiosk.domain.formula import evaluate, exact
from kiosk.domain.formula.rules import CLASSIC, DISTANCE
from kiosk.domain.formula.solver import PLAIN_MAX, Solver, best, reachable

SAMPLE = [
    3489,
    3001,
    1231,
    2578,
    1000,
    9999,
    4505,
    8139,
    1111,
    *random.Random(7).sample(range(1000, 10000), 40),
]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


@pytest.mark.parametrize("digits", SAMPLE)
def test_every_best_formula_passes_the_evaluator_with_its_result(
    solver: Solver, digits: int
) -> None:
    for rules in (CLASSIC, DISTANCE):
        for score in (None, 501, 37, 200):
            sol = solver.best(digits, rules, score)
            assert evaluate(sol.formula, digits) == sol.result
            assert sol.points == rules.points(sol.result)
            assert sol.result in solver.reachable(digits)


@pytest.mark.parametrize("digits", SAMPLE[:15])
def test_best_is_the_optimum_over_the_reachable_results(solver: Solver, digits: int) -> None:
    results = solver.reachable(digits)
    sol = solver.best(digits, CLASSIC)
    assert sol.points == max(CLASSIC.points(r) for r in results)
    sol = solver.best(digits, DISTANCE, score=123)
    assert DISTANCE.next_score(123, sol.points) == min(
        DISTANCE.next_score(123, DISTANCE.points(r)) for r in results
    )


def test_reachable_contains_the_seed_results_and_only_whole_numbers() -> None:
    assert {123, 3132, 492, 3489} <= reachable(3489)
    assert 110 in reachable(2578)  # pow(2,5)+78
    assert 18 in reachable(8139)  # pow(8, 1/3)*9: a fractional exponent
    assert all(type(r) is int for r in reachable(1231))


def _plain_search(s: str) -> set[Fraction]:
    """Reference: every exact value of the grammar, by brute force over the evaluator's
    own guarded arithmetic (slow, independent of the solver's shortcuts)."""
    out: set[Fraction] = set()
    if len(s) == 1 or s[0] != "0":
        out.add(Fraction(int(s)))
    for k in range(1, len(s)):
        for a in _plain_search(s[:k]):
            for b in _plain_search(s[k:]):
                for f in (exact.add, exact.sub, exact.mul, exact.div, exact.power):
                    try:
                        v = f(a, b)
                    except exact.Refusal:
                        continue
                    if isinstance(v, Fraction):  # the evaluator's bounds, no others
                        out.add(v)
    todo = list(out)
    while todo:
        v = todo.pop()
        for w in (-v, exact.sqrt(v) if v > 0 else v):  # sqrt(1/4) = 1/2 too
            if isinstance(w, Fraction) and w not in out:
                out.add(w)
                todo.append(w)
    return out


# 6822: 6*(8-sqrt(pow(2,-2))) = 45, a root of a fraction below 1; 2801:
# pow(sqrt(pow(2,-80)),-1) = 2**40 and 7630: 7/sqrt(pow(6,-30)), through values whose
# denominators are far above 10**15.
@pytest.mark.parametrize("digits", [1000, 1231, 2578, 8139, 6822, 2801, 7630])
def test_reachable_matches_a_plain_search(solver: Solver, digits: int) -> None:
    plain = {int(v) for v in _plain_search(str(digits)) if v.denominator == 1}
    assert solver.reachable(digits) == plain


def test_a_score_finishing_at_zero_is_found() -> None:
    sol = best(2578, CLASSIC, score=34)
    assert CLASSIC.next_score(34, sol.points) == 0


@pytest.mark.parametrize(
    ("digits", "rules", "score"),
    [
        (6822, CLASSIC, 45),  # 6*(8-sqrt(pow(2,-2))): the root of 1/4
        (6389, DISTANCE, 55),  # (6+sqrt(sqrt(pow(3,-8))))*9
        (7630, CLASSIC, 68),  # 7/sqrt(pow(6,-30)): a denominator of 2.2e23 on the way
    ],
)
def test_finishes_through_fractions_below_one_are_found(
    digits: int, rules: Any, score: int
) -> None:
    sol = best(digits, rules, score=score)
    assert rules.next_score(score, sol.points) == 0
    assert evaluate(sol.formula, digits) == sol.result


@pytest.mark.parametrize(
    ("digits", "rules", "score", "length"),
    [
        (4050, DISTANCE, None, len("sqrt(4+0)*50")),  # not sqrt(4)*(0+50)
        (7036, CLASSIC, 12, len("sqrt(7+0-3)*6")),  # not (-pow(7,0)+3)*6
        (4058, DISTANCE, None, len("4*sqrt(0+sqrt(pow(5,8)))")),
    ],
)
def test_of_two_formulas_as_short_the_one_needing_no_brackets_is_kept(
    digits: int, rules: Any, score: int | None, length: int
) -> None:
    assert len(best(digits, rules, score=score).formula) == length


def test_solve_command_prints_both_rule_sets_and_writes_a_table(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "kiosk", "solve", "3489"], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("classic") and "distance" in out
    formula = out.splitlines()[0].split()[1]
    assert evaluate(formula, 3489) == int(out.splitlines()[0].split("=")[1].split()[0])


@pytest.mark.parametrize("digits", [3489, 8139, 4859, 5489, 2848, 1000, 7041, 9795])
def test_best_is_as_short_as_a_full_forward_search(solver: Solver, digits: int) -> None:
    # The 4-digit table built forward (every pair of pieces, every operation) holds the
    # shortest formula of every value: the pruned backward search must match it.
    full = solver.tables.table(str(digits))
    results = solver.reachable(digits)
    assert {v for v in full if type(v) is int} == set(results)
    for rules in (CLASSIC, DISTANCE):
        for score in (None, 37):
            sol = solver.best(digits, rules, score)
            tied = [
                r
                for r in results
                if (rules.points(r) if score is None else -rules.next_score(score, rules.points(r)))
                == (sol.points if score is None else -rules.next_score(score, sol.points))
            ]
            assert len(sol.formula) == min(full[r].length for r in tied)


def _plain_values(s: str) -> set[Fraction]:
    """Every value of + - * / and brackets alone (no pow, no sqrt) over the digits ``s``."""
    out: set[Fraction] = set()
    if len(s) == 1 or s[0] != "0":
        out.add(Fraction(int(s)))
    for k in range(1, len(s)):
        for a in _plain_values(s[:k]):
            for b in _plain_values(s[k:]):
                out.update((a + b, a - b, a * b))
                if b:
                    out.add(a / b)
    return out | {-v for v in out}


@pytest.mark.parametrize("digits", [9999, 9899, 9198, 1999, 1000, 9019, 9091])
def test_a_formula_without_pow_or_sqrt_never_exceeds_the_plain_bound(digits: int) -> None:
    # The solver skips results above PLAIN_MAX once it holds a formula under 10
    # characters; that is sound only if such short formulas can't reach them.
    assert max(abs(v) for v in _plain_values(str(digits))) <= PLAIN_MAX
