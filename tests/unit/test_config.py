"""Settings files: defaults, layering, and messages that say what is wrong."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kiosk.config import (
    Config,
    ConfigError,
    default_search_paths,
    defaults_toml,
    found_config_files,
    load_config,
    resolve_data_dir,
)
from tests.plain_user import plain_user


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_no_files_at_all_gives_the_built_in_defaults(tmp_path: Path) -> None:
    missing = (tmp_path / "etc.toml", tmp_path / "user.toml")
    config = load_config(search_paths=missing)
    assert config == Config()
    assert config.input.source == "auto"
    assert config.input.baud == 115200
    assert config.formula.start == 501
    assert config.display.fullscreen is True
    assert config.sound.volume == 70


def test_the_printed_defaults_file_loads_back_to_the_defaults(tmp_path: Path) -> None:
    path = write(tmp_path / "kiosk.toml", defaults_toml())
    assert load_config(path, search_paths=()) == Config()


def test_every_setting_in_the_printed_file_has_a_comment_above_it() -> None:
    lines = defaults_toml().splitlines()
    settings = [i for i, line in enumerate(lines) if " = " in line and not line.startswith("#")]
    assert len(settings) == 23
    assert all(lines[i - 1].startswith("#") for i in settings)


def test_a_changed_config_prints_and_reloads_to_the_same_values(tmp_path: Path) -> None:
    source = write(
        tmp_path / "a.toml",
        'language = "uk"\n[camera]\ndevices = ["/dev/video0", "/dev/video2"]\n'
        'calibrations = ["cam0.json"]\n[display]\nrotation = 270\nfullscreen = false\n'
        '[input]\nport = "C:\\\\COM3 \\"x\\""\n',
    )
    config = load_config(source, search_paths=())
    assert config.camera.devices == ("/dev/video0", "/dev/video2")
    assert config.input.port == 'C:\\COM3 "x"'
    again = write(tmp_path / "b.toml", defaults_toml(config))
    assert load_config(again, search_paths=()) == config


def test_later_files_override_only_the_keys_they_set(tmp_path: Path) -> None:
    system = write(tmp_path / "etc" / "kiosk.toml", '[input]\nsource = "serial"\nbaud = 9600\n')
    user = write(tmp_path / "user" / "kiosk.toml", "[input]\nbaud = 57600\n[sound]\nvolume = 5\n")
    explicit = write(tmp_path / "cli.toml", "[sound]\nvolume = 90\n")
    config = load_config(explicit, search_paths=(system, user))
    assert config.input.source == "serial"
    assert config.input.baud == 57600
    assert config.sound.volume == 90
    missing = tmp_path / "none.toml"
    assert found_config_files(explicit, search_paths=(system, missing, user)) == [
        system,
        user,
        explicit,
    ]


def test_input_given_as_a_word_is_the_input_source_as_the_issue_writes_it(
    tmp_path: Path,
) -> None:
    path = write(tmp_path / "kiosk.toml", 'input = "camera"\n')
    assert load_config(search_paths=(path,)).input.source == "camera"


def test_a_wrong_choice_names_the_file_the_key_and_the_allowed_values(tmp_path: Path) -> None:
    path = write(tmp_path / "kiosk.toml", '[input]\nsource = "usb"\n')
    with pytest.raises(ConfigError) as err:
        load_config(search_paths=(path,))
    assert str(err.value) == (
        f'{path}: [input] source = "usb": must be one of auto, serial, camera, virtual'
    )


MISTAKES = [
    ("[sound]\nvolume = 101\n", "[sound] volume = 101: must be a whole number from 0 to 100"),
    ('[sound]\nvolume = "loud"\n', '[sound] volume = "loud": must be a whole number from 0 to'),
    ("[sound]\nvolume = 7.5\n", "[sound] volume = 7.5: must be a whole number from 0 to 100"),
    ("[display]\nrotation = 45\n", "[display] rotation = 45: must be one of 0, 90, 180, 270"),
    ("[display]\nfullscreen = 1\n", "[display] fullscreen = 1: must be true or false"),
    ("[cricket]\nround_limit = true\n", "[cricket] round_limit = true: must be a whole"),
    ('[cricket]\nvariant = "cutthroat"\n', "must be one of standard, cut-throat, no-score"),
    ('language = "de"\n', 'language = "de": must be one of en, uk, ru'),
    ("[input]\nport = 3\n", "[input] port = 3: must be a string in quotes"),
    ('[camera]\ndevices = "/dev/video0"\n', '[camera] devices = "/dev/video0": must be a list'),
    ("[camera]\ndevices = [0]\n", "[camera] devices = [0]: must be a list of strings"),
    ("[input]\nspeed = 9600\n", "[input] speed: unknown key; allowed: source, port, baud"),
    ("[inputs]\nbaud = 9600\n", "inputs: unknown key; allowed: language, data_dir, [input]"),
    ("input = 3\n", "input = 3: must be a [input] table"),
    ('input = "usb"\n', '[input] source = "usb": must be one of auto, serial, camera'),
    ('[camera]\ncalibrations = ["a.json"]\n', "1 given for 0 devices"),
    ("[input\n", "not valid TOML"),
    ("[display]\nwidth = 1280\n", "[display] give both width and height (or 0 for both)"),
    ('data_dir = "games"\n', 'data_dir = "games": give a full path (/var/lib/...) or one'),
    ("[display]\nwidth = 1\nheight = 1\n", "[display] 1x1: too small (at least 320x240"),
]
# Never stepped over: where the games are saved.
STRICT = ("give a full path",)


@pytest.mark.parametrize(("text", "message"), MISTAKES)
def test_each_kind_of_mistake_gets_a_message_that_names_the_file(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path / "kiosk.toml", text)
    with pytest.raises(ConfigError) as err:
        load_config(path, search_paths=())
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


@pytest.mark.parametrize(("text", "message"), MISTAKES)
def test_the_kiosk_steps_over_a_mistake_keeping_the_default_and_saying_what(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path / "kiosk.toml", text)
    mistakes: list[str] = []
    if any(word in message for word in STRICT):
        with pytest.raises(ConfigError, match=re.escape(message)):
            load_config(path, search_paths=(), mistakes=mistakes)
        return
    assert load_config(path, search_paths=(), mistakes=mistakes) == Config()
    assert len(mistakes) == 1 and mistakes[0].startswith(f"{path}: ") and message in mistakes[0]


def test_a_mistake_stepped_over_keeps_an_earlier_files_value_and_the_files_other_settings(
    tmp_path: Path,
) -> None:
    system = write(tmp_path / "etc.toml", '[sound]\nvolume = 40\n[input]\nport = "/dev/ttyACM0"\n')
    user = write(tmp_path / "user.toml", "[sound]\nvolume = 400\n[input]\nbaud = 9600\n")
    mistakes: list[str] = []
    config = load_config(search_paths=(system, user), mistakes=mistakes)
    assert config.sound.volume == 40
    assert (config.input.port, config.input.baud) == ("/dev/ttyACM0", 9600)
    assert mistakes == [f"{user}: [sound] volume = 400: must be a whole number from 0 to 100"]


def test_calibrations_for_a_camera_list_stepped_over_are_not_paired_with_other_cameras(
    tmp_path: Path,
) -> None:
    # devices written as a string: stepped over, so no calibration may be used either
    # (paired with the wrong camera it would score wrong darts as right ones).
    path = write(
        tmp_path / "kiosk.toml", '[camera]\ndevices = "/dev/video0"\ncalibrations = ["c.json"]\n'
    )
    mistakes: list[str] = []
    config = load_config(path, search_paths=(), mistakes=mistakes)
    assert config.camera.devices == () and config.camera.calibrations == ()
    assert "must be a list" in mistakes[0] and "1 given for 0 devices" in mistakes[1]


def test_an_unreadable_file_is_left_out_unless_it_may_say_where_games_are_saved(
    tmp_path: Path,
) -> None:
    good = write(tmp_path / "etc.toml", 'language = "ru"\n')
    torn = write(tmp_path / "user.toml", "[sound]\nvolume = 5")
    torn.write_bytes(b"[sound]\nvolume = 5\n[inp")  # cut short by a power cut
    mistakes: list[str] = []
    config = load_config(search_paths=(good, torn), mistakes=mistakes)
    assert config.language == "ru" and config.sound.volume == Config().sound.volume
    assert len(mistakes) == 1 and "not valid TOML" in mistakes[0]
    torn.write_bytes(b'data_dir = "/srv/darts"\n[inp')
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(search_paths=(good, torn), mistakes=[])
    torn.write_text('data_dir = "/srv/darts"\n[inp', encoding="utf-16")  # Notepad "Unicode"
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(search_paths=(good, torn), mistakes=[])
    # The installed file names data_dir in a comment: a typo elsewhere is stepped over.
    template = "\n".join(f"# {line}" for line in defaults_toml().splitlines())
    torn.write_text(template.replace('# source = "auto"', "source = camera"))
    assert "# data_dir" in torn.read_text()
    mistakes = []
    assert load_config(search_paths=(good, torn), mistakes=mistakes).language == "ru"
    assert len(mistakes) == 1 and "not valid TOML" in mistakes[0]


def test_a_file_the_kiosk_may_not_read_is_left_out_whatever_it_may_set(tmp_path: Path) -> None:
    # Root's, mode 600 (or 000), the kiosk another user: it cannot tell whether the file
    # sets data_dir. Refused, the kiosk stopped with exit 2, which the unit never
    # restarts: a dark screen for good. Left out, the banner and the log say so.
    good = write(tmp_path / "etc.toml", 'language = "ru"\n')
    locked = write(tmp_path / "user.toml", 'data_dir = "/srv/darts"\n[sound]\nvolume = 5\n')
    locked.chmod(0)
    mistakes: list[str] = []
    with plain_user():  # (root reads any file)
        config = load_config(search_paths=(good, locked), mistakes=mistakes)
        assert config.language == "ru" and config.sound.volume == Config().sound.volume
        assert config.data_dir == ""
        assert len(mistakes) == 1, mistakes
        assert mistakes[0].startswith(f"{locked}: cannot read: Permission denied")
        assert "owner and permissions" in mistakes[0]
        with pytest.raises(ConfigError, match="cannot read"):  # the commands: still refused
            load_config(search_paths=(good, locked))


def test_a_settings_folder_the_kiosk_may_not_enter_is_a_mistake_not_a_crash(
    tmp_path: Path,
) -> None:
    # (Path.is_file raised PermissionError: a traceback, exit 1, a restart every 2 s.)
    folder = tmp_path / "darts-kiosk"
    user_file = write(folder / "kiosk.toml", 'language = "uk"\n')
    folder.chmod(0o000)
    mistakes: list[str] = []
    try:
        with plain_user():
            config = load_config(search_paths=(user_file,), mistakes=mistakes)
            with pytest.raises(ConfigError, match="cannot read: Permission denied"):
                load_config(search_paths=(user_file,))  # the commands: a clear refusal
    finally:
        folder.chmod(0o700)
    assert config == Config()
    assert len(mistakes) == 1 and mistakes[0].startswith(f"{user_file}: cannot read")


def test_a_folder_in_a_settings_files_place_is_a_mistake_not_passed_over(tmp_path: Path) -> None:
    folder = tmp_path / "user" / "kiosk.toml"
    folder.mkdir(parents=True)
    mistakes: list[str] = []
    config = load_config(search_paths=(tmp_path / "etc.toml", folder), mistakes=mistakes)
    assert config == Config()
    assert mistakes == [f"{folder}: a folder, not a settings file: left out"]
    # The commands, which read the files for data_dir only, pass over it as before.
    assert load_config(search_paths=(folder,)) == Config()


def test_an_unreadable_file_is_a_config_error_not_a_crash(tmp_path: Path) -> None:
    path = write(tmp_path / "kiosk.toml", "")
    path.write_bytes(b"\xff\xfe language = 1")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path, search_paths=())


def test_an_explicit_file_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "nope.toml", search_paths=())
    with pytest.raises(ConfigError, match="a folder, not a settings file"):
        load_config(tmp_path, search_paths=())


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_bytes(b'\xef\xbb\xbflanguage = "uk"\n')  # Windows Notepad's UTF-8
    assert load_config(path, search_paths=()).language == "uk"


def test_the_user_file_follows_xdg_config_home_or_falls_back_to_dot_config() -> None:
    assert default_search_paths({"XDG_CONFIG_HOME": "/x", "HOME": "/h"}) == (
        Path("/etc/darts-kiosk/kiosk.toml"),
        Path("/x/darts-kiosk/kiosk.toml"),
    )
    assert default_search_paths({"HOME": "/h"})[1] == Path("/h/.config/darts-kiosk/kiosk.toml")
    # The XDG spec says a relative value is invalid and must be ignored.
    assert default_search_paths({"XDG_CONFIG_HOME": "rel", "HOME": "/h"})[1] == Path(
        "/h/.config/darts-kiosk/kiosk.toml"
    )


def test_the_user_file_is_found_through_the_environment(tmp_path: Path) -> None:
    write(tmp_path / "darts-kiosk" / "kiosk.toml", 'language = "ru"\n')
    env = {"XDG_CONFIG_HOME": str(tmp_path), "HOME": "/nonexistent"}
    assert load_config(env=env).language == "ru"


@pytest.mark.parametrize(
    ("data_dir", "env", "expected"),
    [
        ("/srv/darts", {"STATE_DIRECTORY": "/var/lib/darts-kiosk"}, "/srv/darts"),
        ("~/games", {"HOME": "/home/bar"}, "/home/bar/games"),
        (
            "",
            {"STATE_DIRECTORY": "/var/lib/darts-kiosk:/var/lib/x", "HOME": "/h"},
            "/var/lib/darts-kiosk",
        ),
        ("", {"XDG_STATE_HOME": "/xs", "HOME": "/h"}, "/xs/darts-kiosk"),
        ("", {"XDG_STATE_HOME": "relative", "HOME": "/h"}, "/h/.local/state/darts-kiosk"),
        ("", {"HOME": "/h"}, "/h/.local/state/darts-kiosk"),
    ],
)
def test_the_data_directory_comes_from_the_setting_then_systemd_then_xdg(
    data_dir: str, env: dict[str, str], expected: str
) -> None:
    assert resolve_data_dir(data_dir, env) == Path(expected)
    assert Config(data_dir=data_dir).resolved_data_dir(env) == Path(expected)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "config", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_config_command_prints_defaults_and_checks_files(tmp_path: Path) -> None:
    printed = run_cli("--print-defaults")
    assert printed.returncode == 0
    good = write(tmp_path / "good.toml", printed.stdout)
    bad = write(tmp_path / "bad.toml", "[sound]\nvolume = -1\n")
    ok = run_cli("--check", str(good))
    assert (ok.returncode, ok.stdout.strip()) == (0, f"{good}: OK")
    refused = run_cli("--check", str(bad))
    assert refused.returncode == 2
    assert f"{bad}: [sound] volume = -1: must be a whole number from 0 to 100" in refused.stderr


def test_checking_a_file_that_chooses_cameras_but_lists_none_refuses_it(tmp_path: Path) -> None:
    conf = write(tmp_path / "cams.toml", 'input = "camera"\n')
    refused = run_cli("--check", str(conf))
    assert refused.returncode == 2 and "OK" not in refused.stdout
    assert "[camera] devices lists none" in refused.stderr


def test_checking_a_file_loads_its_camera_calibrations(tmp_path: Path) -> None:
    (tmp_path / "cam0.png").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    conf = write(
        tmp_path / "cams.toml",
        f'[camera]\ndevices = ["/dev/video0", "/dev/video2"]\n'
        f'calibrations = ["{tmp_path / "cam0.png"}", "{tmp_path / "none.json"}"]\n',
    )
    refused = run_cli("--check", str(conf))
    assert refused.returncode == 2 and "OK" not in refused.stdout
    assert "camera 1: " in refused.stderr and "cam0.png: this is a picture (PNG)" in refused.stderr
    assert "camera 2: " in refused.stderr and "none.json: cannot read" in refused.stderr


def test_checking_a_file_names_the_cameras_it_gives_no_calibration(tmp_path: Path) -> None:
    """An empty entry, or a device past the last calibration, is a camera the kiosk
    leaves out: the check says so, and does not call "" an unreadable file."""
    good = tmp_path / "cam1.json"
    good.write_text(
        '{"image_size": [1280, 720], "points": ['
        '{"image": [640, 360], "board": [0, 0]}, {"image": [640, 190], "board": [0, 170]},'
        '{"image": [810, 360], "board": [170, 0]}, {"image": [640, 530], "board": [0, -170]},'
        '{"image": [470, 360], "board": [-170, 0]}]}'
    )
    conf = write(
        tmp_path / "cams.toml",
        '[camera]\ndevices = ["/dev/video0", "/dev/video2", "/dev/video4"]\n'
        f'calibrations = ["{good}", ""]\n',
    )
    refused = run_cli("--check", str(conf))
    assert refused.returncode == 2 and "OK" not in refused.stdout
    assert "camera 1" not in refused.stderr
    for n, device in ((2, "/dev/video2"), (3, "/dev/video4")):
        assert f"camera {n} ({device}) has no calibration file" in refused.stderr
    assert "cannot read" not in refused.stderr and "directory" not in refused.stderr
    only_good = write(
        tmp_path / "one.toml", f'[camera]\ndevices = ["/dev/video0"]\ncalibrations = ["{good}"]\n'
    )
    assert run_cli("--check", str(only_good)).returncode == 0


CALIBRATION = (
    '{"image_size": [1280, 720], "points": ['
    '{"image": [640, 360], "board": [0, 0]}, {"image": [640, 190], "board": [0, 170]},'
    '{"image": [810, 360], "board": [170, 0]}, {"image": [640, 530], "board": [0, -170]},'
    '{"image": [470, 360], "board": [-170, 0]}]}'
)


def test_checking_a_file_names_a_camera_file_not_there_or_not_a_video(tmp_path: Path) -> None:
    """A recorded video named as a camera that is not there, or is not a video, was
    called OK; the kiosk then showed the camera "reconnecting" for ever. A camera not
    plugged in (cameras come later) and a network camera are no mistake."""
    import cv2
    import numpy as np

    video = tmp_path / "rig.avi"
    out = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 30, (64, 48))
    for _ in range(3):
        out.write(np.zeros((48, 64, 3), np.uint8))
    out.release()
    notes = write(tmp_path / "notes.txt", "not a video\n")
    missing = tmp_path / "gone.avi"
    cal = write(tmp_path / "cam.json", CALIBRATION)
    devices = [str(video), "/dev/video97", "http://192.0.2.7:8080/video", str(missing), str(notes)]
    conf = write(
        tmp_path / "cams.toml",
        f"[camera]\ndevices = {devices!r}\ncalibrations = {[str(cal)] * len(devices)!r}\n".replace(
            "'", '"'
        ),
    )
    refused = run_cli("--check", str(conf))
    assert refused.returncode == 2 and "OK" not in refused.stdout
    assert refused.stderr.splitlines() == [
        f"darts-kiosk: {conf}: [camera] devices: camera 4: file not found: {missing}: the kiosk "
        "gets no pictures from it (a camera is /dev/videoN, /dev/v4l/by-id/... or its index; "
        "a file is a recorded video)",
        f"darts-kiosk: {conf}: [camera] devices: camera 5: not a video OpenCV can read: {notes}: "
        "the kiosk gets no pictures from it (a camera is /dev/videoN, /dev/v4l/by-id/... or its "
        "index; a file is a recorded video)",
    ]
    fine = write(
        tmp_path / "fine.toml",
        f'[camera]\ndevices = ["{video}", "/dev/video97", "http://192.0.2.7:8080/video"]\n'
        f'calibrations = ["{cal}", "{cal}", "{cal}"]\n',
    )
    ok = run_cli("--check", str(fine))
    assert (ok.returncode, ok.stdout.strip()) == (0, f"{fine}: OK"), ok.stderr


def test_a_later_file_with_fewer_cameras_than_calibrations_is_named_for_its_devices(
    tmp_path: Path,
) -> None:
    system = write(
        tmp_path / "sys.toml",
        '[camera]\ndevices = ["/dev/video0", "/dev/video2"]\ncalibrations = ["a.json", "b.json"]\n',
    )
    user = write(tmp_path / "user.toml", '[camera]\ndevices = ["/dev/video0"]\n')
    with pytest.raises(ConfigError) as err:
        load_config(search_paths=(system, user))
    assert str(err.value).startswith(f"{user}: [camera] devices: 1 given")
    assert "an earlier file sets 2 calibrations" in str(err.value)


def test_checking_a_file_loads_its_board_map(tmp_path: Path) -> None:
    # "board_map = ..." pointing nowhere, or at "{}", was called OK; the kiosk then
    # read the board without its map, and said so only on its banner.
    for text in (None, "{}"):
        mapped = tmp_path / "map.json"
        if text is not None:
            mapped.write_text(text)
        conf = write(tmp_path / "board.toml", f'[input]\nboard_map = "{mapped}"\n')
        refused = run_cli("--check", str(conf))
        assert refused.returncode == 2 and "OK" not in refused.stdout, refused
        assert f"[input] board_map: {mapped}" in refused.stderr, refused.stderr
    mapped.write_text('{"version": 1, "contacts": {"3,7": "T20", "0,1": "S20i"}}')
    ok = run_cli("--check", str(conf))
    assert ok.returncode == 0, ok.stderr


def test_checking_a_file_names_each_mistake_in_its_board_map(tmp_path: Path) -> None:
    # One bad entry was one message without its contact (the kiosk then threw the whole
    # map away); "320" passed, though map2header refuses it. Each is named now, with
    # its contact; the kiosk leaves those out and uses the rest.
    mapped = tmp_path / "map.json"
    mapped.write_text('{"version": 1, "contacts": {"3,7": "T20", "5,5": "320", '
                      '"6,6": "T21", "1,1": "T19", "2,2": "T19"}}')  # fmt: skip
    conf = write(tmp_path / "board.toml", f'[input]\nboard_map = "{mapped}"\n')
    refused = run_cli("--check", str(conf))
    assert refused.returncode == 2 and "OK" not in refused.stdout, refused
    lines = refused.stderr.splitlines()
    for key, why in (("5,5", "write 'T20'"), ("6,6", "'T21' is not a segment")):
        assert any(str(mapped) in line and f"contact '{key}'" in line and why in line
                   for line in lines), (key, lines)  # fmt: skip
    # One segment on two contacts: used (some boards have two pads), and warned of.
    assert "warning" in refused.stderr and "T19 is on contacts 1,1 and 2,2" in refused.stderr
    mapped.write_text('{"version": 1, "contacts": {"1,1": "T19", "2,2": "T19"}}')
    ok = run_cli("--check", str(conf))
    assert ok.returncode == 0 and "T19 is on contacts 1,1 and 2,2" in ok.stderr, ok


def test_config_check_names_every_mistake_and_show_shows_what_the_kiosk_would_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The check stopped at the first mistake: fixed, the next check found the next one.
    # And --show refused a file the kiosk starts with (stepping over the mistakes).
    from kiosk.cli import main

    bad = tmp_path / "kiosk.toml"
    bad.write_text('language = "de"\n[sound]\nvolume = 150\n[input]\nsource = "usb"\n')
    assert main(["config", "--check", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(str(bad) in line for line in err), err
    assert ["language" in err[0], "volume" in err[1], "source" in err[2]] == [True] * 3
    assert main(["config", "--show", "--config", str(bad)]) == 0
    out, err2 = capsys.readouterr()
    shown = tomllib.loads(out)
    default = Config()
    assert shown["language"] == default.language
    assert shown["sound"]["volume"] == default.sound.volume
    assert len(err2.strip().splitlines()) == 3 and "not used" in err2


def test_config_check_names_a_wrong_data_dir_with_the_other_mistakes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A relative data_dir stopped the check there: the typos after it were not said,
    # and the next check (data_dir put right) found them one by one.
    from kiosk.cli import main

    bad = tmp_path / "kiosk.toml"
    bad.write_text('data_dir = "games"\nlanguage = "de"\n[camara]\n[sound]\nvolume = "loud"\n')
    assert main(["config", "--check", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(str(bad) in line for line in err), err
    for line, key in zip(err, ["data_dir", "language", "camara", "volume"], strict=True):
        assert key in line, err
    wrong_type = write(tmp_path / "typed.toml", "data_dir = 5\n[sound]\nvolume = 150\n")
    assert main(["config", "--check", str(wrong_type)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 2
    # The kiosk still refuses to guess where the games go.
    with pytest.raises(ConfigError, match="data_dir"):
        load_config(bad, search_paths=(), mistakes=[])


def test_settings_shown_from_multi_line_strings_load_back(tmp_path: Path) -> None:
    # A value written as a multi-line string ends in a newline: --show printed it
    # inside "..." as it was, a file that is not TOML.
    conf = write(tmp_path / "k.toml", '[input]\nport = """\n/dev/ttyACM0\n"""\n')
    config = load_config(conf, search_paths=())
    assert config.input.port == "/dev/ttyACM0\n"
    shown = write(tmp_path / "shown.toml", defaults_toml(config))
    assert load_config(shown, search_paths=()) == config


def test_a_setting_in_the_wrong_table_says_where_it_goes(tmp_path: Path) -> None:
    # Added at the end of the file with nano, the language fell in the last table:
    # "[sound] language: unknown key; allowed: volume" left the owner puzzled.
    conf = write(
        tmp_path / "k.toml", '[sound]\nvolume = 40\nlanguage = "uk"\n[input]\nvolume = 50\n'
    )
    mistakes: list[str] = []
    load_config(conf, search_paths=(), mistakes=mistakes)
    assert mistakes == [
        f"{conf}: [sound] language: unknown key; allowed: volume (language goes at the top"
        " of the file, above the first [table]: a line below a [table] is in it)",
        f"{conf}: [input] volume: unknown key; allowed: source, port, baud, debounce_ms,"
        " board_map (volume goes under [sound])",
    ]
    top = write(tmp_path / "top.toml", "port = '/dev/ttyACM0'\n")
    with pytest.raises(ConfigError, match=r"port goes under \[input\]"):
        load_config(top, search_paths=())
    # data_dir so misplaced is not stepped over: the games would go elsewhere unsaid
    lost = write(tmp_path / "lost.toml", '[sound]\nvolume = 40\ndata_dir = "/srv/darts"\n')
    with pytest.raises(ConfigError, match=r"\[sound\] data_dir: unknown key"):
        load_config(lost, search_paths=(), mistakes=[])


def test_a_file_not_in_utf8_names_the_line_or_says_it_is_utf16(tmp_path: Path) -> None:
    # "not UTF-8 text" alone: the owner, who wrote "café" in a comment from Windows,
    # could not tell which line, nor that Notepad's "Unicode" is the trouble.
    latin = tmp_path / "latin.toml"
    latin.write_bytes("# the bar\n[sound]\nvolume = 40 # café\n".encode("cp1252"))
    with pytest.raises(ConfigError, match="not UTF-8 text at line 3: save it as UTF-8"):
        load_config(latin, search_paths=())
    wide = tmp_path / "wide.toml"
    wide.write_bytes("[sound]\nvolume = 40\n".encode("utf-16"))
    with pytest.raises(ConfigError, match="saved as UTF-16: save it as UTF-8"):
        load_config(wide, search_paths=())


def test_checking_the_system_file_says_which_of_its_settings_the_users_file_sets_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The owner set the volume on the keypad (kept in the user's file), then edited the
    # system file's volume over SSH: the check said OK, and the restarted kiosk went on
    # at the keypad's volume without a word.
    import kiosk.config
    from kiosk.cli import main

    system = write(tmp_path / "etc" / "kiosk.toml",
                   'language = "ru"\n[sound]\nvolume = 90\n[cricket]\nround_limit = 15\n'
                   'variant = "cut-throat"\n')  # fmt: skip
    user = write(
        tmp_path / "home" / "darts-kiosk" / "kiosk.toml",
        '[sound]\nvolume = 40\n[cricket]\nround_limit = 0\nvariant = "no such"\n',
    )  # (a mistake: stepped over, not said)
    monkeypatch.setattr(kiosk.config, "SYSTEM_CONFIG", system)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home"))
    assert main(["config", "--check", str(system)]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == f"{system}: OK"
    notes = [line for line in err.splitlines() if ": note: " in line]
    assert notes == [
        f"darts-kiosk: {system}: note: [cricket] round_limit is set again in {user}, which the"
        " kiosk reads after this file: it uses 0 from there (the Settings screen keeps its"
        " changes there); delete that line there for this file's to be used",
        f"darts-kiosk: {system}: note: [sound] volume is set again in {user}, which the kiosk"
        " reads after this file: it uses 40 from there (the Settings screen keeps its"
        " changes there); delete that line there for this file's to be used",
    ]
    # The user's own file, or another, is read last: nothing read after it to say
    assert main(["config", "--check", str(user)]) == 2
    assert ": note: " not in capsys.readouterr().err


def test_a_system_file_that_is_also_the_users_is_not_said_to_be_set_again_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The user's file a link to the system file (or XDG_CONFIG_HOME=/etc): one file,
    # read twice, and the check said each of its settings was set again in itself.
    import kiosk.config
    from kiosk.cli import main

    system = write(tmp_path / "etc" / "darts-kiosk" / "kiosk.toml", "[sound]\nvolume = 90\n")
    (tmp_path / "home" / "darts-kiosk").mkdir(parents=True)
    (tmp_path / "home" / "darts-kiosk" / "kiosk.toml").symlink_to(system)
    monkeypatch.setattr(kiosk.config, "SYSTEM_CONFIG", system)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home"))
    assert main(["config", "--check", str(system)]) == 0
    assert ": note: " not in capsys.readouterr().err
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "etc"))  # the very same path
    assert main(["config", "--check", str(system)]) == 0
    assert ": note: " not in capsys.readouterr().err
