"""A game's state is the replay of its events.

The store keeps, per game, how the engine was built (``kind``, ``settings``, the players
in turn order) and an append-only list of events: one per input that changed the game.
``replay`` rebuilds the engine from these; ``apply`` is the one function that feeds an
event to an engine, used both live and on replay, so the two cannot drift apart.

Events (``GameEvent.kind`` / ``payload``, JSON-able):

- ``dart``      ``{"dart": "T20"}``               Cricket ``push``
- ``turn_end``  ``{}``                            Cricket ``end_turn``
- ``formula``   ``{"seat": 0, "formula": "34+89"}`` formula ``submit`` (accepted ones only)
- ``timeout``   ``{"seat": 0}``                   formula ``timeout``
- ``concede``   ``{"seat": 0}``                   formula ``concede`` (a player alone
  ends the game: lost)
- ``undo``      ``{}``                            ``pop`` of the last input

Players are named by *seat* (index in turn order), never by name, so a renamed player's
games still replay. Cricket settings: ``variant``, ``round_limit``, ``single_bull`` and
``teams`` as lists of seats (``[[0, 2], [1, 3]]``). Formula settings: ``rules``
("classic" / "distance") with any of ``start goal bonus max_rounds time_limit``
overriding its parameters, ``mode``, and ``seed`` and/or ``digits`` (the store always
fixes a seed, so the drawn numbers replay).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from kiosk.domain.cricket import CricketGame
from kiosk.domain.darts import Dart
from kiosk.domain.formula.game import FormulaGame, Termination
from kiosk.domain.formula.rules import rules_by_name

Engine = CricketGame | FormulaGame
KINDS = ("cricket", "formula")
EVENT_KINDS = ("dart", "turn_end", "formula", "timeout", "concede", "undo")


class ReplayError(ValueError):
    """An event list that does not replay on its game (names the event)."""


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One input that changed a game, as stored."""

    kind: str
    payload: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {self.kind!r} (expected {EVENT_KINDS})")

    @classmethod
    def dart(cls, dart: Dart | str) -> GameEvent:
        return cls("dart", {"dart": str(Dart.parse(dart) if isinstance(dart, str) else dart)})

    @classmethod
    def turn_end(cls) -> GameEvent:
        return cls("turn_end", {})

    @classmethod
    def formula(cls, seat: int, text: str) -> GameEvent:
        return cls("formula", {"seat": seat, "formula": text})

    @classmethod
    def timeout(cls, seat: int) -> GameEvent:
        return cls("timeout", {"seat": seat})

    @classmethod
    def concede(cls, seat: int) -> GameEvent:
        return cls("concede", {"seat": seat})

    @classmethod
    def undo(cls) -> GameEvent:
        return cls("undo", {})


def new_game(kind: str, settings: Mapping[str, Any], players: Sequence[str]) -> Engine:
    """A fresh engine for a game of ``kind`` built from its stored ``settings``."""
    if kind == "cricket":
        teams = settings.get("teams")
        team_names = None if teams is None else [[players[s] for s in team] for team in teams]
        return CricketGame(
            list(players),
            variant=str(settings.get("variant", "standard")),
            round_limit=int(settings.get("round_limit", 20)),
            single_bull=bool(settings.get("single_bull", False)),
            teams=team_names,
        )
    if kind == "formula":
        return _new_formula(settings, players)
    raise ReplayError(f"unknown game kind {kind!r} (expected {KINDS})")


RULE_FIELDS = ("start", "goal", "bonus", "max_rounds", "time_limit")


def _new_formula(settings: Mapping[str, Any], players: Sequence[str]) -> FormulaGame:
    rules = rules_by_name(str(settings.get("rules", "classic")))
    overrides: dict[str, Any] = {k: int(settings[k]) for k in RULE_FIELDS if k in settings}
    if overrides:
        rules = replace(rules, **overrides)
    digits = settings.get("digits")
    seed = settings.get("seed")
    return FormulaGame(
        list(players),
        rules=rules,
        mode=None if settings.get("mode") is None else str(settings["mode"]),
        digits=None if digits is None else [int(d) for d in digits],
        seed=None if seed is None else int(seed),
    )


def apply(engine: Engine, event: GameEvent, players: Sequence[str]) -> Any:
    """Feed one event to ``engine`` (what the live game and the replay both do).

    Returns what the engine returned (the points of a formula, the popped input).
    Raises the engine's ``ValueError`` if it refuses the event.
    """
    p = event.payload
    if event.kind == "undo":
        return engine.pop()
    if isinstance(engine, CricketGame):
        if event.kind == "dart":
            engine.push(Dart.parse(str(p["dart"])))
            return None
        if event.kind == "turn_end":
            engine.end_turn()
            return None
    else:
        if event.kind == "formula":
            return engine.submit(players[int(p["seat"])], str(p["formula"]))
        if event.kind == "timeout":
            return engine.timeout(players[int(p["seat"])])
        if event.kind == "concede":
            return engine.concede(players[int(p["seat"])])
    raise ValueError(f"a {event.kind!r} event does not apply to a {type(engine).__name__}")


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's result in a finished game (the record the store keeps)."""

    seat: int
    placement: int  # 1 = first; equal placements drew
    outcome: str  # "won" | "lost" | "drawn"
    points: int  # Cricket: the side's points; formula: the final score
    stats: Mapping[str, Any]


def seat_results(engine: Engine, players: Sequence[str]) -> list[SeatResult]:
    """The results of a finished game, by seat (ValueError if it is not over)."""
    if isinstance(engine, CricketGame):
        return _cricket_results(engine, players)
    return _formula_results(engine, players)


def _formula_results(game: FormulaGame, players: Sequence[str]) -> list[SeatResult]:
    """Won / lost / drawn as the engine's outcome says. A duel where both lose at the
    round limit (distance rules) is lost by both, with equal placings (an Elo draw)."""
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    out = []
    for seat, name in enumerate(players):
        moves = [m for r in game.history for m in r.moves if m.player == name]
        if outcome.winner is not None:
            won = outcome.winner == name
            result, placement = ("won", 1) if won else ("lost", 2 if len(players) > 1 else 1)
        elif outcome.termination in (Termination.BOTH_ZERO, Termination.DRAW):
            result, placement = "drawn", 1
        else:
            result, placement = "lost", 2 if len(players) > 1 else 1
        stats = {
            "rounds": len(moves),
            "points_total": sum(m.points for m in moves),
            "score": game.score(name),
            "finished": game.score(name) == 0,
            "perfect": bool(outcome.perfect and outcome.winner == name),
            "timeouts": sum(1 for m in moves if m.timed_out),
        }
        out.append(SeatResult(seat, placement, result, game.score(name), stats))
    return out


def _placements(order: Sequence[int], standing: Callable[[int], object]) -> dict[int, int]:
    """Competition ranking of the sides in ``order`` (best first): sides level on
    ``standing`` share a place (1, 2, 2, 4), as the rating then counts them a draw."""
    out: dict[int, int] = {}
    for i, side in enumerate(order):
        level = i > 0 and standing(side) == standing(order[i - 1])
        out[side] = out[order[i - 1]] if level else i + 1
    return out


def _cricket_results(game: CricketGame, players: Sequence[str]) -> list[SeatResult]:
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    side_of = {name: game.sides.index(game.team_of(name)) for name in game.players}
    order: list[int] = []
    for name in outcome.placings or players:
        if side_of[name] not in order:
            order.append(side_of[name])
    for side in range(len(game.sides)):
        if side not in order:
            order.append(side)
    winner = None if outcome.winner is None else side_of[outcome.winner]

    def owned(side: int) -> int:
        return sum(1 for t in game.targets if game.owns(game.sides[side][0], t))

    # Won by owning everything (else decided at the round limit: no side owns it all,
    # or it would have won at that dart).
    won_outright = winner is not None and owned(winner) == len(game.targets)

    def standing(side: int) -> tuple[object, ...]:
        """What ranks the sides (rules.md §1): at a win, the winner, then targets owned,
        then points (marks on the board last, as the engine's placings); at the round
        limit, points then marks. Turn order only lists sides level on all of it."""
        first = game.sides[side][0]
        points = game.points(first)
        marks = sum(game.marks(first, t) for t in game.targets)
        if not won_outright:
            return points, marks
        return side == winner, owned(side), points, marks

    place = _placements(order, standing)
    out = []
    for seat, name in enumerate(players):
        placement = place[side_of[name]]
        won_or_drew = "drawn" if outcome.winner is None else "won"
        result = won_or_drew if placement == 1 else "lost"
        stats = asdict(game.stats(name))
        out.append(SeatResult(seat, placement, result, game.points(name), stats))
    return out


def replay(
    kind: str,
    settings: Mapping[str, Any],
    players: Sequence[str],
    events: Iterable[GameEvent],
) -> Engine:
    """The engine after ``events``, rebuilt from nothing."""
    engine = new_game(kind, settings, players)
    for n, event in enumerate(events, start=1):
        try:
            apply(engine, event, players)
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise ReplayError(f"event {n} ({event.kind} {dict(event.payload)}) refused: {e}") from e
    return engine


def correction(
    settings: Mapping[str, Any],
    players: Sequence[str],
    game: Engine,
    index: int,
    dart: Dart | str,
) -> tuple[tuple[GameEvent, ...], tuple[Any, ...]]:
    """A Cricket dart corrected in place (rules.md: "a dart can be corrected (replaced)
    in place"), said with the log's own events: ``undo`` back to ``history[index]``, the
    right dart, then the later inputs again. Returns those events and the later inputs
    that no longer apply: when the corrected dart (or a later one) now wins, the game
    ends there (``CricketGame.correct``). Refused with ``ValueError``, nothing changed,
    when that input is no dart or the right one cannot be thrown there."""
    if not isinstance(game, CricketGame):
        raise ValueError("only a Cricket dart can be corrected")
    history = game.history
    if not -len(history) <= index < len(history):
        raise ValueError(f"no input number {index} in a history of {len(history)}")
    index %= len(history)
    right = Dart.parse(dart) if isinstance(dart, str) else dart
    scratch = new_game("cricket", settings, players)
    assert isinstance(scratch, CricketGame)
    for entry in history:
        scratch.apply(entry)
    dropped = scratch.correct(index, right)
    later = history[index + 1 : len(history) - len(dropped)]
    events = [GameEvent.undo()] * (len(history) - index) + [GameEvent.dart(right)]
    events += [GameEvent.dart(e) if isinstance(e, Dart) else GameEvent.turn_end() for e in later]
    return tuple(events), tuple(dropped)
