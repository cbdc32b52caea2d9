"""Who plays: a place per player (2-4, or two teams of two), each a saved player, a new
player typed with the letter picker, or -- not in a rated game -- "Player N".

Choosing a place opens the list of saved players (retired ones and those already
placed left out); typing a letter on a keyboard on a place opens the name entry with
that letter. A game of saved players is a league (rated) game, decided where its log
opens (``kiosk.ui.games``); from the league menu the game starts only when every place
holds a saved player.
"""

from __future__ import annotations

import dataclasses
import re
import sqlite3
from collections.abc import Callable
from functools import partial
from typing import Any

from kiosk.adapters.keypad import KeyAction, typed_text
from kiosk.domain.names import fold
from kiosk.ui.i18n import fill, in_every_language
from kiosk.ui.screens.league import StoreMenu, guarded, reason, roster, store_of
from kiosk.ui.screens.menu import Item
from kiosk.ui.screens.name_entry import NameEntry
from kiosk.ui.screens.players import PagedMenu


def generic(kiosk: Any, seat: int) -> str:
    return f"{kiosk.t('Player')} {seat + 1}"


def _in_language(kiosk: Any, name: str) -> str:
    """A default name ("Player 2", or "Гравець 2" from before the language changed) in
    the kiosk's language now; any other name as it is."""
    m = re.fullmatch(r"(.+) (\d+)", name)
    if m and m[1] in in_every_language("Player", kiosk.locale_dir):
        return f"{kiosk.t('Player')} {m[2]}"
    return name


class PlayerPick(StoreMenu):
    name = "players"
    title = "Players"

    def __init__(
        self,
        kiosk: Any,
        setup: Any,
        count: int,
        *,
        rated: bool = False,
        on_start: Callable[[tuple[str, ...]], None] | None = None,
        subtitle: str = "",
    ) -> None:
        """``count``: places (1-4); ``setup.teams`` pairs them A B A B. ``on_start``: what
        "Start game" does with the names (default: a Cricket game of ``setup``)."""
        super().__init__(kiosk)
        self.setup = setup
        self.rated = rated
        self.on_start = on_start
        if rated:
            self.title = "League game: players"
            self.subtitle = "Saved players only: the result counts for the league"
        else:
            self.subtitle = "Saved players play for the league; Player 1-4 do not count"
        if subtitle:
            self.subtitle = subtitle
        if store_of(kiosk) is None:
            from kiosk.ui.screens.league import NOT_SAVED

            self.subtitle = NOT_SAVED
        # The defaults' "Player 2" (English, from the config) in the kiosk's language
        names = [_in_language(kiosk, n) for n in setup.names[:count]]
        known = self._known(names)
        seats: list[str | None] = []
        for i in range(count):
            name = names[i] if i < len(names) else None
            if rated and name not in known:
                name = None
            seats.append(name or (None if rated else generic(kiosk, i)))
        self.seats = seats
        self.selected = count if all(seats) else seats.index(None)
        self._new_asked: str | None = None  # a new player's name, asked about once

    def _known(self, names: list[str]) -> set[str]:
        store = store_of(self.kiosk)
        if store is None:
            return set()
        return {p.name for p in roster(self)} & set(names)

    def items(self) -> list[Item]:
        out = []
        for i, name in enumerate(self.seats):
            label = name or "—"
            if self.setup.teams:
                label = f"{label}  ({self.t('Team')} {'AB'[i % 2]})"
            out.append(Item(label, partial(self.choose_seat, i), raw_label=True))
        out.append(Item("Start game", self.start))
        return out

    def key(self, event: KeyAction, items: list[Item]) -> None:
        letter = typed_text(event).isalpha()
        if letter and self.selected < len(self.seats):
            self.type_name(self.selected, typed_text(event))
        elif letter and (seat := self._open_seat()) is not None:
            # A name typed on a keyboard with "Start game" chosen: for the first place
            # no player has taken yet (its first letter was lost, the next moved on).
            self.selected = seat
            self.type_name(seat, typed_text(event))
        else:
            super().key(event, items)

    def _open_seat(self) -> int | None:
        """The first place empty or held by a default name ("Player 2"), or None."""
        for seat, name in enumerate(self.seats):
            if not name or name == generic(self.kiosk, seat):
                return seat
        return None

    # -- filling a place ---------------------------------------------------------------

    def choose_seat(self, seat: int) -> None:
        self.kiosk.stack.push(SeatChooser(self.kiosk, self, seat))

    def taken(self, seat: int) -> set[str]:
        return {fold(n) for i, n in enumerate(self.seats) if n and i != seat}

    def place(self, seat: int, name: str) -> str | None:
        """Puts ``name`` in ``seat``; a message if it cannot go there."""
        if fold(name) in self.taken(seat):
            return self.t("Already playing in this game")
        self.seats[seat] = name
        empty = [i for i, n in enumerate(self.seats) if not n]
        self.selected = empty[0] if empty else len(self.seats)
        self.dirty = True
        return None

    def type_name(self, seat: int, first: str = "") -> None:
        title = self.t("New player")
        self.kiosk.stack.push(
            NameEntry(self.kiosk, title, lambda name: self._typed(seat, name), first.upper())
        )

    def _typed(self, seat: int, name: str) -> str | None:
        """A typed name: the saved player of that name, else a new saved player (or,
        with no database, just the name for this game)."""
        store = store_of(self.kiosk)
        if store is not None:
            try:
                found = store.players.find(name)
                if found is None and fold(name) not in self.taken(seat):
                    if self._new_asked != name:
                        # A typo or another spelling ("Natalia" for "Наталія") would
                        # split a player's league record in two: a new one is asked once.
                        self._new_asked = name
                        return self.t("{} is not a saved player: Enter again to add").format(name)
                    found = store.players.add(name)
            except (ValueError, sqlite3.Error) as e:
                return reason(self, e)
            if found is not None:
                name = found.name
        problem = self.place(seat, name)
        if problem:
            return problem
        stack = self.kiosk.stack
        while stack.top is not self and len(stack) > 1:
            stack.pop()
        return None

    # -- starting ----------------------------------------------------------------------

    def start(self) -> None:
        from kiosk.ui.screens.cricket_menu import start_cricket

        if not all(self.seats):
            self.message = self.t("Choose a player for every place")
            return
        names = [str(n) for n in self.seats]
        if self.rated:
            store = store_of(self.kiosk)
            if store is None:
                self.message = self.t(
                    "Results are not being saved: the database could not be opened"
                )
                return
            found = [guarded(self, partial(store.players.find, n), None) for n in names]
            retired = [p.name for p in found if p is not None and p.retired]
            unknown = [n for n, p in zip(names, found, strict=True) if p is None]
            if retired:
                self.message = fill(
                    self.t(
                        "{name} is retired: Players \u2192 Show retired players \u2192 Bring back"
                    ),
                    name=retired[0],
                )
                return
            if unknown:
                self.message = f"{self.t('Not a saved player')}: {unknown[0]}"
                return
        else:
            unique: list[str] = []
            for name in names:
                while name in unique:  # the engine needs distinct names
                    name += "'"
                unique.append(name)
            names = unique
        # Rated or not is decided where the game log opens (``kiosk.ui.games``): a game
        # of saved, active players is a league game. Here a rated pick only makes sure.
        if self.on_start is not None:
            self.on_start(tuple(names))
            return
        setup = dataclasses.replace(self.setup, names=tuple(names))
        start_cricket(self.kiosk, setup)


class SeatChooser(PagedMenu):
    """The list for one place: new player, "Player N" (unrated), saved players."""

    name = "seat-chooser"

    def __init__(self, kiosk: Any, pick: PlayerPick, seat: int) -> None:
        super().__init__(kiosk)
        self.pick = pick
        self.seat = seat
        title = self.t("Who plays?")
        if len(pick.seats) > 1:  # which place: "(1)" alone did not say
            title += "  " + fill(self.t("place {n} of {total}"), n=seat + 1, total=len(pick.seats))
        self.title = title

    def head(self) -> list[Item]:
        out = [Item("New player", lambda: self.pick.type_name(self.seat))]
        if not self.pick.rated:
            out.append(
                Item(
                    generic(self.kiosk, self.seat),
                    lambda: self.take(generic(self.kiosk, self.seat)),
                    raw_label=True,
                )
            )
        return out

    def entries(self) -> list[Item]:
        store = store_of(self.kiosk)
        if store is None:
            return []
        taken = self.pick.taken(self.seat)
        # Tonight's players first (by name), then everyone else: with a league of 150,
        # the names a bar picks all evening were up to 20 pages along.
        none: set[int] = set()
        tonight = guarded(self, store.league.tonights_players, none)
        players = sorted(roster(self), key=lambda p: p.id not in tonight)  # (stable)
        return [
            Item(p.name, partial(self.take, p.name), raw_label=True)
            for p in players
            if fold(p.name) not in taken
        ]

    def take(self, name: str) -> None:
        problem = self.pick.place(self.seat, name)
        if problem:
            self.message = problem
            return
        empty = [i for i, n in enumerate(self.pick.seats) if not n]
        if empty:  # straight on to the next empty place: fewer keys behind a bar
            self.kiosk.stack.replace(SeatChooser(self.kiosk, self.pick, empty[0]))
        else:
            self.kiosk.stack.pop()
