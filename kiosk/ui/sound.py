"""Sound effects through ``pygame.mixer``; silently off when there is no audio device.

The clips (hit, triple, bull, close, win, undo, miss; formula darts' clock: tick at
10 s left, timeup at 0) are ``assets/sounds/*.wav``, made by ``scripts/make_sounds.py``.
"""

from __future__ import annotations

import logging
from collections import deque
from pathlib import Path

import pygame

log = logging.getLogger("kiosk.ui")

NAMES = ("hit", "triple", "bull", "close", "win", "undo", "miss", "tick", "timeup")


class Sound:
    def __init__(self, directory: Path, volume: int = 70) -> None:
        self.directory = directory
        self.volume = max(0, min(100, volume))
        self._clips: dict[str, pygame.mixer.Sound] = {}
        self.enabled = False
        self.played: deque[str] = deque(maxlen=32)  # the last clips started (tests, logs)

    def start(self) -> None:
        """Open the audio device; with none (or ``SDL_AUDIODRIVER`` that fails) stay quiet."""
        try:
            # A small buffer: a "triple" sound 100 ms late would feel wrong.
            pygame.mixer.init(frequency=44100, size=-16, channels=1, buffer=512)
        except pygame.error as e:
            log.info("no sound: %s", e)
            return
        for name in NAMES:
            path = self.directory / f"{name}.wav"
            if not path.is_file():
                continue
            try:
                self._clips[name] = pygame.mixer.Sound(path)
            except pygame.error as e:
                log.warning("sound %s not loaded: %s", path, e)
        self.enabled = True
        self.set_volume(self.volume)

    def set_volume(self, volume: int) -> None:
        self.volume = max(0, min(100, volume))
        for clip in self._clips.values():
            clip.set_volume(self.volume / 100.0)

    def play(self, name: str) -> None:
        clip = self._clips.get(name)
        if clip is None or not self.enabled or self.volume == 0:
            return
        try:
            clip.play()
            self.played.append(name)
        except pygame.error as e:  # a device that went away mid-game: go quiet
            log.warning("sound off: %s", e)
            self.enabled = False

    def stop(self) -> None:
        if self.enabled:
            pygame.mixer.quit()
            self.enabled = False
