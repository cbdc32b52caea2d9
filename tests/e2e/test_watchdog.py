"""The real kiosk, headless, tells a socket this test owns that it is up and alive,
and stops saying so when it stalls (what systemd's watchdog restarts it for)."""

from __future__ import annotations

import itertools
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import kiosk.commands.kiosk as kiosk_command

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv" / "bin" / "python"
COMMAND = [
    str(PYTHON if PYTHON.exists() else sys.executable),
    "-m",
    "kiosk",
    "--window",
    "--virtual",
]
# 2 s timeout -> a ping every 1 s: slow enough for two busy shared cores to keep to.
# (The unit sets WatchdogSec=30; the app must not care about the figure.)
WATCHDOG_USEC = 2_000_000
PING_EVERY = WATCHDOG_USEC / 2_000_000
START_TIMEOUT = 90.0  # cold imports of pygame, numpy and cv2 on a loaded machine

pytestmark = pytest.mark.skipif(
    not getattr(kiosk_command, "SD_NOTIFY", False),
    reason="the kiosk command does not create a Notifier yet "
    "(kiosk.commands.kiosk.SD_NOTIFY is not set)",
)


class Listener:
    """The socket systemd would own: datagrams with the time each arrived."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))

    def receive(self, seconds: float) -> list[tuple[float, str]]:
        """Everything that arrives within ``seconds``."""
        out = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                break
            out.append((time.monotonic(), data.decode()))
        return out

    def wait_for(self, message: str, seconds: float) -> list[tuple[float, str]]:
        """Messages up to and including ``message``; fails after ``seconds``."""
        seen: list[tuple[float, str]] = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096).decode()
            except TimeoutError:
                break
            seen.append((time.monotonic(), data))
            if message in data.splitlines():
                return seen
        raise AssertionError(f"no {message} within {seconds} s; got {[m for _, m in seen]}")

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def kiosk_under_watch(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Listener]]:
    listener = Listener(tmp_path / "notify.sock")
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "NOTIFY_SOCKET": str(tmp_path / "notify.sock"),
        "WATCHDOG_USEC": str(WATCHDOG_USEC),
        # Its own settings and data, not the developer's.
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    env.pop("STATE_DIRECTORY", None)
    log = (tmp_path / "kiosk.log").open("wb")
    proc = subprocess.Popen(COMMAND, env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield proc, listener
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
        listener.close()
        if proc.returncode not in (0, -signal.SIGTERM):
            print((tmp_path / "kiosk.log").read_text(errors="replace")[-4000:])


def pings(messages: list[tuple[float, str]]) -> list[float]:
    return [t for t, m in messages if "WATCHDOG=1" in m.splitlines()]


def test_the_kiosk_says_ready_then_pings_until_it_stalls(
    kiosk_under_watch: tuple[subprocess.Popen[bytes], Listener],
) -> None:
    proc, listener = kiosk_under_watch

    before_ready = listener.wait_for("READY=1", START_TIMEOUT)
    assert proc.poll() is None
    assert pings(before_ready) == [], "a watchdog ping came before READY=1"

    alive = pings(listener.receive(5 * PING_EVERY + 0.5))
    gaps = [b - a for a, b in itertools.pairwise(alive)]
    assert len(alive) >= 4, f"pings at {alive}"
    # Every gap well inside the timeout (systemd would kill at WATCHDOG_USEC), and on
    # the whole about one ping per half timeout, not a flood from every frame.
    assert max(gaps) < WATCHDOG_USEC / 1e6, gaps
    assert 0.7 * PING_EVERY <= statistics.median(gaps) <= 1.3 * PING_EVERY, gaps

    # Stall the loop: a stopped process runs no code at all.
    proc.send_signal(signal.SIGSTOP)
    listener.receive(0.2)  # a datagram already in flight
    stalled = pings(listener.receive(3 * PING_EVERY))
    assert stalled == [], "pings kept coming from a stalled kiosk"

    # Woken, it pings again straight away: the ping is overdue.
    proc.send_signal(signal.SIGCONT)
    listener.wait_for("WATCHDOG=1", PING_EVERY + 1.0)
    assert proc.poll() is None

    # `systemctl stop` sends SIGTERM and kills after TimeoutStopSec (10 s in the unit).
    proc.terminate()
    assert proc.wait(timeout=10) in (0, -signal.SIGTERM)


def test_the_pings_come_from_the_drawing_loop_not_from_a_thread_beside_it(
    tmp_path: Path,
) -> None:
    # SIGSTOP (above) stops every thread; here only the loop hangs (a screen stuck in
    # its update), the device threads run on: the pings must stop all the same.
    import threading

    from kiosk.bootstrap import Options, build
    from kiosk.config import Config
    from kiosk.ui.screen import Screen

    listener = Listener(tmp_path / "notify.sock")
    got: list[tuple[float, str]] = []
    env = {"NOTIFY_SOCKET": str(tmp_path / "notify.sock"), "WATCHDOG_USEC": "1000000"}
    options = Options(window=True, virtual=True, env=env, data_dir=tmp_path / "data")
    running = build(options, Config())
    # Started after the (slow) build: what came before waits in the socket.
    listening = threading.Thread(target=lambda: got.extend(listener.receive(7.0)), daemon=True)
    listening.start()

    class Stuck(Screen):
        name = "stuck"
        hung_at: float | None = None

        def update(self, now: float) -> None:
            if Stuck.hung_at is None:
                Stuck.hung_at = time.monotonic()
                time.sleep(3.0)

        def draw(self, painter: object) -> None:
            pass

    try:
        running.app.run(timeout=1.5)
        running.kiosk.stack.push(Stuck(running.kiosk))
        running.app.run(timeout=4.5)
    finally:
        running.close()
    listening.join(timeout=10.0)
    pings = [t for t, m in got if "WATCHDOG=1" in m]
    assert Stuck.hung_at is not None
    during = [t for t in pings if Stuck.hung_at + 0.2 < t < Stuck.hung_at + 2.9]
    assert not during, "pinged while the loop was stuck"
    assert any(t > Stuck.hung_at + 3.0 for t in pings), "no pings once the loop went on"
    assert any(t < Stuck.hung_at for t in pings)
