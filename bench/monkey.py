"""Monkey bench: the real kiosk, headless, given thousands of random inputs per seed.

Keys (keypad with NumLock on and off, keyboard), clicks anywhere, board lines (darts,
buttons, garbage, over-long, legacy codes, RAW), board unplug/replug, formulas typed
as text, pauses. After every input: no exception escaped the loop, nothing logged at
ERROR, the top screen draws; every 100 inputs and at the end: every open game is what
the database file replays to, and every game in the file replays. The rig is
``tests/e2e/test_monkey.Monkey`` (the test runs 3 seeds x 1500 inputs).

Prints the tally; passes or fails nothing. Usage: ``python bench/monkey.py [--seeds N]
[--first S] [--steps N] [--show N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from test_monkey import Tally, monkey_run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first", type=int, default=100, help="the first seed")
    parser.add_argument("--steps", type=int, default=2000, help="inputs per seed")
    parser.add_argument("--show", type=int, default=5, help="problems printed in full")
    args = parser.parse_args()
    total = Tally()
    started = time.monotonic()
    for seed in range(args.first, args.first + args.seeds):
        with tempfile.TemporaryDirectory(prefix="monkey-") as tmp:
            t0 = time.monotonic()
            tally = monkey_run(Path(tmp), seed, args.steps, stop_on_problem=False)
            total.add(tally)
            print(
                f"seed {seed}: {tally.steps} steps in {time.monotonic() - t0:.1f} s, "
                f"{len(tally.screens)} screens, exceptions {tally.exceptions}, "
                f"errors logged {tally.errors_logged}, draw failures {tally.draw_failures}, "
                f"games checked {tally.games_checked}, mismatches {tally.mismatches}",
                flush=True,
            )
    elapsed = time.monotonic() - started
    print(
        f"\n{args.seeds} seeds, {total.steps} steps in {elapsed:.0f} s "
        f"({1000 * elapsed / max(1, total.steps):.1f} ms/step)"
    )
    print(
        f"exceptions {total.exceptions}, errors logged {total.errors_logged}, "
        f"draw failures {total.draw_failures}, data checks {total.checks}, "
        f"open games checked {total.games_checked}, games in files {total.games_in_file}, "
        f"replay mismatches {total.mismatches}"
    )
    print("screens visited: steps on each, and the time of one step there (median, max)")
    for name, n in total.screens.most_common():
        times = sorted(total.times.get(name, [0.0]))
        median = 1000 * statistics.median(times)
        print(f"  {name:16} {n:6}   {median:6.1f} ms  {1000 * times[-1]:7.1f} ms")
    print("inputs: " + ", ".join(f"{k} {n}" for k, n in total.actions.most_common()))
    print(f"problems: {len(total.problems)}")
    for text in total.problems[: args.show]:
        print("-" * 72 + "\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
