"""The dart sources the kiosk reads: a serial board (configured or found), the cameras,
or the virtual board. Built by ``kiosk.bootstrap``; the screens see it through the
``Devices`` protocol in ``kiosk.ui.context``.

Every source hands its events to the ``Inbox`` from its own thread; nothing here
touches pygame. Started after the first frame is up: finding a port can take seconds
(probing for a HELLO) and opening cameras too, and neither may delay the picture.

``input.source = "auto"`` takes the serial board when one is found, else the cameras
when ``[camera] devices`` are configured, else the virtual board (on screen: click to
throw; the keypad types darts as ever). On the cameras or the virtual board it keeps
looking for a board, and one plugged in later (``/dev/dartboard`` appearing, or a new
by-id device that speaks the protocol) takes over from them.

With no port set (``input.source`` "auto", or "serial" with no ``port``), a board whose
port has been gone for ``REPLACED_AFTER_S`` is looked for again as at the start: a
spare swapped in for a broken board (another serial number, so another by-id name) is
read without a restart. With "serial" and a port set in the settings, that port is the
only one ever read.
"""

from __future__ import annotations

import dataclasses
import logging
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.config import Config
from kiosk.domain.darts import Dart
from kiosk.ui.inbox import Inbox

log = logging.getLogger("kiosk")

PORT_RETRY = 2.0  # s between looks for a board that is not plugged in yet
# On the virtual board, devices that did not answer are opened again this often (a
# board slow to boot, or one that missed its probe); new ones at once, every PORT_RETRY.
# In the first STARTING_S after the start, every PORT_RETRY (a board powered with the
# Pi may take some seconds to speak; a GPS reset a few times at boot does no harm).
RELOOK_S = 30.0
STARTING_S = 60.0
# A board's port gone this long (not a replug: that is back within a second or two) and
# another board found is a replacement, read instead.
REPLACED_AFTER_S = 10.0
NO_CALIBRATED_CAMERA = "no calibrated camera"  # the board's state detail: none to score
NO_CAMERA = "no camera in the settings"  # ... none even listed ([camera] devices)
NO_BOARD = "no board found; plug one in"  # ... and: no board was ever there to reconnect


@dataclass(frozen=True, slots=True)
class BoardMapBroken:
    """The board map in the config (``input.board_map``) did not load: the board is read
    without it, so contacts it would have named come as RAW and score nothing. The
    banner says so (the file's name; why is in the log) until the kiosk starts with a
    map that loads. With ``contacts``, the map loaded but for those entries (the
    contacts as the file writes them), left out as mistakes: a dart there comes as RAW."""

    name: str
    contacts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CamerasDown:
    """The configured cameras that are not scoring, numbered from 1 as in the config,
    each with why: "no pictures" (unplugged, failing), "not calibrated" (no calibration
    file named, or none there yet: never calibrated), "calibrate" (calibrate it again:
    moved, pictures of another size, a calibration file that does not load), "board
    not seen" (its checks find no board in its view: covered, turned away, dark), "file
    not found" or "not a video" (a file named as the camera: not there, or not a video
    OpenCV can read; the banner names the file from the settings), "not found" (a
    camera named by a number or a /dev name that has not opened since it was started:
    none there, or not plugged in; once it has opened, losing it is "no pictures"). Empty:
    every camera scores. The banner says so while the others go on (with every camera
    down, the board banner)."""

    cameras: tuple[tuple[int, str], ...] = ()


class Devices:
    def __init__(self, config: Config, inbox: Inbox, *, source: str, port: str | None) -> None:
        self.config = config
        self.inbox = inbox
        self._source = source
        self.port = port
        # Where a board is looked for, when not the system's (tests: their own directory).
        self.fixed: str | None = None
        self.by_id: str | None = None
        self.v4l: Path | None = None  # where cameras are looked for (None: /dev/v4l)
        self.relook_s = RELOOK_S
        self.replaced_after_s = REPLACED_AFTER_S
        self._virtual_board: Any = None
        self._reader: Any = None
        self._cameras: Any = None
        self._camera_states: dict[int, str] = {}
        self._camera_details: dict[int, str] = {}
        self._to_calibrate: set[int] = set()  # the scorer's cameras that need calibrating
        self._camera_numbers: list[int] = []  # scorer's camera -> its number in the config
        # Configured cameras that could not be started, with why (``CamerasDown``).
        self._left_out: list[tuple[int, str]] = []
        self._down: tuple[tuple[int, str], ...] = ()
        self._posted: tuple[str, str] | None = None  # the cameras' state last posted
        self._lock = threading.Lock()  # the sources: started, switched, stopped
        self._state_lock = threading.Lock()  # the cameras' states (from their threads)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    @property
    def source(self) -> str:
        return self._source

    @property
    def active(self) -> str:
        """What darts come from right now: "serial", "camera", "virtual" or "" (none yet)."""
        if self._virtual_board is not None:
            return "virtual"
        if self._cameras is not None:
            return "camera"
        if self._reader is not None:
            return "serial"
        return ""

    @property
    def virtual(self) -> bool:
        return self._virtual_board is not None

    def throw(self, dart: Dart) -> bool:
        vb = self._virtual_board
        if vb is None:
            return False
        try:
            vb.send(str(dart))
        except (OSError, TimeoutError) as e:
            log.warning("virtual board: %s", e)
            return False
        return True

    def start(self) -> None:
        self._stop.clear()
        if self._source == "virtual":
            self._start_virtual()
            return
        if self._source == "camera":
            with self._lock:
                self._start_cameras()
            return
        self._thread = threading.Thread(target=self._find_and_read, name="port-finder", daemon=True)
        self._thread.start()

    def _find_and_read(self) -> None:
        from kiosk.adapters.serial_board.ports import BY_ID, FIXED, by_id_devices, choose_port

        fixed, by_id = self.fixed or FIXED, self.by_id or BY_ID
        configured = self.port or self.config.input.port or None
        replaceable = configured is None  # (a port set is the only one read)
        if self._source == "auto" and _absent(configured):
            # "auto" with a port set that is not there (the board unplugged, off): the
            # cameras or the virtual board until it appears, as with no port set.
            log.info("the board's port %s is not there", configured)
            fixed, configured = str(configured), None
        first = True
        while not self._stop.is_set():
            seen = set(by_id_devices(by_id))  # what choose_port looks at now
            port = choose_port(
                configured, fixed=fixed, by_id=by_id, baudrate=self.config.input.baud
            )
            if port is not None:
                with self._lock:
                    if not self._stop.is_set():
                        self._start_reader(port)
                if replaceable:
                    self._watch_for_replacement(port, fixed, by_id)
                return
            if first and self._source == "auto" and self.config.camera.devices:
                log.info("no board found: scoring with the cameras; a board plugged in "
                         "takes over")  # fmt: skip
                with self._lock:
                    if not self._stop.is_set():
                        self._start_cameras()
                self._watch_for_board(seen, fixed, by_id, replaceable)
                return
            if first and self._source == "auto":
                log.info("no board found: the virtual board is on screen (click to throw); "
                         "a board plugged in takes over")  # fmt: skip
                with self._lock:
                    if not self._stop.is_set():
                        self._start_virtual()
                self._watch_for_board(seen, fixed, by_id, replaceable)
                return
            if first:
                log.warning("no board found (no port set, no %s, none answered in %s): plug "
                            "one in; darts can be typed", fixed, by_id)  # fmt: skip
                self.inbox.put(_status("lost", NO_BOARD))
                first = False
                if configured is None:
                    # Looked for as "auto" does: a device that did not answer (a GPS, a
                    # modem) is not opened, and reset, every few seconds from now on.
                    self._watch_for_board(seen, fixed, by_id, replaceable)
                    return
            self._stop.wait(PORT_RETRY)

    def _watch_for_board(self, seen: set[str], fixed: str, by_id: str, replaceable: bool) -> None:
        """On the virtual board or the cameras ("auto" found no board at the start), or
        on typed darts ("serial" with no port set found none): a
        board plugged in takes over from them, and so does one that was there and
        silent (slow to boot), looked at again on every pass for ``STARTING_S``, then
        every ``relook_s``. The cameras are a fallback: a board mended or plugged back
        in scores better (also while no camera is calibrated yet and darts are typed)."""
        from kiosk.adapters.serial_board.ports import plugged_in

        start = time.monotonic()
        relook = start + self.relook_s
        while not self._stop.wait(PORT_RETRY):
            now = time.monotonic()
            if now >= relook or now - start < STARTING_S:
                seen.clear()
                relook = now + self.relook_s
            port = plugged_in(seen, fixed=fixed, by_id=by_id, baudrate=self.config.input.baud)
            if port is None:
                continue
            with self._lock:
                if self._stop.is_set():
                    return
                was = "typed darts"
                if self._virtual_board is not None:
                    was = "the virtual board"
                elif self._cameras is not None:
                    was = "the cameras"
                log.info("a board was plugged in on %s: it takes over from %s", port, was)
                self._close_virtual()
                self._close_cameras()
                self._start_reader(port)
            if replaceable:
                self._watch_for_replacement(port, fixed, by_id)
            return

    def _watch_for_replacement(self, port: str, fixed: str, by_id: str) -> None:
        """While a board found (no port set) is read on ``port``: once that port has
        been gone for ``replaced_after_s`` (the board unplugged, not replugged), a board
        is looked for as at the start, and one found is read instead (a spare, another
        serial number: another by-id name). The reader keeps trying ``port`` meanwhile:
        the old board plugged back is read as ever. Devices already there (a GPS) are
        looked at again only every ``relook_s``, as in ``_watch_for_board``."""
        from kiosk.adapters.serial_board.ports import by_id_devices, plugged_in

        seen = set(by_id_devices(by_id))
        gone_since: float | None = None
        relook = 0.0
        while not self._stop.wait(PORT_RETRY):
            now = time.monotonic()
            if not _absent(port):
                gone_since = None
                continue
            if gone_since is None:  # (then every device is looked at, as at the start)
                gone_since, relook = now, now + self.replaced_after_s
            if now - gone_since < self.replaced_after_s:
                continue
            if now >= relook:
                seen.clear()
                relook = now + self.relook_s
            found = plugged_in(seen, fixed=fixed, by_id=by_id, baudrate=self.config.input.baud)
            if found is None or found == port:
                continue
            with self._lock:
                if self._stop.is_set():
                    return
                log.info("the board on %s has been gone for %.0f s: reading the board found "
                         "on %s instead (a replacement)", port, now - gone_since,
                         found)  # fmt: skip
                if self._reader is not None:
                    self._reader.stop()
                    self._reader = None
                self._start_reader(found)
            port, gone_since = found, None

    def _start_virtual(self) -> None:
        from kiosk.adapters.serial_board.virtual import VirtualBoard

        self._tmp = tempfile.TemporaryDirectory(prefix="darts-kiosk-")
        vb = VirtualBoard(Path(self._tmp.name) / "board")
        vb.start()
        self._virtual_board = vb
        self._start_reader(str(vb.link))

    def _start_reader(self, url: str) -> None:
        from kiosk.adapters.serial_board.reader import BoardReader

        board_map = None
        if self.config.input.board_map:
            from kiosk.adapters.serial_board import board_map as maps

            path = self.config.input.board_map
            name = Path(path).name
            try:
                loaded = maps.read(path)
            except maps.BoardMapError as e:
                log.error("board map %s not loaded, reading without it: %s", path, e)
                self.inbox.put(BoardMapBroken(name), source="board")
            else:
                # One typo does not throw the map away: the rest is used, and a dart on
                # the contact left out comes as RAW (said on screen, typed on the keypad).
                board_map = loaded.board_map
                for key, why in loaded.left_out:
                    log.error("board map %s: contact %r left out (a dart there is not "
                              "scored): %s", path, key, why)  # fmt: skip
                for warning in loaded.warnings:
                    log.warning("board map %s: %s", path, warning)
                if loaded.left_out:
                    keys = tuple(key for key, _ in loaded.left_out)
                    self.inbox.put(BoardMapBroken(name, keys), source="board")
        log.info("reading the board on %s", url)
        self._reader = BoardReader(
            url,
            self.inbox.put,
            baudrate=self.config.input.baud,
            debounce_ms=self.config.input.debounce_ms,
            board_map=board_map,
        )
        self._reader.start()

    # -- cameras -----------------------------------------------------------------------

    def _start_cameras(self) -> None:
        """One scorer over every camera that has a calibration; a camera without one, or
        with a file that does not load, is left out with a message (never a crash)."""
        from kiosk.adapters.camera.calibration import FACE_ON_DEG, Calibration, CalibrationError
        from kiosk.adapters.camera.capture import smaller_than_asked
        from kiosk.adapters.camera.scorer import CameraScorer

        cams = self.config.camera
        sources: list[str] = []
        calibrations: list[Calibration] = []
        numbers: list[int] = []
        left_out: list[tuple[int, str]] = []
        for i, device in enumerate(cams.devices):
            if not (path := cams.calibration_for(i)):
                log.error("camera %s has no calibration file: left out (camera-calibrate)", device)
                left_out.append((i + 1, "not calibrated"))
                continue
            try:
                cal = Calibration.load(path)
            except CalibrationError as e:
                log.error("camera %s left out: %s", device, e)
                # (No file there: never calibrated; one that does not load: again.)
                why = "calibrate" if Path(path).exists() else "not calibrated"
                left_out.append((i + 1, why))
                continue
            if cal.face_on:
                log.warning("camera %s looks at the board nearly face-on (%.0f deg off its "
                            "axis): it places darts better from %.0f deg or more to the side%s",
                            device, cal.off_axis_deg, FACE_ON_DEG,
                            smaller_than_asked(cal.image_size))  # fmt: skip
            calibrations.append(cal)
            sources.append(device)
            numbers.append(i + 1)
        if not cams.devices:  # input = "camera" and no camera named: Settings cannot help
            log.error("cameras: %s: list them in the settings file ([camera] devices)", NO_CAMERA)
            self.inbox.put(_status("lost", NO_CAMERA))
            return
        if not sources:
            why = f"{NO_CALIBRATED_CAMERA} ([camera] devices and calibrations)"
            log.error("cameras: %s", why)
            self.inbox.put(_status("lost", why))
            return
        log.info("scoring with %d camera(s): %s", len(sources), ", ".join(sources))
        with self._state_lock:
            self._camera_numbers = numbers
        self._clear_camera_states(left_out)
        self._report_down()
        # (realtime: a recorded video standing in for a camera plays at its own speed.)
        self._cameras = CameraScorer(sources, calibrations, self._camera_event, realtime=True,
                                     numbers=numbers)  # fmt: skip
        self._cameras.start()

    def _camera_event(self, event: Any) -> None:
        """From a camera thread: darts go to the game as board hits, a takeout as
        itself (the Cricket screen passes the turn on it, unless the turn was passed by
        hand already: ``CricketScreen.darts_pulled``); the board banner shows only when
        every camera is lost (the others go on scoring when one is: ``CamerasDown``
        names it)."""
        from kiosk.adapters.camera.scorer import CameraStatus

        if isinstance(event, CameraStatus):
            # A camera not scoring is a problem (journalctl -p warning shows it).
            level = logging.INFO if event.state == "connected" else logging.WARNING
            log.log(level, "camera %d %s: %s", self._number(event.camera), event.state,
                    event.detail)  # fmt: skip
            with self._state_lock:
                self._camera_states[event.camera] = event.state
                up = self._cameras_up()
                self._camera_details[event.camera] = event.detail
                if event.calibrate:
                    self._to_calibrate.add(event.camera)
                else:
                    self._to_calibrate.discard(event.camera)
                moved = any(d.startswith("moved") for d in self._camera_details.values())
                # The board's state is the cameras' together: connected while one
                # scores; lost when none does, also when none ever did (one camera at a
                # wrong device); a camera moved away is lost until calibrated again.
                state = ("connected", "cameras") if up else (
                    "lost", "cameras moved" if moved else "cameras")  # fmt: skip
                changed = state != self._posted
                self._posted = state
            if changed:
                self.inbox.put(_status(*state), source="camera")
            self._report_down()
        else:
            self.inbox.put(event, source="camera")

    def _number(self, camera: int) -> int:
        """The scorer's camera ``camera`` by its number on screen (from 1)."""
        numbers = self._camera_numbers
        return numbers[camera] if 0 <= camera < len(numbers) else camera + 1

    def _cameras_up(self) -> bool:
        return any(s == "connected" for s in self._camera_states.values())

    def _report_down(self) -> None:
        """``CamerasDown`` to the screens when the cameras that are not scoring change."""
        from kiosk.adapters.camera.capture import (
            CAMERA_NOT_FOUND,
            FILE_NOT_FOUND,
            NOT_A_VIDEO,
            VIDEO_ENDED,
        )
        from kiosk.adapters.camera.scorer import NOT_IN_VIEW

        with self._state_lock:
            down = list(self._left_out)
            for i, state in self._camera_states.items():
                if state != "connected" and i < len(self._camera_numbers):
                    if i in self._to_calibrate:
                        why = "calibrate"
                    elif self._camera_details.get(i) == VIDEO_ENDED:
                        why = "video ended"  # (a recorded video standing in: not retried)
                    elif self._camera_details.get(i, "").startswith(NOT_IN_VIEW):
                        why = "board not seen"
                    elif self._camera_details.get(i, "").startswith(f"{FILE_NOT_FOUND}: "):
                        why = "file not found"  # (a video file named: not retried at once)
                    elif self._camera_details.get(i, "").startswith(f"{NOT_A_VIDEO}: "):
                        why = "not a video"
                    elif self._camera_details.get(i, "").startswith(f"{CAMERA_NOT_FOUND}: "):
                        why = "not found"  # (never opened since started: none there yet)
                    else:
                        why = "no pictures"
                    down.append((self._camera_numbers[i], why))
            now = tuple(sorted(down))
            if now != self._down:  # posted under the lock: two cameras' in their order
                self._down = now
                self.inbox.put(CamerasDown(now), source="camera")

    def camera_picture(self, index: int) -> Any | None:
        """The latest picture of the configured camera ``index`` (from 0) while the
        cameras are scoring, else None (then the camera is free to be opened)."""
        scorer = self._cameras
        with self._state_lock:
            numbers = list(self._camera_numbers)
        if scorer is None or index + 1 not in numbers:
            return None
        return scorer.picture(numbers.index(index + 1))

    def plugged_cameras(self) -> list[Any]:
        """The USB cameras plugged in now (``adapters.camera.plugged``), looked for
        where ``v4l`` says (tests: their own folder)."""
        from kiosk.adapters.camera import plugged

        if self.v4l is None:
            return plugged.plugged_cameras()
        return plugged.plugged_cameras(self.v4l, self.v4l, self.v4l / "sys")

    def use_cameras(self, devices: list[str], calibrations: list[str]) -> None:
        """The cameras found in Settings, from now on (and the file says so too: the
        caller saved it): the scoring cameras start again with them."""
        camera = dataclasses.replace(
            self.config.camera, devices=tuple(devices), calibrations=tuple(calibrations)
        )
        self.config = dataclasses.replace(self.config, camera=camera)
        log.info("cameras listed from Settings: %s", ", ".join(devices) or "none")
        self.reload_cameras()

    def reload_cameras(self) -> None:
        """A calibration was saved, or cameras listed: the cameras start again, each with
        its file as it is now (and checked against the board again). On "auto" without a
        board, the virtual board gives way to cameras listed since the start once one is
        calibrated (until then it stays, to throw with)."""
        idle = self.active == "" and self._source in ("camera", "auto")  # none calibrated yet
        listed_since = self._source == "auto" and self.virtual and self._a_camera_calibrated()
        if self._cameras is not None or idle or listed_since:
            log.info("cameras: starting again with the calibrations as saved")
            self.switch(self._source)

    def _a_camera_calibrated(self) -> bool:
        """Whether a listed camera has a calibration that loads (one to score with)."""
        from kiosk.adapters.camera.calibration import Calibration, CalibrationError

        cams = self.config.camera
        for i in range(len(cams.devices)):
            if path := cams.calibration_for(i):
                try:
                    Calibration.load(path)
                except CalibrationError:
                    continue
                return True
        return False

    # -- switching and stopping ----------------------------------------------------------

    def switch(self, source: str) -> None:
        self.stop()
        self._source = source
        self.inbox.put(_status("", ""))
        self.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
        with self._lock:
            if self._reader is not None:
                self._reader.stop()
                self._reader = None
            self._close_cameras()
            self._close_virtual()

    def _close_cameras(self) -> None:
        """The cameras stopped, and none of them named as not scoring any more (with
        ``_lock`` held)."""
        if self._cameras is not None:
            self._cameras.stop()
            self._cameras = None
        self._clear_camera_states([])
        self._report_down()

    def _clear_camera_states(self, left_out: list[tuple[int, str]]) -> None:
        """No camera's state known (the cameras start, or stopped); ``left_out``: the
        configured cameras that could not be started."""
        with self._state_lock:
            self._camera_states, self._camera_details, self._to_calibrate = {}, {}, set()
            self._left_out, self._posted = left_out, None

    def _close_virtual(self) -> None:
        """The virtual board and its reader gone (with ``_lock`` held)."""
        if self._virtual_board is not None:
            if self._reader is not None:
                self._reader.stop()
                self._reader = None
            self._virtual_board.close()
            self._virtual_board = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


def _absent(port: str | None) -> bool:
    """A port set as a device path (not a URL such as ``socket://``) that is not there."""
    return bool(port) and "://" not in str(port) and not Path(str(port)).exists()


def _status(state: str, detail: str) -> Any:
    from kiosk.adapters.serial_board.reader import Status

    return Status(state, detail)
