"""Safe evaluation of a player's formula: ``evaluate("34+89", 3489) == 123``.

Three layers, cheapest first:

1. ``scan.prepare`` checks the raw text: length, allowed characters and names,
   brackets, leading zeros, and that the digits read left to right are exactly the
   number. Python-only forms (``1_0``, ``0x1``, ``1e3``, ``1.5``, ``2j``, ``**``) never
   reach the parser.
2. ``ast.parse`` builds the tree (only from text the scan accepted).
3. A locked-down ``simpleeval.SimpleEval`` walks it: its ``nodes`` table holds only
   numbers, ``+ - * /``, unary ``+ -`` and calls; ``operators`` and ``functions`` map to
   the guarded exact arithmetic of ``exact.py``; ``names`` is empty. Anything else
   (names, attributes, subscripts, comparisons, tuples, lambdas, f-strings...) is not
   in the table and is refused.

Chosen where the rules are silent: ``3--4`` (minus a negative, which PHP would reject
as a decrement) is accepted as ``3-(-4)``; a trailing comma ``pow(2,5,)`` is accepted
(PHP 7.3+ allows it).
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from simpleeval import SimpleEval

from kiosk.domain.formula import exact, scan
from kiosk.domain.formula.errors import FormulaError
from kiosk.domain.formula.exact import Refusal, Value

_ARITY = {"pow": 2, "sqrt": 1}
_USAGE = {"pow": "pow(x, y)", "sqrt": "sqrt(x)"}
_OP_CHAR: dict[type[ast.operator], str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
_NOT_ALLOWED = "only + - * / ( ) pow sqrt are allowed"


class _Evaluator(SimpleEval):  # type: ignore[misc]  # simpleeval ships no type hints
    """simpleeval with every node, operator and function but ours removed."""

    def __init__(self, text: str, offset: int) -> None:
        super().__init__(
            operators={
                ast.Add: exact.add,
                ast.Sub: exact.sub,
                ast.Mult: exact.mul,
                ast.Div: exact.div,
                ast.USub: exact.neg,
                ast.UAdd: exact.pos,
            },
            functions={"pow": exact.power, "sqrt": exact.sqrt},
            names={},
        )
        self.nodes: dict[type[ast.AST], Callable[[Any], Value]] = {
            ast.BinOp: self._binop,
            ast.UnaryOp: self._unaryop,
            ast.Call: self._call,
            ast.Constant: self._constant,
        }
        self.text = text
        self.offset = offset

    def _eval(self, node: ast.AST) -> Value:
        handler = self.nodes.get(type(node))
        if handler is None:
            if isinstance(node, ast.Tuple):
                raise self._tuple_error(node)
            raise FormulaError("not_allowed", _NOT_ALLOWED, self._where(node))
        return handler(node)

    def _tuple_error(self, node: ast.Tuple) -> FormulaError:
        """``()`` lacks a number; ``3,489`` or ``(3,4)+89`` has a comma outside pow()."""
        start = self._where(node)
        if not node.elts:
            inside = None if start is None else start + 1
            return FormulaError("syntax", "a number is missing here", inside)
        end = getattr(node.elts[0], "end_col_offset", None)
        comma = -1 if end is None else self.text.find(",", int(end) + self.offset)
        return FormulaError(
            "not_allowed",
            "a comma goes only between the two numbers of pow(x, y)",
            comma if comma >= 0 else start,
        )

    def _where(self, node: ast.AST) -> int | None:
        col = getattr(node, "col_offset", None)
        return None if col is None else int(col) + self.offset

    def _constant(self, node: ast.Constant) -> Value:
        # The scan lets through only runs of digits, so this is an int; checked anyway.
        if type(node.value) is not int:
            raise FormulaError("not_allowed", _NOT_ALLOWED, self._where(node))
        return Fraction(node.value)

    def _unaryop(self, node: ast.UnaryOp) -> Value:
        operator = self.operators.get(type(node.op))
        if operator is None:
            raise FormulaError("not_allowed", _NOT_ALLOWED, self._where(node))
        result: Value = operator(self._eval(node.operand))
        return result

    def _binop(self, node: ast.BinOp) -> Value:
        operator = self.operators.get(type(node.op))
        if operator is None:
            raise FormulaError("not_allowed", _NOT_ALLOWED, self._where(node))
        left = self._eval(node.left)
        right = self._eval(node.right)
        try:
            result: Value = operator(left, right)
        except Refusal as refusal:
            raise self._error(refusal, self._operator_position(node)) from None
        return result

    def _operator_position(self, node: ast.BinOp) -> int | None:
        end = getattr(node.left, "end_col_offset", None)
        char = _OP_CHAR.get(type(node.op))
        if end is None or char is None:
            return self._where(node)
        # Between the left operand and the operator there are only spaces and ')'.
        found = self.text.find(char, int(end) + self.offset)
        return found if found >= 0 else self._where(node)

    def _call(self, node: ast.Call) -> Value:
        func = node.func
        if not isinstance(func, ast.Name) or func.id not in _ARITY:
            raise FormulaError("missing_operator", "an operator is missing here", self._where(node))
        if (
            node.keywords
            or any(isinstance(a, ast.Starred) for a in node.args)
            or len(node.args) != _ARITY[func.id]
        ):
            count = "2 numbers" if func.id == "pow" else "1 number"
            raise FormulaError(
                "bad_arguments",
                f"{func.id} takes {count}: {_USAGE[func.id]}",
                self._where(node),
            )
        args = [self._eval(a) for a in node.args]
        try:
            result: Value = self.functions[func.id](*args)
        except Refusal as refusal:
            raise self._error(refusal, self._where(node)) from None
        return result

    @staticmethod
    def _error(refusal: Refusal, position: int | None) -> FormulaError:
        return FormulaError(refusal.code, refusal.message, position)


_KEPT = threading.local()


def _evaluator(text: str, offset: int) -> _Evaluator:
    """This thread's evaluator, set for ``text``. One is kept, not made for each formula:
    each dropped ran simpleeval's ``__del__``, and a Ctrl-C landing there (18,000 times
    in ``solve --all``) was lost, "Exception ignored" printed and the table went on."""
    evaluator: _Evaluator | None = getattr(_KEPT, "evaluator", None)
    if evaluator is None:
        evaluator = _KEPT.evaluator = _Evaluator(text, offset)
    evaluator.text, evaluator.offset = text, offset
    return evaluator


def evaluate(formula: str, digits: int) -> int:
    """The whole-number result of ``formula`` for the round's ``digits`` (1000..9999).

    Raises FormulaError (a ValueError) with a message for the player, a ``.code`` and
    a ``.position`` when the formula is refused. Never raises anything else for any
    text: bad input is a refusal, never a crash.
    """
    if type(digits) is not int or not 1000 <= digits <= 9999:
        raise ValueError(f"digits must be a number from 1000 to 9999, not {digits!r}")
    text = scan.prepare(formula, digits)
    body = text.lstrip(" \t")
    offset = len(text) - len(body)
    try:
        tree = ast.parse(body, mode="eval")
    except SyntaxError as err:
        # offset is 1-based; at the end of the text Python may give 0 or one past the end
        column = (err.offset or 0) - 1
        position = len(text) if column < 0 else min(len(text), column + offset)
        raise FormulaError("syntax", "a number is missing here", position) from None
    except (RecursionError, MemoryError, ValueError):
        raise FormulaError("too_deep", "the formula is too complicated", None) from None
    evaluator = _evaluator(text, offset)
    try:
        value: Value = evaluator.eval(text, previously_parsed=tree.body)
        return exact.whole(value)
    except Refusal as refusal:
        raise FormulaError(refusal.code, refusal.message, None) from None
    except RecursionError:
        raise FormulaError("too_deep", "the formula is too complicated", None) from None
