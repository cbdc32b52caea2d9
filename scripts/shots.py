"""What the ``screenshots*.py`` scripts share: the headless set-up, the command line
(``[OUTDIR] [--sizes 1920x1080,1280x720]``), a kiosk started and closed per scene, and
where each PNG goes (``NAME-WxH.png``; another language than English adds ``-uk``).

Import it before anything that imports pygame: it sets the SDL dummy drivers.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from kiosk.bootstrap import Options, build  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.ui.driver import Driver  # noqa: E402

Size = tuple[int, int]


@dataclass(frozen=True)
class Shots:
    """One size's pictures, saved into ``out``."""

    out: Path
    size: Size
    language: str = "en"

    def path(self, name: str) -> Path:
        suffix = "" if self.language == "en" else f"-{self.language}"
        return self.out / f"{name}-{self.size[0]}x{self.size[1]}{suffix}.png"

    def take(self, d: Driver, name: str) -> Path:
        """The kiosk's screen as it is now (a frame drawn first)."""
        path = self.path(name)
        d.screenshot(str(path))
        print(path)
        return path

    def save(self, surface: pygame.Surface, name: str) -> Path:
        path = self.path(name)
        pygame.image.save(surface, str(path))
        print(path)
        return path


def parse(doc: str | None, languages: Sequence[str] = ()) -> list[Shots]:
    """The command line, one ``Shots`` per size asked for; ``languages``: the choices of
    a ``--language`` option (none without). Makes the output folder."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("outdir", nargs="?", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--sizes", default="1920x1080,1280x720")
    if languages:
        parser.add_argument("--language", default="en", choices=tuple(languages))
    args = parser.parse_args()
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    language = getattr(args, "language", "en")
    shots = []
    for spec in args.sizes.split(","):
        w, h = (int(v) for v in spec.split("x"))
        shots.append(Shots(out, (w, h), language))
    return shots


def start(size: Size, language: str = "en", **options: Any) -> Driver:
    """The real app, headless, in a window of ``size``; ``options`` for ``Options``."""
    # Screenshots never write into the developer's own games database.
    if "data_dir" not in options and options.get("store", True):
        options["data_dir"] = Path(tempfile.mkdtemp(prefix="darts-shots-"))
    options.setdefault("env", {})
    d = Driver(build(Options(window=True, size=size, **options), Config()))
    # The league screen's "clock not set" line depends on this machine's clock, not the scene.
    d.kiosk.clock_source = lambda: None
    if language != "en":
        d.kiosk.set_language(language)
    d.settle()
    return d


@contextmanager
def kiosk(size: Size, language: str = "en", **options: Any) -> Iterator[Driver]:
    """``start``, and the app closed after the scene (also when it fails)."""
    d = start(size, language, **options)
    try:
        yield d
    finally:
        d.running.close()
