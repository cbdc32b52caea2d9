"""The user's settings file, as the settings screen writes it: the language, volume
and input (``save_settings``), and the cameras Settings -> Find cameras lists
(``save_cameras``). Everything else in the file is kept, comments too: the values are
set on their own lines. It is written whole (a power cut leaves the old file or the
new). ``read_after``: the files the kiosk reads after
it, whose settings win over it.
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from kiosk.adapters.files import write_text_atomically
from kiosk.config import SYSTEM_CONFIG, same_path
from kiosk.toml_edit import Change, set_values, toml_key, toml_value
from kiosk.ui.context import Settings

log = logging.getLogger("kiosk.settings")


SETTING_KEYS = {"language": (None, "language"), "volume": ("sound", "volume"),
                "source": ("input", "source")}  # fmt: skip


def save_settings(
    settings: Settings,
    path: Path,
    only: Collection[str] | None = None,
    later: Sequence[Path] = (),
) -> None:
    """Write the settings screen's values (``only`` those named: the ones changed on the
    screen, not one given on the command line such as ``--virtual``) into the user's
    settings file, keeping everything else in it (the file is the config's own format,
    re-read at start). ``ValueError`` if the file is there and not TOML (edited by hand
    while the kiosk runs): left as it is; and for one of the files read ``later``
    (``--config``) that sets one of them itself: the next start would take its value,
    and the change would be gone after a restart without a word."""
    for each in later:
        try:
            theirs = _settings_file(each)
        except (OSError, ValueError):
            continue  # (the kiosk started without it: it sets nothing)
        for name in SETTING_KEYS if only is None else only:
            section, key = SETTING_KEYS[name]
            table = theirs if section is None else theirs.get(section)
            if (isinstance(table, dict) and key in table) or (
                section == "input" and isinstance(table, str)  # (``input = "camera"``)
            ):
                raise ValueError(
                    f"{each} sets {name} too, and is read after {path}: change it there"
                )
    data = _settings_file(path)
    changes: list[Change] = []
    for name in SETTING_KEYS if only is None else only:
        section, key = SETTING_KEYS[name]
        changes.append((section, key, getattr(settings, name)))
        if section is None:
            data[key] = getattr(settings, name)
            continue
        table = data.get(section)
        if not isinstance(table, dict):  # ``input = "virtual"``: the short form of source
            table = {"source": table} if section == "input" and isinstance(table, str) else {}
            data[section] = table
        table[key] = getattr(settings, name)
    _write_settings_file(path, data, changes)


def put_right(mistakes: Sequence[str], path: Path, names: Collection[str]) -> tuple[str, ...]:
    """The settings ``mistakes`` (``load_config``'s) less those the settings screen has
    just put right: a setting ``names`` that it wrote into ``path``, the file the mistake
    was in (the banner said "volume = 150, not used" after the screen had saved 50).
    One in another file stays: that file still has it (``config --check`` says so)."""
    keys = {SETTING_KEYS[name] for name in names}

    def fixed(mistake: str) -> bool:
        where, _, rest = mistake.partition(": ")
        found = re.match(r"(?:\[(\w+)\] )?(\w+) = ", rest)
        return (
            found is not None
            and (found.group(1), found.group(2)) in keys
            and same_path(Path(where), path)
        )

    return tuple(m for m in mistakes if not fixed(m))


def save_cameras(
    path: Path, devices: Sequence[str], calibrations: Sequence[str], later: Sequence[Path] = ()
) -> None:
    """Write the cameras Settings found (``[camera] devices``, and a calibration file
    for each) into the user's settings file, keeping everything else in it. As
    ``save_settings``, ``ValueError`` for a file that is not TOML, and for one of the
    files read ``later`` (``--config``) that lists cameras itself: the next start would
    take those, and the cameras saved would be gone after a restart."""
    for each in later:
        try:
            camera = _settings_file(each).get("camera")
        except (OSError, ValueError):
            continue  # (the kiosk started without it: it sets nothing)
        if isinstance(camera, dict) and ("devices" in camera or "calibrations" in camera):
            raise ValueError(f"{each} lists the cameras, and is read after {path}: list them there")
    data = _settings_file(path)
    table = data.get("camera")
    if not isinstance(table, dict):
        table = data["camera"] = {}
    table["devices"] = list(devices)
    table["calibrations"] = list(calibrations)
    changes: list[Change] = [("camera", "devices", list(devices)),
                             ("camera", "calibrations", list(calibrations))]  # fmt: skip
    _write_settings_file(path, data, changes)


def read_after(settings_file: Path, config_files: Sequence[Path]) -> list[Path]:
    """The settings files read after the user's (a ``--config`` file, the system file
    given as one): what they set wins over what the settings screen saves. Without the
    user's file yet, it would be read after the system file, before the rest."""
    files = list(config_files)
    at = next((i for i, f in enumerate(files) if same_path(f, settings_file)), None)
    if at is None:
        at = 0 if files and same_path(files[0], SYSTEM_CONFIG) else -1
    return [f for f in files[at + 1 :] if not same_path(f, settings_file)]


def _settings_file(path: Path) -> dict[str, Any]:
    """The user's settings file as it is ({} when there is none yet)."""
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a settings file: move it away first")
    if not path.is_file():
        return {}
    try:  # (with a byte-order mark, as Notepad may save it: the config reads it so too)
        return tomllib.loads(path.read_bytes().decode("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path} is not valid TOML ({e}): put it right first") from None


def _write_settings_file(path: Path, data: dict[str, Any], changes: Sequence[Change]) -> None:
    """``data`` into ``path``: the file as it was with ``changes`` set in place, when
    that reads back as ``data``; else written afresh (a layout not edited in place, such
    as ``input = "virtual"`` becoming a table: its comments are not kept then)."""
    text = _edited(path, data, changes)
    if text is None:
        if path.is_file():
            log.info("%s written afresh: its comments are not kept", path)
        text = _written_afresh(data)
    # On the disk, whole, before it replaces the old file: a power cut leaves the old
    # settings or the new, never a torn file that stops the next start. A link (the
    # owner keeps the file where he edits it) is written through, and the file keeps
    # its mode and owner.
    Path(os.path.realpath(path)).parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(path, text)


def _edited(path: Path, data: dict[str, Any], changes: Sequence[Change]) -> str | None:
    if not path.is_file():
        return None
    try:
        old = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    text = set_values(old, changes)
    try:
        return text if text is not None and tomllib.loads(text) == data else None
    except tomllib.TOMLDecodeError:
        return None


def _written_afresh(data: dict[str, Any]) -> str:
    top = [f"{toml_key(k)} = {toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    out = ["# darts-kiosk settings (the settings screen sets its values here)", *top, ""]
    for section, values in data.items():
        if isinstance(values, dict):
            out.append(f"[{toml_key(section)}]")
            out += [f"{toml_key(k)} = {toml_value(v)}" for k, v in values.items()]
            out.append("")
    return "\n".join(out)
