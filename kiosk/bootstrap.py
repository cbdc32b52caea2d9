"""The one place that wires config -> devices -> store -> app. Nothing is built at
import time.

``build(options, config)`` returns a :class:`Running` kiosk (app, inbox, devices, store)
that ``run_kiosk`` loops until quit; tests build one the same way and drive ``app.run``.
The store (``kiosk.sqlite3`` in the data directory) is opened here; if it cannot be,
the kiosk still runs, on in-memory game logs, with a banner saying why results are
not being saved. An unfinished game found at start is offered for resume, or comes
back on its results (``kiosk.ui.comeback``).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.adapters import clock
from kiosk.config import Config
from kiosk.devices import Devices
from kiosk.settings_file import (
    SETTING_KEYS,
    put_right,
    read_after,
    save_cameras,
    save_settings,
)
from kiosk.store_open import StoreWatch, kept_copies, open_waiting
from kiosk.store_open import open_store as open_store  # (the tests' and tools' way in)
from kiosk.store_open import why_not_saved as why_not_saved
from kiosk.store_open import write_check as write_check
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
    # A database opened after the start, while someone used the kiosk: its unfinished
    # game is offered once the attract screen is up again (``offer_when_free``).
    offer_pending: bool = False

    def adopt(self, store: Any) -> None:
        """A database opened after the start (another program held it then, or what
        kept it from being written was put right): saved from the next game on, and an
        unfinished game offered if nothing is played."""
        from kiosk.adapters.store.check import DamageCheck

        log.info("games are saved in %s from now on", self.data_file)
        self.store = store
        self.kiosk.store = store
        self.kiosk.store_down = ""
        if self.kiosk.games is not None:
            self.kiosk.games.store = store
        self.kiosk.banner_revision += 1
        _read_last_results(self.kiosk, store)
        if self.data_file is not None and self.check is None:
            inbox = self.inbox
            self.check = DamageCheck(
                self.data_file, lambda found: inbox.put(found, source="store")
            ).start()
        self.offer_pending = True
        self.offer_when_free()

    def offer_when_free(self) -> None:
        """The unfinished game of a database opened late, offered once nobody is using
        the kiosk (the attract screen up): not over a menu someone is in."""
        top = self.kiosk.stack.top
        if self.offer_pending and top is not None and top.name == "attract":
            self.offer_pending = False
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
            save_settings(
                s, settings_file, sorted(changed), read_after(settings_file, config_files)
            )
            # A mistake in a setting just written is gone from the file: off the banner
            still = put_right(kiosk.settings_mistakes, settings_file, changed)
            if still != kiosk.settings_mistakes:
                gone = [m for m in kiosk.settings_mistakes if m not in still]
                log.info("settings mistake put right on the Settings screen: %s", "; ".join(gone))
                kiosk.settings_mistakes = still
                kiosk.banner_revision += 1  # (drawn again even where nothing else changed)

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
    store, data_file, lock = None, None, None
    down = "the store is off (--no-store)"
    kept: list[str] = []
    if options.store:
        from kiosk.adapters.store.lock import DataLock

        data_file = data_dir / DB_NAME
        lock, down = DataLock.take(data_dir)
        if not down:
            store, down, _busy = open_waiting(data_file)
        if store is None:
            log.error("results are not being saved: %s", down)
        else:
            log.info("games are saved in %s", data_file)
        if lock is not None:  # (another kiosk's: the copy may be the one it runs in)
            kept = [p.name for p in kept_copies(data_file)]
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
    kiosk.store_kept = tuple(kept)
    watch = StoreWatch()
    assert kiosk.games is not None
    kiosk.games.before_start = watch.at_game_start
    kiosk.settings_mistakes = options.settings_mistakes
    # Settings -> Find cameras: the cameras go into the settings file, and each one's
    # calibration file into the data folder (the one the service may write).
    kiosk.calibration_folder = data_dir
    if settings_file is not None:
        later = read_after(settings_file, config_files)
        kiosk.save_cameras = functools.partial(save_cameras, settings_file, later=later)
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
    if store is not None:  # (after the offer: it finishes the games over left unfinished)
        _read_last_results(kiosk, store)
    sound.start()
    devices.start()
    check = None
    if store is not None and data_file is not None:
        from kiosk.adapters.store.check import DamageCheck

        check = DamageCheck(data_file, lambda found: inbox.put(found, source="store")).start()
    running = Running(app, kiosk, inbox, devices, data_file, store, lock, check, watch)
    watch.running = running
    if store is None and data_file is not None:
        watch.retry = True  # (whatever the reason: it may be put right while the kiosk runs)
    return running


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


def _read_last_results(kiosk: Kiosk, store: Any) -> None:
    """The attract screen's last results, as they were before the restart: the games
    finished last in the database, after those played in memory meanwhile (a database
    that came back while the kiosk ran), which are newer. Read when the database is
    opened, before any game is saved into it: none is listed twice."""
    from kiosk.ui.context import RESULTS_KEPT
    from kiosk.ui.last_results import stored_results

    kiosk.results = [*kiosk.results, *stored_results(store)][:RESULTS_KEPT]


def _offer_resume(kiosk: Kiosk) -> None:
    """The unfinished game offered for resume, or the results it was cut off on."""
    from kiosk.ui.comeback import come_back

    come_back(kiosk)


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
