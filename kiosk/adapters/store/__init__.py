"""The SQLite store: players, league nights and seasons, games as event logs, results,
ratings. One file (see ``schema.py``), stdlib ``sqlite3``, used from one thread.

How the kiosk uses it::

    store = Store.open(default_db_path())            # in bootstrap; store.close() at exit
    for game in store.games.unfinished():            # on start: offer Resume / Abandon
        live = store.resume(game.id)                 # engine rebuilt by replay
    night = store.league.tonight()
    live = store.start_game("cricket", ["Ann", "Bob"], {"variant": "standard"},
                            rated=True, night_id=night.id)
    live.dart(Dart.parse("T20"))                     # committed when it returns: now draw
    live.end_turn(); live.undo()
    if live.is_over():
        live.finish()                                # results + ratings, one transaction

The sub-objects do the work: ``store.players`` (``Players``), ``store.games``
(``Games``), ``store.league`` (``League``: seasons, nights, standings, a player's
games, the season export).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Unpack

from kiosk.adapters.store import results as _results
from kiosk.adapters.store.db import Db, utc_now
from kiosk.adapters.store.games import Draft, GameError, GameRecord, Games, StartOptions
from kiosk.adapters.store.league import (
    League,
    LeagueError,
    Night,
    PlayerGame,
    Season,
    SeasonInfo,
    Standing,
)
from kiosk.adapters.store.live import LiveGame, NotSaved
from kiosk.adapters.store.memory import MemoryGame
from kiosk.adapters.store.players import ImportReport, Player, PlayerError, Players
from kiosk.adapters.store.schema import (
    SCHEMA_VERSION,
    SchemaTooNewError,
    StoreError,
    connect,
    copy_whole,
    default_db_path,
)
from kiosk.domain.replay import SeatResult, new_game, replay

log = logging.getLogger("kiosk.store")

__all__ = [
    "SCHEMA_VERSION",
    "Draft",
    "GameError",
    "GameRecord",
    "ImportReport",
    "LeagueError",
    "LiveGame",
    "MemoryGame",
    "Night",
    "NotSaved",
    "Player",
    "PlayerError",
    "PlayerGame",
    "SchemaTooNewError",
    "Season",
    "SeasonInfo",
    "Standing",
    "Store",
    "StoreError",
    "default_db_path",
]


FileIds = tuple[tuple[int, int] | None, ...]
COMPANIONS = ("", "-wal", "-shm")  # the database file, its write-ahead log, its index


def _file_ids(path: Path) -> FileIds:
    """(device, inode) of the database file and its companions, None for one missing."""
    ids: list[tuple[int, int] | None] = []
    for suffix in COMPANIONS:
        try:
            st = os.stat(path.with_name(path.name + suffix))
        except OSError:
            ids.append(None)
        else:
            ids.append((st.st_dev, st.st_ino))
    return tuple(ids)


def _whole_copy(conn: sqlite3.Connection, target: Path) -> sqlite3.Connection:
    """A whole copy of ``conn``'s database at ``target``, opened for the store to go on
    in: a rollback journal and every commit synced, so the file alone holds every
    commit."""
    copy_whole(conn, target, journal="DELETE")
    wait_ms = int(conn.execute("PRAGMA busy_timeout").fetchone()[0])
    out = sqlite3.connect(target, isolation_level=None, timeout=wait_ms / 1000)
    try:
        out.execute("PRAGMA foreign_keys = ON")
        out.execute("PRAGMA journal_mode = DELETE")
        out.execute("PRAGMA synchronous = FULL")
    except sqlite3.Error:
        out.close()
        raise
    return out


class Store:
    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], datetime] = utc_now) -> None:
        self.db = Db(conn, clock)
        self.players = Players(self.db)
        self.games = Games(self.db, self.players)
        self.league = League(self.db, self.players)
        self.path: Path | None = None  # the file opened (``open``), and its files' ids then
        self._ids: FileIds = ()

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        clock: Callable[[], datetime] = utc_now,
        *,
        busy_timeout: float | None = None,
    ) -> Store:
        """Opens (creates, migrates) the database file at ``path`` (``busy_timeout``:
        ``schema.connect``'s)."""
        store = cls(connect(Path(path), busy_timeout=busy_timeout), clock)
        store.path = Path(path)
        store._ids = _file_ids(store.path)
        return store

    def file_moved(self) -> str:
        """ "" while the database's path still names the files this store has open; else
        what became of them. A file deleted or replaced (``mv backup kiosk.sqlite3``)
        while open is still written to, but nobody else sees it: the next start opens
        what the path names, without what was saved meanwhile. (A file written over in
        place, ``cp backup kiosk.sqlite3``, keeps its inode: not seen here.) One
        ``stat`` a file."""
        if self.path is None or not self._ids:
            return ""
        for suffix, then, now in zip(COMPANIONS, self._ids, _file_ids(self.path), strict=True):
            if then is None or now == then:
                continue
            name = self.path.with_name(self.path.name + suffix)
            if now is None:
                return f"{name} was deleted while the kiosk had it open"
            return f"{name} was replaced by another file while the kiosk had it open"
        return ""

    def detach(self, into: Path | None = None) -> None:
        """Let the file go and go on in the file ``into`` (a whole copy of what this
        store has open, made there now; every commit from then on goes into it, so a
        power cut loses nothing), or, with none or when it cannot be made there, in
        memory on a copy (``keep_copy`` then writes what is saved to a file). A file
        deleted or replaced while open shares its ``-wal`` and ``-shm`` names with the
        file now at the path, and what is written into them would be taken for that
        file's own: its write-ahead log is emptied into it first. The sub-objects and a
        game in play go on as they were (they reach the connection through
        ``self.db``). ``into`` keeps a rollback journal, not a write-ahead log: the file
        alone holds every commit, to be moved into place as it is."""
        if self.db.conn.in_transaction:
            raise StoreError("a transaction is open: not detached")
        conn: sqlite3.Connection | None = None
        if into is not None:
            try:
                conn = _whole_copy(self.db.conn, into)
            except (OSError, sqlite3.Error) as e:
                log.error("%s could not be made (the games go on in memory): %s", into, e)
        self.path, self._ids = None, ()
        if conn is None:
            conn = sqlite3.connect(":memory:", isolation_level=None)
            self.db.conn.backup(conn)
            conn.execute("PRAGMA foreign_keys = ON")
        else:
            assert into is not None
            self.path, self._ids = into, _file_ids(into)
        old, self.db.conn = self.db.conn, conn
        try:
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as e:
            log.error("the write-ahead log of the moved database not emptied: %s", e)
        old.close()

    def keep_copy(self, target: Path) -> None:
        """A whole, consistent copy of what this store has open (read through its own
        connection: a deleted file's games too) at ``target``, there only once whole."""
        copy_whole(self.db.conn, target)

    def close(self) -> None:
        if self.file_moved():
            # SQLite keeps the write-ahead log of a database moved while open, at the old
            # name: the next to open the file now at the path would take this one's pages
            # for its own. Copied into the file the store has open first, it is left empty.
            try:
                self.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as e:
                log.error("the write-ahead log of the moved database not emptied: %s", e)
        self.db.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start_game(
        self,
        kind: str,
        players: Sequence[Player | int | str],
        settings: Mapping[str, Any] | None = None,
        **options: Unpack[StartOptions],
    ) -> LiveGame:
        """A new game, committed (``Games.start``: ``rated``, ``night_id``). A rated game
        with no ``night_id`` joins tonight's night (so it shows in the standings);
        training games need none."""
        if options.get("rated") and options.get("night_id") is None:
            options["night_id"] = self.league.tonight().id
        record = self.games.start(kind, players, settings, **options)
        engine = new_game(record.kind, record.settings, record.players)
        return LiveGame(self.games, record, engine, self.finish)

    def resume(self, game_id: int) -> LiveGame:
        """An unfinished game, its engine rebuilt from the log (``ReplayError`` if not)."""
        record = self.games.get(game_id)
        if record.status != "playing":
            raise GameError(f"game {game_id} is {record.status}, not in play")
        events = self.games.events(game_id)
        engine = replay(record.kind, record.settings, record.players, events)
        return LiveGame(self.games, record, engine, self.finish, seq=len(events))

    def unfinished_game(self) -> GameRecord | None:
        """The most recently started game still in play, if any."""
        games = self.games.unfinished()
        return games[-1] if games else None

    def abandon(self, game_id: int) -> None:
        self.games.abandon(game_id)

    def finish(self, game_id: int) -> list[SeatResult]:
        """The game's results (and ratings), committed; then the write-ahead log is
        copied into the database file (a checkpoint), so a finished game does not live
        only in the ``-wal`` file, where damage to one page loses all after it unsaid."""
        results = _results.finish(self.db, self.games, game_id)
        try:
            self.db.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as e:  # (the results are committed: only the copy waits)
            log.warning("checkpoint after game %d not done: %s", game_id, e)
        return results

    def rebuild_results(self, game_id: int | None = None) -> int:
        return _results.rebuild_results(self.db, self.games, game_id)

    def integrity_check(self) -> str:
        return str(self.db.conn.execute("PRAGMA integrity_check").fetchone()[0])

    def backup(self, target: str | os.PathLike[str]) -> None:
        """A consistent copy of the live database via SQLite's online backup API."""
        dst = sqlite3.connect(Path(target))
        try:
            self.db.conn.backup(dst)
        finally:
            dst.close()
