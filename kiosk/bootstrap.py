"""The one place that wires config -> devices -> store -> app. Nothing is built at
import time.

``build(options, config)`` returns a :class:`Running` kiosk (app, inbox, devices, store)
that ``run_kiosk`` loops until quit; tests build one the same way and drive ``app.run``.
The store (``kiosk.sqlite3`` in the data directory) is opened here; if it cannot be,
the kiosk still runs, on in-memory game logs, with a banner saying why results are
not being saved. An unfinished game found at start is offered for resume.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import os
import pwd
import shutil
import sqlite3
import stat
import time
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.adapters import clock
from kiosk.config import Config
from kiosk.devices import Devices
from kiosk.ui.context import Kiosk, Settings
from kiosk.ui.inbox import Inbox
from kiosk.ui.session import CricketSetup

log = logging.getLogger("kiosk")

WINDOW_SIZE = (1280, 720)


@dataclass
class Options:
    """What the command line can override."""

    window: bool = False
    fullscreen: bool = False
    size: tuple[int, int] | None = None
    port: str | None = None
    virtual: bool = False
    verbose: bool = False
    pump_hz: float = 30.0
    settings_file: Path | None = None  # where the settings screen saves (None: not saved)
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    data_dir: Path | None = None  # None: the config's (``Config.resolved_data_dir``)
    store: bool = True  # False: no database at all, games in memory (the bench compares)
    trace: bool = False  # log "shown game=.. seq=.." after each flip that shows an input
    # Settings -> Date and time sets the system clock: None = only as the systemd
    # service (``$NOTIFY_SOCKET``: a Pi behind a bar), never from a desk or a test run
    # (as root there it would set the machine's own clock); True/False: always/never.
    clock_setting: bool | None = None
    # Settings the kiosk stepped over at start (``load_config``'s ``mistakes``): a banner.
    settings_mistakes: tuple[str, ...] = ()


def _clock_setting(options: Options) -> bool:
    if options.clock_setting is not None:
        return options.clock_setting
    return bool(options.env.get("NOTIFY_SOCKET"))


def display_mode(options: Options, config: Config) -> tuple[bool, tuple[int, int]]:
    """(fullscreen, size): fullscreen on a kiosk console (KMS/DRM), a window with
    ``--window``, with ``fullscreen = false``, or inside a desktop session."""
    desktop = bool(options.env.get("DISPLAY") or options.env.get("WAYLAND_DISPLAY"))
    if options.window:
        fullscreen = False
    elif options.fullscreen:
        fullscreen = True
    else:
        fullscreen = config.display.fullscreen and not desktop
    if options.size is not None:
        return fullscreen, options.size
    if config.display.width and config.display.height:
        return fullscreen, (config.display.width, config.display.height)
    return fullscreen, ((0, 0) if fullscreen else WINDOW_SIZE)


# -- settings saved by the settings screen -----------------------------------------------


def _toml_value(value: Any) -> str:
    """``value`` as TOML writes it: what the file held (a setting the kiosk stepped over
    too, an inline table, a date) is written back as it was read."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return _toml_string(str(value))


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(
        f"\\u{ord(c):04x}" if (c < " " and c != "\t") or c == "\x7f" else c for c in escaped
    )
    return f'"{escaped}"'


def _toml_key(key: str) -> str:
    """A bare key (``volume``), or quoted when it is not one (``"sound volume"``)."""
    return (
        key
        if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
        else _toml_string(key)
    )


SETTING_KEYS = {"language": (None, "language"), "volume": ("sound", "volume"),
                "source": ("input", "source")}  # fmt: skip


def save_settings(settings: Settings, path: Path, only: Collection[str] | None = None) -> None:
    """Write the settings screen's values (``only`` those named: the ones changed on the
    screen, not one given on the command line such as ``--virtual``) into the user's
    settings file, keeping everything else in it (the file is the config's own format,
    re-read at start). ``ValueError`` if the file is there and not TOML (edited by hand
    while the kiosk runs): left as it is."""
    data: dict[str, Any] = {}
    if path.is_file():
        try:
            with path.open("rb") as fh:
                data = tomllib.load(fh)
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise ValueError(f"{path} is not valid TOML ({e}): put it right first") from None
    for name in SETTING_KEYS if only is None else only:
        section, key = SETTING_KEYS[name]
        if section is None:
            data[key] = getattr(settings, name)
            continue
        table = data.get(section)
        if not isinstance(table, dict):  # ``input = "virtual"``: the short form of source
            table = {"source": table} if section == "input" and isinstance(table, str) else {}
            data[section] = table
        table[key] = getattr(settings, name)
    top = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    out = ["# darts-kiosk settings (the settings screen rewrites this file)", *top, ""]
    for section, values in data.items():
        if isinstance(values, dict):
            out.append(f"[{_toml_key(section)}]")
            out += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in values.items()]
            out.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    # On the disk before it replaces the old file, and the rename too: a power cut
    # leaves the old settings or the new, never a torn file that stops the next start.
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write("\n".join(out))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


# -- the whole kiosk ------------------------------------------------------------------------


@dataclass
class Running:
    app: Any
    kiosk: Kiosk
    inbox: Inbox
    devices: Devices
    data_file: Path | None = None
    store: Any = None  # kiosk.adapters.store.Store, or None
    lock: Any = None  # kiosk.adapters.store.lock.DataLock: this kiosk's data folder
    check: Any = None  # kiosk.adapters.store.check.DamageCheck, running from the start
    watch: Any = None  # StoreWatch: the database looked after from the loop

    def adopt(self, store: Any) -> None:
        """A database opened after the start (another program held it then): saved
        from the next game on, and an unfinished game offered if nothing is played."""
        from kiosk.adapters.store.check import DamageCheck

        log.info("games are saved in %s from now on (the other program let it go)",
                 self.data_file)  # fmt: skip
        self.store = store
        self.kiosk.store = store
        self.kiosk.store_down = ""
        if self.kiosk.games is not None:
            self.kiosk.games.store = store
        self.kiosk.banner_revision += 1
        if self.data_file is not None and self.check is None:
            inbox = self.inbox
            self.check = DamageCheck(
                self.data_file, lambda found: inbox.put(found, source="store")
            ).start()
        top = self.kiosk.stack.top
        if top is not None and top.name == "attract":
            _offer_resume(self.kiosk)

    def close(self) -> None:
        self.devices.stop()
        if self.check is not None:
            self.check.stop()
        if self.kiosk.games is not None:
            self.kiosk.games.shutdown()
        self.app.close()
        if self.watch is not None:
            self.watch.look()  # (a database deleted or replaced: the last darts kept too)
        if self.store is not None:
            self.store.close()
            self.store = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None


STORE_WAIT_S = 5.0  # at start, a database another program holds is tried this long
STORE_RETRY_S = 15.0  # then again this often, while no game is in play, and at a game's start


def open_store(path: Path, wait: float | None = None) -> tuple[Any, str]:
    """(Store, "") or (None, why not): a missing directory is made; a file that is not
    a database, too new, or cannot be written is refused, never overwritten. A file
    another program holds (a command's transaction) is tried again for ``wait`` s
    (default ``STORE_WAIT_S``): refused at once, saving was off for the whole night."""
    store, why, _busy = _open_waiting(path, wait)
    return store, why


def _open_waiting(path: Path, wait: float | None = None) -> tuple[Any, str, bool]:
    """``open_store``, and whether the file was still held by another program."""
    from kiosk.adapters.store import schema

    deadline = time.monotonic() + (STORE_WAIT_S if wait is None else wait)
    tries = 0
    while True:
        store, why, busy = _open_store(path, schema.KIOSK_BUSY_TIMEOUT_S)
        tries += 1
        if store is not None or not busy or time.monotonic() >= deadline:
            if store is not None and tries > 1:
                log.info("the database was let go: opened after %d tries", tries)
            return store, why, busy
        if tries == 1:
            log.warning("another program holds the database (%s): trying again", why)
        time.sleep(0.2)


def _open_store(path: Path, busy_timeout: float) -> tuple[Any, str, bool]:
    """(Store, "", False) or (None, why not, whether another program held the file)."""
    from kiosk.adapters.store import Store

    try:
        store = Store.open(path, busy_timeout=busy_timeout)
    except Exception as e:
        return None, why_not_saved(path, e), _busy(e)
    try:
        write_check(store.db.conn)
    except Exception as e:
        why = why_not_saved(path, e)
        if not _busy(e):
            _unfinished_kept(store)
        store.close()
        return None, why, _busy(e)
    return store, "", False


def _busy(e: BaseException | None) -> bool:
    """SQLite's "database is locked": another connection holds the write lock (also
    under the store's own error, which keeps SQLite's as its cause)."""
    while e is not None:
        if getattr(e, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return True
        e = e.__cause__
    return False


def write_check(conn: sqlite3.Connection) -> None:
    """Raises what SQLite says if this connection cannot write the database. A file the
    kiosk's user may read but not write (``sudo cp`` of a backup: root's, 0644), or
    its ``-wal`` or ``-shm`` so, SQLite opens read-only without a word; ``BEGIN
    IMMEDIATE`` then takes no write lock and fails nothing, and every dart after is
    refused. So a write, taken back: ``user_version`` set to the value it has (page 1
    changed in this transaction only; the rollback leaves the file as it was)."""
    from kiosk.adapters.store.schema import user_version

    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version = {user_version(conn)}")
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def _unfinished_kept(store: Any) -> None:
    """Logs the unfinished game kept in a database the kiosk may not write: not offered
    (its darts could not be saved), and offered again once the file is put right."""
    try:
        record = store.unfinished_game()
    except Exception:
        return
    if record is not None:
        log.warning(
            "unfinished game %d (%s) is kept in the database, not offered: it is offered"
            " again at the first start that can save its darts",
            record.id,
            record.kind,
        )


# SQLite's words for a file it could not write or open, whatever the file holds.
_DISK_TROUBLE = ("unable to open", "disk i/o error", "disk is full", "readonly", "read-only")
FULL_BYTES = 1 << 20  # less free space than this is a full disk


def why_not_saved(
    path: Path, e: BaseException, *, free: int | None = None, writable: bool | None = None
) -> str:
    """What the banner and the log say when the database cannot be used. SQLite calls a
    healthy file on a read-only or full disk "not a usable database: unable to open" or
    "disk I/O error"; said so, an owner could delete a good database. ``free`` and
    ``writable`` (of the folder) are measured when not given."""
    text = f"{path}: {e}"
    if not any(word in str(e).lower() for word in _DISK_TROUBLE):
        return text
    folder = path.parent
    if free is None:
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            free = None
    if writable is None:
        writable = not folder.is_dir() or os.access(folder, os.W_OK | os.X_OK, effective_ids=True)
    if free is not None and free < FULL_BYTES:
        return (f"the disk holding {folder} is full ({free // 1024} KB free): free some"
                " space (the database file is not the problem)")  # fmt: skip
    if not writable:
        return (f"{folder} cannot be written (a read-only disk, or the folder is not the"
                " kiosk's): the database file is not the problem")  # fmt: skip
    if any(word in str(e).lower() for word in ("readonly", "read-only")):
        return _read_only_file(path, e)
    return text


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _read_only_file(path: Path, e: BaseException) -> str:
    """A database SQLite opened read-only in a folder the kiosk may write: the file, or
    its ``-wal`` or ``-shm``, is not the kiosk user's to write (``sudo cp`` of a
    backup leaves it root's). Named, with its owner and mode: the disk is not full nor
    read-only, and the file is not damaged."""
    me = _user(os.geteuid())
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            st = each.stat()
        except OSError:
            continue
        if not os.access(each, os.W_OK, effective_ids=True):
            return (
                f"{each} cannot be written by {me}, the user the kiosk runs as (it is"
                f" {_user(st.st_uid)}'s, mode {stat.S_IMODE(st.st_mode):04o}), so SQLite"
                f" opened the database read-only: give the files back to {me} (sudo chown"
                f" {me}: {path}*) or check their permissions; the database is not damaged"
            )
    return (
        f"{path} cannot be written by {me}, the user the kiosk runs as ({e}): check the"
        " owner and permissions of it and its -wal and -shm files"
    )


def formula_defaults(config: Config) -> Any:
    """The formula menu's starting choice from ``[formula]``: the rule set, and the
    parameters that differ from that rule set's own."""
    from kiosk.domain.formula.rules import rules_by_name
    from kiosk.ui.formula_session import RULE_FIELDS, FormulaSetup

    f = config.formula
    base = rules_by_name(f.rules)
    overrides = tuple(
        (k, int(getattr(f, k))) for k in RULE_FIELDS if getattr(f, k) != getattr(base, k)
    )
    return FormulaSetup(rules=f.rules, overrides=overrides)


def build(options: Options, config: Config, config_files: tuple[Path, ...] = ()) -> Running:
    """Everything, ready to ``run``: display open, first screen up, devices starting.
    The start-up summary is logged before the display is opened: when that fails (a
    black screen), the journal still says what the kiosk was to do."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from kiosk.ui.app import App
    from kiosk.ui.games import FrameWatch
    from kiosk.ui.screens.attract import AttractScreen
    from kiosk.ui.sound import Sound
    from kiosk.ui.theme import assets_dir

    inbox = Inbox()
    fullscreen, size = display_mode(options, config)
    if options.virtual:
        source = "virtual"
    elif options.port:
        source = "serial"
    else:
        source = config.input.source
    devices = Devices(config, inbox, source=source, port=options.port)
    assets = assets_dir()
    settings = Settings(config.language, config.sound.volume, source)
    sound = Sound(assets / "sounds", config.sound.volume)
    settings_file = options.settings_file

    at_start = dataclasses.replace(settings)
    changed: set[str] = set()  # changed on the screen this run (if changed back since, too)

    def saver(s: Settings) -> None:
        # Only what was changed on the screen: a source given on the command line
        # (--virtual, --port) is for this run, not for the file.
        changed.update(k for k in SETTING_KEYS if getattr(s, k) != getattr(at_start, k))
        if settings_file is not None and changed:
            save_settings(s, settings_file, sorted(changed))

    from kiosk.adapters.store.schema import DB_NAME
    from kiosk.logging_setup import startup_summary

    data_dir = options.data_dir or config.resolved_data_dir(options.env)
    startup_summary(
        config,
        data_dir / DB_NAME if options.store else Path("(none: the store is off)"),
        port=options.port,
        source=devices.source,
        config_files=config_files,
    )
    store, data_file, lock, busy = None, None, None, False
    down = "the store is off (--no-store)"
    if options.store:
        from kiosk.adapters.store.lock import DataLock

        data_file = data_dir / DB_NAME
        lock, down = DataLock.take(data_dir)
        if not down:
            store, down, busy = _open_waiting(data_file)
        if store is None:
            log.error("results are not being saved: %s", down)
        else:
            log.info("games are saved in %s", data_file)
    kiosk = Kiosk(
        settings=settings,
        sound=sound,
        devices=devices,
        locale_dir=assets / "locale",
        cricket_defaults=CricketSetup(
            variant=config.cricket.variant,
            round_limit=config.cricket.round_limit,
            single_bull=config.cricket.single_bull,
        ),
        save_settings=saver,
        clock_source=clock.clock_source,
        set_clock=clock.set_clock if _clock_setting(options) else None,
    )
    _wire_games(kiosk, store, down if options.store else "", config)
    watch = StoreWatch()
    assert kiosk.games is not None
    kiosk.games.before_start = watch.at_game_start
    kiosk.settings_mistakes = options.settings_mistakes
    notifier = _notifier(options.env)
    app = App(
        kiosk,
        inbox,
        size=size,
        fullscreen=fullscreen,
        rotation=config.display.rotation,
        pump_hz=options.pump_hz,
        notifier=notifier,
        frame_listener=FrameWatch(kiosk, notifier, options.trace),
        tick=watch.tick,
    )
    app.open()
    kiosk.stack.push(AttractScreen(kiosk))
    _offer_resume(kiosk)
    sound.start()
    devices.start()
    check = None
    if store is not None and data_file is not None:
        from kiosk.adapters.store.check import DamageCheck

        check = DamageCheck(data_file, lambda found: inbox.put(found, source="store")).start()
    running = Running(app, kiosk, inbox, devices, data_file, store, lock, check, watch)
    watch.running = running
    if store is None and busy and data_file is not None:
        watch.retry = True
    return running


STORE_LOOK_S = 60.0  # how often the database's files are looked at (deleted, replaced?)


class StoreWatch:
    """The database, looked after from the display loop (``tick``, every pass: cheap)
    and at each game's start (``GameKeeper.before_start``):

    - a database another program held at the start is tried again, every
      ``STORE_RETRY_S`` while no game is in play (a game played in memory stays so:
      it is not split between memory and the file);
    - the open database's files are looked at every ``STORE_LOOK_S`` and at the end:
      deleted or replaced while open (``Store.file_moved``), the kiosk had gone on
      committing into a file the next start does not see. Now it lets that file go
      and goes on in memory on a copy of it (``Store.detach``: the game in play, its
      undo and its result go on as they were), and keeps what it saves in a file
      beside the path (``kiosk.sqlite3.kept-<time>``), written again at each look
      that finds something new and at the end; never over the file now at the path,
      which may be a backup put there on purpose. The banner and the log say so."""

    def __init__(self) -> None:
        self.running: Running | None = None
        self.retry = False
        self.moved = ""  # what became of the database's files ("" while all is well)
        self.kept: Path | None = None  # the copy of what the kiosk has open
        self._kept_changes = -1
        self._next = 0.0

    def tick(self, now: float) -> None:
        if now < self._next or self.running is None:
            return
        running = self.running
        if self.retry:
            self._next = now + STORE_RETRY_S
            if running.kiosk.games is not None and not running.kiosk.games.open:
                self._try_again(running)
            return
        self._next = now + STORE_LOOK_S
        self.look()

    def at_game_start(self) -> None:
        if self.running is None:
            return
        if self.retry:
            self._try_again(self.running)
        else:
            self.look()

    def look(self) -> None:
        """Whether the database's files are still at its path; if not, said and copied."""
        running = self.running
        store = None if running is None else running.store
        if store is None or running is None:
            return
        if not self.moved:
            try:
                self.moved = store.file_moved()
            except Exception as e:  # (a look must never stop the loop)
                log.warning("the database's files could not be looked at: %s", e)
            if not self.moved:
                return
            path = store.path
            self.kept = path.with_name(f"{path.name}.kept-{datetime.datetime.now():%Y%m%d-%H%M%S}")
            log.error(
                "%s: the next start would not see what the kiosk saved there. It goes on in"
                " memory, and keeps its games in %s (written again each minute something"
                " new is saved, and at the end; a power cut loses what was not). To go on"
                " with them: stop the kiosk (sudo systemctl stop darts-kiosk), put the copy"
                " in place of %s (its -wal and -shm files removed), start it. The file now"
                " at %s is left as it is",
                self.moved,
                self.kept,
                path.name,
                path,
            )
            running.kiosk.set_store_moved()
        if store.path is not None:  # not let go yet (``detach`` forgets the path)
            try:
                store.detach()
            except Exception as e:  # (goes on into the file it has open: copied all the same)
                log.error("the moved database could not be let go (tried again): %s", e)
        self.keep_copy()

    def keep_copy(self) -> None:
        """The copy of what the kiosk has open, made again if anything was saved since."""
        running = self.running
        store = None if running is None else running.store
        if store is None or self.kept is None:
            return
        changes = store.db.conn.total_changes
        if changes == self._kept_changes:
            return
        try:
            store.keep_copy(self.kept)
        except Exception as e:
            log.error("the copy %s could not be made: %s", self.kept, e)
            return
        self._kept_changes = changes
        log.info("the games the kiosk has open are copied to %s", self.kept)

    def _try_again(self, running: Running) -> None:
        from kiosk.adapters.store import schema

        assert running.data_file is not None
        # No wait: the loop is not held while the other program holds the file.
        store, why, busy = _open_store(running.data_file, 0.0)
        if store is None:
            if not busy:  # something else now (read-only...): said, and left to a restart
                self.retry = False
                log.error("results are not being saved: %s", why)
                running.kiosk.store_down = why
                running.kiosk.banner_revision += 1
            return
        self.retry = False
        store.db.conn.execute(f"PRAGMA busy_timeout = {int(schema.KIOSK_BUSY_TIMEOUT_S * 1000)}")
        running.adopt(store)


def _wire_games(kiosk: Kiosk, store: Any, down: str, config: Config) -> None:
    from kiosk.ui.games import GameKeeper

    kiosk.store = store
    kiosk.store_down = down
    keeper = GameKeeper(store, translate=kiosk.t, on_problem=kiosk.set_save_problem,
                        locale_dir=kiosk.locale_dir)  # fmt: skip
    kiosk.games = keeper
    kiosk.new_recorder = keeper.cricket_log
    kiosk.new_formula_recorder = keeper.formula_log
    kiosk.formula_defaults = formula_defaults(config)


def _offer_resume(kiosk: Kiosk) -> None:
    from kiosk.ui.screens.resume import ResumeScreen

    assert kiosk.games is not None
    record = kiosk.games.unfinished()
    if record is not None:
        log.info("unfinished game %d (%s) offered for resume", record.id, record.kind)
        kiosk.stack.push(ResumeScreen(kiosk, record))


def _notifier(env: Mapping[str, str]) -> Any:
    try:
        from kiosk.adapters.notify import Notifier
    except ImportError:
        return None
    return Notifier(env)


def run_kiosk(options: Options, config: Config, config_files: tuple[Path, ...] = ()) -> int:
    import signal

    running = build(options, config, config_files)
    signal.signal(signal.SIGTERM, lambda *_: running.kiosk.quit())
    try:
        running.app.run()
    except KeyboardInterrupt:
        pass
    finally:
        if running.app.notifier is not None:
            running.app.notifier.stopping()
        running.close()
    log.info("darts-kiosk stopped")
    return 0
