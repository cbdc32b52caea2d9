"""Screens and the screen stack (Tuxemon's shape: push / pop / replace).

A screen gets inputs in ``process_event`` (already translated: ``KeyAction``,
``Click``, ``DartInput``), changes its state there or in ``update(now)``, and draws in
``draw(painter)``, which only reads state: the same state draws the same picture.
A screen sets ``dirty`` when its picture changed; the app redraws only then.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kiosk.adapters.keypad import KeyAction
from kiosk.domain.darts import Dart

if TYPE_CHECKING:
    from kiosk.ui.context import Kiosk
    from kiosk.ui.theme import Painter


@dataclass(frozen=True, slots=True)
class Click:
    """A mouse click (or a touch) at a pixel of the logical screen."""

    pos: tuple[int, int]


@dataclass(frozen=True, slots=True)
class DartInput:
    """A dart for the game: from the board, the keypad (typed) or the mouse board."""

    dart: Dart
    source: str = "board"
    t: float = 0.0  # monotonic time the device thread received it (0 = not measured)


@dataclass(frozen=True, slots=True)
class Notice:
    """A message from a device for the player (e.g. a dart the cameras saw land but
    could not place); the game screen shows it for a while, others ignore it."""

    text: str
    args: tuple[str, ...] = ()  # put into the translated text's {} fields
    # The player must act on the game screen (type a dart that was not read): a screen
    # laid over the game (the side game) makes way for it.
    act: bool = False
    # About the game's last input (a bounce-out's miss, "- to undo"): said only while
    # it is the last; the next dart, or an undo, makes it wrong, and it goes.
    last: bool = False


@dataclass(frozen=True, slots=True)
class DartsPulled:
    """The cameras saw the darts pulled out of the board (a takeout): the Cricket
    screen passes the turn as NEXT does, if there is a turn to pass; every other
    screen ignores it (a hand at the board is no menu key)."""


@dataclass(frozen=True, slots=True)
class DartDoubt:
    """The cameras scored ``dart`` (its ``DartInput`` came first) but it could as well
    be ``other`` (a wire within the point's error): the game screen asks the player and
    puts ``other`` in its place on one key."""

    dart: Dart
    other: Dart


class Screen:
    name = "screen"
    # Puts a ``Notice`` in front of the player (a game's screen): the kiosk shows a
    # notice that is only worth showing now and then (a line the board sent that is
    # not the protocol) when the top screen does.
    shows_notices = False

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.dirty = True

    def t(self, message: str) -> str:
        """The message in the kiosk's language."""
        return self.kiosk.t(message)

    def number(self, value: float, places: int) -> str:
        """A figure with ``places`` decimals, as the kiosk's language writes it."""
        return self.kiosk.number(value, places)

    # A page of a menu (not a menu itself: those have their own timer), left alone
    # ``MENU_IDLE_S`` with no game under it, gives way to the attract screen: the next
    # group finds the machine ready, not a half-typed name or last night's table.
    idles_to_attract = False

    def on_enter(self) -> None:
        """Became the top screen (pushed, or uncovered by a pop)."""
        self.dirty = True

    def process_event(self, event: Any) -> None:
        """Handle one input."""

    def update(self, now: float) -> None:
        """Advance time-driven state (blinks, timeouts); set ``dirty`` if it shows."""

    def wake_at(self) -> float | None:
        """The monotonic time ``update`` next needs to run (None: only on input)."""
        return None

    def seen(self) -> None:
        """A person has looked at this screen long enough to mean the next key: on a
        screen that drops an Enter pressed too soon after it appeared (formula darts'
        next player named, ``ENTER_GUARD_S``; an end screen's rematch,
        ``REMATCH_GUARD_S``), as if that time had passed. ``Driver`` calls it before
        each Enter (and ``.``) it presses at a person's pace."""

    def draw(self, p: Painter) -> None:
        raise NotImplementedError


class ScreenStack:
    def __init__(self) -> None:
        self._screens: list[Screen] = []
        # When a menu's digit last chose a line (monotonic s), for the Enter that a
        # "digit, then Enter" habit presses after it: see ``enter_confirms``.
        self.digit_chose_at: float | None = None
        # When the last input came (monotonic s): a screen that ``idles_to_attract``
        # left alone long enough gives way to the attract screen (``App.step``).
        self.touched_at = time.monotonic()

    def __len__(self) -> int:
        return len(self._screens)

    def digit_chose(self) -> None:
        """A menu's digit has just chosen a line: an Enter soon after only confirms it."""
        self.digit_chose_at = time.monotonic()

    @property
    def top(self) -> Screen | None:
        return self._screens[-1] if self._screens else None

    def screens(self) -> tuple[Screen, ...]:
        return tuple(self._screens)

    def push(self, screen: Screen) -> None:
        self._screens.append(screen)
        screen.on_enter()

    def pop(self) -> Screen | None:
        """Remove the top screen; the root screen is never popped."""
        if len(self._screens) <= 1:
            return None
        gone = self._screens.pop()
        self._screens[-1].on_enter()
        return gone

    def replace(self, screen: Screen) -> None:
        if self._screens:
            self._screens.pop()
        self.push(screen)

    def reset(self, screen: Screen) -> None:
        """Back to the root screen, then ``screen`` on top of it (or as root if empty)."""
        del self._screens[1:]
        if not self._screens:
            self.push(screen)
        elif self._screens[0] is screen:
            screen.on_enter()
        else:
            self.push(screen)

    def find(self, kind: type[Screen]) -> Screen | None:
        for screen in reversed(self._screens):
            if isinstance(screen, kind):
                return screen
        return None


# An Enter this soon after a menu's digit chose a line confirms that digit's choice.
ENTER_CONFIRMS_S = 3.0


def enter_confirms(stack: ScreenStack, event: Any, now: float) -> bool:
    """True for an Enter that only confirms what a menu's digit has just done, and is
    not passed on. A digit chooses at once, yet many press Enter after it, as on a cash
    machine. That Enter acted again, on whatever the digit left on top: it stepped the
    line's choice a second time ("6, Enter" on Rules went two rules on), chose the first
    line of the menu the digit opened ("1, Enter" made Cricket cut-throat), started the
    clock of the formula game the digit started, or left the page the digit opened (the
    volume, a player's page) as soon as it came. Any other key, a click or a dart ends
    the window."""
    if not isinstance(event, KeyAction | Click | DartInput):
        return False  # a notice: not the player's doing
    chose_at, stack.digit_chose_at = stack.digit_chose_at, None
    return (
        isinstance(event, KeyAction)
        and event.name == "enter"
        and chose_at is not None
        and 0 <= now - chose_at < ENTER_CONFIRMS_S
    )


def match_below(stack: ScreenStack) -> Screen | None:
    """The match under the top screen (the one that takes darts), if there is one."""
    for screen in reversed(stack.screens()[:-1]):
        if getattr(screen, "takes_darts", False):
            return screen
    return None


def back_to_the_match(stack: ScreenStack, event: Any) -> bool:
    """A dart that lands while a menu is over a match (the pause menu, settings): the
    screens above the match go, and the match takes the dart, as a bar machine brings
    its scoreboard back. False when no screen below takes darts (nothing to score)."""
    screen = match_below(stack)
    if screen is None:
        return False
    while stack.top is not screen and stack.pop() is not None:
        pass
    screen.process_event(event)
    return True


def next_second(now: float, deadline: float) -> float:
    """When a countdown to ``deadline`` next shows a new whole second (a screen's
    ``wake_at``): just after the fraction of a second left over runs out."""
    left = deadline - now
    return now + max(0.0, left - int(left)) + 0.001
