"""Formula darts: how long evaluate() takes to refuse hostile input, and to score a
normal formula. Prints the median and the maximum over repeated runs (microseconds).

    .venv/bin/python bench/eval.py [--repeat N]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time

from kiosk.domain.formula import FormulaError, evaluate

CASES: list[tuple[str, str, int]] = [
    ("pow(9,pow(9,9))", "pow(9,pow(9,9))*1", 9991),
    ("pow(pow(9,9),pow(9,9))", "pow(pow(9,9),pow(9,9))", 9999),
    ("pow(99,99)", "pow(99,99)", 9999),
    ("pow(9,9)*pow(9,9)", "pow(9,9)*pow(9,9)", 9999),
    ("sqrt nested 1000 deep", "sqrt(" * 1000 + "3489" + ")" * 1000, 3489),
    ("5000 nested parentheses", "(" * 5000 + "3489" + ")" * 5000, 3489),
    ("10 000 characters", "3+" * 5000 + "3489", 3489),
    ("10 000 letters", "x" * 10_000, 3489),
    ("division by zero", "3/(4-4)*9", 3449),
    ("python literal 0x1", "0x1+3489", 3489),
    ("normal: 34+89", "34+89", 3489),
    ("normal: pow(2,5)+78", "pow(2,5)+78", 2578),
    ("normal: sqrt(4)*pow(8,1/3)", "sqrt(4)*pow(8,1/3)", 4813),
]


def time_once(formula: str, digits: int) -> float:
    start = time.perf_counter()
    with contextlib.suppress(FormulaError):
        evaluate(formula, digits)
    return (time.perf_counter() - start) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    print(f"{'case':32} {'median us':>10} {'max us':>10}  result")
    slowest = ("", 0.0)
    for name, formula, digits in CASES:
        try:
            outcome = str(evaluate(formula, digits))
        except FormulaError as e:
            outcome = f"refused: {e}"
        times = [time_once(formula, digits) for _ in range(args.repeat)]
        med = statistics.median(times)
        if not name.startswith("normal") and med > slowest[1]:
            slowest = (name, med)
        print(f"{name:32} {med:10.1f} {max(times):10.1f}  {outcome[:60]}")
    print(f"slowest hostile case (median): {slowest[0]}, {slowest[1] / 1000:.3f} ms")


if __name__ == "__main__":
    main()
