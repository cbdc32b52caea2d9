"""Settings -> Find cameras: the USB cameras plugged in, each with a picture from it,
and Enter lists them in the settings file (``[camera] devices``, with a calibration
file each in the data folder), so the owner sets the cameras up at the bar with the
keypad rather than with a shell and the settings file.

The cameras are looked for and opened in a thread (each takes a second or so to give
a picture); the screen says "Looking for cameras..." meanwhile, and which one it is
opening ("Camera 2 of 3: ..."). A camera that gives no
picture within ``ANSWER_S`` (its firmware hung, a faulty cable) is shown as not
answering and the look goes on to the others; it is left to its opener (a blocked read
cannot be stopped) and not opened again, by this look or a later one, until that
opener ends (the camera unplugged, or answering at last).
Cameras listed already come first, in their order, each with its calibration file (a
``/dev/videoN`` name or an index is renamed to the camera's stable link); new ones
follow, named by their by-id (or by-path) link, which stays put when the cameras come
up in another order at boot, with a calibration file named after that link, so a
camera found again finds its calibration. A listed camera that is not plugged in now
is kept unless ``-`` leaves it out; one listed by a by-id name two cameras share is
left out (either could answer to it) and its camera is calibrated again, and so is a
second name for a camera listed already. A recorded video or a network camera's
stream listed (by hand) is no USB camera: said as such, and kept. Once saved,
the screen closes: Settings then has a "Calibrate camera N" line for each. With no
camera to list (none plugged in, or none that gives a picture) Enter and ``-`` are not
offered: ``0`` looks again.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.adapters.camera.capture import is_device, is_url, parse_source
from kiosk.adapters.camera.plugged import (
    PICTURE_NODE,
    Plugged,
    calibration_name,
    doubtful,
    listed_as,
)
from kiosk.adapters.keypad import KeyAction
from kiosk.ui import theme
from kiosk.ui.banner import BANNER_H, strips_at_foot
from kiosk.ui.screen import DartDoubt, DartInput, Notice, Screen, back_to_the_match
from kiosk.ui.screens.board_picture import BoardPicture, picture_place
from kiosk.ui.screens.settings import CLOSE_AFTER_SAVE, not_saved

log = logging.getLogger("kiosk.ui")

POLL_S = 0.2  # while looking: how often the screen sees whether the look is done
# How long a camera has to give its first picture: a USB camera gives one in 1-3 s (a
# Pi's slower to open); OpenCV's own V4L read waits 10 s for a frame before failing.
ANSWER_S = 10.0


class Opener:
    """A camera being opened for a picture, in a thread of its own (any look's)."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.started = time.monotonic()
        self.picture: np.ndarray | None = None
        self.thread = threading.Thread(target=self._open, name="camera-open", daemon=True)

    def _open(self) -> None:
        from kiosk.commands._camera_calibrate import grab_frame

        try:
            self.picture = grab_frame(self.device)
        except Exception as e:  # a camera that fails is said, never a crash
            log.warning("camera %s: no picture: %s", self.device, e)
        finally:
            with _OPENING_LOCK:
                if OPENING.get(self.device) is self:
                    del OPENING[self.device]


# The cameras being opened now, by device: never two openers on one camera (the second
# would find it busy, and a camera that hangs would hang twice).
OPENING: dict[str, Opener] = {}
_OPENING_LOCK = threading.Lock()  # (two looks at once: the screen left and opened again)


def a_camera(name: str) -> bool:
    """Whether a name in [camera] devices is a camera (an index, a ``/dev`` node or a
    udev link to one), not a recorded video or a network camera's stream."""
    src = parse_source(name)
    return is_device(src) or (not is_url(src) and Path(str(src)).name.endswith(PICTURE_NODE))


@dataclass
class Found:
    camera: Plugged
    picture: np.ndarray | None  # None: it gave none (busy, not a camera after all)
    listed: int | None  # its place in [camera] devices already (from 0), or None: new
    answered: bool = True  # False: no picture within ``ANSWER_S``, still being opened
    # (not answered) the camera's opener: when it answers later, the screen shows what
    # it gave without a look again
    opener: Opener | None = None


@dataclass
class Entry:
    """A camera as Enter would list it: its name, its calibration file, and what was
    found of it (None: listed, and not plugged in now)."""

    device: str
    calibration: str
    found: Found | None


class CameraFindScreen(Screen):
    name = "camera-find"
    banner_at_foot = True

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.found: list[Found] | None = None  # None: still looking
        self.missing: list[str] = []  # listed, and not plugged in now
        self.others: list[str] = []  # listed, and not cameras (videos, streams): kept
        self.shared: list[str] = []  # listed by a by-id name two cameras share
        # listed by a second name for a camera listed already (either would open it:
        # the second would find it busy)
        self.twice: list[str] = []
        self.keep_missing = True  # "-" leaves the cameras not plugged in out
        self._stop = threading.Event()  # the screen was left: no more cameras opened
        self.message = ""
        self.good = False  # the message is good news
        self.close_at: float | None = None
        self._result: tuple[list[Found], list[str], list[str], list[str], list[str]] | None = None
        self._views: list[BoardPicture | None] = []
        self.look()

    # -- looking -------------------------------------------------------------------

    def listed(self) -> list[tuple[str, str]]:
        """(device, calibration file) for each camera in the config now."""
        camera = getattr(getattr(self.kiosk.devices, "config", None), "camera", None)
        if camera is None:
            return []
        return [(str(d), camera.calibration_for(i)) for i, d in enumerate(camera.devices)]

    def look(self) -> None:
        """A look, in a thread."""
        self.found, self._result, self.message, self.dirty = None, None, "", True
        self.opening: tuple[int, int, str] | None = None  # (k, of n, camera): now opened
        self._shown_opening: tuple[int, int, str] | None = None
        threading.Thread(target=self._look, name="camera-find", daemon=True).start()

    def _look(self) -> None:
        found: list[Found] = []
        missing: list[str] = []
        others: list[str] = []
        shared: list[str] = []
        twice: list[str] = []
        try:
            listed = [device for device, _ in self.listed()]
            plugged = getattr(self.kiosk.devices, "plugged_cameras", list)
            cameras: list[Plugged] = plugged()
            for k, cam in enumerate(cameras):
                if self._stop.is_set():
                    return
                self.opening = (k + 1, len(cameras), cam.label)
                places = [i for i, d in enumerate(listed) if listed_as(d, cam)]
                at = places[0] if places else None
                twice += [listed[i] for i in places[1:]]  # one camera by two names
                picture, opener = self._picture(cam, at)
                found.append(Found(cam, picture, at, opener is None, opener))
            for i, d in enumerate(listed):
                if all(f.listed != i for f in found) and d not in twice:
                    if not a_camera(d):
                        others.append(d)
                    else:
                        (shared if doubtful(d, cameras) else missing).append(d)
        except Exception as e:  # a look that fails never stops the kiosk
            log.error("finding cameras: %s", e)
        log.info("cameras plugged in: %s", ", ".join(f.camera.device for f in found) or "none")
        self._result = (found, missing, others, shared, twice)

    def _picture(self, cam: Plugged, listed: int | None) -> tuple[np.ndarray | None, Opener | None]:
        """A picture from ``cam``, and its opener when it did not answer: the scoring
        cameras' latest when it is one of them (they hold the device), else a still from
        opening it, waited for until ``ANSWER_S`` after it began to be opened (by this
        look or an earlier one) or the screen is left."""
        picture = getattr(self.kiosk.devices, "camera_picture", None)
        if listed is not None and picture is not None and (image := picture(listed)) is not None:
            return np.asarray(image), None
        with _OPENING_LOCK:
            opener = OPENING.get(cam.device)
            if opener is None or not opener.thread.is_alive():
                opener = OPENING[cam.device] = Opener(cam.device)
                opener.thread.start()
        until = opener.started + ANSWER_S
        while opener.thread.is_alive() and time.monotonic() < until and not self._stop.is_set():
            opener.thread.join(min(POLL_S, max(0.0, until - time.monotonic())))
        if opener.thread.is_alive():
            if not self._stop.is_set():
                log.warning("camera %s does not answer: no picture in %.0f s", cam.device, ANSWER_S)
            return None, opener
        return opener.picture, None

    # -- input and time ------------------------------------------------------------

    def process_event(self, event: Any) -> None:
        if isinstance(event, DartInput | DartDoubt) or (isinstance(event, Notice) and event.act):
            if back_to_the_match(self.kiosk.stack, event):
                self._stop.set()  # (left for the match: no more cameras opened)
        elif isinstance(event, KeyAction) and self.close_at is None:
            if event.name in ("menu", "back", "cancel"):
                self._stop.set()
                self.kiosk.stack.pop()
            elif event.name == "digit" and event.char == "0" and self.found is not None:
                self.look()
            elif event.name == "undo" and self.found is not None and self.missing:
                if self.listable():  # (else nothing is saved: kept or not, all one)
                    self.keep_missing = not self.keep_missing
            elif event.name == "enter" and self.found is not None and self.listable():
                self.save()
            self.dirty = True

    def update(self, now: float) -> None:
        if self.found is None and self.opening != self._shown_opening:
            self._shown_opening, self.dirty = self.opening, True
        if self._result is not None and self.found is None:
            self.found, self.missing, self.others, self.shared, self.twice = self._result
            self._views = [None if f.picture is None else BoardPicture(f.picture)
                           for f in self.found]  # fmt: skip
            self.dirty = True
        for i, f in enumerate(self.found or ()):
            if f.opener is not None and not f.opener.thread.is_alive():  # it answered
                log.info("camera %s answered late: %s", f.camera.device,
                         "a picture" if f.opener.picture is not None else "no picture")  # fmt: skip
                f.picture, f.answered, f.opener = f.opener.picture, True, None
                self._views[i] = None if f.picture is None else BoardPicture(f.picture)
                self.dirty = True
        if self.close_at is not None and now >= self.close_at and self.kiosk.stack.top is self:
            self.close_at = None
            self.kiosk.stack.pop()

    def wake_at(self) -> float | None:
        if self.found is None:
            return 0.0 if self._result is not None else time.monotonic() + POLL_S
        if any(f.opener is not None for f in self.found):  # (one may answer late)
            soon = time.monotonic() + POLL_S
            return soon if self.close_at is None else min(soon, self.close_at)
        return self.close_at

    def plan(self) -> list[Entry]:
        """The cameras as Enter would list them: the listed ones in their order (those
        not plugged in unless left out), then the new ones that gave a picture."""
        assert self.found is not None
        folder = self.kiosk.calibration_folder or Path(".")
        entries: list[Entry] = []
        for i, (device, calibration) in enumerate(self.listed()):
            f = next((f for f in self.found if f.listed == i), None)
            if f is None:
                if (device in self.missing and self.keep_missing) or device in self.others:
                    entries.append(Entry(device, calibration, None))
                continue
            # A /dev/videoN name (or an index) is the camera's stable link from now on.
            name = device if os.path.islink(device) else f.camera.device
            entries.append(Entry(name, calibration or str(folder / calibration_name(name)), f))
        for f in self.found:
            if f.listed is None and f.picture is not None:
                name = f.camera.device
                entries.append(Entry(name, str(folder / calibration_name(name)), f))
        return entries

    def listable(self) -> bool:
        """Whether Enter has a camera to list: one plugged in that gave a picture."""
        return self.found is not None and any(
            e.found is not None and e.found.picture is not None for e in self.plan()
        )

    def save(self) -> None:
        """The plan into the settings file, and from now on (Enter: only ``listable``)."""
        entries = self.plan()
        devices = [e.device for e in entries]
        calibrations = [e.calibration for e in entries]
        if self.listed() == list(zip(devices, calibrations, strict=True)):
            self.message, self.good = self.t("These cameras are listed already"), True
            self.close_at = time.monotonic() + CLOSE_AFTER_SAVE
            return
        if self.kiosk.save_cameras is None:
            self.message, self.good = self.t("No settings file to save the cameras in"), False
            return
        try:
            self.kiosk.save_cameras(devices, calibrations)
        except (OSError, ValueError) as e:  # ValueError: the file edited into bad TOML
            log.warning("cameras not saved: %s", e)
            self.message, self.good = not_saved(self.t, e), False
            return
        use = getattr(self.kiosk.devices, "use_cameras", None)
        if use is not None:
            use(devices, calibrations)
        log.info("cameras saved from Settings: %s", ", ".join(devices))
        self.message, self.good = self.t("Saved: now calibrate each camera"), True
        self.close_at = time.monotonic() + CLOSE_AFTER_SAVE

    # -- drawing -------------------------------------------------------------------

    def draw(self, p: theme.Painter) -> None:
        u, w = p.u, p.w
        p.text(self.t("Cameras plugged in"), 4.2 * u, (w / 2, 1.5 * u), theme.ACCENT,
               anchor="midtop", style="bold", max_width=w * 0.96)  # fmt: skip
        keys_y = p.h - (4 + BANNER_H * strips_at_foot(self.kiosk)) * u
        if self.found is None:
            p.text(self.t("Looking for cameras..."), 5 * u, (w / 2, p.h * 0.45), theme.TEXT,
                   anchor="center", max_width=w * 0.9)  # fmt: skip
            if (opening := self.opening) is not None:  # (a camera slow to answer: which)
                k, n, label = opening
                said = self.t("Camera {} of {}: {}").format(k, n, label)
                p.text(said, 3.2 * u, (w / 2, p.h * 0.55), theme.DIM, anchor="center",
                       max_width=w * 0.9)  # fmt: skip
            p.text(self.t("/ = back"), 2.8 * u, (w / 2, keys_y), theme.DIM, anchor="center")
            return
        entries = self.plan()  # (the numbers the cameras will have)
        if not self.found:
            p.text(self.t("No USB camera found: plug one in, then press 0"), 4 * u,
                   (w / 2, p.h * 0.45), theme.BAD, anchor="center", max_width=w * 0.9)  # fmt: skip
        else:
            self._draw_cameras(p, entries, top=9 * u, bottom=keys_y - 14 * u)
        lines = []
        listable = self.listable()
        kept = {e.device: k + 1 for k, e in enumerate(entries) if e.found is None}

        def named(devices: list[str]) -> str:
            return ", ".join(
                (d if is_url(d) else Path(d).name)
                + (f" ({self.t('Camera {}').format(kept[d])})" if d in kept else "")
                for d in devices
            )

        if self.missing:
            if not listable:  # (nothing to save: kept or left out, all one)
                said = self.t("Listed, not plugged in now")
            elif self.keep_missing:
                said = self.t("Listed, not plugged in now: kept (- = leave out)")
            else:
                said = self.t("Listed, not plugged in now: left out (- = keep)")
            lines.append((f"{said}: {named(self.missing)}", theme.BAD))
        if self.others:
            said = self.t("Listed, not a USB camera (a video or a stream): kept")
            lines.append((f"{said}: {named(self.others)}", theme.DIM))
        if self.shared:
            names = ", ".join(Path(d).name for d in self.shared)
            said = self.t("Listed by a name two cameras share: left out, calibrate again")
            lines.append((f"{said}: {names}", theme.BAD))
        if self.twice:
            names = ", ".join(Path(d).name for d in self.twice)
            said = self.t("Listed twice, by another name: left out")
            lines.append((f"{said}: {names}", theme.BAD))
        if self.message:
            lines.append((self.message, theme.GOOD if self.good else theme.BAD))
        for i, (text, colour) in enumerate(reversed(lines)):
            p.text(text, 2.8 * u, (w / 2, keys_y - (3.6 + 3.6 * i) * u), colour,
                   anchor="center", max_width=w * 0.96)  # fmt: skip
        keys = (self.t("Enter = list these cameras   0 = look again   / = back") if listable
                else self.t("0 = look again   / = back"))  # fmt: skip
        p.text(keys, 2.8 * u, (w / 2, keys_y), theme.DIM, anchor="center",
               max_width=w * 0.96)  # fmt: skip

    def _draw_cameras(
        self, p: theme.Painter, entries: list[Entry], top: float, bottom: float
    ) -> None:
        """Each camera's picture in a grid (up to three across), its number as Settings
        will number it, what it calls itself and whether it is listed already."""
        assert self.found is not None
        u, n = p.u, len(self.found)
        cols = min(n, 3)
        rows = math.ceil(n / cols)
        cell_w, cell_h = (p.w - 2 * u) / cols, (bottom - top) / rows
        text_h = 11 * u
        numbers = {id(e.found): k + 1 for k, e in enumerate(entries) if e.found is not None}
        for i, (f, view) in enumerate(zip(self.found, self._views, strict=True)):
            x0 = u + (i % cols) * cell_w
            y0 = top + (i // cols) * cell_h
            cx = x0 + cell_w / 2
            y = y0 + (cell_h - text_h) / 2  # (no picture: the words in the cell's middle)
            number = numbers.get(id(f))
            head = (
                Path(f.camera.device).name if number is None else self.t("Camera {}").format(number)
            )
            if f.listed is not None:
                state, colour = self.t("listed"), theme.TEXT
            else:
                state, colour = self.t("new"), theme.GOOD
            if view is not None:
                rect = picture_place(
                    (round(cell_w), p.h), view.image_size, y0, y0 + cell_h - text_h
                )
                rect.x += round(x0)
                rect.y = round(y0 + (cell_h - rect.h - text_h) / 2)  # with its words, centred
                view.draw(p, rect)
                y = rect.bottom + 0.8 * u
            elif not f.answered:
                state, colour = self.t("does not answer: unplug it, or press 0 later"), theme.BAD
            else:
                state, colour = self.t("no picture: in use, or not a camera"), theme.BAD
            p.text(head, 3.4 * u, (cx, y), theme.ACCENT, anchor="midtop", style="bold",
                   max_width=cell_w * 0.95)  # fmt: skip
            p.text(f.camera.label, 2.8 * u, (cx, y + 4 * u), theme.TEXT, anchor="midtop",
                   max_width=cell_w * 0.95)  # fmt: skip
            p.text(state, 2.8 * u, (cx, y + 7.2 * u), colour, anchor="midtop",
                   max_width=cell_w * 0.95)  # fmt: skip
