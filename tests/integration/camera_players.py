"""Stand-ins for a scorer's camera readers in tests: they hand rendered frames to the
scorer's own callbacks (``on_status``, ``on_frame``) the way cameras would."""

from __future__ import annotations

import threading
import time

from kiosk.adapters.camera.synthetic import Step


class Quiet:
    """A reader that does nothing (its camera is played by another stand-in)."""

    def start(self):
        pass

    def stop(self):
        pass


class _Players:
    """Cameras ``frames[i]`` played on a thread each through the scorer's callbacks (the
    scorer's first reader stands in for all, the others do nothing)."""

    def __init__(self, scorer, frames, fps=30.0):
        self.frames, self.period = frames, 1.0 / fps
        self.readers = scorer.readers
        self._stopped = threading.Event()
        self._threads = [threading.Thread(target=self._play, args=(i,), daemon=True)
                         for i in range(len(frames))]  # fmt: skip
        scorer.readers = [self] + [Quiet()] * (len(frames) - 1)
        self.origin = time.monotonic()

    def start(self):
        for t in self._threads:
            t.start()

    def stop(self):
        self._stopped.set()
        for t in self._threads:
            t.join(timeout=10.0)

    def done(self):
        return not any(t.is_alive() for t in self._threads)

    def _play(self, i):
        raise NotImplementedError


class Apart(_Players):
    """Two cameras' frames stamped with the time they were taken (frame k: ``k *
    period``) but handed over ``lag`` s apart: the second camera far behind the first
    (a slow machine's long tip searches, a recorded video catching up)."""

    def __init__(self, scorer, frames, lag, fps=30.0):
        super().__init__(scorer, frames, fps)
        self.lag = lag

    def _play(self, i):
        reader = self.readers[i]
        reader.on_status("connected", "apart")
        if self._stopped.wait(self.lag * i):
            return
        for k, frame in enumerate(self.frames[i]):
            if self._stopped.is_set():
                return
            reader.on_frame(frame, k, self.origin + k * self.period)
            self._stopped.wait(self.period / 2)


class OneClock(_Players):
    """Cameras on one clock: camera ``i`` plays ``frames[i]`` at ``fps``, and no camera
    starts frame k+1 before every camera is done with frame k. Two videos played by two
    readers drift apart by however long each camera's first calibration check took (on
    a busy machine by half a second and more), and the tests using this are about when
    views of one dart arrive, not about that."""

    def __init__(self, scorer, frames, fps=30.0):
        super().__init__(scorer, frames, fps)
        self._barrier = threading.Barrier(len(frames))
        self.origin = 0.0
        self._start = threading.Barrier(len(frames), action=self._set_origin)

    def _set_origin(self):
        self.origin = time.monotonic()

    def stop(self):
        self._barrier.abort()
        self._start.abort()
        super().stop()

    def _play(self, i):
        reader = self.readers[i]
        reader.on_status("connected", "one clock")
        try:
            for k, frame in enumerate(self.frames[i]):
                if self._stopped.is_set():
                    return
                if k == 0:
                    self._start.wait()  # every camera's first frame at one time
                # Each frame's time is its place in the video, as a recorded video's
                # (``PlayClock``): a loaded machine slows the playing, not the clock the
                # views of one dart are grouped by.
                reader.on_frame(frame, k + 1, self.origin + k * self.period)
                self._barrier.wait()  # (a frame late is not made up for: a camera's clock)
                self._stopped.wait(self.period)
        except threading.BrokenBarrierError:
            return


class Live(_Players):
    """Cameras as live cameras give frames: each stamped when it is read, and the frames
    taken while the scorer's callback was busy (a long calibration check) dropped, the
    next one read being the camera's picture now."""

    def start(self):
        self.origin = time.monotonic()
        super().start()

    def _play(self, i):
        reader, frames = self.readers[i], self.frames[i]
        reader.on_status("connected", "live")
        k = 0
        while k < len(frames) and not self._stopped.is_set():
            reader.on_frame(frames[k], k, time.monotonic())
            k = max(k + 1, int((time.monotonic() - self.origin) / self.period))  # the frame now
            self._stopped.wait(max(0.0, self.origin + k * self.period - time.monotonic()))


# A turn with a dart, a bounce-out, a dart and the takeout (``render_rig_turn``).
TURN_WITH_BOUNCE = [Step("still", 10), Step("throw", tip=(0.0, 103.0)), Step("still", 10),
                    Step("bounce", tip=(0.0, 60.0)), Step("still", 10),
                    Step("throw", tip=(-17.7, 54.6)), Step("still", 10),
                    Step("takeout"), Step("still", 12)]  # fmt: skip


def apart_scorer(lag):
    """A started scorer of two cameras playing ``TURN_WITH_BOUNCE``, the second handing
    its views over ``lag`` s after the first (``Apart``), and the events it gives."""
    from kiosk.adapters.camera.scorer import CameraScorer
    from kiosk.adapters.camera.synthetic import render_rig_turn

    videos = render_rig_turn(7, TURN_WITH_BOUNCE, 2, off_axis=(20.0, 45.0), size=(640, 360))
    events = []
    s = CameraScorer(["cam0", "cam1"], [v.calibration for v in videos], events.append,
                     retry_interval=60)  # fmt: skip
    Apart(s, [v.frames for v in videos], lag=lag)
    s.start()
    return s, events


def said(events):
    """The darts (``Hit``) and takeouts a scorer gave, in order."""
    return [str(e.dart) if type(e).__name__ == "Hit" else type(e).__name__ for e in events
            if type(e).__name__ in ("Hit", "CameraTakeout")]  # fmt: skip


def wait(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return False
