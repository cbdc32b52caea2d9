"""``darts-kiosk camera-calibrate``: make a camera's calibration file.

With a window (the default): one still picture from the camera (or ``--image``) on the
calibration screen, where the known points are marked by mouse or keypad, or found by
the automatic calibration, and checked against the rings and wires drawn back over
the picture before they are saved.

Headless, for scripts and tests: ``--auto --yes`` runs the automatic calibration and
writes the file without asking; it exits 1 (and writes nothing) when it is not sure.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.adapters.camera.autocal import auto_calibrate
from kiosk.adapters.camera.calibration import FACE_ON_DEG, picture_kind
from kiosk.adapters.camera.capture import is_device, parse_source, smaller_than_asked
from kiosk.commands._out import why_not_writable
from kiosk.commands._picture import read_picture
from kiosk.config import Config, ConfigError, load_config

NAME = "camera-calibrate"
HELP = "calibrate a camera: mark board points on its picture (or find them automatically)"
WARMUP_FRAMES = 10  # a webcam's first frames are dark while its exposure settles


FACE_ON_ADVICE = (
    f"note: the camera looks at the board nearly face-on (under {FACE_ON_DEG:.0f} deg); "
    f"it places darts better from {FACE_ON_DEG:.0f} deg or more to the side"
)


def _fail(msg: str, code: int = 2) -> int:
    print(f"camera-calibrate: {msg}", file=sys.stderr)
    return code


def grab_frame(source: str, warmup: int = WARMUP_FRAMES) -> np.ndarray | None:
    """One frame from a camera or a video file (the last of the first ``warmup``)."""
    from kiosk.adapters.camera.capture import open_capture

    cap = open_capture(source)
    if cap is None:
        return None
    frame = None
    try:
        for _ in range(max(1, warmup)):
            ok, f = cap.read()
            if not ok or f is None:
                break
            frame = f
    finally:
        cap.release()
    return None if frame is None else np.asarray(frame)


def missing_source(source: str) -> str | None:
    """Why ``source`` names no camera or file at all, or None (it is there, or a URL).
    "no picture from the camera (unplugged? or busy ...)" sent one looking at a camera
    for a device name mistyped, or a video file that is not there."""
    src = parse_source(source)
    path = f"/dev/video{src}" if isinstance(src, int) else src
    if "://" in path or os.path.exists(path):
        return None
    if isinstance(src, int) or is_device(path):
        there = sorted(glob.glob("/dev/video*"), key=lambda d: (len(d), d))
        listed = ", ".join(there) if there else "none: is one plugged in?"
        return f"{source}: no such camera (cameras here: {listed})"
    return f"{source}: no such file"


def _same_file(out: Path, source: str) -> bool:
    """Whether ``out`` is the picture or video ``source`` (by another name too)."""
    try:
        return out.exists() and os.path.samefile(out, source)
    except OSError:  # (the source is a camera index, a URL, or not there)
        return False


def _a_picture(out: Path) -> str | None:
    """The kind of picture ``out`` already is (another camera's picture in the support
    folder, mistyped for its .json), or None: a calibration, or nothing yet."""
    try:
        with open(out, "rb") as f:
            return picture_kind(f.read(16))
    except OSError:  # (not there yet, a folder: said by the check that it is writable)
        return None


def _pair(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"--twenty-at: expected X,Y in pixels, got {text!r}") from None
    return (x, y)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size: expected WxH, got {text!r}") from None
    if not (200 <= w <= 8192 and 200 <= h <= 8192):
        raise ValueError(f"--size: {text} is not a window size")
    return (w, h)


def run(args: argparse.Namespace) -> int:
    # What can be checked without the camera first: nobody marks five points to learn
    # then that the file cannot be written.
    # FFmpeg's own lines ("[mjpeg @ 0x...] No JPEG data found") would come before ours,
    # which say what is wrong in words (set before the first capture is opened; the
    # command's process only: the kiosk's log keeps them).
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    if args.image and args.camera:
        return _fail("give --camera DEV_OR_FILE or --image FILE, not both")
    if not (args.image or args.camera):
        return _fail("give --camera DEV_OR_FILE or --image FILE")
    out = Path(args.out)
    if _same_file(out, args.image or args.camera):
        return _fail(f"--out {args.out} is the picture to calibrate from: it would be written "
                     "over; give the calibration a file of its own (cam0.json)")  # fmt: skip
    if (kind := _a_picture(out)) is not None:
        return _fail(
            f"--out {args.out} is a picture ({kind}), not a calibration: it would be "
            "written over; give the calibration a file of its own (cam0.json)"
        )
    if (why := why_not_writable(out)) is not None:
        return _fail(why)
    try:
        hint = _pair(args.twenty_at)
        size = _size(args.size) if args.size else None
    except ValueError as e:
        return _fail(str(e))
    if args.yes and not args.auto:
        return _fail("--yes only goes with --auto")
    if args.fullscreen and args.window:
        return _fail("give --fullscreen or --window, not both")
    config = Config()
    if not (args.auto and args.yes):  # the window speaks the kiosk's language, and is
        # shown as the kiosk is
        try:
            config = _settings(getattr(args, "config", None))
        except ConfigError as e:
            return _fail(str(e))
    # A camera or file that is not there is said first: no display to show it on is
    # beside the point then.
    if args.image and not Path(args.image).is_file():  # (a folder; a pipe would wait)
        return _fail(f"{args.image}: " + ("not a file" if Path(args.image).exists()
                                          else "no such file"))  # fmt: skip
    picture = read_picture(args.image) if args.image else None
    if isinstance(picture, str):  # too large, cut short, not a picture
        return _fail(f"{args.image}: {picture}")
    if not args.image and (why := missing_source(args.camera)) is not None:
        return _fail(why)
    if not (args.auto and args.yes) and (why := no_display()) is not None:
        return _fail(f"{why}: run it on the kiosk's screen (or where DISPLAY is set), or "
                     "headless with --auto --yes (and --twenty-at X,Y if it cannot tell the "
                     "20)")  # fmt: skip
    image = picture if picture is not None else grab_frame(args.camera)
    if image is None and isinstance(parse_source(args.camera), str) and os.path.isfile(args.camera):
        return _fail(f"{args.camera}: not a video OpenCV can read (a still picture goes "
                     "with --image)")  # fmt: skip
    if image is None:
        return _fail(
            f"{args.camera}: no picture from the camera (unplugged? or busy: a "
            "running kiosk holds its cameras; calibrate from its Settings then)"
        )
    h, w = image.shape[:2]
    if hint is not None and not (0 <= hint[0] < w and 0 <= hint[1] < h):
        return _fail(f"--twenty-at {args.twenty_at}: not in the {w}x{h} picture")
    if args.auto and args.yes:
        result = auto_calibrate(image, hint)
        if result.calibration is None:
            print(f"not calibrated: {result.reason}")
            print(_after_auto_failed(result.template, hint))
            return 1
        try:
            result.calibration.save(out)
        except OSError as e:
            return _fail(f"{out}: cannot write: {e.strerror or e}")
        cal = result.calibration
        print(f"{result.reason}; confidence {result.confidence:.2f}; "
              f"{len(cal.points)} points; {cal.off_axis_deg:.0f} deg off the board's axis; "
              f"saved to {out}")  # fmt: skip
        if cal.face_on:
            print(FACE_ON_ADVICE + smaller_than_asked(cal.image_size))
        return 0
    fullscreen, shown = screen_mode(args, size, config)
    return run_window(image, out, size=shown, fullscreen=fullscreen, auto=args.auto,
                      language=config.language, twenty_at=hint,
                      rotation=config.display.rotation)  # fmt: skip


def _after_auto_failed(why: str, hint: tuple[float, float] | None) -> str:
    """What to do when ``--auto --yes`` found no calibration (``why``: the automatic
    calibration's reason, untranslated). Its "mark the 20 by hand" cannot be done
    without the window: ``--twenty-at`` is how it is done here."""
    window = "leave out --yes to mark the points in the window"
    if hint is None and "segment is 20" in why:
        return (f"give --twenty-at X,Y: a point of the picture (pixels) on the 20 segment, "
                f"and it is found from there; or {window}")  # fmt: skip
    return window


# SDL's video drivers that show nothing: asked for by name (the tests, scripts) they
# are used; fallen back to (SDL 2.28 and on: no X, Wayland or KMS screen to open) the
# window would wait unseen for keys that never come.
UNSEEN_DRIVERS = ("offscreen", "dummy")


def no_display() -> str | None:
    """Why the calibration window could not be seen, or None."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    asked = {d.strip() for d in os.environ.get("SDL_VIDEODRIVER", "").split(",")}
    try:
        pygame.display.init()
    except pygame.error as e:
        return f"no display to show the calibration window on ({e})"
    driver = pygame.display.get_driver()
    if driver in UNSEEN_DRIVERS and driver not in asked:
        pygame.display.quit()
        return "no display to show the calibration window on (no DISPLAY, no screen to open)"
    return None


def _settings(config_file: Path | None) -> Config:
    """The kiosk's settings (the system and user files, then ``--config``), as the
    kiosk reads them: a wrong setting is stepped over."""
    return load_config(config_file, mistakes=[])


def screen_mode(
    args: argparse.Namespace, size: tuple[int, int] | None, config: Config
) -> tuple[bool, tuple[int, int]]:
    """(fullscreen, size) as the kiosk would show itself (``bootstrap.display_mode``:
    fullscreen on its console, a window in a desktop session, the ``[display]`` size),
    unless ``--window``, ``--fullscreen`` or ``--size`` say otherwise."""
    from kiosk.bootstrap import Options, display_mode

    return display_mode(Options(window=args.window, fullscreen=args.fullscreen, size=size), config)


@dataclass
class Session:
    """The calibration screen in a real kiosk app (tests drive it through ``inbox``)."""

    app: Any
    kiosk: Any
    inbox: Any
    screen: Any

    def close(self) -> None:
        self.app.close()


class _NoDevices:
    """The calibration screen takes no darts."""

    source = "camera"
    virtual = False
    active = ""

    def throw(self, dart: Any) -> bool:
        return False

    def switch(self, source: str) -> None:
        return None


def open_session(
    image: np.ndarray,
    out: Path,
    *,
    size: tuple[int, int] = (1280, 720),
    fullscreen: bool = False,
    language: str = "en",
    rotation: int = 0,
) -> Session:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from kiosk.ui.app import App
    from kiosk.ui.context import Kiosk, Settings
    from kiosk.ui.inbox import Inbox
    from kiosk.ui.screens.camera_calibrate import CameraCalibrateScreen
    from kiosk.ui.sound import Sound
    from kiosk.ui.theme import assets_dir

    assets = assets_dir()
    kiosk = Kiosk(settings=Settings(language=language), sound=Sound(assets / "sounds", 0),
                  devices=_NoDevices(), locale_dir=assets / "locale")  # fmt: skip
    inbox = Inbox()
    app = App(kiosk, inbox, size=size, fullscreen=fullscreen, rotation=rotation,
              hide_cursor=False)  # fmt: skip
    app.open()
    screen = CameraCalibrateScreen(kiosk, image, out)
    kiosk.stack.push(screen)
    app.step(0)  # the first frame: the picture's place on the screen is known from here
    return Session(app, kiosk, inbox, screen)


def run_window(
    image: np.ndarray,
    out: Path,
    *,
    size: tuple[int, int],
    fullscreen: bool,
    auto: bool,
    language: str = "en",
    twenty_at: tuple[float, float] | None = None,
    rotation: int = 0,
) -> int:
    session = open_session(image, out, size=size, fullscreen=fullscreen, language=language,
                           rotation=rotation)  # fmt: skip
    screen = session.screen
    try:
        if auto:  # (said on the screen first, as the 0 key does)
            screen.auto_later(twenty_at)
        session.app.run(until=lambda: screen.finished)
        if screen.saved:
            session.app.step(0)
            time.sleep(0.8)  # long enough to read "saved"
    except KeyboardInterrupt:
        pass
    finally:
        session.close()
    if screen.saved:
        print(f"saved to {out}")
        return 0
    print("not saved")
    return 1
