"""League: seasons group nights, nights group the games played that evening.

A night is dated by the evening it started: a game after midnight, before 06:00 local
time, belongs to the night before (bars close late). Standings count finished rated
games only: training and abandoned games never count.

Standings per player (night or season):
- played / won / lost / drawn;
- Cricket MPR over all their Cricket games (scoring marks / darts * 3, as rules.md);
- formula average points per round, and average rounds to finish (over the formula
  games they won, i.e. brought the score to 0);
- best game: the Cricket game with their highest MPR and the formula game won in the
  fewest rounds (ties: the earlier game).
Order: most wins, then most draws, then fewest games played, then name.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from typing import Any

from kiosk.adapters.store.db import Db
from kiosk.adapters.store.players import Players

NIGHT_STARTS_AT = timedelta(hours=6)  # hours after midnight that still belong to the night before


class LeagueError(ValueError):
    """A season or night that does not exist or cannot be made."""


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Night:
    id: int
    season_id: int
    date: str


@dataclass(slots=True)
class Standing:
    player_id: int
    name: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    cricket_games: int = 0
    cricket_darts: int = 0
    cricket_marks: int = 0
    cricket_mpr: float = 0.0
    formula_games: int = 0
    formula_rounds: int = 0
    formula_points: int = 0
    formula_avg_points: float = 0.0
    formula_finished: int = 0
    formula_finish_rounds: int = 0
    formula_avg_rounds: float = 0.0
    best_cricket_game: int | None = None
    best_cricket_mpr: float | None = None
    best_formula_game: int | None = None
    best_formula_rounds: int | None = None
    rating: float = 0.0

    def as_row(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("cricket_mpr", "formula_avg_points", "formula_avg_rounds", "rating"):
            out[key] = round(out[key], 2)
        if out["best_cricket_mpr"] is not None:
            out["best_cricket_mpr"] = round(out["best_cricket_mpr"], 2)
        return out


def night_date(moment: datetime) -> date:
    """The evening a moment belongs to, in local time."""
    return (moment.astimezone() - NIGHT_STARTS_AT).date()


class League:
    def __init__(self, db: Db, players: Players) -> None:
        self._db = db
        self._players = players

    def start_season(self, name: str) -> Season:
        """A new season; the nights from now on belong to it."""
        text = " ".join(str(name).split())
        if not text:
            raise LeagueError("a season needs a name")
        with self._db.transaction() as c:
            if c.execute("SELECT 1 FROM seasons WHERE name = ?", (text,)).fetchone():
                raise LeagueError(f"there is already a season called {text!r}")
            cur = c.execute(
                "INSERT INTO seasons (name, created_at) VALUES (?, ?)", (text, self._db.now())
            )
            return Season(int(cur.lastrowid or 0), text)

    def seasons(self) -> list[Season]:
        rows = self._db.conn.execute("SELECT id, name FROM seasons ORDER BY id").fetchall()
        return [Season(int(i), str(n)) for i, n in rows]

    def season(self, name: str) -> Season:
        row = self._db.conn.execute(
            "SELECT id, name FROM seasons WHERE name = ?", (" ".join(str(name).split()),)
        ).fetchone()
        if row is None:
            raise LeagueError(f"no season called {name!r}")
        return Season(int(row[0]), str(row[1]))

    def current_season(self) -> Season | None:
        s = self.seasons()
        return s[-1] if s else None

    def tonight(self) -> Night:
        """Tonight's night in the current season, made if needed (and a season named
        after the year if there is none yet)."""
        day = night_date(self._db.clock()).isoformat()
        with self._db.transaction() as c:
            season = self.current_season()
            if season is None:
                season = self.start_season(day[:4])
            row = c.execute(
                "SELECT id FROM nights WHERE season_id = ? AND date = ?", (season.id, day)
            ).fetchone()
            if row is None:
                cur = c.execute(
                    "INSERT INTO nights (season_id, date) VALUES (?, ?)", (season.id, day)
                )
                return Night(int(cur.lastrowid or 0), season.id, day)
            return Night(int(row[0]), season.id, day)

    def nights(self, season_id: int) -> list[Night]:
        rows = self._db.conn.execute(
            "SELECT id, season_id, date FROM nights WHERE season_id = ? ORDER BY date", (season_id,)
        ).fetchall()
        return [Night(int(i), int(s), str(d)) for i, s, d in rows]

    def standings(
        self, *, night_id: int | None = None, season_id: int | None = None
    ) -> list[Standing]:
        """The table for one night or one season (exactly one of the two)."""
        if (night_id is None) == (season_id is None):
            raise LeagueError("standings are for a night or for a season")
        where, arg = (
            ("g.night_id = ?", night_id) if night_id is not None else ("n.season_id = ?", season_id)
        )
        rows = self._db.conn.execute(
            f"""SELECT r.player_id, p.name, g.id, g.kind, r.outcome, r.stats
                FROM results r JOIN games g ON g.id = r.game_id
                JOIN nights n ON n.id = g.night_id JOIN players p ON p.id = r.player_id
                WHERE {where} AND g.status = 'finished' AND g.mode = 'rated'
                ORDER BY g.id""",
            (arg,),
        ).fetchall()
        table: dict[int, Standing] = {}
        for pid, name, game_id, kind, outcome, stats_json in rows:
            s = table.setdefault(int(pid), Standing(int(pid), str(name)))
            _count(s, int(game_id), str(kind), str(outcome), json.loads(stats_json))
        for s in table.values():
            s.cricket_mpr = s.cricket_marks / s.cricket_darts * 3 if s.cricket_darts else 0.0
            s.formula_avg_points = s.formula_points / s.formula_rounds if s.formula_rounds else 0.0
            if s.formula_finished:
                s.formula_avg_rounds = s.formula_finish_rounds / s.formula_finished
            s.rating = self._players.rating(s.player_id)
        return sorted(table.values(), key=lambda s: (-s.won, -s.drawn, s.played, s.name.casefold()))

    def export(self, season_name: str) -> dict[str, Any]:
        """A season for the league secretary: its table, each night's table, its games."""
        season = self.season(season_name)
        nights = self.nights(season.id)
        return {
            "season": season.name,
            "standings": [s.as_row() for s in self.standings(season_id=season.id)],
            "nights": [
                {
                    "date": n.date,
                    "standings": [s.as_row() for s in self.standings(night_id=n.id)],
                }
                for n in nights
            ],
            "games": self._games(season.id),
        }

    def _games(self, season_id: int) -> list[dict[str, Any]]:
        c = self._db.conn
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
            out.append(
                {
                    "game": gid,
                    "night": day,
                    "kind": kind,
                    "variant": variant,
                    "started_at": started,
                    "ended_at": ended,
                    "results": [
                        {"player": n, "placement": pl, "outcome": o, "points": pt}
                        for n, pl, o, pt in results
                    ],
                }
            )
        return out


def _count(s: Standing, game_id: int, kind: str, outcome: str, stats: dict[str, Any]) -> None:
    s.played += 1
    if outcome == "won":
        s.won += 1
    elif outcome == "drawn":
        s.drawn += 1
    else:
        s.lost += 1
    if kind == "cricket":
        darts, marks = int(stats.get("darts", 0)), int(stats.get("marks", 0))
        s.cricket_games += 1
        s.cricket_darts += darts
        s.cricket_marks += marks
        mpr = marks / darts * 3 if darts else 0.0
        if darts and (s.best_cricket_mpr is None or mpr > s.best_cricket_mpr):
            s.best_cricket_game, s.best_cricket_mpr = game_id, mpr
    else:
        rounds = int(stats.get("rounds", 0))
        s.formula_games += 1
        s.formula_rounds += rounds
        s.formula_points += int(stats.get("points_total", 0))
        if stats.get("finished"):
            s.formula_finished += 1
            s.formula_finish_rounds += rounds
            if s.best_formula_rounds is None or rounds < s.best_formula_rounds:
                s.best_formula_game, s.best_formula_rounds = game_id, rounds
