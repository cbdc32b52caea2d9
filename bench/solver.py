"""Solver speed: median ms per number and the total for all 9000 numbers, one core.

Per number: the whole results (``reachable``) and the best formula for both rule sets,
no score (what ``darts-kiosk solve --all`` does). The piece tables fill during the run,
so the first numbers are slower; the total includes that. Also printed: the time of a
first call on empty tables (what a player waits for at most once per process) and of
building all 1110 piece tables at once. Wall-clock times: on a shared machine, take the
median of a few runs. Usage:

    .venv/bin/python bench/solver.py              # all 9000 numbers
    .venv/bin/python bench/solver.py --sample 500 # a quick run on a random sample

Targets (issue "Formula darts engine"): median <= 2 ms, all 9000 <= 20 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from kiosk.domain.formula.rules import CLASSIC, DISTANCE
from kiosk.domain.formula.solver import Solver

FIRST = 3489  # seed 000's first round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="solve only N random numbers")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    numbers = list(range(1000, 10000))
    if args.sample:
        numbers = sorted(random.Random(args.seed).sample(numbers, args.sample))
    t0 = time.perf_counter()
    Solver().best(FIRST, CLASSIC)  # a first call builds the tables its number needs
    first = time.perf_counter() - t0
    solver = Solver()  # the run itself starts from empty tables too
    times: list[float] = []
    start = time.perf_counter()
    for n in numbers:
        t0 = time.perf_counter()
        solver.reachable(n)
        solver.best(n, CLASSIC)
        solver.best(n, DISTANCE)
        times.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    times.sort()
    print(f"numbers solved      {len(numbers)}")
    print(f"median ms/number    {1e3 * statistics.median(times):.2f}")
    print(f"p90 ms/number       {1e3 * times[int(0.9 * len(times))]:.2f}")
    print(f"max ms/number       {1e3 * times[-1]:.1f}")
    print(f"total s             {total:.2f}")
    print(f"first call ms       {1e3 * first:.1f}  (best({FIRST}) on empty tables)")
    print(f"all tables built s  {_all_tables_seconds():.2f}  (the 1110 tables of 1-3 digits)")


def _all_tables_seconds() -> float:
    solver = Solver()
    t0 = time.perf_counter()
    for n in range(1000):
        for s in (str(n % 10), f"{n % 100:02d}", f"{n:03d}"):
            solver.tables.ranked(s)
            solver.tables.halves(s)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
