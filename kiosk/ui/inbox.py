"""The queue between device threads and the one thread that owns pygame.

Device threads call :meth:`Inbox.put` (any thread, never blocks); the loop blocks in
:meth:`Inbox.wait` until something arrives or its timeout ends, so a dart wakes the
loop at once while an idle kiosk sleeps in the kernel instead of polling.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """An event from a device thread (a serial board ``Hit``/``Button``/``Status``...),
    stamped with ``time.monotonic()`` when the device thread handed it over."""

    event: Any
    t: float = field(default_factory=time.monotonic)
    source: str = "board"


class Inbox:
    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._items: deque[DeviceEvent] = deque()

    def put(self, event: Any, source: str = "board") -> None:
        """Hand an event to the loop (called from any thread)."""
        item = event if isinstance(event, DeviceEvent) else DeviceEvent(event, source=source)
        with self._cond:
            self._items.append(item)
            self._cond.notify()

    def wait(self, timeout: float) -> list[DeviceEvent]:
        """Everything queued, waiting up to ``timeout`` s for the first item."""
        with self._cond:
            if not self._items and timeout > 0:
                self._cond.wait(timeout)
            items = list(self._items)
            self._items.clear()
        return items

    def pending(self) -> int:
        with self._cond:
            return len(self._items)
