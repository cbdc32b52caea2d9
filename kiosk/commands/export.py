"""``darts-kiosk export --season S --format csv|json``: a season for the league secretary.

What is in it: see ``kiosk.adapters.store.season_export``.

JSON: everything in one document: the season's table, each night's table, and every
rated game with its players, scores, winner and result.
CSV: one table per file, so a spreadsheet opens it as it is:
- ``--table standings`` (the default): one row per player per table, the season's
  (``scope`` = season) then each night's (``scope`` = the night's date);
- ``--table games``: one row per game: night, kind, players, scores (in the players'
  order, `` / `` between), winner (`` & `` between partners; empty when nobody won)
  and result (won / drawn / lost).
An empty cell is an average over no games. A text cell that a spreadsheet would take
for a formula (a player called ``=HYPERLINK(...)``, ``+1``, ``@SUM(A1)``: first
character ``= + - @``, a tab or a carriage return) starts with ``'`` instead, so it
shows as the text it is (numbers are left alone: a rating change of -16 stays a
number). A file written with ``--out`` starts with a byte-order mark, so a spreadsheet
reads its names (Олег, Ірина) as UTF-8; standard output has none (it is piped).

The database is the kiosk's (``--db``, ``--data-dir``, or ``--config FILE``'s
``data_dir``, as ``kiosk.commands._db`` says).
"""

from __future__ import annotations

import argparse
import csv
import errno
import io
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from kiosk.adapters.files import write_text_atomically
from kiosk.adapters.store import LeagueError, Store, StoreError
from kiosk.adapters.store.season_export import GAME_COLUMNS, STANDING_COLUMNS
from kiosk.commands._db import (
    ConfigError,
    add_db_arguments,
    db_path,
    nothing_to_read,
    trouble,
    utf8_text,
)

NAME = "export"
HELP = "export a season's standings and games as CSV or JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--season", required=True, type=utf8_text, help="season name")
    parser.add_argument("--format", choices=("csv", "json"), default="csv")
    parser.add_argument(
        "--table",
        choices=("standings", "games"),
        default="standings",
        help="CSV only: the standings (season and nights) or the list of games",
    )
    parser.add_argument("--out", type=Path, help="write to this file (default: stdout)")
    add_db_arguments(parser)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def standings_csv(data: dict[str, Any]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["scope", *STANDING_COLUMNS], lineterminator="\n")
    writer.writeheader()
    tables = [("season", data["standings"])]
    tables += [(night["date"], night["standings"]) for night in data["nights"]]
    for scope, rows in tables:
        for row in rows:
            writer.writerow({"scope": scope, **{k: _cell(v) for k, v in row.items()}})
    return buf.getvalue()


def games_csv(data: dict[str, Any]) -> str:
    buf = io.StringIO()
    # "places" last: each player's place, in the players' order (the 2nd and 3rd of a
    # game of 3 or 4 both "lost", their places tell them apart, as the ratings do).
    writer = csv.DictWriter(buf, fieldnames=[*GAME_COLUMNS, "places"], lineterminator="\n")
    writer.writeheader()
    for game in data["games"]:
        row = {k: game[k] for k in GAME_COLUMNS}
        row["players"] = " / ".join(game["players"])
        row["scores"] = " / ".join(str(s) for s in game["scores"])
        row["winner"] = " & ".join(game["winner"])
        row["places"] = " / ".join(str(r["placement"]) for r in game["results"])
        writer.writerow({k: _cell(v) for k, v in row.items()})
    return buf.getvalue()


def to_csv(data: dict[str, Any], table: str = "standings") -> str:
    return games_csv(data) if table == "games" else standings_csv(data)


def run(args: argparse.Namespace) -> int:
    try:
        db = db_path(args)
    except ConfigError as e:
        print(f"darts-kiosk export: {e}", file=sys.stderr)
        return 2
    if why := nothing_to_read(db):
        print(f"darts-kiosk export: {why}", file=sys.stderr)
        return 1
    try:
        with Store.open(db) as store:
            data = store.league.export(args.season)
    except (LeagueError, StoreError, sqlite3.Error) as e:
        print(f"darts-kiosk export: {trouble(db, e)}", file=sys.stderr)
        return 1
    if args.format == "csv":
        text = to_csv(data, args.table)
    else:
        text = json.dumps(data, indent=2, ensure_ascii=False)
    text = text if text.endswith("\n") else text + "\n"
    try:
        if args.out:
            bom = args.format == "csv"
            # (beside it, then renamed: a full disk keeps last week's export whole)
            write_text_atomically(args.out, text, "utf-8-sig" if bom else "utf-8")
        else:
            sys.stdout.write(text)
    except BrokenPipeError:
        raise  # (the reader of the output has gone: see kiosk.cli)
    except OSError as e:
        print(f"darts-kiosk export: {_not_written(args.out, e)}", file=sys.stderr)
        return 1
    return 0


def _not_written(out: Path | None, e: OSError) -> str:
    """Why the export could not be written, as the other commands say a disk's trouble:
    in words, not as "[Errno 28] No space left on device"."""
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        if out is None:
            return f"the disk that standard output goes to is full ({e.strerror})"
        folder = Path(os.path.realpath(out)).parent
        return (f"the disk holding {folder} is full ({e.strerror}, writing {out.name}): free"
                " some space there or export to another disk (a file there before is as it"
                " was)")  # fmt: skip
    return f"{out or 'standard output'}: cannot write it: {e.strerror or e}"
