"""League screens and start-up on a database of years of play.

A bar's kiosk keeps every game: 40 games a night, a night a week, is 2,000 games a year.
This makes a real database file of ``--games`` finished rated Cricket games (played dart
by dart through the store, 200 players, 40 games a night, 25 nights a season) and times
what the league screens and the start ask of it. Prints medians in milliseconds.

    .venv/bin/python bench/league.py [--games 6000] [--reps 5] [--dir PATH]
"""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kiosk.adapters.store import Store
from kiosk.adapters.store.check import quick_check
from kiosk.ui.last_results import stored_results

PLAYERS = 200
PER_NIGHT = 40
NIGHTS_PER_SEASON = 25
WINNER = ["T20", "T19", "T18", "T17", "T16", "T15", "DB", "DB", "SB"]
LOSER = ["S20", "MISS", "S5", "T19", "MISS", "S1"]


def make(path: Path, games: int) -> None:
    start = datetime(2024, 1, 5, 18, 0, tzinfo=UTC)
    now = [start]
    rng = random.Random(3)
    with Store.open(path, clock=lambda: now[0]) as store:
        # Made quickly: one commit per night, not one fsync per dart as on league night.
        store.db.conn.execute("PRAGMA synchronous = OFF")
        names = [f"Player{i:03d} Surname" for i in range(PLAYERS)]
        for name in names:
            store.players.add(name)
        for night in range((games + PER_NIGHT - 1) // PER_NIGHT):
            with store.db.transaction():
                now[0] = start + timedelta(days=7 * night)
                if night % NIGHTS_PER_SEASON == 0:
                    store.league.start_season(f"Season {night // NIGHTS_PER_SEASON + 1}")
                for g in range(min(PER_NIGHT, games - night * PER_NIGHT)):
                    now[0] = start + timedelta(days=7 * night, minutes=3 * g)
                    play(store, rng.sample(names, 2), rng.randrange(2))
        store.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def play(store: Store, names: list[str], winner: int) -> None:
    live = store.start_game("cricket", names, {"round_limit": 20}, rated=True)
    thrown = [0, 0]
    seat = 0
    while not live.is_over():
        darts = WINNER if seat == winner else LOSER
        for _ in range(3):
            if live.is_over():
                break
            live.dart(darts[thrown[seat] % len(darts)])
            thrown[seat] += 1
        seat ^= 1
    live.finish()


def timed(name: str, reps: int, fn: Callable[[], object]) -> None:
    ms = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ms.append((time.perf_counter() - t0) * 1000)
    print(f"{name:<46} median {statistics.median(ms):8.1f} ms   max {max(ms):8.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/var/tmp"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="darts-bench-") as tmp:
        path = Path(tmp) / "kiosk.sqlite3"
        t0 = time.perf_counter()
        logging.disable(logging.WARNING)  # "checkpoint not done" inside the night's commit
        make(path, args.games)
        logging.disable(logging.NOTSET)
        size = path.stat().st_size / 2**20
        print(
            f"{args.games} games, {PLAYERS} players, {size:.0f} MB"
            f" (made in {time.perf_counter() - t0:.0f} s)"
        )
        timed("start: open the file", args.reps, lambda: Store.open(path).close())
        with Store.open(path) as store:
            timed(
                "start: quick_check (in the background)",
                args.reps,
                lambda: quick_check(store.db.conn),
            )
            timed(
                "start: the last results, replayed (attract screen)",
                args.reps,
                lambda: stored_results(store),
            )
            league = store.league
            season = league.seasons()[-1]
            night = league.nights(season.id)[-1]
            roster = store.players.roster()
            someone = roster[0].id
            timed("league menu: seasons and nights", args.reps, league.overview)
            timed("standings of a night", args.reps, lambda: league.standings(night_id=night.id))
            timed(
                f"standings of a season ({len(league.nights(season.id))} nights)",
                args.reps,
                lambda: league.standings(season_id=season.id),
            )
            timed(
                f"players list: {len(roster)} ratings",
                args.reps,
                lambda: [store.players.rating(p.id) for p in roster],
            )
            timed(
                "player page: last 10 games and ratings",
                args.reps,
                lambda: (
                    league.player_games(someone, limit=10),
                    store.players.rating_history(someone),
                ),
            )
            timed("export a season", args.reps, lambda: league.export(season.name))
        detach_times(path, args.reps)


def detach_times(path: Path, reps: int) -> None:
    """The database deleted while the kiosk runs: it goes on in a whole copy, made in
    the display loop (the screen waits that long, once)."""
    ms = []
    for rep in range(reps):
        live = path.with_name(f"live-{rep}.sqlite3")
        shutil.copyfile(path, live)
        with Store.open(live) as store:
            live.unlink()  # (what the bar's clean-up did)
            t0 = time.perf_counter()
            store.detach(into=path.with_name(f"live-{rep}.sqlite3.kept"))
            ms.append((time.perf_counter() - t0) * 1000)
    print(
        f"{'database deleted: go on in a whole copy':<46} median"
        f" {statistics.median(ms):8.1f} ms   max {max(ms):8.1f} ms"
    )


if __name__ == "__main__":
    main()
