"""systemd readiness and watchdog, spoken directly (the sd_notify datagram protocol).

Under ``Type=notify`` systemd passes ``$NOTIFY_SOCKET`` (a filesystem path, or ``@name``
for the abstract namespace); each message is one ``AF_UNIX``/``SOCK_DGRAM`` datagram of
newline-separated ``KEY=value`` lines. ``WatchdogSec=`` sets ``$WATCHDOG_USEC`` (and
``$WATCHDOG_PID``); systemd restarts the service when no ``WATCHDOG=1`` arrives within it.
With no ``$NOTIFY_SOCKET`` (a desk, a test, no systemd) every call does nothing.

The app pings from its render loop itself, so a hung UI stops the pings. ``watchdog()``
rate-limits itself to one datagram per half interval; call it every loop pass.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def watchdog_usec(env: Mapping[str, str], pid: int) -> int | None:
    """The watchdog timeout systemd set for this process, in microseconds, or None.

    Mirrors sd_watchdog_enabled(3): a ``WATCHDOG_PID`` naming another process means the
    watchdog is not ours (the variable was inherited)."""
    raw = env.get("WATCHDOG_USEC", "")
    try:
        usec = int(raw)
    except ValueError:
        return None
    if usec <= 0:
        return None
    owner = env.get("WATCHDOG_PID", "")
    if owner:
        try:
            if int(owner) != pid:
                return None
        except ValueError:
            return None
    return usec


def socket_address(notify_socket: str) -> str | None:
    """The AF_UNIX address for ``$NOTIFY_SOCKET``; ``@`` means the abstract namespace."""
    if notify_socket.startswith("/"):
        return notify_socket
    if notify_socket.startswith("@") and len(notify_socket) > 1:
        return "\0" + notify_socket[1:]
    return None  # e.g. "vsock:..." (systemd 253+, for VMs): not a case for a Pi


class Notifier:
    """Tells systemd that the kiosk is up, alive, and what it is doing."""

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        *,
        pid: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        env = os.environ if env is None else env
        self._clock = clock
        self._warned = False
        self._sock: socket.socket | None = None
        self._address: str | None = None
        raw = env.get("NOTIFY_SOCKET", "")
        if raw:
            self._address = socket_address(raw)
            if self._address is None:
                log.warning("NOTIFY_SOCKET=%r is not a unix socket; not notifying", raw)
        usec = watchdog_usec(env, os.getpid() if pid is None else pid)
        self._period = usec / 2_000_000 if usec is not None and self._address else None
        self._last_ping: float | None = None

    @property
    def enabled(self) -> bool:
        """True when there is a systemd (or a test) listening."""
        return self._address is not None

    def watchdog_interval(self) -> float | None:
        """Seconds between pings (half of ``$WATCHDOG_USEC``), or None: no watchdog.

        The loop must wake at least this often, even when idle."""
        return self._period

    def seconds_until_watchdog(self) -> float | None:
        """How long the loop may sleep before the next ping is due (None: forever)."""
        if self._period is None:
            return None
        if self._last_ping is None:
            return 0.0
        return max(0.0, self._last_ping + self._period - self._clock())

    def ready(self) -> None:
        """The first frame is on screen."""
        self._send("READY=1")

    def watchdog(self) -> None:
        """Call on every pass of the render loop; pings once per interval."""
        if self._period is None:
            return
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self._period:
            return
        self._last_ping = now
        self._send("WATCHDOG=1")

    def status(self, text: str) -> None:
        """One line shown by ``systemctl status darts-kiosk``."""
        self._send("STATUS=" + " ".join(text.split()))

    def stopping(self) -> None:
        self._send("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _send(self, message: str) -> None:
        if self._address is None:
            return
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message.encode("utf-8"), self._address)
        except OSError as exc:
            # A missing listener must never stop the scoreboard; say so once.
            if not self._warned:
                self._warned = True
                log.warning("cannot notify systemd at %r: %s", self._address, exc)
