"""``darts-kiosk camera-calibrate``: the command's arguments here; the work, with OpenCV and
numpy, in ``kiosk.commands._camera_calibrate``, imported only when the command runs so that every
other command (and the kiosk) starts without loading OpenCV."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "camera-calibrate"
HELP = "calibrate a camera: mark board points on its picture (or find them automatically)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--camera", metavar="DEV_OR_FILE", help="camera index, /dev/videoN or a video (one frame)"
    )
    parser.add_argument("--image", metavar="FILE", help="use this picture instead of the camera")
    parser.add_argument("--out", required=True, metavar="CAL.json", help="the file to write")
    parser.add_argument("--auto", action="store_true",
                        help="start with the automatic calibration")  # fmt: skip
    parser.add_argument("--yes", action="store_true",
                        help="with --auto: save without showing it (no window)")  # fmt: skip
    parser.add_argument("--twenty-at", metavar="X,Y",
                        help="with --auto: a picture point on the 20 segment (pixels)")  # fmt: skip
    # As the kiosk shows itself unless told otherwise: fullscreen on its console, a
    # window in a desktop session, the [display] settings' size and rotation.
    parser.add_argument("--size", metavar="WxH",
                        help="window or screen size (default: the kiosk's settings)")  # fmt: skip
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen")
    parser.add_argument("--window", action="store_true", help="a window, not fullscreen")
    parser.add_argument(
        "--config", type=Path, metavar="FILE", help="settings file read last, as the kiosk's"
    )


def run(args: argparse.Namespace) -> int:
    from kiosk.commands import _camera_calibrate as impl

    return impl.run(args)
