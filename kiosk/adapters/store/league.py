"""League: seasons group nights, nights group the games played that evening.

A night is dated by the evening it started: a game after midnight, before 06:00 local
time, belongs to the night before (bars close late). Standings count finished rated
games only: training and abandoned games never count.

A night is made when its first rated game starts (the game needs it from its first
dart), but it is a league night only once a rated game of it has a result: until then
it is not counted, paged through or exported (``nights``, ``overview``; the export).
A night whose only game was abandoned keeps it (nothing is lost; ``league night DATE``
lists it, ``night_games``), and a result later that evening makes it a league night.

Standings per player (night or season):
- played / won / lost / drawn;
- Cricket MPR over all their Cricket games (scoring marks / darts * 3, as rules.md);
- formula average points per round, and average rounds to finish (over the formula
  games they finished, i.e. brought the score to 0: a win, or a duel's draw with both
  at 0);
- best game: the Cricket game with their highest MPR and the formula game finished in
  the fewest rounds (ties: the earlier game).

Order (``standing_key``): most wins, then most draws, then fewest games played. Players
level on all three share a position (``positions``: 1, 2, 2, 4); among them the table
lists them by name (in alphabet order, Ukrainian and Russian names too, case ignored:
``kiosk.domain.names.sort_key``), then by player id, so the same games always give the
same table, whatever order they were played or the players were added in. The name is
only a listing order, not a tie-break on merit.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from typing import Any

from kiosk.adapters.store.db import Db, iso
from kiosk.adapters.store.players import Players
from kiosk.domain.figures import rounded
from kiosk.domain.names import sort_key

NIGHT_STARTS_AT = timedelta(hours=6)  # hours after midnight that still belong to the night before
# A night (``n``) with a result: a finished rated game (see the module docstring).
PLAYED = """EXISTS (SELECT 1 FROM games g WHERE g.night_id = n.id
            AND g.status = 'finished' AND g.mode = 'rated')"""


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
    rating: float = 0.0  # after the player's last game in the table (``_rating_after``)

    def as_row(self) -> dict[str, Any]:
        """The fields, rounded to 2 places (an exact half up, as a spreadsheet: see
        ``kiosk.domain.figures``); an average over no games is None (an empty cell),
        not 0, which would read as a real result."""
        out = asdict(self)
        for key in ("cricket_mpr", "formula_avg_points", "formula_avg_rounds", "rating"):
            out[key] = rounded(out[key], 2)
        if out["best_cricket_mpr"] is not None:
            out["best_cricket_mpr"] = rounded(out["best_cricket_mpr"], 2)
        if not self.cricket_darts:
            out["cricket_mpr"] = None
        if not self.formula_rounds:
            out["formula_avg_points"] = None
        if not self.formula_finished:
            out["formula_avg_rounds"] = None
        return out


@dataclass(frozen=True, slots=True)
class SeasonInfo:
    """A season with how much was played in it (rated finished games)."""

    season: Season
    nights: int
    games: int
    first_night: str | None
    last_night: str | None


MAX_MOVE = 10_000  # games moved at once (a season is a few hundred)


@dataclass(frozen=True, slots=True)
class Moved:
    """What ``League.move_games`` did."""

    night: Night  # where the games are now
    moved: list[int]  # the games that changed night
    already: int  # games that were in that night already
    skipped: list[int]  # numbers of a range left out: no league game, or no game
    emptied: list[str]  # dates of the nights left with no game, removed


@dataclass(frozen=True, slots=True)
class NightGame:
    """One game of a league night, as ``league night`` lists it."""

    game_id: int
    kind: str  # "cricket" | "formula"
    status: str  # "playing" | "finished" | "abandoned"
    started_at: str  # ISO, UTC
    players: tuple[str, ...]  # by seat
    winners: tuple[str, ...]  # of a finished game (none: a draw, or all lost)
    drawn: bool = False  # a finished game that every player drew
    sides: tuple[str, ...] = ()  # "Anna & Boris" a team, in the order they threw

    def versus(self) -> str:
        """``Anna v Boris``; a team game ``Anna & Boris v Dmytro & Olena``."""
        return " v ".join(self.sides or self.players)


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One finished game of one player, as their page needs it (newest first)."""

    game_id: int
    kind: str  # "cricket" | "formula"
    rated: bool
    outcome: str  # "won" | "lost" | "drawn"
    ended_at: str
    night: str | None  # the league night's date, None for a game outside any night
    points: int  # Cricket points / formula final score
    darts: int = 0  # Cricket
    marks: int = 0  # Cricket: scoring marks
    rounds: int = 0  # rounds played (formula: rounds submitted; Cricket: rounds thrown)
    points_total: int = 0  # formula: points over all rounds
    finished: bool = False  # formula: brought the score to 0

    @property
    def mpr(self) -> float | None:
        """Marks per round of a Cricket game with darts thrown; None otherwise."""
        if self.kind != "cricket" or self.darts <= 0:
            return None
        return self.marks * 3 / self.darts


def standing_key(s: Standing) -> tuple[int, int, int, tuple[str, str], int]:
    """The table's order: see the module docstring."""
    return (-s.won, -s.drawn, s.played, sort_key(s.name), s.player_id)


def positions(table: Sequence[Standing]) -> list[int]:
    """Each row's position in a sorted table; rows level on wins, draws and games
    played share one (1, 2, 2, 4)."""
    out: list[int] = []
    for i, s in enumerate(table):
        prev = table[i - 1] if i else None
        level = prev is not None and (prev.won, prev.drawn, prev.played) == (
            s.won,
            s.drawn,
            s.played,
        )
        out.append(out[-1] if level else i + 1)
    return out


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _stats(text: Any) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


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

    def tonight_as_is(self) -> tuple[Night, str]:
        """Tonight's night and its season's name, made of nothing: a night no rated game
        has joined yet has id 0 (``tonight`` makes it with the first), and with no
        season yet the name is the year's, which that game's season will have. Looking
        at the league leaves no empty nights behind."""
        day = night_date(self._db.clock()).isoformat()
        season = self.current_season()
        if season is None:
            return Night(0, 0, day), day[:4]
        row = self._db.conn.execute(
            "SELECT id FROM nights WHERE season_id = ? AND date = ?", (season.id, day)
        ).fetchone()
        return Night(int(row[0]) if row else 0, season.id, day), season.name

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

    def tonights_players(self) -> set[int]:
        """The players (ids) of every game begun tonight, rated or not: those a bar
        picks again and again in an evening, put first where a player is picked."""
        day = night_date(self._db.clock())
        began = datetime.combine(day, datetime.min.time()).astimezone() + NIGHT_STARTS_AT
        rows = self._db.conn.execute(
            """SELECT DISTINCT gp.player_id FROM game_players gp
               JOIN games g ON g.id = gp.game_id WHERE g.started_at >= ?""",
            (iso(began),),
        ).fetchall()
        return {int(r[0]) for r in rows}

    def nights(self, season_id: int) -> list[Night]:
        """The season's league nights, oldest first: those with a result (``PLAYED``)."""
        rows = self._db.conn.execute(
            f"""SELECT n.id, n.season_id, n.date FROM nights n
                WHERE n.season_id = ? AND {PLAYED} ORDER BY n.date""",
            (season_id,),
        ).fetchall()
        return [Night(int(i), int(s), str(d)) for i, s, d in rows]

    def nights_on(self, day: str) -> list[Night]:
        """The nights dated ``day`` (ISO date), oldest season first: usually one, two
        when a season was started during that evening."""
        rows = self._db.conn.execute(
            "SELECT id, season_id, date FROM nights WHERE date = ? ORDER BY season_id, id",
            (day,),
        ).fetchall()
        return [Night(int(i), int(s), str(d)) for i, s, d in rows]

    def night_games(self, night_id: int) -> list[NightGame]:
        """Every game of a night, in the order they started."""
        rows = self._db.conn.execute(
            "SELECT id, kind, status, started_at FROM games WHERE night_id = ? ORDER BY id",
            (night_id,),
        ).fetchall()
        out = []
        for gid, kind, status, started in rows:
            seats = self._db.conn.execute(
                """SELECT p.name, r.outcome, gp.team FROM game_players gp JOIN players p
                   ON p.id = gp.player_id LEFT JOIN results r
                   ON r.game_id = gp.game_id AND r.player_id = gp.player_id
                   WHERE gp.game_id = ? ORDER BY gp.seat""",
                (gid,),
            ).fetchall()
            names = tuple(str(n) for n, _, _ in seats)
            won = tuple(str(n) for n, outcome, _ in seats if outcome == "won")
            drawn = bool(seats) and all(outcome == "drawn" for _, outcome, _ in seats)
            teams: dict[object, list[str]] = {}
            for n, _, team in seats:
                teams.setdefault(("seat", n) if team is None else team, []).append(str(n))
            sides = tuple(" & ".join(members) for members in teams.values())
            out.append(
                NightGame(int(gid), str(kind), str(status), str(started), names, won, drawn, sides)
            )
        return out

    def move_games(self, game_ids: Sequence[int], day: str, *, skip: Collection[int] = ()) -> Moved:
        """Moves league games to the night dated ``day`` (ISO) of their own season, made
        if need be: the mend for games a kiosk put in the wrong night (its clock was not
        set). Nights left with no game are removed. Ratings do not change (they follow
        the order the games were rated in). ``skip``: numbers (from a range) that are
        left out when they are no league game or no game at all; any other such number
        is refused, and nothing moves."""
        try:
            day = date.fromisoformat(day).isoformat()
        except ValueError:
            raise LeagueError(f"{day!r} is not a date like 2025-03-04") from None
        ids = sorted(set(int(i) for i in game_ids))
        if not ids:
            raise LeagueError("no games given")
        if len(ids) > MAX_MOVE:
            raise LeagueError(f"{len(ids)} games: at most {MAX_MOVE} at a time")
        marks = ",".join("?" * len(ids))
        with self._db.transaction() as c:
            rows = c.execute(
                f"""SELECT g.id, n.id, n.season_id FROM games g
                    LEFT JOIN nights n ON n.id = g.night_id WHERE g.id IN ({marks})""",
                ids,
            ).fetchall()
            found = {int(g): (n, s) for g, n, s in rows if n is not None}
            for i in ids:
                if i not in found and i not in skip:
                    raise LeagueError(
                        f"game {i} is not a league game (it has no night)"
                        if any(int(g) == i for g, _n, _s in rows)
                        else f"no game {i}"
                    )
            league = [i for i in ids if i in found]
            skipped = [i for i in ids if i not in found]
            if not league:
                raise LeagueError("none of these games is a league game")
            seasons = {found[i][1] for i in league}
            if len(seasons) > 1:
                raise LeagueError("the games are in different seasons: move each season's apart")
            (season_id,) = seasons
            row = c.execute(
                "SELECT id FROM nights WHERE season_id = ? AND date = ?", (season_id, day)
            ).fetchone()
            if row is None:
                row = (c.execute(
                    "INSERT INTO nights (season_id, date) VALUES (?, ?)", (season_id, day)
                ).lastrowid,)  # fmt: skip
            night = Night(int(row[0]), int(season_id), day)
            moving = [i for i in league if found[i][0] != night.id]
            for k in range(0, len(moving), 500):
                part = moving[k : k + 500]
                c.execute(
                    f"UPDATE games SET night_id = ? WHERE id IN ({','.join('?' * len(part))})",
                    [night.id, *part],
                )
            emptied = []
            for nid in sorted({int(found[i][0]) for i in moving}):
                if c.execute("SELECT 1 FROM games WHERE night_id = ? LIMIT 1", (nid,)).fetchone():
                    continue
                (was,) = c.execute("SELECT date FROM nights WHERE id = ?", (nid,)).fetchone()
                c.execute("DELETE FROM nights WHERE id = ?", (nid,))
                emptied.append(str(was))
        return Moved(night, moving, len(league) - len(moving), skipped, emptied)

    def overview(self) -> list[SeasonInfo]:
        """Every season, oldest first, with its league nights (``PLAYED``) and rated
        finished games."""
        rows = self._db.conn.execute(
            f"""SELECT s.id, s.name, COUNT(DISTINCT n.id), MIN(n.date), MAX(n.date),
                      (SELECT COUNT(*) FROM games g JOIN nights n2 ON n2.id = g.night_id
                       WHERE n2.season_id = s.id AND g.status = 'finished'
                       AND g.mode = 'rated')
               FROM seasons s LEFT JOIN nights n ON n.season_id = s.id AND {PLAYED}
               GROUP BY s.id ORDER BY s.id"""
        ).fetchall()
        return [
            SeasonInfo(
                Season(int(i), str(name)),
                int(nights),
                int(games),
                None if first is None else str(first),
                None if last is None else str(last),
            )
            for i, name, nights, first, last, games in rows
        ]

    def player_games(self, player_id: int, limit: int | None = None) -> list[PlayerGame]:
        """The player's finished games, rated and training, newest first (in the order
        they ended, as their results were written: not by the clock, which a Pi
        without network may bring back behind them after a power cut); at most
        ``limit`` of them (None: all)."""
        rows = self._db.conn.execute(
            """SELECT g.id, g.kind, g.mode, r.outcome, g.ended_at, n.date, r.points, r.stats
               FROM results r JOIN games g ON g.id = r.game_id
               LEFT JOIN nights n ON n.id = g.night_id
               WHERE r.player_id = ? AND g.status = 'finished'
               ORDER BY r.rowid DESC LIMIT ?""",
            (player_id, -1 if limit is None else max(0, limit)),
        ).fetchall()
        out = []
        for gid, kind, mode, outcome, ended, night, points, stats_json in rows:
            stats = _stats(stats_json)
            out.append(
                PlayerGame(
                    int(gid),
                    str(kind),
                    mode == "rated",
                    str(outcome),
                    str(ended or ""),
                    None if night is None else str(night),
                    _int(points),
                    darts=_int(stats.get("darts")),
                    marks=_int(stats.get("marks")),
                    rounds=_int(stats.get("rounds")),
                    points_total=_int(stats.get("points_total")),
                    finished=bool(stats.get("finished", False)),
                )
            )
        return out

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
        games: dict[int, list[int]] = {}
        for pid, name, game_id, kind, outcome, stats_json in rows:
            s = table.setdefault(int(pid), Standing(int(pid), str(name)))
            _count(s, int(game_id), str(kind), str(outcome), _stats(stats_json))
            games.setdefault(int(pid), []).append(int(game_id))
        for s in table.values():
            s.cricket_mpr = s.cricket_marks * 3 / s.cricket_darts if s.cricket_darts else 0.0
            s.formula_avg_points = s.formula_points / s.formula_rounds if s.formula_rounds else 0.0
            if s.formula_finished:
                s.formula_avg_rounds = s.formula_finish_rounds / s.formula_finished
            s.rating = self._rating_after(s.player_id, games[s.player_id])
        return sorted(table.values(), key=standing_key)

    def _rating_after(self, player_id: int, game_ids: Sequence[int]) -> float:
        """The player's rating after the last of ``game_ids`` to be rated: a table's
        rating as it was at its end. (A past night's table showed the rating now, so it
        changed with every later game.) Read by the (player, game) index, in chunks
        under SQLite's limit of variables."""
        latest: tuple[int, float] | None = None
        for k in range(0, len(game_ids), 500):
            chunk = game_ids[k : k + 500]
            row = self._db.conn.execute(
                f"""SELECT id, after FROM ratings WHERE player_id = ?
                    AND game_id IN ({",".join("?" * len(chunk))}) ORDER BY id DESC LIMIT 1""",
                (player_id, *chunk),
            ).fetchone()
            if row is not None and (latest is None or int(row[0]) > latest[0]):
                latest = (int(row[0]), float(row[1]))
        return self._players.rating(player_id) if latest is None else latest[1]

    def export(self, season_name: str) -> dict[str, Any]:
        """A season for the league secretary: its table, each night's table, its games
        (see ``season_export``)."""
        from kiosk.adapters.store.season_export import export_season

        return export_season(self._db, self, self.season(season_name))


def _count(s: Standing, game_id: int, kind: str, outcome: str, stats: dict[str, Any]) -> None:
    s.played += 1
    if outcome == "won":
        s.won += 1
    elif outcome == "drawn":
        s.drawn += 1
    else:
        s.lost += 1
    if kind == "cricket":
        darts, marks = _int(stats.get("darts")), _int(stats.get("marks"))
        s.cricket_games += 1
        s.cricket_darts += darts
        s.cricket_marks += marks
        mpr = marks * 3 / darts if darts else 0.0
        if darts and (s.best_cricket_mpr is None or mpr > s.best_cricket_mpr):
            s.best_cricket_game, s.best_cricket_mpr = game_id, mpr
    else:
        rounds = _int(stats.get("rounds"))
        s.formula_games += 1
        s.formula_rounds += rounds
        s.formula_points += _int(stats.get("points_total"))
        if stats.get("finished"):
            s.formula_finished += 1
            s.formula_finish_rounds += rounds
            if s.best_formula_rounds is None or rounds < s.best_formula_rounds:
                s.best_formula_game, s.best_formula_rounds = game_id, rounds
