"""``darts-kiosk backup PATH``: a consistent copy of the database while the kiosk runs.

Uses SQLite's online backup API, so a game in play goes on; the copy is written to a
temporary file beside PATH, checked (``PRAGMA integrity_check``) and then renamed into
place, so PATH is never a half-written file. PATH may be a directory.

The database is the kiosk's (``--db``, ``--data-dir``, or ``--config FILE``'s
``data_dir``, as ``kiosk.commands._db`` says).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

from kiosk.adapters.store import StoreError
from kiosk.adapters.store.schema import connect
from kiosk.commands._db import ConfigError, add_db_arguments, db_path, trouble

NAME = "backup"
HELP = "copy the database to PATH (safe while the kiosk runs)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, help="backup file, or a directory to put it in")
    add_db_arguments(parser)
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")


def run(args: argparse.Namespace) -> int:
    try:
        source = db_path(args)
    except ConfigError as e:
        print(f"darts-kiosk backup: {e}", file=sys.stderr)
        return 2
    target: Path = args.path
    if target.is_dir():
        target = target / f"kiosk-{datetime.now():%Y%m%d-%H%M%S}.sqlite3"
    if target.exists() and not args.force:
        print(f"darts-kiosk backup: {target} exists (--force to overwrite)", file=sys.stderr)
        return 1
    if not source.exists():
        print(f"darts-kiosk backup: no database at {source}", file=sys.stderr)
        return 1
    if not target.parent.is_dir():
        print(f"darts-kiosk backup: no directory {target.parent} for {target}", file=sys.stderr)
        return 1
    tmp = target.with_name(f".{target.name}.part")
    try:
        src = connect(source)
        try:
            tmp.unlink(missing_ok=True)
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)
                check = dst.execute("PRAGMA integrity_check").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
        if check != "ok":
            lines = str(check).splitlines()
            more = f" (and {len(lines) - 3} more problems)" if len(lines) > 3 else ""
            raise StoreError(
                f"the copy fails its integrity check: {'; '.join(lines[:3])}{more}; the"
                " database is damaged: keep it, and the last good backup, and ask for help"
            )
        os.replace(tmp, target)
    except (StoreError, sqlite3.Error, OSError) as e:
        tmp.unlink(missing_ok=True)
        # (the source's open fails as a StoreError; the copy's own errors are the target's)
        said = trouble(source, e) if isinstance(e, StoreError) else str(e)
        print(f"darts-kiosk backup: {said}", file=sys.stderr)
        return 1
    print(f"backed up {source} to {target}")
    return 0
