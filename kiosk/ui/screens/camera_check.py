"""A camera's saved calibration, checked: its rings, wires and numbers drawn over the
camera's picture now, as the calibration screen shows a calibration before saving it.
The bar owner sees whether they still lie on the board, then leaves (``/``, ``.`` or
Esc) with the file as it was, or goes on to calibrate again (Enter: the marking
screen, on the same picture).

While the cameras score, the picture follows the camera (``fresh``: the scorer's
latest, looked at every ``REFRESH_S``); else it is the one still taken when the
screen opened (opening the camera again each second would hold up the kiosk).
A dart that lands meanwhile goes to the match below, as from a menu.
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
    return CameraCheckScreen(kiosk, image, saved, number, again=again, fresh=fresh, refuse=refuse)


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
        refuse: Callable[[], str | None] | None = None,
    ) -> None:
        """``saved`` for pictures of ``image``'s size; camera ``number`` (from 1);
        ``again(picture)``: the marking screen that Enter puts in this one's place,
        unless ``refuse()`` says why it could not be saved (then said here)."""
        super().__init__(kiosk)
        self.view = BoardPicture(image)
        self.saved = saved
        self.camera = number
        self.again = again
        self.refuse = refuse
        self.refused = ""  # why Enter did not calibrate again
        self.fresh = fresh
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

    def update(self, now: float) -> None:
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
                self.dirty = True

    def wake_at(self) -> float | None:
        return self._next_look if self.fresh is not None else None

    # -- drawing -------------------------------------------------------------------------

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        said = 3.4 if self.refused else 0.0  # the line saying why Enter did nothing
        bottom = p.h - (8 + said + BANNER_H * strips_at_foot(self.kiosk)) * u
        self.view.draw(p, picture_place((p.w, p.h), self.view.image_size, 11 * u, bottom))
        self.view.draw_overlay(p, self.saved)
        title = self.t("Do the rings and wires lie on the board?")
        p.text(title, 4.2 * u, (w / 2, 1.5 * u), theme.ACCENT, anchor="midtop", style="bold",
               max_width=w * 0.96)  # fmt: skip
        sub = self.t("Camera {}: the calibration saved, over its picture now").format(self.camera)
        p.text(sub, 2.8 * u, (w / 2, 7.2 * u), theme.TEXT, anchor="midtop", max_width=w * 0.96)
        keys_y = p.h - (4 + BANNER_H * strips_at_foot(self.kiosk)) * u
        p.text(self.t("Enter = calibrate again   / = back"), 2.6 * u, (w / 2, keys_y),
               theme.DIM, anchor="center", max_width=w * 0.96)  # fmt: skip
        if self.refused:
            p.text(self.refused, 2.8 * u, (w / 2, keys_y - 3.4 * u), theme.BAD, anchor="center",
                   max_width=w * 0.96)  # fmt: skip
