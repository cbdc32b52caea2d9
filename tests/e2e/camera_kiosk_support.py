"""The real kiosk on cameras, for the e2e tests: rendered videos stand in for USB
cameras (cv2 reads a file the way it reads /dev/video0)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2

from kiosk.adapters.camera.synthetic import Step, Video, render_turn
from kiosk.bootstrap import Options, Running, build
from kiosk.config import Config
from kiosk.domain.board import centre_of
from kiosk.domain.darts import Dart
from kiosk.ui.driver import Driver


def write_video(path: Path, frames: list) -> None:
    h, w = frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (w, h))
    assert out.isOpened()
    for f in frames:
        out.write(f)
    out.release()


@contextmanager
def camera_kiosk(tmp_path: Path, config: Config) -> Iterator[tuple[Running, Driver]]:
    """The real app, headless, on the virtual board; its cameras as ``config`` says."""
    options = Options(window=True, size=(1280, 720), virtual=True, env={}, data_dir=tmp_path / "d")
    running = build(options, config)
    try:
        yield running, Driver(running)
    finally:
        running.close()


def video_config(tmp_path: Path, video: Video) -> Config:
    """The config of a kiosk whose one camera is ``video`` (camera.avi, camera.json)."""
    write_video(tmp_path / "camera.avi", video.frames)
    video.calibration.save(tmp_path / "camera.json")
    base = Config()
    camera = dataclasses.replace(
        base.camera,
        devices=(str(tmp_path / "camera.avi"),),
        calibrations=(str(tmp_path / "camera.json"),),
    )
    return dataclasses.replace(base, camera=camera)


def camera_config(tmp_path: Path, darts: list[str], seed: int) -> Config:
    steps = [Step("still", 4)]
    for text in darts:
        steps += [Step("throw", tip=centre_of(Dart.parse(text))), Step("still", 4)]
    steps += [Step("takeout"), Step("still", 6)]
    return video_config(tmp_path, render_turn(seed, steps, off_axis=15.0))
