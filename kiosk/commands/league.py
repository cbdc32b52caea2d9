"""``darts-kiosk league``: seasons and standings from the command line.

- ``league season start NAME``: a new season; the league nights from now on belong to
  it (tonight's games already played stay in the season they were played in).
- ``league season list``: every season with its nights and rated games; the current
  one (where new nights go) is marked.
- ``league standings [--season S | --night DATE]``: the table of a season (default: the
  current one) or of one night (``DATE`` as 2025-03-04, or ``tonight``). The order is
  the store's (most wins, most draws, fewest played); players level on those share a
  position, shown as ``=``.
- ``league night DATE``: the games of one night (``DATE`` or ``tonight``): number, start
  time, players, who won.
- ``league move GAMES --to DATE``: league games (``12-20`` or ``12,14,15``) into the
  night dated ``DATE`` of their season: the mend for games a kiosk whose clock was not
  set put in an old night. A range leaves out the training games in it (said); a
  number given alone must be a league game. A night left with no games goes. Ratings
  do not change.

The database is the kiosk's (``--db``, ``--data-dir``, or ``--config FILE``'s
``data_dir``, as ``kiosk.commands._db`` says). Only ``season start`` makes a new file
(or a database of an empty one).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from datetime import date, datetime

from kiosk.adapters.store import LeagueError, Store, StoreError
from kiosk.adapters.store.league import MAX_MOVE, NightGame, Standing, night_date, positions
from kiosk.commands._db import (
    ConfigError,
    add_db_arguments,
    db_path,
    nothing_to_read,
    trouble,
    utf8_text,
)
from kiosk.domain.figures import fixed

NAME = "league"
HELP = "league seasons and standings: start a season, list seasons, print a table, mend a night"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_db_arguments(parser)
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    season = sub.add_parser("season", help="start or list seasons")
    add_db_arguments(season, sub=True)
    what = season.add_subparsers(dest="season_action", metavar="start|list", required=True)
    p = what.add_parser("start", help="start a new season; new league nights go into it")
    p.add_argument("name", type=utf8_text)
    add_db_arguments(p, sub=True)
    p = what.add_parser("list", help="list the seasons")
    add_db_arguments(p, sub=True)
    p = sub.add_parser("standings", help="print a season's or a night's table")
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--season", metavar="S", type=utf8_text, help="season name (default: the current one)"
    )
    which.add_argument("--night", metavar="DATE", help="a night: 2025-03-04, or 'tonight'")
    add_db_arguments(p, sub=True)
    p = sub.add_parser("night", help="list the games of one league night")
    p.add_argument("date", metavar="DATE", help="2025-03-04, or 'tonight'")
    add_db_arguments(p, sub=True)
    p = sub.add_parser(
        "move", help="put league games into another night (a kiosk whose clock was wrong)"
    )
    p.add_argument("games", metavar="GAMES", help="game numbers: 12-20, or 12,14,15")
    p.add_argument("--to", required=True, metavar="DATE", help="the night's date: 2025-03-04")
    add_db_arguments(p, sub=True)


def _fail(message: str, code: int = 1) -> int:
    print(f"darts-kiosk league: {message}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    try:
        db = db_path(args)
    except ConfigError as e:
        return _fail(str(e), 2)
    starting = args.action == "season" and args.season_action == "start"
    if not starting and (why := nothing_to_read(db)):
        return _fail(why)
    try:
        with Store.open(db) as store:
            if args.action == "season":
                return _start(store, args.name) if starting else _list(store)
            if args.action == "night":
                return _night(store, args.date)
            if args.action == "move":
                return _move(store, *_game_numbers(args.games), args.to)
            return _standings(store, args.season, args.night)
    except BrokenPipeError:
        raise  # (the reader of the output has gone: see kiosk.cli)
    except (LeagueError, StoreError, sqlite3.Error, OSError) as e:
        return _fail(trouble(db, e))


def _start(store: Store, name: str) -> int:
    season = store.league.start_season(name)
    print(f"season {season.name!r} started; league nights from now on belong to it")
    return 0


def _list(store: Store) -> int:
    infos = store.league.overview()
    if not infos:
        print("no seasons yet (darts-kiosk league season start NAME)")
        return 0
    current = infos[-1].season.id
    width = max(6, *(len(i.season.name) for i in infos))
    print(f"{'season':<{width}}  nights  games  dates")
    for i in infos:
        dates = f"{i.first_night} .. {i.last_night}" if i.first_night else "-"
        mark = "  (current)" if i.season.id == current else ""
        print(f"{i.season.name:<{width}}  {i.nights:>6}  {i.games:>5}  {dates}{mark}")
    return 0


def _night_day(text: str, store: Store) -> str:
    if text.strip().casefold() == "tonight":
        return night_date(store.db.clock()).isoformat()
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise LeagueError(f"{text!r} is not a date like 2025-03-04 (or 'tonight')") from None


def _game_numbers(text: str) -> tuple[list[int], set[int]]:
    """``12-20``, ``12,14,15`` or both (``3,7-9``) as game numbers, and those of them
    that came from a range (a range may span training games and missing numbers)."""
    out: list[int] = []
    ranged: set[int] = set()
    for part in text.replace(" ", "").split(","):
        lo, dash, hi = part.partition("-")
        if not (
            lo.isascii() and lo.isdecimal() and (not dash or (hi.isascii() and hi.isdecimal()))
        ):
            raise LeagueError(f"{text!r} is not game numbers like 12-20 or 12,14,15")
        first, last = int(lo), int(hi) if dash else int(lo)
        if last < first:
            raise LeagueError(f"{part!r} runs backwards: write it {last}-{first}")
        if last - first >= MAX_MOVE:
            raise LeagueError(f"{part!r}: at most {MAX_MOVE} games at a time")
        out += range(first, last + 1)
        if dash:
            ranged.update(range(first, last + 1))
        if len(out) > 10 * MAX_MOVE:
            raise LeagueError(f"at most {MAX_MOVE} games at a time")
    return out, ranged


def _local_time(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%H:%M")
    except ValueError:
        return "?"


def _night(store: Store, text: str) -> int:
    day = _night_day(text, store)
    nights = store.league.nights_on(day)
    if not nights:
        raise LeagueError(f"no league night on {day}")
    names = {s.id: s.name for s in store.league.seasons()}
    for i, n in enumerate(nights):
        if i:
            print()
        print(f"Night {n.date} (season {names.get(n.season_id, '?')})")
        games = store.league.night_games(n.id)
        if not games:
            print("no games")
        for g in games:
            who = ", ".join(g.winners) if g.winners else _no_winner(g)
            print(f"{g.game_id:>6}  {_local_time(g.started_at)}  {g.kind:<8} "
                  f"{g.versus()}  ({who})")  # fmt: skip
    return 0


def _no_winner(game: NightGame) -> str:
    """A game with no winner: in play, abandoned, a draw, or lost by all (a formula
    game nobody finished)."""
    if game.status != "finished":
        return "in play" if game.status == "playing" else "abandoned"
    return "draw" if game.drawn else "no winner"


def _move(store: Store, games: list[int], ranged: set[int], to: str) -> int:
    done = store.league.move_games(games, _night_day(to, store), skip=ranged)
    day = done.night.date
    if done.moved:
        print(f"moved {len(done.moved)} game(s) to the night of {day}")
    if done.already:
        print(f"{done.already} game(s) were in the night of {day} already")
    if done.skipped:
        print(f"left out (no league game): {_spans(done.skipped)}")
    for was in done.emptied:
        print(f"the night of {was} had no games left and was removed")
    return 0


def _spans(numbers: list[int]) -> str:
    """3, 5-9, 12: numbers in order, runs as ranges."""
    out: list[str] = []
    for n in sorted(numbers):
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def _standings(store: Store, season_name: str | None, night: str | None) -> int:
    league = store.league
    if night is not None:
        day = _night_day(night, store)
        nights = league.nights_on(day)
        if not nights:
            raise LeagueError(f"no league night on {day}")
        names = {s.id: s.name for s in league.seasons()}
        # A season started during the evening splits it in two: show both tables.
        for i, n in enumerate(nights):
            if i:
                print()
            print(f"Night {n.date} (season {names.get(n.season_id, '?')})")
            _print_table(league.standings(night_id=n.id))
        return 0
    season = league.season(season_name) if season_name is not None else league.current_season()
    if season is None:
        raise LeagueError("no seasons yet (darts-kiosk league season start NAME)")
    print(f"Season {season.name}")
    _print_table(league.standings(season_id=season.id))
    return 0


# F pts: formula points a round, on average (the standings screen's "Formula points":
# 501 in 4 rounds is 125.3, not 501); F rnds: rounds to bring the score to 0, on average
# and the fewest in one game (the best formula game).
HEADER = (
    "#", "Player", "P", "W", "L", "D", "MPR", "Best MPR", "F pts", "F rnds", "F best", "Rating"
)  # fmt: skip


def table_lines(rows: Sequence[Standing]) -> list[str]:
    """The table as text lines: a header, then one line per player. A dash is an
    average over no games; ``=`` marks a shared position."""
    if not rows:
        return ["no rated games yet"]
    places = positions(rows)
    body = []
    for place, s in zip(places, rows, strict=True):
        shared = places.count(place) > 1
        body.append(
            (
                f"{place}{'=' if shared else ''}",
                s.name,
                str(s.played),
                str(s.won),
                str(s.lost),
                str(s.drawn),
                fixed(s.cricket_mpr, 2) if s.cricket_darts else "-",
                fixed(s.best_cricket_mpr, 2) if s.best_cricket_mpr is not None else "-",
                fixed(s.formula_avg_points, 1) if s.formula_rounds else "-",
                fixed(s.formula_avg_rounds, 1) if s.formula_finished else "-",
                str(s.best_formula_rounds) if s.best_formula_rounds is not None else "-",
                fixed(s.rating, 0),
            )
        )
    widths = [max(len(r[c]) for r in (HEADER, *body)) for c in range(len(HEADER))]

    def line(cells: Sequence[str]) -> str:
        out = [
            cell.ljust(w) if c == 1 else cell.rjust(w)
            for c, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(out).rstrip()

    return [line(HEADER), *(line(r) for r in body)]


def _print_table(rows: Sequence[Standing]) -> None:
    for text in table_lines(rows):
        print(text)
