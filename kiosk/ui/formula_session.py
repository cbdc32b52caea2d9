"""The one place where inputs change a formula game: ``FormulaSession``.

Screens never call the engine's ``submit``/``timeout``/``pop``: every accepted formula,
every timeout and every take-back goes through :meth:`FormulaSession.submit`,
:meth:`update` and :meth:`take_back`, which hand it to the session's *game log*. No
pygame here, and no clock: every call that needs the time gets ``now``
(``time.monotonic()`` in the app, anything in tests).

One source of truth: the engine is the log's (``game`` is ``log.engine``; see
``kiosk.ui.games.GameLog``). The store's ``LiveGame`` applies the input and commits it
before it returns, so the screen never shows a move the disk does not hold; a
``MemoryGame`` (the default: tests, the side game, no database) keeps it in memory. A
refused formula is never recorded: it is checked with the engine's own ``evaluate``
first. A commit that fails is taken back by the log and shown as "not saved" (the
log's ``failure`` raises the banner); a timeout that fails to save is retried each second.
``recorder`` is an optional observer called with each event before the log takes it
(tests watch the order with it). Assigning a ``GameLog`` to ``recorder`` (what
``start_formula`` does with ``kiosk.new_formula_recorder(setup)``) attaches that log:
see :meth:`attach`.

The clock survives a restart: while a player's clock runs, the session saves the time
left with ``log.save_clock`` about once a second (from :meth:`update`, never on an
input); a resumed session (``budget``) gives the player that time when they press Enter.
The formula being typed survives a restart too (``note_draft``): the screen hands the
session its keys after each change, and the session saves them with ``log.save_draft``
at once, or, when it saved less than ``DRAFT_SAVE_EVERY`` ago, the latest keys once that
time is up (from :meth:`update`). It is never an event: a resumed session
(``draft``) gives the keys back to the editor of the turn they were typed in
(:meth:`draft_for`), where the player still has to send them.
The clock itself is ``kiosk.ui.formula_clock.TurnClock``; the values (``FormulaSetup``,
``Preview``, ``Feedback``, ``move_text``) are in ``kiosk.ui.formula_values`` and
importable from here too.

The turn cycle (``phase``):

- ``ready``: the next player is named, the digits are hidden, no clock runs; Enter
  (:meth:`begin`) shows the digits and starts that player's ``time_limit``. In a duel
  this is the hand-over: the second player never sees the first one's formula. (The
  screen takes that Enter, and the one on a round's result, only ``ENTER_GUARD_S``
  after it appeared: ``kiosk.ui.screens.formula_play``.)
- ``playing``: typing; a refused formula can be fixed while time remains; at 10 s
  left a warning, at 0 the timeout (solo: the game is lost; duel: the automatic move).
- ``round_done``: both answered (or the solo player did): the round's moves and the
  solver's best formula are shown; :meth:`next_round` goes on. In training,
  :meth:`take_back` undoes the last formula (an ``undo`` event in the log) and the
  player answers the round again with a fresh clock.
- ``over``: the engine has an outcome.

Chosen where the rules are silent: in a duel the player who answers first alternates
each round (seat 1 first in odd rounds); the computer answers at once when its turn
comes, with no clock; a hint (training only) is one per round and shows the solver's
best formula for the player's score.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kiosk.domain.formula import solver
from kiosk.domain.formula.errors import FormulaError
from kiosk.domain.formula.expression import evaluate
from kiosk.domain.formula.game import FormulaGame, Move, Round
from kiosk.domain.replay import GameEvent
from kiosk.ui.computer import computer_move
from kiosk.ui.formula_clock import WARN_AT, TurnClock
from kiosk.ui.formula_values import RULE_FIELDS, Feedback, FormulaSetup, Preview, move_text

if TYPE_CHECKING:
    from kiosk.adapters.store.games import Draft
    from kiosk.ui.games import GameLog

__all__ = [
    "OVER",
    "PLAYING",
    "READY",
    "ROUND_DONE",
    "RULE_FIELDS",
    "SOUND_ACCEPTED",
    "SOUND_GOAL",
    "SOUND_REFUSED",
    "SOUND_TIMEOUT",
    "SOUND_WARN",
    "SOUND_WIN",
    "WARN_AT",
    "Feedback",
    "FormulaRecorder",
    "FormulaSession",
    "FormulaSetup",
    "Preview",
    "move_text",
]

log = logging.getLogger("kiosk.game")

FormulaRecorder = Callable[[GameEvent], None]

READY, PLAYING, ROUND_DONE, OVER = "ready", "playing", "round_done", "over"

# s between two saves of the formula being typed. A save is one commit of one small row
# (WAL, synchronous=FULL: a 4 KiB page appended to the log and an fsync), 0.25 ms on a
# desktop's SSD (bench/store.py) and a few ms on a Pi's SD card, on the display loop. A
# key typed after a pause is saved as it is typed; a burst of keys costs one save every
# half second, not one a key (a cut loses at most the last half second of typing).
DRAFT_SAVE_EVERY = 0.5

# Sounds: the clips in kiosk/assets/sounds (the clock's own two, then Cricket's)
SOUND_WARN, SOUND_TIMEOUT = "tick", "timeup"
SOUND_ACCEPTED, SOUND_GOAL, SOUND_REFUSED, SOUND_WIN = "hit", "close", "undo", "win"


def seen_digits(game: FormulaGame, budget: tuple[int, float] | None) -> bool:
    """Were digits shown in a stored game: a round answered, or its clock saved in a
    turn (``budget``: seat, seconds left; seat -1 between turns)?"""
    return any(r.moves for r in game.history) or (budget is not None and budget[0] >= 0)


class FormulaSession:
    kind = "formula"

    def __init__(
        self,
        setup: FormulaSetup,
        recorder: FormulaRecorder | None = None,
        *,
        log: GameLog | None = None,
        budget: tuple[int, float] | None = None,
        draft: Draft | None = None,
    ) -> None:
        """``log``: the game's log (a new ``MemoryGame`` if None); a resumed game's log
        already holds its events, ``budget`` is its saved clock (seat, seconds) and
        ``draft`` the formula that was being typed, not sent (``draft_for``)."""
        if setup.seed is None:
            # The store replays a game from its settings: the draw needs a fixed seed.
            setup = replace(setup, seed=random.SystemRandom().randrange(2**31))
        self.setup = setup
        self._observer = recorder
        self.rules = setup.make_rules()
        if log is None:
            from kiosk.adapters.store.memory import MemoryGame

            log = MemoryGame("formula", setup.settings(), setup.names)
        self.log: GameLog = log
        self.turn_clock = TurnClock(budget)  # budget (seat, s): the time left when saved
        self.computer = setup.names[-1] if setup.computer and len(setup.names) == 2 else None
        self.phase = READY
        self.player: str | None = None
        self.hint: solver.Solution | None = None
        self._hinted: set[tuple[int, str]] = set()
        # A goal hit this round by a player whom another follows: its sound waits for the
        # round's end, or the next player would hear the answer they must not see.
        self._goal_pending = False
        self._best: dict[tuple[int, int], solver.Solution] = {}
        self.shown_round: Round | None = None
        # The time left when the last turn ended (0 on a timeout): the clock a round's
        # result and the game's end show, not a full clock nobody has.
        self.left_at_answer: float | None = None
        self.revision = 0
        # A resumed turn's formula typed and not sent; the keys typed since and not yet
        # saved (seat, keys), and when keys were last saved (``note_draft``).
        self._draft_back = draft if draft is not None and draft.seq == self.log.seq else None
        self._draft_pending: tuple[int, tuple[str, ...]] | None = None
        self._draft_saved_at: float | None = None
        self._next_player(0.0)

    # -- the log -------------------------------------------------------------------

    @property
    def game(self) -> FormulaGame:
        engine = self.log.engine
        assert isinstance(engine, FormulaGame)
        return engine

    @property
    def recorder(self) -> FormulaRecorder | None:
        return self._observer

    @recorder.setter
    def recorder(self, value: Any) -> None:
        if value is not None and hasattr(value, "engine") and hasattr(value, "submit"):
            self.attach(value)
        else:
            self._observer = value

    def attach(self, game_log: GameLog) -> None:
        """Play on ``game_log`` from now on (a stored game just started for this setup).

        Only before the first move: the new log's engine is the same fresh game."""
        if any(r.moves for r in self.game.history):
            raise ValueError("a game log can only be attached before the first move")
        self.log = game_log
        # The store may spell a saved player's name its own way: take the log's names.
        self.computer = self.players[-1] if self.computer is not None else None
        self._next_player(0.0)

    def _commit(self, action: Callable[[], Any], event: GameEvent) -> tuple[bool, Any]:
        """Runs one log input: (True, its result) once saved and applied, else
        (False, the exception)."""
        if self._observer is not None:
            self._observer(event)
        from kiosk.adapters.store.live import NotSaved

        try:
            result = action()
        except NotSaved as e:  # taken back by the log; the banner says why
            log.error("formula input not saved, not shown: %s", e)
            return False, e
        except Exception as e:  # the engine refused it (or a bug): nothing was recorded
            log.exception("formula input refused")
            return False, e
        return True, result

    def _save_clock(self, now: float, force: bool = False) -> None:
        """The time left on the running clock, saved about once a second."""
        if self.player is None or self.player == self.computer:
            return
        seat = self.players.index(self.player)
        self.turn_clock.save(self.log, seat, self.remaining(now), now, force)

    def draft_for(self, player: str | None) -> tuple[str, ...]:
        """The keys ``player`` had typed in this turn, not sent, when the game was saved
        (a resumed game), once; () if none. Only for the turn they were typed in: the
        player's seat, no event since."""
        draft, self._draft_back = self._draft_back, None
        if draft is None or player is None or player not in self.players:
            return ()
        if draft.seat != self.players.index(player) or draft.seq != self.log.seq:
            self._draft_back = draft  # (another player's turn first: not theirs)
            return ()
        return draft.tokens

    def note_draft(self, tokens: tuple[str, ...], now: float) -> None:
        """The keys typed in this turn, changed: saved now, or by ``update`` once
        ``DRAFT_SAVE_EVERY`` has gone by since the last save (``draft_due``)."""
        if self.phase != PLAYING or self.player is None or self.player == self.computer:
            return
        self._draft_pending = (self.players.index(self.player), tuple(tokens))
        due = self.draft_due
        if due is not None and now >= due:
            self._save_draft(now)

    @property
    def draft_due(self) -> float | None:
        """When keys typed and not yet saved are to be saved (None: none wait)."""
        if self._draft_pending is None:
            return None
        return 0.0 if self._draft_saved_at is None else self._draft_saved_at + DRAFT_SAVE_EVERY

    def _save_draft(self, now: float) -> None:
        pending, self._draft_pending = self._draft_pending, None
        if pending is None:
            return
        self._draft_saved_at = now
        try:
            self.log.save_draft(*pending)
        except Exception as e:  # never stops the game; the log's failure raises the banner
            log.warning("formula typed not saved: %s", e)

    # -- questions -------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.game.players)

    @property
    def over(self) -> bool:
        return self.game.outcome() is not None

    @property
    def time_limit(self) -> float:
        return float(self.rules.time_limit)

    def time_for(self, player: str) -> float:
        """The time ``player`` gets when they press Enter: the limit, or in a resumed
        game what was left of it when it was saved."""
        return self.turn_clock.peek(self.players.index(player), self.time_limit)

    @property
    def deadline(self) -> float | None:
        """When the running clock runs out (None: no clock runs)."""
        return self.turn_clock.deadline

    def remaining(self, now: float) -> float:
        """The time left on the running clock; before it runs, what the player named
        will get (a resumed game: what they had left, not the full limit); after a
        turn (a round's result, the game over), what was left when it ended: 0 when
        the time ran out."""
        deadline = self.turn_clock.deadline
        if self.phase == PLAYING and deadline is not None:
            return max(0.0, deadline - now)
        if self.phase == READY and self.player in self.players:
            return self.time_for(self.player)
        if self.phase in (ROUND_DONE, OVER):
            return 0.0 if self.left_at_answer is None else self.left_at_answer
        return self.time_limit

    def order(self, number: int | None = None) -> tuple[str, ...]:
        """The players in the order they answer round ``number`` (default: this one)."""
        number = self.game.round if number is None else number
        names = self.players
        k = (number - 1) % len(names)
        return names[k:] + names[:k]

    def score_before_round(self, player: str, number: int | None = None) -> int:
        """The player's score when round ``number`` began (``FormulaGame.score_before``)."""
        return self.game.score_before(player, number)

    def finished_rounds(self) -> tuple[Round, ...]:
        """The rounds every player has answered (the current one once the game is over)."""
        rounds = self.game.history
        if self.over:
            return tuple(r for r in rounds if r.moves)
        return tuple(r for r in rounds if len(r.moves) == len(self.players))

    def best_for(self, number: int, player: str) -> solver.Solution:
        """The best formula in round ``number`` for ``player``'s score then: the
        solver's, or the player's own where it did better. The solver leaves out
        irrational steps (``tables.py``), and by the rules a floating result counts as
        whole within 1e-9 of an integer, so above 5e8 every one does: ``1*pow(sqrt(2),
        67)`` on 1267 is 12148002000, 150 points, where the solver's best is 99. "Best
        there was: 99" under a move of 150 would read as wrong."""
        rnd = self.game.history[number - 1]
        score = self.score_before_round(player, number)
        key = (rnd.digits, score)
        found = self._best.get(key)
        if found is None:
            found = self._best[key] = solver.best(rnd.digits, self.rules, score)
        after = self.rules.next_score(score, found.points)
        for move in rnd.moves:
            formula, result = move.formula, move.result
            if move.player == player and formula and result is not None and move.score < after:
                return solver.Solution(formula, result, move.points)
        return found

    def perfect_possible(self, player: str) -> bool:
        """Can ``player`` still reach 0 within ``min_rounds``, as far as the points allow
        (``Rules.can_finish``)? The digits drawn may still forbid it."""
        if self.over:
            outcome = self.game.outcome()
            return bool(outcome and outcome.perfect and outcome.winner == player)
        # (Settings can allow fewer rounds than a perfect game needs: then it never is.)
        left = self.rules.min_rounds - self.game.round + 1
        return (
            self.rules.min_rounds <= self.rules.max_rounds
            and left > 0
            and self.rules.can_finish(self.score_before_round(player), left)
        )

    def preview(self, text: str) -> Preview:
        if self.player is None:
            return Preview(text)
        try:
            value = evaluate(text, self.game.digits)
        except FormulaError as e:
            return Preview(text, error=e)
        points = self.rules.points(value)
        before = self.game.score(self.player)
        after = self.rules.next_score(before, points)
        return Preview(text, value, points, after, score_before=before)

    # -- inputs ----------------------------------------------------------------------

    def begin(self, now: float) -> Feedback:
        """Show the digits to the player named and start their clock (with the time
        that was left, for the player whose turn it was when the game was saved)."""
        if self.phase != READY or self.player is None:
            return Feedback(False)
        limit = self.turn_clock.limit(self.players.index(self.player), self.time_limit)
        self.phase = PLAYING
        self.turn_clock.start(now, limit)
        self.revision += 1
        self._save_clock(now, force=True)
        return Feedback(True)

    def set_aside(self, now: float) -> None:
        """The game waits (a side game while its player throws at the board): the
        clock stops with its time left, until ``take_up``. Keys typed and not yet saved
        are saved now: set aside, the game is not updated, and they would wait for it."""
        if self._draft_pending is not None and self.phase == PLAYING:
            self._save_draft(now)
        self.turn_clock.pause(now)

    def take_up(self, now: float) -> None:
        """Back to a game set aside: the clock runs on from the time it had left."""
        self.turn_clock.resume(now)

    @property
    def digits_seen(self) -> bool:
        """Has the player been shown any digits in this game: the clock running, or
        (``seen_digits``) a round answered or a clock saved in a turn?"""
        return self.phase == PLAYING or seen_digits(self.game, self.turn_clock.budget)

    def concede(self, now: float) -> bool:
        """The player alone ends a game that is not over (from the game menu): it is
        lost, so a qualification about to be lost cannot be kept off the standings by
        ending it. Recorded as a ``concede``, not as a timeout: the round whose digits
        were never shown (the next one, from a round's result) gets no move. Refused
        (False) before any digits were shown: that game was never played, and the
        caller abandons it (no result). rules.md says nothing of ending a game: this
        is the choice made. True once stored."""
        if self.over or len(self.players) != 1 or not self.digits_seen:
            return False
        ok, _ = self._commit(lambda: self.log.concede(0), GameEvent.concede(0))
        if not ok:
            return False
        log.info("%s ended the game: lost", self.players[0])
        self._after_move(now)
        return True

    def submit(self, text: str, now: float) -> Feedback:
        if self.phase != PLAYING or self.player is None:
            return Feedback(False, message="press Enter to start")
        if self.turn_clock.expired(now):
            return self._timeout(now)
        try:
            evaluate(text, self.game.digits)
        except FormulaError as e:
            log.debug("formula %r by %s refused (%s): %s", text, self.player, e.code, e.message)
            return Feedback(False, [SOUND_REFUSED], str(e), e)
        player = self.player
        seat = self.players.index(player)
        event = GameEvent.formula(seat, text)
        ok, points = self._commit(lambda: self.log.submit(seat, text), event)
        if not ok:  # nothing is shown that is not stored
            return Feedback(False, [SOUND_REFUSED], "Not saved: try again")
        log.info("formula %r by %s: %d points", text, player, points)
        goal = points == self.rules.goal + self.rules.bonus
        after = self._after_move(now)
        if goal and self.phase == READY:  # another player answers this round next
            self._goal_pending = True
            goal = False
        sounds = [] if goal and SOUND_GOAL in after else [SOUND_GOAL if goal else SOUND_ACCEPTED]
        return Feedback(True, sounds + after)

    def update(self, now: float) -> list[str]:
        """Run the clock: the sounds to play (warning at 10 s, timeout at 0); keys typed
        and not yet saved are saved once due."""
        due = self.draft_due
        if due is not None and now >= due and self.phase == PLAYING:
            self._save_draft(now)
        if self.phase != PLAYING or self.turn_clock.deadline is None:
            return []
        sounds: list[str] = []
        if not self.turn_clock.expired(now):
            self._save_clock(now)
        if self.turn_clock.warn(now):
            self.revision += 1
            sounds.append(SOUND_WARN)
        if self.turn_clock.expired(now):
            sounds += self._timeout(now).sounds
        return sounds

    def _timeout(self, now: float) -> Feedback:
        assert self.player is not None
        player = self.player
        seat = self.players.index(player)
        ok, move = self._commit(lambda: self.log.timeout(seat), GameEvent.timeout(seat))
        if not ok:
            log.error("timeout not recorded; trying again in 1 s")
            self.turn_clock.deadline = now + 1.0
            return Feedback(False)
        log.info("%s ran out of time (%s)", player, move.formula or "game lost")
        return Feedback(True, [SOUND_TIMEOUT, *self._after_move(now)])

    def hint_left(self) -> bool:
        """A hint can be asked now (training, once per round and player)."""
        return self.setup.mode == "training" and (self.game.round, self.player) not in self._hinted

    def ask_hint(self) -> Feedback:
        """Training only, once per round: the solver's best formula for this score."""
        if self.setup.mode != "training":
            return Feedback(False, message="hints are for training games only")
        if self.phase != PLAYING or self.player is None:
            return Feedback(False)
        key = (self.game.round, self.player)
        if key in self._hinted:
            return Feedback(False, message="one hint per round")
        self._hinted.add(key)
        self.hint = solver.best(self.game.digits, self.rules, self.game.score(self.player))
        self.revision += 1
        return Feedback(True)

    def take_back_check(self) -> Feedback:
        """Would :meth:`take_back` go ahead now? If not, the refusal to show."""
        if self.setup.mode != "training":
            return Feedback(
                False, [SOUND_REFUSED], message="A formula can be taken back in training only"
            )
        if self.phase != ROUND_DONE or self._last_round_moved() is None:
            return Feedback(False, [SOUND_REFUSED], message="Nothing to take back")
        return Feedback(True)

    def take_back(self, now: float) -> Move | None:
        """Training, on a round's result: the last formula is taken back (recorded as an
        undo event, committed before anything changes here), its player answers the
        round again with a fresh clock. Returns the move taken back; None when refused
        (``take_back_check`` says why) or when the undo could not be saved."""
        if not self.take_back_check().accepted:
            return None
        ok, move = self._commit(self.log.undo, GameEvent.undo())
        if not ok or not isinstance(move, Move):
            return None
        log.info("%s takes back %r", move.player, move.formula)
        self._draft_pending = None  # (the undo's commit deleted the stored one)
        self.player, self.phase, self.shown_round = move.player, PLAYING, None
        self.hint = None  # the round's one hint stays used (``_hinted``)
        self.turn_clock.start(now, self.time_limit)
        self.revision += 1
        self._save_clock(now, force=True)
        return move

    def next_round(self, now: float) -> Feedback:
        """From the round's result to the next round (solo: its clock starts at once)."""
        if self.phase != ROUND_DONE:
            return Feedback(False)
        self._next_player(now)
        if len(self.players) == 1:
            return self.begin(now)
        return Feedback(True)

    # -- inside ----------------------------------------------------------------------

    def _after_move(self, now: float) -> list[str]:
        # The move's commit deleted the stored draft: keys typed for the turn it ended
        # must not be saved after it, for the next one.
        self._draft_pending = self._draft_back = None
        deadline = self.turn_clock.deadline
        if deadline is not None:  # (none: the computer's move, a concede between turns)
            self.left_at_answer = max(0.0, deadline - now)
        if self.player != self.computer:
            self.turn_clock.save_stopped(self.log)
        self.turn_clock.stop()
        self.hint = None
        self.revision += 1
        last = self._last_round_moved()
        done = self.over or (last is not None and last.number < self.game.round)
        # Everyone has answered: a goal hit earlier in the round is heard now.
        held = [SOUND_GOAL] if done and self._goal_pending else []
        self._goal_pending = self._goal_pending and not done
        if self.over:
            self.phase, self.player, self.shown_round = OVER, None, last
            outcome = self.game.outcome()
            log.info("formula game over: %s", outcome)
            return held + ([SOUND_WIN] if outcome is not None and outcome.winner else [])
        if last is not None and last.number < self.game.round:
            self.phase, self.player, self.shown_round = ROUND_DONE, None, last
            return held
        return self._next_player(now)

    def _last_round_moved(self) -> Round | None:
        for rnd in reversed(self.game.history):
            if rnd.moves:
                return rnd
        return None

    def _next_player(self, now: float) -> list[str]:
        """Name the next player to answer this round; the computer answers at once."""
        waiting = self.game.waiting_for
        order = [p for p in self.order() if p in waiting]
        if not order:
            return []
        player = order[0]
        self.player, self.phase = player, READY
        self.turn_clock.stop()
        self.revision += 1
        if player != self.computer:
            return []
        move = computer_move(self.setup.computer, self.game.digits, self.rules,
                             self.game.score(player))  # fmt: skip
        self.phase = PLAYING
        feedback = self.submit(move.formula, now)
        if not feedback.accepted:  # never: the computer's formula passed evaluate
            log.error("computer formula %r refused: %s", move.formula, feedback.message)
        return []
