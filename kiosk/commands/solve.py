"""``darts-kiosk solve 3489``: the best formula for a number under each rule set;
``darts-kiosk solve --all --out table.csv``: the same for all 9000 numbers."""

from __future__ import annotations

import argparse
import csv
import io
import sys
from typing import TextIO

from kiosk.adapters.files import write_text_atomically
from kiosk.domain.formula.expression import evaluate
from kiosk.domain.formula.rules import RULE_SETS
from kiosk.domain.formula.solver import Solver

NAME = "solve"
HELP = "formula darts: print the best formula for a number (or --all to a CSV table)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("digits", nargs="?", type=int, help="a number from 1000 to 9999")
    parser.add_argument(
        "--score", type=int, help="the player's score: aim for the lowest new score"
    )
    parser.add_argument("--all", action="store_true", help="solve all 9000 numbers")
    parser.add_argument("--out", help="with --all: the CSV file to write (default: stdout)")


def run(args: argparse.Namespace) -> int:
    if args.all and args.digits is not None:
        print("solve: give a number or --all, not both", file=sys.stderr)
        return 2
    if args.out and not args.all:
        print("solve: --out goes with --all", file=sys.stderr)
        return 2
    solver = Solver()
    if args.all:
        if args.out:
            table = io.StringIO(newline="")
            _write_table(solver, table, args.score)
            try:
                write_text_atomically(args.out, table.getvalue())  # (an old table stays whole)
            except OSError as e:
                print(f"solve: cannot write {args.out}: {e.strerror or e}", file=sys.stderr)
                return 1
            print(f"wrote 9000 numbers to {args.out}")
        else:
            _write_table(solver, sys.stdout, args.score)
        return 0
    if args.digits is None or not 1000 <= args.digits <= 9999:
        print("solve: give a number from 1000 to 9999, or --all", file=sys.stderr)
        return 2
    for rules in RULE_SETS.values():
        sol = solver.best(args.digits, rules, args.score)
        after = "" if args.score is None else f", score {rules.next_score(args.score, sol.points)}"
        print(f"{rules.name:9} {sol.formula} = {sol.result} -> {sol.points} points{after}")
    return 0


def _write_table(solver: Solver, out: TextIO, score: int | None) -> None:
    writer = csv.writer(out)
    header = ["digits"]
    for name in RULE_SETS:
        header += [f"{name}_formula", f"{name}_result", f"{name}_points"]
    writer.writerow(header)
    for digits in range(1000, 10000):
        row: list[object] = [digits]
        for rules in RULE_SETS.values():
            sol = solver.best(digits, rules, score)
            # Every formula written is checked by the game's own evaluator.
            if evaluate(sol.formula, digits) != sol.result:
                raise RuntimeError(f"solver bug: {sol.formula} is not {sol.result}")
            row += [sol.formula, sol.result, sol.points]
        writer.writerow(row)
