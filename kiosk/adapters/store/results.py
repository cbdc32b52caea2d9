"""Finishing a game: its results and the rating changes, written in one transaction.

Results and ratings are a *record* of finished games, not a second truth: results are
recomputed from a game's events by ``rebuild_results`` (replay -> ``seat_results``) and
ratings from the results of the rated finished games, in the order they were rated, by
``rebuild_ratings``. Merging players uses the latter.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from kiosk.adapters.store.db import Db
from kiosk.adapters.store.games import GameError, GameRecord, Games
from kiosk.domain import rating
from kiosk.domain.replay import SeatResult, replay, seat_results


def finish(db: Db, games: Games, game_id: int) -> list[SeatResult]:
    """Records the result of a game that is over: results, ratings if rated, status.

    Refused (``GameError``, nothing written) if the game is not in play or its engine
    has no outcome yet.
    """
    with db.transaction() as c:
        game = games.get(game_id)
        if game.status != "playing":
            raise GameError(f"game {game_id} is already {game.status}")
        engine = replay(game.kind, game.settings, game.players, games.events(game_id))
        if engine.outcome() is None:
            raise GameError(f"game {game_id} is not over: finish it or abandon it")
        results = seat_results(engine, game.players)
        _write_results(c, game, results)
        games._end(c, game_id, "finished")
        if game.rated:
            _rate(c, game_id)
    return results


def _write_results(c: sqlite3.Connection, game: GameRecord, results: Sequence[SeatResult]) -> None:
    c.execute("DELETE FROM results WHERE game_id = ?", (game.id,))
    c.executemany(
        """INSERT INTO results (game_id, player_id, seat, placement, outcome, points, stats)
           VALUES (?, ?, ?, ?, ?, ?, ?)""",
        [
            (
                game.id,
                game.player_ids[r.seat],
                r.seat,
                r.placement,
                r.outcome,
                r.points,
                json.dumps(dict(r.stats), sort_keys=True),
            )
            for r in results
        ],
    )


def _current(c: sqlite3.Connection, player_id: int) -> float:
    row = c.execute(
        "SELECT after FROM ratings WHERE player_id = ? ORDER BY id DESC LIMIT 1", (player_id,)
    ).fetchone()
    return rating.START if row is None else float(row[0])


def _rate(c: sqlite3.Connection, game_id: int) -> None:
    rows = c.execute(
        """SELECT r.player_id, r.placement, r.outcome, gp.team FROM results r
           JOIN game_players gp ON gp.game_id = r.game_id AND gp.player_id = r.player_id
           WHERE r.game_id = ? ORDER BY r.seat""",
        (game_id,),
    ).fetchall()
    before = {int(r[0]): _current(c, int(r[0])) for r in rows}
    if len(rows) == 1:
        pid, _placement, outcome, _team = rows[0]
        after = {int(pid): rating.against_par(before[int(pid)], won=outcome == "won")}
    else:
        seats = [rating.Seat(int(p), int(pl), team) for p, pl, _o, team in rows]
        after = rating.by_placings(before, seats)
    c.executemany(
        "INSERT INTO ratings (player_id, game_id, before, after) VALUES (?, ?, ?, ?)",
        [(pid, game_id, before[pid], after[pid]) for pid in before],
    )


def rebuild_ratings(db: Db) -> None:
    """Recomputes every rating change from the results of rated finished games, in the
    order they were rated as they ended (the rows' own order, not their end times: a Pi
    without network comes back from a power cut with its clock behind the games it
    stamped before it, and Elo depends on the order). A game not rated yet follows, by
    its end time."""
    with db.transaction() as c:
        ids = c.execute(
            """SELECT g.id FROM games g
               LEFT JOIN (SELECT game_id, MIN(id) AS first FROM ratings GROUP BY game_id) r
               ON r.game_id = g.id
               WHERE g.status = 'finished' AND g.mode = 'rated'
               ORDER BY r.first IS NULL, r.first, g.ended_at, g.id"""
        ).fetchall()
        c.execute("DELETE FROM ratings")
        for (game_id,) in ids:
            _rate(c, int(game_id))


def rebuild_results(db: Db, games: Games, game_id: int | None = None) -> int:
    """Recomputes the results of one finished game (or all) from their events, then the
    ratings. Returns the number of games redone."""
    with db.transaction() as c:
        if game_id is None:
            ids = [int(r[0]) for r in c.execute("SELECT id FROM games WHERE status = 'finished'")]
        else:
            ids = [game_id]
        for gid in ids:
            game = games.get(gid)
            if game.status != "finished":
                raise GameError(f"game {gid} is {game.status}, not finished")
            engine = replay(game.kind, game.settings, game.players, games.events(gid))
            if engine.outcome() is None:
                raise GameError(f"game {gid} is recorded finished but its events do not end it")
            _write_results(c, game, seat_results(engine, game.players))
        rebuild_ratings(db)
    return len(ids)
