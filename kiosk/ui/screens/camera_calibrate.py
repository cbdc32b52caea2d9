"""Camera calibration: mark known board points on a still picture, or let the
automatic calibration find them, then check the rings and wires drawn back over it.

Marking: the prompt names one point at a time (the double ring's outer edge where it
meets the 20/1, 6/10, 3/19 and 11/14 wires, then the bull). A click marks it; on the
keypad, 8/2/4/6 (or the arrows) move the crosshair, ``*`` goes through large, coarse
and fine steps, 5 marks (Enter does not: pressed twice it marked a point not aimed
at), ``.`` takes the last mark back. After the four wires
the crosshair waits where their diagonals cross: on the bull, seen at any angle. A
magnifier in the picture's corner furthest from the crosshair shows what it is on, four
times larger (a click in it marks the point it shows). ``0``
runs the automatic calibration (with the first mark, the 20/1 wire, as its hint for
where 20 is).

Marks that cannot be the board are refused before review, with what to do: points that
fit no board, points that go round the wrong way (a mirrored board), and points the
board's own rings and numbers put elsewhere (marking begun at another wire: the rings
and wires drawn back would look right, turned, and every dart would score wrong).
Refused, the five marks are shown without the crosshair and the magnifier (nothing is
left to mark until ``.`` takes one back).
Marks a few mm off the rings (the double ring's inner edge), or one mis-click that
makes the five disagree, are put right by the rings fitted from them
(``adapters.camera.marked``): the rings' fit is shown to review, and the mark that
was off is named. The check takes a second or more: the screen says so first.

Review: the board's rings, wires and numbers, mapped through the inverse homography,
drawn over the picture. Enter saves the calibration (JSON, atomically), ``.`` goes back
a mark, ``-`` starts again; ``/`` or Esc leaves without saving.

Not done yet: the picture is one still frame (no live view, no "grab again" key).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pygame

from kiosk.adapters.camera.autocal import AutoResult, auto_calibrate
from kiosk.adapters.camera.calibration import Calibration, PointPair
from kiosk.adapters.camera.capture import CAPTURE_SIZE, below_capture_size
from kiosk.adapters.camera.marked import check_marks
from kiosk.adapters.keypad import KeyAction
from kiosk.domain import board
from kiosk.ui import theme
from kiosk.ui.banner import BANNER_H, strips_at_foot
from kiosk.ui.i18n import fill, percent
from kiosk.ui.screen import Click, DartDoubt, DartInput, Notice, Screen, match_below
from kiosk.ui.screens.board_picture import BoardPicture, picture_place

log = logging.getLogger("kiosk.camera")


@dataclass(frozen=True)
class Target:
    """A point to mark: what the prompt calls it, and where it is on the board (mm)."""

    label: str
    board: tuple[float, float]


def _wire_point(left: int, right: int) -> tuple[float, float]:
    """Where the double ring's outer edge meets the wire between two segments."""
    i = board.SEGMENTS.index(left)
    assert board.SEGMENTS[(i + 1) % 20] == right
    return board.point_at(i * board.SEGMENT_DEGREES + board.SEGMENT_DEGREES / 2,
                          board.DOUBLE_OUTER)  # fmt: skip


TARGETS: tuple[Target, ...] = (
    Target("the outer edge of the double ring on the 20/1 wire", _wire_point(20, 1)),
    Target("the outer edge of the double ring on the 6/10 wire", _wire_point(6, 10)),
    Target("the outer edge of the double ring on the 3/19 wire", _wire_point(3, 19)),
    Target("the outer edge of the double ring on the 11/14 wire", _wire_point(11, 14)),
    Target("the centre of the bull", (0.0, 0.0)),
)

COARSE, FINE = 8.0, 1.0  # crosshair steps, picture pixels
LARGE = 0.05  # the large step, of the picture's width
MOVES = {"8": (0, -1), "2": (0, 1), "4": (-1, 0), "6": (1, 0),
         "up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}  # fmt: skip
MARK_COLOUR = (255, 70, 200)
ZOOM = 4.0  # the magnifier round the crosshair, times the picture's scale on the screen


def _diagonals_cross(marks: list[tuple[float, float]]) -> tuple[float, float] | None:
    """Where the lines 1-3 and 2-4 of the four wire points cross: the bull's centre in
    the picture (a perspective keeps lines and where they cross)."""
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = marks[:4]
    d = (x1 - x3) * (y2 - y4) - (y1 - y3) * (x2 - x4)
    if abs(d) < 1e-9:
        return None
    a, b = x1 * y3 - y1 * x3, x2 * y4 - y2 * x4
    return ((a * (x2 - x4) - (x1 - x3) * b) / d, (a * (y2 - y4) - (y1 - y3) * b) / d)


class CameraCalibrateScreen(Screen):
    name = "camera-calibrate"
    banner_at_foot = True  # the title names the point to mark: a banner goes over the keys

    def __init__(
        self,
        kiosk: Any,
        image: np.ndarray,
        out_path: Path,
        *,
        auto: Callable[[np.ndarray, tuple[float, float] | None], AutoResult] = auto_calibrate,
    ) -> None:
        super().__init__(kiosk)
        self.image = image
        self.view = BoardPicture(image)
        self.out_path = Path(out_path)
        self.auto = auto
        self.image_size = w, h = self.view.image_size
        self.marks: list[tuple[float, float]] = []
        self.cursor = (w / 2, h / 2)
        self.steps = (max(COARSE, round(LARGE * w)), COARSE, FINE)  # ``*`` goes through them
        self.step = self.steps[0]
        self.calibration: Calibration | None = None  # shown for review when set
        self.from_auto: AutoResult | None = None
        self.message = ""
        self.error = False
        self.asked: str | None = None  # "undo" or "quit": asked once, done on the next
        self._rows = 0  # lines under the prompt as drawn last (0: not drawn yet)
        self._before_ask: tuple[str, bool] = ("", False)  # (message, error) before - or /
        # A check that takes a second or more (the marks against the board's rings, the
        # automatic calibration): said on screen first, run on the next step after that
        # frame is drawn (the screen would look frozen, and keys pressed again)
        self._later: Callable[[], None] | None = None
        self._later_shown = False
        self._saying = ""  # the title meanwhile
        self.saved = False
        self.finished = False  # the command stops when this is set

    # -- coordinates ---------------------------------------------------------------------

    def image_to_screen(self, pt: tuple[float, float]) -> tuple[float, float]:
        return self.view.image_to_screen(pt)

    def screen_to_image(self, pos: tuple[float, float]) -> tuple[float, float]:
        return self.view.screen_to_image(pos)

    def layout(self, size: tuple[int, int], rows: int | None = None) -> pygame.Rect:
        """The picture's place on a screen of ``size``: below the prompt and ``rows``
        lines under it (what to do, the advice; as drawn last: one, or three with the
        advice), above the key help, as large as fits with its aspect kept."""
        u = size[1] / 100.0
        if rows is None:
            rows = self._rows or (3 if self._advice() else 1)
        top = (11 + 3.4 * (rows - 1)) * u
        bottom = size[1] - (8 + BANNER_H * strips_at_foot(self.kiosk)) * u
        return picture_place(size, self.image_size, top, bottom)

    # -- state ---------------------------------------------------------------------------

    @property
    def reviewing(self) -> bool:
        return self.calibration is not None

    @property
    def target(self) -> Target | None:
        return TARGETS[len(self.marks)] if len(self.marks) < len(TARGETS) else None

    def mark(self, pt: tuple[float, float]) -> None:
        w, h = self.image_size
        if not (0 <= pt[0] <= w - 1 and 0 <= pt[1] <= h - 1) or self.target is None:
            return
        self.marks.append((float(pt[0]), float(pt[1])))
        self.cursor = pt
        self.message, self.error, self.asked = "", False, None
        if len(self.marks) == 4 and (bull := _diagonals_cross(self.marks)) is not None:
            self.cursor = bull
        if self.target is None:
            self._run_later(self._fit_marks, "Checking the marks against the board's rings...")

    def _fit_marks(self) -> None:
        pts = [PointPair(m, t.board) for m, t in zip(self.marks, TARGETS, strict=False)]
        marked = check_marks(self.image, pts)
        if marked.calibration is None:
            log.warning("marked points refused (%s): %s", marked.verdict, marked.detail)
            self._refuse({
                "no board": "These points do not fit a board: one is off.",
                "mirrored": "These points go round the wrong way: mark them in the order named "
                            "(if you did, the camera's picture is mirrored: turn its "
                            "mirroring off).",
                # the rings fit: marking begun at another wire, or the numbers misread
                # with darts over them
                "numbers": "The board's numbers put 20 elsewhere: start at the 20/1 wire, "
                           "then go round clockwise (darts over the numbers? pull them "
                           "out first).",
                "moved": "The board's numbers put 20 elsewhere: start at the 20/1 wire, "
                         "then go round clockwise.",
            }[marked.verdict])  # fmt: skip
            return
        self.from_auto = None
        self.calibration = marked.calibration
        keys = self.t("Enter = save, . = back, - = start again")
        # The rings repeat every 36 degrees: when the numbers could not be read (cut
        # off by the picture's edge, darts over them), marks begun two wires along fit
        # the rings as well, and only a person can tell by the numbers drawn.
        unread = (
            ""
            if marked.numbers_read
            else self.t(
                "The board's numbers could not be read: check the numbers drawn match them."
            )
        )
        if marked.verdict == "rings" and (marked.off_marks or marked.wires_along):
            # Marks begun at another wire, on the double ring's inner edge (about 6 %
            # small), a slip of the hand, or one mis-click: the rings, fitted from the
            # marks, are surer.
            off = marked.off_marks
            worst = max(marked.off_mm)
            log.warning("marked points %.0f mm off the board's rings (marks %s, %d wires "
                        "along): the rings' fit is shown; %s", worst, [i + 1 for i in off],
                        marked.wires_along, marked.detail)  # fmt: skip
            if marked.wires_along:  # (only the numbers put a board turned so right)
                said = self.t("Mark 1 was not on the 20/1 wire: put right by the board's "
                              "numbers.")  # fmt: skip
            elif len(off) == 1:  # one mark is off, the others on the rings: name it
                said = fill(self.t("Mark {n} was {mm} mm off: put right by the board's rings."),
                            n=str(off[0] + 1), mm=f"{worst:.0f}")  # fmt: skip
            else:
                said = fill(self.t("The marks were {mm} mm off: put right by the board's "
                                   "rings."), mm=f"{worst:.0f}")  # fmt: skip
            self.message = " ".join(t for t in (said, unread, keys) if t)
            return
        if marked.verdict == "rings":
            log.info("marked points within %.1f mm of the board's rings: the rings' fit is "
                     "shown (%s)", max(marked.off_mm), marked.detail)  # fmt: skip
        if not marked.checked:
            log.info("marked points not checked: %s", marked.detail)
            self.message = self.t(
                "The board's rings were not found to check the marks: check the rings, "
                "wires and numbers drawn. Enter = save, . = back, - = start again"
            )
            return
        if unread:
            log.info("marked points: the board's numbers could not be read (%s)", marked.detail)
            self.message = f"{unread} {keys}"
            return
        self.message = self.t(
            "Check the rings, wires and numbers. Enter = save, . = back, - = start again"
        )

    def _refuse(self, why: str) -> None:
        self.message = f"{self.t(why)} {self.t('. = take back the last point, - = start again')}"
        self.error = True

    def undo(self) -> None:
        if self.reviewing and self.from_auto is not None:
            self.calibration, self.from_auto = None, None
        elif self.marks:
            self.marks.pop()
            self.calibration = None
        self.message, self.error = "", False

    def restart(self) -> None:
        self.marks.clear()
        self.calibration, self.from_auto = None, None
        self.message, self.error = "", False

    def auto_later(self, twenty_at: tuple[float, float] | None = None) -> None:
        """``run_auto`` on the next step, "Looking for the board..." said meanwhile."""
        self._run_later(lambda: self.run_auto(twenty_at), "Looking for the board...")

    def run_auto(self, twenty_at: tuple[float, float] | None = None) -> None:
        """The automatic calibration, shown for review (or why it failed); the 20 is
        where ``twenty_at`` says (image pixels), else at the first mark, if any."""
        hint = twenty_at or (self.marks[0] if self.marks else None)
        result = self.auto(self.image, hint)
        log.info("auto calibration: %s (confidence %.2f)", result.reason, result.confidence)
        values = {k: self._figure(str(v)) for k, v in result.values.items()}
        why = fill(self.t(result.template), **values) if result.template else result.reason
        self.dirty = True  # (also when run before any input: the command's --auto)
        if result.calibration is None:
            self.message, self.error = f"{self.t('Auto calibration')}: {why}", True
            if hint is None and "segment is 20" in result.template:  # how to mark it
                how = self.t("Mark the first point (the 20/1 wire), then press 0.")
                self.message = f"{self.message.rstrip('.')}. {how}"
            elif twenty_at is None and hint is not None and "than the mark" in result.template:
                # (the hint is mark 1, whatever is marked after it: that one to put right)
                self.message = f"{self.t('Auto calibration')}: " + self.t(
                    "the board's numbers put 20 elsewhere than mark 1: . = take the marks "
                    "back, then mark the 20/1 wire first and press 0")  # fmt: skip
            return
        self.calibration, self.from_auto = result.calibration, result
        sure = percent(result.confidence, self.kiosk.settings.language)
        self.message = (f"{self.t('Auto calibration')}: {why}, "
                        f"{self.t('confidence')} {sure}. "
                        f"{self.t('Enter = save, . = back')}")  # fmt: skip
        self.error = False

    def _figure(self, text: str) -> str:
        """A decimal figure from the camera code ("0.98") with the language's mark."""
        if re.fullmatch(r"-?\d+\.\d+", text):
            return self.number(float(text), len(text.split(".")[1]))
        return text

    def save(self) -> None:
        if self.calibration is None:
            return
        try:
            self.calibration.save(self.out_path)
        except OSError as e:
            self.message, self.error = f"{self.t('Not saved')}: {e.strerror or e}", True
            return
        log.info("calibration saved to %s (the camera %.0f deg off the board's axis)",
                 self.out_path, self.calibration.off_axis_deg)  # fmt: skip
        self.saved = True
        self.finished = True
        self.message, self.error = f"{self.t('Saved to')} {self.out_path}", False

    # -- a check said first, then run ----------------------------------------------------

    def _run_later(self, what: Callable[[], None], saying: str) -> None:
        self._later, self._later_shown = what, False
        self._saying, self.message, self.error = self.t(saying), "", False
        self.dirty = True

    @property
    def busy(self) -> bool:
        """A check is waiting to run (its message is on screen, or about to be)."""
        return self._later is not None

    def _run_now(self) -> None:
        what, self._later, self._later_shown = self._later, None, False
        if what is not None:
            what()
            self.dirty = True

    def wake_at(self) -> float | None:
        return 0.0 if self._later is not None and self._later_shown else None

    def update(self, now: float) -> None:
        if self._later_shown:
            self._run_now()

    # -- input ---------------------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput | DartDoubt | Notice):
            self._to_the_match(event)
            self.dirty = True  # (what the game took is said here)
            return
        if self.busy:  # a key pressed meanwhile (Enter twice: a review saved unseen)
            log.info("calibration: %r while checking: not taken", event)
            return
        if self.saved:  # closing by itself: / and - have nothing left to throw away
            if isinstance(event, KeyAction) and event.name in ("menu", "cancel"):
                self.finished = True
            return
        if isinstance(event, Click):
            if self.reviewing:
                pass
            elif (zoomed := self.view.zoom_to_image(event.pos)) is not None:
                self.mark(zoomed)  # (a click in the magnifier: the point it shows)
            elif self.view.rect.collidepoint(event.pos):
                self.mark(self.screen_to_image(event.pos))
        elif isinstance(event, KeyAction):
            self.key(event)
        self.dirty = True

    def _to_the_match(self, event: DartInput | DartDoubt | Notice) -> None:
        """A dart (or the cameras' word on one) while the screen is open over a match:
        the match takes it, and the marks in progress stay; the screen says so."""
        stack = getattr(self.kiosk, "stack", None)
        match = match_below(stack) if stack is not None else None
        if match is None:
            return  # calibrating with no game: nothing to score
        match.process_event(event)
        if isinstance(event, DartInput):
            self.message = self.t("The game took a dart: {}").format(event.dart)
            self.error = False

    def _asked_first(self, name: str) -> bool:
        """``-`` (start again) and ``/`` (quit) throw away marks that were going well
        (or a calibration shown and not saved): the first press asks, the second does
        it. Marks refused go at once with ``-`` (starting again is what they ask for);
        ``/`` asks all the same (leaving throws away five marks, four of them right)."""
        asked, self.asked = self.asked, None
        refused = self.target is None and not self.reviewing  # all marked, and refused
        at_once = refused and name == "undo"
        if asked == name or not (self.reviewing or (self.marks and not at_once)):
            return False
        self.asked = name
        if asked is None:  # (one question in place of the other: what was said before it)
            self._before_ask = (self.message, self.error)  # back when another key is pressed
        if name == "undo":
            self.message = self.t("- again to start again: the points marked go")
        else:
            self.message = self.t("/ again to quit: nothing is saved")
        self.error = True
        return True

    def key(self, ev: KeyAction) -> None:
        name = ev.char if ev.name == "digit" else ev.name
        if name in ("menu", "cancel", "undo") and self._asked_first(
            "undo" if name == "undo" else "quit"
        ):
            return
        if self.asked is not None:  # another key: the question goes, what was said comes back
            self.asked = None
            self.message, self.error = self._before_ask
        if name in ("menu", "cancel"):
            self.finished = True
        elif name == "back":
            self.undo()
        elif name == "undo":
            self.restart()
        elif self.reviewing:
            if name == "enter":
                self.save()
        elif name in MOVES and self.target is not None:  # (refused: nothing to aim)
            dx, dy = MOVES[name]
            w, h = self.image_size
            x = min(max(self.cursor[0] + dx * self.step, 0.0), w - 1.0)
            y = min(max(self.cursor[1] + dy * self.step, 0.0), h - 1.0)
            self.cursor = (x, y)
        elif name == "times":
            self.step = self.steps[(self.steps.index(self.step) + 1) % len(self.steps)]
        elif name == "5":
            self.mark(self.cursor)
        elif name == "enter" and self.target is not None:  # (not a mark: Enter twice
            # from the check screen marked a point not aimed at)
            self.message, self.error = self.t("5 marks the point"), False
        elif name == "0":
            self.auto_later()

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        # What to do, and the advice, on two lines rather than shrunk on a small screen
        # (a refusal is what most needs reading from a step back).
        sub = p.two_lines(self.message or self._hint(), 2.8 * u, w * 0.96)
        advice = p.two_lines(a, 2.8 * u, w * 0.96) if (a := self._advice()) else []
        self._rows = len(sub) + len(advice)
        self.view.draw(p, self.layout((p.w, p.h), self._rows))
        if self.calibration is not None:
            self.view.draw_overlay(p, self.calibration)
        for i, m in enumerate(self.marks):
            self._draw_mark(p, m, str(i + 1))
        if self.target is not None and not self.reviewing:  # (all five refused: none)
            self._draw_crosshair(p, self.cursor)
            if self._later is None:  # (the marks being checked: nothing to aim)
                self.view.draw_zoom(p, self.cursor, ZOOM)
        if self._later is not None:
            self._later_shown = True  # (said on this frame: run on the next step)
        title = self._title()
        p.text(title, 4.2 * u, (w / 2, 1.5 * u), theme.ACCENT, anchor="midtop", style="bold",
               max_width=w * 0.96)  # fmt: skip
        for n, line in enumerate(sub):
            p.text(line, 2.8 * u, (w / 2, (7.2 + 3.3 * n) * u),
                   theme.BAD if self.error else theme.TEXT, anchor="midtop",
                   max_width=w * 0.96)  # fmt: skip
        for n, line in enumerate(advice, start=len(sub)):
            p.text(line, 2.8 * u, (w / 2, (7.2 + 3.3 * (n + 0.1)) * u), theme.BAD,
                   anchor="midtop", max_width=w * 0.96)  # fmt: skip
        # The key help above the banners at the foot (a camera to calibrate is the
        # usual reason this screen is open, and its banner is up all the while).
        keys_y = p.h - (4 + BANNER_H * strips_at_foot(self.kiosk)) * u
        p.text(self._keys(), 2.6 * u, (w / 2, keys_y), theme.DIM, anchor="center",
               max_width=w * 0.96)  # fmt: skip

    def _title(self) -> str:
        if self._later is not None:
            return self._saying
        if self.saved:
            return self.t("Calibration saved")
        if self.reviewing:
            return self.t("Do the rings, wires and numbers match the board?")
        target = self.target
        if target is None:  # all marked, and refused
            return self.t("These points cannot be used")
        n = len(self.marks) + 1
        label = self.t(target.label) if target else ""
        return f"{n}/{len(TARGETS)}: {self.t('Mark')} {label}"

    def _advice(self) -> str:
        """Under a calibration to review: a camera nearly face-on places darts worse
        (``FACE_ON_DEG``): moving it is the fix, and giving it the size of picture the
        kiosk asks for (``capture.below_capture_size``) helps too."""
        cal = self.calibration
        if cal is None or self.saved or not cal.face_on:
            return ""
        better = self.t("it scores better from 15° or more to the side")
        text = (f"{self.t('This camera looks at the board nearly face-on')} "
                f"({cal.off_axis_deg:.0f}°): {better}")  # fmt: skip
        if below_capture_size(cal.image_size):  # face-on, the picture's size counts too
            w, h = cal.image_size
            asked = f"{CAPTURE_SIZE[0]}x{CAPTURE_SIZE[1]}"
            text += ", " + fill(self.t("and at {asked} than at {size}"), asked=asked,
                                size=f"{w}x{h}")  # fmt: skip
        return text

    def _hint(self) -> str:
        if self.reviewing or self._later is not None:
            return ""
        return self.t("Click the point, or move the crosshair and press 5. "
                      "0 = automatic calibration")  # fmt: skip

    def _keys(self) -> str:
        if self.saved or self._later is not None:  # closing by itself, or busy: no keys
            return ""
        if self.reviewing:
            return self.t("Enter = save   . = back   - = start again   / = quit without saving")
        if self.target is None:  # all marked, and refused
            return self.t(". = take back the last point   - = start again   / = quit")
        step = {FINE: self.t("fine"), COARSE: self.t("coarse")}.get(self.step, self.t("large"))
        return (f"{self.t('8 2 4 6 = move')} ({step}, * = {self.t('change')})   "
                f"{self.t('5 = mark   . = back   0 = auto   / = quit')}")  # fmt: skip

    def _draw_mark(self, p: theme.Painter, m: tuple[float, float], label: str) -> None:
        x, y = self.image_to_screen(m)
        r = max(4, round(p.u * 0.9))
        pygame.draw.circle(p.surface, MARK_COLOUR, (round(x), round(y)), r, max(1, r // 3))
        p.text(label, 2.4 * p.u, (x + r + 2, y - r - 2), MARK_COLOUR, anchor="bottomleft",
               style="bold")  # fmt: skip

    def _draw_crosshair(self, p: theme.Painter, c: tuple[float, float]) -> None:
        x, y = self.image_to_screen(c)
        arm, gap = 4.0 * p.u, 0.8 * p.u
        width = max(1, round(p.u * 0.2))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            a = (x + dx * gap, y + dy * gap)
            b = (x + dx * arm, y + dy * arm)
            pygame.draw.line(p.surface, (0, 0, 0), a, b, width + 2)
            pygame.draw.line(p.surface, theme.ACCENT, a, b, width)
