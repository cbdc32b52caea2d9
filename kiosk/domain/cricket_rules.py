"""Cricket rule pieces: targets, marks per dart, inputs, errors, setup checks, variants.

The variants are small rule objects found by name (``find_variant("cut-throat")``),
in the manner of python-chess's ``find_variant``; the game engine lives in
``kiosk.domain.cricket``.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import ClassVar, Final

from kiosk.domain.darts import BULL, Dart

# Board order of the classic Cricket scoreboard, top to bottom.
TARGETS: tuple[int, ...] = (20, 19, 18, 17, 16, 15, BULL)
MARKS_TO_OWN = 3
MIN_PLAYERS = 2
MAX_PLAYERS = 4


class CricketError(ValueError):
    """An input or a setting the Cricket engine refuses."""


class GameOver(CricketError):
    """The game has ended: no more darts or turn ends are accepted."""


class NothingToUndo(CricketError, IndexError):
    """Undo asked for on a game with no inputs. Also an IndexError, as python-chess's
    ``Board.pop()`` on an empty move stack, for callers written that way."""


class Marker(enum.Enum):
    """A non-dart input in a game's history."""

    TURN_END = "END"

    def __str__(self) -> str:
        return self.value


TURN_END: Final = Marker.TURN_END
Entry = Dart | Marker


def parse_input(text: str) -> Entry:
    """``"END"`` -> ``TURN_END``, anything else through ``Dart.parse`` (ValueError if bad)."""
    if isinstance(text, str) and text.strip().upper() == TURN_END.value:
        return TURN_END
    return Dart.parse(text)


def marks_of(dart: Dart, single_bull: bool = False) -> int:
    """Marks a dart puts toward its target: 0 for a non-target (a Cricket miss)."""
    if dart.number not in TARGETS:
        return 0
    if dart.is_bull and single_bull:
        return 1
    return dart.multiplier


def target_index(target: int) -> int:
    """Index of ``target`` in ``TARGETS``; ValueError naming it if it is not one."""
    try:
        return TARGETS.index(target)
    except ValueError:
        raise CricketError(
            f"not a Cricket target: {target!r} (expected one of {', '.join(map(str, TARGETS))})"
        ) from None


class Variant:
    """Standard Cricket: surplus marks score for the thrower while an opponent is open."""

    name: ClassVar[str] = "standard"
    # Said of the winner: "<name> owns every target <win_text>".
    win_text: ClassVar[str] = "with at least as many points as every opponent"

    def award(
        self, points: tuple[int, ...], side: int, value: int, open_opponents: Sequence[int]
    ) -> tuple[int, ...] | None:
        """New points after ``side`` scores ``value``; None when the marks score nothing."""
        if not open_opponents:
            return None
        return tuple(p + value if i == side else p for i, p in enumerate(points))

    def points_key(self, points: int) -> int:
        """Sort key: the smaller, the better placed."""
        return -points

    def at_least_as_good(self, mine: int, theirs: int) -> bool:
        return self.points_key(mine) <= self.points_key(theirs)


class CutThroat(Variant):
    """Surplus marks add points to every opponent who has not closed the target; low wins."""

    name: ClassVar[str] = "cut-throat"
    win_text: ClassVar[str] = "with no more points than any opponent"

    def award(
        self, points: tuple[int, ...], side: int, value: int, open_opponents: Sequence[int]
    ) -> tuple[int, ...] | None:
        if not open_opponents:
            return None
        return tuple(p + value if i in open_opponents else p for i, p in enumerate(points))

    def points_key(self, points: int) -> int:
        return points


class NoScore(Variant):
    """No points at all: the first to own every target wins."""

    name: ClassVar[str] = "no-score"
    win_text: ClassVar[str] = "first"

    def award(
        self, points: tuple[int, ...], side: int, value: int, open_opponents: Sequence[int]
    ) -> tuple[int, ...] | None:
        return None

    def points_key(self, points: int) -> int:
        return 0


VARIANTS: dict[str, type[Variant]] = {v.name: v for v in (Variant, CutThroat, NoScore)}


def find_variant(name: str) -> Variant:
    """The rule object for ``name`` ("standard", "cut-throat", "no-score").

    Case, surrounding spaces and ``_`` or a space for ``-`` are forgiven ("Cut_Throat").
    """
    cls = None
    if isinstance(name, str):
        words = name.lower().replace("_", " ").replace("-", " ").split()
        cls = VARIANTS.get("-".join(words))
    if cls is None:
        raise CricketError(
            f"unknown Cricket variant: {name!r} (expected one of {', '.join(VARIANTS)})"
        )
    return cls()


def validate_players(
    players: Sequence[str], teams: Sequence[Sequence[str]] | None
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Turn order and sides (each a tuple of names) from the arguments, or ValueError."""
    if isinstance(players, str):
        raise CricketError(f"players must be a list of names, not the string {players!r}")
    if teams is None:
        order = tuple(players or ())
        sides: tuple[tuple[str, ...], ...] = tuple((name,) for name in order)
    else:
        if isinstance(teams, str) or len(teams) != 2 or any(isinstance(t, str) for t in teams):
            raise CricketError(f"teams must be exactly two teams, got {teams!r}")
        a, b = (tuple(t) for t in teams)
        if not a or len(a) != len(b):
            raise CricketError(f"the two teams must have the same number of players: {teams!r}")
        sides = (a, b)
        order = tuple(name for pair in zip(a, b, strict=True) for name in pair)
        strangers = [name for name in players or () if name not in order]
        if strangers or len(set(map(str, players or ()))) != len(players or ()):
            raise CricketError(
                f"players {list(players)!r} are not the players of the teams {list(order)!r}"
            )
    if not MIN_PLAYERS <= len(order) <= MAX_PLAYERS:
        raise CricketError(f"Cricket needs 2 to 4 players, got {len(order)}: {list(order)!r}")
    seen: set[str] = set()
    for name in order:
        if not isinstance(name, str) or not name.strip():
            raise CricketError(f"a player name must be non-empty text, got {name!r}")
        key = name.strip().casefold()
        if key in seen:
            raise CricketError(f"duplicate player name: {name!r}")
        seen.add(key)
    return order, sides
