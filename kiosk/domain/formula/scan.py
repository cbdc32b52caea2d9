"""Checks on the raw text of a formula, before Python's parser ever sees it.

Everything the rules forbid that Python would accept (``1_0``, ``0x1``, ``1e3``, ``1.5``,
``2j``, ``True``, ``**``, ``//``) is refused here, character by character, so the
parser only ever receives digits, ``+ - * / ( ) ,``, spaces and the lower-cased names
``pow`` and ``sqrt``. Length and bracket depth are checked here too: Python's parser and
simpleeval's tree walk are recursive, and a hostile 10 000-character formula must be
refused in microseconds, not parsed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from kiosk.domain.formula.errors import FormulaError

MAX_LENGTH = 300
MAX_DEPTH = 40
FUNCTIONS = ("pow", "sqrt")
_SPACE = " \t"
_OPERATORS = "+-*/,"
_NOT_ALLOWED = "only + - * / ( ) pow sqrt are allowed"


@dataclass(frozen=True)
class Token:
    kind: str  # "number", "name", "op", "(", ")"
    text: str
    position: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens, refusing any character or name the rules do not allow."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _SPACE:
            i += 1
        elif "0" <= c <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            tokens.append(Token("number", text[i:j], i))
            i = j
        elif c.isascii() and c.isalpha():
            j = i
            while j < n and text[j].isascii() and text[j].isalpha():
                j += 1
            word = text[i:j].lower()
            if word not in FUNCTIONS:
                raise FormulaError("not_allowed", _NOT_ALLOWED, i)
            tokens.append(Token("name", word, i))
            i = j
        elif c in _OPERATORS:
            tokens.append(Token("op", c, i))
            i += 1
        elif c in "()":
            tokens.append(Token(c, c, i))
            i += 1
        else:
            raise FormulaError("not_allowed", _NOT_ALLOWED, i)
    return tokens


def check_structure(tokens: list[Token]) -> None:
    """Refuse bad brackets, ``**``, ``//``, juxtaposed operands, bare names, leading zeros.

    A closing bracket with nothing open is reported as "unbalanced parentheses" before
    anything else about it (``)34+89(`` -> position 0), not as the operator missing
    next to it. A bracket left open is reported last, so that while a player is still
    typing (``(3(``) the real mistake shows first.
    """
    depth = 0
    open_positions: list[int] = []
    for k, tok in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        if tok.kind == "(":
            depth += 1
            open_positions.append(tok.position)
            if depth > MAX_DEPTH:
                raise FormulaError("too_deep", "too many brackets inside each other", tok.position)
        elif tok.kind == ")":
            if depth == 0:
                raise FormulaError("unbalanced", "unbalanced parentheses", tok.position)
            depth -= 1
            open_positions.pop()
        if tok.kind == "number" and len(tok.text) > 1 and tok.text[0] == "0":
            raise FormulaError("leading_zero", "a number can't start with 0", tok.position)
        if tok.kind == "name" and (nxt is None or nxt.kind != "("):
            raise FormulaError(
                "not_allowed", f"{tok.text} needs brackets: {_usage(tok.text)}", tok.position
            )
        if tok.kind == "op" and tok.text in "*/" and nxt is not None and nxt.text == tok.text:
            # Python's ** and //: PHP has no // and the rules allow only pow() for powers.
            raise FormulaError("not_allowed", _NOT_ALLOWED, nxt.position)
        if tok.kind in ("number", ")") and nxt is not None and nxt.kind in ("number", "name", "("):
            raise FormulaError("missing_operator", "an operator is missing here", nxt.position)
    if open_positions:
        raise FormulaError("unbalanced", "unbalanced parentheses", open_positions[-1])


def check_digits(tokens: list[Token], digits: int) -> None:
    """Reading the formula's digits left to right must give exactly ``digits``."""
    want = str(digits)
    got: list[tuple[str, int]] = [
        (ch, tok.position + i)
        for tok in tokens
        if tok.kind == "number"
        for i, ch in enumerate(tok.text)
    ]
    if "".join(ch for ch, _ in got) == want:
        return
    available = Counter(want)
    used: Counter[str] = Counter()
    for ch, pos in got:
        used[ch] += 1
        if available[ch] == 0:
            raise FormulaError("wrong_digit", f"{ch} is not a digit of {want}", pos)
        if used[ch] > available[ch]:
            times = "once" if available[ch] == 1 else f"{available[ch]} times"
            raise FormulaError("extra_digit", f"digit {ch} can be used only {times}", pos)
    missing = sorted((available - used).elements(), key=want.index)
    if missing:
        if len(missing) == 1:
            message = f"digit {missing[0]} is missing"
        else:
            message = f"digits {', '.join(missing[:-1])} and {missing[-1]} are missing"
        raise FormulaError("missing_digit", message, None)
    first_wrong = next(pos for (ch, pos), w in zip(got, want, strict=True) if ch != w)
    raise FormulaError(
        "digit_order", f"digits must come in the order {' '.join(want)}", first_wrong
    )


def prepare(text: str, digits: int) -> str:
    """All raw-text checks; returns the text with function names lower-cased."""
    if len(text) > MAX_LENGTH:
        raise FormulaError("too_long", "the formula is too long", MAX_LENGTH)
    if not text.strip():
        raise FormulaError("empty", "the formula is empty", None)
    tokens = tokenize(text)
    check_structure(tokens)
    check_digits(tokens, digits)
    out = list(text)
    for tok in tokens:
        if tok.kind == "name":
            out[tok.position : tok.position + len(tok.text)] = tok.text
    return "".join(out)


def _usage(name: str) -> str:
    return "pow(x, y)" if name == "pow" else "sqrt(x)"
