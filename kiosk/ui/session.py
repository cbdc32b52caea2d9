"""The one place where inputs change a Cricket game: ``CricketSession``.

Screens never call the engine's ``push``/``pop``: every dart, turn end and undo goes
through :meth:`CricketSession.throw`, :meth:`next_player` and :meth:`undo`, which hand
it to the session's *game log* and report what happened (the sounds to play, a
message). No pygame here.

One source of truth: the session has no engine of its own. The log (``GameLog``, see
``kiosk.ui.games``) owns the engine and applies each input to it: the store's
``LiveGame`` commits the event to SQLite before it returns (the screen is drawn only
after that), ``MemoryGame`` keeps it in memory (tests, no database). ``game`` is always
``log.engine``, so what the screen draws is what the log holds. An input the engine
refuses is never recorded; an input whose commit fails is taken back by the log, is
not shown, and the log's ``failure`` raises the "results are not being saved" banner.

The engine passes the turn by itself after the third dart. A bar machine then shows
the finished turn until the player has pulled the darts, so the session keeps the
last turn "on hold" for the scoreboard until the next input: NEXT during the hold
only ends the hold (it must not skip the next player), a dart during the hold is the
next player's first dart. The hold is screen state only: it is not recorded; a
resumed game whose last input was a turn's third dart starts with that turn on hold
again (``held_turn``), so the NEXT pressed after pulling those darts does not skip the
next player after a power cut either, nor after an undo of the next player's first dart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from kiosk.domain.cricket import Turn
from kiosk.domain.darts import Dart

if TYPE_CHECKING:
    from kiosk.ui.games import GameLog

log = logging.getLogger("kiosk.game")


@dataclass(frozen=True)
class CricketSetup:
    """What the menus chose: enough to start (or restart) a game."""

    names: tuple[str, ...] = ("Player 1", "Player 2")
    variant: str = "standard"
    round_limit: int = 20
    single_bull: bool = False
    teams: bool = False  # 4 names as two teams: names[0]&names[2] vs names[1]&names[3]

    def rematch(self) -> CricketSetup:
        """The same game again, the throw passed on as legs of a match alternate it: the
        one who threw second starts (with teams: the other team, partners in turn)."""
        return replace(self, names=(*self.names[1:], *self.names[:1]))

    def team_lists(self) -> list[list[str]] | None:
        if not self.teams or len(self.names) != 4:
            return None
        return [[self.names[0], self.names[2]], [self.names[1], self.names[3]]]

    def settings(self) -> dict[str, Any]:
        """The store's settings for this game (``kiosk.domain.replay`` builds it back)."""
        out: dict[str, Any] = {
            "variant": self.variant,
            "round_limit": self.round_limit,
            "single_bull": self.single_bull,
        }
        if self.team_lists() is not None:
            out["teams"] = [[0, 2], [1, 3]]
        return out

    @classmethod
    def from_settings(cls, names: Sequence[str], settings: Mapping[str, Any]) -> CricketSetup:
        """The setup of a stored game (to resume it, or for a rematch of it)."""
        return cls(
            names=tuple(names),
            variant=str(settings.get("variant", "standard")),
            round_limit=int(settings.get("round_limit", 20)),
            single_bull=bool(settings.get("single_bull", False)),
            teams=bool(settings.get("teams")),
        )


@dataclass(frozen=True)
class Award:
    """What a finished turn earned, announced on the scoreboard as bar machines do
    (the feats rules.md's statistics count): a white horse, a hat trick, or 5 to 9
    scoring marks. A turn that is both (three bulls of 6 marks) is named for the feat."""

    kind: str  # "white horse", "hat trick" or "marks"
    player: str
    marks: int  # the turn's scoring marks


@dataclass
class Feedback:
    """What one input did, for the screen: sounds, a one-line message, and what the
    turn it finished earned."""

    accepted: bool
    sounds: list[str] = field(default_factory=list)
    message: str = ""
    award: Award | None = None


@dataclass(frozen=True)
class LastTurn:
    player: str
    darts: tuple[Dart, ...]
    round: int  # the round the turn was in (the engine's may have moved on)


class CricketSession:
    kind = "cricket"

    def __init__(self, setup: CricketSetup, log: GameLog | None = None) -> None:
        """``log``: the game's log (a new ``MemoryGame`` if None); a resumed game's log
        already holds its events."""
        if log is None:
            from kiosk.adapters.store.memory import MemoryGame

            log = MemoryGame("cricket", setup.settings(), setup.names)
        self.setup = setup
        self.log: GameLog = log
        self.hold: LastTurn | None = held_turn(log.engine)
        # How many inputs the game had each time NEXT cleared a held turn (the darts
        # pulled), for the inputs still in the game: a dart after one taken back brings
        # back that state, not the hold.
        self._holds_cleared: set[int] = set()
        self.revision = 0  # bumped on every change; screens redraw when it moves

    # -- questions -------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The engine (the log's: never keep it across an input that failed to save)."""
        return self.log.engine

    @property
    def players(self) -> Sequence[str]:
        return tuple(self.game.players)

    @property
    def over(self) -> bool:
        return self.game.outcome() is not None

    @property
    def shown_player(self) -> str:
        """The player the scoreboard highlights: during a hold, the one who just threw."""
        return self.hold.player if self.hold else str(self.game.current_player)

    @property
    def shown_darts(self) -> tuple[Dart, ...]:
        return self.hold.darts if self.hold else tuple(self.game.darts_this_turn)

    @property
    def shown_round(self) -> int:
        """The round in the header: during a hold, the one the finished turn was in."""
        return self.hold.round if self.hold else int(self.game.round)

    # -- inputs ----------------------------------------------------------------------

    def _commit(self, action: Callable[[], Any]) -> Feedback | None:
        """Runs one log input; None when it is saved (and applied), else the refusal."""
        from kiosk.adapters.store.live import NotSaved

        try:
            action()
        except NotSaved as e:  # taken back by the log; the banner says why
            log.error("input not saved, not shown: %s", e)
            return Feedback(False, ["undo"], message="Not saved: try again")
        except ValueError as e:  # the engine refused it: nothing was recorded
            log.warning("input refused: %s", e)
            return Feedback(False, message=str(e))
        except Exception as e:  # a bug: logged and refused, never a crash at the bar
            log.exception("input failed")
            return Feedback(False, message=str(e))
        return None

    def throw(self, dart: Dart, source: str = "board") -> Feedback:
        game = self.game
        if self.over:
            return Feedback(False, message="Game over")
        player, darts_before, round_before, before, closed_before = _before_a_dart(game)
        feats = _Feats.before(game, player)
        refused = self._commit(lambda: self.log.dart(dart))
        if refused is not None:
            return refused
        self.revision += 1
        passed = not self.over and str(game.current_player) != player
        self.hold = LastTurn(player, (*darts_before, dart), round_before) if passed else None
        log.info("dart %s by %s (%s)", dart, player, source)
        sounds = self._sounds(dart, player, before, closed_before)
        outcome = game.outcome()
        if outcome is not None:
            log.info("game over: winner %s (%s)", outcome.winner, outcome.reason)
        return Feedback(True, sounds, award=feats.award(self.game) if passed else None)

    def replace_last(self, dart: Dart, source: str = "keypad") -> Feedback:
        """``dart`` in place of the last dart (the cameras' other reading), as one input:
        saved together, so a power cut leaves the one dart or the other, never neither."""
        game = self.game
        last = game.history[-1] if game.history else None
        if not isinstance(last, Dart):
            return Feedback(False, message="Nothing to undo")
        game.pop()  # to see the turn as it was before the last dart; put back at once
        try:
            player, darts_before, round_before, before, closed_before = _before_a_dart(game)
            feats = _Feats.before(game, player)
        finally:
            game.push(last)
        refused = self._commit(lambda: self.log.replace_last(dart))
        if refused is not None:
            return refused
        self.revision += 1
        passed = not self.over and str(self.game.current_player) != player
        self.hold = LastTurn(player, (*darts_before, dart), round_before) if passed else None
        if passed:  # (held again: its NEXT, if any, was for the dart replaced)
            self._holds_cleared.discard(len(self.game.history))
        log.info("dart %s by %s in place of %s (%s)", dart, player, last, source)
        award = feats.award(self.game) if passed else None
        return Feedback(True, self._sounds(dart, player, before, closed_before), award=award)

    def correctable(self) -> list[Turn]:
        """The turns whose darts may be corrected in place, oldest first: every turn
        thrown (the one on the scoreboard last), the game's last too once it is over
        (from the results screen: the game is finished only when they go)."""
        turns: list[Turn] = self.game.turns()
        return turns

    def correction_drops(self, index: int, dart: Dart) -> int:
        """How many later darts a correction would drop (it wins the game before them);
        0 when it cannot be made (``correct`` then says why)."""
        from kiosk.domain.replay import correction

        try:
            _, dropped = correction(self.setup.settings(), self.setup.names, self.game, index, dart)
        except ValueError:
            return 0
        return sum(isinstance(entry, Dart) for entry in dropped)

    def correct(self, index: int, dart: Dart) -> Feedback:
        """The dart at ``history[index]`` replaced by ``dart``, the later darts kept (one
        commit). A corrected dart that now wins ends the game there."""
        game = self.game
        old = game.history[index]
        # A turn held stays held; so does (from the results) a game's last turn that
        # no longer wins: its third dart passed the turn, and the thrower pulls the
        # darts before NEXT, as a restart would show it (``held_turn``).
        held = self.hold is not None or self.over
        dropped: list[Any] = []
        refused = self._commit(lambda: dropped.extend(self.log.correct(index, dart)))
        if refused is not None:
            return refused
        self.revision += 1
        game = self.game
        self.hold = held_turn(game) if held else None
        log.info(
            "dart %d corrected: %s instead of %s%s", index + 1, dart, old,
            f" ({len(dropped)} later inputs dropped: the game ends on it)" if dropped else "",
        )  # fmt: skip
        outcome = game.outcome()
        if outcome is not None:
            log.info("game over: winner %s (%s)", outcome.winner, outcome.reason)
            return Feedback(True, ["win"])
        return Feedback(True, ["hit"])

    def _sounds(
        self, dart: Dart, player: str, before: dict[int, int], closed_before: set[int]
    ) -> list[str]:
        game = self.game
        if game.outcome() is not None:
            return ["win"]
        if dart.number in closed_before:
            return ["miss"]  # a closed target takes no marks: nothing counted
        if dart.number in before:
            newly_closed = game.is_closed(dart.number) and dart.number not in closed_before
            newly_owned = before[dart.number] < 3 <= game.marks(player, dart.number)
            if newly_closed or newly_owned:
                return ["close"]
            if dart.is_bull:
                return ["bull"]
            if dart.multiplier == 3:
                return ["triple"]
            return ["hit"]
        return ["miss"]

    def next_player(self) -> Feedback:
        if self.over:
            return Feedback(False, message="Game over")
        if self.hold is not None:
            # The engine already passed the turn after the third dart.
            self.hold = None
            self._holds_cleared.add(len(self.game.history))
            self.revision += 1
            return Feedback(True)
        player, marks = str(self.game.current_player), int(self.game.state.turn_marks)
        refused = self._commit(self.log.end_turn)
        if refused is not None:
            return refused
        self.revision += 1
        log.info("turn ended early; %s to throw", self.game.current_player)
        outcome = self.game.outcome()
        if outcome is not None:  # the round limit reached on NEXT: the game's end
            log.info("game over: winner %s (%s)", outcome.winner, outcome.reason)
            return Feedback(True, ["win"])
        # (two darts of 5 or 6 marks; a white horse or hat trick takes three darts)
        return Feedback(True, award=marks_award(player, marks))

    def undo(self) -> Feedback:
        if not self.game.history:
            return Feedback(False, message="Nothing to undo")
        entry = self.game.history[-1]
        refused = self._commit(self.log.undo)
        if refused is not None:
            return refused
        # A dart taken back from the start of a turn (a 4th dart thrown before NEXT, a
        # stray one) brings back the finished turn before it, held as it was: the NEXT
        # pressed while pulling those darts then clears the hold, not the next turn. A
        # turn's end taken back (a player who passed with no dart after the hold was
        # cleared) brings back that player, to throw: no earlier turn is held.
        # A dart thrown after NEXT had cleared the hold: back to the next player, to
        # throw, as NEXT had left it.
        now = len(self.game.history)
        self._holds_cleared = {n for n in self._holds_cleared if n <= now}
        cleared = now in self._holds_cleared
        self.hold = held_turn(self.game) if isinstance(entry, Dart) and not cleared else None
        self.revision += 1
        log.info("undo %s; %s to throw", entry, self.game.current_player)
        return Feedback(True, ["undo"])


@dataclass(frozen=True)
class _Feats:
    """A thrower's feat counts before a dart (and the marks of the turn so far): the
    turn's award is what the dart that finished it added."""

    player: str
    white_horses: int
    hat_tricks: int
    marks: int  # the thrower's scoring marks in the game
    turn_marks: int  # scoring marks of the turn before the dart

    @classmethod
    def before(cls, game: Any, player: str) -> _Feats:
        stats = game.stats(player)
        turn_marks = int(game.state.turn_marks)
        return cls(player, stats.white_horses, stats.hat_tricks, stats.marks, turn_marks)

    def award(self, game: Any) -> Award | None:
        """What the finished turn earned (None: nothing to announce)."""
        after = game.stats(self.player)
        marks = self.turn_marks + after.marks - self.marks
        if after.white_horses > self.white_horses:
            return Award("white horse", self.player, marks)
        if after.hat_tricks > self.hat_tricks:
            return Award("hat trick", self.player, marks)
        return marks_award(self.player, marks)


def marks_award(player: str, marks: int) -> Award | None:
    """A turn of 5 to 9 scoring marks is announced (the results count them too)."""
    return Award("marks", player, marks) if 5 <= marks <= 9 else None


def _before_a_dart(
    game: Any,
) -> tuple[str, tuple[Dart, ...], int, dict[int, int], set[int]]:
    """What a dart's sounds and the turn held after it are judged against: the thrower,
    the turn's darts and round so far, their marks and the targets closed."""
    player = str(game.current_player)
    marks = {t: game.marks(player, t) for t in game.targets}
    closed = {t for t in game.targets if game.is_closed(t)}
    return player, tuple(game.darts_this_turn), game.round, marks, closed


def held_turn(game: Any) -> LastTurn | None:
    """The turn a game's log ends on, when its third dart passed the turn (the engine's
    ``turn`` moved on with no dart yet in the new one): what the scoreboard held."""
    history = game.history
    if game.outcome() is not None or game.darts_this_turn or len(history) < 3:
        return None
    last = history[-3:]
    if not all(isinstance(entry, Dart) for entry in last):
        return None  # the turn was ended early (NEXT): nothing is held
    turn = game.state.turn - 1
    players = game.players
    return LastTurn(str(players[turn % len(players)]), tuple(last), turn // len(players) + 1)
