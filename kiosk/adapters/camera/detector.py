"""One camera's state machine: frames in, dart observations out.

::

    STILL --motion--> MOVING --settle_frames still frames--> (judge) --> STILL

Motion is judged on a small grey copy of each frame (cheap: every frame pays only
this). When the picture has been still for ``settle_frames`` frames (the board and
the dart stop shaking), the settled frame is compared with the last still frame:

- a dart-sized change: a new dart; its tip is found at full resolution against the
  last still frame (so darts already in the board are not counted again, and a dart
  that nudged them changes only a sliver) -> ``DartSeen``;
- a large change (a hand took the darts out, a person stood in front, the light
  changed): the settled frame becomes the new background; if it matches the empty
  board of the start of the turn, that was a takeout -> ``Takeout``;
- no change left, but something dart-sized moved: a dart that bounced out -> ``Bounce``;
- no change and nothing dart-sized moved (a shadow passing): nothing.

Pure apart from OpenCV arithmetic: frames are passed in, time is the frame index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import cv2
import numpy as np

from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.fusion import Estimate
from kiosk.adapters.camera.tip import TipFinding, TipParams, find_tip


class Phase(Enum):
    EMPTY = "empty"  # no background yet
    STILL = "still"
    MOVING = "moving"


@dataclass(frozen=True)
class DetectorParams:
    small_width: int = 320  # motion is judged on frames this wide
    level: float = 18.0  # grey levels of change that count (small frame)
    motion_frac: float = 0.002  # this much of the small frame changed: moving
    settle_frames: int = 3  # still frames in a row before judging
    dart_frac: float = 0.00015  # less change than this vs the background: no dart
    hand_frac: float = 0.03  # more than this: a hand, a person, the light
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


Observation = DartSeen | Bounce | Takeout


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
        self._bg_small: np.ndarray | None = None
        self._empty_small: np.ndarray | None = None
        self._prev: np.ndarray | None = None
        self._still = 0
        self._peak = 0.0
        self.moved_at: int | None = None  # frame index where the current motion began

    def reset(self) -> None:
        """Forget the background (e.g. the camera was lost and came back)."""
        self.phase = Phase.EMPTY
        self._background = self._bg_small = self._empty_small = self._prev = None

    def _small(self, frame: np.ndarray) -> np.ndarray:
        g = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        h, w = g.shape
        sw = self.params.small_width
        s = cv2.resize(g, (sw, max(1, round(h * sw / w))), interpolation=cv2.INTER_AREA)
        return s.astype(np.float32)

    def _frac(self, a: np.ndarray, b: np.ndarray) -> float:
        # Brightness-matched: a lamp dimming a little everywhere is not a change.
        ma, mb = float(a.mean()), float(b.mean())
        scaled = a * (mb / ma) if ma > 1 else a
        return float(np.count_nonzero(cv2.absdiff(scaled, b) > self.params.level)) / a.size

    def feed(self, frame: np.ndarray, index: int) -> list[Observation]:
        small = self._small(frame)
        if self._background is None or self._prev is None or small.shape != self._prev.shape:
            self._background, self._bg_small, self._empty_small = frame, small, small
            self._prev = small
            self.phase = Phase.STILL
            return []
        moving = self._frac(small, self._prev) > self.params.motion_frac
        self._prev = small
        assert self._bg_small is not None
        if self.phase is Phase.STILL:
            if moving:
                self.phase, self._still, self.moved_at = Phase.MOVING, 0, index
                self._peak = self._frac(small, self._bg_small)
            return []
        self._peak = max(self._peak, self._frac(small, self._bg_small))
        self._still = 0 if moving else self._still + 1
        if self._still < self.params.settle_frames:
            return []
        self.phase = Phase.STILL
        return self._judge(frame, small, index)

    def _judge(self, frame: np.ndarray, small: np.ndarray, index: int) -> list[Observation]:
        assert self._bg_small is not None and self._empty_small is not None
        p = self.params
        now = self._frac(small, self._bg_small)
        if now > p.hand_frac:
            self._background, self._bg_small = frame, small
            if self._frac(small, self._empty_small) < p.dart_frac * 4:
                self.darts = 0
                return [Takeout(self.camera, index)]
            return []
        if now < p.dart_frac:
            if p.dart_frac <= self._peak <= p.hand_frac:
                return [Bounce(self.camera, index)]
            return []
        assert self._background is not None
        finding = find_tip(self._background, frame, self.cal, self.pose, p.tip)
        self._background, self._bg_small = frame, small
        self.darts += 1
        if finding is None:
            return [DartSeen(self.camera, index, None, None)]
        bx, by = self.cal.image_to_board(np.array(finding.image))[0]
        weight = self.cal.scale_at(finding.image) ** 2 * finding.confidence
        return [
            DartSeen(
                self.camera, index, Estimate(self.camera, (float(bx), float(by)), weight), finding
            )
        ]
