"""The games of the kiosk: the game-log port the sessions play on, and ``GameKeeper``,
which opens, resumes, finishes and abandons them.

``GameLog`` is what a session needs from a log: the engine, and one method per input.
Two implementations: the store's ``LiveGame`` (each input committed to SQLite before
it returns) and ``MemoryGame`` (no disk). The keeper hands out ``LiveGame`` while the
database works and ``MemoryGame`` when it could not be opened (then the banner says
"results are not being saved" and why).

A game's life in the database (decided here, documented for the bar):

- started when its screen opens (``new_recorder`` / ``new_formula_recorder``);
- *rated* (league): Cricket of 2-4 players who are all saved players (in the store,
  not retired) before the game; a formula qualification of a saved player, and a
  formula duel of two saved players (not the computer: "Computer" is generic). Otherwise
  a friendly / training game. Names not in the store are added as players; the
  menus' generic names ("Player 1", "Computer") are added as retired players, so the
  roster and standings never show them and their games are never rated;
- finished (results, ratings) once it is over *and* its screens have gone (the
  results screen can still undo the winning dart); abandoned when its screens go
  before it is over ("End game"), or when the kiosk offers to resume it and the
  player says abandon;
- at start (``GameKeeper.unfinished``; the screens it comes back to:
  ``kiosk.ui.comeback``): when the newest unfinished game is a Cricket game that is
  over, its results come back as they were, the winning dart still undoable and a dart
  still correctable, and it is finished once they go, as always. Only while they would
  still be up had the power stayed on: its last input less than ``RESULTS_IDLE_S``
  (10 minutes) before the start, the time results left alone stay; a kiosk off for
  longer (overnight) finishes it at start, as a running kiosk would have by then. A
  clock behind that input cannot tell how long ago it was, and is taken for long ago:
  a Pi has no clock chip, and after a cut it starts on the time it last saved, before
  NTP; last night's results must not greet the morning staff, whose first Enter would
  start a rematch of them. (A kiosk stopped on purpose finishes the games
  that are over as it stops: ``shutdown``.) A formula game's end offers no undo nor
  correction: one that is over is finished at start, and so is every older game over.
  The newest one not over is offered for resume (``kiosk.ui.screens.resume``); older
  ones in play are abandoned (their events stay in the database).
- a side game (formula darts while a Cricket player waits) is no game of its own: no
  result, never offered. It is kept with its Cricket game (``side_log``: a row written
  over at each change), comes back when that game is resumed (``side_sessions``), and
  goes when that game ends.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kiosk.domain.darts import Dart
from kiosk.domain.names import fold
from kiosk.domain.replay import Engine
from kiosk.ui.i18n import in_every_language

if TYPE_CHECKING:
    from kiosk.adapters.store import GameRecord, Store
    from kiosk.domain.formula.game import FormulaGame
    from kiosk.ui.context import Kiosk
    from kiosk.ui.formula_session import FormulaSession, FormulaSetup
    from kiosk.ui.screen import Screen
    from kiosk.ui.session import CricketSession, CricketSetup

log = logging.getLogger("kiosk.games")

RATED_FORMULA_MODES = ("qualification", "duel")  # issue 7: training never counts

# "Player 3", "Player 3'" (made distinct), in any language the menus use.
_GENERIC = re.compile(r"^(?P<word>.+) \d+'*$")


@dataclass(frozen=True)
class StartOffer:
    """What a start comes back to: a game in play (offered for resume), or one ``over``
    whose results come back (``GameKeeper.results_come_back``)."""

    record: GameRecord
    over: bool = False


class GameLog(Protocol):
    """A game's engine and its append-only log of inputs (see the module docstring)."""

    @property
    def engine(self) -> Engine: ...

    @property
    def seq(self) -> int:
        """How many events the log holds (the last one's sequence number)."""
        ...

    def dart(self, dart: Dart | str) -> None: ...

    def end_turn(self) -> None: ...

    def replace_last(self, dart: Dart | str) -> None: ...

    def correct(self, index: int, dart: Dart | str) -> tuple[Any, ...]: ...

    def submit(self, seat: int, formula: str) -> Any: ...

    def timeout(self, seat: int) -> Any: ...

    def concede(self, seat: int) -> Any: ...

    def undo(self) -> Any: ...

    def save_clock(self, seat: int, remaining_s: float) -> None: ...

    def save_draft(self, seat: int, tokens: Sequence[str]) -> None:
        """The formula typed and not sent (its keys; none: forgotten). Never an event."""
        ...

    def is_over(self) -> bool: ...

    def finish(self) -> Any: ...

    def abandon(self) -> None: ...


class GameKeeper:
    def __init__(
        self,
        store: Store | None,
        *,
        translate: Callable[[str], str] = str,
        on_problem: Callable[[str], None] | None = None,
        locale_dir: Path | None = None,
    ) -> None:
        """``locale_dir``: the translations, to know a default name ("Гравець 2") in
        any language, not only the one spoken now."""
        self.store = store
        self.translate = translate
        self.on_problem = on_problem
        self.locale_dir = locale_dir
        self.open: list[GameLog] = []  # logs whose screens may still be up
        # Called as a new game starts, before it is rated and its log made (bootstrap's
        # StoreWatch: a database held at the start tried again).
        self.before_start: Callable[[], None] | None = None

    def problem(self, reason: str) -> None:
        if self.on_problem is not None:
            self.on_problem(reason)

    def failure(self) -> str:
        """Why the open game's last input or clock could not be saved ("" if it was)."""
        for game_log in self.open:
            reason = str(getattr(game_log, "failure", ""))
            if reason:
                return reason
        return ""

    # -- new games -------------------------------------------------------------------

    def cricket_log(self, kind: str, setup: CricketSetup) -> GameLog:
        """The log for a new Cricket game (``Kiosk.new_recorder``)."""
        if self.before_start is not None:
            self.before_start()
        names = list(setup.names)
        rated = 2 <= len(names) <= 4 and self._all_saved(names)
        return self._start("cricket", names, setup.settings(), rated)

    def formula_log(self, setup: FormulaSetup) -> GameLog:
        """The log for a new formula game (``Kiosk.new_formula_recorder``); ``setup``
        must have its seed fixed (``FormulaSession`` does that)."""
        if self.before_start is not None:
            self.before_start()
        names = list(setup.names)
        rated = setup.mode in RATED_FORMULA_MODES and self._all_saved(names)
        return self._start("formula", names, setup.settings(), rated)

    def _words(self, message: str) -> Collection[str]:
        if self.locale_dir is None:
            return (message, self.translate(message))
        return in_every_language(message, self.locale_dir)

    def placeholder(self, name: str) -> bool:
        """Whether ``name`` is a seat's default name ("Player 2", "Гравець 2", the
        computer): a player kept retired for the games it plays, anyone's, never one of
        the league's (``_start``)."""
        if name.rstrip("'") in self._words("Computer"):
            return True
        m = _GENERIC.match(name)
        return m is not None and m["word"] in self._words("Player")

    def _all_saved(self, names: Sequence[str]) -> bool:
        if self.store is None:
            return False
        for name in names:
            if self.placeholder(name):
                return False
            try:
                player = self.store.players.find(name)
            except Exception as e:  # a damaged file: play on, not rated (``_start`` says why)
                log.error("cannot look up player %r: %s", name, e)
                return False
            if player is None or player.retired:
                return False
        return True

    def _start(self, kind: str, names: list[str], settings: dict[str, Any], rated: bool) -> GameLog:
        from kiosk.adapters.store.memory import MemoryGame

        self.close_others()
        game_log: GameLog | None = None
        if self.store is not None:
            try:
                for name in names:
                    found = self.store.players.find(name)
                    if found is None:
                        found = self.store.players.add(name)
                    # (retired also when found not: a power cut between the two left it
                    # a saved player, on every roster for good). A default name merged
                    # into a player is that player's now, as the owner said: no game
                    # could be stored while retiring it was tried (it would retire them).
                    own = fold(found.name) == fold(name)
                    if self.placeholder(name) and own and not found.retired:
                        self.store.players.retire(name)
                game_log = self.store.start_game(kind, names, settings, rated=rated)
                self.problem("")
                log.info(
                    "game %d started: %s, %s, %s",
                    game_log.record.id,
                    kind,
                    " v ".join(names),
                    "rated" if rated else "not rated",
                )
            except Exception as e:
                log.error("the %s game cannot be stored: %s", kind, e)
                self.problem(str(e))
        if game_log is None:
            game_log = MemoryGame(kind, settings, names)
        self.open.append(game_log)
        return game_log

    # -- side games ----------------------------------------------------------------------

    def side_log(self, cricket_log: GameLog, seat: int, setup: FormulaSetup) -> GameLog | None:
        """The log of a side game (formula darts while you wait) of the player at ``seat``
        beside the Cricket game played on ``cricket_log``: a ``KeptGame`` kept with that
        game in the database (``Games.save_side_game``), or None (a ``MemoryGame``, the
        session's own) when the Cricket game is not stored. ``setup``'s seed fixed. Never
        a game of its own: no result, no offer at start, nothing closed here."""
        game_id = getattr(cricket_log, "id", None)
        if self.store is None or game_id is None:
            return None
        from kiosk.adapters.store.memory import KeptGame

        games = self.store.games
        keep = partial(games.save_side_game, int(game_id), seat)
        return KeptGame("formula", setup.settings(), setup.names, keep=keep)

    def side_sessions(
        self, cricket_log: GameLog, players: Sequence[str]
    ) -> dict[str, FormulaSession]:
        """The side games kept beside the Cricket game on ``cricket_log`` (resumed), by
        player (``players``: the game's, by seat), as they were: their clock's time left
        and their formula typed. Those over, or that do not replay, are left out."""
        game_id = getattr(cricket_log, "id", None)
        if self.store is None or game_id is None:
            return {}
        from kiosk.adapters.store.games import Draft
        from kiosk.adapters.store.memory import KeptGame
        from kiosk.ui.formula_session import FormulaSession, FormulaSetup

        games = self.store.games
        try:
            kept = games.side_games(int(game_id))
        except Exception as e:
            log.error("game %s: its side games cannot be read: %s", game_id, e)
            return {}
        out: dict[str, FormulaSession] = {}
        for seat, state in kept.items():
            try:
                name = str(players[seat])
                keep = partial(games.save_side_game, int(game_id), seat)
                side = KeptGame.from_state(state, (name,), keep)
                if side.is_over():
                    continue
                setup = FormulaSetup.from_settings((name,), dict(side.settings))
                draft = None if side.draft is None else Draft(*side.draft)
                out[name] = FormulaSession(setup, log=side, budget=side.clock, draft=draft)
            except Exception as e:  # (a side game: the match goes on without it)
                log.error("game %s: the side game of seat %d does not replay: %s",
                          game_id, seat, e)  # fmt: skip
        return out

    # -- games that end ----------------------------------------------------------------

    def close(self, game_log: GameLog) -> None:
        """Its screens are gone: finished if over, else abandoned."""
        if game_log in self.open:
            self.open.remove(game_log)
        game_id = getattr(game_log, "id", None)
        try:
            if game_log.is_over():
                game_log.finish()
                log.info("game %s finished: %s", game_id, game_log.engine.outcome())
            else:
                game_log.abandon()
                log.info("game %s abandoned after %d inputs", game_id, game_log.seq)
        except Exception as e:
            log.error("game %s could not be closed: %s", game_id, e)
            self.problem(f"game {game_id} not closed: {e}")

    def close_others(self, keep: Sequence[GameLog] = ()) -> None:
        for game_log in list(self.open):
            if all(game_log is not k for k in keep):
                self.close(game_log)

    def sweep(self, screens: Sequence[Screen]) -> None:
        """Closes the logs that no screen on the stack plays on any more."""
        if not self.open:
            return
        shown = [s.log for s in sessions_of(screens)]
        for game_log in list(self.open):
            if all(game_log is not g for g in shown):
                self.close(game_log)

    def shutdown(self) -> None:
        """At exit: games that are over are finished; the others stay to be resumed."""
        for game_log in list(self.open):
            if game_log.is_over():
                self.close(game_log)

    # -- resume ------------------------------------------------------------------------

    def unfinished(self) -> StartOffer | None:
        """At start: what to come back to (None: nothing). The newest unfinished game,
        in play (offered for resume) or over with results that come back
        (``results_come_back``); the other games that are over are finished, the
        others in play abandoned. (Also when a database is opened late: the games
        this kiosk has open are its own, not left over: ``sweep`` closes them.)"""
        if self.store is None:
            return None
        offer: StartOffer | None = None
        mine = {getattr(game_log, "id", None) for game_log in self.open}
        try:
            records = [r for r in self.store.games.unfinished() if r.id not in mine]
        except Exception as e:
            log.error("cannot look for unfinished games: %s", e)
            return None
        for n, record in enumerate(reversed(records)):  # the newest first
            newest = n == 0
            try:
                engine = self.store.games.replay(record.id)
                over = engine.outcome() is not None
                if over and newest and self.results_come_back(record):
                    offer = StartOffer(record, over=True)
                elif over:
                    self.store.finish(record.id)
                    log.info("game %d was over: finished at start", record.id)
                elif offer is None:
                    offer = StartOffer(record)
                else:
                    self.store.abandon(record.id)
                    log.info("older unfinished game %d abandoned at start", record.id)
            except Exception as e:
                log.error("unfinished game %d cannot be rebuilt: %s", record.id, e)
                if offer is None:
                    offer = StartOffer(record)  # the resume screen says why and sets it aside
        return offer

    def results_come_back(self, record: GameRecord) -> bool:
        """Do the results of ``record`` (the newest game, over, not finished: the power
        went while they were up) come back at start? A Cricket game's do, while they
        would still be up had the power stayed on (the module docstring says why)."""
        assert self.store is not None
        if record.kind != "cricket":
            return False
        from kiosk.ui.screens.results import RESULTS_IDLE_S

        try:
            times = self.store.games.event_times(record.id)
            since = (self.store.db.clock() - datetime.fromisoformat(times[-1])).total_seconds()
        except Exception as e:  # (no time to go by: finished, as before)
            log.error("game %d: when it ended cannot be read: %s", record.id, e)
            return False
        if since >= RESULTS_IDLE_S:
            log.info("game %d was over %.0f min before the start: not shown again",
                     record.id, since / 60)  # fmt: skip
            return False
        if since < 0:  # (the module docstring says why: taken for long ago)
            log.info("game %d ended %.0f s ahead of the clock (a Pi's clock not yet set?): "
                     "not shown again", record.id, -since)  # fmt: skip
            return False
        return True

    def finish_at_start(self, record: GameRecord) -> None:
        """A game over whose results were to come back, and cannot: finished now."""
        if self.store is None:
            return
        try:
            self.store.finish(record.id)
            log.info("game %d was over: finished at start", record.id)
        except Exception as e:
            log.error("game %d could not be finished: %s", record.id, e)
            self.problem(f"game {record.id} not closed: {e}")

    def resume(self, record: GameRecord) -> CricketSession | FormulaSession:
        """The session of a stored game, rebuilt by replay (``ReplayError`` if not)."""
        assert self.store is not None
        live = self.store.resume(record.id)
        self.close_others()
        self.open.append(live)
        names = tuple(record.players)
        settings = dict(record.settings)
        log.info("game %d resumed after %d inputs", record.id, live.seq)
        if record.kind == "cricket":
            from kiosk.ui.session import CricketSession, CricketSetup

            setup = CricketSetup.from_settings(names, settings)
            return CricketSession(setup, live)
        from kiosk.ui.formula_session import FormulaSession, FormulaSetup

        budget = self.store.games.clock(record.id)
        draft = self.store.games.draft(record.id)
        return FormulaSession(
            FormulaSetup.from_settings(names, settings),
            log=live,
            budget=budget,
            draft=draft,
        )

    def ends_lost(self, record: GameRecord) -> bool:
        """Does ending this unfinished game lose it? A formula game of one player who
        has seen its digits does, as from its menu (``FormulaSession.concede``): a
        qualification about to be lost cannot be kept off the standings by a restart
        and "Abandon" either."""
        if self.store is None or record.kind == "cricket" or len(record.players) != 1:
            return False
        from kiosk.domain.formula.game import FormulaGame
        from kiosk.ui.formula_session import seen_digits

        try:
            game = self.store.games.replay(record.id)
            budget = self.store.games.clock(record.id)
            return isinstance(game, FormulaGame) and seen_digits(game, budget)
        except Exception as e:  # (the resume screen says why it cannot be played)
            log.error("game %d does not replay: %s", record.id, e)
            return False

    def abandon(self, record: GameRecord, lost: bool | None = None) -> FormulaGame | None:
        """The player asked at start not to go on with ``record``: closed with no result,
        or lost (``ends_lost``, or ``lost`` as the offer found it): then its game, over,
        is returned."""
        if self.store is None:
            return None
        if self.ends_lost(record) if lost is None else lost:
            session = self._resumed(record)
            if session is not None:
                conceded = session.concede(time.monotonic())
                self.close(session.log)  # finished if lost, else abandoned
                if conceded:
                    log.info("game %d ended at start, on request: lost", record.id)
                    return session.game
                log.error("game %d: its loss could not be saved: abandoned", record.id)
                return None
        try:
            self.store.abandon(record.id)
            log.info("game %d abandoned at start, on request", record.id)
        except Exception as e:
            log.error("game %d could not be abandoned: %s", record.id, e)
            self.problem(f"game {record.id} not abandoned: {e}")
        return None

    def _resumed(self, record: GameRecord) -> FormulaSession | None:
        from kiosk.ui.formula_session import FormulaSession

        try:
            session = self.resume(record)
        except Exception as e:
            log.error("game %d cannot be resumed to end it: %s", record.id, e)
            return None
        return session if isinstance(session, FormulaSession) else None


class FrameWatch:
    """Called after every flip: on a new top screen, closes the games no screen plays
    any more (``GameKeeper.sweep``) and tells systemd; with ``trace``, logs each game
    input once it is on screen ("shown ...": the crash test reads these lines)."""

    def __init__(self, kiosk: Kiosk, notifier: Any, trace: bool) -> None:
        self.kiosk = kiosk
        self.notifier = notifier
        self.trace = trace
        self._top: Any = None
        self._shown: dict[int, int] = {}
        self.trace_log = logging.getLogger("kiosk.trace")

    def __call__(self, frame: Any) -> None:
        stack = self.kiosk.stack
        top = stack.top
        if top is not self._top:
            self._top = top
            if self.kiosk.games is not None:
                self.kiosk.games.sweep(stack.screens())
            if self.notifier is not None:
                self.notifier.status(f"screen: {frame.screen}")
        if self.trace and top is not None:
            self._trace(top)

    def _trace(self, top: Any) -> None:
        for session in sessions_of([top]):
            game_log = session.log
            seq = int(game_log.seq)
            key = id(game_log)
            if self._shown.get(key) == seq:
                continue
            self._shown[key] = seq
            event = game_log.last_event
            what = "-" if event is None else f"{event.kind} {_payload(event)}"
            self.trace_log.info(
                "shown game=%s seq=%d digest=%s %s",
                getattr(game_log, "id", None),
                seq,
                state_digest(game_log.engine),
                what,
            )


def _payload(event: Any) -> str:
    import json

    return json.dumps(dict(event.payload), sort_keys=True, separators=(",", ":"))


def sessions_of(screens: Sequence[Screen]) -> list[Any]:
    """The game sessions the screens play on (their own, or the game screen's below)."""
    out: list[Any] = []
    for screen in screens:
        for value in vars(screen).values():
            for candidate in (value, getattr(value, "session", None)):
                is_session = hasattr(candidate, "log") and hasattr(candidate, "game")
                if is_session and all(candidate is not s for s in out):
                    out.append(candidate)
    return out


def state_digest(engine: Engine) -> str:
    """A short fingerprint of an engine's state: equal states, equal digests (the
    crash test compares the kiosk's restored game with its own replay this way)."""
    import hashlib

    from kiosk.domain.cricket import CricketGame

    if isinstance(engine, CricketGame):
        text = repr(engine.state)
    else:
        text = repr((engine.history, [engine.score(p) for p in engine.players], engine.round))
    return hashlib.sha1(text.encode()).hexdigest()[:12]
