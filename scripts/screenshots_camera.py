"""Save PNGs of the camera calibration screen into docs/screenshots/.

A rendered board (``kiosk/adapters/camera/synthetic.py``, a camera 30 degrees off
axis) stands in for the camera. Three pictures per size: marking (two points marked,
the crosshair on the third), the review of the marked points, the automatic
calibration shown for confirmation.
Usage: ``python scripts/screenshots_camera.py [OUTDIR] [--sizes 1920x1080,1280x720]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from kiosk.adapters.camera import synthetic  # noqa: E402
from kiosk.adapters.keypad import KeyAction  # noqa: E402
from kiosk.commands.camera_calibrate import Session, open_session  # noqa: E402
from kiosk.ui.screen import Click  # noqa: E402
from kiosk.ui.screens.camera_calibrate import TARGETS  # noqa: E402

SEED = 5


def shoot(s: Session, out: Path, name: str, size: tuple[int, int]) -> None:
    s.app.step(0)
    path = out / f"{name}-{size[0]}x{size[1]}.png"
    pygame.image.save(s.app.canvas, str(path))
    print(path)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("outdir", nargs="?", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--sizes", default="1920x1080,1280x720")
    args = ap.parse_args()
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    cam = synthetic.random_camera(rng, 30.0)
    image = synthetic.render(cam, synthetic.random_scene(rng), rng)

    def truth(b: tuple[float, float]) -> tuple[float, float]:
        q = cam.board_to_image @ np.array([b[0], b[1], 1.0])
        return (float(q[0] / q[2]), float(q[1] / q[2]))

    with tempfile.TemporaryDirectory() as tmp:
        cal_path = Path(tmp) / "cal.json"
        for text in args.sizes.split(","):
            w, h = (int(v) for v in text.split("x"))
            s = open_session(image, cal_path, size=(w, h))
            try:
                for t in TARGETS[:2]:
                    x, y = s.screen.image_to_screen(truth(t.board))
                    s.inbox.put(Click((round(x), round(y))), source="mouse")
                    s.app.step(0)
                s.screen.cursor = truth(TARGETS[2].board)
                shoot(s, out, "camera-calibrate-marking", (w, h))
                for t in TARGETS[2:]:
                    x, y = s.screen.image_to_screen(truth(t.board))
                    s.inbox.put(Click((round(x), round(y))), source="mouse")
                    s.app.step(0)
                shoot(s, out, "camera-calibrate-review", (w, h))
                s.inbox.put(KeyAction("undo", "-"), source="keypad")
                s.app.step(0)
                s.inbox.put(KeyAction("digit", "0"), source="keypad")
                s.app.step(0)
                shoot(s, out, "camera-calibrate-auto", (w, h))
            finally:
                s.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
