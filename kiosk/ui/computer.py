"""The computer opponent of a formula duel: easy, medium or perfect.

- ``perfect``: the solver's best formula for its score (``solver.best(..., score)``):
  the lowest score the digits allow, ties broken by the shortest formula.
- ``medium``: what a quick pub player finds: every way to cut the four digits into
  numbers with ``+ - * /`` between them (no brackets, no pow or sqrt: 125 formulas),
  the one leaving the lowest score.
- ``easy``: the same with ``+`` and ``-`` only (27 formulas).

All three are deterministic (a replay gives the same moves) and answer in a few ms
once the solver's tables are warm. The automatic move (``45+89``) is among the flat
formulas, so the computer never does worse than running out of time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from kiosk.domain.formula.errors import FormulaError
from kiosk.domain.formula.expression import evaluate
from kiosk.domain.formula.rules import Rules
from kiosk.domain.formula.solver import best

LEVELS = ("easy", "medium", "perfect")
_GAPS = {"easy": ("", "+", "-"), "medium": ("", "+", "-", "*", "/")}


@dataclass(frozen=True)
class ComputerMove:
    formula: str
    result: int
    points: int


def _flat_formulas(digits: str, gaps: tuple[str, ...]) -> Iterator[str]:
    for ops in product(gaps, repeat=len(digits) - 1):
        yield digits[0] + "".join(op + d for op, d in zip(ops, digits[1:], strict=True))


def computer_move(level: str, digits: int, rules: Rules, score: int) -> ComputerMove:
    """The computer's formula for this round, at ``level``, playing from ``score``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    if level == "perfect":
        solution = best(digits, rules, score)
        return ComputerMove(solution.formula, solution.result, solution.points)
    chosen: ComputerMove | None = None
    chosen_key = (0, 0)
    for formula in _flat_formulas(str(digits), _GAPS[level]):
        try:
            result = evaluate(formula, digits)
        except FormulaError:
            continue  # 3/489 is not whole, 09 starts with 0...
        points = rules.points(result)
        key = (rules.next_score(score, points), len(formula))
        if chosen is None or key < chosen_key:
            chosen, chosen_key = ComputerMove(formula, result, points), key
    # The four digits joined (4589) are always a valid formula: the number has no
    # leading zero, so something was chosen.
    assert chosen is not None
    return chosen
