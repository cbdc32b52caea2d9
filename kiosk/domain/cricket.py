"""The Cricket engine (rules.md §1), python-chess style.

``CricketGame`` is a stack of frozen ``CricketState`` values: ``push(dart)`` and
``end_turn()`` compute the next state and append it, ``pop()`` drops it, so undo is exact
(marks, points, stats and outcome included) across turns, back to the start.

Choices where rules.md is silent (the "best bar machine" reading):

- Darts on a closed target, or on a non-target, count as thrown and change nothing else.
- The win is checked after every dart, for every side that owns all seven targets,
  earliest owner first. In cut-throat an opponent's dart can make a player who already
  owns everything the lowest, and that player then wins at that dart.
- When the game ends, the turn does not pass: ``current_player``, ``round`` and
  ``darts_this_turn`` keep showing the final turn.
- ``round_limit``: the game is decided when the last player's turn of round
  ``round_limit`` ends (third dart or ``end_turn``) with no winner. "Marks on the
  board" for the tie-break are the 0..3 marks shown per target, summed. With 3 or 4
  players it is a draw when the best two sides are level on points and marks. A round
  is every player's turn, so with teams (A1 B1 A2 B2) ``round_limit`` 20 is 20 turns
  for each player, 40 for each team (``side_stats().rounds`` counts both partners').
- ``single_bull``: the inner bull is one mark, so on an owned bull it scores 25.
- Placings at a win: the winner, then by targets owned, points (cut-throat: fewest),
  marks on the board, turn order. At the round limit: points, marks, turn order.
- Teams: a *side* is a player or a team. ``marks``/``points``/``owns`` on a player name
  give the side's shared figures. ``stats`` gives the player's own darts and marks (its
  ``points`` are the side's, shared); ``side_stats`` sums the partners' (the team's MPR).
  ``players`` may be empty, every team player in any order, or some of them (the
  captains): the teams decide who plays and in what order. ``Outcome.winner`` is the
  winning team's first-listed player and ``Outcome.winners`` lists the whole team;
  ``placings`` lists every player, team by team.
- ``push`` also takes dart text (``"T20"``); ``history`` holds ``Dart`` values and the
  ``TURN_END`` marker, whose ``str`` is ``"END"`` (``parse_input`` reads both back).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from kiosk.domain.cricket_rules import (
    MARKS_TO_OWN,
    TARGETS,
    TURN_END,
    CricketError,
    Entry,
    GameOver,
    Marker,
    NothingToUndo,
    Variant,
    find_variant,
    marks_of,
    parse_input,
    target_index,
    validate_players,
)
from kiosk.domain.cricket_stats import CricketStats, Tally, report
from kiosk.domain.darts import Dart

__all__ = [
    "TARGETS",
    "TURN_END",
    "CricketError",
    "CricketGame",
    "CricketState",
    "CricketStats",
    "Entry",
    "GameOver",
    "Marker",
    "NothingToUndo",
    "Outcome",
    "Turn",
    "find_variant",
    "parse_input",
]

DARTS_PER_TURN = 3


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended. ``winner`` is None for a draw."""

    winner: str | None
    reason: str
    placings: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()

    @property
    def won_by(self) -> tuple[str, ...]:
        """Who won, to name them: the whole team, or the one winner (none: a draw)."""
        return self.winners or ((self.winner,) if self.winner else ())


@dataclass(frozen=True, slots=True)
class CricketState:
    """Everything about a game at one moment. Indexes: sides, players in turn order."""

    marks: tuple[tuple[int, ...], ...]  # [side][TARGETS index], 0..3
    points: tuple[int, ...]  # per side
    turn: int  # turns passed since the start; the player is turn % players
    darts: tuple[Dart, ...]  # of the current turn
    tallies: tuple[Tally, ...]  # per player
    turn_marks: int = 0  # scoring marks in the current turn
    turn_fresh_triples: int = 0  # trebles on targets not owned before them, this turn
    turn_bulls: int = 0
    owned_all: tuple[int, ...] = ()  # sides, in the order they came to own everything
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn as thrown: ``darts`` are (index in ``history``, dart)."""

    turn: int  # turns passed before it (``CricketState.turn``)
    player: str
    round: int
    darts: tuple[tuple[int, Dart], ...]


class CricketGame:
    """One Cricket match: push darts, end turns, pop to undo, ask for the outcome."""

    def __init__(
        self,
        players: Sequence[str],
        variant: str = "standard",
        round_limit: int = 20,
        single_bull: bool = False,
        teams: Sequence[Sequence[str]] | None = None,
    ) -> None:
        self._rules: Variant = find_variant(variant)
        if isinstance(round_limit, bool) or not isinstance(round_limit, int) or round_limit < 0:
            raise CricketError(f"round_limit must be a whole number >= 0, got {round_limit!r}")
        self.players, self.sides = validate_players(players, teams)
        self.teams: tuple[tuple[str, ...], ...] | None = self.sides if teams is not None else None
        self.variant: str = self._rules.name
        self.round_limit: int = round_limit
        self.single_bull: bool = bool(single_bull)
        self.targets: tuple[int, ...] = TARGETS
        self._side_of_player = tuple(
            next(i for i, side in enumerate(self.sides) if name in side) for name in self.players
        )
        start = CricketState(
            marks=((0,) * len(TARGETS),) * len(self.sides),
            points=(0,) * len(self.sides),
            turn=0,
            darts=(),
            tallies=(Tally(),) * len(self.players),
        )
        self._states: list[CricketState] = [start]
        self._inputs: list[Entry] = []

    # ----------------------------------------------------------------- inputs

    def push(self, dart: Dart | str) -> None:
        """The current player's next dart; after the third the turn passes."""
        if isinstance(dart, str):
            dart = Dart.parse(dart)
        if not isinstance(dart, Dart):
            raise CricketError(f"not a dart: {dart!r}")
        self._refuse_if_over("dart")
        self._states.append(self._throw(self.state, dart))
        self._inputs.append(dart)

    def end_turn(self) -> None:
        """Ends the current turn early; darts not thrown count as not thrown."""
        self._refuse_if_over("turn end")
        s = self.state
        p = s.turn % len(self.players)
        if not s.darts:
            s = replace(s, tallies=_put(s.tallies, p, s.tallies[p].after_empty_turn()))
        self._states.append(self._pass_turn(s))
        self._inputs.append(TURN_END)

    def apply(self, entry: Entry) -> None:
        """``push`` a Dart or ``end_turn`` for ``TURN_END``: replays a history."""
        if entry is TURN_END:
            self.end_turn()
        else:
            self.push(entry)

    def pop(self) -> Entry:
        """Undoes the last ``push`` or ``end_turn`` and returns it."""
        if not self._inputs:
            raise NothingToUndo("nothing to undo: no dart has been thrown in this game")
        self._states.pop()
        return self._inputs.pop()

    def correct(self, index: int, dart: Dart | str) -> tuple[Entry, ...]:
        """Replaces the dart at ``history[index]`` and replays the later inputs, as if
        the right dart had been thrown. When the corrected dart (or a later one) now
        wins, the game ends there, as it would have on the night: the inputs after it
        are dropped and returned (empty when every later input was replayed), for the
        caller to say so. Refused (nothing changed) if that entry is not a dart.
        """
        if not -len(self._inputs) <= index < len(self._inputs):
            raise CricketError(f"no input number {index} in a history of {len(self._inputs)}")
        index %= len(self._inputs)
        if not isinstance(self._inputs[index], Dart):
            raise CricketError(f"input number {index} is a turn end, not a dart")
        saved = (list(self._states), list(self._inputs))
        tail = self._inputs[index + 1 :]
        del self._states[index + 1 :]
        del self._inputs[index:]
        try:
            self.push(dart)
            for k, entry in enumerate(tail):
                if self.outcome() is not None:
                    return tuple(tail[k:])
                self.apply(entry)
        except ValueError as e:
            self._states, self._inputs = saved
            raise CricketError(f"cannot correct input number {index}: {e}") from e
        return ()

    @classmethod
    def replay(
        cls,
        entries: Iterable[Entry],
        players: Sequence[str],
        variant: str = "standard",
        round_limit: int = 20,
        single_bull: bool = False,
        teams: Sequence[Sequence[str]] | None = None,
    ) -> CricketGame:
        """A new game (the constructor's arguments) fed ``entries``."""
        game = cls(players, variant, round_limit, single_bull, teams)
        for entry in entries:
            game.apply(entry)
        return game

    # ------------------------------------------------------------- questions

    @property
    def state(self) -> CricketState:
        return self._states[-1]

    @property
    def history(self) -> tuple[Entry, ...]:
        return tuple(self._inputs)

    @property
    def current_player(self) -> str:
        return self.players[self.state.turn % len(self.players)]

    @property
    def round(self) -> int:
        return self.state.turn // len(self.players) + 1

    @property
    def darts_this_turn(self) -> tuple[Dart, ...]:
        return self.state.darts

    @property
    def darts_left(self) -> int:
        return DARTS_PER_TURN - len(self.state.darts)

    def turns(self) -> list[Turn]:
        """The turns thrown so far, oldest first, each with its darts and where they are
        in ``history`` (what ``correct`` takes). A turn ended by NEXT with no dart is
        left out; the turn in play is last if it has a dart."""
        out: list[Turn] = []
        for index, entry in enumerate(self._inputs):
            if not isinstance(entry, Dart):
                continue
            turn = self._states[index].turn
            if not out or out[-1].turn != turn:
                player = self.players[turn % len(self.players)]
                out.append(Turn(turn, player, turn // len(self.players) + 1, ()))
            last = out[-1]
            out[-1] = replace(last, darts=(*last.darts, (index, entry)))
        return out

    def outcome(self) -> Outcome | None:
        return self.state.outcome

    def is_over(self) -> bool:
        return self.state.outcome is not None

    def marks(self, player: str, target: int) -> int:
        return self.state.marks[self._side(player)][target_index(target)]

    def owns(self, player: str, target: int) -> bool:
        return self.marks(player, target) >= MARKS_TO_OWN

    def is_closed(self, target: int) -> bool:
        i = target_index(target)
        return all(m[i] >= MARKS_TO_OWN for m in self.state.marks)

    def points(self, player: str) -> int:
        return self.state.points[self._side(player)]

    def team_of(self, player: str) -> tuple[str, ...]:
        return self.sides[self._side(player)]

    def stats(self, player: str) -> CricketStats:
        """The player's own darts and marks (``points`` are the side's, shared by a team)."""
        side = self._side(player)
        return report([self.state.tallies[self.players.index(player)]], self.state.points[side])

    def side_stats(self, player: str) -> CricketStats:
        """The player's side: with teams, the partners' figures summed (the team's MPR)."""
        side = self._side(player)
        tallies = [self.state.tallies[p] for p, s in enumerate(self._side_of_player) if s == side]
        return report(tallies, self.state.points[side])

    def __repr__(self) -> str:
        return (
            f"<CricketGame {self.variant} {list(self.players)!r} round {self.round}"
            f" {self.current_player} to throw, {len(self._inputs)} inputs>"
        )

    # -------------------------------------------------------------- the rules

    def _side(self, player: str) -> int:
        try:
            return self._side_of_player[self.players.index(player)]
        except ValueError:
            raise CricketError(f"not a player in this game: {player!r}") from None

    def _refuse_if_over(self, what: str) -> None:
        outcome = self.state.outcome
        if outcome is not None:
            who = f"{outcome.winner} won" if outcome.winner else "it was a draw"
            raise GameOver(f"the game is over ({who}: {outcome.reason}); {what} not accepted")

    def _throw(self, s: CricketState, dart: Dart) -> CricketState:
        p = s.turn % len(self.players)
        side = self._side_of_player[p]
        marks = [list(m) for m in s.marks]
        points = s.points
        scoring = 0
        fresh_triple = False
        m = marks_of(dart, self.single_bull)
        if m:
            i = TARGETS.index(dart.number)
            before = marks[side][i]
            if not all(ms[i] >= MARKS_TO_OWN for ms in marks):
                # Dart by dart: the part that closes never scores, the rest may.
                closing = max(0, min(m, MARKS_TO_OWN - before))
                marks[side][i] = min(MARKS_TO_OWN, before + m)
                scoring = closing
                surplus = m - closing
                if surplus:
                    open_opponents = [
                        o for o in range(len(marks)) if o != side and marks[o][i] < MARKS_TO_OWN
                    ]
                    scored = self._rules.award(points, side, surplus * TARGETS[i], open_opponents)
                    if scored is not None:
                        points = scored
                        scoring += surplus
            fresh_triple = dart.multiplier == 3 and before < MARKS_TO_OWN
        owned_all = s.owned_all
        if side not in owned_all and all(x >= MARKS_TO_OWN for x in marks[side]):
            owned_all += (side,)
        tally = s.tallies[p].after_dart(
            first_of_turn=not s.darts,
            turn_marks_before=s.turn_marks,
            scoring_marks=scoring,
            cricket_triple=dart.multiplier == 3 and dart.number in TARGETS,
            white_horse=fresh_triple and s.turn_fresh_triples == 2,
            hat_trick=dart.is_bull and s.turn_bulls == 2,
        )
        new = replace(
            s,
            marks=tuple(tuple(ms) for ms in marks),
            points=points,
            darts=(*s.darts, dart),
            tallies=_put(s.tallies, p, tally),
            turn_marks=s.turn_marks + scoring,
            turn_fresh_triples=s.turn_fresh_triples + (1 if fresh_triple else 0),
            turn_bulls=s.turn_bulls + (1 if dart.is_bull else 0),
            owned_all=owned_all,
        )
        winner = self._closed_out_winner(new)
        if winner is not None:
            return replace(new, outcome=self._win(new, winner))
        if len(new.darts) >= DARTS_PER_TURN:
            return self._pass_turn(new)
        return new

    def _closed_out_winner(self, s: CricketState) -> int | None:
        for side in s.owned_all:
            if all(
                self._rules.at_least_as_good(s.points[side], s.points[o])
                for o in range(len(self.sides))
                if o != side
            ):
                return side
        return None

    def _pass_turn(self, s: CricketState) -> CricketState:
        if self.round_limit and s.turn + 1 >= self.round_limit * len(self.players):
            # The last turn of the last round: decided now, and the turn stays on screen.
            return replace(s, outcome=self._round_limit_outcome(s))
        return replace(
            s, turn=s.turn + 1, darts=(), turn_marks=0, turn_fresh_triples=0, turn_bulls=0
        )

    def _board_marks(self, s: CricketState, side: int) -> int:
        return sum(s.marks[side])

    def _win(self, s: CricketState, winner: int) -> Outcome:
        def key(side: int) -> tuple[int, int, int, int]:
            owned = sum(1 for x in s.marks[side] if x >= MARKS_TO_OWN)
            points = self._rules.points_key(s.points[side])
            return (-owned, points, -self._board_marks(s, side), side)

        rest = sorted((o for o in range(len(self.sides)) if o != winner), key=key)
        team = self.sides[winner]
        who = " & ".join(team)
        return Outcome(
            winner=team[0],
            reason=f"{who} owns every target {self._rules.win_text}",
            placings=self._names([winner, *rest]),
            winners=team,
        )

    def _round_limit_outcome(self, s: CricketState) -> Outcome:
        def key(side: int) -> tuple[int, int]:
            return (self._rules.points_key(s.points[side]), -self._board_marks(s, side))

        order = sorted(range(len(self.sides)), key=lambda side: (*key(side), side))
        best, second = order[0], order[1]
        limit = f"round limit ({self.round_limit}) reached"
        if key(best) == key(second):
            return Outcome(winner=None, reason=f"{limit}: a draw", placings=self._names(order))
        if self._rules.name == "no-score":  # (no points to be equal on)
            why = "more marks on the board"
        elif key(best)[0] == key(second)[0]:
            why = "equal points, more marks on the board"
        else:
            why = "fewest points" if self._rules.name == "cut-throat" else "most points"
        team = self.sides[best]
        return Outcome(
            winner=team[0],
            reason=f"{limit}: {' & '.join(team)} wins on {why}",
            placings=self._names(order),
            winners=team,
        )

    def _names(self, sides: Iterable[int]) -> tuple[str, ...]:
        return tuple(name for side in sides for name in self.sides[side])


def _put(items: tuple[Tally, ...], index: int, item: Tally) -> tuple[Tally, ...]:
    return (*items[:index], item, *items[index + 1 :])
