"""Kiosk latency, idle CPU and start-up, on the real app headless with a virtual board.

- latency: 500 darts written one at a time to the virtual board's pty; for each, the
  time from just before the write to the end of the display flip that shows it (the
  app calls a frame listener after every flip with the darts it shows). p50 / p99 ms.
  Measured twice: with the SQLite store (each dart committed, WAL + synchronous=FULL,
  before the screen is drawn: the kiosk as it runs) in a database file on the disk
  under ``--data-dir`` (default: a temporary directory), and with no store (games in
  memory) for comparison; plus the commit alone (``Games.record``) per dart.
- idle CPU: a scoreboard on screen and nothing happening for 10 s: CPU seconds of the
  loop thread, and of the whole process (which here also holds the board reader and
  the virtual board's threads), as % of one core.
- first frame: ``python -m kiosk --window --virtual`` started as a process; wall time
  until it logs its first frame (interpreter start and imports included).

Targets (issue 5): p99 <= 16.7 ms, idle <= 1 %, first frame <= 1.5 s. Prints figures;
passes or fails nothing. Usage:
``python bench/latency.py [--darts N] [--idle S] [--data-dir DIR] [--no-compare]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.adapters.serial_board.virtual import VirtualBoard  # noqa: E402
from kiosk.bootstrap import Options, build  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.ui.app import Frame  # noqa: E402
from kiosk.ui.driver import Driver  # noqa: E402
from kiosk.ui.screens.cricket_menu import start_cricket  # noqa: E402
from kiosk.ui.session import CricketSetup  # noqa: E402

# Darts that never finish a game (no round limit): 20s and 19s close and then score
# nothing once both own them; the rest are Cricket misses that still redraw the turn.
DARTS = ["S20", "T19", "S3", "D20", "S19", "MISS", "S7", "T20", "DB"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure_latency(d: Driver, board: VirtualBoard, n: int) -> list[float]:
    shown = threading.Event()
    ms: list[float] = []

    def listener(frame: Frame) -> None:
        if frame.dart_times:
            shown.set()

    d.app.frame_listener = listener
    done = threading.Event()

    def sender() -> None:
        for i in range(n):
            shown.clear()
            t0 = time.monotonic()
            board.send(DARTS[i % len(DARTS)])
            if not shown.wait(2.0):
                print(f"dart {i} not shown within 2 s", file=sys.stderr)
                continue
            ms.append((d.app.latencies[-1][1] - t0) * 1000)
            time.sleep(0.01)  # a dart every ~10 ms: far faster than any player
        done.set()

    thread = threading.Thread(target=sender, daemon=True)
    thread.start()
    d.app.run(until=done.is_set, timeout=120)
    d.app.frame_listener = None
    return ms


def timed_commits(running: object) -> list[float]:
    """Times every ``Games.record`` (one committed event) of the running kiosk, in ms."""
    store = getattr(running, "store", None)
    out: list[float] = []
    if store is None:
        return out
    games = store.games
    record = games.record

    def timed(*args: object, **kwargs: object) -> int:
        t0 = time.perf_counter()
        try:
            return int(record(*args, **kwargs))
        finally:
            out.append((time.perf_counter() - t0) * 1000)

    games.record = timed
    return out


def run_darts(
    size: tuple[int, int], n: int, data_dir: Path, store: bool, idle: float = 0.0
) -> tuple[list[float], list[float], tuple[float, float, int] | None]:
    """(dart -> flip ms, commit ms, idle figures) for one kiosk."""
    with tempfile.TemporaryDirectory() as tmp:
        board = VirtualBoard(Path(tmp) / "board")
        board.start()
        options = Options(
            window=True, size=size, port=str(board.link), env={}, data_dir=data_dir, store=store
        )
        running = build(options, Config())
        d = Driver(running)
        try:
            d.wait_for(lambda: d.kiosk.board.state == "connected", timeout=10)
            commits = timed_commits(running)
            start_cricket(d.kiosk, CricketSetup(names=("Anna", "Boris"), round_limit=0))
            d.settle()
            ms = measure_latency(d, board, n)
            idle_figures = None
            if idle > 0:
                d.settle(1.0)
                idle_figures = measure_idle(d, idle)
        finally:
            running.close()
            board.close()
    return ms, commits, idle_figures


def describe(ms: list[float]) -> str:
    if not ms:
        return "no darts shown"
    return (
        f"p50 {statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
        f"max {max(ms):.2f} ms over {len(ms)} darts"
    )


def measure_idle(d: Driver, seconds: float) -> tuple[float, float, int]:
    frames = d.app.frames
    wall0, cpu0 = time.monotonic(), time.process_time()
    thread0 = time.thread_time()
    d.app.run(timeout=seconds)
    wall = time.monotonic() - wall0
    return (
        (time.thread_time() - thread0) / wall * 100,
        (time.process_time() - cpu0) / wall * 100,
        d.app.frames - frames,
    )


def measure_first_frame() -> float | None:
    home = tempfile.mkdtemp()
    env = dict(os.environ, PYTHONUNBUFFERED="1", HOME=home)
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "--window", "--virtual", f"--data-dir={home}/data"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "first frame" in line:
                return time.monotonic() - t0
        return None
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--darts", type=int, default=500)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--data-dir", type=Path, help="the database's directory (a disk!)")
    parser.add_argument("--no-compare", action="store_true", help="skip the run with no store")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory(prefix="latency-db-") as tmp:
        data_dir = args.data_dir or Path(tmp)
        ms, commits, idle = run_darts((w, h), args.darts, data_dir, True, args.idle)
        plain: list[float] = []
        if not args.no_compare:
            plain, _, _ = run_darts((w, h), args.darts, data_dir, False)
    print(f"screen {w}x{h}, SDL driver {os.environ['SDL_VIDEODRIVER']}; database in {data_dir}")
    print(f"dart -> flip latency, store on (commit before the flip): {describe(ms)} "
          "(target p99 <= 16.7)")  # fmt: skip
    if commits:
        print(
            f"  the commit alone (Games.record, {len(commits)} events): "
            f"p50 {statistics.median(commits):.2f} ms, p99 {percentile(commits, 0.99):.2f} ms, "
            f"max {max(commits):.2f} ms"
        )
    if plain:
        print(f"dart -> flip latency, no store (games in memory): {describe(plain)}")
        if ms:
            print(
                f"  store on minus off: p50 {statistics.median(ms) - statistics.median(plain):+.2f}"
                f" ms, p99 {percentile(ms, 0.99) - percentile(plain, 0.99):+.2f} ms"
            )
    if idle is not None:
        loop_cpu, process_cpu, idle_frames = idle
        print(
            f"idle scoreboard, {args.idle:g} s: loop thread {loop_cpu:.2f}% of a core, "
            f"whole process {process_cpu:.2f}% (target <= 1%); {idle_frames} frames drawn"
        )
    first = measure_first_frame()
    if first is None:
        print("first frame: the kiosk never logged one")
    else:
        print(f"first frame: {first * 1000:.0f} ms from process start (target <= 1500)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
