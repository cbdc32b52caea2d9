"""``darts-kiosk config``: print the commented defaults, or check a settings file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk.config import Config, ConfigError, defaults_toml, load_config, set_again

NAME = "config"
HELP = "print the default settings file, or check one"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--print-defaults",
        action="store_true",
        help="print a commented kiosk.toml with every setting at its default",
    )
    what.add_argument(
        "--check",
        metavar="FILE",
        type=Path,
        help="check FILE alone (not the system or user files) and say what is wrong",
    )
    what.add_argument(
        "--show",
        action="store_true",
        help="print the settings in effect (system file, user file, then --config)",
    )
    parser.add_argument("--config", type=Path, help="with --show: the file read last")


def run(args: argparse.Namespace) -> int:
    try:
        if args.print_defaults:
            sys.stdout.write(defaults_toml())
        elif args.check is not None:
            # Every mistake at once, as the kiosk finds them at start (each names the
            # file), not the first alone: fixed, the next check would find the next.
            mistakes: list[str] = []
            config = load_config(args.check, search_paths=(), mistakes=mistakes, every=True)
            problems = mistakes + [
                f"{args.check}: {problem}"
                for problem in (
                    _board_map_problems(config)
                    + _camera_source_problems(config)
                    + _calibration_problems(config)
                )
            ]
            for warning in _board_map_warnings(config):
                print(f"darts-kiosk: {args.check}: warning: {warning}", file=sys.stderr)
            # (the system file edited by hand, its change then not used: the Settings
            # screen had saved that setting in the user's file, read after it)
            for note in set_again(args.check):
                print(f"darts-kiosk: {args.check}: note: {note}", file=sys.stderr)
            if problems:
                for problem in problems:
                    print(f"darts-kiosk: {problem}", file=sys.stderr)
                return 2
            print(f"{args.check}: OK")
        else:
            # The settings the kiosk would run with: a mistake stepped over as it steps
            # over it (its default, or an earlier file's value), and said.
            stepped: list[str] = []
            config = load_config(args.config, mistakes=stepped)
            for mistake in stepped:
                print(f"darts-kiosk: not used: {mistake}", file=sys.stderr)
            sys.stdout.write(defaults_toml(config))
    except ConfigError as exc:
        print(f"darts-kiosk: {exc}", file=sys.stderr)
        return 2
    return 0


def _board_map_problems(config: Config) -> list[str]:
    """The board map the kiosk would not load at start (it then reads the board as
    sending hits, and says so on a banner): missing, or not a board map; or each entry
    of it the kiosk would leave out (a mistake: the rest of the map is used)."""
    if not config.input.board_map:
        return []
    from kiosk.adapters.serial_board.board_map import BoardMapError, read

    path = config.input.board_map
    try:
        loaded = read(path)
    except BoardMapError as e:
        return [f"[input] board_map: {e}: the kiosk would not load it (darts-kiosk board-learn"
                " makes one)"]  # fmt: skip
    return [f"[input] board_map: {path}: contact {key!r}: {why}: the kiosk leaves it out (a "
            "dart there is not scored)" for key, why in loaded.left_out]  # fmt: skip


def _board_map_warnings(config: Config) -> list[str]:
    """What in the board map the kiosk uses but warns of (one segment on two contacts)."""
    if not config.input.board_map:
        return []
    from kiosk.adapters.serial_board.board_map import BoardMapError, read

    try:
        loaded = read(config.input.board_map)
    except BoardMapError:
        return []  # (a problem: said as one)
    return [f"[input] board_map: {config.input.board_map}: {w}" for w in loaded.warnings]


def _camera_source_problems(config: Config) -> list[str]:
    """The cameras named by a file (a recorded video standing in) that the kiosk could
    not read: a file not there, or not a video. A camera (``/dev/video*``, an index)
    not plugged in is no mistake (cameras are plugged in later), and a URL is not
    looked at (the network camera may be off now)."""
    if not config.camera.devices:
        return []
    from kiosk.adapters.camera.capture import file_problem

    return [f"[camera] devices: camera {n}: {why}: the kiosk gets no pictures from it (a "
            "camera is /dev/videoN, /dev/v4l/by-id/... or its index; a file is a recorded "
            "video)" for n, device in enumerate(config.camera.devices, 1)
            if (why := file_problem(device)) is not None]  # fmt: skip


def _calibration_problems(config: Config) -> list[str]:
    """The cameras the kiosk would leave out at start, and why: no calibration file
    given (none, or an empty entry), or one that does not load."""
    cams = config.camera
    if not cams.devices and config.input.source == "camera":
        return ['input = "camera" but [camera] devices lists none: no dart can be scored']
    if not cams.devices and not cams.calibrations:
        return []
    from kiosk.adapters.camera.calibration import Calibration, CalibrationError

    problems = []
    for n, device in enumerate(cams.devices, 1):
        if not (path := cams.calibration_for(n - 1)):
            problems.append(f"[camera] calibrations: camera {n} ({device}) has no calibration"
                            " file: the kiosk leaves it out (darts-kiosk camera-calibrate"
                            " makes one)")  # fmt: skip
            continue
        try:
            Calibration.load(path)
        except CalibrationError as e:
            problems.append(f"[camera] calibrations: camera {n}: {e}")
    return problems
