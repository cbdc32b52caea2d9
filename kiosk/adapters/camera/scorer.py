"""Cameras -> darts, for the kiosk: the camera twin of the serial ``BoardReader``.

``CameraScorer(sources, calibrations, sink).start()`` runs a reader thread per camera
(capture -> ``Detector``) and one thread that fuses what the cameras saw of a dart
(``fusion.fuse``) and calls ``sink`` with:

- ``Hit(dart)`` (``kiosk.adapters.serial_board.protocol.Hit``): a dart, or
  ``Hit(Dart.MISS)`` for a bounce-out;
- ``CameraStatus(camera, state, detail)``: "connected", "lost", "reconnecting" (also
  "lost" with ``calibrate=True`` for a camera that must be calibrated again: turned
  away while running, moved since it was calibrated (``recheck``, on its first
  picture each time it connects), or pictures of another shape);
- ``CameraTakeout()``: the darts were pulled (the app may treat it as "next player");
- ``CameraDoubt(dart, other)``: right after the ``Hit(dart)`` of a dart whose point
  lies so close to a wire that it could as well be ``other`` (``Fused.doubt``): the
  dart counts, and the player is asked to check it. Also counted in ``stats.doubts``;
- ``CameraBounce()``: right after the ``Hit(Dart.MISS)`` of a bounce-out, so the
  player is told why a miss was counted (and can undo one that was no dart);
- ``CameraFellOut()``: a dart fell out of the board (seen gone, no hand near it): no
  ``Hit`` (a dart searched for there would be placed on the dart that is gone); the
  player is told, and corrects the dart it was if it should not score;
- ``CameraUnreadable(cameras)``: a dart landed (a dart-sized change) but no camera
  could place its tip: no ``Hit`` is sent, the player enters that dart by hand. Also
  counted in ``stats.unreadable``;
- ``CameraKnocked(cameras)``: a camera was knocked and its calibration found off
  (``_knocked``), and no other camera placed a dart then: a dart that landed as it
  swung is not told from the swing, so the player types it if one did. Also counted
  in ``stats.knocked``.
"""

from __future__ import annotations

import bisect
import logging
import math
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from kiosk.adapters.camera.calibration import Calibration, CalibrationError
from kiosk.adapters.camera.capture import CameraReader, PlayClock
from kiosk.adapters.camera.detector import (
    Bounce,
    DartSeen,
    Detector,
    DetectorParams,
    FellOut,
    Observation,
    Phase,
    Takeout,
)
from kiosk.adapters.camera.fusion import fuse
from kiosk.adapters.camera.recheck import Checks, Recheck
from kiosk.adapters.serial_board.protocol import Hit
from kiosk.domain.darts import Dart

log = logging.getLogger("kiosk.camera")
LOG_SHIFT_PX = 0.5  # a camera whose picture moved this far (pixels) is logged

# Views of one dart are grouped by the time of the frames they were seen in, not by
# when they arrive: a camera behind the others (a long tip search on a slow machine,
# a recorded video catching up) is waited for until it has looked past the dart.
WINDOW_S = 0.25  # cameras' views of one dart are in frames this close in time
MAX_WAIT_S = 3.0  # ... but a camera that gives no frames is not waited for longer
LATE_S = 1.0  # views from only other cameras this near a dart: the same dart, late
POLL_S = 0.01
RECENT = 8  # darts and bounce-outs remembered for that
# The detail of a ``lost`` status for a camera whose checks find no board in its view.
NOT_IN_VIEW = "does not see the board"
CHECK_WAIT_S = 1.0  # a camera's first check (on its thread) is waited out this long


@dataclass(frozen=True, slots=True)
class CameraStatus:
    camera: int
    state: str  # "connected", "lost", "reconnecting"
    detail: str = ""
    calibrate: bool = False  # lost until calibrated again (it moved, or its picture size)


@dataclass(frozen=True, slots=True)
class CameraTakeout:
    """The darts were taken out of the board."""


@dataclass(frozen=True, slots=True)
class CameraDoubt:
    """The dart just scored could as well be ``other`` (its point is at a wire)."""

    dart: Dart
    other: Dart


@dataclass(frozen=True, slots=True)
class CameraBounce:
    """The miss just scored was a dart seen to bounce out (or something dart-sized that
    came and went)."""


@dataclass(frozen=True, slots=True)
class CameraFellOut:
    """A dart fell out of the board: not a new dart (the one it was still counts)."""


@dataclass(frozen=True, slots=True)
class CameraUnreadable:
    """A dart landed but no camera could place its tip (enter it by hand)."""

    cameras: tuple[int, ...] = ()  # the cameras that saw the change


@dataclass(frozen=True, slots=True)
class CameraKnocked:
    """A camera was knocked, and what changed as it swung is not counted: a dart that
    landed then (no other camera placed one) is typed in."""

    cameras: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class _Swing:
    """Camera ``camera`` knocked (its calibration found off) at frame ``frame``."""

    camera: int
    frame: int


@dataclass(frozen=True, slots=True)
class _View:
    t: float  # the time of the frame it was seen in
    came: float  # when it reached the fusion (time.monotonic)
    obs: Observation | _Swing


@dataclass(slots=True)
class ScorerStats:
    darts: int = 0
    bounces: int = 0
    takeouts: int = 0
    unreadable: int = 0
    doubts: int = 0
    late: int = 0  # views that came after their dart was scored (not fused)
    fell_out: int = 0  # darts seen to fall out of the board (no new dart)
    knocked: int = 0  # knocks with no dart placed by another camera (asked for)


class CameraScorer:
    def __init__(
        self,
        sources: Sequence[str | int],
        calibrations: Sequence[Calibration],
        sink: Callable[[object], None],
        *,
        realtime: bool = False,
        loop: bool = False,
        retry_interval: float = 1.0,
        params: DetectorParams | None = None,
        numbers: Sequence[int] | None = None,
    ) -> None:
        if len(sources) != len(calibrations) or not sources:
            raise ValueError("one calibration per camera, at least one camera")
        # Each camera's number in the log, as the screen names it (from 1; the config's
        # order, with cameras left out skipped).
        self.numbers = list(numbers) if numbers is not None else list(range(1, len(sources) + 1))
        self.sink = sink
        self.stats = ScorerStats()
        self._q: queue.Queue[tuple[float, Observation | _Swing] | None] = queue.Queue()
        self._live = [False] * len(sources)
        # Since when its first check (``recheck``) runs on its own thread (None: not):
        # seconds with darts in the board, no frames meanwhile. Waited out no longer
        # than ``CHECK_WAIT_S``, or every dart would wait ``MAX_WAIT_S`` for it (and a
        # player who thinks a dart was missed types it in).
        self._checking: list[float | None] = [None] * len(sources)
        # Each camera's frame time whose views are all queued: a camera that has not
        # reported a dart and has looked past it did not see it.
        self._through = [-math.inf] * len(sources)
        self.calibrations = list(calibrations)
        self._bad_size: dict[int, tuple[int, int]] = {}
        # The calibration checked against the board (``recheck``), on a thread of its own.
        self._check_pool = ThreadPoolExecutor(1, thread_name_prefix="camera-check")
        self._checks = [Checks(self._check_pool) for _ in sources]
        self._stale = [False] * len(sources)  # moved since it was calibrated: no darts
        self._blind = [False] * len(sources)  # its checks find no board in view: said
        # Knocked, and the check since could not tell where the board is: no darts from
        # it until a check can (``_knocked``).
        self._held = [False] * len(sources)
        self._latest: list[tuple[np.ndarray, float] | None] = [None] * len(sources)
        # The last darts and bounce-outs acted on: (frame time, the cameras that saw it).
        self._recent: list[tuple[float, frozenset[int]]] = []
        self._last_swing = -math.inf  # the frame time of the last knock acted on
        self.detectors = [
            Detector(c, i, params or DetectorParams()) for i, c in enumerate(calibrations)
        ]
        clock = PlayClock()  # recorded videos of one rig keep time together
        self.readers = [
            CameraReader(
                src,
                self._frame_cb(i),
                self._status_cb(i),
                realtime=realtime,
                loop=loop,
                retry_interval=retry_interval,
                size=calibrations[i].image_size,
                name=f"camera {self.numbers[i]}",  # (its number in the settings)
                clock=clock,
            )
            for i, src in enumerate(sources)
        ]
        self._thread: threading.Thread | None = None

    def _frame_cb(self, i: int) -> Callable[[np.ndarray, int, float], None]:
        det = self.detectors[i]

        told = (0.0, 0.0)  # the camera's shift last logged

        def on_frame(frame: np.ndarray, index: int, t: float) -> None:
            nonlocal told
            self._latest[i] = (frame, time.monotonic())
            h, w = frame.shape[:2]
            if (w, h) != det.cal.image_size and not self._fit_size(i, (w, h)):
                return
            checks = self._checks[i]
            scoring = not (det.moved_away or self._stale[i] or self._held[i])
            still = det.phase != Phase.MOVING or not scoring  # (the detector is not fed then)
            # (its first check, when due, runs here)
            self._checking[i] = since = time.monotonic() if checks.first else None
            try:
                r = checks.poll(frame, det.cal, still)
            finally:
                self._checking[i] = None
            if r is not None:
                others = any(self._live[j] for j in range(len(self._live)) if j != i)
                afresh = since is not None and others and time.monotonic() - since >= CHECK_WAIT_S
                if afresh:
                    # The others placed what landed while it looked away (not waited
                    # for): seen from here, after the check, it would be a dart again.
                    # The next frame is the board as it is now (this one is from before).
                    det.reset()
                self._checked(i, r)
                told = det.shift  # (a calibration fitted again starts from where it is)
                if afresh:
                    return
            if det.moved_away or self._stale[i] or self._held[i]:
                return
            try:
                seen = det.feed(frame, index)
                said: list[Observation | _Swing] = list(seen)
                if det.check_due:
                    said = self._knocked(i, frame, index, seen)
                for obs in said:
                    self._q.put((t, obs))
            finally:
                self._through[i] = t
            if det.moved_away:
                self._live[i] = False
                log.error("camera %d was moved (%.0f px): no darts from it until its "
                          "calibration is fitted to the board again, or it is calibrated "
                          "again", self.numbers[i], det.moved_away)  # fmt: skip
                self._emit(CameraStatus(i, "lost", "moved: calibrate it again", calibrate=True))
                checks.ask(wait=False)  # further than frames are lined up: a fit may do
                self._q.put((t, _Swing(i, index)))  # (a dart thrown then: not seen)
                return
            if math.dist(det.shift, told) >= LOG_SHIFT_PX:
                told = det.shift
                dx, dy = det.shift
                log.warning("camera %d moved: %.2f, %.2f px since it started (its frames are "
                            "lined up; if it keeps moving, fix its mount and calibrate it again)",
                            self.numbers[i], dx, dy)  # fmt: skip

        return on_frame

    def _knocked(
        self, i: int, frame: np.ndarray, index: int, seen: list[Observation]
    ) -> list[Observation | _Swing]:
        """Camera ``i``'s picture ``frame`` has just settled moved further than its frames
        are lined up, or changed for good (``Detector.check_due``): knocked round, or
        someone stands in front of it. Its calibration is checked on ``frame`` at once,
        before what it saw counts: a dart it saw as it was knocked, found off its
        calibration (fitted again, moved, or the board not in view), was the knock
        (the picture swinging round is a change as a dart's is), and is left out. A
        check that cannot tell holds the camera (no darts) until one can; when none
        has after ``RECHECK_TRIES``, it is to be calibrated again. Found off, the knock
        goes to the fusion as a ``_Swing``: a dart thrown as it swung is not told from
        the swing (it is often judged no dart at all, the change larger than darts),
        and unless another camera placed one then, the player is asked for it."""
        det = self.detectors[i]
        det.check_due = False
        log.warning("camera %d: its picture moved or changed for good (knocked? someone in "
                    "front of it?): checking its calibration against the board",
                    self.numbers[i])  # fmt: skip
        checks = self._checks[i]
        checks.ask(wait=True)
        self._checking[i] = time.monotonic()
        try:
            r = checks.poll(frame, det.cal, True)
        finally:
            self._checking[i] = None
        if r is None:  # (a check already running: it is looked at on the next frame)
            return list(seen)
        self._checked(i, r)
        if not (det.moved_away or self._stale[i]):
            if det.phase is Phase.EMPTY:  # (fitted again: the picture checked is the board)
                det.feed(frame, index)
            det.look_again(index)  # (the frames the check took were not seen: a dart?)
        if r.verdict in ("same", "numbers"):  # (numbers alone: darts over them; again)
            return list(seen)
        if r.verdict in ("unknown", "unseen"):  # (checked again: ``_checked`` says on)
            log.warning("camera %d: no darts from it until its calibration is seen to fit "
                        "the board", self.numbers[i])  # fmt: skip
            self._held[i], self._live[i] = True, False
            self._emit(CameraStatus(i, "lost", f"{NOT_IN_VIEW}: check it"))
        log.info("camera %d: the change it saw as it was knocked is not counted as a dart "
                 "(its calibration was %s)", self.numbers[i], r.verdict)  # fmt: skip
        return [*(o for o in seen if not isinstance(o, DartSeen)), _Swing(det.camera, index)]

    def _fit_size(self, i: int, size: tuple[int, int]) -> bool:
        """Camera ``i`` gives pictures of ``size``, not its calibration's (it would not
        take the size asked for): the calibration scaled to them, or, for another
        shape, the camera reported unusable (once per size)."""
        det = self.detectors[i]
        w0, h0 = self.calibrations[i].image_size
        try:
            det.use(self.calibrations[i].for_size(size))
        except CalibrationError as e:
            if self._bad_size.get(i) != size:
                self._bad_size[i] = size
                self._live[i] = False
                log.error("camera %d: %s", self.numbers[i], e)
                why = f"{size[0]}x{size[1]} pictures: calibrate again"
                self._emit(CameraStatus(i, "lost", why, calibrate=True))
            return False
        log.warning("camera %d gives %dx%d pictures, calibrated at %dx%d: calibration scaled",
                    self.numbers[i], size[0], size[1], w0, h0)  # fmt: skip
        return True

    def _checked(self, i: int, r: Recheck) -> None:
        """What camera ``i``'s calibration check said (``recheck``): moved a little, it
        is fitted again; further, it gives no darts until it is calibrated again; in
        place (or fitted again) after it was reported moved, it scores again."""
        det = self.detectors[i]
        down = bool(det.moved_away) or self._stale[i] or self._blind[i] or self._held[i]
        if r.verdict == "same":
            log.info("camera %d is where it was calibrated (within %.1f mm)", self.numbers[i],
                     r.drift_mm)  # fmt: skip
            if det.moved_away:
                det.use(det.cal)  # put back where it was
        elif r.verdict == "refitted" and r.calibration is not None:
            log.warning("camera %d had moved %.1f mm since it was calibrated: its calibration is "
                        "fitted to the board's rings again (%s); calibrate it again to be sure",
                        self.numbers[i], r.drift_mm, r.detail)  # fmt: skip
            det.use(r.calibration)
        elif r.verdict == "moved":
            log.error("camera %d has moved %.0f mm since it was calibrated (the board is found "
                      "elsewhere: %s): its darts would be placed wrong; calibrate it again",
                      self.numbers[i], r.drift_mm, r.detail)  # fmt: skip
            self._stale[i] = True
            self._live[i] = False
            why = "moved since it was calibrated: calibrate it again"
            self._emit(CameraStatus(i, "lost", why, calibrate=True))
            return
        elif r.verdict == "blind":
            if not self._blind[i]:
                log.error("camera %d does not see the board (%s): covered, turned away or in "
                          "the dark? Its darts are missed until it does", self.numbers[i],
                          r.detail)  # fmt: skip
                self._blind[i] = True
                self._live[i] = False
                self._emit(CameraStatus(i, "lost", f"{NOT_IN_VIEW}: check it"))
            return
        elif r.verdict == "numbers":
            then = "checking again" if self._checks[i].again else r.detail
            log.warning("camera %d: the board's numbers put 20 elsewhere than its calibration, "
                        "its rings where it puts them (darts over the numbers?): %s",
                        self.numbers[i], then)  # fmt: skip
            return
        else:
            log.info("camera %d: could not check its calibration against the board (%s)%s",
                     self.numbers[i], r.detail,
                     "; trying again" if self._checks[i].again else "")  # fmt: skip
            if self._held[i] and not self._checks[i].again:
                # Knocked, and never seen in place since: as good as moved.
                log.error("camera %d was knocked and its calibration could not be checked "
                          "since: calibrate it again", self.numbers[i])  # fmt: skip
                self._held[i], self._stale[i] = False, True
                self._emit(CameraStatus(i, "lost", "knocked: calibrate it again", calibrate=True))
            return
        if down:  # it scores again
            said = "in place (fitted to the board again)"
            if self._blind[i] or self._held[i]:
                det.reset()  # (the board it sees now is the background, not a dart)
                said = "sees the board again"
            self._stale[i] = self._blind[i] = self._held[i] = False
            self._live[i] = True
            self._emit(CameraStatus(i, "connected", said))

    def _status_cb(self, i: int) -> Callable[[str, str], None]:
        def on_status(state: str, detail: str) -> None:
            if state == "connected":  # it may have been moved while it was away
                self._checks[i].ask(wait=True)
                self._stale[i] = self._blind[i] = self._held[i] = False
                # Its pictures' size is looked at afresh: pictures of a shape it cannot
                # score are reported again, not taken for a working camera.
                self._bad_size.pop(i, None)
            self._live[i] = state == "connected" and not self.detectors[i].moved_away
            if state != "connected":
                self.detectors[i].reset()  # the view may have moved while it was away
            elif self.detectors[i].moved_away:  # back, but still turned away
                self._emit(CameraStatus(i, "lost", "moved: calibrate it again", calibrate=True))
                return
            self._emit(CameraStatus(i, state, detail))

        return on_status

    def picture(self, i: int, max_age_s: float = 2.0) -> np.ndarray | None:
        """Camera ``i``'s latest picture, also when it gives no darts (moved), unless it
        is older than ``max_age_s`` (the camera stopped): the calibration screen's
        picture while this scorer holds the camera (a V4L2 camera streams to one reader
        at a time)."""
        got = self._latest[i]
        if got is None or time.monotonic() - got[1] > max_age_s:
            return None
        return got[0]

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("CameraScorer already started")
        self._thread = threading.Thread(target=self._run, name="camera-fusion", daemon=True)
        self._thread.start()
        for r in self.readers:
            r.start()

    def stop(self) -> None:
        for r in self.readers:
            r.stop()
        self._q.put(None)
        self._check_pool.shutdown(wait=False, cancel_futures=True)
        if self._thread is not None:
            self._thread.join(timeout=3.0)

    def _emit(self, item: object) -> None:
        try:
            self.sink(item)
        except Exception:  # the UI's bug must not kill the cameras
            log.exception("camera event sink failed on %r", item)

    def _run(self) -> None:
        # Views not yet acted on, in frame-time order: (frame time, when it came, view).
        # The earliest is acted on once every camera has had its say on it (``_ready``):
        # a takeout, or a dart from the views within ``WINDOW_S`` of it. So a camera
        # ahead of the others neither hands the turn on (its takeout) before their
        # views of the turn's last dart, nor joins its next dart to their last.
        views: list[_View] = []
        last_takeout = -1e9
        stop = False
        while not stop:
            try:
                item = self._q.get(timeout=POLL_S if views else None)
            except queue.Empty:
                item = None
            else:
                stop = item is None
            if item is not None:
                t, obs = item
                bisect.insort(views, _View(t, time.monotonic(), obs), key=lambda v: v.t)
            while views and (stop or self._ready(views)):
                first = views[0]
                if isinstance(first.obs, Takeout):
                    views.pop(0)
                    if first.t - last_takeout > 2.0:
                        self.stats.takeouts += 1
                        self._emit(CameraTakeout())
                    last_takeout = first.t
                    continue
                if isinstance(first.obs, _Swing):
                    views.pop(0)
                    self._swung(first, views)
                    continue
                until = first.t + WINDOW_S
                group = [v for v in views
                         if v.t <= until and not isinstance(v.obs, Takeout | _Swing)]  # fmt: skip
                views = [v for v in views if all(v is not g for g in group)]
                pending = [v.obs for v in group if not isinstance(v.obs, _Swing)]
                try:
                    self._decide(pending, first.t)
                except Exception:  # a bug must cost one dart (typed in), not the cameras
                    log.exception("placing a dart failed: asking for it on the keypad")
                    self.stats.unreadable += 1
                    self._emit(CameraUnreadable(tuple(sorted({o.camera for o in pending}))))

    def _ready(self, views: list[_View]) -> bool:
        """Whether every live camera has had its say on the earliest view (frame time
        ``t``): it has a view within ``WINDOW_S`` of it, or it has handed over its views
        of the frames up to ``t + WINDOW_S`` (a camera that saw nothing there: a dart
        hidden from it). A camera that gives no frames is waited for ``MAX_WAIT_S``."""
        first = views[0]
        now = time.monotonic()
        if now - first.came >= MAX_WAIT_S:
            return True
        # (A knock: the others' say on a dart within ``LATE_S`` of it, ``_swung``.)
        until = first.t + (LATE_S if isinstance(first.obs, _Swing) else WINDOW_S)
        spoke = {v.obs.camera for v in views if v.t <= until}
        checking = [c is not None and now - c >= CHECK_WAIT_S for c in self._checking]
        return all(i in spoke or self._through[i] >= until
                   for i in range(len(self.detectors))
                   if self._live[i] and not checking[i])  # fmt: skip

    def _swung(self, swing: _View, views: list[_View]) -> None:
        """A camera knocked: unless another camera placed a dart, or saw one bounce,
        within ``LATE_S`` of it (acted on, or still to be), the player is asked, once
        for the cameras knocked together (one bump of a rig's frame: their ``_Swing``s
        within ``LATE_S`` of each other, taken out of ``views`` here)."""
        together = [v for v in views if isinstance(v.obs, _Swing) and v.t - swing.t < LATE_S]
        for v in together:
            views.remove(v)
        knocked = {swing.obs.camera, *(v.obs.camera for v in together)}
        told, self._last_swing = self._last_swing, max(self._last_swing, swing.t)
        if abs(swing.t - told) < LATE_S:  # (said for the camera knocked with it)
            return
        near = [when for when, cams in self._recent
                if abs(swing.t - when) < LATE_S and cams - knocked]  # fmt: skip
        near += [v.t for v in views if abs(v.t - swing.t) < LATE_S and v.obs.camera not in
                 knocked and isinstance(v.obs, DartSeen | Bounce)]  # fmt: skip
        names = ", ".join(str(self.numbers[c]) for c in sorted(knocked))
        if near:
            log.info("camera(s) %s knocked %.2f s from a dart the others saw: that dart "
                     "is theirs", names, min(near, key=lambda w: abs(w - swing.t))
                     - swing.t)  # fmt: skip
            return
        self.stats.knocked += 1
        log.warning("camera(s) %s knocked: a dart thrown just then is not scored; asking "
                    "the player for it", names)  # fmt: skip
        self._emit(CameraKnocked(tuple(sorted(knocked))))

    def _decide(self, obs: list[Observation], opened: float) -> None:
        seen = [o for o in obs if isinstance(o, DartSeen)]
        cams = frozenset(o.camera for o in obs if isinstance(o, DartSeen | Bounce | FellOut))
        late = [when for when, before in self._recent
                if abs(opened - when) < LATE_S and not cams & before]  # fmt: skip
        if cams and late:
            # A camera not waited for (no frames for MAX_WAIT_S, or its first check
            # running) saw a dart, or a bounce-out, the others acted on: every camera
            # sees a new one, those included.
            log.info("camera(s) %s saw a dart %.2f s from one the others saw: not counted "
                     "again", sorted(cams), opened - late[-1])  # fmt: skip
            self.stats.late += len(cams)
            return
        if cams:
            self._recent = [*self._recent[-(RECENT - 1) :], (opened, cams)]
        fell = [o for o in obs if isinstance(o, FellOut)]
        if fell and len(fell) >= len(seen):  # (most cameras saw the board where it was)
            self.stats.fell_out += 1
            log.info("a dart fell out of the board (cameras %s): no new dart",
                     sorted(o.camera for o in fell))  # fmt: skip
            self._emit(CameraFellOut())
            return
        if seen:
            fused = fuse([o.estimate for o in seen if o.estimate is not None])
            if fused is None:
                self.stats.unreadable += 1
                log.warning("a dart landed but no camera could place its tip")
                self._emit(CameraUnreadable(tuple(sorted({o.camera for o in seen}))))
                return
            self.stats.darts += 1
            log.info("dart %s at %.1f, %.1f mm (cameras %s, spread %.1f mm)", fused.dart,
                     *fused.board, fused.used, fused.spread_mm)  # fmt: skip
            self._emit(Hit(fused.dart))
            if fused.doubt is not None:
                self.stats.doubts += 1
                log.info("dart %s could be %s (%.2f mm sigma): asking the player to check",
                         fused.dart, fused.doubt, fused.sigma_mm)  # fmt: skip
                self._emit(CameraDoubt(fused.dart, fused.doubt))
        elif any(isinstance(o, Bounce) for o in obs):
            self.stats.bounces += 1
            self._emit(Hit(Dart.MISS))
            self._emit(CameraBounce())
