"""The shared connection handle: transactions and the clock."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


class Db:
    """One sqlite3 connection (autocommit mode) and the clock the store stamps rows with.

    Owned by one thread (the pygame loop); sqlite3 refuses use from another thread.
    """

    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], datetime] = utc_now) -> None:
        self.conn = conn
        self.clock = clock
        self._depth = 0

    def now(self) -> str:
        return iso(self.clock())

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (durable on return), ``ROLLBACK`` on error.

        Nested use joins the outer transaction.
        """
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self.conn
        except BaseException:
            self._depth = 0
            # SQLite has already rolled back by itself after some errors (a full
            # disk): a second ROLLBACK would fail and hide the real error.
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self._depth = 0
        try:
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
