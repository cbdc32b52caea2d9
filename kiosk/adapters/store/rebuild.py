"""A damaged database file built again from its tables' rows (``rebuilt``), for
``darts-kiosk backup``: damage to an index alone (a bad write over one of its pages)
leaves every row readable, and a file made afresh from the rows, its indexes built
from them, is whole again. Damage to a table's own pages cannot be put right so: its
rows do not read, and ``rebuilt`` says which table.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path


def problems(conn: sqlite3.Connection) -> list[str]:
    """What ``PRAGMA integrity_check`` finds in the file ([] when it is sound)."""
    try:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as e:  # a page so damaged the check itself stops
        return [str(e)]
    found = [
        line
        for row in rows
        for line in str(row[0]).splitlines()
        if line.strip() and not line.startswith("***")  # ("*** in database main ***")
    ]
    return [] if found == ["ok"] else found


def rebuilt(damaged: Path, out: Path) -> str:
    """A new file at ``out`` with ``damaged``'s schema and every row of its tables,
    its indexes and triggers made afresh. "" when it is whole (it passes its integrity
    check); else why not (a table whose rows do not read), and ``out`` is removed."""
    out.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(out, isolation_level=None)) as conn:
            conn.execute("ATTACH DATABASE ? AS old", (f"file:{damaged}?mode=ro",))
            _copy(conn)
            conn.execute("DETACH DATABASE old")
            found = problems(conn)
    except sqlite3.Error as e:
        found = [str(e)]
    if found:
        out.unlink(missing_ok=True)
        return "; ".join(found[:3])
    return ""


def _copy(conn: sqlite3.Connection) -> None:
    schema = conn.execute(
        "SELECT type, name, sql FROM old.sqlite_master"
        " WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ).fetchall()
    conn.execute("BEGIN")
    for kind, _, sql in schema:
        if kind == "table":
            conn.execute(sql)
    for kind, name, _ in schema:
        if kind == "table":
            try:
                # (``WHERE 1``: not SQLite's copy of the pages as they are, indexes and
                # all, which an INSERT of a whole table into an empty one would be)
                conn.execute(f'INSERT INTO main."{name}" SELECT * FROM old."{name}" WHERE 1')
            except sqlite3.DatabaseError as e:
                raise sqlite3.DatabaseError(f"the rows of {name} do not read: {e}") from None
    if conn.execute("SELECT 1 FROM old.sqlite_master WHERE name = 'sqlite_sequence'").fetchone():
        conn.execute("DELETE FROM main.sqlite_sequence")
        conn.execute("INSERT INTO main.sqlite_sequence SELECT * FROM old.sqlite_sequence")
    for kind, _, sql in schema:
        if kind != "table":  # indexes, triggers, views: after the rows
            conn.execute(sql)
    for pragma in ("user_version", "application_id"):
        (value,) = conn.execute(f"PRAGMA old.{pragma}").fetchone()
        conn.execute(f"PRAGMA main.{pragma} = {int(value)}")
    conn.execute("COMMIT")
