"""Is a camera still where it was calibrated? Checked on its first picture each time
it connects. A camera knocked or turned while the kiosk was off (a cleaner, a bar
stool) would otherwise place every dart as far off as it moved, without a word: the
detector lines up moves between frames, but only from its first frame on.

The board's red and green rings are fitted again, starting from the calibration
(``refit.refit``), and the calibration's known points (the bull, the wire crossings
of the double and treble rings) are compared with the fit, in board mm. When the
rings line up well (``SURE_FIT``):

- within ``SAME_MM``: the camera has not moved (on rendered boards a calibration and
  the fit differ by a few tenths of a mm);
- further: it moved; the fit is used from now on (to a few tenths of a mm on
  rendered boards, after turns of up to 4 degrees: ``bench/camera_recheck.py``); the
  log says how far it had moved, and the file is left as it was.

When darts hide parts of the rings, their fit often lines up less well
(``UNSURE_FIT`` to ``SURE_FIT``: 9 of 120 rendered pictures with three darts in, fitted
within 0.4 mm of the truth but one, 3.2 mm); such a fit is not trusted to say the
camera moved a little, but a calibration ``UNSURE_OFF_MM`` or more off it is wrong, and
the fit is used (``"refitted"``): a camera knocked while the kiosk was off, found with
darts in the board, scored every dart that far off until they were pulled.

Else the rings found anew say whether the board is elsewhere, at least ``MOVED_MM``
from where the calibration puts it whichever segment is 20 (the camera moved or
turned further than a fit follows: calibrate it again), or it cannot be seen well
enough to tell (a camera warming up, a person in front of the board, darts hiding
the rings, a board whose colours the automatic calibration does not find): then the
calibration is kept, as before this check, and the scorer tries again later.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.adapters.camera import refit
from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.rings import colour_masks

SAME_MM = 2.0  # the calibration this close to the board's rings now: not moved
SURE_FIT = 0.8  # ECC correlation of the rings' fit to act on it (rendered: 0.95-0.99)
# ... to act on it when the calibration is far off it (rendered, three darts in the
# board: 9 of 120 pictures fit at 0.68-0.79, each within 0.4 mm but one, 3.2 mm)
UNSURE_FIT = 0.65
UNSURE_OFF_MM = 6.0  # a calibration this far from a fit not sure alone: the fit is used
MOVED_MM = 10.0  # no fit, and the board's rings at least this far off: it moved


@dataclass(frozen=True, slots=True)
class Recheck:
    # "same", "refitted", "moved" (calibrate again), "unknown"; "numbers": the rings in
    # place, the numbers read otherwise (misread with darts in, or a 36 degree roll)
    # ... "unseen": not even the rings' colours where the calibration puts them (a
    # camera covered, turned away, in the dark); "blind": still so after every try
    verdict: str
    drift_mm: float  # how far off the calibration is now, at worst (NaN: unknown)
    calibration: Calibration | None = None  # "refitted": the one to use now
    detail: str = ""  # for the log
    # "same", "refitted": the numbers were read and agree (else only the rings do,
    # which repeat every 36 degrees: the 20 is where the calibration put it)
    numbers_read: bool = False
    # "refitted" from a fit not sure alone (``UNSURE_FIT``, darts over the rings): used,
    # and checked again (``Checks``) until a sure fit, the darts pulled, confirms it
    sure: bool = True


def recheck(frame: np.ndarray, cal: Calibration) -> Recheck:
    """Whether ``cal`` still fits the board in ``frame`` (see the module's doc)."""
    if frame.ndim != 3 or (frame.shape[1], frame.shape[0]) != cal.image_size:
        return Recheck("unknown", math.nan, detail="not a colour picture of the calibrated size")
    fit = refit.refit(frame, cal.homography)
    if fit.ok and fit.calibration is not None and fit.confidence >= SURE_FIT:
        drift = drift_mm(cal, fit.calibration)
        read = fit.twenty_from == "numbers"
        if drift < SAME_MM:
            return Recheck("same", drift, detail=fit.reason, numbers_read=read)
        return Recheck("refitted", drift, fit.calibration, fit.reason, read)
    if fit.twenty_from == "unconfirmed" and fit.homography is not None:
        # The rings line up turned: by a real turn, or one 36 degrees off it; either
        # way the board is not where the calibration puts it.
        drift = refit.homography_drift(cal.homography, fit.homography, cal.image_size)
        if drift < MOVED_MM:
            # ... unless they lie where it puts them, and only the numbers, read, put 20
            # elsewhere: numbers misread (darts and flights over them: 7 of 144 rendered
            # pictures with 1-3 darts in), or a camera rolled by 36 degrees exactly.
            # Checking again tells them apart (``Checks``).
            return Recheck("numbers", drift, detail=f"{fit.reason}; the rings lie in place")
        return Recheck("moved", drift, detail=fit.reason)
    unsure = fit.ok and fit.calibration is not None and fit.confidence >= UNSURE_FIT
    read = unsure and fit.twenty_from == "numbers"
    if unsure and fit.calibration is not None:
        drift = drift_mm(cal, fit.calibration)
        if drift >= UNSURE_OFF_MM:  # (darts over the rings: see the module's doc)
            detail = f"{fit.reason}; fitted at {fit.confidence:.2f}, darts over the rings?"
            return Recheck("refitted", drift, fit.calibration, detail, read, sure=False)
    least = refit.least_drift(frame, cal.homography)
    if least is not None and least >= MOVED_MM:
        return Recheck("moved", least, detail=f"{fit.reason}; the board is found elsewhere")
    coloured = rings_coloured(frame, cal)
    if coloured < UNSEEN_COLOURED:
        return Recheck("unseen", math.nan, detail=f"{fit.reason}; {coloured:.0%} of the "
                       "rings where the calibration puts them are red or green")  # fmt: skip
    return Recheck("unknown", math.nan, detail=fit.reason, numbers_read=read)


# The verdicts of a check that could not tell whether the calibration fits (the board
# not seen clearly, or not seen at all): the calibration is kept, as it was given.
COULD_NOT_TELL = ("unknown", "unseen", "blind")

# The double and treble rings are red and green all round (but for their wires): where
# the calibration puts them, a camera that sees the board sees mostly colour there, even
# worn, with darts in, under a warm lamp; a black, grey or covered picture, or a wall
# (a camera turned away), next to none.
UNSEEN_COLOURED = 0.1
_RING_MM = (101.0, 105.0, 164.0, 168.0)  # radii sampled: inside the rings, off their wires
_RING_ANGLES = np.radians(np.arange(0.0, 360.0, 2.0) + 1.0)  # (not on a segment's wire)


def rings_coloured(frame: np.ndarray, cal: Calibration) -> float:
    """Of points inside the double and treble rings, where ``cal`` puts them in
    ``frame``, the share that is the board's red or green (``rings.colour_masks``);
    points off the picture count as not coloured."""
    red, green = colour_masks(frame)
    coloured = cv2.bitwise_or(red, green)
    r = np.repeat(_RING_MM, len(_RING_ANGLES))
    a = np.tile(_RING_ANGLES, len(_RING_MM))
    pts = cal.board_to_image(np.column_stack([r * np.sin(a), r * np.cos(a)]))
    h, w = coloured.shape
    x, y = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    hits = coloured[y[inside], x[inside]] > 0
    return float(np.count_nonzero(hits)) / len(pts)


def drift_mm(old: Calibration, new: Calibration) -> float:
    """How far (mm, at worst over the known points in view) the board point ``old``
    gives for an image point is from the one ``new`` gives."""
    return refit.homography_drift(old.homography, new.homography, old.image_size)


RECHECK_EVERY_S = 10.0  # a check that could not tell (a person in front) is tried again
RECHECK_TRIES = 6  # ... this many times after it is asked for, while nothing moves
BLIND_RECHECK_S = 30.0  # a camera that sees no board: looked at again this often, for good


class Checks:
    """When one camera's calibration is checked: asked for when it connects (then on
    its first still picture, on the camera's own thread: it scores nothing until it
    is checked) and when it was moved (then off its thread: a check takes 0.2-1.5 s,
    and the camera's frames go on meanwhile). A check that could not tell is tried
    again every ``RECHECK_EVERY_S`` while the picture is still, ``RECHECK_TRIES``
    times, off the camera's thread (it may be scoring darts by then); so is one whose
    numbers alone disagree (darts over them), which is "moved" when the last try still
    reads them so, and one fitted again from a fit not sure alone (darts over the
    rings: on 600 rendered pictures of cameras not moved, such fits lay up to 5 mm off),
    until a sure fit says "same" or puts it right."""

    def __init__(self, pool: Executor) -> None:
        self._pool = pool
        self._due: float | None = None
        self._tries = 0
        self._running: Future[Recheck] | None = None
        self.first = False  # a check the camera waits for (it just connected) is due

    def ask(self, *, wait: bool) -> None:
        """Check it as soon as the picture is still; ``wait``: on the camera's thread."""
        self._due, self._tries, self.first = 0.0, RECHECK_TRIES, wait

    def poll(self, frame: np.ndarray, cal: Calibration, still: bool) -> Recheck | None:
        """A finished check's result (once); else None, and a check is started on
        ``frame`` when one is due and the picture is ``still``."""
        if self._running is not None:
            if not self._running.done():
                return None
            done, self._running = self._running, None
            return self._outcome(done.result)
        if self._due is None or not still or time.monotonic() < self._due:
            return None
        self._due = None
        if self.first:
            self.first = False
            return self._outcome(lambda: recheck(frame, cal))
        self._running = self._pool.submit(recheck, frame.copy(), cal)
        return None

    def _outcome(self, get: Callable[[], Recheck]) -> Recheck:
        try:
            r = get()
        except Exception as e:  # a bug in the check must not cost the camera
            r = Recheck("unknown", math.nan, detail=f"the check failed: {e!r}")
        if r.verdict in ("unknown", "numbers", "unseen") or not r.sure:
            self._tries -= 1
            if self._tries > 0:
                self._due = time.monotonic() + RECHECK_EVERY_S
            elif r.verdict == "numbers":  # the last look still read them so: not darts
                r = Recheck("moved", r.drift_mm, detail=f"{r.detail} ({RECHECK_TRIES} checks)")
            elif r.verdict == "unseen":  # not a person passing: said, and looked at again
                r = Recheck("blind", r.drift_mm, detail=f"{r.detail} ({RECHECK_TRIES} checks)")
                self._tries, self._due = 1, time.monotonic() + BLIND_RECHECK_S
        return r

    @property
    def again(self) -> bool:
        """Whether a check that could not tell will be tried again."""
        return self._due is not None
