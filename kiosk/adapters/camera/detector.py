"""One camera's state machine: frames in, dart observations out.

::

    STILL --motion--> MOVING --settle_frames still frames--> (judge) --> STILL

Motion is judged on a small grey copy of each frame (cheap: every frame pays only
this). Change against the background is measured shake-tolerant: a pixel counts as
changed only if it is outside the range of the background's 3x3 neighbourhood (the
board shaking by a pixel or two after an impact changes every edge, but none of it
is a new thing). While moving, the largest such change is remembered (``peak``).
When the picture has been still for ``settle_frames`` frames, the settled frame is
compared with the last still frame (the background):

- something large came and went (a hand, a person; ``peak`` above ``hand_frac`` and
  more than what is left), or the settled frame differs a lot and not mostly by
  shadow (a dart seen large with a low lamp's long shadow is a dart; a person's
  shadow and nothing else is not): the settled frame becomes the new background; if
  it matches the empty board of the start of the turn and there were darts, that was
  a takeout -> ``Takeout``; so was it if darts that were in the board when the camera
  started (a restart mid-turn, a camera plugged back in) are gone from it
  (``taken_out.dart_in_before``: where they were, the board's own colours show);
- a dart-sized change: a new dart; its tip is found at full resolution against the
  last still frame (so darts already in the board are not counted again, and a dart
  that nudged them changes only a sliver) -> ``DartSeen``;
- a dart-sized change where the board's own colours now show what was steel and
  flight before (``taken_out.dart_in_before``): a dart that fell out of the board, no
  hand near it -> ``FellOut`` (not a new dart: its tip searched for would be placed
  on the dart that is gone);
- no change left, but something dart-sized moved: a dart that bounced out -> ``Bounce``;
- no change and nothing dart-sized moved (a shadow passing): nothing.

Whatever it was, a picture that settled turned or shifted against the one before it
(``_knocked``), one where something larger than darts came and stayed (a camera
swung round further than frames are lined up, someone standing in front of it), and a
dart-sized change with no dart found in it raise ``check_due``: the scorer then checks
the calibration against the board before what was seen counts (a knocked camera's
swing is a change as a dart's is).

The tip search (tens of ms) starts on the first still frame, when what changed is
dart-sized, while the frames that confirm the picture is settled are awaited (the
camera's thread would only wait for them): when they confirm it, the dart found
there is the dart, ready a frame sooner; when the picture moves again, it is dropped.

Pure apart from OpenCV arithmetic: frames are passed in, time is the frame index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum

import cv2
import numpy as np

from kiosk.adapters.camera import register
from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.change import change
from kiosk.adapters.camera.fusion import Estimate, estimate_from
from kiosk.adapters.camera.taken_out import dart_in_before
from kiosk.adapters.camera.tip import TipFinding, TipParams, find_tip

# A dart-sized change is a dart fallen out when the picture after it agrees with the
# board's colours this much more often than the one before it (``dart_in_before``).
# Over 114 rendered darts landed (0-50 degrees), the picture before agreed on every
# pixel judged, so it never came out behind; of 30 darts fallen out, one came out
# ahead by 0.105, short of the takeout's 0.15.
FELL_OUT_MARGIN = 0.05


class Phase(Enum):
    EMPTY = "empty"  # no background yet
    STILL = "still"
    MOVING = "moving"


@dataclass(frozen=True)
class DetectorParams:
    small_width: int = 320  # motion is judged on frames this wide
    level: float = 18.0  # grey levels of change that count (small frame)
    motion_frac: float = 0.002  # this much of the small frame changed: moving
    settle_frames: int = 2  # still frames in a row before judging
    dart_frac: float = 0.00015  # less change than this vs the background: no dart
    hand_frac: float = 0.015  # more than this: a hand, a person, the light (see _is_hand)
    hand_gone: float = 2.0  # ... whose peak was this many times what is left at settle
    hand_max: float = 3.0  # ... or this many times hand_frac left: a hand whatever it is
    nudge_px: int = 15  # an earlier dart knocked by a new one moves at most this far
    tip: TipParams = field(default_factory=TipParams)


@dataclass(frozen=True, slots=True)
class DartSeen:
    camera: int
    frame: int  # index of the settled frame
    estimate: Estimate | None  # None: a dart-sized change whose tip was not found
    finding: TipFinding | None


@dataclass(frozen=True, slots=True)
class Bounce:
    camera: int
    frame: int


@dataclass(frozen=True, slots=True)
class Takeout:
    camera: int
    frame: int


@dataclass(frozen=True, slots=True)
class FellOut:
    camera: int
    frame: int


Observation = DartSeen | Bounce | Takeout | FellOut


class Detector:
    def __init__(
        self, cal: Calibration, camera: int = 0, params: DetectorParams = DetectorParams()
    ) -> None:
        self.cal = cal
        self.camera = camera
        self.params = params
        self.pose = cal.pose()
        self.phase = Phase.EMPTY
        self.darts = 0  # darts seen since the last takeout
        self._background: np.ndarray | None = None
        self._bg: _Small | None = None
        self._empty: _Small | None = None
        self._empty_frame: np.ndarray | None = None  # the same, whole (first frame's pixels)
        self._prev: np.ndarray | None = None
        self._still = 0
        self._peak = 0.0
        # The tip searched for on the first still frame (see the module's doc): that
        # frame, its small copy and what was found, until the picture is judged.
        self._early: tuple[np.ndarray, np.ndarray, TipFinding | None] | None = None
        self.moved_at: int | None = None  # frame index where the current motion began
        # How the camera's picture has moved since the first frame (``register``): the
        # background is kept in the first frame's pixels (the calibration's), so each
        # dart's or hand's change measures all of it (``register``), and the frame
        # after it is moved back by it to become the next background.
        self.motion: np.ndarray | None = None
        # Pixels the camera was moved, further than can be lined up: it gives no more
        # darts until it is calibrated again (``use``). 0: not moved away.
        self.moved_away = 0.0
        # The picture may no longer be where the calibration puts the board (the
        # module's doc says when): its calibration is to be checked (``recheck``).
        # Whoever asks for the check (the scorer) sets it back.
        self.check_due = False
        self._fell = 0  # darts that fell out since the last takeout
        # Where the darts already in the board are, grown by what a nudge moves them.
        self._known: np.ndarray | None = None
        r = params.nudge_px
        self._grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))

    @property
    def peak(self) -> float:
        """The largest change (fraction of the small frame) while the last motion
        lasted: how big what moved was (a dart, a hand)."""
        return self._peak

    @property
    def shift(self) -> tuple[float, float]:
        """How far the middle of the picture has moved since the first frame (px)."""
        w, h = self.cal.image_size
        return register.shift_at(self.motion, (w / 2, h / 2))

    def use(self, cal: Calibration) -> None:
        """Another calibration (the camera's pictures came at another size): start
        again with it."""
        self.cal = cal
        self.pose = cal.pose()
        self.moved_away = 0.0
        self.reset()

    def reset(self) -> None:
        """Forget the background (e.g. the camera was lost and came back)."""
        self.phase = Phase.EMPTY
        self.motion = None
        self._background = self._bg = self._empty = self._prev = self._known = None
        self._empty_frame = None

    def look_again(self, index: int) -> None:
        """Frames after ``index`` went unseen a while (the camera's thread was busy with
        a check): the next settled picture is judged against the background, whether or
        not it moved (a dart that landed meanwhile shook nothing the detector saw)."""
        if self.phase is Phase.STILL:
            self.phase, self._still, self.moved_at, self._peak = Phase.MOVING, 0, index, 0.0

    def _small(self, frame: np.ndarray) -> np.ndarray:
        g = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        h, w = g.shape
        sw = self.params.small_width
        s = cv2.resize(g, (sw, max(1, round(h * sw / w))), interpolation=cv2.INTER_AREA)
        return np.asarray(s, np.float32)

    def _frac(self, a: np.ndarray, b: np.ndarray) -> float:
        """Share of pixels that changed between two small frames (brightness-matched: a
        lamp dimming a little everywhere is not a change)."""
        ma, mb = float(a.mean()), float(b.mean())
        scaled = a * (mb / ma) if ma > 1 else a
        return float(np.count_nonzero(cv2.absdiff(scaled, b) > self.params.level)) / a.size

    def _changed(self, a: np.ndarray, ref: _Small) -> float:
        """Shake-tolerant share of ``a`` that differs from ``ref``."""
        ma = float(a.mean())
        scaled = a * (ref.mean / ma) if ma > 1 else a
        lv = self.params.level
        out = (scaled > ref.hi + lv) | (scaled < ref.lo - lv)
        return float(np.count_nonzero(out)) / a.size

    def feed(self, frame: np.ndarray, index: int) -> list[Observation]:
        if self.moved_away:
            return []
        small = self._small(frame)
        if self._bg is None or self._prev is None or small.shape != self._prev.shape:
            self._background, self._bg = frame, _Small.of(small)
            self._empty, self._empty_frame = self._bg, frame
            self._prev = small
            self.phase = Phase.STILL
            return []
        moving = self._frac(small, self._prev) > self.params.motion_frac
        self._prev = small
        if self.phase is Phase.STILL:
            if moving:
                self.phase, self._still, self.moved_at = Phase.MOVING, 0, index
                self._peak = self._changed(small, self._bg)
            return []
        self._peak = max(self._peak, self._changed(small, self._bg))
        self._still = 0 if moving else self._still + 1
        if self._still < self.params.settle_frames:
            if self._still <= 1:  # moving again (0): what was found is no more
                self._early = self._search_early(frame, small) if self._still else None
            return []
        self.phase = Phase.STILL
        motion_before = self.motion
        try:
            return self._judge(frame, small, index)
        finally:
            self._early = None
            if not self.moved_away and _knocked(motion_before, self.motion, _size(frame)):
                self.check_due = True  # (lined up; but turned that far, is it still?)

    def _search_early(
        self, frame: np.ndarray, small: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, TipFinding | None] | None:
        """The tip searched for on the first still frame, if what changed there looks
        like one more dart (not a hand or the light, not nothing)."""
        assert self._bg is not None and self._background is not None
        p = self.params
        now = self._changed(small, self._bg)
        if not p.dart_frac <= now <= p.hand_frac or self._peak > p.hand_frac:
            return None
        finding = find_tip(self._background, frame, self.cal, self.pose, p.tip, self._known)
        return frame, small, finding

    def _is_hand(self, frame: np.ndarray, now: float) -> bool:
        """A hand, a person or the light: more change than ``hand_frac`` that came and
        went again (a takeout), or that stayed and is not mostly shadow. A dart seen
        large, with the long shadow of a low lamp, changes as much of the frame as a
        hand: it stays, and most of it is shadow (it used to be taken for a hand and
        lost without a word)."""
        p = self.params
        if max(self._peak, now) <= p.hand_frac:
            return False
        if self._peak > p.hand_gone * now or now > p.hand_max * p.hand_frac:
            return True
        assert self._background is not None
        solid = change(self._background, frame, p.tip.change).solid
        left = float(np.count_nonzero(solid)) / solid.size
        # (Shadow and next to nothing else: a person between the lamp and the board.)
        return left > p.hand_frac or left < p.dart_frac

    def _darts_from_before_gone(self) -> bool:
        """The board "empty" at the start of the turn had darts in it (they were there
        when this camera started) and the new background shows the board where they
        were: they were taken out. Otherwise no takeout would ever match it again."""
        empty, now = self._empty_frame, self._background
        if empty is None or now is None or empty.shape != now.shape:
            return False
        gone = change(empty, now, self.params.tip.change).solid
        if np.count_nonzero(gone) < self.params.dart_frac * gone.size:  # not a dart
            return False
        return dart_in_before(empty, now, self.cal, gone)

    def _judge(self, frame: np.ndarray, small: np.ndarray, index: int) -> list[Observation]:
        assert self._bg is not None and self._empty is not None
        p = self.params
        now = self._changed(small, self._bg)
        if self._is_hand(frame, now):
            assert self._background is not None
            before = self._background
            if far := register.jumped(before, frame):
                # Moved, not knocked: its darts would be placed off by as much.
                self.moved_away = far
                return []
            motion_before = self.motion
            self.motion = change(before, frame, p.tip.change).motion  # knocked?
            self._background = register.back(frame, self.motion, before)
            self._bg = _Small.of(small)
            lined_up = self._small(self._background)  # (the empty board's pixels)
            if (
                (self.darts or self._fell) and self._changed(lined_up, self._empty) < p.dart_frac
            ) or self._darts_from_before_gone():
                self.darts = self._fell = 0
                self._empty, self._empty_frame = _Small.of(lined_up), self._background
                self._known = None
                return [Takeout(self.camera, index)]
            left = self._changed(lined_up, _Small.of(self._small(before)))
            if left > p.hand_frac:
                # What came stayed, and is more than darts: the camera turned further
                # than its frames are lined up (a knock that swung it round), or someone
                # stands in front of it. Which, its check tells.
                self.check_due = True
            if _knocked(motion_before, self.motion, _size(frame)) and left >= p.dart_frac:
                # The dart's impact knocked the camera: lined up, the picture has one
                # more thing than before it, the dart (it used to be lost unsaid). Only
                # a dart found counts (a knocked bounce-out leaves edges, not a dart).
                finding = find_tip(before, frame, self.cal, self.pose, p.tip, self._known)
                if finding is not None:
                    return self._dart_in(before, frame, index, finding)
            return []
        if now < p.dart_frac:
            if self._peak >= p.dart_frac:
                return [Bounce(self.camera, index)]
            return []
        assert self._background is not None
        before = self._background
        if self._early is not None:  # (found while this frame was awaited)
            frame, small, finding = self._early
        else:
            finding = find_tip(before, frame, self.cal, self.pose, p.tip, self._known)
        self._bg = _Small.of(small)
        # Gone, not landed? Judged on what changed (the tip search's pixels may be the
        # dart's shadow alone, where both pictures show the board).
        ch = finding.change if finding is not None else None
        if ch is None:
            ch = change(before, frame, p.tip.change)
        gone = ch.solid
        if dart_in_before(before, frame, self.cal, gone, FELL_OUT_MARGIN, ch.mask):
            return self._fell_out(before, frame, index, finding, gone)
        return self._dart_in(before, frame, index, finding)

    def _fell_out(
        self,
        before: np.ndarray,
        frame: np.ndarray,
        index: int,
        finding: TipFinding | None,
        gone: np.ndarray,
    ) -> list[Observation]:
        """A dart that was in ``before`` is not in ``frame``: one dart fewer in the
        board, and where it was is board again for the darts to come."""
        if finding is not None:
            self.motion = finding.motion
        self._background = register.back(frame, self.motion, before)
        self.darts = max(0, self.darts - 1)
        self._fell += 1  # (pulling none then is still a takeout)
        if self._known is not None:
            self._known &= ~_grown(gone, self._grow)
        return [FellOut(self.camera, index)]

    def _dart_in(
        self, before: np.ndarray, frame: np.ndarray, index: int, finding: TipFinding | None
    ) -> list[Observation]:
        """The new dart ``finding`` placed in ``frame`` against the still picture
        ``before`` it (None: seen, not placed); the background moves on to ``frame``,
        lined up."""
        if finding is not None:
            self.motion = finding.motion
        self._background = register.back(frame, self.motion, before)
        self.darts += 1
        if finding is not None and finding.pixels is not None:
            grown = _grown(finding.pixels, self._grow)
            self._known = grown if self._known is None else self._known | grown
        if finding is None:
            # (A knock that turned the camera further than its frames are lined up
            # changes the picture as a dart does, and no dart is found in it.)
            self.check_due = True
            return [DartSeen(self.camera, index, None, None)]
        return [
            DartSeen(self.camera, index, estimate_from(finding, self.cal, self.camera), finding)
        ]


def _grown(pixels: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``pixels`` (a mask) dilated by ``kernel``: the same as dilating the whole frame,
    worked only around where the pixels are (a dart is a sliver of the frame; the
    whole of a 1280x720 frame took 18 ms, on the way from impact to Dart)."""
    mask = pixels.astype(np.uint8)
    x, y, w, h = cv2.boundingRect(mask)
    out = np.zeros(pixels.shape, bool)
    if w == 0 or h == 0:
        return out
    ry, rx = kernel.shape[0] // 2, kernel.shape[1] // 2
    y0, y1 = max(0, y - ry), min(mask.shape[0], y + h + ry)
    x0, x1 = max(0, x - rx), min(mask.shape[1], x + w + rx)
    out[y0:y1, x0:x1] = cv2.dilate(mask[y0:y1, x0:x1], kernel).astype(bool)
    return out


def _size(frame: np.ndarray) -> tuple[int, int]:
    return frame.shape[1], frame.shape[0]


def _knocked(
    before: np.ndarray | None, after: np.ndarray | None, size: tuple[int, int], px: float = 1.5
) -> bool:
    """The picture's motion changed by ``px`` or more at a corner of the frame (``size``:
    w, h): the camera was knocked, not a hand put in front of a still camera."""
    w, h = size
    for corner in ((0.0, 0.0), (w, 0.0), (0.0, h), (w, h)):
        (ax, ay), (bx, by) = register.shift_at(after, corner), register.shift_at(before, corner)
        if math.hypot(ax - bx, ay - by) >= px:
            return True
    return False


@dataclass(frozen=True)
class _Small:
    """A small grey still frame and the range of each pixel's 3x3 neighbourhood."""

    img: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    mean: float

    @classmethod
    def of(cls, img: np.ndarray) -> _Small:
        k = np.ones((3, 3), np.uint8)
        return cls(img, np.asarray(cv2.erode(img, k)), np.asarray(cv2.dilate(img, k)),
                   float(img.mean()))  # fmt: skip
