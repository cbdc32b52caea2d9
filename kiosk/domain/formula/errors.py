"""The one error a refused formula raises, with a message a player can read."""

from __future__ import annotations


class FormulaError(ValueError):
    """A formula the game refuses: ``code`` for the UI to translate, ``position`` to highlight.

    ``str(error)`` is the plain-English message ("digit 9 is missing"). ``position`` is
    the index in the formula's text of the offending character, or ``None`` when the
    problem is the formula as a whole (a missing digit, a non-whole result).
    """

    def __init__(self, code: str, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position

    def __repr__(self) -> str:
        return f"FormulaError({self.code!r}, {self.message!r}, position={self.position!r})"


# Machine names of every refusal, for translations (message in English for reference).
CODES: dict[str, str] = {
    "empty": "the formula is empty",
    "too_long": "the formula is too long",
    "too_deep": "too many brackets inside each other",
    "not_allowed": "only + - * / ( ) pow sqrt are allowed",
    "missing_operator": "an operator is missing here",
    "leading_zero": "a number can't start with 0",
    "unbalanced": "unbalanced parentheses",
    "wrong_digit": "a digit that is not in the number",
    "extra_digit": "a digit used more times than it is in the number",
    "missing_digit": "a digit of the number is missing",
    "digit_order": "digits must come in the order of the number",
    "syntax": "a number is missing here",
    "bad_arguments": "pow takes 2 numbers, sqrt takes 1",
    "division_by_zero": "division by zero",
    "negative_root": "root of a negative number",
    "zero_power": "0 to a negative power",
    "too_large": "number too large",
    "too_small": "number too close to 0",
    "not_whole": "not a whole number",
}
