"""The latency a dart pays to be committed before the screen shows it.

A real database file (WAL, synchronous=FULL: one fsync per commit) on a real disk
(default: a temporary directory in /var/tmp, not a tmpfs; ``--dir`` to choose). Plays
Cricket darts through ``LiveGame.dart`` (engine push + committed event) and, for the
comparison, the same darts on the engine alone. Prints median and p99 in milliseconds.
Then the save of a formula being typed (``LiveGame.save_draft``: one row written over,
committed; the session makes one at most every ``DRAFT_SAVE_EVERY`` s) and how much it
adds to the write-ahead log each time.

    .venv/bin/python bench/store.py [--darts 500] [--dir PATH]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from kiosk.adapters.store import Store
from kiosk.domain.cricket import CricketGame

DARTS = ["S1", "T20", "S5", "S20", "MISS", "S19", "D3"]  # never closes a game: stays in play


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def figures(name: str, ms: list[float]) -> None:
    print(
        f"{name:<34} median {statistics.median(ms):7.3f} ms   p99 {percentile(ms, 99):7.3f} ms"
        f"   max {max(ms):7.3f} ms   (n={len(ms)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--darts", type=int, default=500)
    parser.add_argument("--dir", type=Path, default=Path("/var/tmp"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="darts-bench-") as tmp:
        path = Path(tmp) / "kiosk.sqlite3"
        fs = subprocess.run(
            ["df", "--output=fstype", str(tmp)], capture_output=True, text=True
        ).stdout.split()
        print(f"database: {path} (filesystem: {fs[-1] if fs else '?'})")
        with Store.open(path) as store:
            store.players.add("Ann")
            store.players.add("Bob")
            live = store.start_game("cricket", ["Ann", "Bob"], {"round_limit": 0})
            live.dart("S1")  # warm up
            stored: list[float] = []
            for i in range(args.darts):
                t0 = time.perf_counter()
                live.dart(DARTS[i % len(DARTS)])
                stored.append((time.perf_counter() - t0) * 1000)
            assert not live.is_over()
            store.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # (the log empty)
            drafts = draft_saves(store, args.darts)
            per_save = path.with_name(path.name + "-wal").stat().st_size / len(drafts)
        engine = CricketGame(["Ann", "Bob"], round_limit=0)
        alone: list[float] = []
        for i in range(args.darts):
            t0 = time.perf_counter()
            engine.push(DARTS[i % len(DARTS)])
            alone.append((time.perf_counter() - t0) * 1000)
    figures("engine push alone", alone)
    figures("engine push + committed event", stored)
    median = statistics.median(stored) - statistics.median(alone)
    p99 = percentile(stored, 99) - percentile(alone, 99)
    print(f"added by the commit:               median {median:7.3f} ms   p99 {p99:7.3f} ms")
    figures("formula typed, saved", drafts)
    print(f"written to the write-ahead log:    {per_save / 1024:.1f} KiB a save")


def draft_saves(store: Store, count: int) -> list[float]:
    """``count`` saves of a formula being typed, a key more each time (ms each)."""
    live = store.start_game("formula", ["Ann"], {"mode": "training"})
    keys = ["3", "4", "+", "pow(", "8", ",", "9", ")"]
    ms: list[float] = []
    for i in range(count):
        t0 = time.perf_counter()
        live.save_draft(0, keys[: 1 + i % len(keys)])
        ms.append((time.perf_counter() - t0) * 1000)
    live.abandon()
    return ms


if __name__ == "__main__":
    main()
