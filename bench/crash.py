"""Crash bench: the real kiosk process, killed with SIGKILL at random moments, N times.

Each round starts ``python -m kiosk --trace`` on a fresh virtual board (a pty) with one
database file kept across rounds, resumes the game in play (a new Cricket game when
the last one is over), throws random darts and board buttons every 2-30 ms, and kills
the process 0-1.5 s later. Then it reads the file as a second party: integrity check,
and every state the kiosk logged as shown (after the flip) must be what the stored
events replay to, with the dart it named in its place. The rig is
``tests/e2e/kiosk_support.CrashRig`` (``tests/e2e/test_crash.py`` runs 4 rounds).

Prints the tally; passes or fails nothing. Usage: ``python bench/crash.py [--rounds N]
[--seed S] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from kiosk_support import CrashRig  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="work in DIR and keep it (database, pty)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="crash-bench-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        rig = CrashRig(work, seed=args.seed)
        t0 = time.monotonic()
        for i in range(args.rounds):
            rig.round()
            if (i + 1) % 20 == 0:
                print(f"  {i + 1} rounds, {time.monotonic() - t0:.0f} s: lost {rig.tally.lost}",
                      flush=True)  # fmt: skip
        elapsed = time.monotonic() - t0
    t = rig.tally
    print(t.summary())
    print(f"{elapsed:.0f} s in all, {elapsed / max(1, t.rounds):.2f} s per round")
    for problem in t.problems[:20]:
        print("  problem:", problem)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
