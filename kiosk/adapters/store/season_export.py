"""A season as the league secretary needs it (``darts-kiosk export``).

- ``standings``: the season's table, one row per player, in ``STANDING_COLUMNS``:
  position (level rows share one), played / won / lost / drawn, Cricket MPR, formula
  average points per round and average rounds to finish, the best game of each kind
  (its number and night), the rating after the player's last game of the season (so
  a past season's figures stay as they were) and its change over the season's games.
  An average over no games is None, not 0.
- ``nights``: each league night's date and its own table (same columns, the rating
  after that night and its change over that night's games); a night with no result
  (its only game abandoned) is none.
- ``games``: every finished rated game in ``GAME_COLUMNS`` order of keys, with its night,
  players by seat, the score of each (Cricket points / formula final score), the winner
  (names; two for a team) and ``result``: "won" (someone won), "drawn", or "lost" (all
  lost: a distance-rules duel that reached the round limit); and ``results``, one entry
  per player.

Training and abandoned games are never in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kiosk.adapters.store.db import Db
from kiosk.domain.figures import rounded

if TYPE_CHECKING:
    from kiosk.adapters.store.league import League, Season, Standing

STANDING_COLUMNS = (
    "position",
    "name",
    "played",
    "won",
    "lost",
    "drawn",
    "cricket_mpr",
    "formula_avg_points",
    "formula_avg_rounds",
    "best_cricket_mpr",
    "best_cricket_game",
    "best_cricket_night",
    "best_formula_rounds",
    "best_formula_game",
    "best_formula_night",
    "rating",
    "rating_change",
    "player_id",
    "cricket_games",
    "cricket_darts",
    "cricket_marks",
    "formula_games",
    "formula_rounds",
    "formula_points",
    "formula_finished",
    "formula_finish_rounds",
)
GAME_COLUMNS = (
    "game",
    "night",
    "kind",
    "variant",
    "started_at",
    "ended_at",
    "players",
    "scores",
    "winner",
    "result",
)


def export_season(db: Db, league: League, season: Season) -> dict[str, Any]:
    from kiosk.adapters.store.league import positions

    games = _games(db, season.id)
    night_of = {g["game"]: g["night"] for g in games}
    season_change, night_change = _rating_changes(db, season.id)

    def table(rows: Sequence[Standing], change: dict[int, float]) -> list[dict[str, Any]]:
        out = []
        for position, s in zip(positions(rows), rows, strict=True):
            row = s.as_row()
            row["position"] = position
            row["best_cricket_night"] = night_of.get(s.best_cricket_game)
            row["best_formula_night"] = night_of.get(s.best_formula_game)
            row["rating_change"] = rounded(change.get(s.player_id, 0.0), 2)
            out.append({k: row[k] for k in STANDING_COLUMNS})
        return out

    return {
        "season": season.name,
        "standings": table(league.standings(season_id=season.id), season_change),
        "nights": [
            {
                "date": n.date,
                "standings": table(league.standings(night_id=n.id), night_change.get(n.id, {})),
            }
            for n in league.nights(season.id)
        ],
        "games": games,
    }


def _rating_changes(db: Db, season_id: int) -> tuple[dict[int, float], dict[int, dict[int, float]]]:
    """Each player's rating change over the season's rated games, and over each of its
    nights' (night id -> player id -> change). One read of the ratings table: it has no
    index by game, so each read goes through all of it (30 ms after 15,000 games), and
    one a night made a season's export take a second."""
    rows = db.conn.execute(
        """SELECT g.night_id, r.player_id, r.after - r.before FROM ratings r
           JOIN games g ON g.id = r.game_id JOIN nights n ON n.id = g.night_id
           WHERE n.season_id = ? AND g.status = 'finished' AND g.mode = 'rated'
           ORDER BY r.id""",
        (season_id,),
    ).fetchall()
    season: dict[int, float] = {}
    nights: dict[int, dict[int, float]] = {}
    for night_id, player_id, change in rows:
        pid, d = int(player_id), float(change)
        season[pid] = season.get(pid, 0.0) + d
        night = nights.setdefault(int(night_id), {})
        night[pid] = night.get(pid, 0.0) + d
    return season, nights


def _games(db: Db, season_id: int) -> list[dict[str, Any]]:
    c = db.conn
    games = c.execute(
        """SELECT g.id, n.date, g.kind, g.variant, g.started_at, g.ended_at FROM games g
           JOIN nights n ON n.id = g.night_id
           WHERE n.season_id = ? AND g.status = 'finished' AND g.mode = 'rated'
           ORDER BY g.id""",
        (season_id,),
    ).fetchall()
    out = []
    for gid, day, kind, variant, started, ended in games:
        results = c.execute(
            """SELECT p.name, r.placement, r.outcome, r.points FROM results r
               JOIN players p ON p.id = r.player_id WHERE r.game_id = ? ORDER BY r.seat""",
            (gid,),
        ).fetchall()
        outcomes = {str(o) for _n, _pl, o, _pt in results}
        result = "won" if "won" in outcomes else "drawn" if "drawn" in outcomes else "lost"
        out.append(
            {
                "game": gid,
                "night": day,
                "kind": kind,
                "variant": variant,
                "started_at": started,
                "ended_at": ended,
                "players": [n for n, _pl, _o, _pt in results],
                "scores": [pt for _n, _pl, _o, pt in results],
                "winner": [n for n, _pl, o, _pt in results if o == "won"],
                "result": result,
                "results": [
                    {"player": n, "placement": pl, "outcome": o, "points": pt}
                    for n, pl, o, pt in results
                ],
            }
        )
    return out
