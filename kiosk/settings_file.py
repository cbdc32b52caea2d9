"""The user's settings file, as the settings screen writes it: the language, volume
and input (``save_settings``), and the cameras Settings -> Find cameras lists
(``save_cameras``). Everything else in the file is kept; it is written whole (a power
cut leaves the old file or the new). ``read_after``: the files the kiosk reads after
it, whose settings win over it.
"""

from __future__ import annotations

import datetime
import os
import tomllib
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from kiosk.config import SYSTEM_CONFIG
from kiosk.ui.context import Settings


def _toml_value(value: Any) -> str:
    """``value`` as TOML writes it: what the file held (a setting the kiosk stepped over
    too, an inline table, a date) is written back as it was read."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return _toml_string(str(value))


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(
        f"\\u{ord(c):04x}" if (c < " " and c != "\t") or c == "\x7f" else c for c in escaped
    )
    return f'"{escaped}"'


def _toml_key(key: str) -> str:
    """A bare key (``volume``), or quoted when it is not one (``"sound volume"``)."""
    return (
        key
        if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
        else _toml_string(key)
    )


SETTING_KEYS = {"language": (None, "language"), "volume": ("sound", "volume"),
                "source": ("input", "source")}  # fmt: skip


def save_settings(settings: Settings, path: Path, only: Collection[str] | None = None) -> None:
    """Write the settings screen's values (``only`` those named: the ones changed on the
    screen, not one given on the command line such as ``--virtual``) into the user's
    settings file, keeping everything else in it (the file is the config's own format,
    re-read at start). ``ValueError`` if the file is there and not TOML (edited by hand
    while the kiosk runs): left as it is."""
    data = _settings_file(path)
    for name in SETTING_KEYS if only is None else only:
        section, key = SETTING_KEYS[name]
        if section is None:
            data[key] = getattr(settings, name)
            continue
        table = data.get(section)
        if not isinstance(table, dict):  # ``input = "virtual"``: the short form of source
            table = {"source": table} if section == "input" and isinstance(table, str) else {}
            data[section] = table
        table[key] = getattr(settings, name)
    _write_settings_file(path, data)


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
    _write_settings_file(path, data)


def read_after(settings_file: Path, config_files: Sequence[Path]) -> list[Path]:
    """The settings files read after the user's (a ``--config`` file, the system file
    given as one): what they set wins over what the settings screen saves. Without the
    user's file yet, it would be read after the system file, before the rest."""
    files = list(config_files)
    at = next((i for i, f in enumerate(files) if _same_file(f, settings_file)), None)
    if at is None:
        at = 0 if files and _same_file(files[0], SYSTEM_CONFIG) else -1
    return [f for f in files[at + 1 :] if not _same_file(f, settings_file)]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


def _settings_file(path: Path) -> dict[str, Any]:
    """The user's settings file as it is ({} when there is none yet)."""
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path} is not valid TOML ({e}): put it right first") from None


def _write_settings_file(path: Path, data: dict[str, Any]) -> None:
    top = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    out = ["# darts-kiosk settings (the settings screen rewrites this file)", *top, ""]
    for section, values in data.items():
        if isinstance(values, dict):
            out.append(f"[{_toml_key(section)}]")
            out += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in values.items()]
            out.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    # On the disk before it replaces the old file, and the rename too: a power cut
    # leaves the old settings or the new, never a torn file that stops the next start.
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write("\n".join(out))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
