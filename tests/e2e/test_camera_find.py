"""Settings -> Find cameras, in the real app headless: the USB cameras plugged in (udev's
/dev/v4l links, here in a folder of the test's own, pointing at rendered videos that
stand in for the cameras) are shown with a picture each, and Enter lists them in the
settings file, so the owner sets the cameras up with the keypad."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from kiosk.adapters.camera.synthetic import Step, render_turn
from kiosk.bootstrap import Options, build
from kiosk.commands import _camera_calibrate
from kiosk.config import SYSTEM_CONFIG, CameraConfig, Config, load_config
from kiosk.settings_file import read_after
from kiosk.ui.driver import Driver
from kiosk.ui.screens import camera_find
from kiosk.ui.screens.menu import MenuScreen
from tests.e2e.calibrate_support import film

pytestmark = pytest.mark.timeout(90)

SETTINGS = 'language = "en"\n\n[sound]\nvolume = 40\n'


def plug(tmp_path: Path, name: str, seed: int, *, by_path: str = "") -> Path:
    """A camera plugged in: a rendered video of the board, linked as udev links a USB
    camera's picture node (and its metadata node, which gives no picture)."""
    video = tmp_path / f"{name}.avi"
    film(render_turn(seed, [Step("still", 12)], off_axis=25.0, size=(640, 360)), video)
    meta = tmp_path / f"{name}.meta"
    meta.write_bytes(b"\0" * 64)
    by_id = tmp_path / "v4l" / "by-id"
    by_id.mkdir(parents=True, exist_ok=True)
    (by_id / f"usb-Acme_{name}_0001-video-index0").symlink_to(video)
    (by_id / f"usb-Acme_{name}_0001-video-index1").symlink_to(meta)
    if by_path:
        folder = tmp_path / "v4l" / "by-path"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"platform-xhci-usb-0:{by_path}:1.0-video-index0").symlink_to(video)
    return by_id / f"usb-Acme_{name}_0001-video-index0"


@contextmanager
def settings_screen(tmp_path: Path, config: Config | None = None) -> Iterator[Driver]:
    """The real app on the virtual board at the Settings screen, saving to its own
    settings file, looking for cameras in the test's /dev/v4l."""
    settings = tmp_path / "kiosk.toml"
    if not settings.exists():
        settings.write_text(SETTINGS, encoding="utf-8")
    options = Options(window=True, size=(1280, 720), virtual=True, env={},
                      data_dir=tmp_path / "d", settings_file=settings)  # fmt: skip
    running = build(options, config or load_config(search_paths=[settings]))
    running.devices.v4l = tmp_path / "v4l"
    d = Driver(running)
    try:
        d.press("\n")  # attract -> main menu
        d.press("4")
        assert d.screen.name == "settings"
        yield d
    finally:
        running.close()


def labels(d: Driver) -> list[str]:
    assert isinstance(d.screen, MenuScreen)
    return [item.label for item in d.screen.items()]


def listed_before(tmp_path: Path, devices: list[str], calibrations: list[str]) -> None:
    """The settings file with these cameras listed (by hand, or by an earlier find)."""
    lists = f"devices = {json.dumps(devices)}\ncalibrations = {json.dumps(calibrations)}\n"
    (tmp_path / "kiosk.toml").write_text(SETTINGS + "\n[camera]\n" + lists, encoding="utf-8")


def saved(tmp_path: Path) -> CameraConfig:
    """The cameras the next start reads from the settings file."""
    return load_config(search_paths=[tmp_path / "kiosk.toml"]).camera


def save_and_leave(d: Driver) -> None:
    d.press("\n")
    d.wait_screen("settings")


def find_cameras(d: Driver) -> None:
    d.press(str(labels(d).index("Find cameras") + 1))
    assert d.screen.name == "camera-find"
    d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 20, "cameras found")
    d.look()


def test_the_cameras_plugged_in_are_found_and_listed_in_the_settings_file(tmp_path: Path) -> None:
    first = plug(tmp_path, "CamA", 1)
    second = plug(tmp_path, "CamB", 2)
    with settings_screen(tmp_path) as d:
        assert not any(label.startswith("Calibrate camera") for label in labels(d))
        find_cameras(d)
        screen = d.screen
        found = screen.found  # type: ignore[attr-defined]
        assert [f.camera.device for f in found] == [str(first), str(second)]  # no metadata node
        assert all(f.picture is not None and f.listed is None for f in found)
        d.screenshot(str(tmp_path / "found.png"))
        d.press("\n")
        assert "Saved" in screen.message  # type: ignore[attr-defined]
        d.wait_screen("settings")
        # Settings now has a line to calibrate each, and cameras to choose as the input.
        assert [x for x in labels(d) if x.startswith("Calibrate")] == [
            "Calibrate camera 1",
            "Calibrate camera 2",
        ]
        assert any(v == "camera" for v, _ in d.screen.sources())  # type: ignore[attr-defined]
    written = tomllib.loads((tmp_path / "kiosk.toml").read_text(encoding="utf-8"))
    assert written["sound"] == {"volume": 40}  # the rest of the file is kept
    # The next start reads them, each with a calibration file of its own in the data folder.
    camera = saved(tmp_path)
    assert camera.devices == (str(first), str(second))
    assert camera.calibrations == (str(tmp_path / "d" / "cam-usb-Acme_CamA_0001.json"),
                                   str(tmp_path / "d" / "cam-usb-Acme_CamB_0001.json"))  # fmt: skip


def test_found_again_listed_cameras_keep_their_place_and_calibration(tmp_path: Path) -> None:
    first = plug(tmp_path, "CamA", 1)
    second = plug(tmp_path, "CamB", 2)
    # Listed by hand before: the second camera by its node, with a calibration of its
    # own, after one that is not plugged in now.
    listed_before(
        tmp_path,
        ["/dev/video9", os.path.realpath(second)],
        [f"{tmp_path}/gone.json", f"{tmp_path}/mine.json"],
    )
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        screen = d.screen
        assert [f.listed for f in screen.found] == [None, 1]  # type: ignore[attr-defined]
        assert screen.missing == ["/dev/video9"]  # type: ignore[attr-defined]
        save_and_leave(d)
    camera = saved(tmp_path)
    # The listed cameras first, in their order (their numbers in Settings stay), the
    # one not plugged in kept; the node renamed to the link that stays put at boot.
    assert camera.devices == ("/dev/video9", str(second), str(first))
    assert camera.calibrations == (f"{tmp_path}/gone.json", f"{tmp_path}/mine.json",
                                   str(tmp_path / "d" / "cam-usb-Acme_CamA_0001.json"))  # fmt: skip


def test_a_listed_camera_not_plugged_in_is_left_out_only_when_asked(tmp_path: Path) -> None:
    first = plug(tmp_path, "CamA", 1)
    listed_before(
        tmp_path, ["/dev/video9", str(first)], [f"{tmp_path}/gone.json", f"{tmp_path}/mine.json"]
    )
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        d.press("-")  # leave it out
        assert not d.screen.keep_missing  # type: ignore[attr-defined]
        save_and_leave(d)
    camera = saved(tmp_path)
    assert camera.devices == (str(first),)
    assert camera.calibrations == (f"{tmp_path}/mine.json",)


def test_a_listed_camera_that_gives_no_picture_now_stays_listed(tmp_path: Path) -> None:
    """Busy in another program, or a USB hiccup: not a reason to lose its calibration."""
    busy = tmp_path / "v4l" / "by-id" / "usb-Acme_Busy_0001-video-index0"
    busy.parent.mkdir(parents=True)
    (tmp_path / "busy.bin").write_bytes(b"\0" * 64)
    busy.symlink_to(tmp_path / "busy.bin")  # opens as no video
    second = plug(tmp_path, "CamB", 2)
    listed_before(tmp_path, [str(busy)], [f"{tmp_path}/mine.json"])
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        save_and_leave(d)
    camera = saved(tmp_path)
    assert camera.devices == (str(busy), str(second))
    assert camera.calibrations[0] == f"{tmp_path}/mine.json"


def test_a_camera_listed_by_a_name_two_cameras_share_is_not_given_either(tmp_path: Path) -> None:
    """Two cameras of one make without serial numbers: udev's one by-id name points at
    either. The calibration listed with it is not given to either camera: both are
    listed by their USB port, to be calibrated."""
    a, b = plug(tmp_path, "CamA", 1, by_path="1"), plug(tmp_path, "CamB", 2, by_path="2")
    shared = tmp_path / "v4l" / "by-id" / "usb-Generic_Camera-video-index0"
    shared.symlink_to(os.path.realpath(b))
    a.unlink()  # (udev's by-id layout: one name, the other camera has none)
    b.unlink()
    listed_before(tmp_path, [str(shared)], [f"{tmp_path}/one.json"])
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        screen = d.screen
        assert screen.shared == [str(shared)]  # type: ignore[attr-defined]
        save_and_leave(d)
    camera = saved(tmp_path)
    assert [Path(x).name for x in camera.devices] == [
        "platform-xhci-usb-0:1:1.0-video-index0",
        "platform-xhci-usb-0:2:1.0-video-index0",
    ]
    assert f"{tmp_path}/one.json" not in camera.calibrations


def test_cameras_are_not_saved_where_a_file_read_later_lists_its_own(tmp_path: Path) -> None:
    """Started with --config naming a file that lists cameras: saved in the user's
    file, they would be gone at the next start. Said, and nothing written."""
    plug(tmp_path, "CamA", 1)
    settings = tmp_path / "kiosk.toml"
    settings.write_text(SETTINGS, encoding="utf-8")
    explicit = tmp_path / "bar.toml"
    explicit.write_text('[camera]\ndevices = ["/dev/video0"]\n', encoding="utf-8")
    options = Options(window=True, size=(1280, 720), virtual=True, env={},
                      data_dir=tmp_path / "d", settings_file=settings)  # fmt: skip
    running = build(options, load_config(explicit, search_paths=[settings]), (settings, explicit))
    running.devices.v4l = tmp_path / "v4l"
    d = Driver(running)
    try:
        d.press("\n4")
        find_cameras(d)
        d.press("\n")
        assert str(explicit) in d.screen.message  # type: ignore[attr-defined]
        assert d.screen.name == "camera-find"
    finally:
        running.close()
    assert settings.read_text(encoding="utf-8") == SETTINGS


def test_with_no_camera_plugged_in_nothing_is_saved_and_0_looks_again(tmp_path: Path) -> None:
    # Enter was offered ("Enter = list these cameras") with nothing to list, and
    # pressed it put a second "plug one in" line under the first.
    (tmp_path / "v4l" / "by-id").mkdir(parents=True)
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        screen = d.screen
        assert screen.found == []  # type: ignore[attr-defined]
        d.settle()
        assert "0 = look again   / = back" in d.texts, d.texts
        assert not any("Enter" in t for t in d.texts), d.texts
        d.press("\n")
        assert d.screen is screen
        d.settle()
        assert [t for t in d.texts if "plug one in" in t] == [
            "No USB camera found: plug one in, then press 0"
        ], d.texts
        plug(tmp_path, "CamA", 1)  # plugged in now
        d.press("0")
        d.wait_for(lambda: screen.found is not None, 20, "cameras found")  # type: ignore[attr-defined]
        assert len(screen.found) == 1  # type: ignore[attr-defined]
        d.press("/")
        assert d.screen.name == "settings"
    assert (tmp_path / "kiosk.toml").read_text(encoding="utf-8") == SETTINGS


def test_a_camera_that_gives_no_picture_is_said_and_left_out(tmp_path: Path) -> None:
    plug(tmp_path, "CamA", 1)
    broken = tmp_path / "v4l" / "by-id" / "usb-Acme_Busy_0001-video-index0"
    broken.symlink_to(tmp_path / "CamA.meta")  # opens as no video
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        found = d.screen.found  # type: ignore[attr-defined]
        assert [f.picture is None for f in found] == [False, True]
        save_and_leave(d)
    camera = saved(tmp_path)
    assert [Path(x).name for x in camera.devices] == ["usb-Acme_CamA_0001-video-index0"]


def test_the_found_cameras_score_at_once_when_they_are_the_input(tmp_path: Path) -> None:
    """Input set to cameras with none listed: the board banner says so; once found, the
    kiosk asks for each camera to be calibrated."""
    plug(tmp_path, "CamA", 1)
    base = load_config(search_paths=[])
    config = dataclasses.replace(base, input=dataclasses.replace(base.input, source="camera"))
    (tmp_path / "kiosk.toml").write_text(SETTINGS, encoding="utf-8")
    with settings_screen(tmp_path, config) as d:
        d.running.devices.switch("camera")
        d.wait_for(lambda: "no camera" in d.kiosk.board.detail, 10, "no camera said")
        find_cameras(d)
        d.press("\n")
        d.wait_for(lambda: "no calibrated camera" in d.kiosk.board.detail, 10, "calibrate said")


@contextmanager
def answering(fifo: Path) -> Iterator[None]:
    """The camera that hung answers (with no picture) whenever it is opened."""
    done = threading.Event()

    def answer() -> None:
        while not done.is_set():
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # nobody opening it now
                time.sleep(0.05)
                continue
            os.close(fd)

    helper = threading.Thread(target=answer, daemon=True)
    helper.start()
    try:
        yield
    finally:
        done.set()
        helper.join(2)


def hanging_camera(tmp_path: Path, name: str = "Hang") -> Path:
    """A camera that hangs when opened (a FIFO nobody writes to)."""
    fifo = tmp_path / name
    os.mkfifo(fifo)
    by_id = tmp_path / "v4l" / "by-id"
    by_id.mkdir(parents=True, exist_ok=True)
    (by_id / f"usb-Acme_{name}_0001-video-index0").symlink_to(fifo)
    return fifo


def test_a_dart_with_no_match_to_go_to_leaves_the_look_going(tmp_path: Path) -> None:
    """A dart while the cameras are looked for from the main menu's Settings: there is
    no match for it to go to, so the screen stays, and so does its look."""
    fifo = hanging_camera(tmp_path, "Aaa")  # (looked at first)
    plug(tmp_path, "CamB", 2)
    with settings_screen(tmp_path) as d:
        d.press(str(labels(d).index("Find cameras") + 1))
        d.throw("T20")
        assert d.screen.name == "camera-find"
        with answering(fifo):
            d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 30, "the look")
        assert len(d.screen.found) == 2  # type: ignore[attr-defined]


@dataclasses.dataclass
class Hung:
    link: Path
    answer: threading.Event  # set: it answers from now on
    opened: int = 0  # times it was opened


@contextmanager
def hung_reads(tmp_path: Path, name: str) -> Iterator[Hung]:
    """A camera plugged in whose reads hang (a USB camera's firmware hung) until it is
    told to answer. (Not a FIFO: OpenCV opens files and FIFOs under one lock, so a FIFO
    that hangs holds up the video files standing in for the other cameras too; a V4L
    camera is opened apart.)"""
    hung = Hung(plug(tmp_path, name, 9), threading.Event())
    grab = _camera_calibrate.grab_frame

    def hanging(source: str, warmup: int = _camera_calibrate.WARMUP_FRAMES) -> Any:
        if source == str(hung.link):
            hung.opened += 1
            hung.answer.wait()
        return grab(source, warmup)

    _camera_calibrate.grab_frame = hanging  # type: ignore[assignment]
    try:
        yield hung
    finally:
        hung.answer.set()
        _camera_calibrate.grab_frame = grab


def opening(link: Path) -> bool:
    """Whether the camera ``link`` is being opened now."""
    opener = camera_find.OPENING.get(str(link))
    return opener is not None and opener.thread.is_alive()


def test_a_camera_that_does_not_answer_is_said_and_the_others_are_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A camera that hangs when read is given ``ANSWER_S`` and shown as not answering;
    the camera after it is found and listed. Looked for again, or the screen left and
    opened again, it is not opened a second time; once it answers, it is."""
    monkeypatch.setattr(camera_find, "ANSWER_S", 1.0)
    with hung_reads(tmp_path, "Aaa") as hung:  # (looked at first)
        plug(tmp_path, "CamB", 2)
        with settings_screen(tmp_path) as d:
            d.press(str(labels(d).index("Find cameras") + 1))
            d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 20, "the look")
            found = d.screen.found  # type: ignore[attr-defined]
            assert [(f.answered, f.picture is not None) for f in found] == [
                (False, False),
                (True, True),
            ]
            assert "does not answer: unplug it, or press 0 later" in d.texts
            d.press("0")
            d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 20, "the look again")
            assert not d.screen.found[0].answered  # type: ignore[attr-defined]
            d.press("/")
            d.press(str(labels(d).index("Find cameras") + 1))
            d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 20, "the look")
            assert not d.screen.found[0].answered  # type: ignore[attr-defined]
            assert hung.opened == 1  # the first look's opener, still waiting on it
            hung.answer.set()
            d.wait_for(lambda: not opening(hung.link), 10, "the camera answered")
            # Its picture is shown as soon as it answers, without a look again.
            d.wait_for(lambda: d.screen.found[0].answered, 5, "the late picture shown")  # type: ignore[attr-defined]
            assert d.screen.found[0].picture is not None  # type: ignore[attr-defined]
            assert "does not answer: unplug it, or press 0 later" not in d.texts
            assert "Camera 1" in d.texts and hung.opened == 1
            d.press("0")
            d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 20, "the look")
            assert [f.answered for f in d.screen.found] == [True, True]  # type: ignore[attr-defined]
            assert hung.opened == 2
            save_and_leave(d)
    assert [Path(c).name for c in saved(tmp_path).devices] == [
        "usb-Acme_Aaa_0001-video-index0",
        "usb-Acme_CamB_0001-video-index0",
    ]


def test_while_cameras_are_slow_to_answer_the_screen_says_which_it_waits_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(camera_find, "ANSWER_S", 1.0)
    with hung_reads(tmp_path, "Aaa"), hung_reads(tmp_path, "Bbb"), settings_screen(tmp_path) as d:
        d.press(str(labels(d).index("Find cameras") + 1))
        d.wait_for(lambda: "Camera 1 of 2: Acme Aaa 0001" in d.app.texts, 5, "the first")
        assert "Looking for cameras..." in d.app.texts
        d.wait_for(lambda: "Camera 2 of 2: Acme Bbb 0001" in d.app.texts, 5, "the second")
        d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 20, "the look")
        assert d.app.texts.count("does not answer: unplug it, or press 0 later") == 2


def test_a_camera_listed_twice_by_two_names_is_listed_once(tmp_path: Path) -> None:
    """By its node and by its link (or by two by-path spellings): either name would
    open it, and the second, finding it busy, would never score."""
    first = plug(tmp_path, "CamA", 1)
    listed_before(
        tmp_path,
        [str(first), os.path.realpath(first)],
        [f"{tmp_path}/mine.json", f"{tmp_path}/again.json"],
    )
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        assert d.screen.twice == [os.path.realpath(first)]  # type: ignore[attr-defined]
        save_and_leave(d)
    camera = saved(tmp_path)
    assert camera.devices == (str(first),)
    assert camera.calibrations == (f"{tmp_path}/mine.json",)


def test_the_files_read_after_the_users_are_the_ones_that_win(tmp_path: Path) -> None:
    user = tmp_path / "conf" / "kiosk.toml"
    user.parent.mkdir()
    user.write_text("", encoding="utf-8")
    other = tmp_path / "bar.toml"
    spelled = tmp_path / "conf" / ".." / "conf" / "kiosk.toml"
    assert read_after(user, [SYSTEM_CONFIG, user, other]) == [other]
    assert read_after(user, [SYSTEM_CONFIG, other]) == [other]  # (no user file yet)
    assert read_after(user, [SYSTEM_CONFIG, SYSTEM_CONFIG]) == [SYSTEM_CONFIG]  # --config /etc/..
    assert read_after(user, [SYSTEM_CONFIG]) == []
    assert read_after(user, [user, spelled]) == []  # --config naming the user's own file


def test_a_listed_video_file_is_not_called_a_camera_not_plugged_in(tmp_path: Path) -> None:
    """A recorded video listed as a camera (a demo, a test rig) is no USB camera to plug
    in: said as such and kept, and ``-`` leaves out only cameras not plugged in."""
    first = plug(tmp_path, "CamA", 1)
    video = tmp_path / "rig.avi"
    video.write_bytes(b"")
    calibrations = [f"{tmp_path}/a.json", f"{tmp_path}/gone.json", f"{tmp_path}/rig.json"]
    listed_before(tmp_path, [str(first), "/dev/video9", str(video)], calibrations)
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        d.settle()
        assert "Listed, not plugged in now: kept (- = leave out): video9 (Camera 2)" in d.texts
        assert "Listed, not a USB camera (a video or a stream): kept: rig.avi (Camera 3)" in d.texts
        assert not any("rig.avi" in t and "plugged in" in t for t in d.texts), d.texts
        d.press("-")  # the camera not plugged in left out; the video stays
        d.settle()
        assert "Listed, not plugged in now: left out (- = keep): video9" in d.texts, d.texts
        assert "Listed, not a USB camera (a video or a stream): kept: rig.avi (Camera 2)" in d.texts
        save_and_leave(d)
    camera = saved(tmp_path)
    assert camera.devices == (str(first), str(video))
    assert camera.calibrations == (f"{tmp_path}/a.json", f"{tmp_path}/rig.json")


def test_with_nothing_to_list_no_toggle_is_offered_for_cameras_not_plugged_in(
    tmp_path: Path,
) -> None:
    # Enter cannot save with no camera plugged in: "- = leave out" would change nothing.
    (tmp_path / "v4l" / "by-id").mkdir(parents=True)
    listed_before(tmp_path, ["/dev/video9"], [f"{tmp_path}/gone.json"])
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        d.settle()
        assert "Listed, not plugged in now: video9 (Camera 1)" in d.texts, d.texts
        assert not any("Enter" in t or "leave out" in t for t in d.texts), d.texts
