"""The ``camera-calibrate`` command: headless with ``--auto --yes``, its window in the
kiosk's language, and what it refuses before anything is marked (pictures and cameras
that are not there, a calibration written over a picture, no display)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from calibrate_support import error_mm, numbers_hidden, truth

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.calibration import Calibration
from kiosk.ui.screens.camera_calibrate import TARGETS

ROOT = Path(__file__).resolve().parents[2]


def _board_png(tmp_path: Path, image: np.ndarray) -> Path:
    """``image`` saved as the picture to calibrate from."""
    pic = tmp_path / "board.png"
    cv2.imwrite(str(pic), image)
    return pic


def test_the_command_says_when_a_camera_is_nearly_face_on_and_gives_small_pictures(
    face_on: np.ndarray, tmp_path: Path
) -> None:
    pic = _board_png(tmp_path, face_on)  # 1280x720: face-on, it places darts better at 1080p
    done = _cli("--image", str(pic), "--out", str(tmp_path / "cal.json"), "--auto", "--yes")
    assert done.returncode == 0, done.stderr
    assert "nearly face-on" in done.stdout
    assert "calibrated at 1280x720" in done.stdout and "1920x1080" in done.stdout


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    cmd = [sys.executable, "-m", "kiosk", "camera-calibrate", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_the_command_calibrates_a_picture_headless_with_auto_yes(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, image = camera
    pic = _board_png(tmp_path, image)
    out = tmp_path / "cal.json"
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 0, done.stderr
    assert "saved" in done.stdout
    assert "face-on" not in done.stdout  # 30 degrees off the board's axis
    assert error_mm(Calibration.load(out), cam) < 0.5


def test_the_command_writes_nothing_for_a_picture_without_a_board(tmp_path: Path) -> None:
    pic = tmp_path / "wall.png"
    cv2.imwrite(str(pic), np.full((480, 640, 3), (70, 96, 122), np.uint8))
    out = tmp_path / "cal.json"
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 1
    assert "not calibrated" in done.stdout
    assert not out.exists()


def test_the_command_takes_its_picture_from_a_video_file_as_a_camera(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, image = camera
    video = tmp_path / "cam.avi"
    h, w = image.shape[:2]
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10, (w, h))
    for _ in range(3):
        writer.write(image)
    writer.release()
    out = tmp_path / "cal.json"
    done = _cli("--camera", str(video), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert error_mm(Calibration.load(out), cam) < 1.0


def test_the_command_refuses_what_it_cannot_use_before_anything_is_marked(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    _, image = camera
    pic = _board_png(tmp_path, image)
    out = str(tmp_path / "cal.json")
    both = _cli("--image", str(pic), "--camera", "/dev/video0", "--out", out)
    assert both.returncode == 2 and "not both" in both.stderr
    outside = _cli("--image", str(pic), "--out", out, "--auto", "--yes", "--twenty-at", "9999,9999")
    assert outside.returncode == 2 and "not in the 1280x720 picture" in outside.stderr
    missing = _cli("--image", str(tmp_path / "nope.png"), "--out", out)
    assert missing.returncode == 2 and missing.stderr.strip().endswith("nope.png: no such file")
    assert "WARN" not in missing.stderr  # (OpenCV's own line, before ours)
    folder = _cli("--image", str(tmp_path), "--out", out)
    assert folder.returncode == 2 and folder.stderr.strip().endswith(f"{tmp_path}: not a file")
    assert not (tmp_path / "cal.json").exists()


@pytest.mark.parametrize("damage", ["cut short", "too large"])
def test_a_picture_cut_short_or_too_large_is_refused_before_anything_is_calibrated(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path, damage: str
) -> None:
    # A JPEG cut short was read by libjpeg with its missing part grey ("Premature end
    # of JPEG file", in its words, on stderr) and calibrated as if whole; and a picture
    # of any size was decoded whole, however much memory that took.
    _, image = camera
    if damage == "cut short":  # a copy that did not finish
        pic = tmp_path / "board.jpg"
        cv2.imwrite(str(pic), image)
        whole = pic.read_bytes()
        pic.write_bytes(whole[: len(whole) * 9 // 10])
        said = (
            "cannot read the picture: the file is cut short (a copy or a save that did not finish)"
        )
    else:  # a BMP whose header says 11000x11000: 121 megapixels
        pic = tmp_path / "board.bmp"
        data = bytearray(cv2.imencode(".bmp", image)[1].tobytes())
        data[18:26] = (11_000).to_bytes(4, "little") * 2
        pic.write_bytes(bytes(data))
        said = "the picture is too large to read (at most 120 megapixels)"
    out = tmp_path / "cal.json"
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"camera-calibrate: {pic}: {said}\n"
    assert not out.exists()


def _window(
    picture: np.ndarray,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    settings: str,
    *more: str,
    frames: int = 1,
) -> tuple[int, list[tuple[Any, tuple[int, int]]], list[list[str]]]:
    """The command's window on ``picture``, with ``settings`` as the kiosk's settings
    file: its exit code, the app and its window's size, and what each of its first
    ``frames`` frames said (then it is closed, as if the window were shut: nothing
    saved)."""
    import argparse

    import pygame

    from kiosk import config as kiosk_config
    from kiosk.commands import _camera_calibrate as impl
    from kiosk.commands.camera_calibrate import add_arguments
    from kiosk.ui.app import App

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # no user settings file
    monkeypatch.setattr(kiosk_config, "SYSTEM_CONFIG", tmp_path / "none.toml")
    (tmp_path / "kiosk.toml").write_text(settings)
    pic = _board_png(tmp_path, picture)
    apps: list[tuple[App, tuple[int, int]]] = []
    shown: list[list[str]] = []

    def some_frames(app: App, until: object = None, timeout: float | None = None) -> bool:
        apps.append((app, pygame.display.get_surface().get_size()))
        for _ in range(frames):
            app.step(0)
            shown.append(list(app.texts))
        return False

    monkeypatch.setattr(App, "run", some_frames)
    monkeypatch.setattr(impl, "no_display", lambda: None)  # (headless on purpose, any driver)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    out = tmp_path / "c.json"
    args = parser.parse_args(["--image", str(pic), "--out", str(out), "--config",
                              str(tmp_path / "kiosk.toml"), *more])  # fmt: skip
    code = impl.run(args)
    assert not out.exists()
    return code, apps, shown


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_command_s_window_speaks_the_language_of_the_kiosk_s_settings(
    camera: tuple[synthetic.Camera, np.ndarray],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
) -> None:
    # The window was English whatever the kiosk spoke (Settings() built without it).
    from kiosk.ui import i18n

    code, _, shown = _window(camera[1], tmp_path, monkeypatch, f'language = "{language}"\n')
    assert code == 1  # not saved
    t = i18n.load(language, ROOT / "kiosk" / "assets" / "locale").gettext
    title = f"1/{len(TARGETS)}: {t('Mark')} {t(TARGETS[0].label)}"
    assert t("Mark") != "Mark" and title in shown[0], shown


@pytest.mark.parametrize(
    ("more", "size"), [((), (800, 480)), (("--size", "1024x600"), (1024, 600))]
)
def test_the_command_s_window_is_shown_as_the_kiosk_is_on_a_screen_on_its_side(
    camera: tuple[synthetic.Camera, np.ndarray],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    more: tuple[str, ...],
    size: tuple[int, int],
) -> None:
    # The window was 1280x720 and upright whatever the kiosk's [display] said: on a
    # bar's screen mounted on its side, the marking screen lay sideways.
    settings = "[display]\nwidth = 800\nheight = 480\nrotation = 90\nfullscreen = false\n"
    code, apps, shown = _window(camera[1], tmp_path, monkeypatch, settings, *more)
    assert code == 1
    app, window = apps[0]
    assert app.rotation == 90 and window == size
    assert f"1/{len(TARGETS)}: Mark {TARGETS[0].label}" in shown[0]


def test_the_command_s_auto_says_it_is_looking_for_the_board_before_it_shows_it(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With --auto the search ran before the window's first frame: the window stayed
    # blank for it.
    code, _, shown = _window(camera[1], tmp_path, monkeypatch, "", "--auto", frames=2)
    assert code == 1
    assert "Looking for the board..." in shown[0], shown[0]
    assert any(t.startswith("Auto calibration: board found") for t in shown[1]), shown[1]


def test_a_camera_or_video_that_is_not_there_is_named_not_taken_for_a_busy_camera(
    tmp_path: Path,
) -> None:
    # It said "no picture from the camera (unplugged? or busy: a running kiosk holds its
    # cameras ...)" for a device name mistyped and for a video file that is not there.
    out = tmp_path / "cal.json"
    for source, said in (("/dev/video987", "no such camera (cameras here: "),
                         ("987", "no such camera (cameras here: "),
                         (str(tmp_path / "nope.avi"), "no such file")):  # fmt: skip
        done = _cli("--camera", source, "--out", str(out), "--auto", "--yes")
        assert done.returncode == 2
        assert done.stderr.startswith(f"camera-calibrate: {source}: {said}"), done.stderr
        assert "busy" not in done.stderr and "WARN" not in done.stderr
    # Said before "no display" too: over SSH, the mistyped name is what to put right.
    cmd = [sys.executable, "-m", "kiosk", "camera-calibrate", "--camera", "/dev/video987",
           "--out", str(out)]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, env=_no_screen("x11"), capture_output=True, text=True,
                          timeout=30)  # fmt: skip
    assert done.returncode == 2 and "no such camera" in done.stderr, done.stderr
    assert "display" not in done.stderr
    # A file that is there but no video: named as such, without FFmpeg's own lines.
    notes = tmp_path / "notes.jpg"
    notes.write_text("hello\n")
    done = _cli("--camera", str(notes), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 2
    assert done.stderr == (f"camera-calibrate: {notes}: not a video OpenCV can read (a still "
                           "picture goes with --image)\n")  # fmt: skip
    assert not out.exists()


def test_the_command_refuses_to_write_the_calibration_over_its_own_picture(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # --out board.png with --image board.png wrote the JSON over the picture.
    pic = _board_png(tmp_path, camera[1])
    before = pic.read_bytes()
    for args in (("--image", str(pic), "--out", str(pic)),
                 ("--image", str(pic), "--out", str(tmp_path / "." / "board.png")),
                 ("--camera", str(pic), "--out", str(pic))):  # fmt: skip
        done = _cli(*args, "--auto", "--yes")
        assert done.returncode == 2 and done.stdout == ""
        assert f"--out {args[3]} is the picture to calibrate from: it would be written over" in (
            done.stderr
        )
        assert pic.read_bytes() == before


def test_the_command_refuses_to_write_the_calibration_over_another_picture(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # Two cameras' pictures side by side: --out cam1.jpg (for cam1.json) wrote the JSON
    # over camera 1's picture. A calibration there is written over, as it should be.
    pic, other = tmp_path / "cam0.png", tmp_path / "cam1.jpg"
    cv2.imwrite(str(pic), camera[1])
    cv2.imwrite(str(other), camera[1])
    before = other.read_bytes()
    done = _cli("--image", str(pic), "--out", str(other), "--auto", "--yes")
    assert done.returncode == 2 and done.stdout == ""
    said = f"--out {other} is a picture (JPEG), not a calibration: it would be written over"
    assert said in done.stderr, done.stderr
    assert other.read_bytes() == before
    cal = tmp_path / "cam0.json"
    cal.write_text("{}")  # an old, broken calibration: calibrating again mends it
    done = _cli("--image", str(pic), "--out", str(cal), "--auto", "--yes")
    assert done.returncode == 0, done.stderr
    assert json.loads(cal.read_text())["points"]


def test_a_headless_calibration_that_cannot_tell_the_20_says_to_give_twenty_at(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # The numbers hidden (a dark surround): "mark the 20 by hand", which --yes has no
    # window for, was all it said; --twenty-at is how it is done headless.
    cam, image = camera
    hidden = numbers_hidden(cam, image)
    pic, out = tmp_path / "board.png", tmp_path / "cal.json"
    cv2.imwrite(str(pic), hidden)
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 1 and not out.exists()
    assert done.stdout.splitlines() == [
        "not calibrated: cannot tell which segment is 20 from the numbers; mark the 20 by hand",
        "give --twenty-at X,Y: a point of the picture (pixels) on the 20 segment, and it is "
        "found from there; or leave out --yes to mark the points in the window",
    ]
    x, y = truth(cam, (0.0, 140.0))  # as it says: a point on the 20
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes",
                "--twenty-at", f"{x:.0f},{y:.0f}")  # fmt: skip
    assert done.returncode == 0, done.stdout
    assert error_mm(Calibration.load(out), cam) < 1.0


def _no_screen(driver: str | None) -> dict[str, str]:
    """An environment with no X or Wayland display, and ``driver`` asked of SDL."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}  # fmt: skip
    return dict(env, SDL_AUDIODRIVER="dummy", **({"SDL_VIDEODRIVER": driver} if driver else {}))


@pytest.mark.parametrize("driver", ["x11", None], ids=["asked-for", "none-asked"])
def test_the_window_with_no_display_to_show_it_is_refused_not_left_waiting_unseen(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path, driver: str | None
) -> None:
    # With no screen, SDL fell back to a driver that shows nothing, and the window
    # waited for keys nobody could press (or, with a driver asked for, a traceback).
    env = _no_screen(driver)
    if driver is None:
        probe = ("import os, pygame; pygame.display.init(); "
                 "print(pygame.display.get_driver())")  # fmt: skip
        picked = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                                text=True, timeout=30).stdout.split()[-1:]  # fmt: skip
        if picked != ["offscreen"]:
            pytest.skip(f"SDL opens a screen here without a display: {picked}")
    pic, out = tmp_path / "board.png", tmp_path / "cal.json"
    cv2.imwrite(str(pic), camera[1])
    cmd = [sys.executable, "-m", "kiosk", "camera-calibrate", "--image", str(pic), "--out",
           str(out)]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and not out.exists()
    said = "camera-calibrate: no display to show the calibration window on ("
    assert any(line.startswith(said) for line in done.stderr.splitlines()), done.stderr
    assert "--auto --yes" in done.stderr and "Traceback" not in done.stderr
