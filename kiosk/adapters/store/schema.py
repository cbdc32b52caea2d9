"""The database file: where it lives, how it is opened, and its schema migrations.

One SQLite file, ``kiosk.sqlite3``. Opened in WAL mode with ``synchronous=FULL`` so a
committed transaction is on the disk (the WAL is fsynced at every commit) and survives a
power cut; foreign keys on. The schema version is ``PRAGMA user_version``; ``MIGRATIONS``
is the list of forward steps, migration ``i`` takes version ``i`` to ``i + 1``. The steps
due run in one transaction together with the new ``user_version``, so a cut mid-migration
leaves the file at the old version, whole, and another program opening the file meanwhile
sees it either before or after, never half-way. A file from a newer darts-kiosk is refused
with a clear message rather than touched.

Connections use ``isolation_level=None``: the store opens its own ``BEGIN IMMEDIATE`` /
``COMMIT`` and Python's sqlite3 module never starts a transaction behind its back.
"""

from __future__ import annotations

import logging
import os
import random
import sqlite3
import time
from collections.abc import Callable, Mapping
from contextlib import closing
from pathlib import Path

from kiosk.adapters.files import sync_folder
from kiosk.domain.names import fold

log = logging.getLogger("kiosk.store")

DB_NAME = "kiosk.sqlite3"
APP_DIR = "darts-kiosk"

BUSY_TIMEOUT_S = 10.0  # a commit waits this long for another connection's lock (a backup)
# The kiosk's own connection: its writes are made on the display loop, which a wait
# freezes (and several darts queued behind a 10 s wait outlast systemd's 30 s watchdog).
# The other writers are the commands' short transactions; a dart that waits longer is
# refused ("Not saved: try again") and the banner says another program holds the file.
KIOSK_BUSY_TIMEOUT_S = 1.5


class StoreError(Exception):
    """The database cannot be used (not a database, too new, damaged)."""


class SchemaTooNewError(StoreError):
    """The file was written by a newer darts-kiosk than this one."""


def default_db_path(env: Mapping[str, str] | None = None) -> Path:
    """``$STATE_DIRECTORY`` (systemd ``StateDirectory=``) else ``$XDG_STATE_HOME/darts-kiosk``
    else ``~/.local/state/darts-kiosk``; the file is ``kiosk.sqlite3`` in it."""
    env = os.environ if env is None else env
    state_dir = env.get("STATE_DIRECTORY", "")
    if state_dir:
        # systemd may pass several directories separated by ':'; ours is the first.
        return Path(state_dir.split(":")[0]) / DB_NAME
    xdg = env.get("XDG_STATE_HOME", "")
    base = Path(xdg) if xdg else Path(env.get("HOME", str(Path.home()))) / ".local" / "state"
    return base / APP_DIR / DB_NAME


def _v1_initial(conn: sqlite3.Connection) -> None:
    statements = [
        """CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,      -- casefolded: unique whatever the case/script
            retired INTEGER NOT NULL DEFAULT 0,
            merged_into INTEGER REFERENCES players(id),
            created_at TEXT NOT NULL
        )""",
        """CREATE TABLE seasons (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL
        )""",
        """CREATE TABLE nights (
            id INTEGER PRIMARY KEY,
            season_id INTEGER NOT NULL REFERENCES seasons(id),
            date TEXT NOT NULL,                 -- ISO date of the evening it started
            UNIQUE (season_id, date)
        )""",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('cricket', 'formula')),
            variant TEXT NOT NULL,
            settings TEXT NOT NULL,             -- JSON: everything the engine is built from
            mode TEXT NOT NULL CHECK (mode IN ('rated', 'training')),
            night_id INTEGER REFERENCES nights(id),
            started_at TEXT NOT NULL,
            ended_at TEXT,
            status TEXT NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'abandoned'))
        )""",
        "CREATE INDEX games_status ON games(status)",
        "CREATE INDEX games_night ON games(night_id)",
        """CREATE TABLE game_players (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,              -- 0-based turn order
            player_id INTEGER NOT NULL REFERENCES players(id),
            team INTEGER,                       -- NULL unless a team game
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, player_id)
        )""",
        "CREATE INDEX game_players_player ON game_players(player_id)",
        """CREATE TABLE game_events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,               -- 1, 2, 3... per game
            kind TEXT NOT NULL
                CHECK (kind IN ('dart', 'turn_end', 'formula', 'timeout', 'undo')),
            payload TEXT NOT NULL,              -- JSON
            at TEXT NOT NULL,                   -- UTC ISO timestamp of the commit
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        # The log is append-only: the database itself refuses edits and deletions.
        """CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
           BEGIN SELECT RAISE(ABORT, 'game events are append-only'); END""",
        """CREATE TRIGGER game_events_no_delete BEFORE DELETE ON game_events
           BEGIN SELECT RAISE(ABORT, 'game events are append-only'); END""",
        """CREATE TABLE results (
            game_id INTEGER NOT NULL REFERENCES games(id),
            player_id INTEGER NOT NULL REFERENCES players(id),
            seat INTEGER NOT NULL,
            placement INTEGER NOT NULL,         -- 1 = first; equal placements = a draw
            outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'drawn')),
            points INTEGER NOT NULL,            -- Cricket points / formula final score
            stats TEXT NOT NULL,                -- JSON
            PRIMARY KEY (game_id, player_id)
        )""",
        "CREATE INDEX results_player ON results(player_id)",
        """CREATE TABLE ratings (
            id INTEGER PRIMARY KEY,             -- chronological order of the changes
            player_id INTEGER NOT NULL REFERENCES players(id),
            game_id INTEGER NOT NULL REFERENCES games(id),
            before REAL NOT NULL,
            after REAL NOT NULL,
            UNIQUE (player_id, game_id)
        )""",
    ]
    for sql in statements:
        conn.execute(sql)


def _v2_clocks(conn: sqlite3.Connection) -> None:
    # The time left on a formula clock. Not game state (the engine never reads a clock):
    # it lets a resumed round restart with the time that was left, as seen last.
    conn.execute(
        """CREATE TABLE game_clocks (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            seat INTEGER NOT NULL,
            remaining_ms INTEGER NOT NULL,
            at TEXT NOT NULL
        )"""
    )


def _v3_rating_lookup(conn: sqlite3.Connection) -> None:
    # A player's rating is the latest row of theirs in ``ratings``. The UNIQUE
    # (player_id, game_id) index found their rows but not the latest without a sort of
    # them all: about 1 ms a player on a 50,000-game file, so a night's standings of 200
    # players took 130 ms; with this index, 2.5 ms.
    conn.execute("CREATE INDEX ratings_latest ON ratings(player_id, id)")


def _v4_apostrophes(conn: sqlite3.Connection) -> None:
    # Names became one whatever their apostrophe (the kiosk types a straight one, a
    # roster from Word a curly one: ``kiosk.domain.names``).
    _fold_names_again(conn)


def _v6_yo(conn: sqlite3.Connection) -> None:
    # Names became one whether ё has its dots ("Пётр", "Петр": Russian writes either).
    _fold_names_again(conn)


def _fold_names_again(conn: sqlite3.Connection) -> None:
    # Every key is folded again (``kiosk.domain.names.fold`` as it is now). Two
    # players whose names now fold alike stay two players, nothing joined behind the
    # league's back: the first made keeps the key (see below), the others get one aside (see
    # ``players.py``), found by their names as written, for ``players merge``. Those
    # aside first: the keys left to change then clash with nobody's.
    # A player in the lists holds the key before a name merged into another (that name
    # still finds whom it was merged into, written as it was; the live player must not
    # be left with a key aside, found by no other spelling and unable to get it back).
    rows = conn.execute(
        "SELECT id, name, name_key FROM players ORDER BY merged_into IS NOT NULL, id"
    ).fetchall()
    holder: dict[str, int] = {}
    for pid, name, _old in rows:
        holder.setdefault(fold(str(name)), int(pid))
    for pid, name, _old in rows:
        key = fold(str(name))
        if holder[key] != pid:
            conn.execute("UPDATE players SET name_key = ? WHERE id = ?", (f"{key}\x1f{pid}", pid))
    for pid, name, old in rows:
        key = fold(str(name))
        if holder[key] == pid and key != old:
            conn.execute("UPDATE players SET name_key = ? WHERE id = ?", (key, pid))


def _v5_concede_events(conn: sqlite3.Connection) -> None:
    # A player alone who ends a formula game concedes it (``concede`` events): the
    # events table's CHECK names the kinds, and SQLite changes a CHECK only by building
    # the table again. Its rows are copied as they are; the append-only triggers go
    # with the old table and are made again on the new one.
    for statement in (
        "DROP TRIGGER game_events_no_update",
        "DROP TRIGGER game_events_no_delete",
        "ALTER TABLE game_events RENAME TO game_events_v4",
        """CREATE TABLE game_events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,               -- 1, 2, 3... per game
            kind TEXT NOT NULL CHECK (kind IN
                ('dart', 'turn_end', 'formula', 'timeout', 'concede', 'undo')),
            payload TEXT NOT NULL,              -- JSON
            at TEXT NOT NULL,                   -- UTC ISO timestamp of the commit
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        "INSERT INTO game_events (game_id, seq, kind, payload, at)"
        " SELECT game_id, seq, kind, payload, at FROM game_events_v4",
        "DROP TABLE game_events_v4",
        """CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
           BEGIN SELECT RAISE(ABORT, 'game events are append-only'); END""",
        """CREATE TRIGGER game_events_no_delete BEFORE DELETE ON game_events
           BEGIN SELECT RAISE(ABORT, 'game events are append-only'); END""",
    ):
        conn.execute(statement)


def _v7_drafts(conn: sqlite3.Connection) -> None:
    # The formula a player is typing, not yet sent (the editor's keys, JSON). Not game
    # state, never an event and never replayed: it lets a resumed turn find its formula
    # still typed. ``seq`` is how many events the game had when it was saved: a draft is
    # for that turn only (each event recorded deletes it in its own commit).
    conn.execute(
        """CREATE TABLE game_drafts (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            seat INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            tokens TEXT NOT NULL,               -- JSON: the keys typed, as the editor holds them
            at TEXT NOT NULL
        )"""
    )


def _v8_side_games(conn: sqlite3.Connection) -> None:
    # Formula darts played beside a Cricket game ("while you wait"), one a Cricket seat:
    # the side game's settings, inputs, clock and formula typed, as one JSON row written
    # over at each change. Not events of the Cricket game (its log and replay stay its
    # own) and never a game of its own (no results, no offer at start): kept so that a
    # resumed Cricket game gives each waiting player their side game back. Deleted when
    # the Cricket game ends.
    conn.execute(
        """CREATE TABLE side_games (
            game_id INTEGER NOT NULL REFERENCES games(id),  -- the Cricket game beside
            seat INTEGER NOT NULL,              -- whose: their seat in the Cricket game
            state TEXT NOT NULL,                -- JSON: settings, events, clock, draft
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )"""
    )


Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[Migration] = [
    _v1_initial,
    _v2_clocks,
    _v3_rating_lookup,
    _v4_apostrophes,
    _v5_concede_events,
    _v6_yo,
    _v7_drafts,
    _v8_side_games,
]
SCHEMA_VERSION = len(MIGRATIONS)


def _tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name"
    ).fetchall()
    return [str(r[0]) for r in rows]


def user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(
    conn: sqlite3.Connection,
    target: int = SCHEMA_VERSION,
    backup: Callable[[int], None] | None = None,
) -> int:
    """Bring the schema forward to ``target``; returns the version found before. With
    ``backup``, a file that has a schema already is first kept by ``backup(version)``,
    under the same lock as the migration."""
    found = user_version(conn)
    if found > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"the database is schema version {found}, newer than this darts-kiosk "
            f"understands (up to {SCHEMA_VERSION}); install a newer darts-kiosk "
            "or open a backup; the file was not changed"
        )
    if found >= target:
        return found
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Read again under the lock: another program opening the file at the same time
        # (the kiosk starting as ``players add`` runs) may have migrated it meanwhile.
        now = user_version(conn)
        if backup is not None and 0 < now < target:
            backup(now)
        for version in range(now, target):
            MIGRATIONS[version](conn)
        if now < target:
            conn.execute(f"PRAGMA user_version = {target}")
        conn.execute("COMMIT")
    except BaseException:
        # SQLite has already rolled back by itself after some errors (a full disk, a
        # write that failed): a second ROLLBACK would fail, and its "no transaction is
        # active" would be all the owner is told, instead of the disk's trouble.
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return found


def copy_whole(
    conn: sqlite3.Connection, target: Path, *, journal: str = "", must_sync: bool = False
) -> None:
    """A whole, consistent copy of ``conn``'s database at ``target``, written beside it
    and renamed, so it is there only once whole (a power cut during the copy leaves a
    part, never taken for the copy; the part and its journal are cleared at the next).
    The folder is synced after the rename, so a power cut after does not lose the name;
    a folder that cannot be synced raises only if ``must_sync`` (else it is logged).
    ``journal``: the copy's journal mode, if it is to be other than the original's."""
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    for leftover in (part, part.with_name(part.name + "-journal")):
        leftover.unlink(missing_ok=True)
    dst = sqlite3.connect(part, isolation_level=None)
    try:
        conn.backup(dst)
        if journal:
            dst.execute(f"PRAGMA journal_mode = {journal}")
    finally:
        dst.close()
    os.replace(part, target)
    try:
        sync_folder(target.parent)
    except OSError as e:
        if must_sync:
            raise
        log.warning("the folder of %s could not be synced (a power cut now may lose its "
                    "name): %s", target, e)  # fmt: skip


def _backup_whole(path: Path, version: int) -> None:
    """A copy of the database at ``path`` (version ``version``) beside it, unless there
    is one: ``kiosk.sqlite3.schema-v1.bak``, there only once whole (a part taken for the
    backup was then migrated without one). Called under the migration's write lock (two
    programs migrating the file at once never write one part together), it reads what
    was last committed through a connection of its own: the write-ahead log lets it,
    where the connection holding the lock cannot be a backup's source."""
    backup_path = path.with_name(f"{path.name}.schema-v{version}.bak")
    if backup_path.exists():
        return
    with closing(sqlite3.connect(path)) as src:  # (on the disk before the migration's commit is)
        copy_whole(src, backup_path, must_sync=True)


def _switch_to_wal(conn: sqlite3.Connection, timeout: float) -> str:
    """``PRAGMA journal_mode = WAL``; the journal mode it leaves. Programs opening a new
    file at once all switch it: SQLite refuses all but one at once as busy without
    waiting (its busy handler is not called where waiting could deadlock), so the others
    try again for up to ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as e:
            busy = getattr(e, "sqlite_errorname", "").startswith("SQLITE_BUSY")
            if not busy or time.monotonic() >= deadline:
                raise
            time.sleep(random.uniform(0.005, 0.05))


def connect(
    path: str | os.PathLike[str],
    *,
    migrate_to: int = SCHEMA_VERSION,
    busy_timeout: float | None = None,
) -> sqlite3.Connection:
    """Open (creating if needed) the database at ``path``, set the pragmas, migrate.
    A statement waits up to ``busy_timeout`` s (default ``BUSY_TIMEOUT_S``) for another
    connection's lock.

    Before an existing file with data is migrated, a copy is kept next to it
    (``kiosk.sqlite3.schema-v1.bak``) via the online backup API.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    timeout = BUSY_TIMEOUT_S if busy_timeout is None else busy_timeout
    conn = sqlite3.connect(path, isolation_level=None, timeout=timeout)
    try:
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            # One read transaction: a new file that another program makes ours between
            # the two reads is not taken for its tables without their version.
            conn.execute("BEGIN")
            try:
                found = user_version(conn)
                others = [] if found else _tables(conn)
            finally:
                # (a read that failed may have ended the transaction: on a full disk the
                # ``-shm`` cannot be made, and "cannot commit" hid that as a bad file)
                if conn.in_transaction:
                    conn.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            if getattr(e, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
                raise StoreError(
                    f"{path} cannot be opened: {e} (the kiosk needs to write to the file and"
                    " its folder, even to read it: check their owner and permissions)"
                ) from e
            raise StoreError(f"{path} is not a usable SQLite database: {e}") from e
        if others:  # someone else's database: left as it was, not turned into ours
            listed = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
            raise StoreError(
                f"{path} is another program's SQLite database (tables {listed}), not a"
                " darts-kiosk one: the file was not changed"
            )
        if found > SCHEMA_VERSION:
            migrate(conn)  # raises SchemaTooNewError before anything is written
        mode = _switch_to_wal(conn, timeout)
        if str(mode).lower() != "wal":
            raise StoreError(f"{path}: could not switch to WAL journal mode (got {mode!r})")
        conn.execute("PRAGMA synchronous = FULL")
        migrate(conn, migrate_to, lambda version: _backup_whole(path, version))
        return conn
    except BaseException:
        conn.close()
        raise
