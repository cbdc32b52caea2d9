"""Fuzzing the evaluator: any text, and any formula the grammar can make, gives an int
or a FormulaError, never anything else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.domain.formula import FormulaError, evaluate

DIGITS = st.integers(1000, 9999)
ALPHABET = st.sampled_from([*"0123456789+-*/(), .eEjx_%^", "pow", "sqrt", "POW", "**"])


def _outcome(formula: str, digits: int) -> int | FormulaError:
    try:
        return evaluate(formula, digits)
    except FormulaError as err:
        assert err.position is None or 0 <= err.position <= len(formula)
        return err


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), DIGITS)
def test_any_text_gives_an_int_or_a_formula_error(text: str, digits: int) -> None:
    assert isinstance(_outcome(text, digits), int | FormulaError)


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=30).map("".join), DIGITS)
def test_formula_like_text_gives_an_int_or_a_formula_error(text: str, digits: int) -> None:
    assert isinstance(_outcome(text, digits), int | FormulaError)


@st.composite
def formulas(draw: st.DrawFn) -> tuple[str, int]:
    """A formula from the grammar over a random number's digits, kept in order."""
    digits = draw(DIGITS)
    text = str(digits)

    def build(s: str) -> str:
        if len(s) == 1 or (s[0] != "0" and draw(st.booleans())):
            node = s
        else:
            k = draw(st.integers(1, len(s) - 1))
            left, right = build(s[:k]), build(s[k:])
            op = draw(st.sampled_from(["+", "-", "*", "/", "pow"]))
            node = f"pow({left}, {right})" if op == "pow" else f"({left}){op}({right})"
        wrap = draw(st.sampled_from(["", "", "-", "sqrt", "SQRT"]))
        return f"-({node})" if wrap == "-" else f"{wrap}({node})" if wrap else node

    return build(text), digits


@settings(max_examples=400, deadline=None)
@given(formulas())
def test_grammar_formulas_give_an_int_or_a_formula_error(case: tuple[str, int]) -> None:
    formula, digits = case
    result = _outcome(formula, digits)
    assert isinstance(result, int | FormulaError)
    if isinstance(result, FormulaError):
        # digits are right by construction: only arithmetic refusals are possible
        assert result.code in {
            "division_by_zero",
            "negative_root",
            "zero_power",
            "too_large",
            "too_small",
            "not_whole",
            "too_deep",
            "too_long",
        }
