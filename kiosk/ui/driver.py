"""Driving a real kiosk in-process: for the e2e tests, the screenshots and the bench.

Inputs go in the way devices put them (the inbox), so the loop, the screens and the
drawing run exactly as on a bar; ``wait_for`` runs the loop until a condition holds.

Keys come at a person's pace where that matters: before each Enter (and each ``.``)
the driver lets what came before show, and the screen then on top is seen
(``Screen.seen``: formula darts drops an Enter, or a ``.`` on a round's result, pressed
within ``ENTER_GUARD_S`` of that screen, as a double press or a bouncing key; an end
screen drops an Enter within ``REMATCH_GUARD_S``, one meant for the game just over; a
person reads the screen first). ``hasty=True`` presses at machine speed, as such a
finger does, and is what the guards' tests use.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pygame

from kiosk.adapters import keypad as kp
from kiosk.adapters.keypad import KeyAction, action_for
from kiosk.bootstrap import Running
from kiosk.domain.darts import Dart
from kiosk.ui.screen import Click, DartInput, Screen

# The numeric keypad's own keys by what is printed on them, for ``Driver.pad``.
PAD_KEYS = {
    "\n": kp.K_KP_ENTER, "+": kp.K_KP_PLUS, "-": kp.K_KP_MINUS, "*": kp.K_KP_MULTIPLY,
    "/": kp.K_KP_DIVIDE, ".": kp.K_KP_PERIOD, "0": kp.K_KP_0,
    **{str(n): kp.K_KP_1 + n - 1 for n in range(1, 10)},
}  # fmt: skip

# A short Cricket game for two: Anna closes everything in six turns while Boris throws
# at nothing (her 14th dart wins; the 15th lands after the game).
ANNA_WINS = [
    "T20", "T19", "T18", "S1", "S1", "S1", "T17", "T16", "T15",
    "S2", "S2", "S2", "DB", "SB", "S3",
]  # fmt: skip


class Timeout(AssertionError):
    """The kiosk did not reach the state waited for."""


class Driver:
    def __init__(self, running: Running) -> None:
        self.running = running
        self.app = running.app
        self.kiosk = running.kiosk

    @property
    def screen(self) -> Screen:
        top = self.kiosk.stack.top
        assert top is not None
        return top

    @property
    def texts(self) -> list[str]:
        """The texts of the last frame drawn."""
        return list(self.app.texts)

    def rect_of(self, text: str) -> pygame.Rect:
        """Where ``text`` was drawn in the last frame (its first place)."""
        rect: pygame.Rect = self.app.text_rects[self.app.texts.index(text)]
        return rect

    def settle(self, timeout: float = 0.5) -> None:
        """Run the loop until everything queued is handled and drawn."""
        deadline = time.monotonic() + timeout
        self.app.step(0)
        while time.monotonic() < deadline and (
            self.screen.dirty or self.running.inbox.pending() or getattr(self.screen, "busy", False)
        ):  # (busy: a check said on screen, run on the next step: the camera calibration's)
            self.app.step(0.01)

    def look(self) -> None:
        """The player reads what a menu's digit opened before pressing on: an Enter from
        now is meant, not the one that only confirms the digit (``enter_confirms``),
        as if ``ENTER_CONFIRMS_S`` had gone by."""
        self.kiosk.stack.digit_chose_at = None

    def wait_for(self, condition: Callable[[], bool], timeout: float = 5.0, what: str = "") -> None:
        if not self.app.run(until=condition, timeout=timeout):
            raise Timeout(f"timed out waiting for {what or condition}; screen {self.screen.name}")
        self.settle()

    def wait_screen(self, name: str, timeout: float = 5.0) -> None:
        self.wait_for(lambda: self.screen.name == name, timeout, f"screen {name}")

    def read_screen(self) -> None:
        """What is queued is handled and shown, and the player looks at the screen on
        top before the next key (``Screen.seen``: as if the time to read it had passed,
        nobody sleeps). Not by moving the formula screen's clock: it never goes back,
        so it would stand ahead of the real time, and what it waits for in real time
        (the last move's ``END_DELAY``) would wait for that lead too."""
        self.settle()
        self.screen.seen()

    def _put(self, action: KeyAction, hasty: bool) -> None:
        """One key in the inbox; an Enter or a ``.`` (Backspace) after the screen was
        read, unless ``hasty``."""
        if action.name in ("enter", "back") and not hasty:
            self.read_screen()
        self.running.inbox.put(action, source="keypad")

    def key(self, name: str, char: str = "", hasty: bool = False) -> None:
        self._put(KeyAction(name, char), hasty)
        self.settle()

    def press(self, keys: str, hasty: bool = False) -> None:
        """Type on the keypad: ``"3*20\\n"`` -> 3, *, 2, 0, Enter; ``+`` next, ``-`` undo,
        ``/`` menu, letters as letters. ``hasty``: every key at once, no Enter waiting
        for the screen before it to be seen (a double press, a bouncing key)."""
        for ch in keys:
            if ch == "\n":
                action = KeyAction("enter")
            elif ch == "/":
                action = KeyAction("menu", "/")
            elif ch == ".":
                action = KeyAction("back", ".")
            else:
                found = action_for(0, ch)
                action = found if found is not None else KeyAction("char", ch)
                if ch.isdigit():
                    action = KeyAction("digit", ch)
            self._put(action, hasty)
        self.settle()

    def keyboard(self, text: str, hasty: bool = False) -> None:
        """Type on a US keyboard, each key through the app's key table as pygame reports
        it: the unshifted key's code and the text it typed (``"N"`` is Shift+n, next
        player in a game, a letter in a name)."""
        for ch in text:
            code = kp.K_RETURN if ch == "\n" else ord(ch.lower()) if ch.isalpha() else ord(ch)
            action = action_for(code, "" if ch == "\n" else ch)
            if action is not None:
                self._put(action, hasty)
        self.settle()

    def pad(self, keys: str, hasty: bool = False) -> None:
        """Type on the numeric keypad by its keycodes, through the app's key table (what
        formula darts reads): ``"\\n00+0"`` -> Enter, 0, 0, +, 0. ``hasty`` as ``press``."""
        for ch in keys:
            action = action_for(PAD_KEYS[ch], "" if ch == "\n" else ch)
            assert action is not None
            self._put(action, hasty)
        self.settle()

    def throw(self, *darts: str, source: str = "keypad") -> None:
        """Darts by name (``"T20"``, ``"MISS"``), each handled and drawn before the next."""
        for text in darts:
            self.running.inbox.put(DartInput(Dart.parse(text), source), source=source)
            self.settle()

    def click(self, pos: tuple[int, int]) -> None:
        self.running.inbox.put(Click(pos), source="mouse")
        self.settle()

    def game(self) -> Any:
        return getattr(self.screen, "session", None) or getattr(
            getattr(self.screen, "game_screen", None), "session", None
        )

    def screenshot(self, path: str) -> None:
        self.app._force = True
        self.app.step(0)
        self.app.screenshot(path)
