"""What screens share: the stack, the language, sound, the board's state, the devices.

Built by ``kiosk.bootstrap`` and handed to every screen; no globals.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kiosk.domain.darts import Dart
from kiosk.ui import i18n
from kiosk.ui.screen import ScreenStack
from kiosk.ui.session import CricketSetup
from kiosk.ui.sound import Sound

if TYPE_CHECKING:
    from kiosk.adapters.store import Store
    from kiosk.ui.formula_session import FormulaSetup
    from kiosk.ui.games import GameKeeper, GameLog

log = logging.getLogger(__name__)
# A clock this far behind the newest input saved is taken to be wrong (a flat clock
# battery); the date screen asks twice before setting one so far back.
BEHIND_SAVED = timedelta(minutes=5)


class Devices(Protocol):
    """The input side, as the screens see it (``kiosk.devices.Devices``)."""

    @property
    def source(self) -> str: ...

    @property
    def virtual(self) -> bool:
        """True when darts come from the on-screen board (clicks)."""
        ...

    @property
    def active(self) -> str:
        """What darts come from now: "serial", "camera", "virtual" or "" (none yet)."""
        ...

    def throw(self, dart: Dart) -> bool:
        """Throw a dart at the virtual board (through its pty, like a real board);
        False when there is no virtual board (the caller then enters it directly)."""
        ...

    def switch(self, source: str) -> None: ...


@dataclass
class BoardState:
    """The serial board as the banner shows it: "" (no board expected), "connected",
    "lost" or "reconnecting"."""

    state: str = ""
    detail: str = ""
    since: float = field(default_factory=time.monotonic)

    @property
    def lost(self) -> bool:
        return self.state in ("lost", "reconnecting")


@dataclass(frozen=True)
class ResultLine:
    """One finished game, for the attract screen. ``detail`` in the language the screen
    speaks when it draws it: a function of its translator (the language may change).
    ``all_lost``: no winner because every player lost (a formula duel in which nobody
    reached 0 under the distance rules), not a draw."""

    game: str
    winner: str | None
    players: tuple[str, ...]
    detail: Callable[[Callable[[str], str]], str] = lambda t: ""
    all_lost: bool = False
    team: bool = False  # ``winner`` is a team ("Anna & Chen"): "winners"
    # A draw among some of the players (a round limit's, 3 or 4 players): those level
    # at the top; () when every player drew.
    drawn: tuple[str, ...] = ()


RESULTS_KEPT = 8  # finished games kept for the attract screen's last results


@dataclass
class Settings:
    """The settings screen's values (start from the config; changed at run time)."""

    language: str = "en"
    volume: int = 70
    source: str = "auto"


class Kiosk:
    def __init__(
        self,
        *,
        settings: Settings,
        sound: Sound,
        devices: Devices,
        locale_dir: Path,
        cricket_defaults: CricketSetup | None = None,
        recorder: Callable[[str, CricketSetup], GameLog | None] | None = None,
        save_settings: Callable[[Settings], None] | None = None,
        clock_source: Callable[[], str | None] | None = None,
        set_clock: Callable[[datetime], str] | None = None,
    ) -> None:
        self.stack = ScreenStack()
        self.settings = settings
        self.sound = sound
        self.devices = devices
        self.locale_dir = locale_dir
        self.cricket_defaults = cricket_defaults or CricketSetup()
        self.new_recorder = recorder
        self.save_settings = save_settings
        # Where the system clock's time came from (``adapters.clock.clock_source``: None,
        # cannot tell). The league dates its nights by that clock.
        self.clock_source = clock_source or (lambda: None)
        # Sets the system clock (``adapters.clock.set_clock``): "" or why not. None: the
        # kiosk cannot (Settings then has no "Date and time").
        self.set_clock = set_clock
        self.clock_set_by_hand = False  # this run: the league stops asking about the date
        self._clock_logged = False
        self.board = BoardState()
        # Cameras not scoring while others do: (number from 1, "no pictures" | "not
        # calibrated" | "calibrate" (again) | "video ended").
        self.cameras_down: tuple[tuple[int, str], ...] = ()
        self.board_map_problem = ""  # the configured board map that did not load (its name)
        # ... or loaded but for these entries (its contacts as written), left out
        self.board_map_left_out: tuple[str, ...] = ()
        self.settings_mistakes: tuple[str, ...] = ()  # stepped over at start (logged)
        # Settings -> Find cameras: writes [camera] devices and calibrations into the
        # settings file (None: no settings file to write), and where the cameras'
        # calibration files go.
        self.save_cameras: Callable[[Sequence[str], Sequence[str]], None] | None = None
        self.calibration_folder: Path | None = None
        self.results: list[ResultLine] = []
        self.catalog = i18n.load(settings.language, locale_dir)
        self.running = True
        self.banner_revision = 0
        # The SQLite store (players, games, league); None when the database could
        # not be opened -- the kiosk then runs with in-memory game logs and a banner.
        self.store: Store | None = None
        self.games: GameKeeper | None = None  # opens, resumes, finishes the game logs
        # ``start_formula`` attaches the log this returns to its new session.
        self.new_formula_recorder: Callable[[FormulaSetup], GameLog] | None = None
        self.formula_defaults: FormulaSetup | None = None
        self.store_down = ""  # why there is no store (set at start, for good)
        self.store_damaged = False  # the database's quick check (from the start) failed
        self.store_moved = False  # the database file was deleted or replaced while open
        self.store_kept: tuple[str, ...] = ()  # copies an earlier run went on in (not merged)
        self.save_problem = ""  # why the last input could not be saved ("" once it can)

    def t(self, message: str) -> str:
        return self.catalog.gettext(message)

    def number(self, value: float, places: int) -> str:
        """A figure (an MPR, an average) with ``places`` decimals, with the decimal mark
        of the kiosk's language."""
        return i18n.number(value, places, self.settings.language)

    def date(self, value: date | str) -> str:
        """A date (a league night's ``2026-12-03``) as the kiosk's language writes it."""
        return i18n.date(value, self.settings.language)

    def date_time(self, moment: datetime) -> str:
        """A date and time to the minute, as the kiosk's language writes them."""
        return i18n.date_time(moment, self.settings.language)

    def clock_unset(self) -> bool:
        """Whether tonight's date may be wrong: the clock was set neither from the network
        nor by hand, and came from no clock chip, or it is behind the newest input saved
        (a chip whose battery ran down); logged the first time."""
        if self.clock_set_by_hand:
            return False
        source = self.clock_source()
        if source == "network":
            return False
        behind = source != "unset" and self._behind_saved()
        if source != "unset" and not behind:
            return False
        if not self._clock_logged:
            self._clock_logged = True
            log.warning(
                "the clock may be wrong (%s): league nights are dated by it (now %s);"
                " connect the kiosk to a network, or set it in Settings: Date and time",
                "behind the newest game saved" if behind else "not set from the network",
                time.strftime("%Y-%m-%d %H:%M"),
            )
        return True

    def newest_saved(self) -> datetime | None:
        """When the newest input was saved (UTC), if the store can tell."""
        store = self.store
        try:
            latest = store.games.latest_stamp() if store is not None else None
            return datetime.fromisoformat(latest) if latest else None
        except Exception:  # a damaged database says nothing about the clock
            return None

    def _behind_saved(self) -> bool:
        newest = self.newest_saved()
        return newest is not None and datetime.now(UTC) < newest - BEHIND_SAVED

    def set_language(self, language: str) -> None:
        self.settings.language = language
        self.catalog = i18n.load(language, locale_dir=self.locale_dir)

    def set_board(self, state: str, detail: str = "") -> None:
        self.board = BoardState(state, detail)
        self.banner_revision += 1

    def set_cameras_down(self, cameras: tuple[tuple[int, str], ...]) -> None:
        if cameras != self.cameras_down:
            self.cameras_down = tuple(cameras)
            self.banner_revision += 1

    def set_board_map_problem(self, name: str, left_out: tuple[str, ...] = ()) -> None:
        """``name``: the board map that did not load; with ``left_out``, that loaded
        but for those entries."""
        if (name, left_out) != (self.board_map_problem, self.board_map_left_out):
            self.board_map_problem, self.board_map_left_out = name, tuple(left_out)
            self.banner_revision += 1

    def set_store_damaged(self) -> None:
        if not self.store_damaged:
            self.store_damaged = True
            self.banner_revision += 1

    def set_store_moved(self) -> None:
        if not self.store_moved:
            self.store_moved = True
            self.banner_revision += 1

    def set_save_problem(self, reason: str) -> None:
        """The "results are not being saved" banner: ``reason``, or gone with ""."""
        if reason != self.save_problem:
            self.save_problem = reason
            self.banner_revision += 1

    @property
    def not_saved_reason(self) -> str:
        """Why results are not being saved ("" when they are): the banner's text."""
        failure = self.games.failure() if self.games is not None else ""
        return failure or self.save_problem or self.store_down

    def add_result(self, line: ResultLine) -> None:
        self.results.insert(0, line)
        del self.results[RESULTS_KEPT:]

    def quit(self) -> None:
        self.running = False
