"""Which database file the maintenance commands (players, export, backup, league) use:
the kiosk's own, found the way the kiosk finds it.

``--db PATH`` wins; else ``--data-dir DIR``; else the ``data_dir`` of the settings
(``load_config``: the system and user files, then ``--config FILE``), resolved as the
kiosk resolves it (``Config.resolved_data_dir``: ``$STATE_DIRECTORY`` under systemd,
``$XDG_STATE_HOME/darts-kiosk``, ``~/.local/state/darts-kiosk``). The file is
``kiosk.sqlite3`` in that directory.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path

from kiosk.adapters.store.schema import DB_NAME
from kiosk.config import ConfigError, load_config

__all__ = ["ConfigError", "add_db_arguments", "db_path"]


def add_db_arguments(parser: argparse.ArgumentParser, *, sub: bool = False) -> None:
    """``--config``, ``--data-dir``, ``--db``. Give them to a command's parser and, with
    ``sub=True``, to each of its action parsers too, so they work before or after the
    action (``players --db F list`` and ``players list --db F``)."""
    default = argparse.SUPPRESS if sub else None
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        default=default,
        help="settings file read last, as the kiosk's --config (for its data_dir)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        default=default,
        help="the kiosk's data directory (default: the settings' data_dir)",
    )
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        default=default,
        help="database file (overrides --config and --data-dir)",
    )


def db_path(args: argparse.Namespace, env: Mapping[str, str] = os.environ) -> Path:
    """The database file for these arguments (``ConfigError`` for a bad settings file,
    or a database path that is a directory: SQLite would only say "unable to open")."""
    if getattr(args, "db", None) is not None:
        path = Path(args.db)
    elif getattr(args, "data_dir", None) is not None:
        path = Path(args.data_dir) / DB_NAME
    else:
        config = load_config(getattr(args, "config", None), env=env)
        path = config.resolved_data_dir(env) / DB_NAME
    if path.is_dir():
        raise ConfigError(f"{path} is a directory, not a database file (--data-dir DIR for that)")
    return path
