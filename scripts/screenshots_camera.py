"""Save PNGs of the camera calibration screen into docs/screenshots/.

A rendered board (``kiosk/adapters/camera/synthetic.py``, a camera 30 degrees off
axis) stands in for the camera. Three pictures per size: marking (two points marked,
the crosshair on the third), the review of the marked points, the automatic
calibration shown for confirmation. And Settings -> Find cameras, with three rendered
videos standing in for USB cameras (udev's links in a folder of its own) and one that
gives no picture.
Usage: ``python scripts/screenshots_camera.py [OUTDIR] [--sizes 1920x1080,1280x720]``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import cv2
import numpy as np
import shots
from shots import Shots

from kiosk.adapters.camera import synthetic
from kiosk.adapters.keypad import KeyAction
from kiosk.commands._camera_calibrate import Session, open_session
from kiosk.ui.screen import Click
from kiosk.ui.screens.camera_calibrate import TARGETS

SEED = 5


def take(s: Session, shot: Shots, name: str) -> None:
    s.app.step(0)
    while s.screen.busy:  # (a check said on screen first, run on the next step)
        s.app.step(0)
    shot.save(s.app.canvas, name)


def mark(s: Session, points: list[tuple[float, float]]) -> None:
    """Click these image points on the screen, one frame each."""
    for point in points:
        x, y = s.screen.image_to_screen(point)
        s.inbox.put(Click((round(x), round(y))), source="mouse")
        s.app.step(0)


def find_cameras(shot: Shots, tmp: Path) -> None:
    """Settings -> Find cameras once the cameras are found."""
    by_id = tmp / "v4l" / "by-id"
    by_id.mkdir(parents=True, exist_ok=True)
    for k, name in enumerate(("HD_Pro_Webcam_C920_1A2B", "C270_HD_WEBCAM_9F", "Brio_4K_77")):
        steps = [synthetic.Step("still", 12)]
        video = synthetic.render_turn(SEED + k, steps, off_axis=20.0 + 12 * k, size=(640, 360))
        path = tmp / f"{name}.avi"
        out = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30, (640, 360))
        for frame in video.frames:
            out.write(frame)
        out.release()
        link = by_id / f"usb-046d_{name}-video-index0"
        if not link.exists():
            link.symlink_to(path)
    with shots.kiosk(shot.size, settings_file=tmp / "kiosk.toml") as d:
        d.running.devices.v4l = tmp / "v4l"
        d.press("\n4")
        d.look()
        d.press(str([i.label for i in d.screen.items()].index("Find cameras") + 1))  # type: ignore[attr-defined]
        d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 30)
        shot.take(d, "settings-find-cameras")


def main() -> int:
    sizes = shots.parse(__doc__)
    rng = np.random.default_rng(SEED)
    cam = synthetic.random_camera(rng, 30.0)
    image = synthetic.render(cam, synthetic.random_scene(rng), rng)

    def truth(b: tuple[float, float]) -> tuple[float, float]:
        q = cam.board_to_image @ np.array([b[0], b[1], 1.0])
        return (float(q[0] / q[2]), float(q[1] / q[2]))

    with tempfile.TemporaryDirectory() as tmp:
        cal_path = Path(tmp) / "cal.json"
        for shot in sizes:
            s = open_session(image, cal_path, size=shot.size)
            try:
                mark(s, [truth(t.board) for t in TARGETS[:2]])
                s.screen.cursor = truth(TARGETS[2].board)
                s.screen.dirty = True  # (drawn again with the crosshair there)
                take(s, shot, "camera-calibrate-marking")
                mark(s, [truth(t.board) for t in TARGETS[2:]])
                take(s, shot, "camera-calibrate-review")
                for _ in range(2):  # (the first - asks before the marks go)
                    s.inbox.put(KeyAction("undo", "-"), source="keypad")
                    s.app.step(0)
                s.inbox.put(KeyAction("digit", "0"), source="keypad")
                s.app.step(0)
                take(s, shot, "camera-calibrate-auto")
            finally:
                s.close()
            find_cameras(shot, Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
