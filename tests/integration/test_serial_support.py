"""Helpers for the serial integration tests (no tests here): an event collector that
the reader's sink fills and the test waits on."""

from __future__ import annotations

import threading
from collections.abc import Callable

from kiosk.adapters.serial_board.reader import Status


class Events:
    """A sink for ``BoardReader``: keeps everything, lets the test wait for the next
    item matching a predicate (items before it are skipped, not lost)."""

    def __init__(self) -> None:
        self.items: list[object] = []
        self.cursor = 0
        self._cond = threading.Condition()

    def __call__(self, item: object) -> None:
        with self._cond:
            self.items.append(item)
            self._cond.notify_all()

    # The default wait is far above what any item takes on a desk (milliseconds, or the
    # reader's own timeouts of a second or so): on a busy machine it was 3 s, a second
    # or two above those, and a late reader thread failed a test that was right.
    def next(self, pred: Callable[[object], bool], timeout: float = 10.0) -> object:
        with self._cond:
            found: list[object] = []

            def scan() -> bool:
                for i in range(self.cursor, len(self.items)):
                    if pred(self.items[i]):
                        self.cursor = i + 1
                        found.append(self.items[i])
                        return True
                return False

            if not self._cond.wait_for(scan, timeout):
                raise AssertionError(f"not seen within {timeout} s; got {self.items[-20:]}")
            return found[0]

    def status(self, state: str, timeout: float = 10.0) -> Status:
        item = self.next(lambda e: isinstance(e, Status) and e.state == state, timeout)
        assert isinstance(item, Status)
        return item

    def of_type(self, kind: type | tuple[type, ...]) -> list[object]:
        with self._cond:
            return [e for e in self.items if isinstance(e, kind)]

    def mark(self) -> None:
        with self._cond:
            self.cursor = len(self.items)
