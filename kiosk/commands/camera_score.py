"""``darts-kiosk camera-score``: the command's arguments here; the work, with OpenCV and
numpy, in ``kiosk.commands._camera_score``, imported only when the command runs so that every
other command (and the kiosk) starts without loading OpenCV."""

from __future__ import annotations

import argparse

NAME = "camera-score"
HELP = "score a dart from a picture before and after it landed (one or more cameras)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Prints the dart (e.g. S10, T20, DB, MISS) or 'none', then the board point as"
        " 'X Y mm' (origin at the bull, x right, y up). One camera: --calibration C"
        " BEFORE AFTER; several, fused: --calibration C --before B --after A per camera."
        " Each calibration is checked against the board in its BEFORE picture: one"
        " 10 mm or more off is said and the board's rings found there are used, as the"
        " kiosk does. Exit 2 on a bad file or argument, or when no camera's calibration"
        " fits its pictures (the board not found where it puts it, or its points marked"
        " mirror-image)."
    )
    parser.add_argument("--calibration", action="append", default=[], metavar="CAL.json",
                        help="the camera's calibration (repeat per camera)")  # fmt: skip
    parser.add_argument("--before", action="append", default=[], metavar="IMG",
                        help="picture before the dart (repeat per camera)")  # fmt: skip
    parser.add_argument("--after", action="append", default=[], metavar="IMG",
                        help="picture after the dart (repeat per camera)")  # fmt: skip
    parser.add_argument("images", nargs="*", metavar="BEFORE AFTER",
                        help="one camera: the two pictures")  # fmt: skip
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print each camera's view (on stderr)")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from kiosk.commands import _camera_score as impl

    return impl.run(args)
