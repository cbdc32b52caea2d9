"""The sd_notify messages the kiosk sends, received on a real socket the test owns."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.adapters.notify import Notifier, socket_address, watchdog_usec


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify.sock")
    sock.bind(path)
    sock.settimeout(2)
    yield sock, path
    sock.close()


def received(sock: socket.socket) -> list[str]:
    sock.setblocking(False)
    out = []
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    sock.settimeout(2)
    return out


def test_ready_status_and_stopping_reach_the_socket(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    notifier.ready()
    notifier.status("Cricket: Anna\nto throw")
    notifier.stopping()
    assert received(sock) == ["READY=1", "STATUS=Cricket: Anna to throw", "STOPPING=1"]
    notifier.close()


def test_an_abstract_namespace_socket_is_reached_through_the_at_sign() -> None:
    name = f"darts-kiosk-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    try:
        Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        sock.settimeout(2)
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()


def test_the_watchdog_pings_once_per_half_interval(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    clock = Clock()
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"}, clock=clock)
    assert notifier.watchdog_interval() == 2.0
    assert notifier.seconds_until_watchdog() == 0.0
    notifier.watchdog()
    for _ in range(100):  # a 60 fps loop calls it far more often than it needs to ping
        clock.now += 0.015625
        notifier.watchdog()
    assert received(sock) == ["WATCHDOG=1"]
    assert notifier.seconds_until_watchdog() == 0.4375
    clock.now += 0.5
    notifier.watchdog()
    assert received(sock) == ["WATCHDOG=1"]


def test_a_watchdog_meant_for_another_process_is_ignored(
    listener: tuple[socket.socket, str],
) -> None:
    sock, path = listener
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"}
    notifier = Notifier(env, pid=4242)
    assert notifier.watchdog_interval() is None
    assert notifier.seconds_until_watchdog() is None
    notifier.watchdog()
    assert received(sock) == []
    assert Notifier(env, pid=1).watchdog_interval() == 2.0


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, None),
        ({"WATCHDOG_USEC": "30000000"}, 30_000_000),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({"WATCHDOG_USEC": "500", "WATCHDOG_PID": "7"}, 500),
        ({"WATCHDOG_USEC": "500", "WATCHDOG_PID": "8"}, None),
        ({"WATCHDOG_USEC": "500", "WATCHDOG_PID": "x"}, None),
    ],
)
def test_the_watchdog_timeout_is_read_as_systemd_sets_it(
    env: dict[str, str], expected: int | None
) -> None:
    assert watchdog_usec(env, pid=7) == expected


def test_socket_addresses_follow_the_systemd_spelling() -> None:
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("@abc") == "\0abc"
    assert socket_address("@") is None
    assert socket_address("vsock:2:1234") is None


def test_without_systemd_every_call_does_nothing() -> None:
    notifier = Notifier({"WATCHDOG_USEC": "1000000"})
    assert not notifier.enabled
    assert notifier.watchdog_interval() is None
    notifier.ready()
    notifier.watchdog()
    notifier.status("idle")
    notifier.stopping()
    notifier.close()


def test_a_vanished_listener_is_logged_once_and_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    env = {"NOTIFY_SOCKET": str(tmp_path / "gone.sock"), "WATCHDOG_USEC": "2000000"}
    notifier = Notifier(env, clock=clock)
    with caplog.at_level(logging.WARNING, logger="kiosk.adapters.notify"):
        notifier.ready()
        for _ in range(5):
            clock.now += 1
            notifier.watchdog()
        notifier.status("still here")
    warnings = [r for r in caplog.records if "cannot notify systemd" in r.getMessage()]
    assert len(warnings) == 1


def test_a_non_unix_notify_socket_is_refused_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="kiosk.adapters.notify"):
        notifier = Notifier({"NOTIFY_SOCKET": "vsock:2:99"})
    assert not notifier.enabled
    assert "not a unix socket" in caplog.text
