"""The settings screen in the real kiosk, headless: with cameras in the config it opens
the calibration screen on a picture from the camera, and comes back when done."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from kiosk_support import kiosk_on_board, kiosk_on_virtual_board, text_sizes

from kiosk.adapters.camera.calibration import Calibration
from kiosk.config import CameraConfig, Config, SoundConfig
from kiosk.ui.driver import Driver
from kiosk.ui.screen import Click
from kiosk.ui.screens.camera_calibrate import TARGETS

SCALE, CENTRE = 1.1, (320.0, 240.0)  # the picture: the board seen straight on


def board_to_image(x: float, y: float) -> tuple[float, float]:
    return (CENTRE[0] + SCALE * x, CENTRE[1] - SCALE * y)


def camera_picture(path: Path) -> str:
    """A still "camera" (OpenCV opens a picture file as it opens a video)."""
    img = np.full((480, 640, 3), 40, np.uint8)
    cv2.circle(img, (320, 240), round(170 * SCALE), (220, 220, 220), 3)
    cv2.imwrite(str(path), img)
    return str(path)


def to_settings(d: Driver) -> None:
    d.press("\n")  # attract -> main menu
    d.press("4")
    assert d.screen.name == "settings"


def test_a_camera_is_calibrated_from_the_settings_screen(tmp_path: Path) -> None:
    out = tmp_path / "cam0.json"
    camera = CameraConfig(devices=(camera_picture(tmp_path / "cam.png"),), calibrations=(str(out),))
    with kiosk_on_board(tmp_path, config=Config(camera=camera)) as (d, _board):
        to_settings(d)
        assert "Calibrate camera 1" in d.texts
        d.press("4")
        assert d.screen.name == "camera-calibrate"
        screen = d.screen
        for target in TARGETS[:-1]:
            x, y = screen.image_to_screen(board_to_image(*target.board))  # type: ignore[attr-defined]
            d.click((round(x), round(y)))
        x, y = screen.image_to_screen(board_to_image(*TARGETS[-1].board))  # type: ignore[attr-defined]
        d.running.inbox.put(Click((round(x), round(y))), source="mouse")
        d.app.step(0)  # the marks' check said on screen: the kiosk's loop wakes to run it
        assert "Checking the marks against the board's rings..." in d.texts
        assert screen.wake_at() is not None and screen.wake_at() <= time.monotonic()
        d.settle()
        assert "Do the rings, wires and numbers match the board?" in d.texts
        d.press("\n")  # save
        assert out.is_file()
        if d.screen.name == "camera-calibrate":  # (its "saved" shows a moment)
            d.press("/")  # leaving at once: no word of "nothing is saved"
            assert not any("nothing is saved" in t for t in d.texts), d.texts
        d.wait_for(lambda: d.screen.name == "settings", timeout=5, what="back to the settings")
        cal = Calibration.load(out)
        seen = cal.image_to_board(np.array([board_to_image(100.0, -50.0)]))[0]
        assert abs(seen[0] - 100.0) < 2.0 and abs(seen[1] + 50.0) < 2.0


def test_quitting_the_calibration_writes_nothing_and_comes_back(tmp_path: Path) -> None:
    out = tmp_path / "cam0.json"
    camera = CameraConfig(devices=(camera_picture(tmp_path / "cam.png"),), calibrations=(str(out),))
    with kiosk_on_board(tmp_path, config=Config(camera=camera)) as (d, _board):
        to_settings(d)
        d.press("4")
        assert d.screen.name == "camera-calibrate"
        d.press("/")
        d.wait_for(lambda: d.screen.name == "settings", what="back to the settings")
        assert not out.exists()


def test_a_camera_with_no_picture_or_no_file_is_refused_with_a_message(tmp_path: Path) -> None:
    camera = CameraConfig(
        devices=(str(tmp_path / "unplugged.png"), camera_picture(tmp_path / "cam.png")),
        calibrations=(str(tmp_path / "cam0.json"),),
    )
    with kiosk_on_board(tmp_path, config=Config(camera=camera)) as (d, _board):
        to_settings(d)
        d.press("4")
        assert d.screen.name == "settings"
        assert f"No picture from the camera: {tmp_path / 'unplugged.png'}" in d.texts
        d.press("5")  # camera 2: no calibration file named for it
        assert d.screen.name == "settings"
        assert "No calibration file for this camera in the config" in d.texts


def test_a_calibration_file_that_cannot_be_written_is_said_before_any_point_is_marked(
    tmp_path: Path,
) -> None:
    # /proc takes no new file, not even from root (the permission bits are not all).
    out = "/proc/darts-kiosk-cam0.json"
    camera = CameraConfig(devices=(camera_picture(tmp_path / "cam.png"),), calibrations=(out,))
    with kiosk_on_board(tmp_path, config=Config(camera=camera)) as (d, _board):
        to_settings(d)
        d.press("4")
        assert d.screen.name == "settings"
        assert f"The calibration file cannot be written: {out}" in d.texts, d.texts


def test_without_cameras_the_settings_offer_no_calibration(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        to_settings(d)
        assert not any(t.startswith("Calibrate camera") for t in d.texts)
        assert "Back" in d.texts


@contextmanager
def _kiosk_with_mistakes(tmp_path: Path, config: Config, mistakes: list[str]) -> Iterator[Driver]:
    """The kiosk started on ``config``, the settings ``mistakes`` on its banner."""
    from kiosk.bootstrap import Options, build

    options = Options(window=True, size=(1280, 720), virtual=True, env={},
                      data_dir=tmp_path / "data", settings_mistakes=tuple(mistakes))  # fmt: skip
    running = build(options, config)
    try:
        d = Driver(running)
        d.settle()
        yield d
    finally:
        running.close()


def said_not_saved(d: Driver, why: str) -> bool:
    """ "Not saved" and ``why`` at the foot of the screen (on two lines when long)."""
    shown = " ".join(d.texts)
    return "Not saved: " in shown and why in shown.partition("Not saved: ")[2]


def _kiosk_with_settings_file(tmp_path: Path, text: str) -> tuple[Any, Path]:
    from kiosk.bootstrap import Options, build

    path = tmp_path / "kiosk.toml"
    path.write_text(text, encoding="utf-8")
    options = Options(window=True, size=(1280, 720), virtual=True, env={},
                      data_dir=tmp_path / "data", settings_file=path)  # fmt: skip
    return build(options, Config()), path


def test_the_settings_screen_saves_what_was_changed_not_the_command_lines_board(
    tmp_path: Path,
) -> None:
    # Started with --virtual for a demo; the owner's file says "auto". Turning the
    # volume up must not make the virtual board the owner's choice for every start.
    running, path = _kiosk_with_settings_file(tmp_path, '[input]\nsource = "auto"\n')
    try:
        d = Driver(running)
        to_settings(d)
        d.pad("2+\n")  # the volume: one step up, and back
    finally:
        running.close()
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    assert saved["input"] == {"source": "auto"}
    assert saved["sound"]["volume"] == 80 and "language" not in saved


def test_the_owners_comments_in_the_settings_file_outlive_a_change_on_the_screen(
    tmp_path: Path,
) -> None:
    owners = '# Ask Dave first.\n[input]\nsource = "auto"  # board, else cameras\n'
    running, path = _kiosk_with_settings_file(tmp_path, owners)
    try:
        d = Driver(running)
        to_settings(d)
        d.pad("2+\n")
    finally:
        running.close()
    assert path.read_text(encoding="utf-8") == owners + "\n[sound]\nvolume = 80\n"


def test_a_settings_file_using_the_short_input_form_is_saved_not_crashed_on(
    tmp_path: Path,
) -> None:
    running, path = _kiosk_with_settings_file(tmp_path, 'input = "virtual"\n')
    try:
        d = Driver(running)
        to_settings(d)
        d.pad("2+\n")
        assert d.kiosk.running and d.screen.name == "settings"
    finally:
        running.close()
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    assert saved["input"] == "virtual" and saved["sound"]["volume"] == 80
    # And when the source itself is saved, the short form becomes the table.
    from kiosk.settings_file import save_settings
    from kiosk.ui.context import Settings

    save_settings(Settings("uk", 80, "camera"), path)
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    assert saved == {"language": "uk", "input": {"source": "camera"}, "sound": {"volume": 80}}


def test_a_settings_file_broken_by_hand_is_left_alone_and_the_screen_says_not_saved(
    tmp_path: Path,
) -> None:
    running, path = _kiosk_with_settings_file(tmp_path, "")
    try:
        d = Driver(running)
        to_settings(d)
        path.write_text("[sound\nvolume = 50\n", encoding="utf-8")  # edited while it runs
        d.pad("2+")
        assert d.kiosk.running and d.screen.name == "volume"
        assert said_not_saved(d, "not valid TOML"), d.texts
        d.pad("\n")
        assert d.screen.name == "settings"
        assert said_not_saved(d, "not valid TOML"), d.texts
    finally:
        running.close()
    assert path.read_text(encoding="utf-8") == "[sound\nvolume = 50\n"


def test_a_dart_while_the_date_screen_is_open_over_a_match_goes_to_the_match(
    tmp_path: Path,
) -> None:
    from kiosk_support import start_game
    from test_league_screens import kiosk

    with kiosk(tmp_path, clock_setting=True) as d:
        start_game(d)
        d.throw("T20")
        d.press("/")  # the pause menu
        d.press("7")  # Settings
        assert d.screen.name == "settings"
        d.press("4")  # Date and time
        assert d.screen.name == "date-time"
        d.throw("S18")  # Anna's second dart lands meanwhile
        assert d.screen.name == "cricket"
        assert [str(x) for x in d.game().game.darts_this_turn] == ["T20", "S18"]


def test_a_settings_mistake_is_stepped_over_with_a_banner_and_the_rest_of_the_file_used(
    tmp_path: Path,
) -> None:
    # An owner's typo (volume 150, a misspelt key) over SSH: the bar's screen comes on,
    # says what was not used, and the file's other settings hold.
    from kiosk.config import load_config

    path = tmp_path / "kiosk.toml"
    path.write_text('language = "uk"\n[sound]\nvolume = 150\n[cricket]\nround_limt = 15\n')
    mistakes: list[str] = []
    config = load_config(path, search_paths=(), mistakes=mistakes)
    assert config.language == "uk" and config.sound.volume == Config().sound.volume
    assert len(mistakes) == 2 and "volume = 150" in mistakes[0] and "round_limt" in mistakes[1]
    with _kiosk_with_mistakes(tmp_path, config, mistakes) as d:
        shown = " ".join(d.texts)  # (the banner takes two lines)
        # Which setting, as the file writes it; the file's path and the English
        # explanation are in the log.
        said = "Помилки в налаштуваннях, не враховано: [sound] volume = 150 і ще 1 (див. журнал)"  # noqa: RUF001
        assert said in shown, d.texts
        assert str(path) not in shown and "must be" not in shown
        d.press("\n")  # and the kiosk is played as usual
        assert d.screen.name == "main-menu"


def test_a_settings_file_the_kiosk_may_not_read_is_left_out_with_a_banner(
    tmp_path: Path,
) -> None:
    # Root's, mode 600, the kiosk another user: "cannot read" on stderr, exit 2, and a
    # dark screen for good (the unit does not restart an exit 2).
    from kiosk.config import load_config
    from tests.plain_user import plain_user

    path = tmp_path / "kiosk.toml"
    path.write_text('language = "uk"\ndata_dir = "/srv/darts"\n')
    path.chmod(0o000)
    mistakes: list[str] = []
    with plain_user():  # (root reads any file)
        config = load_config(search_paths=(path,), mistakes=mistakes)
    with _kiosk_with_mistakes(tmp_path, config, mistakes) as d:
        shown = " ".join(d.texts)
        assert "Settings mistake, not used: kiosk.toml (see the log)" in shown, d.texts
        d.press("\n")  # the kiosk comes on, in English (the file's language not read)
        assert d.screen.name == "main-menu"


def test_a_file_with_settings_stepped_over_is_saved_as_toml_that_reads_back(
    tmp_path: Path,
) -> None:
    # The kiosk started despite these (a banner said so); the Settings screen then
    # saves the volume, and must write back what it did not understand as it was.
    from kiosk.settings_file import save_settings
    from kiosk.ui.context import Settings

    path = tmp_path / "kiosk.toml"
    text = (
        '"sound volume" = 50\n[sound]\nvolume = 60\nfade = {in = 1, "out ms" = "2\\"x"}\n'
        'when = 2024-01-02\n[input]\nport = "a\\tb"\n'
    )
    path.write_text(text, encoding="utf-8")
    before = tomllib.loads(text)
    save_settings(Settings("en", 80, "auto"), path, ["volume"])
    after = tomllib.loads(path.read_text(encoding="utf-8"))
    before["sound"]["volume"] = 80
    assert after == before


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_a_long_setting_value_beside_a_short_label_is_drawn_at_the_rows_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    # "◀ віртуальна мішень (миша) ▶" had 40% of the row and shrank to half its size at
    # 800x480, beside "Введення", which left the rest of the row empty.
    sizes = text_sizes(monkeypatch)
    with kiosk_on_virtual_board(tmp_path, size=(800, 480)) as d:
        d.kiosk.set_language(language)
        to_settings(d)
        t = d.kiosk.t
        value = f"\u25c0 {t('virtual board (mouse)')} \u25b6"
        assert value in d.texts, d.texts
        assert sizes[value] >= sizes[t("Input")] * 0.95, (sizes[value], sizes[t("Input")])


def test_the_volume_goes_down_as_well_as_up_from_a_keypad_without_passing_full(
    tmp_path: Path,
) -> None:
    # Its line only stepped up, round from 100 % to 0: a keypad with NumLock on has no
    # arrow, so 70 % to 60 % went through 80, 90 and 100 %, each with its test sound.
    running, path = _kiosk_with_settings_file(tmp_path, "[sound]\nvolume = 70\n")
    played: list[int] = []
    try:
        d = Driver(running)
        sound = d.kiosk.sound
        real = sound.play

        def play(name: str) -> None:
            played.append(d.kiosk.settings.volume)
            real(name)

        sound.play = play  # type: ignore[method-assign]
        to_settings(d)
        d.pad("2")  # the volume's line: its own screen
        assert d.screen.name == "volume" and "70%" in d.texts, d.texts
        assert "+ louder, - quieter, 0-9 = 0-90 %, * = 100 %, Enter = done" in d.texts
        d.pad("-")
        assert d.kiosk.settings.volume == 60 and played == [60]
        d.pad("3")  # a digit: that tenth
        d.pad("*")  # full
        d.pad("+")  # no further than full: no sound either
        d.pad("0")  # off
        d.pad("-")
        assert played == [60, 30, 100, 0] and "off" in d.texts
        d.pad("5\n")  # 50 %, and back to the list, which says so
        assert d.screen.name == "settings" and "◀ 50% ▶" in d.texts, d.texts
    finally:
        running.close()
    assert tomllib.loads(path.read_text(encoding="utf-8"))["sound"]["volume"] == 50


def test_the_arrows_on_the_volume_line_stop_at_full_and_at_off(tmp_path: Path) -> None:
    # They came round: right at 100 % was silence, left at off was full volume.
    with kiosk_on_virtual_board(tmp_path) as d:
        to_settings(d)
        assert d.kiosk.settings.volume == 70
        d.key("down")  # the volume's line
        for _ in range(4):
            d.key("right")
        assert d.kiosk.settings.volume == 100 and "◀ 100%" in d.texts, d.texts  # no ▶
        for _ in range(11):
            d.key("left")
        assert d.kiosk.settings.volume == 0 and "off ▶" in d.texts, d.texts  # no ◀


def test_a_volume_typed_into_the_config_steps_to_the_tenths_beside_it(tmp_path: Path) -> None:
    # 75 % was shown as a bare "75", and a step right went to 10 %.
    config = Config(sound=SoundConfig(volume=75))
    with kiosk_on_board(tmp_path, config=config) as (d, _board):
        to_settings(d)
        assert "◀ 75% ▶" in d.texts, d.texts
        d.key("down")
        d.key("right")
        assert d.kiosk.settings.volume == 80
        d.key("left")
        d.key("left")
        assert d.kiosk.settings.volume == 60  # 75 % was only the starting point


def test_the_volume_screen_takes_the_mouse_and_gives_way_to_the_attract_screen_when_left(
    tmp_path: Path,
) -> None:
    import time

    from kiosk.ui.screens.menu import MENU_IDLE_S

    with kiosk_on_virtual_board(tmp_path) as d:
        to_settings(d)
        d.click(d.rect_of("Volume").center)  # a mouse-only user
        assert d.screen.name == "volume"
        d.click(d.rect_of("- quieter").center)
        assert d.kiosk.settings.volume == 60
        d.click(d.rect_of("+ louder").center)
        d.click(d.rect_of("+ louder").center)
        assert d.kiosk.settings.volume == 80
        d.click(d.rect_of("Done").center)
        assert d.screen.name == "settings"
        d.click(d.rect_of("Volume").center)
        assert d.screen.name == "volume"
        d.screen.update(time.monotonic() + MENU_IDLE_S + 1)  # left there all night
        d.settle()
        assert d.screen.name == "attract"


def test_a_change_a_config_file_read_later_would_undo_is_said_not_saved(
    tmp_path: Path,
) -> None:
    from kiosk.bootstrap import Options, build

    path = tmp_path / "kiosk.toml"
    path.write_text("# mine\n", encoding="utf-8")
    bar = tmp_path / "bar.toml"  # --config bar.toml: read after the user's file
    bar.write_text("[sound]\nvolume = 40\n", encoding="utf-8")
    options = Options(window=True, size=(1280, 720), virtual=True, env={},
                      data_dir=tmp_path / "data", settings_file=path)  # fmt: skip
    running = build(options, Config(), (path, bar))
    try:
        d = Driver(running)
        to_settings(d)
        d.pad("2+")
        assert said_not_saved(d, "sets it too"), d.texts
    finally:
        running.close()
    assert path.read_text(encoding="utf-8") == "# mine\n"


def test_a_settings_mistake_put_right_on_the_screen_leaves_the_banner(tmp_path: Path) -> None:
    # volume = 150 typed over SSH; the owner then sets the volume on the keypad: the
    # file says 50, and the banner no longer says 150 is not used. The misspelt key,
    # which the screen does not touch, is still said.
    from kiosk.bootstrap import Options, build
    from kiosk.config import load_config

    path = tmp_path / "kiosk.toml"
    path.write_text("[sound]\nvolume = 150\n[cricket]\nround_limt = 15\n", encoding="utf-8")
    mistakes: list[str] = []
    config = load_config(search_paths=(path,), mistakes=mistakes)
    options = Options(window=True, size=(1280, 720), virtual=True, env={},
                      data_dir=tmp_path / "data", settings_file=path,
                      settings_mistakes=tuple(mistakes))  # fmt: skip
    running = build(options, config, (path,))
    try:
        d = Driver(running)
        d.settle()
        assert "Settings mistakes, not used: [sound] volume = 150 and 1 more (see the log)" in (
            d.texts
        )
        to_settings(d)
        d.press("2")  # the volume's screen
        d.press("5\n")
        assert d.screen.name == "settings"
        assert tomllib.loads(path.read_text(encoding="utf-8"))["sound"]["volume"] == 50
        assert not any("volume = 150" in t for t in d.texts), d.texts
        assert "Settings mistake, not used: [cricket] round_limt (see the log)" in d.texts
    finally:
        running.close()
    again: list[str] = []
    load_config(search_paths=(path,), mistakes=again)
    assert [m.split(": ")[1] for m in again] == ["[cricket] round_limt"]


@pytest.mark.parametrize(
    ("language", "said"),
    [("uk", "теж задає це налаштування й читається пізніше: змініть його там"),
     ("ru", "тоже задаёт эту настройку и читается позже: измените её там")],
)  # fmt: skip
def test_not_saved_is_said_in_the_kiosks_language_at_a_size_read_from_the_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, said: str
) -> None:
    # At 800x480 in Ukrainian it was "Not saved" in Ukrainian, then "/tmp/.../bar.toml
    # sets volume too, and is read after /tmp/.../kiosk.toml: change it there" in
    # English, all drawn at 11 px.
    from kiosk.bootstrap import Options, build
    from kiosk.ui import theme

    sizes = text_sizes(monkeypatch)
    path = tmp_path / "kiosk.toml"
    path.write_text("# mine\n", encoding="utf-8")
    bar = tmp_path / "bar.toml"  # --config bar.toml: read after the user's file
    bar.write_text("[sound]\nvolume = 40\n", encoding="utf-8")
    options = Options(window=True, size=(800, 480), virtual=True, env={},
                      data_dir=tmp_path / "data", settings_file=path)  # fmt: skip
    running = build(options, Config(language=language), (path, bar))
    try:
        d = Driver(running)
        to_settings(d)
        for keys in ("2+", "\n"):  # the volume's screen, then the settings under it
            d.pad(keys)
            shown = " ".join(t for t in d.texts if t.strip())
            assert str(bar) in shown and said in shown, d.texts
            assert "read after" not in shown and str(path) not in shown
            lines = [t for t in d.texts if str(bar) in t or said.split()[-1] in t]
            assert all(sizes[t] >= theme.SMALL for t in lines), [sizes[t] for t in lines]
    finally:
        running.close()
