"""Frames from a camera (an index, a ``/dev/video*`` node or a ``/dev/v4l/by-id/`` link
to one), a video file or a URL, on a thread.

A recorded video works as a camera (tests, demos): with ``realtime=True`` it is played
at its own frame rate (the kiosk does so; a camera, or a network camera's stream, is
never held back: it gives its frames as they come), with ``loop=True`` it starts again
at its end. A camera that fails (unplugged, a read error, a stream that stops) is
reported as ``lost`` and reopened every ``retry_interval`` seconds, forever; it never
raises into the kiosk.
A video file that ends without ``loop`` is ``lost`` for good ("the video ended"):
opened again it would play its darts again, and they would be scored twice.
A file that is not there ("file not found: PATH") or that OpenCV cannot read as a video
("not a video OpenCV can read: PATH") is ``lost`` with that said, not "reconnecting":
opening it again a second later would not mend it. It is looked at again every
``FILE_RETRY_S`` (it may be copied into place), not every ``retry_interval``.
A camera (an index, a ``/dev`` node or link) that has not opened once since the reader
started and has no device node (``no_such_camera``) is ``lost`` with "camera not found:
SOURCE", not "reconnecting" (nothing was connected: a number or link that names no
camera here, or a camera not plugged in), and the log says what to check; a node that is
there and does not open (another program holds the camera) is "cannot open", lost then
reconnecting: it is plugged in, and opens once let go. A camera not found is still
tried every ``retry_interval`` (plugged in, it scores). Once it has given pictures,
losing it is "lost", then "reconnecting", as ever.
A camera is "connected" at its first picture, not when it opens: one that opens and
gives none (a UVC camera's second, metadata node; a stream that answers and sends
nothing) is ``lost`` with "opens but gives no pictures: SOURCE", said and logged once
while it stays so, and tried again every ``retry_interval``. (It was said connected,
then lost, every second: the banner came and went, and the log grew two lines a
second.) A failure repeated is logged once, not at every try.

Statuses go to ``on_status(state, detail)`` on a change only: "connected", "lost",
"reconnecting" (the vocabulary of the serial reader's ``Status``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

log = logging.getLogger("kiosk.camera")

FrameSink = Callable[[np.ndarray, int, float], None]  # frame, index, monotonic time
StatusSink = Callable[[str, str], None]
VIDEO_ENDED = "the video ended"
# Why a camera named by a file gives no pictures (the status's detail: this, ": ", the path).
FILE_NOT_FOUND = "file not found"
NOT_A_VIDEO = "not a video OpenCV can read"
# Why a camera named by an index or a /dev name that never opened gives no pictures.
CAMERA_NOT_FOUND = "camera not found"
# Why a camera that opens gives no pictures (this, ": ", the source).
NO_PICTURES = "opens but gives no pictures"
FILE_RETRY_S = 10.0  # such a file is looked at again this often (it may appear)

# What "fixed" means to the V4L2 backend: 1 = manual exposure (3 = auto), and the
# other automatic controls off. Cameras without a control ignore it; we log what took.
FIXED_CONTROLS = (
    ("auto exposure", cv2.CAP_PROP_AUTO_EXPOSURE, 1.0),
    ("auto white balance", cv2.CAP_PROP_AUTO_WB, 0.0),
    ("autofocus", cv2.CAP_PROP_AUTOFOCUS, 0.0),
)


# What a camera is asked for. 1920x1080 rather than 1280x720: on 3000 held-out rendered
# throws (``bench/camera.py --size``) three cameras read 99.5 % exactly over every
# mounting at both sizes (face-on rigs 98.7 and 98.8 %), but place the dart closer
# (mean error 0.12 against 0.22 mm, face-on 0.21 against 0.40 mm), and one camera
# reads 96.6 against 94.9 %, for twice the pixels to decode; on darts of a bar Cricket
# game (``--tips cricket --band 0,15``) face-on rigs read 99.7 against 98.7 %. A camera
# that cannot gives its nearest size; the calibration then says which size a camera is
# used at (the scorer asks for the calibration's size).
CAPTURE_SIZE = (1920, 1080)
CAPTURE_FPS = 30.0
SLOW_FPS = 20.0  # fewer frames than this a second: the settle after a dart takes longer
# Motion JPEG is asked for first: UVC webcams give 720p and 1080p at 30 fps only
# compressed, and V4L2 left to itself picks uncompressed YUYV, 5 to 10 fps at those
# sizes (opencv/opencv#9540), so waiting out a dart's shake (10 frames) took a second.
MJPG = cv2.VideoWriter.fourcc(*"MJPG")


def below_capture_size(image_size: tuple[int, int]) -> bool:
    """Whether a camera is used at less than ``CAPTURE_SIZE`` (face-on, that costs darts:
    a face-on rig reads Cricket darts 99.7 % exactly at 1920x1080, 98.7 % at 1280x720)."""
    return image_size[0] < CAPTURE_SIZE[0]


def smaller_than_asked(image_size: tuple[int, int]) -> str:
    """For a face-on camera's advice in the log and on the command line: what its
    picture size adds (``below_capture_size``), or "" when it is not smaller."""
    if not below_capture_size(image_size):
        return ""
    w, h = image_size
    return (f"; calibrated at {w}x{h}, it also places them worse than at "
            f"{CAPTURE_SIZE[0]}x{CAPTURE_SIZE[1]}")  # fmt: skip


def fourcc_text(code: float) -> str:
    """``CAP_PROP_FOURCC`` as its four letters (``MJPG``, ``YUYV``), for the log."""
    c = int(code)
    text = "".join(chr((c >> 8 * i) & 0xFF) for i in range(4))
    return text if text.isprintable() and text.strip() else f"{c:#x}"


def parse_source(source: str | int) -> str | int:
    """``"0"`` -> camera index 0; anything else (``/dev/video2``, a path, a URL) as is."""
    if isinstance(source, int):
        return source
    s = source.strip()
    return int(s) if s.isascii() and s.isdigit() else s


def is_device(source: str | int) -> bool:
    """A camera rather than a file or URL: an index, a ``/dev/video*`` node, or a link
    to one (``/dev/v4l/by-id/...`` or ``by-path/...``: names that stay put when the
    cameras come up in another order at boot, which ``/dev/videoN`` numbers do not)."""
    return isinstance(source, int) or os.path.realpath(str(source)).startswith("/dev/")


def is_url(source: str | int) -> bool:
    """A network camera's stream (``http://...``, ``rtsp://...``)."""
    return isinstance(source, str) and "://" in source


def no_such_camera(source: str | int) -> bool:
    """Whether a camera source names no device node here: an index with no
    ``/dev/videoN``, a ``/dev`` name or link to nothing. A node that is there and does
    not open is a camera held by another program (or not ours to open), not one missing:
    False, as for a file or a URL."""
    src = parse_source(source)
    if isinstance(src, int):
        return not os.path.exists(f"/dev/video{src}")
    return is_device(src) and not os.path.exists(os.path.realpath(src))


def not_opened_why(source: str | int) -> str | None:
    """Why a source that names a file (not a camera, not a URL) did not open, as the
    screen and the log say it: "file not found: PATH", or "not a video OpenCV can read:
    PATH" (a folder, a text file, a video cut short at its start); None for a camera or
    a URL (unplugged, or down: opened again, it may come back)."""
    src = parse_source(source)
    if isinstance(src, int) or is_device(src) or is_url(src):
        return None
    if not os.path.exists(src):
        return f"{FILE_NOT_FOUND}: {src}"
    return f"{NOT_A_VIDEO}: {src}"


def file_problem(source: str | int) -> str | None:
    """What ``darts-kiosk config --check`` says of a camera source: a file that is not
    there or not a video (``not_opened_why``), opened to tell; None for one that opens,
    a camera (one not plugged in yet is no mistake) or a URL (not looked at)."""
    why = not_opened_why(source)
    if why is None or why.startswith(FILE_NOT_FOUND) or not os.path.isfile(str(source).strip()):
        return why
    cap = cv2.VideoCapture(str(source).strip())
    try:
        return None if cap.isOpened() else why
    finally:
        cap.release()


MAX_CATCH_UP_S = 1.0  # a recorded video this far behind its clock starts the clock again


class PlayClock:
    """The clock the recorded videos standing in for one rig play against: frame ``n``
    of each is due at ``start + n * period``. A video late by a frame or two (its
    dart's tip search took its thread's time) catches up by reading on without
    waiting; one further behind than ``MAX_CATCH_UP_S`` (a busy or paused machine)
    moves the whole rig's clock on by its lateness, so the other videos wait for it.
    Each video on a clock of its own restarted it alone and fell behind the others
    for good: on a loaded machine three videos of one throw drifted apart until a
    dart was scored twice and another lost. Thread-safe: each reader has a thread."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._start: float | None = None
        self._origin = 0.0  # the first start: frame times are counted from it
        self._lock = threading.Lock()

    def due(self, frame: int, period: float) -> float:
        """When frame number ``frame`` of a video is to be read (``time.monotonic``)."""
        with self._lock:
            now = self._now()
            if self._start is None:
                self._start = self._origin = now - frame * period
            late = now - (self._start + frame * period)
            if late > MAX_CATCH_UP_S:
                self._start += late
            return self._start + frame * period

    def stamp(self, frame: int, period: float) -> float:
        """Frame number ``frame``'s time in the video: the same for that frame of every
        video of the rig, however late each was read and wherever the clock was moved
        on (what the cameras' views of one dart are grouped by)."""
        return self._origin + frame * period


def played_at_own_speed(source: str | int) -> bool:
    """A recorded video: played at its frame rate. Not a camera, nor a network camera
    (a URL), which is live: waiting a frame's time after each frame read from one put
    it further behind every second (5 s after 30 s on an MJPEG stream whose frame rate
    OpenCV gave as 25 for 30)."""
    return not isinstance(source, int) and os.path.isfile(str(source))


def _video_capture(src: str | int) -> Any:
    """``cv2.VideoCapture`` on the V4L2 backend for a camera, else on whichever opens it.
    Left to choose, OpenCV tries FFmpeg first for a path: an FFmpeg built with
    libavdevice (some Pi builds) takes ``/dev/videoN`` and ignores the Motion JPEG, size
    and frame rate asked for, so a second camera on the USB 2.0 bus fails for bandwidth
    (huggingface/lerobot#3198); and FFmpeg opens under one lock, so a source that hangs
    in it held up every camera's opening. A camera V4L2 does not open (another
    platform's, a build without it) is tried on any backend, as before."""
    if is_device(src) and hasattr(cv2, "CAP_V4L2"):
        cap = cv2.VideoCapture(src, cv2.CAP_V4L2)
        if cap.isOpened():
            return cap
        cap.release()
    return cv2.VideoCapture(src)


def _backend(cap: Any) -> str:
    try:
        return str(cap.getBackendName())
    except (AttributeError, cv2.error):
        return "backend unknown"


def open_capture(source: str | int, size: tuple[int, int] | None = CAPTURE_SIZE) -> Any:
    """An opened ``cv2.VideoCapture`` or None. On real cameras: Motion JPEG, ``size``
    and 30 fps asked for (in that order: the size is looked up among the compressed
    modes), exposure, white balance and focus fixed where the driver allows it; what
    the camera granted is logged."""
    src = parse_source(source)
    if isinstance(src, str) and is_device(src):
        src = os.path.realpath(src)  # the /dev/videoN node a stable link points to now
    cap = _video_capture(src)
    if not cap.isOpened():
        cap.release()
        return None
    if is_device(src):
        cap.set(cv2.CAP_PROP_FOURCC, MJPG)
        if size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        cap.set(cv2.CAP_PROP_FPS, CAPTURE_FPS)
        w, h = cap.get(cv2.CAP_PROP_FRAME_WIDTH), cap.get(cv2.CAP_PROP_FRAME_HEIGHT)
        fps = cap.get(cv2.CAP_PROP_FPS)
        log.info("camera %s: %.0fx%.0f at %.0f fps, %s (%s)", src, w, h, fps,
                 fourcc_text(cap.get(cv2.CAP_PROP_FOURCC)), _backend(cap))  # fmt: skip
        if 0 < fps < SLOW_FPS:
            log.warning("camera %s gives %.0f frames a second: a dart is scored late (the "
                        "board's shake is waited out over 10 frames)", src, fps)  # fmt: skip
        for name, prop, value in FIXED_CONTROLS:
            ok = cap.set(prop, value)
            log.info("camera %s: %s %s (now %s)", src, name, "fixed" if ok else "not settable",
                     cap.get(prop))  # fmt: skip
    return cap


class CameraReader:
    """Reads one camera on its own thread; frames and statuses go to the callbacks."""

    def __init__(
        self,
        source: str | int,
        on_frame: FrameSink,
        on_status: StatusSink,
        *,
        realtime: bool = False,
        loop: bool = False,
        retry_interval: float = 1.0,
        size: tuple[int, int] | None = CAPTURE_SIZE,
        name: str = "camera",
        clock: PlayClock | None = None,
        file_retry_interval: float = FILE_RETRY_S,
    ) -> None:
        """``clock``: what a recorded video played ``realtime`` keeps time by, shared
        by the videos of one rig (a clock of its own if None). ``file_retry_interval``:
        how often a file that is not there, or not a video, is looked at again."""
        self.source = parse_source(source)
        self.clock = clock or PlayClock()
        self.on_frame = on_frame
        self.on_status = on_status
        self.realtime = realtime
        self.loop = loop
        self.retry_interval = retry_interval
        self.file_retry_interval = file_retry_interval
        self.size = size
        self.name = name
        self.frames = 0  # frames delivered since start
        self._state: str | None = None
        self._file_why: str | None = None  # why the file named does not open, last said
        self._seen = False  # the camera gave a picture once (then a failure is "reconnecting")
        self._logged: str | None = None  # the last failure logged (a repeat is not logged)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("CameraReader already started")
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3.0)
            if self._thread.is_alive():
                log.error("%s: reader thread did not stop", self.name)

    def _status(self, state: str, detail: str, *, anew: bool = False) -> None:
        """To the sink on a change of state (a camera retried every second is not said
        every second), or when ``anew`` (a file's problem that changed: not there, then
        there but not a video)."""
        if state == self._state and not anew:
            return
        self._state = state
        try:
            self.on_status(state, detail)
        except Exception:
            log.exception("%s: status sink failed", self.name)

    def _run(self) -> None:
        first = True
        failed = False  # the last attempt ended in an exception (its trace is logged once)
        while not self._stop.is_set():
            try:
                cap = open_capture(self.source, self.size)
                if cap is None:
                    if (why := not_opened_why(self.source)) is not None:
                        # Not mended by trying again at once: said, and looked at
                        # again now and then (it may be copied into place).
                        anew = why != self._file_why
                        if anew:
                            log.error("%s: %s", self.name, why)
                        self._file_why = why
                        self._status("lost", why, anew=anew)
                        first = False
                        self._stop.wait(max(self.retry_interval, self.file_retry_interval))
                        continue
                    if not self._seen and no_such_camera(self.source):
                        # Nothing was ever there to reconnect: said as not found, with
                        # what to check, and tried again as ever (it may be plugged in).
                        if first:
                            log.error("%s: %s: %s: is it plugged in, is the number or name "
                                      "right? (Settings -> Find cameras lists the cameras "
                                      "plugged in); looked for again every %.0f s",
                                      self.name, CAMERA_NOT_FOUND, self.source,
                                      self.retry_interval)  # fmt: skip
                        self._status("lost", f"{CAMERA_NOT_FOUND}: {self.source}")
                        first = False
                        self._stop.wait(self.retry_interval)
                        continue
                    detail = f"cannot open {self.source}"
                    self._status("lost" if first else "reconnecting", detail)
                    first = False
                    self._stop.wait(self.retry_interval)
                    continue
                self._file_why = None
                first = False
                try:  # (says "connected" at its first picture)
                    reason = self._pump(cap)
                finally:
                    cap.release()
                if reason is None:
                    break
                failed = False
                if reason == VIDEO_ENDED:
                    log.warning("%s: %s: %s", self.name, self.source, reason)
                    self._status("lost", reason)
                    break
            except Exception as e:  # a driver's error or a bug: loud, then tried again
                if not failed:
                    log.exception("%s: reader failed", self.name)
                failed = True
                reason = f"camera reader failed ({type(e).__name__}: {e}; see log)"
            if reason != self._logged:
                self._logged = reason
                advice = ""
                if reason.startswith(NO_PICTURES):
                    advice = (" (a camera's second, metadata node gives none: Settings -> "
                              "Find cameras lists the cameras that do); tried again every "
                              f"{self.retry_interval:.0f} s")  # fmt: skip
                log.warning("%s: lost %s: %s%s", self.name, self.source, reason, advice)
            self._status("lost", reason)
            self._stop.wait(self.retry_interval)

    def _pump(self, cap: Any) -> str | None:
        paced = self.realtime and played_at_own_speed(self.source)
        fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
        period = 1.0 / fps if 1 <= fps <= 240 else 1 / 30
        if paced:
            self.clock.due(self.frames, period)  # the rig's first video starts the clock
        pictures = False  # since this opening
        while not self._stop.is_set():
            ok, frame = cap.read()
            if not ok or frame is None:
                if self.loop and not is_device(self.source) and self.frames:
                    cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                    ok, frame = cap.read()
                if not ok or frame is None:
                    if os.path.isfile(str(self.source)):
                        return VIDEO_ENDED
                    if not pictures:
                        return f"{NO_PICTURES}: {self.source}"
                    return "no frame (unplugged, or the stream stopped)"
            if not pictures:
                pictures = self._seen = True
                self._logged = None
                self._status("connected", str(self.source))
            # The frame's time, by which the cameras' views are grouped: when it was
            # taken (a recorded video: its time in the video, however late it is read)
            now = self.clock.stamp(self.frames, period) if paced else time.monotonic()
            try:
                self.on_frame(frame, self.frames, now)
            except Exception:
                log.exception("%s: frame sink failed", self.name)
            self.frames += 1
            if paced:  # on the rig's clock (``PlayClock``): late frames are caught up on
                delay = self.clock.due(self.frames, period) - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
        return None
