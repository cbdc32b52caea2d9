"""The players: list (with ratings), add, rename, retire / bring back, merge.

Also ``PagedMenu``: a menu over a list too long for one screen (pages of seven, a
"More" item), used by the player lists here and in ``player_pick``.
"""

from __future__ import annotations

import logging
import sqlite3
from functools import partial
from typing import Any

from kiosk.adapters.keypad import KeyAction
from kiosk.adapters.store.players import PlayerError
from kiosk.ui import theme
from kiosk.ui.screens.league import StoreMenu, guarded, reason, roster, store_of
from kiosk.ui.screens.menu import Item, MenuScreen, centred
from kiosk.ui.screens.name_entry import NameEntry

log = logging.getLogger("kiosk.league")

ON_OFF = [(False, "off"), (True, "on")]


class PagedMenu(StoreMenu):
    """``head()`` items on every page, then a page of ``entries()``, then "More"."""

    PAGE = 7

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.page = 0
        self._entries: list[Item] = []

    def on_enter(self) -> None:
        super().on_enter()
        self.refresh()

    def refresh(self) -> None:
        self._entries = self.entries()
        self.dirty = True

    def head(self) -> list[Item]:
        return []

    def entries(self) -> list[Item]:
        raise NotImplementedError

    def pages(self) -> int:
        return max(1, -(-len(self._entries) // self.PAGE))

    def items(self) -> list[Item]:
        pages = self.pages()
        self.page %= pages
        start = self.page * self.PAGE
        out = self.head() + self._entries[start : start + self.PAGE]
        if pages > 1:
            label = f"{self.t('More')}  ({self.page + 1}/{pages})"
            out.append(Item(label, self.next_page, raw_label=True))
        return out

    def next_page(self) -> None:
        self.page = (self.page + 1) % self.pages()
        self.selected = len(self.head())

    def key(self, event: KeyAction, items: list[Item]) -> None:
        if event.name in ("left", "right") and self.pages() > 1:
            self.page = (self.page + (1 if event.name == "right" else -1)) % self.pages()
            self.selected = len(self.head())
        else:
            super().key(event, items)


class PlayersScreen(PagedMenu):
    name = "players-list"
    title = "Players"

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.show_retired = False

    def _toggle(self, value: bool) -> None:
        self.show_retired = value
        self.refresh()

    def head(self) -> list[Item]:
        return [
            Item("Add a player", self.add),
            Item(
                "Show retired players",
                choices=ON_OFF,
                get=lambda: self.show_retired,
                set=self._toggle,
            ),
        ]

    def entries(self) -> list[Item]:
        store = store_of(self.kiosk)
        if store is None:
            return []
        out = []
        for player in roster(self, self.show_retired):
            rating = guarded(self, partial(store.players.rating, player.id), 0.0)
            label = f"{player.name}   ·   {self.number(rating, 0)}"
            if player.retired:
                label += f"   ({self.t('retired')})"
            out.append(Item(label, partial(self.open, player.id), raw_label=True))
        return out

    def open(self, player_id: int) -> None:
        self.kiosk.stack.push(PlayerActions(self.kiosk, player_id))

    def add(self) -> None:
        self.kiosk.stack.push(NameEntry(self.kiosk, self.t("New player"), self._add))

    def _add(self, name: str) -> str | None:
        store = store_of(self.kiosk)
        if store is None:
            return self.t("Results are not being saved: the database could not be opened")
        try:
            player = store.players.add(name)
        except (ValueError, sqlite3.Error) as e:  # the name stays on screen: try again
            return reason(self, e)
        self.notice = f"{self.t('Added')}: {player.name}"
        return None


class PlayerActions(StoreMenu):
    name = "player-actions"

    def __init__(self, kiosk: Any, player_id: int) -> None:
        super().__init__(kiosk)
        self.player_id = player_id
        self.player: Any = None

    def on_enter(self) -> None:
        super().on_enter()
        store = store_of(self.kiosk)
        if store is not None:
            self.player = guarded(self, lambda: store.players.get(self.player_id), self.player)
        self.title = self.player.name if self.player else ""

    def items(self) -> list[Item]:
        retired = bool(self.player and self.player.retired)
        out = [
            Item("Player page", self.page),
            Item("Rename", self.rename),
            Item("Bring back" if retired else "Retire", self.retire),
        ]
        keeper = getattr(self.kiosk, "games", None)
        if not (self.player and keeper is not None and keeper.placeholder(self.player.name)):
            # (a seat's default name, "Player 2", stands for anyone: merged into a
            # player, every friendly game played under it would then be theirs)
            out.append(Item("Merge into another player", self.merge))
        return out

    def page(self) -> None:
        from kiosk.ui.screens.player_page import PlayerPage

        self.kiosk.stack.push(PlayerPage(self.kiosk, self.player_id))

    def rename(self) -> None:
        if self.player is None:
            return
        title = f"{self.t('Rename')}: {self.player.name}"
        self.kiosk.stack.push(NameEntry(self.kiosk, title, self._rename, self.player.name))

    def _rename(self, name: str) -> str | None:
        store = store_of(self.kiosk)
        if store is None or self.player is None:
            return self.t("Results are not being saved: the database could not be opened")
        try:
            store.players.rename(self.player.name, name)
        except (ValueError, sqlite3.Error) as e:
            return reason(self, e)
        self.notice = f"{self.t('Renamed')}: {name}"
        return None

    def retire(self) -> None:
        store = store_of(self.kiosk)
        if store is None or self.player is None:
            return
        retired = not self.player.retired
        player = guarded(self, lambda: store.players.retire(self.player.name, retired), None)
        if player is not None:
            self.player = player
            gone = self.t("Retired: no longer in the pick lists")
            self.notice = gone if retired else self.t("Back in the pick lists")

    def merge(self) -> None:
        if self.player is not None:
            self.kiosk.stack.push(MergePick(self.kiosk, self.player))


class MergePick(PagedMenu):
    """Whom ``source`` is merged into (their games then count as the other's)."""

    name = "merge-pick"

    def __init__(self, kiosk: Any, source: Any) -> None:
        super().__init__(kiosk)
        self.source = source
        self.title = f"{self.t('Merge')} {source.name} \u2192 ?"
        self.subtitle = "Choose the player who stays; the other name becomes an alias"

    def entries(self) -> list[Item]:
        store = store_of(self.kiosk)
        if store is None:
            return []
        return [
            Item(p.name, partial(self.confirm, p), raw_label=True)
            for p in roster(self)
            if p.id != self.source.id
        ]

    def confirm(self, target: Any) -> None:
        self.kiosk.stack.push(MergeConfirm(self.kiosk, self.source, target))


class MergeConfirm(MenuScreen):
    name = "merge-confirm"
    title = "Merge players?"

    def __init__(self, kiosk: Any, source: Any, target: Any) -> None:
        super().__init__(kiosk)
        self.source, self.target = source, target
        self.subtitle = f"{source.name} \u2192 {target.name}"
        self.selected = 1  # "No": a merge is not undone, so Enter alone does not do it
        self.refused = ""  # why the store would not merge them, said in the question's place

    def items(self) -> list[Item]:
        if self.refused:
            return [Item("Back", self.back)]
        return [Item("Yes, merge them", self.do), Item("No", self.back)]

    def do(self) -> None:
        store = store_of(self.kiosk)
        if store is None:
            return
        try:
            store.players.merge(self.source.name, self.target.name)
        except PlayerError as e:
            # A small red line at the foot, with "Yes, merge them" still lit, did not
            # say that this is the end of it: the reason, large, and only a way back.
            # (A database that cannot be written is said at the foot: it can be tried
            # again.)
            self.refused = reason(self, e)
            self.title, self.selected = "These two cannot be merged", 0
            return
        except (sqlite3.Error, ValueError) as e:  # said at the foot, as elsewhere
            log.warning("store: %s", e)
            self.message = reason(self, e)
            return
        stack = self.kiosk.stack
        while not isinstance(stack.top, PlayersScreen) and len(stack) > 1:
            stack.pop()
        top = stack.top
        if isinstance(top, PlayersScreen):
            top.notice = f"{self.t('Merged')}: {self.source.name} \u2192 {self.target.name}"

    def draw(self, p: theme.Painter) -> None:
        super().draw(p)
        if self.refused:
            centred(p, self.refused, 4.2, 36, theme.BAD, width=0.9)
