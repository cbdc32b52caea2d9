"""League night: tonight's and the season's standings, the players, a rated Cricket game.

Everything here reads and writes ``kiosk.store``; when the database could not be
opened (``store`` is None) the menu says that results are not being saved and its
items are greyed out (Cricket from the main menu still plays, unsaved). Store calls go
through :func:`guarded`, so a refused operation or a database error is a message on
screen, never a crash.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from kiosk.adapters.store.league import Season
from kiosk.ui import theme
from kiosk.ui.screen import Screen
from kiosk.ui.screens.menu import Item, MenuScreen, centred

if TYPE_CHECKING:
    from kiosk.adapters.store import Player, Store

log = logging.getLogger("kiosk.league")
T = TypeVar("T")

NOT_SAVED = "Results are not being saved: the database could not be opened"


def store_of(kiosk: Any) -> Store | None:
    return getattr(kiosk, "store", None)


def store_or_say(screen: Any) -> Store | None:
    """The store, clearing ``screen.message``; None with no database, and the message
    says that results are not being saved."""
    store = store_of(screen.kiosk)
    screen.message = "" if store is not None else screen.t(NOT_SAVED)
    return store


def reason(screen: Any, error: Exception) -> str:
    """A refusal from the store, in the kiosk's language."""
    t, text = screen.t, str(error)
    # The store's refusals are English sentences (kiosk.adapters.store); known ones
    # are shown translated, anything else as it is.
    if isinstance(error, sqlite3.Error):
        return str(t("The database did not answer: nothing was changed"))
    if "already a player called" in text:
        return str(t("There is already a player with this name"))
    if "played each other" in text:
        return str(t("They played in the same game: two players, not one"))
    if "not finished yet" in text:
        return str(t("In a game that is not finished yet"))
    if "cannot be empty" in text:
        return str(t("Type a name first"))
    if "at most" in text:
        return str(t("The name is too long"))
    if "no player called" in text:
        return str(t("No such player"))
    return text


def guarded(screen: Any, fn: Callable[[], T], default: T) -> T:
    """``fn()``, or ``default`` with the reason in ``screen.message`` (and the log)."""
    try:
        return fn()
    except (sqlite3.Error, ValueError) as e:  # the store's errors are ValueErrors
        log.warning("store: %s", e)
        screen.message = reason(screen, e)
        screen.dirty = True
        return default


def roster(screen: Any, include_retired: bool = False) -> list[Player]:
    """The saved players by name ([] with no database, or a message on error)."""
    store = store_of(screen.kiosk)
    if store is None:
        return []
    empty: list[Player] = []
    return guarded(screen, lambda: store.players.roster(include_retired), empty)


class StorePage(Screen):
    """A page of what the store holds, read again (``load``) each time it comes on top;
    ``message`` says why something is missing (no database, a refusal)."""

    idles_to_attract = True

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.message = ""

    def on_enter(self) -> None:
        super().on_enter()
        self.load()

    def load(self) -> None:
        raise NotImplementedError


class StoreMenu(MenuScreen):
    """A menu that also shows a good ``notice`` ("Added: Ann") until the next key;
    ``message`` (from ``MenuScreen``) stays the red one for refusals."""

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.notice = ""

    def process_event(self, event: Any) -> None:
        self.notice = ""
        super().process_event(event)

    def draw(self, p: theme.Painter) -> None:
        super().draw(p)
        if self.notice and not self.message:
            centred(p, self.notice, 3.6, 90.5, theme.GOOD, anchor="center", bold=True, width=0.94)


# A Pi without network or battery clock may start tonight on an old date (``adapters.clock``)
CLOCK_UNSET = "Clock not set from the network: is tonight's date right?"
CLOCK_HELP = "Set it in Settings: Date and time, or connect the kiosk to the network"


class LeagueMenu(StoreMenu):
    name = "league-menu"
    title = "League night"

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.heading = ""
        self.clock_unset = False

    def on_enter(self) -> None:
        super().on_enter()
        store = store_of(self.kiosk)
        self.heading = ""
        self.clock_unset = self.kiosk.clock_unset()
        if store is None:
            return

        def tonight() -> str:
            night, name = store.league.tonight_as_is()
            day = self.kiosk.date(night.date)
            return f"{self.t('Tonight')}: {day}   ·   {self.t('Season')}: {name}"

        self.heading = guarded(self, tonight, "")

    def items(self) -> list[Item]:
        saved = store_of(self.kiosk) is not None
        return [
            Item("Start a rated Cricket game", self.play, enabled=saved, note="not saved"),
            Item("Tonight's standings", self.tonight, enabled=saved, note="not saved"),
            Item("Season standings", self.season, enabled=saved, note="not saved"),
            Item("Players", self.players, enabled=saved, note="not saved"),
            # (a league's other rated game, found until now under Formula darts only)
            Item("Formula darts qualification", self.qualify, enabled=saved, note="not saved"),
        ]

    def qualify(self) -> None:
        from kiosk.ui.screens.formula import FormulaMenu

        FormulaMenu(self.kiosk).start("qualification", 1)  # its players screen, rated

    def play(self) -> None:
        from kiosk.ui.screens.cricket_menu import CricketMenu

        self.kiosk.stack.push(CricketMenu(self.kiosk, rated=True))

    def tonight(self) -> None:
        from kiosk.ui.screens.standings import StandingsScreen

        store = store_of(self.kiosk)
        if store is not None:
            found = guarded(self, store.league.tonight_as_is, None)
            if found is not None:
                self.kiosk.stack.push(StandingsScreen(self.kiosk, night=found[0]))

    def season(self) -> None:
        from kiosk.ui.screens.standings import StandingsScreen

        store = store_of(self.kiosk)
        if store is not None:
            found = guarded(self, store.league.tonight_as_is, None)
            if found is not None:
                night, name = found
                season = Season(night.season_id, name)  # (id 0: none yet, no games)
                self.kiosk.stack.push(StandingsScreen(self.kiosk, season=season))

    def players(self) -> None:
        from kiosk.ui.screens.players import PlayersScreen

        self.kiosk.stack.push(PlayersScreen(self.kiosk))

    def draw(self, p: theme.Painter) -> None:
        super().draw(p)
        if store_of(self.kiosk) is None:
            centred(p, self.t(NOT_SAVED), 3.6, 15.5, theme.BAD, bold=True, width=0.94)
        elif self.heading:
            centred(p, self.heading, 3.6, 16, theme.TEXT)
            if self.clock_unset:
                centred(p, self.t(CLOCK_UNSET), 3.6, 80, theme.ACCENT, bold=True, width=0.94)
                centred(p, self.t(CLOCK_HELP), 3.0, 85.5, theme.TEXT, width=0.94)
