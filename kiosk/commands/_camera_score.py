"""``darts-kiosk camera-score``: score one dart from before/after pictures.

Each camera's view gives the dart's tip and its axis line on the board; with several
cameras they are fused (``kiosk.adapters.camera.fusion``)."""

from __future__ import annotations

import argparse
import math
import sys

import cv2
import numpy as np

from kiosk.adapters.camera.calibration import (
    SAME_SHAPE,
    Calibration,
    CalibrationError,
    PointPair,
    PointsDisagree,
)
from kiosk.adapters.camera.fusion import Estimate, Fused, estimate_from, fuse
from kiosk.adapters.camera.marked import check_marks
from kiosk.adapters.camera.recheck import COULD_NOT_TELL, MOVED_MM, recheck
from kiosk.adapters.camera.register import MAX_SHIFT_PX, jumped
from kiosk.adapters.camera.same_board import SAME_BOARD, board_alike
from kiosk.adapters.camera.taken_out import dart_in_before
from kiosk.adapters.camera.tip import find_tip, too_much_change
from kiosk.commands._picture import read_picture

NAME = "camera-score"
APART_MM = 10.0  # two cameras' tips further apart: one of them is not seeing this dart
VAGUE_MM = 3.0  # a point less sure than this (1 sigma) is unsure whatever the wires
GREY_SPREAD = 3  # grey levels: a grey picture's channels differ by no more (JPEG)
WORK_WIDTH = 1920  # wider pictures are scaled down to this (and their calibration)
HELP = "score a dart from a picture before and after it landed (one or more cameras)"


def _fail(msg: str) -> int:
    print(f"camera-score: {msg}", file=sys.stderr)
    return 2


def _grey(img: np.ndarray) -> bool:
    """No colour in the picture: its channels agree (to a JPEG's rounding)."""
    b, g, r = cv2.split(img)
    return max(float(cv2.absdiff(b, g).max()), float(cv2.absdiff(g, r).max())) <= GREY_SPREAD


def _mm(v: float) -> str:
    """A board coordinate to 0.1 mm, never "-0.0"."""
    return f"{round(v, 1) + 0.0:.1f}"


def run(args: argparse.Namespace) -> int:
    cals, befores, afters = list(args.calibration), list(args.before), list(args.after)
    if args.images:
        if befores or afters:
            return _fail("give BEFORE AFTER, or --before/--after per camera, not both")
        if len(args.images) != 2:
            return _fail(f"give two pictures, BEFORE and AFTER; got {len(args.images)}")
        befores, afters = [args.images[0]], [args.images[1]]
    if not cals:
        return _fail("--calibration is required")
    if not (len(cals) == len(befores) == len(afters)):
        counts = ", ".join(f"{n} {word if n == 1 else word + 's'}" for n, word in
                           ((len(cals), "calibration"), (len(befores), "before"),
                            (len(afters), "after")))  # fmt: skip
        return _fail(f"{counts}: give one of each per camera")
    estimates = []
    moved: list[int] = []  # cameras whose pictures are too far apart to line up
    misfit: list[int] = []  # cameras whose calibration does not fit their pictures
    busy: list[int] = []  # cameras whose pictures changed too much for one dart
    taken_out: list[int] = []  # cameras that see the dart in BEFORE, not in AFTER
    unlike: list[int] = []  # cameras whose BEFORE and AFTER are not the same board
    for i, (c, b, a) in enumerate(zip(cals, befores, afters, strict=True)):
        disagree: PointsDisagree | None = None
        try:
            cal = Calibration.load(c)
        except PointsDisagree as e:  # (put right by the board in BEFORE, below, if it can)
            disagree = e
        except CalibrationError as e:
            return _fail(str(e))
        except UnicodeDecodeError:
            return _fail(f"{c}: not JSON (not even UTF-8 text)")
        imgs = []
        for path in (b, a):
            img = read_picture(path)
            if isinstance(img, str):
                return _fail(f"{path}: {img}")
            imgs.append(img)
        if imgs[0].shape != imgs[1].shape:
            return _fail(f"{b} and {a} differ in size")
        if disagree is not None:
            mended, said = put_right(imgs[0], disagree, c, b)
            if mended is None:  # (as a calibration that does not fit the pictures)
                misfit.append(i + 1)
                left = ": left out" if len(cals) > 1 else ""
                print(f"camera-score: camera {i + 1}: {said}{left}", file=sys.stderr)
                continue
            print(f"camera-score: camera {i + 1}: {said}", file=sys.stderr)
            cal = mended
        greys = [_grey(im) for im in imgs]
        if greys[0] != greys[1]:  # (a camera gone to night mode): the colours are all change
            grey, colour = (b, a) if greys[0] else (a, b)
            print(f"camera-score: camera {i + 1}: {grey} has no colour and {colour} has: both "
                  "read in grey", file=sys.stderr)  # fmt: skip
            imgs = [cv2.cvtColor(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
                    for im in imgs]  # fmt: skip
        h, w = imgs[0].shape[:2]
        # A photo: the tip search is tuned for video-sized pictures (scaled first: the
        # calibration is scaled to the size worked at, whatever size the photo is).
        work = (WORK_WIDTH, round(h * WORK_WIDTH / w)) if w > WORK_WIDTH else (w, h)
        if work != (w, h):
            imgs = [cv2.resize(im, work, interpolation=cv2.INTER_AREA) for im in imgs]
        try:
            scaled = cal.for_size(work)
        except CalibrationError as e:
            return _fail(f"{a}: {e}".replace(f"{work[0]}x{work[1]}", f"{w}x{h}"))
        if (w, h) != cal.image_size:
            print(f"camera-score: {c} is for {cal.image_size[0]}x{cal.image_size[1]}, the "
                  f"pictures are {w}x{h}: its points scaled to them", file=sys.stderr)  # fmt: skip
        cal = scaled
        if far := jumped(imgs[0], imgs[1]):
            moved.append(i + 1)
            print(f"camera-score: camera {i + 1}: {a} is shifted {far:.0f} px from {b} (the "
                  f"camera moved between them, further than {MAX_SHIFT_PX:.0f} px can be lined "
                  "up): left out", file=sys.stderr)  # fmt: skip
            continue
        checked, why = (cal, "") if disagree is not None else _checked(imgs[0], cal, c, b)
        if checked is not None:
            cal = checked
            if why:
                print(f"camera-score: camera {i + 1}: {why}", file=sys.stderr)
        else:
            misfit.append(i + 1)
            left = ": left out" if len(cals) > 1 else ""
            print(f"camera-score: camera {i + 1}: {why}{left}", file=sys.stderr)
            continue
        if (alike := board_alike(imgs[0], imgs[1], cal)) is not None and alike < SAME_BOARD:
            unlike.append(i + 1)
            if len(cals) > 1:  # one camera: the refusal below says it
                print(f"camera-score: camera {i + 1}: {b} and {a} do not show the same board: "
                      "left out", file=sys.stderr)  # fmt: skip
            continue
        f = find_tip(imgs[0], imgs[1], cal)
        if f is None:
            if too_much_change(imgs[0], imgs[1]):
                busy.append(i + 1)
                if len(cals) > 1:  # one camera: the refusal below says it
                    print(f"camera-score: camera {i + 1}: too much changed from {b} to {a} for "
                          "one dart (a hand, a person, the light?): left out",
                          file=sys.stderr)  # fmt: skip
            elif args.verbose:
                print(f"camera-score: camera {i + 1}: no dart", file=sys.stderr)
            continue
        if f.pixels is not None and dart_in_before(imgs[0], imgs[1], cal, f.pixels):
            taken_out.append(i + 1)
        est = estimate_from(f, cal, i)
        estimates.append(est)
        if args.verbose:
            bx, by = est.board
            line = "no axis line" if est.line is None else (
                f"axis line +-{est.line_weight ** -0.5:.2f} mm")  # fmt: skip
            print(f"camera-score: camera {i + 1}: tip at {f.image[0]:.1f},{f.image[1]:.1f} px"
                  f" -> {_mm(bx)}, {_mm(by)} mm +-{est.weight ** -0.5:.1f} mm, {line}",
                  file=sys.stderr)  # fmt: skip
    if 2 * len(taken_out) > len(estimates):  # most cameras that see a dart: taken out
        print("none")
        which = f" ({befores[0]}, {afters[0]})" if len(befores) == 1 else ""
        print(f"camera-score: a dart is in BEFORE and not in AFTER{which}: taken out, or the "
              "pictures the wrong way round; no new dart", file=sys.stderr)  # fmt: skip
        return 0
    fused = fuse(estimates)
    if fused is None and misfit and not estimates:
        return _fail(f"camera {', '.join(map(str, misfit))}: the calibration does not fit the "
                     "pictures: give each camera's pictures with its own calibration, or "
                     "calibrate the camera again")  # fmt: skip
    if fused is None and moved and not estimates:
        # Not "none": the dart may well be there; these pictures cannot tell.
        return _fail(f"camera {', '.join(map(str, moved))} moved between the pictures: "
                     "take both from a camera that holds still")  # fmt: skip
    if fused is None and unlike and not estimates:
        which = (f"{befores[0]} and {afters[0]}" if len(cals) == 1 else
                 f"camera {', '.join(map(str, unlike))}: BEFORE and AFTER")  # fmt: skip
        return _fail(f"{which} do not show the same board (one of them black, grey, noise or "
                     "covered, or from another camera?): take both from the camera, of the "
                     "board")  # fmt: skip
    if fused is None and busy and not estimates:
        return _fail(f"camera {', '.join(map(str, busy))}: too much changed between the "
                     "pictures to tell a dart: take AFTER with the board clear of hands and "
                     "people, in the light BEFORE was taken in")  # fmt: skip
    if fused is None:
        print("none")
        return 0
    print(fused.dart)
    print(f"{_mm(fused.board[0])} {_mm(fused.board[1])} mm")
    for est in estimates:
        if est.camera not in fused.used:
            print(f"camera-score: camera {est.camera + 1} places the dart "
                  f"{math.dist(est.board, fused.board):.0f} mm from the others: left out (its "
                  "calibration, or a shadow taken for the dart?)", file=sys.stderr)  # fmt: skip
    if fused.doubt is not None:  # stderr: stdout stays two lines for scripts
        print(f"camera-score: unsure, could be {fused.doubt} ({unsure_why(fused, estimates)})",
              file=sys.stderr)  # fmt: skip
    return 0


def put_right(
    before: np.ndarray, disagree: PointsDisagree, c: str, b: str
) -> tuple[Calibration | None, str]:
    """A calibration file whose points disagree (a mis-click among them) put right by
    the board's rings in BEFORE (``marked.check_marks``, as the marking screen puts
    marks right), at the file's picture size, and what to say of it; or (None, why
    not): pictures of another shape, no rings to be seen, points that go round the
    wrong way, or numbers that cannot be read to say where 20 is (the rings repeat
    every 36 degrees: the fit could be two wires off)."""
    h, w = before.shape[:2]
    w0, h0 = disagree.image_size
    if abs((w / h) / (w0 / h0) - 1.0) > SAME_SHAPE:
        return None, (f"{disagree}; and the pictures are {w}x{h} but the calibration is for "
                      f"{w0}x{h0} (another shape: calibrate this camera at this size)")  # fmt: skip
    points = [PointPair((p.image[0] * w / w0, p.image[1] * h / h0), p.board)
              for p in disagree.points]  # fmt: skip
    marked = check_marks(before, points)
    why = {
        "mirrored": "and they go round the board the wrong way (mirror-image)",
        "no board": f"and the board in {b} does not show which is off (its rings not found, "
        "or its numbers not read to confirm where they put 20)",
    }.get(marked.verdict, f"and the board's rings in {b} do not put them right")
    if marked.verdict == "rings" and not marked.numbers_read:
        why = (f"and the board's numbers in {b} cannot be read to say where 20 is (its rings "
               "alone could be two wires off)")  # fmt: skip
    if marked.verdict != "rings" or marked.calibration is None or not marked.numbers_read:
        return None, f"{disagree}; {why}"
    n = abs(marked.wires_along)
    off = marked.off_marks
    which = (
        f"they begin {n} wire{'s' if n > 1 else ''} along from the 20/1 wire" if n
        else f"point {off[0] + 1} is {marked.off_mm[off[0]]:.0f} mm off" if len(off) == 1
        else f"the points are up to {max(marked.off_mm):.0f} mm off"
    )  # fmt: skip
    try:
        mended = marked.calibration.for_size((w0, h0))
    except CalibrationError:
        return None, f"{disagree}; and the board's rings in {b} do not put them right"
    return mended, (f"{c}: its points disagree; the board's rings and numbers in {b} "
                    f"say {which}: scored with the board as found there; calibrate it "
                    "again")  # fmt: skip


def _checked(
    before: np.ndarray, cal: Calibration, c: str, b: str
) -> tuple[Calibration | None, str]:
    """The calibration to score with and what to say of it, or (None, why it cannot
    score these pictures): the board in BEFORE checked against it (``recheck``), as the
    kiosk checks a camera when it connects. Another camera's calibration (``/dev/video``
    numbers swapped at boot, the files mixed up) or a camera moved since placed the
    dart as far off as the board is, without a word; points marked mirror-image gave
    every dart's mirror image. Now:

    - the board's rings fitted well, ``MOVED_MM`` or more from where the calibration
      puts them: scored with the fit, as the kiosk goes on, and said (closer, the
      calibration is used as given: a fit a few mm off it is no reason to overrule it);
    - the board found elsewhere with no fit: not scored, and said;
    - a check that cannot tell (a grey picture, the board hidden): scored as given."""
    r = recheck(before, cal)
    mirror = ("its points are mirror-image (marked round the board the wrong way, "
              "anticlockwise, or with board y pointing down, not up towards the 20)")  # fmt: skip
    if r.verdict == "refitted" and r.drift_mm >= MOVED_MM and r.calibration is not None:
        off = (mirror if cal.mirrored else
               f"the board in {b} lies {r.drift_mm:.0f} mm from where it puts it: another "
               "camera's calibration (its /dev/video number swapped with another's?), or the "
               "camera moved since it was calibrated")  # fmt: skip
        return r.calibration, (f"{c}: {off}; scored with the board's rings found again in "
                               f"{b}, as the kiosk does: calibrate it again")  # fmt: skip
    if r.verdict == "moved" or (r.verdict == "numbers" and cal.mirrored):
        if cal.mirrored:
            return None, (f"{c}: {mirror}: every dart would come out at its mirror image;"
                          " mark the points again in the order named")  # fmt: skip
        off = f"{r.drift_mm:.0f} mm off" if r.drift_mm >= MOVED_MM else "turned round"
        return None, (f"{c} does not fit the pictures: the board in {b} is not where this "
                      f"calibration puts it ({off}): another camera's calibration (its "
                      "/dev/video number swapped with another's?), the camera moved since "
                      "it was calibrated, or the pictures turned upside down")  # fmt: skip
    if r.verdict == "numbers":
        return cal, (f"{c}: the board's numbers in {b} put 20 elsewhere than it does, its "
                     "rings where it puts them (darts over the numbers?): scored as it is; "
                     "if the board is clear, calibrate the camera again")  # fmt: skip
    if cal.mirrored and r.verdict in COULD_NOT_TELL:
        return cal, (f"{c}: {mirror}: unless the camera mirrors its picture, darts come out "
                     "at their mirror image")  # fmt: skip
    return cal, ""


def unsure_why(fused: Fused, estimates: list[Estimate]) -> str:
    """Why ``fused`` names another dart it could be, in words for support."""
    if fused.doubt_why != "wire":
        return _apart(estimates) or "another reading of the pictures puts the point there"
    if fused.sigma_mm <= VAGUE_MM:
        return f"+-{fused.sigma_mm:.2f} mm, a wire is that close"
    # Not a wire's fault: with the point that vague, most wires are within reach.
    return f"the pictures place the point only to +-{fused.sigma_mm:.0f} mm: check the dart by eye"


def _apart(estimates: list[Estimate]) -> str:
    """The two cameras whose tips lie furthest apart, when that is more than
    ``APART_MM`` (a camera that took a shadow for the dart, or pictures given with
    another camera's calibration), else ""."""
    far, pair = 0.0, (0, 0)
    for i, e in enumerate(estimates):
        for f in estimates[i + 1 :]:
            d = math.dist(e.board, f.board)
            if d > far:
                far, pair = d, (e.camera + 1, f.camera + 1)
    if far <= APART_MM:
        return ""
    return (f"cameras {pair[0]} and {pair[1]} place it {far:.0f} mm apart: a shadow taken for "
            "the dart, or pictures given with another camera's calibration?")  # fmt: skip
