"""Games and their event logs.

A game row says how its engine is built (kind, settings JSON, players by seat) and
where it stands (``playing`` / ``finished`` / ``abandoned``). Its events are appended
one per transaction: ``record`` returns only once the event is committed (WAL fsynced,
``synchronous=FULL``), so whatever the screen shows after it survives a power cut.
The events table refuses UPDATE and DELETE (triggers): the log is append-only.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from kiosk.adapters.store.db import Db
from kiosk.adapters.store.players import Player, PlayerError, Players
from kiosk.domain.replay import KINDS, Engine, GameEvent, replay


class GameError(ValueError):
    """A game operation that is refused (unknown game, game not in play...)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    kind: str
    variant: str
    settings: Mapping[str, Any]
    mode: str  # "rated" | "training"
    night_id: int | None
    started_at: str
    ended_at: str | None
    status: str  # "playing" | "finished" | "abandoned"
    player_ids: tuple[int, ...]  # by seat
    players: tuple[str, ...]  # names now, by seat
    teams: tuple[int | None, ...]  # by seat

    @property
    def rated(self) -> bool:
        return self.mode == "rated"


@dataclass(frozen=True, slots=True)
class Draft:
    """A formula typed and not sent: the keys of the player at ``seat``, typed when the
    game's log held ``seq`` events. Never an event: only put back in the editor."""

    seat: int
    seq: int
    tokens: tuple[str, ...]


def _variant(kind: str, settings: Mapping[str, Any]) -> str:
    if kind == "cricket":
        return str(settings.get("variant", "standard"))
    return str(settings.get("rules", "classic"))


TURN_ANSWERED = ("formula", "timeout")  # formula events that end a player's turn


def formula_mode(settings: Mapping[str, Any], players: int) -> str:
    """The engine's default: a duel for two players, training for one."""
    return str(settings.get("mode") or ("duel" if players == 2 else "training"))


class StartOptions(TypedDict, total=False):
    """The keywords of ``Games.start``, which ``Store.start_game`` passes on."""

    rated: bool
    night_id: int | None


class Games:
    def __init__(self, db: Db, players: Players) -> None:
        self._db = db
        self._players = players

    def start(
        self,
        kind: str,
        players: Sequence[Player | int | str],
        settings: Mapping[str, Any] | None = None,
        *,
        rated: bool = False,
        night_id: int | None = None,
    ) -> GameRecord:
        """A new game, committed, with no events yet. ``players`` in turn order (seats).

        The settings are checked by building the engine once, so a game that could not
        be replayed is never stored. Rated: Cricket with 2-4 players, a formula duel or
        a formula qualification; formula training is never rated. ``night_id`` is the
        league night (see ``League.tonight``); training games may have none.
        """
        settings = dict(settings or {})
        if kind not in KINDS:
            raise GameError(f"unknown game kind {kind!r} (expected one of {KINDS})")
        if kind == "formula" and rated and formula_mode(settings, len(players)) == "training":
            raise GameError("a formula training game is never rated")
        if kind == "formula" and "seed" not in settings:
            # Rounds beyond the given digits are drawn from this seed: stored, they replay.
            settings["seed"] = secrets.randbelow(2**31)
        try:
            json.dumps(settings)
        except (TypeError, ValueError) as e:
            raise GameError(f"settings must be JSON: {e}") from e
        people = [self._resolve(p) for p in players]
        names = [p.name for p in people]
        try:
            replay(kind, settings, names, [])
        except (ValueError, TypeError, KeyError, IndexError) as e:
            raise GameError(f"cannot start this game: {e}") from e
        teams = _team_of_seat(settings, len(people))
        with self._db.transaction() as c:
            cur = c.execute(
                """INSERT INTO games (kind, variant, settings, mode, night_id, started_at)
                   VALUES (?, ?, ?, ?, ?, ?)""",
                (
                    kind,
                    _variant(kind, settings),
                    json.dumps(settings, sort_keys=True),
                    "rated" if rated else "training",
                    night_id,
                    self._db.now(),
                ),
            )
            game_id = int(cur.lastrowid or 0)
            c.executemany(
                "INSERT INTO game_players (game_id, seat, player_id, team) VALUES (?, ?, ?, ?)",
                [(game_id, seat, p.id, teams[seat]) for seat, p in enumerate(people)],
            )
        return self.get(game_id)

    def _resolve(self, p: Player | int | str) -> Player:
        if isinstance(p, Player):
            return self._players.get(p.id)
        if isinstance(p, int):
            return self._players.get(p)
        found = self._players.find(p)
        if found is None:
            raise PlayerError(f"no player called {p!r}")
        return found

    def get(self, game_id: int) -> GameRecord:
        c = self._db.conn
        row = c.execute(
            """SELECT id, kind, variant, settings, mode, night_id, started_at, ended_at, status
               FROM games WHERE id = ?""",
            (game_id,),
        ).fetchone()
        if row is None:
            raise GameError(f"no game {game_id}")
        seats = c.execute(
            """SELECT gp.player_id, p.name, gp.team FROM game_players gp
               JOIN players p ON p.id = gp.player_id WHERE gp.game_id = ? ORDER BY gp.seat""",
            (game_id,),
        ).fetchall()
        return GameRecord(
            id=int(row[0]),
            kind=str(row[1]),
            variant=str(row[2]),
            settings=json.loads(row[3]),
            mode=str(row[4]),
            night_id=row[5],
            started_at=str(row[6]),
            ended_at=row[7],
            status=str(row[8]),
            player_ids=tuple(int(s[0]) for s in seats),
            players=tuple(str(s[1]) for s in seats),
            teams=tuple(s[2] for s in seats),
        )

    def record(self, game_id: int, *events: GameEvent) -> int:
        """Appends ``events`` to the game's log in one commit; returns the sequence number
        of the last. When this returns they are on the disk, all of them or (a power cut,
        a full disk) none.

        It does not check the events against the rules: feed them to the engine first
        (``LiveGame`` does both, in that order).
        """
        at = self._db.now()
        with self._db.transaction() as c:
            row = c.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise GameError(f"no game {game_id}")
            if row[0] != "playing":
                raise GameError(f"game {game_id} is {row[0]}: no more events")
            seq = c.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM game_events WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            for event in events:
                seq += 1
                payload = json.dumps(dict(event.payload), sort_keys=True, separators=(",", ":"))
                c.execute(
                    "INSERT INTO game_events (game_id, seq, kind, payload, at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, event.kind, payload, at),
                )
            if any(event.kind in TURN_ANSWERED for event in events):
                # The clock saved was for the turn just answered, in this same commit: a
                # power cut right after it must not give the next turn what it had left.
                c.execute("DELETE FROM game_clocks WHERE game_id = ?", (game_id,))
            # A formula typed was for the game as it stood before these events (a formula
            # sent, a turn run out, an undo): never to come back in another turn.
            c.execute("DELETE FROM game_drafts WHERE game_id = ?", (game_id,))
        return int(seq)

    def events(self, game_id: int) -> list[GameEvent]:
        rows = self._db.conn.execute(
            "SELECT kind, payload FROM game_events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [GameEvent(str(k), json.loads(p)) for k, p in rows]

    def event_times(self, game_id: int) -> list[str]:
        """The commit time of each event (UTC ISO), in order."""
        rows = self._db.conn.execute(
            "SELECT at FROM game_events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [str(r[0]) for r in rows]

    def latest_stamp(self) -> str | None:
        """The newest time an input was stamped with (ISO, UTC), over the last games:
        a clock behind it is wrong (a Pi that lost its time)."""
        row = self._db.conn.execute(
            """SELECT MAX(at) FROM game_events
               WHERE game_id >= (SELECT COALESCE(MAX(id), 0) - 20 FROM games)"""
        ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def replay(self, game_id: int) -> Engine:
        """The game's engine rebuilt from its events (``ReplayError`` if they do not fit)."""
        game = self.get(game_id)
        return replay(game.kind, game.settings, game.players, self.events(game_id))

    def last_finished(self, limit: int) -> list[int]:
        """The ids of the ``limit`` games finished last, the last first: by the order
        they were started, not by their clock times (a clock set right again after a
        day ahead would put yesterday's games first)."""
        rows = self._db.conn.execute(
            """SELECT id FROM games WHERE status = 'finished' ORDER BY id DESC LIMIT ?""",
            (limit,),
        ).fetchall()
        return [int(r[0]) for r in rows]

    def unfinished(self) -> list[GameRecord]:
        """Games still in play, oldest first (a side formula game can run beside Cricket)."""
        rows = self._db.conn.execute(
            "SELECT id FROM games WHERE status = 'playing' ORDER BY id"
        ).fetchall()
        return [self.get(int(r[0])) for r in rows]

    def abandon(self, game_id: int) -> None:
        """Ends a game with no result: it never counts in standings or ratings."""
        with self._db.transaction() as c:
            self._end(c, game_id, "abandoned")

    def _end(self, c: Any, game_id: int, status: str) -> None:
        row = c.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameError(f"no game {game_id}")
        if row[0] != "playing":
            raise GameError(f"game {game_id} is already {row[0]}")
        c.execute(
            "UPDATE games SET status = ?, ended_at = ? WHERE id = ?",
            (status, self._db.now(), game_id),
        )
        c.execute("DELETE FROM game_clocks WHERE game_id = ?", (game_id,))
        c.execute("DELETE FROM game_drafts WHERE game_id = ?", (game_id,))
        c.execute("DELETE FROM side_games WHERE game_id = ?", (game_id,))

    def save_clock(self, game_id: int, seat: int, remaining_s: float) -> None:
        """Remembers the time left on a formula clock (call it every second or so)."""
        with self._db.transaction() as c:
            c.execute(
                """INSERT INTO game_clocks (game_id, seat, remaining_ms, at) VALUES (?, ?, ?, ?)
                   ON CONFLICT (game_id) DO UPDATE SET
                   seat = excluded.seat, remaining_ms = excluded.remaining_ms, at = excluded.at""",
                (game_id, seat, max(0, round(remaining_s * 1000)), self._db.now()),
            )

    def clock(self, game_id: int) -> tuple[int, float] | None:
        """``(seat, seconds left)`` as last saved, or None."""
        row = self._db.conn.execute(
            "SELECT seat, remaining_ms FROM game_clocks WHERE game_id = ?", (game_id,)
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]) / 1000)

    def save_draft(self, game_id: int, seat: int, seq: int, tokens: Sequence[str]) -> None:
        """Remembers the formula the player at ``seat`` is typing (its keys), for the
        turn after event ``seq``; none typed (``tokens`` empty) forgets it. One small
        row written over, committed (see ``FormulaSession.note_draft`` for how often)."""
        with self._db.transaction() as c:
            if not tokens:
                c.execute("DELETE FROM game_drafts WHERE game_id = ?", (game_id,))
                return
            c.execute(
                """INSERT INTO game_drafts (game_id, seat, seq, tokens, at) VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT (game_id) DO UPDATE SET seat = excluded.seat,
                   seq = excluded.seq, tokens = excluded.tokens, at = excluded.at""",
                (game_id, seat, seq, json.dumps(list(tokens), separators=(",", ":")),
                 self._db.now()),
            )  # fmt: skip

    def draft(self, game_id: int) -> Draft | None:
        """The formula typed and not sent, as last saved, or None. Only for the turn it
        was typed in: a draft whose ``seq`` is not the log's length is not returned (the
        events since would have deleted it; a row that is not a list of keys neither)."""
        c = self._db.conn
        row = c.execute(
            "SELECT seat, seq, tokens FROM game_drafts WHERE game_id = ?", (game_id,)
        ).fetchone()
        if row is None:
            return None
        events = c.execute(
            "SELECT COUNT(*) FROM game_events WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
        try:
            tokens = json.loads(row[2])
        except ValueError:
            return None
        if int(row[1]) != int(events) or not isinstance(tokens, list):
            return None
        if not all(isinstance(t, str) for t in tokens):
            return None
        return Draft(int(row[0]), int(row[1]), tuple(tokens))

    def save_side_game(self, game_id: int, seat: int, state: Mapping[str, Any]) -> None:
        """Keeps the side game of the player at ``seat`` beside game ``game_id`` (a
        Cricket game in play): ``state`` (JSON: ``KeptGame.state``) written over."""
        text = json.dumps(dict(state), sort_keys=True, separators=(",", ":"))
        with self._db.transaction() as c:
            c.execute(
                """INSERT INTO side_games (game_id, seat, state, at) VALUES (?, ?, ?, ?)
                   ON CONFLICT (game_id, seat) DO UPDATE SET
                   state = excluded.state, at = excluded.at""",
                (game_id, seat, text, self._db.now()),
            )

    def side_games(self, game_id: int) -> dict[int, dict[str, Any]]:
        """The side games kept beside game ``game_id``, by seat (a row that is not a
        JSON object is left out)."""
        rows = self._db.conn.execute(
            "SELECT seat, state FROM side_games WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
        out: dict[int, dict[str, Any]] = {}
        for seat, text in rows:
            try:
                state = json.loads(text)
            except ValueError:
                continue
            if isinstance(state, dict):
                out[int(seat)] = state
        return out


def _team_of_seat(settings: Mapping[str, Any], seats: int) -> list[int | None]:
    out: list[int | None] = [None] * seats
    for team, members in enumerate(settings.get("teams") or []):
        for seat in members:
            if isinstance(seat, int) and 0 <= seat < seats:
                out[seat] = team
    return out
