"""A game of formula darts for one player (training, qualification) or two (duel).

python-chess shape: ``submit``/``timeout`` push a move, ``pop`` restores the snapshot
taken before it (exact, across rounds), ``outcome()`` is ``None`` while playing. The
engine never reads a clock: the caller says when a player's time ran out.

Chosen where the rules are silent:
- A solo timeout ends the game at once (a loss); the move is kept in ``history`` with
  no formula, no points and the score unchanged.
- In a duel each move's points count at once (``score`` shows them), but the game is
  decided only when both players have answered the round.
- ``perfect`` is set only for a winner, who won within ``min_rounds``; a duel where both
  reach 0 is a draw and not perfect.
- The round numbers are drawn once, in order, and kept: undoing back across a round
  and playing again gives the same digits (a game is the replay of its events).
- A player alone may end the game (``concede``): it is lost, as a game not finished
  in ``max_rounds`` is. Nothing is added to the rounds: the round being answered, or
  one whose digits were never shown, has no move to show. (Ending a game whose digits
  were never shown is no game at all: the caller abandons it instead, and a duel ended
  early is abandoned too: neither reaches the engine.)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import NamedTuple

from kiosk.domain.formula.expression import evaluate
from kiosk.domain.formula.rules import CLASSIC, Rules

MODES = ("training", "qualification", "duel")
SOLO_MODES = ("training", "qualification")


class GameError(ValueError):
    """A move the game refuses; the game is left unchanged."""


class UnknownPlayer(GameError):
    """The name is not a player of this game."""


class AlreadyAnswered(GameError):
    """The player has already answered (or timed out) this round."""


class GameOver(GameError):
    """The game has ended; no more moves."""


class NothingToUndo(GameError, IndexError):
    """``pop`` at the start of the game (also an IndexError, as python-chess's pop)."""


class Termination(Enum):
    ZERO = "zero"  # one player reached 0
    TIMEOUT = "timeout"  # solo: no formula in time
    MAX_ROUNDS = "max_rounds"  # solo: max_rounds played without reaching 0
    BOTH_ZERO = "both_zero"  # duel: scoring draw
    DRAW = "draw"  # duel, classic: max_rounds played, neither at 0
    BOTH_LOSE = "both_lose"  # duel, distance: max_rounds played, neither at 0
    CONCEDED = "conceded"  # solo: the player ended the game (a loss)


@dataclass(frozen=True)
class Outcome:
    winner: str | None
    reason: str
    perfect: bool
    termination: Termination = Termination.ZERO


class AutoMove(NamedTuple):
    formula: str
    result: int


def auto_move(digits: int) -> AutoMove:
    """The machine's move for a player out of time: 4589 -> 45+89 = 134, 4505 -> 45+05 = 50.

    Not subject to the leading-zero rule (it is the machine's move, not a formula).
    """
    text = str(digits)
    return AutoMove(f"{text[:2]}+{text[2:]}", int(text[:2]) + int(text[2:]))


@dataclass(frozen=True)
class Move:
    """One player's answer in one round."""

    player: str
    formula: str | None  # None: a solo timeout
    result: int | None
    points: int
    score: int  # after this move
    timed_out: bool = False

    @property
    def auto(self) -> bool:
        """The machine's automatic move for a duel player who ran out of time."""
        return self.timed_out and self.formula is not None


@dataclass(frozen=True)
class Round:
    number: int  # 1-based
    digits: int
    moves: tuple[Move, ...] = ()

    def move(self, player: str) -> Move | None:
        return next((m for m in self.moves if m.player == player), None)


@dataclass(frozen=True)
class _State:
    scores: tuple[int, ...]
    rounds: tuple[Round, ...]  # every round so far, the current one last
    outcome: Outcome | None


class FormulaGame:
    """``FormulaGame(["Ann"], rules=CLASSIC, mode="training", digits=[3489, 3001])``.

    ``digits``: the round numbers in order; ``seed``: a reproducible uniform draw from
    1000..9999 for rounds beyond them (without a seed: the system's randomness).
    """

    def __init__(
        self,
        players: Sequence[str],
        rules: Rules = CLASSIC,
        mode: str | None = None,
        digits: Iterable[int] | None = None,
        seed: int | None = None,
    ) -> None:
        names = tuple(players)
        if len(names) not in (1, 2):
            raise ValueError("formula darts is for 1 player or 2 (a duel)")
        if any(not isinstance(n, str) or not n.strip() for n in names):
            raise ValueError("every player needs a name")
        if len(set(names)) != len(names):
            raise ValueError("the two players need different names")
        mode = mode or ("duel" if len(names) == 2 else "training")
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}: choose one of {', '.join(MODES)}")
        if (mode == "duel") != (len(names) == 2):
            raise ValueError("a duel needs 2 players; training and qualification need 1")
        self.players = names
        self.rules = rules
        self.mode = mode
        self._given: Iterator[int] = iter(digits if digits is not None else ())
        self._random = random.Random(seed)
        self._draws: list[int] = []
        self._stack: list[_State] = []
        first = Round(1, self._digits_for(1))
        self._state = _State((rules.start,) * len(names), (first,), None)

    # -- reading -------------------------------------------------------------------------

    @property
    def digits(self) -> int:
        """This round's number."""
        return self._state.rounds[-1].digits

    @property
    def round(self) -> int:
        return self._state.rounds[-1].number

    @property
    def history(self) -> tuple[Round, ...]:
        """Every round so far, the current one (possibly with no moves yet) last."""
        return self._state.rounds

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """Players who have not answered this round (empty once the game is over)."""
        if self._state.outcome is not None:
            return ()
        current = self._state.rounds[-1]
        return tuple(p for p in self.players if current.move(p) is None)

    def score(self, player: str) -> int:
        return self._state.scores[self._index(player)]

    def score_before(self, player: str, number: int | None = None) -> int:
        """The player's score when round ``number`` (None: the current one) began: in a
        duel what is shown while the round is being answered, so that the first answer's
        points stay hidden from the second player."""
        self._index(player)  # an unknown name raises as in ``score``
        number = self.round if number is None else number
        score = self.rules.start
        for rnd in self.history:
            if rnd.number >= number:
                break
            move = rnd.move(player)
            if move is not None and move.result is not None:
                score = move.score
        return score

    def outcome(self) -> Outcome | None:
        return self._state.outcome

    def is_over(self) -> bool:
        return self._state.outcome is not None

    # -- moves ---------------------------------------------------------------------------

    def submit(self, player: str, formula: str) -> int:
        """Score ``formula`` for ``player``; returns the points.

        Raises FormulaError (refused formula) or a GameError, changing nothing.
        """
        index = self._check_can_move(player)
        result = evaluate(formula, self.digits)
        return self._push(index, Move(player, formula, result, 0, 0)).points

    def timeout(self, player: str) -> Move:
        """The player's time ran out: solo loses, a duel player gets the automatic move."""
        index = self._check_can_move(player)
        if self.mode in SOLO_MODES:
            score = self._state.scores[index]
            return self._push(index, Move(player, None, None, 0, score, timed_out=True))
        auto = auto_move(self.digits)
        return self._push(index, Move(player, auto.formula, auto.result, 0, 0, timed_out=True))

    def concede(self, player: str) -> Outcome:
        """The player alone ends the game before it is over: lost (see the module's
        docstring). A duel is never conceded here."""
        index = self._index(player)
        if self._state.outcome is not None:
            raise GameOver("the game is over")
        if self.mode not in SOLO_MODES:
            raise GameError("only a player alone can end the game as lost")
        reason = f"{self.players[index]} ended the game"
        outcome = Outcome(None, reason, False, Termination.CONCEDED)
        self._stack.append(self._state)
        self._state = replace(self._state, outcome=outcome)
        return outcome

    def pop(self) -> Move | None:
        """Undo the last submit, timeout or concede; returns the move undone (None for a
        concede, which made no move)."""
        if not self._stack:
            raise NothingToUndo("nothing to undo: the game has just started")
        outcome = self._state.outcome
        conceded = outcome is not None and outcome.termination is Termination.CONCEDED
        undone = None if conceded else self._last_move()
        self._state = self._stack.pop()
        return undone

    # -- inside --------------------------------------------------------------------------

    def _index(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise UnknownPlayer(f"{player!r} is not playing this game") from None

    def _check_can_move(self, player: str) -> int:
        if self._state.outcome is not None:
            raise GameOver("the game is over")
        index = self._index(player)
        if self._state.rounds[-1].move(player) is not None:
            raise AlreadyAnswered(f"{player} has already answered round {self.round}")
        return index

    def _last_move(self) -> Move | None:
        for rnd in reversed(self._state.rounds):
            if rnd.moves:
                return rnd.moves[-1]
        return None

    def _digits_for(self, number: int) -> int:
        while len(self._draws) < number:
            value = next(self._given, None)
            if value is None:
                value = self._random.randint(1000, 9999)
            elif type(value) is not int or not 1000 <= value <= 9999:
                raise ValueError(f"round numbers must be from 1000 to 9999, not {value!r}")
            self._draws.append(value)
        return self._draws[number - 1]

    def _push(self, index: int, move: Move) -> Move:
        state = self._state
        scores = list(state.scores)
        if move.result is not None:
            points = self.rules.points(move.result)
            scores[index] = self.rules.next_score(scores[index], points)
            move = replace(move, points=points, score=scores[index])
        current = state.rounds[-1]
        current = replace(current, moves=(*current.moves, move))
        rounds = (*state.rounds[:-1], current)
        outcome: Outcome | None = None
        if move.formula is None:
            outcome = Outcome(None, "time ran out", False, Termination.TIMEOUT)
        elif len(current.moves) == len(self.players):
            outcome = self._decide(current.number, scores)
            if outcome is None:
                number = current.number + 1
                rounds = (*rounds, Round(number, self._digits_for(number)))
        self._stack.append(state)
        self._state = _State(tuple(scores), rounds, outcome)
        return move

    def _decide(self, number: int, scores: list[int]) -> Outcome | None:
        """The outcome at the end of round ``number``, or None to play on."""
        at_zero = [p for p, s in zip(self.players, scores, strict=True) if s == 0]
        perfect = number <= self.rules.min_rounds
        if len(at_zero) == 1:
            return Outcome(at_zero[0], f"{at_zero[0]} reached 0", perfect, Termination.ZERO)
        if at_zero:
            return Outcome(None, "both reached 0: a draw", False, Termination.BOTH_ZERO)
        if number < self.rules.max_rounds:
            return None
        played = f"{self.rules.max_rounds} rounds played without reaching 0"
        if len(self.players) == 1:
            return Outcome(None, played, False, Termination.MAX_ROUNDS)
        if self.rules.both_lose_at_max_rounds:
            return Outcome(None, f"{played}: both lose", False, Termination.BOTH_LOSE)
        return Outcome(None, f"{played}: a draw", False, Termination.DRAW)
