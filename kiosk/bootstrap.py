"""The one place that wires config -> devices -> store -> app. Nothing is built at
import time.

``build(options, config)`` returns a :class:`Running` kiosk (app, inbox, devices, store)
that ``run_kiosk`` loops until quit; tests build one the same way and drive ``app.run``.
The store (``kiosk.sqlite3`` in the data directory) is opened here; if it cannot be,
the kiosk still runs, on in-memory game logs, with a banner saying why results are
not being saved. An unfinished game found at start is offered for resume.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.config import Config
from kiosk.domain.darts import Dart
from kiosk.ui.context import Kiosk, Settings
from kiosk.ui.inbox import Inbox
from kiosk.ui.session import CricketSetup

log = logging.getLogger("kiosk")

WINDOW_SIZE = (1280, 720)
PORT_RETRY = 2.0  # s between looks for a board that is not plugged in yet


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


class Devices:
    """The dart sources: a serial board (found or configured), or the virtual board.

    Started after the first frame is up: finding a port can take seconds (probing for
    a HELLO) and must not delay the picture."""

    def __init__(
        self, config: Config, inbox: Inbox, *, source: str, port: str | None, windowed: bool
    ) -> None:
        self.config = config
        self.inbox = inbox
        self._source = source
        self.port = port
        self.windowed = windowed
        self._virtual_board: Any = None
        self._reader: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    @property
    def source(self) -> str:
        return self._source

    @property
    def virtual(self) -> bool:
        return self._virtual_board is not None

    def throw(self, dart: Dart) -> bool:
        vb = self._virtual_board
        if vb is None:
            return False
        try:
            vb.send(str(dart))
        except (OSError, TimeoutError) as e:
            log.warning("virtual board: %s", e)
            return False
        return True

    def start(self) -> None:
        self._stop.clear()
        if self._source == "virtual":
            self._start_virtual()
            return
        if self._source == "camera":
            # NOT DONE: the camera pipeline is its own issue; until it is wired here the
            # kiosk takes darts from the keypad only.
            log.warning("input source 'camera' is not wired into the kiosk yet: keypad only")
            return
        self._thread = threading.Thread(target=self._find_and_read, name="port-finder", daemon=True)
        self._thread.start()

    def _find_and_read(self) -> None:
        from kiosk.adapters.serial_board.ports import choose_port

        first = True
        while not self._stop.is_set():
            port = choose_port(
                self.port or self.config.input.port or None, baudrate=self.config.input.baud
            )
            if port is not None:
                with self._lock:
                    if not self._stop.is_set():
                        self._start_reader(port)
                return
            if first and self._source == "auto" and self.windowed:
                log.info("no board found: the virtual board is on screen (click to throw)")
                with self._lock:
                    if not self._stop.is_set():
                        self._start_virtual()
                return
            if first:
                self.inbox.put(_status("lost", "no board found; plug one in"))
                first = False
            self._stop.wait(PORT_RETRY)

    def _start_virtual(self) -> None:
        from kiosk.adapters.serial_board.virtual import VirtualBoard

        self._tmp = tempfile.TemporaryDirectory(prefix="darts-kiosk-")
        vb = VirtualBoard(Path(self._tmp.name) / "board")
        vb.start()
        self._virtual_board = vb
        self._start_reader(str(vb.link))

    def _start_reader(self, url: str) -> None:
        from kiosk.adapters.serial_board.reader import BoardReader

        board_map = None
        if self.config.input.board_map:
            from kiosk.adapters.serial_board import board_map as maps

            board_map = maps.load(self.config.input.board_map)
        log.info("reading the board on %s", url)
        self._reader = BoardReader(
            url,
            self.inbox.put,
            baudrate=self.config.input.baud,
            debounce_ms=self.config.input.debounce_ms,
            board_map=board_map,
        )
        self._reader.start()

    def switch(self, source: str) -> None:
        self.stop()
        self._source = source
        self.inbox.put(_status("", ""))
        self.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
        with self._lock:
            if self._reader is not None:
                self._reader.stop()
                self._reader = None
            if self._virtual_board is not None:
                self._virtual_board.close()
                self._virtual_board = None
            if self._tmp is not None:
                self._tmp.cleanup()
                self._tmp = None


def _status(state: str, detail: str) -> Any:
    from kiosk.adapters.serial_board.reader import Status

    return Status(state, detail)


# -- settings saved by the settings screen -----------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def save_settings(settings: Settings, path: Path) -> None:
    """Write the settings screen's three values into the user's settings file, keeping
    everything else in it (the file is the config's own format, re-read at start)."""
    data: dict[str, Any] = {}
    if path.is_file():
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    data["language"] = settings.language
    data.setdefault("sound", {})["volume"] = settings.volume
    data.setdefault("input", {})["source"] = settings.source
    top = [f"{k} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    out = ["# darts-kiosk settings (the settings screen rewrites this file)", *top, ""]
    for section, values in data.items():
        if isinstance(values, dict):
            out.append(f"[{section}]")
            out += [f"{k} = {_toml_value(v)}" for k, v in values.items()]
            out.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(out), encoding="utf-8")
    os.replace(tmp, path)


# -- the whole kiosk ------------------------------------------------------------------------


@dataclass
class Running:
    app: Any
    kiosk: Kiosk
    inbox: Inbox
    devices: Devices
    data_file: Path | None = None
    store: Any = None  # kiosk.adapters.store.Store, or None

    def close(self) -> None:
        self.devices.stop()
        if self.kiosk.games is not None:
            self.kiosk.games.shutdown()
        self.app.close()
        if self.store is not None:
            self.store.close()
            self.store = None


def open_store(path: Path) -> tuple[Any, str]:
    """(Store, "") or (None, why not): a missing directory is made; a file that is not
    a database, too new, or cannot be written is refused, never overwritten."""
    from kiosk.adapters.store import Store

    try:
        store = Store.open(path)
    except Exception as e:
        return None, f"{path}: {e}"
    try:
        # A write lock proves the file (and its directory, for the WAL) can be written.
        store.db.conn.execute("BEGIN IMMEDIATE")
        store.db.conn.execute("ROLLBACK")
    except Exception as e:
        store.close()
        return None, f"{path}: {e}"
    return store, ""


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


def build(options: Options, config: Config) -> Running:
    """Everything, ready to ``run``: display open, first screen up, devices starting."""
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
    devices = Devices(config, inbox, source=source, port=options.port, windowed=not fullscreen)
    assets = assets_dir()
    settings = Settings(config.language, config.sound.volume, source)
    sound = Sound(assets / "sounds", config.sound.volume)
    settings_file = options.settings_file

    def saver(s: Settings) -> None:
        if settings_file is not None:
            save_settings(s, settings_file)

    store, data_file = None, None
    down = "the store is off (--no-store)"
    if options.store:
        data_dir = options.data_dir or config.resolved_data_dir(options.env)
        from kiosk.adapters.store.schema import DB_NAME

        data_file = data_dir / DB_NAME
        store, down = open_store(data_file)
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
    )
    _wire_games(kiosk, store, down if options.store else "", config)
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
    )
    app.open()
    kiosk.stack.push(AttractScreen(kiosk))
    _offer_resume(kiosk)
    sound.start()
    devices.start()
    return Running(app, kiosk, inbox, devices, data_file, store)


def _wire_games(kiosk: Kiosk, store: Any, down: str, config: Config) -> None:
    from kiosk.ui.games import GameKeeper

    kiosk.store = store
    kiosk.store_down = down
    keeper = GameKeeper(store, translate=kiosk.t, on_problem=kiosk.set_save_problem)
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

    from kiosk.logging_setup import startup_summary

    running = build(options, config)
    startup_summary(
        config,
        running.data_file or Path("(none: results are not being saved)"),
        port=options.port,
        config_files=config_files,
    )
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
