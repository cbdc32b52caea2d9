"""The formula screen: keys in, session changes, picture out (drawn in ``formula_view``).

Keys become editing tokens in ``kiosk.adapters.formula_keys`` (the keypad layout is
there and on the screen's legend). Time: every ``update(now)`` moves the screen's clock
forward (never back), and inputs use that clock, so tests drive a 120 s countdown by
the ``now`` they pass instead of sleeping.

``FormulaSideGame`` is the same screen pushed over a Cricket scoreboard for the player
waiting for their turn: darts and the board's NEXT/UNDO buttons go to the Cricket
screen below (the match goes on, a strip at the top shows it); the waiting player's
own first dart, the end of the match, or ``4`` brings the scoreboard back. The side
game waits there, its clock stopped, and opening it again brings it back as it was.
It is kept with the Cricket game in the database (``GameKeeper.side_log``): a resumed
match brings each waiting player's side game back too (``side_games_back``).

Enter on a screen that waits for it (the next player named, a round's result, a
game's first screen) counts only ``ENTER_GUARD_S`` after that screen appeared: the
Enter that submitted a formula, pressed twice or bouncing, must not start the next
player's clock before they have the keypad, nor skip the round's result. Nor does ``.``
on a round's result (training: the formula taken back) count sooner: pressed with that
Enter, it took the formula back before its result was seen.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pygame

from kiosk.adapters import formula_keys as fk
from kiosk.adapters.formula_keys import FormulaEditor
from kiosk.ui import formula_session as fs
from kiosk.ui import theme
from kiosk.ui.entry import dart_name
from kiosk.ui.formula_session import OVER, PLAYING, READY, ROUND_DONE, Feedback, FormulaSession
from kiosk.ui.formula_session import FormulaSetup as FormulaSetup
from kiosk.ui.screen import DartDoubt, DartInput, DartsPulled, Notice, Screen, next_second

MESSAGE_TIME = 4.0  # s
END_DELAY = 1.0  # s the last move stays up before the end screen
# An Enter this soon (s, on the screen's clock) after a hand-over or a round's result
# appeared is not taken. The two Enters of one hurried finger come 0.1-0.3 s apart (a
# desktop takes clicks up to 0.4-0.5 s apart as one double click) and a bouncing key
# repeats within milliseconds; a person who sees a new screen and means to answer it
# needs a reaction time (0.25 s to see something change, more to read whose turn it is)
# and the next player needs seconds to take the keypad. Half a second drops the one and
# never keeps the other waiting. (No key repeats while held: ``App`` turns that off.)
ENTER_GUARD_S = 0.5

log = logging.getLogger("kiosk.ui")


class FormulaScreen(Screen):
    name = "formula"

    def __init__(self, kiosk: Any, session: FormulaSession) -> None:
        super().__init__(kiosk)
        self.session = session
        self.clock = time.monotonic()
        self.editor = FormulaEditor(session.game.digits)
        self._editor_for: tuple[int, str | None] = (session.game.round, session.player)
        # The editor holds a formula typed before a restart, not touched since: it is
        # not sent by an Enter that only meant to show the digits (``enter_taken_from``).
        self.restored = False
        self._take_draft()
        self.message = ""
        self.message_bad = False
        self.message_is_tip = False
        self.message_until: float | None = None
        self.error_position: int | None = None  # of the last refused submit
        self.refused_text = ""  # the formula last refused (its reason shows in red)
        self.end_at: float | None = None
        self._second = -1  # the countdown's last drawn second
        # When what waits for Enter appeared (``ENTER_GUARD_S``): the turn shown, as
        # (phase, round, player), changed then, or the screen came on top.
        self._shown = self._turn_shown()
        self.shown_at = self.clock

    # -- time ------------------------------------------------------------------------

    def on_enter(self) -> None:
        super().on_enter()
        self.shown_at = self.now()  # (first shown, or back from the menu over it)

    def _turn_shown(self) -> tuple[str, int, str | None]:
        s = self.session
        return (s.phase, s.game.round, s.player)

    def enter_taken_from(self) -> float | None:
        """On this screen's clock, when an Enter is taken as meant: ``ENTER_GUARD_S``
        after the screen that waits for it appeared (a player named, a round's result),
        and after the digits appeared while nothing is typed (the second Enter of a
        double press on "Enter to see the digits" would submit an empty formula, and
        the player hear it refused) or only a formula typed before a restart (it would
        be sent unseen); None while Enter submits a formula typed, or ends nothing (the
        game over)."""
        phase = self.session.phase
        if phase == PLAYING and (not self.editor.text or self.restored):
            return self.shown_at + ENTER_GUARD_S
        if phase not in (READY, ROUND_DONE):
            return None
        return self.shown_at + ENTER_GUARD_S

    def seen(self) -> None:
        """The screen has been read (``Driver``, for a person's pace): an Enter (or ``.``
        on a round's result) now is taken, as if ``ENTER_GUARD_S`` had gone by since it
        appeared."""
        self.shown_at = min(self.shown_at, self.now() - ENTER_GUARD_S)

    def _too_soon(self, key: str) -> bool:
        """Enter (or ``.`` on a round's result) before ``enter_taken_from``: logged."""
        taken_from = self.enter_taken_from()
        now = self.now()
        if taken_from is None or now >= taken_from:
            return False
        log.info("keys: %s %.2f s after the %s screen appeared, not taken (pressed with the "
                 "Enter before, or bouncing)", key, now - self.shown_at,
                 self.session.phase)  # fmt: skip
        return True

    def now(self) -> float:
        self.clock = max(self.clock, time.monotonic())
        return self.clock

    def update(self, now: float) -> None:
        self.clock = max(self.clock, now)
        now = self.clock
        self.play(self.session.update(now))
        self._sync()
        if self.message_until is not None and now >= self.message_until:
            self.message, self.message_until = "", None
            self.dirty = True
        if self.session.phase == PLAYING:
            second = int(self.session.remaining(now) + 0.999)
            if second != self._second:
                self._second = second
                self.dirty = True
        if self.session.phase == OVER and self.end_at is None:
            self.end_at = now + END_DELAY
        if self.end_at is not None and now >= self.end_at:
            self.end_at = None
            self.finish()

    def wake_at(self) -> float | None:
        s = self.session
        times = [t for t in (self.message_until, self.end_at, s.draft_due) if t is not None]
        if s.phase == PLAYING and s.deadline is not None:
            # the next whole second of the countdown (and the 10 s warning on one)
            times.append(next_second(self.clock, s.deadline))
        elif s.phase == OVER and self.end_at is None:
            times.append(self.clock)
        return min(times) if times else None

    def finish(self) -> None:
        from kiosk.ui.screens.formula_end import FormulaEndScreen

        self.kiosk.stack.push(FormulaEndScreen(self.kiosk, self.session))

    # -- input -----------------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput):
            return  # a dart changes nothing here (the board is being played with)
        if not hasattr(event, "name"):
            return  # a click: the formula screen is for the keypad
        token = fk.token_of(event)
        if token is not None:
            self.token(token, event)
        self.dirty = True

    def token(self, token: fk.Token, event: Any) -> None:
        s = self.session
        kind = token.kind
        if s.phase == OVER:
            if kind == fk.MENU:  # (the last move was seen: its end screen now, not a menu)
                self.end_at = None
                self.finish()
            return
        if kind == fk.MENU:
            self.menu()
        elif kind == fk.FORWARD:
            return
        elif kind == fk.SUBMIT and self._too_soon("Enter"):
            return  # the Enter meant for the screen before: this one was not seen yet
        elif kind == fk.DELETE and s.phase == ROUND_DONE and self._too_soon("."):
            # The delete key with the Enter that submitted (beside it on a keypad,
            # Backspace above it on a keyboard), or a last edit's key bouncing: it took
            # the formula back, its result unseen, as a second Enter would skip it.
            return
        elif s.phase == READY:
            if kind == fk.SUBMIT:
                s.begin(self.now())
                self._sync()
                if self.restored and self.editor.text:
                    self.tip(
                        self.t("Typed before the restart, not sent yet: press Enter to send it")
                    )
            else:
                self.say(self.t("Press Enter to see the digits and start the clock"))
        elif s.phase == ROUND_DONE:
            if kind == fk.SUBMIT:
                s.next_round(self.now())
                self._sync()
            elif kind == fk.DELETE:
                self.take_back()
        elif s.phase == PLAYING:
            self.edit(token, fk.is_pad(event))

    def edit(self, token: fk.Token, pad: bool = True) -> None:
        """A key while the digits are shown; ``pad``: from the keypad (else a keyboard,
        whose delete key is Backspace)."""
        s = self.session
        if token.kind == fk.SUBMIT:
            fb = s.submit(self.editor.text, self.now())
            if fb.accepted:  # (a tip or "Formula full" said while typing: old news)
                self.message, self.message_until = "", None
            self.feedback(fb)
            if not fb.accepted and fb.error is not None:
                self.error_position = fb.error.position
                self.refused_text = self.editor.text
            self._sync()
        elif token.kind == fk.HINT:
            fb = s.ask_hint()
            if fb.accepted or s.hint is not None:
                # The hint shows at once, on the line a message would hide it under
                # (a tip just given; "one hint per round" with the hint there to read).
                self.message, self.message_until = "", None
            elif fb.message:
                self.say(self.t(fb.message), bad=True)
        elif token.kind == fk.UNUSED:
            digit = self.editor.next_digit
            tip = self.t("0 = the next digit")
            # Once the four digits are in, the tip says so, not a digit long gone.
            self.tip(f"{tip} ({digit})" if digit else self.t("All four digits are in"))
        elif token.kind == fk.NEXT_DIGIT and self.editor.next_digit is None:
            self.tip(self.t("All four digits are in"))  # (0 did nothing, and said nothing)
        elif self.editor.apply(token):
            self.restored = False
            s.note_draft(tuple(self.editor.tokens), self.now())
            self.error_position = None
            if self.message_bad or self.message_is_tip:
                self.message, self.message_until = "", None  # (a tip typed past is stale)
        elif self.editor.full and token.kind in (fk.TEXT, fk.NEXT_DIGIT):
            # Said, not a key that does nothing: the formula holds fk.MAX_TOKENS keys.
            if pad:
                self.say(self.t("Formula full: delete with . or press Enter"), bad=True)
            else:  # (a keyboard's . is a sign of the formula: its delete is Backspace)
                self.say(self.t("Formula full: delete with Backspace or press Enter"), bad=True)
            self.play([fs.SOUND_REFUSED])

    def take_back(self) -> None:
        """Training: ``.`` (delete) on the round's result takes the formula back (an undo
        in the game's log) and puts it in the editor to fix, with a fresh clock. A duel
        or a qualification refuses, and says so."""
        s = self.session
        check = s.take_back_check()
        if not check.accepted:
            self.feedback(check)
            return
        move = s.take_back(self.now())
        if move is None:  # the undo was not saved: nothing changed (the banner says why)
            self.say(self.t("Not saved: try again"), bad=True)
            self.play([fs.SOUND_REFUSED])
            return
        self._sync()
        if move.formula:
            self.editor.load(move.formula)
            s.note_draft(tuple(self.editor.tokens), self.now())
        self.play(["undo"])

    def feedback(self, fb: Feedback) -> None:
        self.play(fb.sounds)
        if fb.error is not None:  # the reason is on the preview line, in red
            self.say(self.t("Refused: fix it and press Enter again while time remains"), True)
        elif fb.message:
            self.say(self.t(fb.message), bad=True)

    def play(self, sounds: list[str]) -> None:
        for sound in sounds:
            self.kiosk.sound.play(sound)
        if sounds:
            self.dirty = True

    def tip(self, message: str) -> None:
        """A tip on the keys, gone once the player types on."""
        self.say(message)
        self.message_is_tip = True

    def say(self, message: str, bad: bool = False) -> None:
        self.message_is_tip = False
        self.message, self.message_bad = message, bad
        self.message_until = self.now() + MESSAGE_TIME
        self.dirty = True

    def menu(self) -> None:
        from kiosk.ui.screens.formula import FormulaPause

        self.kiosk.stack.push(FormulaPause(self.kiosk, self))

    def _sync(self) -> None:
        """A new editor when the round or the player changes; the time a new turn
        (phase, round, player) appeared, for ``ENTER_GUARD_S``."""
        s = self.session
        shown = self._turn_shown()
        if shown != self._shown:
            self._shown, self.shown_at = shown, self.now()
        key = (s.game.round, s.player)
        if key != self._editor_for:
            self._editor_for = key
            self.editor = FormulaEditor(s.game.digits)
            self.restored = False
            self._take_draft()
            self.error_position = None
            self.refused_text = ""
            self.dirty = True

    def _take_draft(self) -> None:
        """A resumed game: the formula its player had typed in this turn, not sent, back
        in the editor (``FormulaSession.draft_for``), to be sent or changed."""
        tokens = self.session.draft_for(self.session.player)
        if tokens:
            self.editor.tokens = list(tokens[: fk.MAX_TOKENS])
            self.restored = True

    # -- drawing ---------------------------------------------------------------------

    top_margin = 0.0  # in units of 1% of the height: the side game's Cricket strip

    def draw(self, p: theme.Painter) -> None:
        from kiosk.ui.screens.formula_view import Layout, draw_formula

        draw_formula(p, self)
        if self.message and self.session.phase == ROUND_DONE:
            # formula_view draws no message on a round's result: a refused take-back is
            # shown here, over the "Enter: next round" line, for MESSAGE_TIME.
            w, u = p.w, p.u
            x0, x1 = 2 * u, w * 0.60
            L = Layout(p, self.top_margin)
            band = pygame.Rect(int(x0), int(L.y(54)), int(x1 - x0), int(L.s(6)))
            p.rect(band, theme.PANEL, radius=0.6 * u)
            colour = theme.BAD if self.message_bad else theme.ACCENT
            p.text(self.message, L.s(3.8), (x0 + u, band.centery), colour, anchor="midleft",
                   style="bold", max_width=x1 - x0 - 2 * u)  # fmt: skip


def is_board_button(event: Any) -> bool:
    """The board's NEXT / UNDO buttons (and a keyboard's Tab, N, U): the match's keys
    whatever formula screen is up (the keypad's + and - are operators there)."""
    if not hasattr(event, "name"):
        return False
    token = fk.token_of(event)
    return token is not None and token.kind == fk.FORWARD


class FormulaSideGame(FormulaScreen):
    name = "formula-side"
    top_margin = 9.0

    def __init__(
        self,
        kiosk: Any,
        cricket_screen: Any,
        player: str | None = None,
        session: FormulaSession | None = None,
    ) -> None:
        """``player``: whose side game (default: the match's waiting player; another
        one after a side game's end is its own player's, who may not be the one the
        match has waiting by then). ``session``: a side game kept with the Cricket game
        and resumed with it (``side_games_back``); else a new one."""
        self.cricket = cricket_screen
        self.side_player = player or waiting_player(cricket_screen.session)
        if session is None:
            session = self._new_session(kiosk)
        super().__init__(kiosk, session)  # training aside: never a result of its own
        self.last_dart = ""
        cricket_screen.side_games[self.side_player] = self  # taken up again when reopened

    def _new_session(self, kiosk: Any) -> FormulaSession:
        # The owner's [formula] rules and parameters (as the menu's games), in training
        chosen = getattr(kiosk, "formula_defaults", None)
        setup = FormulaSetup(
            names=(self.side_player,),
            mode="training",
            rules=getattr(chosen, "rules", "classic"),
            overrides=getattr(chosen, "overrides", ()),
        )
        session = FormulaSession(setup)
        # Kept with the Cricket game's saved state, so a power cut does not lose it.
        keeper = getattr(kiosk, "games", None)
        cricket = self.cricket.session
        players = [str(p) for p in cricket.players]
        if keeper is not None and self.side_player in players:
            seat = players.index(self.side_player)
            kept = keeper.side_log(cricket.log, seat, session.setup)
            if kept is not None:
                session.attach(kept)
        return session

    def on_enter(self) -> None:
        super().on_enter()
        self.session.take_up(self.now())  # (back from the board: the clock runs on)

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput):
            self.dart(event)
            return
        if self.for_the_match(event, self.leave):
            self.dirty = True
            return
        super().process_event(event)

    def for_the_match(self, event: Any, leave: Any) -> bool:
        """Hands the match what is the match's (the side game's screens and its end
        screen alike); True if ``event`` was. A dart the match needs from the player
        (not read: type it; unsure: check it) first ``leave``s for the scoreboard,
        which shows the question with the keypad its own."""
        if isinstance(event, DartDoubt) or (isinstance(event, Notice) and event.act):
            leave()
            self.cricket.process_event(event)
            return True
        if isinstance(event, Notice | DartsPulled):
            self.cricket.process_event(event)  # (the match's darts pulled: its turn passes)
            return True
        if is_board_button(event):
            self.cricket.process_event(event)  # the board's NEXT / UNDO buttons
            return True
        return False

    def dart(self, event: DartInput) -> None:
        cricket = self.cricket.session
        thrower = str(cricket.game.current_player)
        if thrower == self.side_player or cricket.over:
            self.leave()  # their own turn: the scoreboard comes back, the dart on it
        self.cricket.process_event(event)
        self.last_dart = f"{thrower}: {dart_name(event.dart, self.t)}"
        self.say(f"{self.t('Cricket')} · {self.last_dart}")
        if cricket.over:
            self.leave()

    def leave(self) -> None:
        """Back to the scoreboard; this game waits, its clock stopped, until the menu's
        side game brings it back."""
        if self.kiosk.stack.top is self:
            self.session.set_aside(self.now())
            self.kiosk.stack.pop()

    def menu(self) -> None:
        self.leave()

    def finish(self) -> None:
        from kiosk.ui.screens.formula_end import FormulaEndScreen

        self.kiosk.stack.push(FormulaEndScreen(self.kiosk, self.session, side=self))

    def update(self, now: float) -> None:
        if self.cricket.session.over:
            self.leave()
            return
        super().update(now)


def waiting_player(cricket: Any) -> str:
    """The Cricket player who waits longest for the board: the one who just threw
    (their turn on hold), else the one before the thrower."""
    if cricket.hold is not None:
        return str(cricket.hold.player)
    players = list(cricket.players)
    current = str(cricket.game.current_player)
    return str(players[(players.index(current) - 1) % len(players)])


def side_games_back(kiosk: Any, cricket_screen: Any) -> None:
    """A resumed Cricket game's side games, as they were kept with it
    (``GameKeeper.side_sessions``): each waits on the scoreboard for its player, as
    when they went to throw, until "Formula darts while you wait" takes it up."""
    keeper = getattr(kiosk, "games", None)
    if keeper is None:
        return
    cricket = cricket_screen.session
    for player, session in keeper.side_sessions(cricket.log, list(cricket.players)).items():
        FormulaSideGame(kiosk, cricket_screen, player, session)
