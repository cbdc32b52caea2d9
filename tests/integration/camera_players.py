"""Stand-ins for a scorer's camera readers in tests: they hand rendered frames to the
scorer's own callbacks (``on_status``, ``on_frame``) the way cameras would."""

from __future__ import annotations

import threading
import time


class Quiet:
    """A reader that does nothing (its camera is played by another stand-in)."""

    def start(self):
        pass

    def stop(self):
        pass


class Apart:
    """Two cameras' frames stamped with the time they were taken (frame k: ``k *
    period``) but handed over ``lag`` s apart: the second camera far behind the first
    (a slow machine's long tip searches, a recorded video catching up)."""

    def __init__(self, scorer, frames, lag, fps=30.0):
        self.frames, self.period, self.lag = frames, 1.0 / fps, lag
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
            t.join(timeout=5.0)

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


class Live:
    """Cameras as live cameras give frames: each stamped when it is read, and the frames
    taken while the scorer's callback was busy (a long calibration check) dropped, the
    next one read being the camera's picture now."""

    def __init__(self, scorer, frames, fps=30.0):
        self.frames, self.period = frames, 1.0 / fps
        self.readers = scorer.readers
        self._stopped = threading.Event()
        self._threads = [threading.Thread(target=self._play, args=(i,), daemon=True)
                         for i in range(len(frames))]  # fmt: skip
        scorer.readers = [self] + [Quiet()] * (len(frames) - 1)
        self.origin = time.monotonic()

    def start(self):
        self.origin = time.monotonic()
        for t in self._threads:
            t.start()

    def stop(self):
        self._stopped.set()
        for t in self._threads:
            t.join(timeout=10.0)

    def done(self):
        return not any(t.is_alive() for t in self._threads)

    def _play(self, i):
        reader, frames = self.readers[i], self.frames[i]
        reader.on_status("connected", "live")
        k = 0
        while k < len(frames) and not self._stopped.is_set():
            reader.on_frame(frames[k], k, time.monotonic())
            k = max(k + 1, int((time.monotonic() - self.origin) / self.period))  # the frame now
            self._stopped.wait(max(0.0, self.origin + k * self.period - time.monotonic()))


def wait(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return False
