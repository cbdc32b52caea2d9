"""Which database file the maintenance commands (players, export, backup, league) use:
the kiosk's own, found the way the kiosk finds it.

``--db PATH`` wins; else ``--data-dir DIR``; else the ``data_dir`` of the settings
(``load_config``: the system and user files, then ``--config FILE``), resolved as the
kiosk resolves it (``Config.resolved_data_dir``: ``$STATE_DIRECTORY`` under systemd,
``$XDG_STATE_HOME/darts-kiosk``, ``~/.local/state/darts-kiosk``). The file is
``kiosk.sqlite3`` in that directory. With none of these (nor ``$XDG_STATE_HOME``,
which a login over SSH does not set), when the kiosk is installed as a service
(``systemd/install.sh``: its data in ``INSTALLED_STATE``), it is that kiosk's: a
command typed over SSH means the kiosk on the screen, not a new database in the
user's home. That folder is the service user's alone: run as that user (``sudo -u
darts``), said plainly otherwise; not as root, whose files the kiosk could not open.
"""

from __future__ import annotations

import argparse
import os
import pwd
from collections.abc import Mapping
from pathlib import Path

from kiosk.adapters.store import schema
from kiosk.adapters.store.schema import DB_NAME
from kiosk.config import ConfigError, load_config

__all__ = ["ConfigError", "add_db_arguments", "db_path", "nothing_to_read", "trouble", "utf8_text"]

# systemd's StateDirectory=darts-kiosk (systemd/darts-kiosk.service).
INSTALLED_STATE = Path("/var/lib/darts-kiosk")


def utf8_text(value: str) -> str:
    """An argument that is a name (a player's, a season's), for ``type=``: a terminal
    that is not UTF-8 (latin-1: Café as ``Caf\\xe9``) sends bytes Python keeps as
    surrogates, which the database cannot store ("UnicodeEncodeError") and a name must
    not be taken for (a "control character"). Refused by the parser, in words."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raw = repr(value.encode("utf-8", "surrogateescape"))[1:]
        raise argparse.ArgumentTypeError(
            f"{raw} is not UTF-8 text: set the terminal to UTF-8 (its locale) and type it again"
        ) from None
    return value


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


def db_path(
    args: argparse.Namespace,
    env: Mapping[str, str] = os.environ,
    installed: Path = INSTALLED_STATE,
) -> Path:
    """The database file for these arguments (``ConfigError`` for a bad settings file,
    a database path that is a directory, or the installed kiosk's database that this
    user cannot or should not open: SQLite would only say "unable to open")."""
    if getattr(args, "db", None) is not None:
        path = Path(args.db)
    elif getattr(args, "data_dir", None) is not None:
        path = Path(args.data_dir) / DB_NAME
    else:
        config = load_config(getattr(args, "config", None), env=env)
        chosen = config.data_dir or env.get("STATE_DIRECTORY") or env.get("XDG_STATE_HOME")
        if not chosen and installed.is_dir():
            path = installed / DB_NAME
            _check_service_user(installed)
        else:
            path = config.resolved_data_dir(env) / DB_NAME
    if path.is_dir():
        raise ConfigError(f"{path} is a directory, not a database file (--data-dir DIR for that)")
    return path


def nothing_to_read(db: Path) -> str:
    """Why a command that reads the database (``players list``, ``league standings``,
    ``export``, ``backup``) has nothing to read at ``db``, or "": no file there, or an
    empty one (0 bytes: made by ``touch``, or a copy cut short). Opened as the kiosk
    opens it, an empty file becomes a kiosk database, and is listed as a kiosk with no
    players: only the commands that add (``players add``, ``league season start``)
    make a database of it."""
    if not db.exists():
        return f"no database at {db}"
    if db.is_file() and db.stat().st_size == 0:
        return f"{db} is an empty file (0 bytes), not a kiosk database: nothing to read in it"
    return ""


def _check_service_user(folder: Path) -> None:
    """The installed kiosk's folder is its user's (mode 0750, files 0600)."""
    owner_uid = folder.stat().st_uid
    try:
        owner = pwd.getpwuid(owner_uid).pw_name
    except KeyError:
        owner = str(owner_uid)
    how = f"run it as the kiosk's user: sudo -u {owner} darts-kiosk ..."
    if os.geteuid() != owner_uid and os.geteuid() == 0:
        raise ConfigError(
            f"the kiosk's data in {folder} is {owner}'s; files root made there could not"
            f" be opened by the kiosk: {how}"
        )
    if not os.access(folder, os.R_OK | os.W_OK | os.X_OK):
        raise ConfigError(f"the kiosk's data in {folder} is {owner}'s, not yours: {how}")


def trouble(db: Path, e: BaseException) -> str:
    """What a command says when the database cannot be used. SQLite calls a healthy file
    on a read-only or full disk "not a usable SQLite database: unable to open database
    file": said so, an owner could think the league's file damaged. Said as the kiosk
    says it (``why_not_saved``), with what a command needs: SQLite writes beside the
    file even to read it."""
    from kiosk.store_open import is_busy, why_not_saved

    if is_busy(e):  # (also under the store's "not a usable SQLite database", its cause)
        # ("database is locked" alone: the owner could think the file itself locked up)
        return (
            f"{db} is busy: another program (the kiosk, a backup, another command) held"
            f" it for over {schema.BUSY_TIMEOUT_S:g} s: try again in a moment"
        )
    said = why_not_saved(db, e)
    if said == f"{db}: {e}":
        return str(e)  # (not the disk's fault: as it came, the file named in it)
    if said.startswith(f"{db.parent} cannot be written"):  # (not a full disk, a file's owner)
        return (f"{said}; check the folder's owner and permissions, or copy it to a"
                " writable disk with darts-kiosk backup PATH (it reads a read-only disk) and"
                " read the copy (--db COPY)")  # fmt: skip
    return said
