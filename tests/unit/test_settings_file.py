"""The user's settings file as the settings screen and Find cameras save it: the values
set, and everything the owner wrote around them (comments, order, blank lines) kept."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.settings_file import put_right, save_cameras, save_settings
from kiosk.toml_edit import set_values
from kiosk.ui.context import Settings

OWNERS_FILE = """\
# The Red Lion's kiosk. Ask Dave before changing anything here.
language = "en"   # the regulars read English

# The cameras over the board, left to right as you face it.
[camera]
devices = [
    "/dev/v4l/by-id/usb-left",   # the one by the door
    "/dev/v4l/by-id/usb-right",
]

[input]
# "auto": the serial board when plugged in, else the cameras
source = "auto"

[league]
name = "Tuesday league"
"""


def _comments(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("#")]


def test_changing_the_volume_keeps_the_owners_comments_and_order(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(OWNERS_FILE, encoding="utf-8")
    save_settings(Settings("en", 60, "auto"), path, only=["volume"])
    text = path.read_text(encoding="utf-8")
    assert text.startswith(OWNERS_FILE)  # all of it, as it was
    assert text[len(OWNERS_FILE) :] == "\n[sound]\nvolume = 60\n"
    assert tomllib.loads(text)["league"] == {"name": "Tuesday league"}


def test_a_value_is_set_on_its_own_line_and_the_comment_after_it_stays(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(OWNERS_FILE, encoding="utf-8")
    save_settings(Settings("uk", 80, "camera"), path, only=["language", "source"])
    text = path.read_text(encoding="utf-8")
    assert 'language = "uk"   # the regulars read English\n' in text
    assert '# "auto": the serial board when plugged in, else the cameras\nsource = "camera"\n' in (
        text
    )
    assert _comments(text) == _comments(OWNERS_FILE)
    assert len(text.splitlines()) == len(OWNERS_FILE.splitlines())


def test_cameras_found_replace_a_list_written_over_several_lines(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(OWNERS_FILE, encoding="utf-8")
    save_cameras(path, ["/dev/v4l/by-id/usb-a", "/dev/v4l/by-id/usb-b"], ["a.json", "b.json"])
    text = path.read_text(encoding="utf-8")
    saved = tomllib.loads(text)
    assert saved["camera"] == {
        "devices": ["/dev/v4l/by-id/usb-a", "/dev/v4l/by-id/usb-b"],
        "calibrations": ["a.json", "b.json"],
    }
    assert saved["league"] == {"name": "Tuesday league"} and saved["language"] == "en"
    # The comments about the cameras above the table stay; the one inside the old list
    # was about a camera no longer listed.
    assert _comments(text) == [c for c in _comments(OWNERS_FILE) if "by the door" not in c]
    assert text.index("devices") < text.index("calibrations") < text.index("[input]")


def test_a_new_top_level_key_goes_above_the_first_table_and_its_comments(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    original = "# The Red Lion\n\n# the sound\n[sound]\nvolume = 40\n"
    path.write_text(original, encoding="utf-8")
    save_settings(Settings("ru", 40, "auto"), path, only=["language"])
    text = path.read_text(encoding="utf-8")
    assert text == '# The Red Lion\n\nlanguage = "ru"\n\n# the sound\n[sound]\nvolume = 40\n'


def test_windows_line_ends_and_a_missing_last_newline_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_bytes(b"# volume set by Dave\r\n[sound]\r\nvolume = 40")
    save_settings(Settings("en", 70, "auto"), path, only=["volume"])
    assert path.read_bytes() == b"# volume set by Dave\r\n[sound]\r\nvolume = 70\r\n"


def test_a_file_saved_with_a_byte_order_mark_is_saved_into_not_refused(tmp_path: Path) -> None:
    # The kiosk reads such a file (Notepad on Windows may write one); saving into it
    # said "not valid TOML".
    path = tmp_path / "kiosk.toml"
    path.write_bytes("\ufeff# set by Dave\n[sound]\nvolume = 40\n".encode())
    save_settings(Settings("en", 50, "auto"), path, only=["volume"])
    assert path.read_text(encoding="utf-8") == "# set by Dave\n[sound]\nvolume = 50\n"


def test_the_short_input_form_and_dotted_keys_are_set_in_place_too(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(
        '# mine\ninput = "virtual"  # demo only\nlanguage = "en" # english\n'
        "sound.volume = 40 # quiet\n",
        encoding="utf-8",
    )
    save_settings(Settings("uk", 70, "camera"), path)
    assert path.read_text(encoding="utf-8") == (
        '# mine\ninput.source = "camera"  # demo only\nlanguage = "uk" # english\n'
        "sound.volume = 70 # quiet\n"
    )
    # a key of a table written dotted is added beside its others; a new table at the end
    dotted = "sound.volume = 40\n# the end\n"
    assert set_values(dotted, [("sound", "mute", True)]) == (
        "sound.volume = 40\nsound.mute = true\n# the end\n"
    )
    path.write_text(dotted, encoding="utf-8")
    save_settings(Settings("en", 40, "auto"), path, only=["source"])
    assert path.read_text(encoding="utf-8") == dotted + '\n[input]\nsource = "auto"\n'


@pytest.mark.parametrize(
    "text",
    [
        'input = "virtual"  # demo\n',  # the short form becomes a table
        "sound.volume = 40  # dotted\n",  # a dotted key
        'sound = {volume = 40, "x y" = 1}\n',  # an inline table
        "[sound]\nvolume = 40\n[sound.extra]\nx = 1\n",  # a dotted table
        "[[players]]\nname = 'A'\n",  # an array of tables
    ],
)
def test_any_layout_is_saved_right_in_place_or_afresh(tmp_path: Path, text: str) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(text, encoding="utf-8")
    before = tomllib.loads(text)
    save_settings(Settings("en", 90, "camera"), path)
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    assert saved["sound"]["volume"] == 90 and saved["input"]["source"] == "camera"
    assert saved["language"] == "en"
    for key, value in before.items():  # what the kiosk does not set is still there
        if key not in ("sound", "input"):
            assert saved[key] == value
    if "sound" in before:
        assert {k: v for k, v in saved["sound"].items() if k != "volume"} == {
            k: v for k, v in before["sound"].items() if k != "volume"
        }


_keys = st.sampled_from(["language", "volume", "source", "devices", "x", "sound volume"])
_tables = st.sampled_from([None, "sound", "input", "camera", "league"])
_values = st.one_of(
    st.integers(-1000, 1000),
    st.text(max_size=8),
    st.booleans(),
    st.lists(st.text(max_size=5), max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(_tables, _keys, _values), max_size=6),
    st.lists(st.tuples(_tables, _keys, _values), min_size=1, max_size=3),
    st.sampled_from(["", "# kept\n", "\n\n"]),
)
def test_set_values_gives_the_file_with_those_values_and_nothing_else_changed(
    start: list[tuple[str | None, str, object]],
    changes: list[tuple[str | None, str, object]],
    lead: str,
) -> None:
    # A file built from ``start``, then the changes set: read back, it is the start's
    # data with the changes; where the edit does not apply it says so (None), never a
    # wrong file.
    text = set_values(lead, start)
    assert text is not None
    want = tomllib.loads(text)
    for table, key, value in changes:
        (want if table is None else want.setdefault(table, {}))[key] = value
    edited = set_values(text, changes)
    if edited is not None:
        assert tomllib.loads(edited) == want
        assert edited.startswith(lead.rstrip("\n"))


def test_a_setting_a_file_read_later_sets_too_is_not_saved_and_says_where(
    tmp_path: Path,
) -> None:
    # Started with --config bar.toml setting the language: a language chosen on the
    # screen was saved, and gone at the next start without a word.
    path = tmp_path / "kiosk.toml"
    path.write_text("# mine\n", encoding="utf-8")
    bar = tmp_path / "bar.toml"
    bar.write_text('language = "en"\ninput = "serial"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=f"{bar} sets language too"):
        save_settings(Settings("uk", 70, "auto"), path, only=["language"], later=[bar])
    with pytest.raises(ValueError, match="sets source too"):
        save_settings(Settings("uk", 70, "camera"), path, only=["source"], later=[bar])
    assert path.read_text(encoding="utf-8") == "# mine\n"
    save_settings(Settings("uk", 70, "auto"), path, only=["volume"], later=[bar])
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {"sound": {"volume": 70}}


def test_a_settings_file_linked_elsewhere_is_saved_through_the_link_keeping_its_mode(
    tmp_path: Path,
) -> None:
    # The owner keeps the file where he edits it (on the SD card's /boot, say) and links
    # it in: a change on the screen replaced the link with a file of its own, so the
    # owner's file no longer counted, and the mode he gave (group may edit) was lost.
    real = tmp_path / "boot" / "kiosk.toml"
    real.parent.mkdir()
    real.write_text("# mine\n[sound]\nvolume = 40\n", encoding="utf-8")
    real.chmod(0o664)
    link = tmp_path / "conf" / "kiosk.toml"
    link.parent.mkdir()
    link.symlink_to(real)
    save_settings(Settings("en", 90, "auto"), link, only=["volume"])
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert real.read_text(encoding="utf-8") == "# mine\n[sound]\nvolume = 90\n"
    assert real.stat().st_mode & 0o777 == 0o664
    assert sorted(p.name for p in link.parent.iterdir()) == ["kiosk.toml"]


def test_a_folder_in_the_settings_files_place_is_refused_and_nothing_is_left_behind(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "kiosk.toml"
    folder.mkdir()
    with pytest.raises(ValueError, match="a folder, not a settings file"):
        save_settings(Settings("en", 90, "auto"), folder, only=["volume"])
    assert [p.name for p in tmp_path.iterdir()] == ["kiosk.toml"] and folder.is_dir()


def test_a_write_that_fails_leaves_the_old_file_and_no_half_written_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    path = tmp_path / "kiosk.toml"
    path.write_text("[sound]\nvolume = 40\n", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        save_settings(Settings("en", 90, "auto"), path, only=["volume"])
    assert path.read_text(encoding="utf-8") == "[sound]\nvolume = 40\n"
    assert [p.name for p in tmp_path.iterdir()] == ["kiosk.toml"]


def test_a_table_written_inline_is_set_in_place_and_the_owners_comments_stay(
    tmp_path: Path,
) -> None:
    # ``input = {source = "auto", port = "..."}``: choosing the input on the screen wrote
    # the whole file afresh, and every comment the owner had written in it was gone.
    path = tmp_path / "kiosk.toml"
    owners = (
        "# The Red Lion: ask Dave first\n"
        'input = { source = "auto", port = "/dev/ttyACM0" }  # the board under the bar\n'
        "\n# quiet after ten\n[sound]\nvolume = 40\n"
    )
    path.write_text(owners, encoding="utf-8")
    save_settings(Settings("en", 40, "camera"), path, only=["source"])
    assert path.read_text(encoding="utf-8") == owners.replace(
        'input = { source = "auto", port = "/dev/ttyACM0" }',
        'input = {source = "camera", port = "/dev/ttyACM0"}',
    )
    path.write_text("sound = {volume = 40, fade = 2} # c\n", encoding="utf-8")
    save_settings(Settings("en", 90, "camera"), path, only=["volume"])
    assert path.read_text(encoding="utf-8") == "sound = {volume = 90, fade = 2} # c\n"


def test_only_the_mistakes_in_the_settings_written_into_that_file_are_put_right(
    tmp_path: Path,
) -> None:
    user, system = tmp_path / "kiosk.toml", tmp_path / "etc.toml"
    mistakes = (
        f"{user}: [sound] volume = 150: must be a whole number from 0 to 100",
        f'{user}: language = "de": must be one of en, uk, ru',
        f'{user}: [input] source = "cameras": must be one of auto, serial, camera, virtual',
        f"{user}: volume: unknown key; allowed: ... (volume goes under [sound])",
        f"{system}: [sound] volume = 150: must be a whole number from 0 to 100",
    )
    assert put_right(mistakes, user, ["volume", "source"]) == (
        mistakes[1], mistakes[3], mistakes[4],
    )  # fmt: skip
    assert put_right(mistakes, user, ["language"]) == mistakes[:1] + mistakes[2:]
