"""Serial board figures: reconnect time over 100+ USB replugs (virtual board, pty),
and the throughput of the reader through a megabyte of random bytes.

    .venv/bin/python bench/serial_board.py [--rounds 120]
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from kiosk.adapters.serial_board.protocol import Button, Hit
from kiosk.adapters.serial_board.reader import BoardReader, Status
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.domain.darts import Dart, all_darts


class Waiter:
    def __init__(self) -> None:
        self.items: list[object] = []
        self.times: list[float] = []
        self.cond = threading.Condition()

    def __call__(self, item: object) -> None:
        with self.cond:
            self.items.append(item)
            self.times.append(time.monotonic())
            self.cond.notify_all()

    def wait(self, item: object, start: int, timeout: float = 5.0) -> float:
        """Wait for ``item`` at index >= start; returns when the sink got it."""
        with self.cond:
            ok = self.cond.wait_for(lambda: item in self.items[start:], timeout)
            if not ok:
                raise SystemExit(f"FAILED: {item} not seen within {timeout} s")
            return self.times[self.items.index(item, start)]


def replugs(rounds: int, gap: float, retry: float) -> tuple[list[float], int, int]:
    """Returns reconnect times (s, from the moment the new pty exists: unplug + gap),
    hits sent and received."""
    times: list[float] = []
    sent = 0
    with tempfile.TemporaryDirectory() as d, VirtualBoard(Path(d) / "dartboard") as vb:
        vb.start()
        w = Waiter()
        reader = BoardReader(str(vb.link), w, retry_interval=retry)
        reader.start()
        w.wait(Status("connected", str(vb.link)), 0)
        for i in range(rounds):
            mark = len(w.items)
            vb.send("T20")  # taken before the cable is pulled: it must arrive exactly once
            sent += 1
            w.wait(Hit(Dart(20, 3)), mark)
            mark = len(w.items)
            unplugged = time.monotonic()
            vb.replug(gap=gap)
            connected = w.wait(Status("connected", str(vb.link)), mark)
            times.append(connected - unplugged - gap)
            if i % 10 == 0:
                vb.send("BTN NEXT")
                w.wait(Button("NEXT"), mark)
        vb.send("BTN MENU")
        w.wait(Button("MENU"), 0)
        reader.stop()
    got = sum(1 for e in w.items if e == Hit(Dart(20, 3)))
    return times, sent, got


def garbage(megabytes: float) -> tuple[float, int, int, int]:
    rng = random.Random(7)
    darts = [str(d).encode() for d in all_darts()]
    chunks, sent, total = [], 0, 0
    while total < megabytes * 1_000_000:
        chunk = rng.randbytes(rng.choice([10, 500, 5000, 70000])) + b"\n" + rng.choice(darts)
        chunks.append(chunk + b"\n")
        total += len(chunks[-1])
        sent += 1
    with VirtualBoard() as vb:
        w = Waiter()
        reader = BoardReader(vb.path, w)
        reader.start()
        w.wait(Status("connected", vb.path), 0)
        t0 = time.monotonic()
        for c in chunks:
            vb.write(c)
        vb.send("BTN MENU")
        w.wait(Button("MENU"), 0, timeout=60)
        elapsed = time.monotonic() - t0
        reader.stop()
    got = sum(1 for e in w.items if isinstance(e, Hit))
    return total / elapsed / 1e6, sent, got, reader.stats.max_buffered


def report(name: str, times: list[float], sent: int, got: int) -> None:
    ms = sorted(t * 1000 for t in times)
    print(
        f"{name}: {len(ms)} replugs, reconnect median {statistics.median(ms):.1f} ms, "
        f"p90 {ms[int(len(ms) * 0.9)]:.1f} ms, max {ms[-1]:.1f} ms; "
        f"hits sent {sent}, received {got}"
    )


def main() -> int:
    logging.basicConfig(level=logging.ERROR)  # thousands of expected losses and garbage
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=120)
    args = ap.parse_args()
    times, sent, got = replugs(args.rounds, gap=0.0, retry=0.5)
    report("instant replug (retry 0.5 s)", times, sent, got)
    ok = got == sent and max(times) < 2.0
    times, sent, got = replugs(max(20, args.rounds // 4), gap=0.3, retry=0.5)
    report("replug after 0.3 s unplugged (retry 0.5 s)", times, sent, got)
    ok = ok and got == sent and max(times) < 2.0
    mbps, sent, got, buffered = garbage(1.0)
    print(
        f"1 MB random bytes + {sent} valid lines: {mbps:.2f} MB/s through the reader, "
        f"{got}/{sent} valid lines received, largest line buffer {buffered} bytes"
    )
    ok = ok and got == sent
    print("OK" if ok else "FAILED: a hit was lost or doubled, or a reconnect took >= 2 s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
