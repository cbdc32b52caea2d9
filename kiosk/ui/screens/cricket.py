"""The Cricket scoreboard screen: inputs in, session changes, picture out.

Inputs: board hits and buttons, the keypad (manual entry ``3*20`` Enter, ``+`` next
player, ``-`` undo, ``/`` pause menu, ``*`` alone: the other dart the cameras were
unsure of, ``DartDoubt``), and with the virtual board the mouse (a click
on the board is a dart there; buttons for next / undo / menu). A keypad that sends
its navigation keys with NumLock off types the digits they sit on (the arrows are
8 2 4 6, Home 7 and so on: see ``kiosk.adapters.keypad``). The drawing is in
``cricket_view.py``.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from kiosk.adapters.keypad import KeyAction
from kiosk.domain.darts import Dart
from kiosk.ui import theme
from kiosk.ui.entry import TIMES, EntryError, dart_name, parse_entry
from kiosk.ui.screen import Click, DartDoubt, DartInput, DartsPulled, Notice, Screen
from kiosk.ui.session import Award, CricketSession, Feedback
from kiosk.ui.vboard import VirtualBoard
from kiosk.ui.widgets import Button

log = logging.getLogger("kiosk.ui")
FINISH_DELAY = 1.5  # s the final dart stays on the scoreboard before the results
MESSAGE_TIME = 3.0  # s
NOTICE_TIME = 6.0  # s: a device's message (a dart to check or to type) stays longer
AWARD_TIME = 3.0  # s a turn's award ("White horse!") is announced, unless a dart comes
ENTRY_CHARS = "0123456789TDSBMI* "
MAX_TYPED = 8
PAD_ARROWS = ("up", "down", "left", "right")  # 8 2 4 6 (``KeyAction.pad``, NumLock off)


class CricketScreen(Screen):
    name = "cricket"
    takes_darts = True  # a dart landing under a menu comes here (``back_to_the_match``)
    shows_notices = True

    def __init__(self, kiosk: Any, session: CricketSession) -> None:
        super().__init__(kiosk)
        self.session = session
        self.typed = ""
        self.message = ""
        self.message_until: float | None = None
        self.refusal = False  # the message says an input was refused ("Not saved")
        self.finish_at: float | None = None
        # What the last finished turn earned, announced across the board for a while.
        self.award: Award | None = None
        self.award_until: float | None = None
        # The other dart the cameras could have meant for the last dart, while that
        # dart is still the last change (the session's revision then): ``*`` takes it.
        self.doubt: tuple[Dart, int] | None = None
        self.doubt_said = ""  # the question asked about it: it goes when * no longer can
        # The player asked to type a dart the kiosk could not read (a camera that could
        # not place it, a contact not in the board map), until they type one or the
        # turn passes.
        self.owed: str | None = None
        self.owed_said = ""  # the question asked for it: it stays until it is answered
        # A notice about the last input (``Notice.last``) and the revision it is about:
        # it goes once that input is no longer the last ("- (undo)" would take another).
        self.last_said: tuple[str, int] | None = None
        self.board = VirtualBoard()
        # Board points (mm) of clicks: waiting for their dart to come back through the
        # virtual board's pty, and those of darts thrown by a click, by the dart's place
        # in the game's history (a typed dart has none; undo takes back its own only).
        self.pending_clicks: list[tuple[float, float]] = []
        self.click_at: dict[int, tuple[float, float]] = {}
        # What the last correction said, and the revision it made (the results of a
        # game it ended say it, while it is still the last change).
        self.corrected_last: tuple[str, int] | None = None
        # The revision at which the cameras' takeout passed the turn: a + (NEXT) with
        # nothing since is the player doing as a board machine taught them, and would
        # cost the next player a turn; it is refused once, with a word.
        self.pulled_at: int | None = None
        # A board dart that came while a finished turn was held (as the darts are
        # pulled, a contact may close): the next player's first dart, as the rules go,
        # and the revision it made. NEXT pressed right after it (as the screen asked)
        # ends that player's turn: the way back is said.
        self.after_hold: tuple[Dart, int] | None = None
        self.stray_end: tuple[Dart, int] | None = None  # the turn end NEXT then made
        # Each waiting player's formula side game, set aside while they throw.
        self.side_games: dict[str, Any] = {}
        self.buttons = [
            Button("next", "Next player"),
            Button("undo", "Undo"),
            Button("menu", "Menu"),
        ]

    @property
    def show_board(self) -> bool:
        return bool(self.kiosk.devices.virtual)

    # -- input ---------------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput):
            self.dart(event.dart, event.source)
        elif isinstance(event, KeyAction):
            self.key(event)
        elif isinstance(event, Click):
            self.click(event.pos)
        elif isinstance(event, Notice):
            self.notice(event)
        elif isinstance(event, DartDoubt):
            self.doubted(event)
        elif isinstance(event, DartsPulled):
            self.darts_pulled()

    def darts_pulled(self) -> None:
        """The cameras saw the darts pulled: the turn passes as on NEXT, unless it was
        passed by hand already (no dart in the turn up, and no finished turn held):
        then the darts were the last player's, and the next player must not lose a
        turn to them."""
        s = self.session
        if s.over or (s.hold is None and not s.game.darts_this_turn):
            log.info("darts pulled after the turn was passed: nothing to pass")
            return
        log.info("darts pulled: the turn passes")
        owed = self.owed
        doubt_was_current = self.doubt_is_current()
        history = len(s.game.history)
        self.next_player()
        self.pulled_at = s.revision
        if doubt_was_current and len(s.game.history) == history:
            # Only the hold went: the dart asked about is still the last one, so * still
            # takes the cameras' other reading for it.
            self.doubt = (self.doubt[0], s.revision) if self.doubt else None
        if owed is not None:
            # The dart asked for was not typed, and the turn has passed (rules.md: a
            # player who pulls the darts ends the turn): a dart typed now would be the
            # next player's, so the question goes, and the way back is said instead.
            log.warning("darts pulled before %s typed the dart not read", owed)
            self.notice(Notice("{}: the dart not read was not typed; - (undo) goes back to "
                               "type it", (owed,)))  # fmt: skip

    def notice(self, event: Notice) -> None:
        text = self.t(event.text)
        try:
            text = text.format(*event.args)
        except (IndexError, KeyError, ValueError):  # a translation with other fields
            text = event.text.format(*event.args)
        self.say(text, NOTICE_TIME)
        self.last_said = (text, self.session.revision) if event.last else None
        if event.act:  # a dart to type: the thrower's, while their turn lasts
            self.owed, self.owed_said = str(self.session.shown_player), text
            self.message_until = None  # said until it is typed or the turn passes

    def _message_gone(self) -> None:
        """The message on show has had its time: the question for a dart still owed
        comes back in its place (it stays until the dart is typed or the turn passes)."""
        self.message, self.message_until = self.owed_said if self.owed else "", None

    def _owed_paid(self) -> None:
        """The dart asked for was typed, or the turn it was owed in passed."""
        if self.owed is not None and self.message == self.owed_said:
            self.message, self.message_until = "", None
        self.owed, self.owed_said = None, ""

    def doubted(self, event: DartDoubt) -> None:
        """The cameras' last dart could be another: it counts, the player is asked,
        and ``*`` puts the other in its place while it is still the last dart."""
        history = self.session.game.history
        if not history or history[-1] != event.dart:  # refused, or already undone
            return
        self.doubt = (event.other, self.session.revision)
        dart, other = dart_name(event.dart, self.t), dart_name(event.other, self.t)
        self.notice(Notice("Cameras unsure: {} or {}? Press * for {}, - to undo",
                           (dart, other, other)))  # fmt: skip
        self.doubt_said = self.message

    def dart(self, dart: Dart, source: str) -> None:
        held = self.session.hold is not None
        # (the click this dart came from: each clicked dart takes its own, taken or not)
        clicked = (
            self.pending_clicks.pop(0)
            if self.pending_clicks and source in ("mouse", "board")
            else None
        )
        fb = self.session.throw(dart, source)
        self.after_hold = None
        if fb.accepted and held and source == "board" and self.session.hold is None:
            self.after_hold = (dart, self.session.revision)
        if fb.accepted:
            if self.owed is not None and str(self.session.shown_player) != self.owed:
                self._owed_paid()  # (the turn passed with this dart: not asked of the next)
            self.award = self.award_until = None  # the board changed: the next turn's
            if clicked is not None:
                self.click_at[len(self.session.game.history) - 1] = clicked
            if not fb.message:  # saved: a refusal shown is old news
                self._refusal_gone()
        self.feedback(fb)

    def _refusal_gone(self) -> None:
        """An input was taken: a refusal on show ("Not saved", a typing mistake) goes."""
        if self.refusal:
            self._message_gone()
            self.refusal = False

    def feedback(self, fb: Feedback) -> None:
        for sound in fb.sounds:
            self.kiosk.sound.play(sound)
        if fb.message:
            self.say(self.t(fb.message))
            self.refusal = not fb.accepted
        if fb.award is not None and not self.session.over:
            self.award, self.award_until = fb.award, time.monotonic() + AWARD_TIME
        if self.session.over and self.finish_at is None:
            self.finish_at = time.monotonic() + FINISH_DELAY
        self.dirty = True

    def say(self, message: str, seconds: float = MESSAGE_TIME) -> None:
        self.message, self.refusal = message, False
        self.message_until = time.monotonic() + seconds
        self.dirty = True

    def key(self, event: KeyAction) -> None:
        name = event.name
        if name in PAD_ARROWS and event.pad and event.char.isdigit():
            name = "digit"  # a keypad with NumLock off: the arrow is the digit it sits on
        if name == "times" and not self.typed and self.take_doubt():
            self.dirty = True
            return
        if name in ("digit", "char", "times") and event.char.upper() in ENTRY_CHARS:
            if len(self.typed) < MAX_TYPED:
                self.typed += "*" if name == "times" else event.char.upper()
        elif name == "back":
            self.typed = self.typed[:-1]
        elif name == "enter":
            self.enter()
        elif name == "next":
            self.typed = ""
            self.next_player()
        elif name == "undo":
            if self.typed:
                self.typed = ""
            else:
                self.undo()
        elif name in ("menu", "cancel"):
            if self.typed:
                self.typed = ""
            else:
                from kiosk.ui.screens.pause import PauseMenu

                self.kiosk.stack.push(PauseMenu(self.kiosk, self))
        self.dirty = True

    def enter(self) -> None:
        if not self.typed:
            if self.session.hold is not None:
                self.next_player()
            return
        try:
            dart = parse_entry(self.typed)
        except EntryError as e:
            self.say(f"{self.typed.replace('*', TIMES)}: {e.shown(self.t)}")
            self.refusal = True  # gone once a dart is taken
            self.typed = ""
            return
        self.typed = ""
        self._owed_paid()
        self.dart(dart, "keypad")

    def take_doubt(self) -> bool:
        """The other dart of the cameras' doubt in place of the last dart, if that is
        still the last change to the game (else nothing: ``*`` starts an entry)."""
        doubt, self.doubt = self.doubt, None
        if doubt is None or doubt[1] != self.session.revision:
            return False
        other = doubt[0]
        fb = self.session.replace_last(other, "keypad")
        if fb.accepted:
            self.award = self.award_until = None  # (the other reading's own, if any)
            kept = len(self.session.game.history) - 1  # the replaced dart's mark goes
            self.click_at = {i: mm for i, mm in self.click_at.items() if i < kept}
            self.finish_at = None if not self.session.over else self.finish_at
            if not fb.message:
                self._refusal_gone()
            log.info("the cameras' doubt taken: %s instead", other)
        self.feedback(fb)
        return True

    def doubt_is_current(self) -> bool:
        """The cameras' question is on the last dart, as it stands: * would take it."""
        return self.doubt is not None and self.doubt[1] == self.session.revision

    def corrected(self, index: int, fb: Feedback, said: str, doubt_was_current: bool) -> None:
        """Back from ``CorrectDartScreen`` with the dart at ``history[index]`` corrected
        in place: its click mark goes; the darts after it keep theirs (and their places
        in the history) unless the game now ends before them."""
        kept = len(self.session.game.history)
        if self.doubt is not None and doubt_was_current and index < kept - 1:
            # The cameras' question was on the last dart, which is still there as it
            # was (not dropped by a correction that won): * still takes its other reading.
            self.doubt = (self.doubt[0], self.session.revision)
        else:
            self.doubt = None
        self.click_at = {i: mm for i, mm in self.click_at.items() if i < kept and i != index}
        self.corrected_last = (said, self.session.revision)
        self.award = self.award_until = None
        self.feedback(fb)
        self.say(said)

    def next_player(self) -> None:
        if self.pulled_at is not None and self.pulled_at == self.session.revision:
            self.pulled_at = None  # (a second + ends the turn: a player who passes)
            player = self.session.game.current_player
            self.say(self.t("The turn passed when the darts were pulled: "
                            "+ again ends {}'s turn").format(player))  # fmt: skip
            self.refusal = True  # (it names this player: gone with their next dart or +)
            return
        self.pulled_at = None
        self._owed_paid()
        s = self.session
        stray = self.after_hold
        stray = stray if stray is not None and stray[1] == s.revision else None
        player, history = str(s.game.current_player), len(s.game.history)
        held = s.hold is not None
        fb = s.next_player()
        if fb.accepted and not held:  # a turn ended: the award before it is old news
            self.award = self.award_until = None
        if fb.accepted:
            self._refusal_gone()
        self.feedback(fb)
        if stray is not None and len(s.game.history) > history and not s.over:
            # The hit may have come from pulling the darts: - takes back the turn's
            # end, - again the hit, and the finished turn is held again as it was.
            log.info("turn ended after one dart that came during the hold: %s", stray[0])
            self.stray_end = (stray[0], s.revision)
            self.notice(Notice("{}: turn over after one dart. {} from pulling darts? "
                               "Press - twice",
                               (player, dart_name(stray[0], self.t)), last=True))  # fmt: skip

    def undo(self) -> None:
        history = self.session.game.history
        last = history[-1] if history else None
        stray = (
            self.stray_end
            if self.stray_end and self.stray_end[1] == self.session.revision
            else None
        )
        fb = self._undo_last()
        self.feedback(fb)
        if fb.accepted and isinstance(last, Dart):
            # Said, so an undo meant for something else (a correction just made) is seen
            # for what it took back.
            who = self.session.game.current_player
            self.say(self.t("Undone: {} ({})").format(dart_name(last, self.t), who))
        elif fb.accepted and stray is None and last is not None:
            # A turn's end (NEXT): said as a dart is, or the last message stayed up.
            who = self.session.game.current_player
            self.say(self.t("Undone: end of the turn ({})").format(who))
        elif fb.accepted and stray is not None:
            # The end of the turn after a hit that may have come from pulling darts:
            # the hit is the last input again, and the next - takes it back.
            self.after_hold = (stray[0], self.session.revision)
            self.notice(Notice("- again takes back {}", (dart_name(stray[0], self.t),),
                               last=True))  # fmt: skip

    def _undo_last(self) -> Feedback:
        """The last input taken back, and with it its click mark and a finish due."""
        fb = self.session.undo()
        if fb.accepted:
            self.award = self.award_until = None
            self._refusal_gone()  # ("game over" after a win now taken back)
            kept = len(self.session.game.history)
            self.click_at = {i: mm for i, mm in self.click_at.items() if i < kept}
            self.finish_at = None
        return fb

    @property
    def clicks(self) -> list[tuple[float, float]]:
        """The board points of the darts of the turn on screen that were clicked (they
        are the last entries of the game's history, a turn held on screen too)."""
        n = len(self.session.game.history)
        shown = range(n - len(self.session.shown_darts), n)
        return [self.click_at[i] for i in shown if i in self.click_at]

    def click(self, pos: tuple[int, int]) -> None:
        for button in self.buttons:
            if button.hit(pos):
                self.key(KeyAction(button.action))
                return
        if self.show_board and self.board.contains(pos) and not self.session.over:
            dart = self.board.dart_at(pos)
            self.pending_clicks.append(self.board.to_mm(pos))
            if not self.kiosk.devices.throw(dart):
                self.dart(dart, "mouse")
            self.dirty = True

    # -- time ----------------------------------------------------------------------

    def update(self, now: float) -> None:
        if self.message_until is not None and now >= self.message_until:
            # (a message said over the question for a dart owed: the question again)
            self._message_gone()
            self.dirty = True
        if self.message and self.message == self.doubt_said and not self.doubt_is_current():
            # The next player threw, or the dart was undone: "Press * for S19" would
            # now start a typed dart for someone else.
            self._message_gone()
            self.doubt_said = ""
            self.dirty = True
        if self.last_said is not None and self.last_said[1] != self.session.revision:
            if self.message == self.last_said[0]:  # (the next dart came, or an undo)
                self._message_gone()
                self.dirty = True
            self.last_said = None
        if self.award_until is not None and now >= self.award_until:
            self.award = self.award_until = None
            self.dirty = True
        if self.finish_at is not None and now >= self.finish_at:
            self.finish_at = None
            if self.session.over:
                from kiosk.ui.screens.results import ResultsScreen

                said, revision = self.corrected_last or ("", -1)
                note = said if revision == self.session.revision else ""
                if self.doubt_is_current() and self.message:
                    note = self.message  # the cameras' question: * and - answer it there
                self.kiosk.stack.push(ResultsScreen(self.kiosk, self, note))

    def wake_at(self) -> float | None:
        times = [t for t in (self.message_until, self.finish_at, self.award_until) if t is not None]
        return min(times) if times else None

    def draw(self, p: theme.Painter) -> None:
        from kiosk.ui.screens.cricket_view import draw_scoreboard

        draw_scoreboard(p, self)
