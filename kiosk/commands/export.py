"""``darts-kiosk export --season S --format csv|json``: a season for the league secretary.

JSON: the season's table, each night's table and every rated game with its results.
CSV: one row per player per table: the season's (``scope`` = season) then each night's
(``scope`` = the night's date); the columns are the standings' fields.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

from kiosk.adapters.store import LeagueError, Store, StoreError, default_db_path
from kiosk.adapters.store.league import Standing

NAME = "export"
HELP = "export a season's standings and games as CSV or JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--season", required=True, help="season name")
    parser.add_argument("--format", choices=("csv", "json"), default="csv")
    parser.add_argument("--out", type=Path, help="write to this file (default: stdout)")
    parser.add_argument("--db", type=Path, help="database file (default: the kiosk's)")


def to_csv(data: dict[str, Any]) -> str:
    fields = ["scope", *Standing(0, "").as_row().keys()]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in data["standings"]:
        writer.writerow({"scope": "season", **row})
    for night in data["nights"]:
        for row in night["standings"]:
            writer.writerow({"scope": night["date"], **row})
    return buf.getvalue()


def run(args: argparse.Namespace) -> int:
    db = args.db or default_db_path()
    if not Path(db).exists():
        print(f"darts-kiosk export: no database at {db}", file=sys.stderr)
        return 1
    try:
        with Store.open(db) as store:
            data = store.league.export(args.season)
    except (LeagueError, StoreError) as e:
        print(f"darts-kiosk export: {e}", file=sys.stderr)
        return 1
    text = to_csv(data) if args.format == "csv" else json.dumps(data, indent=2, ensure_ascii=False)
    if args.out:
        args.out.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
