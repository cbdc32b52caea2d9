"""``darts-kiosk players``: add, list, rename, merge, retire, import a roster.

The database is the kiosk's (see ``kiosk.commands._db``: ``--db``, ``--data-dir`` or
the settings' ``data_dir``, ``--config FILE`` as the kiosk's). Only ``add`` and
``import`` make a new database file; the other actions on a missing or empty (0 bytes)
one say so rather than leave an empty database behind (a mistyped path would
otherwise look like a kiosk with no players).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from kiosk.adapters.store import PlayerError, Store, StoreError
from kiosk.commands._db import (
    ConfigError,
    add_db_arguments,
    db_path,
    nothing_to_read,
    trouble,
    utf8_text,
)
from kiosk.commands._roster_text import CP1251, RosterTextError, roster_text
from kiosk.domain.figures import fixed

NAME = "players"
HELP = "manage players: add, list, rename, merge, retire, import a roster CSV"
CREATES = ("add", "import")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_db_arguments(parser)
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("add", help="add a player")
    p.add_argument("name", type=utf8_text)
    add_db_arguments(p, sub=True)
    p = sub.add_parser("list", help="list players with their ratings")
    p.add_argument("--all", action="store_true", help="include retired players")
    add_db_arguments(p, sub=True)
    p = sub.add_parser("rename", help="rename a player")
    p.add_argument("old", type=utf8_text)
    p.add_argument("new", type=utf8_text)
    add_db_arguments(p, sub=True)
    p = sub.add_parser("merge", help="merge FROM into INTO (same person entered twice)")
    p.add_argument("source", metavar="FROM", type=utf8_text)
    p.add_argument("into", metavar="INTO", type=utf8_text)
    add_db_arguments(p, sub=True)
    p = sub.add_parser("retire", help="retire a player (history kept; --undo brings back)")
    p.add_argument("name", type=utf8_text)
    p.add_argument("--undo", action="store_true")
    add_db_arguments(p, sub=True)
    p = sub.add_parser(
        "import",
        help="add the players of a roster CSV (its 'name' or 'player' column, else the "
        "first; fields split by ',', ';' or a tab)",
    )
    p.add_argument("csv", type=Path)
    p.add_argument("--encoding", metavar="NAME",
                   help="the file's encoding (e.g. cp1252), when it is not UTF-8, UTF-16 "
                   "or Windows Cyrillic (cp1251), which are found by themselves")  # fmt: skip
    add_db_arguments(p, sub=True)


def run(args: argparse.Namespace) -> int:
    try:
        db = db_path(args)
    except ConfigError as e:
        print(f"darts-kiosk players: {e}", file=sys.stderr)
        return 2
    if args.action not in CREATES and (why := nothing_to_read(db)):
        print(f"darts-kiosk players: {why}", file=sys.stderr)
        return 1
    roster = ""
    if args.action == "import":  # (read first: a roster it cannot read makes no database)
        try:
            roster, read_as = roster_text(args.csv.read_bytes(), args.encoding)
        except OSError as e:
            print(f"darts-kiosk players: {args.csv}: {e.strerror}", file=sys.stderr)
            return 1
        except RosterTextError as e:
            print(f"darts-kiosk players: {args.csv}: {e}", file=sys.stderr)
            return 1
        if read_as == CP1251:  # (found, not told: said, in case it is wrong)
            print(f"{args.csv}: read as {CP1251}", file=sys.stderr)
    try:
        with Store.open(db) as store:
            return _run(store, args, roster)
    except BrokenPipeError:
        raise  # (the reader of the output has gone: see kiosk.cli)
    except (PlayerError, StoreError, sqlite3.Error, OSError, UnicodeDecodeError) as e:
        print(f"darts-kiosk players: {trouble(db, e)}", file=sys.stderr)
        return 1


def _run(store: Store, args: argparse.Namespace, roster: str) -> int:
    players = store.players
    if args.action == "add":
        print(f"added {players.add(args.name).name}")
    elif args.action == "list":
        for p in players.roster(include_retired=args.all):
            flag = "  (retired)" if p.retired else ""
            print(f"{p.name:<24} {fixed(players.rating(p.id), 1):>7}{flag}")
        for later, first in players.same_names():
            # Two players of one name from before apostrophes were folded: said, not
            # joined (they may have played each other: then they are two people).
            print(
                f"{later.name} and {first.name} are one name written two ways: "
                f'\'players merge "{later.name}" "{first.name}"\' joins them, '
                "or rename one",
                file=sys.stderr,
            )
    elif args.action == "rename":
        print(f"renamed {args.old} -> {players.rename(args.old, args.new).name}")
    elif args.action == "merge":
        kept = players.merge(args.source, args.into)
        rating = fixed(players.rating(kept.id), 1)
        print(f"merged {args.source} into {kept.name}; rating now {rating}")
    elif args.action == "retire":
        p = players.retire(args.name, retired=not args.undo)
        print(f"{p.name} {'retired' if p.retired else 'back in the lists'}")
    elif args.action == "import":
        report = players.import_roster(roster)
        for line, why in report.refused:
            print(f"line {line}: {why}", file=sys.stderr)
        print(
            f"added {len(report.added)}, already there {len(report.existing)}, "
            f"refused {len(report.refused)}"
        )
        return 1 if report.refused else 0
    return 0
