"""A camera's saved calibration, checked: its rings, wires and numbers drawn over the
camera's picture now, as the calibration screen shows a calibration before saving it.
The bar owner sees whether they still lie on the board, then leaves (``/``, ``.`` or
Esc) with the file as it was, or goes on to calibrate again (Enter: the marking
screen, on the same picture).

While the cameras score, the picture follows the camera (``fresh``: the scorer's
latest, looked at every ``REFRESH_S``); else it is the one still taken when the
screen opened (opening the camera again each second would hold up the kiosk), and
``0`` takes a new one (``grab``): the owner who has just nudged the camera sees
where it looks now without leaving. A dart that lands meanwhile goes to the match
below, as from a menu.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from kiosk.adapters.camera.calibration import Calibration, CalibrationError
from kiosk.adapters.keypad import KeyAction
from kiosk.ui import theme
from kiosk.ui.banner import BANNER_H, strips_at_foot
from kiosk.ui.screen import DartDoubt, DartInput, Notice, Screen, back_to_the_match
from kiosk.ui.screens.board_picture import BoardPicture, picture_place

if TYPE_CHECKING:
    from kiosk.ui.screens.camera_calibrate import CameraCalibrateScreen

log = logging.getLogger("kiosk.camera")

REFRESH_S = 1.0


def check_first(
    kiosk: Any,
    image: np.ndarray,
    out: Path,
    number: int,
    *,
    again: Callable[[np.ndarray], CameraCalibrateScreen],
    fresh: Callable[[], np.ndarray | None] | None = None,
    grab: Callable[[], np.ndarray | None] | None = None,
    refuse: Callable[[], str | None] | None = None,
) -> Screen:
    """What a camera's line in Settings opens on ``image``: its saved calibration
    (``out``) to check, or, with none, the marking screen as before (``again``); a
    saved one that cannot be used (not a calibration, another shape of picture) is
    said there, over the marking. ``refuse()``: why calibrating again cannot be
    saved (the file not writable), said when Enter asks for it; looking needs no
    more than reading."""
    if not out.is_file():
        return again(image)
    h, w = image.shape[:2]
    try:
        saved = Calibration.load(out).for_size((w, h))
    except CalibrationError as e:
        log.warning("camera %d: the calibration saved cannot be used: %s", number, e)
        screen = again(image)
        screen.message = kiosk.t("The calibration saved cannot be used: mark the points again")
        screen.error = True
        return screen
    return CameraCheckScreen(
        kiosk, image, saved, number, again=again, fresh=fresh, grab=grab, refuse=refuse
    )


class CameraCheckScreen(Screen):
    name = "camera-check"
    banner_at_foot = True  # as on the calibration screen: the title is the question

    def __init__(
        self,
        kiosk: Any,
        image: np.ndarray,
        saved: Calibration,
        number: int,
        *,
        again: Callable[[np.ndarray], Screen],
        fresh: Callable[[], np.ndarray | None] | None = None,
        grab: Callable[[], np.ndarray | None] | None = None,
        refuse: Callable[[], str | None] | None = None,
    ) -> None:
        """``saved`` for pictures of ``image``'s size; camera ``number`` (from 1);
        ``again(picture)``: the marking screen that Enter puts in this one's place,
        unless ``refuse()`` says why it could not be saved (then said here);
        ``grab()``: a new still picture (it opens the camera: a second or so), taken
        when ``0`` asks, until ``fresh`` gives the scoring cameras' pictures."""
        super().__init__(kiosk)
        self.view = BoardPicture(image)
        self.saved = saved
        self.camera = number
        self.again = again
        self.refuse = refuse
        self.refused = ""  # why Enter did not calibrate again
        self.fresh = fresh
        self.grab = grab
        self.taking = False  # "0" pressed: the picture is taken once that is on screen
        self._said_taking = False
        self.picture_note = ""  # what came of the last "0"
        self._next_look: float | None = None

    def image_to_screen(self, pt: tuple[float, float]) -> tuple[float, float]:
        return self.view.image_to_screen(pt)

    # -- input and time ------------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput | DartDoubt) or (isinstance(event, Notice) and event.act):
            # (as from a menu: the dart, or a dart to type, one the cameras could not read)
            back_to_the_match(self.kiosk.stack, event)
        elif isinstance(event, KeyAction):
            if event.name == "enter":
                why = self.refuse() if self.refuse is not None else None
                if why:
                    self.refused, self.dirty = why, True
                else:
                    self.kiosk.stack.replace(self.again(self.view.image))
            elif event.name in ("menu", "back", "cancel"):
                self.kiosk.stack.pop()
            elif event.name == "digit" and event.char == "0" and self.grab is not None:
                self.taking, self._said_taking, self.dirty = True, False, True

    def update(self, now: float) -> None:
        if self.taking and self._said_taking:
            self._take_picture()
        if self.fresh is None:
            return
        if self._next_look is None or now >= self._next_look:
            self._next_look = now + REFRESH_S
            picture = self.fresh()
            if (
                picture is not None
                and picture is not self.view.image
                and picture.shape == self.view.image.shape
            ):
                self.view.set_image(picture)
                self.grab = None  # the cameras score now: the picture follows them
                self.dirty = True

    def _take_picture(self) -> None:
        """The new still picture ``0`` asked for (after "Taking a new picture" was
        drawn: the camera takes a second to open); one that does not come, or comes in
        another size than the calibration's, leaves the old one up and says why."""
        assert self.grab is not None
        self.taking, self.dirty = False, True
        try:
            picture = self.grab()
        except Exception as e:  # a camera that fails never stops the kiosk
            log.error("camera %d: no picture: %s", self.camera, e)
            picture = None
        if picture is None:
            log.warning("camera %d: no new picture", self.camera)
            self.picture_note = self.t("No picture from the camera")
        elif picture.shape[:2] != self.view.image.shape[:2]:
            h, w = picture.shape[:2]
            log.warning("camera %d: a new picture of %dx%d, not the calibration's size",
                        self.camera, w, h)  # fmt: skip
            self.picture_note = self.t("The camera now gives pictures of another size")
        else:
            self.view.set_image(picture)
            self.picture_note = ""

    def wake_at(self) -> float | None:
        if self.taking:
            return 0.0  # at once, once drawn
        return self._next_look if self.fresh is not None else None

    # -- drawing -------------------------------------------------------------------------

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        line = 3.4 if self.refused or self.grab else 0.0  # why Enter or 0 did nothing
        bottom = p.h - (8 + line + BANNER_H * strips_at_foot(self.kiosk)) * u
        self.view.draw(p, picture_place((p.w, p.h), self.view.image_size, 11 * u, bottom))
        self.view.draw_overlay(p, self.saved)
        title = self.t("Do the rings, wires and numbers match the board?")
        p.text(title, 4.2 * u, (w / 2, 1.5 * u), theme.ACCENT, anchor="midtop", style="bold",
               max_width=w * 0.96)  # fmt: skip
        sub = self.t("Camera {}: the calibration saved, over its picture now").format(self.camera)
        p.text(sub, 2.8 * u, (w / 2, 7.2 * u), theme.TEXT, anchor="midtop", max_width=w * 0.96)
        keys_y = p.h - (4 + BANNER_H * strips_at_foot(self.kiosk)) * u
        keys = "/ = yes, keep it   Enter = no, calibrate again"
        if self.grab is not None:
            keys = "/ = yes, keep it   Enter = no, calibrate again   0 = new picture"
        p.text(self.t(keys), 2.6 * u, (w / 2, keys_y), theme.DIM, anchor="center",
               max_width=w * 0.96)  # fmt: skip
        said, colour = self.refused, theme.BAD
        if self.taking:
            said, colour = self.t("Taking a new picture..."), theme.ACCENT
            self._said_taking = True
        elif self.picture_note:
            said = self.picture_note
        if said:
            p.text(said, 2.8 * u, (w / 2, keys_y - 3.4 * u), colour, anchor="center",
                   max_width=w * 0.96)  # fmt: skip
