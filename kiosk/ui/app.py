"""The loop: one thread owns pygame, sleeps until something happens, redraws on change.

Each pass of :meth:`App.step`:

1. block on the :class:`~kiosk.ui.inbox.Inbox` (a condition variable: a device thread's
   ``put`` wakes it at once) until the next SDL pump is due, a screen's timer, or the
   watchdog;
2. pump SDL input (keys, clicks, window) at ``pump_hz``: often enough that keys feel
   instant, rarely enough to idle at well under 1% of a core. ``pygame.event.wait``
   is not used: in pygame-ce it polls every few ms inside;
3. hand every input to the top screen, run ``update(now)``;
4. if the top screen or the banner changed (or the banners taking turns turned): draw
   it all, flip, and note for every dart handled in this pass how long it took from
   the device thread to the flip (``latencies``; ``bench/latency.py`` reads them).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from kiosk.adapters.keypad import KeyAction, action_for
from kiosk.ui import theme
from kiosk.ui.banner import Shown, banner_turn, draw_banner
from kiosk.ui.context import Kiosk
from kiosk.ui.inbox import DeviceEvent, Inbox
from kiosk.ui.screen import (
    Click,
    DartDoubt,
    DartInput,
    DartsPulled,
    Notice,
    enter_confirms,
    match_below,
)

log = logging.getLogger("kiosk.ui")

BUTTON_ACTIONS = {"NEXT": "next", "UNDO": "undo", "MENU": "menu"}
# Lines from the board that are not the protocol show on the game screen, each, but at
# most UNKNOWN_NOTICES in UNKNOWN_NOTICE_S: a firmware that speaks a dialect would
# otherwise cover the game's messages with them. The reader logs them all
# (rate-limited) and counts them.
UNKNOWN_NOTICE_S = 60.0
UNKNOWN_NOTICES = 3
# Screens are laid out for landscape: a taller screen gets a band this wide to high.
MIN_ASPECT = 1.6
LATENCIES_KEPT = 2000  # the darts whose dart-to-screen time is kept (bench/latency.py)
UNKNOWN_SHOWN = 24  # characters of the line on screen
# Lines this close together are said together: the second notice replaced the first
# before it was drawn ("T2" cut off, then "0": only "0" was said).
UNKNOWN_JOIN_S = 1.0


CONTACT_NOT_MAPPED = "A dart on contact {} is not in the board map: type it on the keypad"
CONTACT_NOTICE_S = 5.0  # at most this often: a turn's first lost dart, not every scan


class UnknownLines:
    """When the last lines the board sent that are not the protocol were shown."""

    def __init__(self, every_s: float = UNKNOWN_NOTICE_S, burst: int = UNKNOWN_NOTICES) -> None:
        self.every_s, self.burst = every_s, burst
        self.shown: list[float] = []  # when each shown in the last ``every_s`` was
        self.contact_shown_at: float | None = None
        self.lines: list[str] = []  # the lines said together last, and when the last came
        self.line_at: float | None = None
        # Whether the top screen shows notices (``Screen.shows_notices``): a line that
        # comes while it does not (the attract screen, a menu) is only logged, and the
        # next one is shown as soon as a game is on screen.
        self.showing = True

    def notice(self, text: str, now: float) -> Notice | None:
        if not self.showing:
            return None
        self.shown = [t for t in self.shown if now - t < self.every_s]
        if len(self.shown) >= self.burst:
            return None
        self.shown.append(now)
        shown = text if len(text) <= UNKNOWN_SHOWN else text[: UNKNOWN_SHOWN - 3] + "..."
        together = self.line_at is not None and now - self.line_at < UNKNOWN_JOIN_S
        self.lines = [*self.lines, shown] if together else [shown]
        self.line_at = now
        if len(self.lines) == 1:
            return Notice("The board sent a line the kiosk does not know: '{}'", (shown,))
        said = ", ".join(f"'{line}'" for line in self.lines)
        return Notice("The board sent lines the kiosk does not know: {}", (said,))

    def contact(self, row: int, col: int, now: float) -> Notice | None:
        """A dart on a contact the board map does not have: it was not scored."""
        last = self.contact_shown_at
        if last is not None and now - last < CONTACT_NOTICE_S:
            return None
        self.contact_shown_at = now
        return Notice(CONTACT_NOT_MAPPED, (f"{row} {col}",), act=True)


@dataclass(frozen=True, slots=True)
class Frame:
    """One flip: its number, when it ended, and the device times of the darts it shows."""

    number: int
    t_flip: float
    dart_times: tuple[float, ...]
    screen: str


def translate_device(
    item: DeviceEvent, kiosk: Kiosk, unknown: UnknownLines | None = None
) -> Any | None:
    """A device thread's event -> a screen input (None: handled here or ignored).
    ``unknown``: a line that is not the protocol is shown as a notice (the reader has
    logged and counted it), at most as often as it says."""
    ev = item.event
    kind = type(ev).__name__
    if kind == "Hit":
        return DartInput(ev.dart, item.source, item.t)
    if kind == "Button":
        name = BUTTON_ACTIONS.get(ev.name)
        return KeyAction(name) if name else None
    if kind == "Status":
        if item.source == "camera":  # (detail "cameras", or "cameras moved")
            log.info("cameras %s%s", ev.state, " (moved)" if "moved" in ev.detail else "")
        else:
            log.info("board %s: %s", ev.state, ev.detail)
        kiosk.set_board(ev.state, ev.detail)
        return None
    if kind == "CamerasDown":
        kiosk.set_cameras_down(ev.cameras)
        return None
    if kind == "BoardMapBroken":
        kiosk.set_board_map_problem(ev.name, ev.contacts)
        return None
    if kind == "StoreDamaged":  # (logged by the check)
        kiosk.set_store_damaged()
        return None
    if kind == "CameraUnreadable":
        log.warning("cameras: a dart landed but could not be placed; asking for it typed")
        return Notice("A dart was not read: type it on the keypad", act=True)
    if kind == "CameraKnocked":  # (the scorer logged it)
        return Notice("A camera was knocked: if a dart landed just then, type it", act=True)
    if kind == "CameraBounce":  # (after its MISS)
        return Notice("Bounce-out: counted as a miss. - (undo) if no dart was thrown", last=True)
    if kind == "CameraFellOut":
        log.info("cameras: a dart fell out of the board: not a new dart")
        return Notice("A dart fell out of the board: not counted again. / 6 corrects it")
    if kind == "CameraTakeout":
        return DartsPulled()
    if kind == "CameraDoubt":
        # The dart has counted already (its Hit came first); the player checks it.
        return DartDoubt(ev.dart, ev.other)
    if kind == "Hello":  # (the reader logged it)
        return None
    if kind == "Unknown" and unknown is not None:
        return unknown.notice(str(ev.text), item.t)
    if kind == "Raw" and unknown is not None:
        return unknown.contact(int(ev.row), int(ev.col), item.t)
    if isinstance(ev, DartInput | KeyAction | Click | Notice):
        return ev
    return None  # Ping


class App:
    def __init__(
        self,
        kiosk: Kiosk,
        inbox: Inbox,
        *,
        size: tuple[int, int] = (1280, 720),
        fullscreen: bool = False,
        rotation: int = 0,
        pump_hz: float = 30.0,
        notifier: Any = None,
        frame_listener: Callable[[Frame], None] | None = None,
        hide_cursor: bool | None = None,
        tick: Callable[[float], None] | None = None,
    ) -> None:
        """``tick(now)``: called every pass (bootstrap's look after the database),
        cheap: it does its work once in a while."""
        self.kiosk = kiosk
        self.inbox = inbox
        self.size = size
        self.fullscreen = fullscreen
        self.rotation = rotation % 360
        self.pump_interval = 1.0 / pump_hz
        self.notifier = notifier
        self.frame_listener = frame_listener
        self.tick = tick
        self.hide_cursor = fullscreen if hide_cursor is None else hide_cursor
        self.frames = 0
        # (device time, flip end) of the last darts shown: a bar's kiosk runs for months,
        # and a list of every dart grew with each one. ``darts_shown`` counts them all.
        self.latencies: deque[tuple[float, float]] = deque(maxlen=LATENCIES_KEPT)
        self.darts_shown = 0
        self.started_at = time.monotonic()
        self.first_frame_at: float | None = None
        self.texts: list[str] = []  # the texts of the last frame drawn
        self.text_rects: list[pygame.Rect] = []  # and where (canvas pixels)
        self._display: pygame.Surface | None = None
        self._canvas: pygame.Surface | None = None
        self._full: pygame.Surface | None = None  # the canvas's surface, bands included
        self._offset = (0, 0)  # the canvas's place on it
        self._painter: theme.Painter | None = None
        self._fonts: theme.Fonts | None = None
        self._next_pump = 0.0
        self._pending_darts: list[float] = []
        self._unknown = UnknownLines()
        self._banner_seen = -1
        self.banners = Shown()  # the banners of the last frame drawn
        self._banner_turn = 0  # the turn they were drawn at, when they take turns
        self._force = True

    # -- display -----------------------------------------------------------------------

    def open(self) -> None:
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption("darts-kiosk")
        if self.fullscreen:
            # (0, 0): the display's own mode (KMS/DRM on the Pi: no desktop needed).
            self._display = pygame.display.set_mode(self.size, pygame.FULLSCREEN)
        else:
            self._display = pygame.display.set_mode(self.size, pygame.RESIZABLE)
        pygame.mouse.set_visible(not self.hide_cursor)
        pygame.key.set_repeat(0)
        self._fonts = theme.Fonts()
        self._make_canvas()
        log.info(
            "display %s, %dx%d%s",
            pygame.display.get_driver(),
            *self._display.get_size(),
            " fullscreen" if self.fullscreen else "",
        )

    def _make_canvas(self) -> None:
        """The surface the screens draw on. Turned for a screen on its side; on a tall
        one (portrait, or narrower than ``MIN_ASPECT``) a band of the full width across
        its middle, ``MIN_ASPECT`` wide to high, dark above and below: every screen is
        laid out for landscape, sized by the height."""
        assert self._display is not None and self._fonts is not None
        w, h = self._display.get_size()
        if self.rotation in (90, 270):
            w, h = h, w
        self._full = self._display if self.rotation == 0 else pygame.Surface((w, h))
        self._full.fill(theme.BG)
        band = min(h, round(w / MIN_ASPECT))
        self._offset = (0, (h - band) // 2)
        self._canvas = self._full.subsurface(pygame.Rect(self._offset, (w, band)))
        if band < h:
            log.info("a screen squarer than 16:10 (%dx%d): drawn in a %dx%d band across its middle",
                     w, h, w, band)  # fmt: skip
        self._painter = theme.Painter(self._canvas, self._fonts)
        self._force = True

    @property
    def canvas(self) -> pygame.Surface:
        assert self._canvas is not None
        return self._canvas

    def _to_canvas(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A display pixel -> the canvas's pixel (turned back, less the band's offset)."""
        x, y = self._unturned(pos)
        return (x - self._offset[0], y - self._offset[1])

    def _unturned(self, pos: tuple[int, int]) -> tuple[int, int]:
        if self.rotation == 0 or self._display is None:
            return pos
        x, y = pos
        w, h = self._display.get_size()
        if self.rotation == 180:
            return (w - 1 - x, h - 1 - y)
        if self.rotation == 90:  # canvas turned clockwise onto the display
            return (y, w - 1 - x)
        return (h - 1 - y, x)

    # -- the loop ----------------------------------------------------------------------

    def run(
        self,
        *,
        max_frames: int | None = None,
        until: Callable[[], bool] | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Loop until quit, ``max_frames`` more frames, ``until()`` is true, or
        ``timeout`` s; True if ``until`` became true (tests drive the app this way)."""
        if self._display is None:
            self.open()
        start_frames = self.frames
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.kiosk.running:
            if until is not None and until():
                return True
            if max_frames is not None and self.frames - start_frames >= max_frames:
                return False
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return False
            self.step(None if deadline is None else deadline - now)
        return until is not None and until()

    def step(self, max_wait: float | None = None) -> None:
        top = self.kiosk.stack.top
        now = time.monotonic()
        wait = self._next_pump - now
        if top is not None:
            wake = top.wake_at()
            if wake is not None:
                wait = min(wait, wake - now)
            if (idle := self._idle_at()) is not None:
                wait = min(wait, idle - now)
        if self.notifier is not None:
            due = self.notifier.seconds_until_watchdog()
            if due is not None:
                wait = min(wait, due)
        if max_wait is not None:
            wait = min(wait, max_wait)
        items = self.inbox.wait(max(0.0, wait))
        inputs: list[Any] = []
        now = time.monotonic()
        if now >= self._next_pump:
            self._next_pump = now + self.pump_interval
            inputs += self._sdl_inputs()
        top = self.kiosk.stack.top
        self._unknown.showing = top is not None and top.shows_notices
        for item in items:
            inp = translate_device(item, self.kiosk, self._unknown)
            if inp is not None:
                inputs.append(inp)
        if inputs:
            self.kiosk.stack.touched_at = time.monotonic()
        for inp in inputs:
            top = self.kiosk.stack.top
            if isinstance(inp, DartInput) and inp.t:
                self._pending_darts.append(inp.t)
            if enter_confirms(self.kiosk.stack, inp, time.monotonic()):
                log.info("keys: Enter right after a menu's digit, taken as its confirmation")
                continue
            if top is not None:
                if (
                    isinstance(inp, DartInput)
                    and not getattr(top, "takes_darts", False)
                    and (match_below(self.kiosk.stack) is None)
                ):  # (a video as a camera plays on through the menus: say where they went)
                    log.info("dart %s from the %s with no game on (%s): not scored", inp.dart,
                             inp.source, top.name)  # fmt: skip
                top.process_event(inp)
        if self.tick is not None:
            self.tick(time.monotonic())
        top = self.kiosk.stack.top
        if top is not None:
            top.update(time.monotonic())
        if (idle := self._idle_at()) is not None and time.monotonic() >= idle:
            self.kiosk.stack.reset(self.kiosk.stack.screens()[0])
            top = self.kiosk.stack.top
        turn = banner_turn(time.monotonic())
        if top is not None and (
            top.dirty
            or self._force
            or self._banner_seen != self.kiosk.banner_revision
            or (self.banners.turning and turn != self._banner_turn)
        ):
            self._draw(turn)
        if self.notifier is not None:  # after the draw: the first frame's READY=1 comes first
            self.notifier.watchdog()

    def _idle_at(self) -> float | None:
        """When the top screen, a page left alone, gives way to the attract screen
        (``Screen.idles_to_attract``; never over a game); None: it does not."""
        from kiosk.ui.screens.menu import MENU_IDLE_S, may_idle

        stack = self.kiosk.stack
        top = stack.top
        if top is None or not top.idles_to_attract or not may_idle(stack):
            return None
        return stack.touched_at + MENU_IDLE_S

    def _sdl_inputs(self) -> list[Any]:
        out: list[Any] = []
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT:
                self.kiosk.quit()
            elif ev.type == pygame.KEYDOWN:
                if ev.key == pygame.K_q and ev.mod & pygame.KMOD_CTRL:
                    self.kiosk.quit()
                    continue
                action = action_for(ev.key, ev.unicode)
                if action is not None:
                    out.append(action)
            elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
                out.append(Click(self._to_canvas(ev.pos)))
            elif ev.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self._display = pygame.display.get_surface()
                self._make_canvas()
            elif ev.type in (pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED):
                self._force = True
        return out

    def _draw(self, turn: int) -> None:
        top = self.kiosk.stack.top
        assert top is not None and self._painter is not None and self._display is not None
        p = self._painter
        p.begin(self.canvas)
        self.canvas.fill(theme.BG)
        top.draw(p)
        at_foot = getattr(top, "banner_at_foot", False)
        self.banners = draw_banner(p, self.kiosk, at_foot=at_foot, turn=turn)
        self._banner_turn = turn
        if self.rotation and self._full is not None:
            self._display.blit(pygame.transform.rotate(self._full, -self.rotation), (0, 0))
        pygame.display.flip()
        t_flip = time.monotonic()
        top.dirty = False
        self._force = False
        self._banner_seen = self.kiosk.banner_revision
        self.texts, self.text_rects = p.texts, p.placed
        self.frames += 1
        darts = tuple(self._pending_darts)
        self._pending_darts.clear()
        self.latencies.extend((t, t_flip) for t in darts)
        self.darts_shown += len(darts)
        if self.first_frame_at is None:
            self.first_frame_at = t_flip
            log.info("first frame after %.0f ms", (t_flip - self.started_at) * 1000)
            if self.notifier is not None:
                self.notifier.ready()
        if self.frame_listener is not None:
            self.frame_listener(Frame(self.frames, t_flip, darts, top.name))

    def screenshot(self, path: str) -> None:
        """Save the last frame drawn (the canvas, unrotated)."""
        pygame.image.save(self.canvas, path)

    def close(self) -> None:
        self.kiosk.sound.stop()
        if self._fonts is not None:
            self._fonts.close()
        pygame.display.quit()
