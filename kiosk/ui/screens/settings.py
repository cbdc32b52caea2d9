"""Settings: language, volume, input source. Changes apply at once and are saved.
"Date and time" sets the system clock (``date_time``). "Find cameras" lists the USB
cameras plugged in, and writes them into the settings file (``camera_find``).

With cameras in the config (``[camera] devices``), one item per camera opens, on a
picture from it (the latest from the scoring cameras, which hold the device), its
saved calibration to check (``camera_check``; Enter there calibrates again), or with
none the calibration screen (``camera_calibrate``), saving to that camera's
``calibrations`` file; the screen closes itself once saved or quit, and the scoring
cameras start again with the new calibration. The config
is read from the devices (``kiosk.bootstrap.Devices.config``): the screens' ``Devices``
protocol does not promise it, so without it there is no camera item.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.ui import theme
from kiosk.ui.i18n import LANGUAGES, fill, percent
from kiosk.ui.screens.menu import Item, MenuScreen

if TYPE_CHECKING:
    from kiosk.ui.screens.camera_calibrate import CameraCalibrateScreen

log = logging.getLogger("kiosk.ui")

VOLUMES = range(0, 101, 10)
SOURCES = [
    ("auto", "automatic"),
    ("serial", "serial board"),
    ("virtual", "virtual board (mouse)"),
    ("camera", "cameras"),
]
# Why a camera is not scoring (``Kiosk.cameras_down``) -> the word on its settings line.
CAMERA_DOWN = {
    "calibrate": "calibrate again",
    "not calibrated": "not calibrated",
    "video ended": "video ended",
    "board not seen": "does not see the board",
    "file not found": "file not found",
    "not a video": "not a video",
    "not found": "not found",
}
CLOSE_AFTER_SAVE = 1.5  # s "Calibration saved" stays up
# Why the settings file was not written (``kiosk.settings_file``'s own reasons, in
# English with the paths) -> a msgid and its fields: the owner reads it from the bar in
# the kiosk's language, and only the file to put right (the full reason is in the log).
# The system's own words (a disk that will not take the file) are shown as they are.
SAVE_REASONS = (
    (r"(?P<file>.+) sets \w+ too, and is read after .+: change it there",
     "{file} sets it too and is read later: change it there"),
    (r"(?P<file>.+) lists the cameras, and is read after .+: list them there",
     "{file} lists the cameras too and is read later: list them there"),
    (r"(?P<file>.+) is not valid TOML \(.*\): put it right first",
     "{file} is not valid TOML: put it right first (see the log)"),
    (r"(?P<file>.+) is a folder, not a settings file: move it away first",
     "{file} is a folder, not a settings file: move it away first"),
)  # fmt: skip


def not_saved(t: Callable[[str], str], error: Exception) -> str:
    """The words "Not saved" and why, in the kiosk's language where the reason is its own."""
    why = str(error)
    for pattern, template in SAVE_REASONS:
        found = re.fullmatch(pattern, why, re.DOTALL)
        if found is not None:
            why = fill(t(template), **found.groupdict())
            break
    return f"{t('Not saved')}: {why}"


class SettingsScreen(MenuScreen):
    name = "settings"
    title = "Settings"

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        # A calibration file's problem (None: it loads), by (path, mtime, size)
        self._loads: dict[tuple[str, int, int], str | None] = {}

    def items(self) -> list[Item]:
        s = self.kiosk.settings
        items = [
            Item(
                "Language",
                choices=list(LANGUAGES.items()),
                get=lambda: s.language,
                set=self.set_language,
            ),
            Item(
                "Volume",
                # (with a volume typed into the file, 75 %, among them)
                choices=[
                    (v, percent(v / 100, s.language) if v else "off")
                    for v in sorted({*VOLUMES, s.volume})
                ],
                get=lambda: s.volume,
                set=self.set_volume,
                pick=self.volume,
                wraps=False,
            ),
            Item("Input", choices=self.sources(), get=lambda: s.source, set=self.set_source),
        ]
        if self.kiosk.save_cameras is not None:
            items.append(Item("Find cameras", self.find_cameras))
        for i, _camera in enumerate(self.cameras()):
            label = f"{self.t('Calibrate camera')} {i + 1}"
            state = partial(self.camera_state, i)
            items.append(Item(label, partial(self.calibrate, i), raw_label=True, state=state))
        if self.kiosk.set_clock is not None:
            items.append(Item("Date and time", self.date_time))
        items.append(Item("Back", self.back))
        return items

    def sources(self) -> list[tuple[str, str]]:
        """The inputs to choose from: the cameras only when the config has some (with
        none, choosing them would leave the kiosk deaf to every dart); the current
        choice always, so it shows and the next press moves on from it."""
        current = self.kiosk.settings.source
        return [
            (v, label) for v, label in SOURCES if v != "camera" or self.cameras() or v == current
        ]

    def set_language(self, value: Any) -> None:
        self.kiosk.set_language(str(value))
        self.saved()

    def set_volume(self, value: Any) -> None:
        self.kiosk.settings.volume = int(value)
        self.kiosk.sound.set_volume(int(value))
        self.kiosk.sound.play("hit")
        self.saved()

    def volume(self) -> None:
        """The volume's own screen: up and down from the keypad (``volume``)."""
        from kiosk.ui.screens.volume import VolumeScreen

        self.kiosk.stack.push(VolumeScreen(self.kiosk, self))

    def set_source(self, value: Any) -> None:
        self.kiosk.settings.source = str(value)
        self.kiosk.devices.switch(str(value))
        self.saved()

    def saved(self) -> None:
        if self.kiosk.save_settings is not None:
            try:
                self.kiosk.save_settings(self.kiosk.settings)
            except (OSError, ValueError) as e:  # ValueError: the file edited into bad TOML
                log.warning("settings not saved: %s", e)
                self.message = not_saved(self.t, e)

    def date_time(self) -> None:
        from kiosk.ui.screens.date_time import DateTimeScreen

        if self.kiosk.set_clock is not None:
            self.kiosk.stack.push(DateTimeScreen(self.kiosk, self.kiosk.set_clock))

    # -- cameras -----------------------------------------------------------------------

    def cameras(self) -> list[tuple[str, str]]:
        """(device, calibration file or "") for each camera in the config."""
        config = getattr(self.kiosk.devices, "config", None)
        camera = getattr(config, "camera", None)
        devices = [str(d) for d in getattr(camera, "devices", ())]
        files = [str(f) for f in getattr(camera, "calibrations", ())]
        return [(d, files[i] if i < len(files) else "") for i, d in enumerate(devices)]

    def find_cameras(self) -> None:
        """The USB cameras plugged in, to list in the settings file (``camera_find``)."""
        from kiosk.ui.screens.camera_find import CameraFindScreen

        self.kiosk.stack.push(CameraFindScreen(self.kiosk))

    def camera_state(self, index: int) -> tuple[str, tuple[int, int, int]]:
        """How camera ``index`` is doing, in a word, for its line (the banner says it
        only while it is down, and only while the cameras are the input)."""
        _device, out = self.cameras()[index]
        if not out:
            return "no calibration file", theme.BAD
        if not Path(out).is_file():
            return "not calibrated", theme.BAD
        if self._unusable(out) is not None:
            # Left out by the cameras (the kiosk's log says why), also when none is left
            # to score and they are not the input: not "calibrated"
            return "calibrate again", theme.BAD
        if self.kiosk.devices.active != "camera":
            return "calibrated", theme.DIM
        why = dict(self.kiosk.cameras_down).get(index + 1)
        if why is None:
            return "scoring", theme.GOOD
        return CAMERA_DOWN.get(why, "no pictures"), theme.BAD

    def _unusable(self, out: str) -> str | None:
        """Why the calibration file ``out`` cannot be used (not JSON, too few points...),
        or None; read again only when the file changes (the line is drawn often)."""
        try:
            st = Path(out).stat()
        except OSError as e:
            return str(e)
        key = (out, st.st_mtime_ns, st.st_size)
        cache = self._loads
        if key not in cache:
            from kiosk.adapters.camera.calibration import Calibration, CalibrationError

            try:
                Calibration.load(out)
                cache[key] = None
            except CalibrationError as e:
                cache[key] = str(e)
        return cache[key]

    def calibrate(self, index: int) -> None:
        """A still picture from camera ``index`` on the calibration screen."""
        device, out = self.cameras()[index]
        if not out:
            self.message = self.t("No calibration file for this camera in the config")
            return
        if not Path(out).parent.is_dir():
            self.message = f"{self.t('No such folder')}: {Path(out).parent}"
            return
        from kiosk.commands._out import why_not_writable

        def refuse() -> str | None:
            """Why a calibration made now could not be saved, said before five points
            are marked (a saved one can still be looked at)."""
            if (why := why_not_writable(out)) is None:
                return None
            log.error("camera %s: calibration file: %s", device, why)
            return f"{self.t('The calibration file cannot be written')}: {out}"

        if not Path(out).is_file() and (refused := refuse()):  # straight to marking
            self.message = refused
            return
        # While the cameras score, the picture comes from them (a camera streams to one
        # reader at a time); else the camera is opened for one.
        picture = getattr(self.kiosk.devices, "camera_picture", None)
        image = picture(index) if picture is not None else None
        from kiosk.commands._camera_calibrate import grab_frame

        grab = partial(grab_frame, device) if image is None else None  # "0": a new still
        if image is None:
            try:
                image = grab_frame(device)
            except Exception as e:  # a camera that fails never stops the kiosk
                log.error("camera %s: no picture: %s", device, e)
                image = None
        if image is None:
            self.message = f"{self.t('No picture from the camera')}: {device}"
            return
        from kiosk.ui.screens.camera_check import check_first

        fresh = partial(picture, index) if picture is not None else None
        again = partial(calibration_screen, self.kiosk, out=Path(out))
        self.kiosk.stack.push(check_first(self.kiosk, image, Path(out), index + 1, again=again,
                                          fresh=fresh, grab=grab, refuse=refuse))  # fmt: skip


def calibration_screen(kiosk: Any, image: Any, out: Path) -> CameraCalibrateScreen:
    """The calibration screen, closing itself when it is done (the command's version
    waits for ``finished`` instead). Imported here, not at start: it needs OpenCV."""
    from kiosk.ui.screens.camera_calibrate import CameraCalibrateScreen

    class InKiosk(CameraCalibrateScreen):
        def __init__(self) -> None:
            super().__init__(kiosk, image, out)
            self.close_at: float | None = None

        def update(self, now: float) -> None:
            super().update(now)
            if self.finished and self.close_at is None:
                self.close_at = now + (CLOSE_AFTER_SAVE if self.saved else 0.0)
                reload = getattr(kiosk.devices, "reload_cameras", None)
                if self.saved and reload is not None:
                    reload()  # the scoring cameras take the new calibration
            if self.close_at is not None and now >= self.close_at:
                self.close_at = None
                if self.kiosk.stack.top is self:
                    self.kiosk.stack.pop()

        def wake_at(self) -> float | None:
            times = [t for t in (super().wake_at(), self.close_at) if t is not None]
            return min(times) if times else None

    return InKiosk()
