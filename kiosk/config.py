"""Settings: TOML files -> frozen dataclasses, every default built in.

Files are read in order (each optional): ``/etc/darts-kiosk/kiosk.toml``, then
``$XDG_CONFIG_HOME/darts-kiosk/kiosk.toml`` (default ``~/.config``), then an explicit
``--config`` path (which must exist). A later file overrides only the keys it sets.
A wrong key, type or value raises :class:`ConfigError` naming the file, the key and
what is allowed, e.g. ``/etc/darts-kiosk/kiosk.toml: [input] source = "usb": must be one
of auto, serial, camera, virtual``.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.toml_edit import toml_string

APP = "darts-kiosk"
SYSTEM_CONFIG = Path("/etc/darts-kiosk/kiosk.toml")


class ConfigError(ValueError):
    """A settings file is unreadable, or names a key or value that is not allowed."""


# -- the schema: each setting carries its check and its one-line help -----------------


def _setting(
    default: Any,
    help: str,
    *,
    choices: Sequence[Any] = (),
    lo: int | None = None,
    hi: int | None = None,
) -> Any:
    return field(
        default=default, metadata={"help": help, "choices": tuple(choices), "lo": lo, "hi": hi}
    )


@dataclass(frozen=True)
class InputConfig:
    source: str = _setting(
        "auto",
        "where darts come from: auto (serial board if one answers, else cameras if set, "
        "else the virtual board until a board is plugged in), serial, camera, "
        "virtual (a simulated board, for demos)",
        choices=("auto", "serial", "camera", "virtual"),
    )
    port: str = _setting("", 'serial port or pyserial URL, e.g. "/dev/ttyACM0"; "" = find it')
    baud: int = _setting(115200, "serial speed (8N1)", lo=1, hi=4_000_000)
    debounce_ms: int = _setting(
        0, "ignore a repeat of the same hit within this many ms (0 = off)", lo=0, hi=5000
    )
    board_map: str = _setting(
        "", 'file mapping raw matrix contacts to segments ("" = the board sends hits)'
    )


@dataclass(frozen=True)
class CameraConfig:
    devices: tuple[str, ...] = _setting(
        (), 'cameras watching a steel-tip board, e.g. ["/dev/video0", "/dev/video2"]'
    )
    calibrations: tuple[str, ...] = _setting(
        (), "calibration file for each camera, in the same order as devices"
    )

    def calibration_for(self, i: int) -> str:
        """Camera ``i``'s calibration file (0-based, as in ``devices``), or "" when it
        is given none (no entry, or an empty one): the kiosk leaves it out."""
        path = self.calibrations[i] if i < len(self.calibrations) else ""
        return path if path.strip() else ""


@dataclass(frozen=True)
class CricketConfig:
    variant: str = _setting(
        "standard",
        "standard, cut-throat or no-score",
        choices=("standard", "cut-throat", "no-score"),
    )
    round_limit: int = _setting(
        20, "rounds before the most points wins (0 = no limit)", lo=0, hi=999
    )
    single_bull: bool = _setting(False, "inner bull counts 1 mark instead of 2")


@dataclass(frozen=True)
class FormulaConfig:
    rules: str = _setting(
        "classic",
        "classic (points up to the goal) or distance (points = closeness)",
        choices=("classic", "distance"),
    )
    start: int = _setting(501, "score at the start", lo=1, hi=1_000_000)
    goal: int = _setting(100, "target number", lo=1, hi=1_000_000)
    bonus: int = _setting(50, "extra points for hitting the goal exactly", lo=0, hi=1_000_000)
    max_rounds: int = _setting(7, "rounds allowed", lo=1, hi=999)
    time_limit: int = _setting(120, "seconds for a move in each round", lo=1, hi=86_400)


@dataclass(frozen=True)
class DisplayConfig:
    width: int = _setting(0, "window or mode width in pixels (0 = native)", lo=0, hi=16384)
    height: int = _setting(0, "window or mode height in pixels (0 = native)", lo=0, hi=16384)
    fullscreen: bool = _setting(True, "fill the screen (false = a window, for desks)")
    rotation: int = _setting(
        0, "turn the picture for a screen mounted on its side", choices=(0, 90, 180, 270)
    )


@dataclass(frozen=True)
class SoundConfig:
    volume: int = _setting(70, "0 = silent, 100 = loudest", lo=0, hi=100)


@dataclass(frozen=True)
class Config:
    language: str = _setting("en", "en, uk or ru", choices=("en", "uk", "ru"))
    data_dir: str = _setting(
        "",
        'where the games database lives ("" = $STATE_DIRECTORY under systemd, else '
        "$XDG_STATE_HOME/darts-kiosk, else ~/.local/state/darts-kiosk)",
    )
    input: InputConfig = field(default_factory=InputConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    cricket: CricketConfig = field(default_factory=CricketConfig)
    formula: FormulaConfig = field(default_factory=FormulaConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)

    def resolved_data_dir(self, env: Mapping[str, str] = os.environ) -> Path:
        return resolve_data_dir(self.data_dir, env)


SECTIONS: dict[str, type] = {
    "input": InputConfig,
    "camera": CameraConfig,
    "cricket": CricketConfig,
    "formula": FormulaConfig,
    "display": DisplayConfig,
    "sound": SoundConfig,
}
TOP_LEVEL = ("language", "data_dir")


def _home(env: Mapping[str, str]) -> Path:
    home = env.get("HOME")
    return Path(home) if home else Path.home()


def resolve_data_dir(data_dir: str, env: Mapping[str, str] = os.environ) -> Path:
    """The directory for the games database and other state, created by the caller."""
    if data_dir == "~" or data_dir.startswith("~/"):
        return _home(env) / data_dir[2:]
    if data_dir:
        return Path(data_dir)
    # systemd's StateDirectory= sets this; several directories are ':'-separated.
    state_directory = env.get("STATE_DIRECTORY", "")
    if state_directory:
        return Path(state_directory.split(":")[0])
    xdg_state = env.get("XDG_STATE_HOME", "")
    if xdg_state and os.path.isabs(xdg_state):
        return Path(xdg_state) / APP
    return _home(env) / ".local" / "state" / APP


def default_search_paths(env: Mapping[str, str] = os.environ) -> tuple[Path, ...]:
    """The system file, then the user's file (the XDG spec ignores relative values)."""
    xdg = env.get("XDG_CONFIG_HOME", "")
    user_base = Path(xdg) if xdg and os.path.isabs(xdg) else _home(env) / ".config"
    return (SYSTEM_CONFIG, user_base / APP / "kiosk.toml")


# -- loading ---------------------------------------------------------------------------


def _fmt(value: Any) -> str:
    """A value as TOML would spell it, for messages and the defaults file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):  # (a newline from a multi-line string escaped, too)
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{...}"
    return str(value)


def _check(where: str, f: dataclasses.Field[Any], value: Any) -> Any:
    """The value converted to the field's Python type, or ConfigError."""
    meta = f.metadata
    default = f.default
    bad = f"{where} = {_fmt(value)}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{bad}: must be true or false")
        return value
    if isinstance(default, int):
        choices = meta["choices"]
        lo, hi = meta["lo"], meta["hi"]
        whole = "a whole number"
        if lo is not None and hi is not None:
            whole = f"a whole number from {lo} to {hi}"
        elif lo is not None:
            whole = f"a whole number, {lo} or more"
        elif hi is not None:
            whole = f"a whole number, {hi} or less"
        if not isinstance(value, int) or isinstance(value, bool):
            want = "one of " + ", ".join(map(str, choices)) if choices else whole
            raise ConfigError(f"{bad}: must be {want}")
        if choices and value not in choices:
            raise ConfigError(f"{bad}: must be one of {', '.join(map(str, choices))}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ConfigError(f"{bad}: must be {whole}")
        return value
    if isinstance(default, str):
        choices = meta["choices"]
        if not isinstance(value, str) or (choices and value not in choices):
            want = "one of " + ", ".join(choices) if choices else "a string in quotes"
            raise ConfigError(f"{bad}: must be {want}")
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f'{bad}: must be a list of strings, e.g. ["/dev/video0"]')
        return tuple(value)
    raise AssertionError(f"no check for {f.name}")  # a schema bug, not a user error


def _fields(cls: type) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(cls) if f.name not in SECTIONS}


def _read_file(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
        # Notepad's byte order mark: invisible, and TOML has no place for it.
        return tomllib.loads(raw.decode("utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {_not_utf8(exc)}") from None
    except OSError as exc:
        raise ConfigError(
            f"{path}: cannot read: {exc.strerror or exc} (check its owner and permissions:"
            " the kiosk's user must be able to read it)"
        ) from None


def _not_utf8(exc: UnicodeDecodeError) -> str:
    """Where a file is not UTF-8 (a comment saved in Windows' own code page, say), or
    that it is UTF-16 (Notepad's "Unicode"): the line to put right, not the whole file."""
    raw = bytes(exc.object)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "saved as UTF-16: save it as UTF-8"
    line = raw[: exc.start].count(b"\n") + 1
    return f"not UTF-8 text at line {line}: save it as UTF-8"


def _allowed(names: Sequence[str]) -> str:
    return ", ".join(names)


class _Skip:
    """Where ``load_config`` puts the mistakes it steps over (None: it raises them).
    A wrong ``data_dir`` goes to ``data_dir``: raised, unless ``every`` (a check lists
    it with the rest: stopped at it, the check said nothing of the others)."""

    def __init__(self, mistakes: list[str] | None, every: bool = False) -> None:
        self.mistakes = mistakes
        self.every = every

    def __call__(self, error: ConfigError) -> None:
        if self.mistakes is None:
            raise error
        self.mistakes.append(str(error))

    def data_dir(self, error: ConfigError) -> None:
        if not self.every:
            raise error  # never guessed (``load_config``)
        self(error)


def _apply(
    path: Path, data: Mapping[str, Any], merged: dict[str, dict[str, Any]], skip: _Skip
) -> None:
    """Check one file's settings and lay them over ``merged`` (section -> key -> value);
    top-level keys are kept under section "". A wrong one goes to ``skip``."""
    top_fields = _fields(Config)
    for key, value in data.items():
        if key == "input" and isinstance(value, str):
            # issue 8's shorthand: input = "camera" is [input] source = "camera"
            value = {"source": value}
        if key in SECTIONS:
            if not isinstance(value, dict):
                skip(ConfigError(f"{path}: {key} = {_fmt(value)}: must be a [{key}] table"))
                continue
            section_fields = _fields(SECTIONS[key])
            for sub, sub_value in value.items():
                if sub not in section_fields:
                    error = ConfigError(
                        f"{path}: [{key}] {sub}: unknown key; allowed: "
                        f"{_allowed(list(section_fields))}{_belongs(sub)}"
                    )
                    # (``data_dir`` added at the end of the file, in its last table: the
                    # games would be saved elsewhere without it, as for a wrong one)
                    (skip.data_dir if sub == "data_dir" else skip)(error)
                    continue
                try:
                    checked = _check(f"{path}: [{key}] {sub}", section_fields[sub], sub_value)
                except ConfigError as e:
                    skip(e)
                    continue
                merged.setdefault(key, {})[sub] = checked
        elif key in top_fields:
            try:
                checked = _check(f"{path}: {key}", top_fields[key], value)
            except ConfigError as e:
                (skip.data_dir if key == "data_dir" else skip)(e)
                continue
            if (
                key == "data_dir"
                and checked
                and not (checked == "~" or checked.startswith("~/") or os.path.isabs(checked))
            ):
                skip.data_dir(
                    ConfigError(
                        f"{path}: data_dir = {_fmt(value)}: give a full path (/var/lib/...)"
                        " or one from ~/: a relative one would depend on the folder the kiosk"
                        " and each command are started from"
                    )
                )
                continue
            merged.setdefault("", {})[key] = checked
        else:
            skip(
                ConfigError(
                    f"{path}: {key}: unknown key; allowed: "
                    f"{_allowed([*TOP_LEVEL, *(f'[{s}]' for s in SECTIONS)])}{_belongs(key)}"
                )
            )
    cams = merged.get("camera", {})
    here = data.get("camera", {}) if isinstance(data.get("camera"), dict) else {}
    if len(cams.get("calibrations", ())) > len(cams.get("devices", ())) and here:
        cals, devices = len(cams["calibrations"]), len(cams.get("devices", ()))
        if "calibrations" in here:
            problem = (
                f"{path}: [camera] calibrations: {cals} given for {devices} devices;"
                " give at most one per device"
            )
        else:  # this file cut the devices below an earlier file's calibrations
            problem = (
                f"{path}: [camera] devices: {devices} given, but an earlier file sets {cals}"
                " calibrations; give calibrations here too (at most one per device)"
            )
        skip(ConfigError(problem))
        # Stepped over: no calibration is used, rather than one paired with the wrong
        # camera (a wrong score said as right); the cameras then ask to be calibrated.
        cams["calibrations"] = ()


def _belongs(key: str) -> str:
    """Where a setting put in the wrong place goes (a line added at the end of the file
    falls in its last table), for the "unknown key" message; "" for no setting."""
    if key in TOP_LEVEL:
        return (
            f" ({key} goes at the top of the file, above the first [table]: a line below"
            " a [table] is in it)"
        )
    homes = [f"[{name}]" for name, cls in SECTIONS.items() if key in _fields(cls)]
    return f" ({key} goes under {' or '.join(homes)})" if homes else ""


MIN_DISPLAY = (320, 240)  # as the command line's --size


def _check_display(display: dict[str, Any], files: Sequence[Path], skip: _Skip) -> None:
    """[display] width and height: both 0 (the screen's own size) or both given, and
    then no smaller than ``MIN_DISPLAY`` (one given alone was ignored without a word).
    Stepped over: the screen's own size."""
    w, h = display.get("width", 0), display.get("height", 0)
    where = ", ".join(map(str, files)) or "settings"
    if bool(w) != bool(h):
        problem = f"{where}: [display] give both width and height (or 0 for both)"
    elif w and (w < MIN_DISPLAY[0] or h < MIN_DISPLAY[1]):
        problem = (
            f"{where}: [display] {w}x{h}: too small (at least "
            f"{MIN_DISPLAY[0]}x{MIN_DISPLAY[1]}, or 0 for the screen's own size)"
        )
    else:
        return
    skip(ConfigError(problem))
    display.pop("width", None)
    display.pop("height", None)


def found_config_files(
    path: Path | None = None,
    *,
    env: Mapping[str, str] = os.environ,
    search_paths: Sequence[Path] | None = None,
) -> list[Path]:
    """The files load_config reads with these arguments, in order (for the log). One
    in a folder that cannot be entered may be there: it is listed (its reading then
    says "cannot read"; ``Path.is_file`` raised PermissionError)."""
    paths = list(default_search_paths(env) if search_paths is None else search_paths)
    found = [p for p in paths if _kind(p) in ("file", "unknown")]
    return [*found, path] if path is not None else found


def _kind(path: Path) -> str:
    """ "file", "missing", "folder", "other" (a fifo...) or "unknown" (cannot tell)."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError:
        return "unknown"
    if stat.S_ISREG(mode):
        return "file"
    return "folder" if stat.S_ISDIR(mode) else "other"


def load_config(
    path: Path | None = None,
    *,
    env: Mapping[str, str] = os.environ,
    search_paths: Sequence[Path] | None = None,
    mistakes: list[str] | None = None,
    every: bool = False,
) -> Config:
    """Defaults, overlaid by each existing file of ``search_paths`` (default: the system
    and user files), then by ``path``, which must exist when given.

    With a ``mistakes`` list (the kiosk at start: a bar's screen is better on with one
    setting at its default than dark), a wrong setting is stepped over, keeping its
    default or an earlier file's value, and a file that cannot be read (or a folder in
    a settings file's place) is left out; what was stepped over is appended to the
    list. Where the games are saved is not guessed: a wrong ``data_dir``, or a file
    that is not TOML with a ``data_dir`` line, still raises; but with ``every`` too
    (``config --check``: every mistake at once), a wrong ``data_dir`` is listed."""
    skip = _Skip(mistakes, every)
    if path is not None and path.is_dir():
        raise ConfigError(f"{path}: a folder, not a settings file")
    if path is not None and path.exists() and not path.is_file():
        # (/dev/null, a named pipe: there, but no settings file; "no such file" was not
        # true, and a pipe would be read for as long as it is open)
        raise ConfigError(f"{path}: not a regular file (a device or a pipe), not a settings file")
    if path is not None and not path.is_file():
        raise ConfigError(f"{path}: no such file")
    merged: dict[str, dict[str, Any]] = {}
    if mistakes is not None:
        # A folder where a settings file is looked for (made by mistake, or a file
        # copied into it): its settings would be missed without a word.
        for each in default_search_paths(env) if search_paths is None else search_paths:
            kind = _kind(each)
            if kind in ("folder", "other"):
                what = "a folder" if kind == "folder" else "not a regular file"
                skip(ConfigError(f"{each}: {what}, not a settings file: left out"))
    files = found_config_files(path, env=env, search_paths=search_paths)
    for each in files:
        try:
            data = _read_file(each)
        except ConfigError as e:
            if _may_set_data_dir(each):
                raise
            skip(e)
            continue
        _apply(each, data, merged, skip)
    _check_display(merged.setdefault("display", {}), files, skip)
    sections = {name: cls(**merged.get(name, {})) for name, cls in SECTIONS.items()}
    return Config(**merged.get("", {}), **sections)


def set_again(path: Path, env: Mapping[str, str] = os.environ) -> list[str]:
    """The settings of ``path`` that a file the kiosk reads after it sets again, so that
    editing them in ``path`` changes nothing: the system file's, where the user's file
    (in which the Settings screen keeps the language, volume and input chosen on it)
    sets them too. One line each, naming that file and the value the kiosk uses."""
    paths = list(default_search_paths(env))
    at = next((i for i, p in enumerate(paths) if same_path(p, path)), None)
    if at is None:
        return []
    try:
        mine = _keys(_read_file(path))
    except ConfigError:
        return []
    out = []
    for later in paths[at + 1 :]:
        if _kind(later) != "file" or same_path(later, path):
            continue  # (the user's file a link to this one: itself, not a file after it)
        stepped: list[str] = []
        try:
            theirs = _keys(_read_file(later))
            used = load_config(env=env, search_paths=(later,), mistakes=stepped)
        except ConfigError:
            continue  # (not read by the kiosk either: it sets nothing)
        for section, key in sorted(mine & theirs, key=lambda k: (k[0] or "", k[1])):
            name = key if section is None else f"[{section}] {key}"
            if any(f": {name} = " in m or f": {name}:" in m for m in stepped):
                continue  # a mistake there: stepped over, this file's value is used
            try:
                value = getattr(used if section is None else getattr(used, section), key)
            except AttributeError:
                continue
            out.append(
                f"{name} is set again in {later}, which the kiosk reads after this file:"
                f" it uses {_fmt(value)} from there (the Settings screen keeps its changes"
                " there); delete that line there for this file's to be used"
            )
    return out


def _keys(data: Mapping[str, Any]) -> set[tuple[str | None, str]]:
    """The settings a file sets, as (section or None, key)."""
    keys: set[tuple[str | None, str]] = set()
    for key, value in data.items():
        if key == "input" and isinstance(value, str):  # (the short form of source)
            keys.add(("input", "source"))
        elif isinstance(value, dict):
            keys |= {(key, sub) for sub in value}
        else:
            keys.add((None, key))
    return keys


def same_path(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file, through links (else: the same path)."""
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


_DATA_DIR_LINE = re.compile(r"""^\s*["']?data_dir["']?\s*=""", re.MULTILINE)


def _may_set_data_dir(path: Path) -> bool:
    """Whether a file that is not TOML has a ``data_dir = ...`` line (not a comment
    naming it, as the installed defaults file has), in UTF-8 or Notepad's UTF-16.
    A file that cannot be read at all (root's, mode 600) cannot tell: it is left out,
    as the other mistakes are. Refused, it left the screen dark for good (exit 2,
    which the unit does not restart); left out, the games are saved where the other
    settings say until it can be read, and the banner and the log say it was not used."""
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    texts = [raw.decode("utf-8", errors="replace")]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        texts.append(raw.decode("utf-16", errors="replace"))
    return any(_DATA_DIR_LINE.search(text.lstrip("\ufeff")) for text in texts)


# -- the commented defaults file ---------------------------------------------------------


def _comment_lines(text: str, width: int = 88) -> list[str]:
    lines: list[str] = []
    line = "#"
    for word in text.split():
        if len(line) + 1 + len(word) > width and line != "#":
            lines.append(line)
            line = "#"
        line += " " + word
    lines.append(line)
    return lines


def _setting_lines(f: dataclasses.Field[Any], value: Any) -> list[str]:
    return [*_comment_lines(f.metadata["help"]), f"{f.name} = {_fmt(value)}", ""]


def defaults_toml(config: Config | None = None) -> str:
    """A commented TOML file spelling out every setting of ``config`` (default: the
    built-in defaults); loading it back gives the same Config."""
    config = config or Config()
    out = [
        "# darts-kiosk settings. Read in order, later files overriding single keys:",
        f"#   {SYSTEM_CONFIG}",
        "#   $XDG_CONFIG_HOME/darts-kiosk/kiosk.toml (default ~/.config/...)",
        "#   the file given with --config",
        "# Check a file with: darts-kiosk config --check FILE",
        "",
    ]
    for f in _fields(Config).values():
        out += _setting_lines(f, getattr(config, f.name))
    for name, cls in SECTIONS.items():
        out.append(f"[{name}]")
        section = getattr(config, name)
        for f in _fields(cls).values():
            out += _setting_lines(f, getattr(section, f.name))
    return "\n".join(out).rstrip("\n") + "\n"
