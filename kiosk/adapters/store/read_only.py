"""The database file opened to read only, writing nothing beside it: for a copy off a
disk that has gone read-only (an SD card's usual end) or is full, where the kiosk's
own way of opening it (``schema.connect``: SQLite makes its ``-shm`` file, and may
migrate) fails.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from kiosk.adapters.store.schema import StoreError


def connect_read_only(path: Path) -> sqlite3.Connection:
    """``path`` read as it is. With its ``-wal`` (what the kiosk saved last, not yet in
    the file itself) read through the ``-shm`` beside it when they are there (a kiosk
    that stopped on a power cut); as immutable when there is no ``-wal`` with anything
    in it (a kiosk stopped cleanly: nothing to miss). ``StoreError`` when neither."""
    uri = f"file:{quote(str(path.absolute()))}"
    try:
        return _opened(f"{uri}?mode=ro")
    except sqlite3.Error as e:
        wal = path.with_name(path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise StoreError(
                f"{path} cannot be read without writing beside it ({e}), and its -wal file"
                f" holds what was saved last: copy {path.name} and {wal.name} as they are"
                " (cp) to a writable disk, and read the copy (--db COPY)"
            ) from None
    try:
        return _opened(f"{uri}?immutable=1")
    except sqlite3.Error as e:
        raise StoreError(f"{path} is not a usable SQLite database: {e}") from None


def _opened(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # (opening is lazy)
    except BaseException:
        conn.close()
        raise
    return conn
