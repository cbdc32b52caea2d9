"""Players: add, find, rename, merge, retire, import a roster.

Names are unique whatever their case, in any script (``casefold``, so "Олег" and "ОЛЕГ"
are the same name; SQLite's NOCASE folds ASCII only), whatever their apostrophe
(``kiosk.domain.names``: a name typed at the kiosk, which has only the straight
apostrophe, is the one a roster from Word or Excel wrote with a curly one), and whether
they write ё with its dots or not ("Пётр" and "Петр": Russian writes either). Spaces are
trimmed and runs of spaces collapsed. A name is stored as it was written; its folded
form, ``name_key``, is unique.

A merged player's row stays (``merged_into`` points at the kept one) so the old name
still finds the kept player; their games, results and rating history move to the kept
player, and ratings are then recomputed from the games (they are derived; see
``results.py``).

A database from before apostrophes (or ё) were folded may hold two players whose names
now fold alike. They are left as they are, two players (joining them could join two
people, and nothing is lost either way): the first made keeps the name's key, the
others a key of their own (``ASIDE``) that no name folds to. Each is still found by
its name as written, so ``merge`` joins them (if they are one person) or ``rename``
tells them apart; ``players list`` says which they are (``same_names``).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from kiosk.adapters.store.db import Db
from kiosk.domain.names import fold, fold_apostrophes, sort_key
from kiosk.domain.rating import START

MAX_NAME = 24
# A roster's first row is a header when one of its cells is one of these (any case,
# any apostrophe: ``fold_apostrophes``): what a league secretary's spreadsheet calls the
# column of names.
NAME_HEADERS = frozenset({
    "name", "names", "player", "players", "player name", "full name",
    "ім'я", "гравець", "гравці", "прізвище та ім'я", "ім'я та прізвище",
    "прізвище, ім'я", "піб",
    "имя", "игрок", "игроки", "фио", "фамилия и имя", "имя и фамилия",
    "фамилия, имя",
})  # fmt: skip
# A roster with the name in two columns: both headed so, the name is "first last".
FIRST_NAME_HEADERS = frozenset({
    "first name", "first", "given name", "forename", "ім'я", "имя",
})  # fmt: skip
LAST_NAME_HEADERS = frozenset({
    "last name", "last", "surname", "family name", "прізвище", "фамилия",
})  # fmt: skip
HEADER_ROWS = 3  # the header looked for this far down (a title row above it)
# What the season export puts before a name a spreadsheet would take for a formula
# (``'=Bob``): taken off again when its roster comes back.
FORMULA_GUARD = ("'=", "'+", "'-", "'@")


# Why a cell with no letter is refused, and where the names are looked for instead.
NO_NAME = (
    "has no letters: not a name (a row number? the names are read from the column"
    " headed name, ім'я or ПІБ, else from the first)"
)


class PlayerError(ValueError):
    """A player name or a player operation that is refused."""


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str
    retired: bool = False
    merged_into: int | None = None


@dataclass(slots=True)
class ImportReport:
    added: list[str] = field(default_factory=list)
    existing: list[str] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)  # (line, why)


def clean_name(name: object) -> str:
    """The name as stored, or PlayerError with the reason."""
    if not isinstance(name, str):
        raise PlayerError(f"a name must be text, not {name!r}")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not text:
        raise PlayerError("a name cannot be empty")
    if len(text) > MAX_NAME:
        # Its first MAX_NAME characters, not all of it (a cell of a roster, a paste: a
        # screenful), and where it would be cut: what fits is what to type.
        raise PlayerError(
            f"a name has at most {MAX_NAME} characters: {text[:MAX_NAME]!r}... has {len(text)}"
        )
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise PlayerError(f"a name cannot hold control characters: {text!r}")
    return text


def name_key(name: str) -> str:
    """The form under which names are unique: see the module docstring."""
    return fold(clean_name(name))


# A key kept aside for a player whose name folds like an older player's (see the
# module docstring and ``schema._v4_apostrophes``): the folded name, a unit separator
# (``clean_name`` never lets one into a name, so no name's key is ever one of these)
# and the player's id.
ASIDE = "\x1f"


def _taken(name: str, other: Player) -> str:
    written = "" if other.name == name else f" (written {other.name!r})"
    return f"there is already a player called {name!r}{written}"


def _player(row: tuple[Any, ...]) -> Player:
    pid, name, retired, merged = row
    return Player(int(pid), str(name), bool(retired), None if merged is None else int(merged))


_COLS = "id, name, retired, merged_into"


class Players:
    def __init__(self, db: Db) -> None:
        self._db = db

    def add(self, name: str) -> Player:
        text = clean_name(name)
        key = fold(text)
        with self._db.transaction() as c:
            found = self._keyed(key)
            if found is not None:
                raise PlayerError(_taken(text, found))
            cur = c.execute(
                "INSERT INTO players (name, name_key, created_at) VALUES (?, ?, ?)",
                (text, key, self._db.now()),
            )
            return Player(int(cur.lastrowid or 0), text)

    def get(self, player_id: int) -> Player:
        row = self._db.conn.execute(
            f"SELECT {_COLS} FROM players WHERE id = ?", (player_id,)
        ).fetchone()
        if row is None:
            raise PlayerError(f"no player with id {player_id}")
        return _player(row)

    def _keyed(self, key: str, exact: str = "") -> Player | None:
        """The player whose name folds to ``key``. Of two kept from before apostrophes
        were folded, the one written exactly ``exact``, else the first made."""
        rows = self._db.conn.execute(
            f"""SELECT {_COLS} FROM players WHERE name_key = ?
                OR (name_key > ? AND name_key < ?) ORDER BY name_key = ? DESC, id""",
            (key, key + ASIDE, key + chr(ord(ASIDE) + 1), key),
        ).fetchall()
        found = [_player(r) for r in rows]
        written = [p for p in found if p.name == exact]
        return (written or found)[0] if found else None

    def find(self, name: str) -> Player | None:
        """The player called ``name`` (any case, any apostrophe); a merged name gives
        the kept player."""
        try:
            text = clean_name(name)
        except PlayerError:
            return None
        player = self._keyed(fold(text), text)
        seen = set()
        while player is not None and player.merged_into is not None and player.id not in seen:
            seen.add(player.id)
            player = self.get(player.merged_into)
        return player

    def need(self, name: str) -> Player:
        player = self.find(name)
        if player is None:
            raise PlayerError(f"no player called {name!r}")
        return player

    def roster(self, include_retired: bool = False) -> list[Player]:
        sql = f"SELECT {_COLS} FROM players WHERE merged_into IS NULL"
        if not include_retired:
            sql += " AND retired = 0"
        rows = self._db.conn.execute(sql).fetchall()
        # In alphabet order (Ukrainian and Russian too: ``sort_key``), then by id.
        return sorted((_player(r) for r in rows), key=lambda p: (sort_key(p.name), p.id))

    def same_names(self) -> list[tuple[Player, Player]]:
        """Players (not merged) whose names fold alike, kept apart from a database made
        before apostrophes were folded: (a later one, the first made)."""
        rows = self._db.conn.execute(
            f"SELECT {_COLS} FROM players WHERE merged_into IS NULL ORDER BY id"
        ).fetchall()
        first: dict[str, Player] = {}
        out = []
        for player in map(_player, rows):
            seen = first.setdefault(fold(player.name), player)
            if seen is not player:
                out.append((player, seen))
        return out

    def _own(self, name: str, verb: str) -> Player:
        """The player called ``name``. A name merged into another player (it stays an
        alias that finds them) is refused: ``verb`` would act on that other player."""
        player = self.need(name)
        if name_key(name) != name_key(player.name):
            raise PlayerError(
                f"{name!r} was merged into {player.name!r}: {verb} {player.name!r} if you mean them"
            )
        return player

    def rename(self, old: str, new: str) -> Player:
        player = self._own(old, "rename")
        text = clean_name(new)
        key = fold(text)
        with self._db.transaction() as c:
            clash = self._keyed(key)
            if clash is not None and clash.id != player.id:
                raise PlayerError(_taken(text, clash))
            c.execute(
                "UPDATE players SET name = ?, name_key = ? WHERE id = ?",
                (text, key, player.id),
            )
        return self.get(player.id)

    def retire(self, name: str, retired: bool = True) -> Player:
        """A retired player keeps their history and leaves the pick lists. A merged
        name is refused: it would retire the player it was merged into."""
        player = self._own(name, "retire")
        with self._db.transaction() as c:
            c.execute("UPDATE players SET retired = ? WHERE id = ?", (int(retired), player.id))
        return self.get(player.id)

    def merge(self, source: str, into: str) -> Player:
        """``source``'s games and history become ``into``'s; ``source`` is kept as an alias.

        Refused if the two played in the same game (they are then two people), if
        ``source`` is in an unfinished game, or if ``source`` is a name merged before
        (it would merge the player it stands for).
        """
        # Imported here: results.py imports this module for player lookups.
        from kiosk.adapters.store.results import rebuild_ratings

        a, b = self._own(source, "merge"), self.need(into)
        if a.id == b.id:
            raise PlayerError(f"{source!r} and {into!r} are the same player")
        with self._db.transaction() as c:
            shared = c.execute(
                """SELECT x.game_id FROM game_players x JOIN game_players y
                   ON x.game_id = y.game_id WHERE x.player_id = ? AND y.player_id = ?
                   LIMIT 1""",
                (a.id, b.id),
            ).fetchone()
            if shared is not None:
                raise PlayerError(
                    f"{a.name!r} and {b.name!r} played each other in game {shared[0]}: "
                    "they are two players, not one"
                )
            playing = c.execute(
                """SELECT g.id FROM games g JOIN game_players gp ON gp.game_id = g.id
                   WHERE gp.player_id = ? AND g.status = 'playing' LIMIT 1""",
                (a.id,),
            ).fetchone()
            if playing is not None:
                raise PlayerError(f"{a.name!r} is in game {playing[0]}, not finished yet")
            for table in ("game_players", "results", "ratings"):
                c.execute(f"UPDATE {table} SET player_id = ? WHERE player_id = ?", (b.id, a.id))
            c.execute("UPDATE players SET merged_into = ?, retired = 1 WHERE id = ?", (b.id, a.id))
            c.execute("UPDATE players SET merged_into = ? WHERE merged_into = ?", (b.id, a.id))
            rebuild_ratings(self._db)
        return self.get(b.id)

    def rating(self, player_id: int) -> float:
        row = self._db.conn.execute(
            "SELECT after FROM ratings WHERE player_id = ? ORDER BY id DESC LIMIT 1",
            (player_id,),
        ).fetchone()
        return START if row is None else float(row[0])

    def rating_history(self, player_id: int) -> list[tuple[int, float, float]]:
        """``(game_id, before, after)`` in the order the games ended."""
        rows = self._db.conn.execute(
            "SELECT game_id, before, after FROM ratings WHERE player_id = ? ORDER BY id",
            (player_id,),
        ).fetchall()
        return [(int(g), float(b), float(a)) for g, b, a in rows]

    def import_roster(self, text: str) -> ImportReport:
        """Adds the players of a roster CSV: the name column if one of the first rows is
        a header that has one (``NAME_HEADERS``; or first and last name columns, joined),
        else the first column. Fields are
        separated by commas, or by what the first line uses instead (``;`` from a
        spreadsheet in a locale with decimal commas, a tab), or by what the header
        uses under a title row (``_roster_rows``). Existing names are left
        alone; bad lines are reported, among them a "name" with no letter in it (a row
        number, the "№" over them: the names are in a column not recognised)."""
        report = ImportReport()
        text = text.lstrip("\ufeff")
        rows, columns, start = _roster_rows(text)
        for number, row in enumerate(rows[start:], start=start + 1):
            if not row or not any(cell.strip() for cell in row):
                continue
            if columns[0] >= len(row):
                report.refused.append((number, "no name in this line"))
                continue
            cells = [row[c] for c in columns if c < len(row)]
            cells = [c[1:] if c.startswith(FORMULA_GUARD) else c for c in cells]
            try:
                name = clean_name(" ".join(cells))
            except PlayerError as e:
                report.refused.append((number, str(e)))
                continue
            if not any(c.isalpha() for c in name):
                # A row number ("1"), a "№" header: the names are in another column
                # whose header was not recognised. Never a player.
                report.refused.append((number, f"{name!r} {NO_NAME}"))
                continue
            if self.find(name) is not None:
                report.existing.append(name)
                continue
            report.added.append(self.add(name).name)
        return report


def _name_columns(rows: list[list[str]]) -> tuple[list[int], int]:
    """The columns a roster's names are in (one, or the first and last name's), and
    the first row of names: after the header when one of the first rows is one (a
    title row may stand above it), else the first column from the first row."""
    for at, row in enumerate(rows[:HEADER_ROWS]):
        header = [fold_apostrophes(" ".join(h.split()).casefold()) for h in row]
        first = [i for i, h in enumerate(header) if h in FIRST_NAME_HEADERS]
        last = [i for i, h in enumerate(header) if h in LAST_NAME_HEADERS]
        if first and last:
            return [first[0], last[0]], at + 1
        named = [i for i, h in enumerate(header) if h in NAME_HEADERS]
        if named:
            return [named[0]], at + 1
    return [0], 0


def _roster_rows(text: str) -> tuple[list[list[str]], list[int], int]:
    """A roster's rows, split by its separator, with ``_name_columns``' answer. The
    separator is the first line's (``_delimiter``) unless a header is found only when
    split by another: a title row above the header ("Club roster 2026") has none of the
    file's separators, or a comma of its own text in a file split by ``;``."""
    first = _delimiter(text)
    for d in (first, *(d for d in (",", ";", "\t") if d != first)):
        rows = list(csv.reader(io.StringIO(text), delimiter=d))
        columns, start = _name_columns(rows)
        if start:
            return rows, columns, start
    return list(csv.reader(io.StringIO(text), delimiter=first)), [0], 0


def _delimiter(text: str) -> str:
    """The field separator of a roster: of a comma, a semicolon and a tab, the one the
    first line that holds anything uses most outside quotes (a comma when it uses none)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    bare = re.sub(r'"[^"]*"', "", first)
    counts = {d: bare.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])  # the first listed on a tie: a comma
    return best if counts[best] else ","
