"""A camera knocked round during play, through the kiosk's camera scorer (one camera).

    python bench/camera_knock.py [--n 24] [--jobs 2] [--seed 7300000]

Each rendered turn (one camera 15-45 degrees off axis, 1280x720, 30 fps): a dart
anywhere on the board; then someone knocks the camera, which turns about its lens
(rolled 3-45 degrees, or panned or tilted 3-20 degrees, either way) and stays so; 1.5 s
later a second dart. The frames go to the real ``CameraScorer`` one after another, as
a camera that keeps up gives them. Prints how many turns ended each way after the
knock (the first dart, before it, is left out of it): the second dart scored right; no
dart scored and the camera named as not scoring ("calibrate it again", "does not see
the board: check it": the second dart is typed in); anything else (a dart scored
wrong, a phantom dart from the knock, a dart asked for on the keypad); and in how many
turns the player was told the camera was knocked (``CameraKnocked``: a dart thrown
as it swung is asked for). Knocks smaller
than the frames are lined up for (a fraction of a degree) are
``bench/camera_moved.py``'s.
"""

from __future__ import annotations

import logging
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _rendered
import cv2
import numpy as np

from kiosk.adapters.camera.scorer import CameraScorer, CameraStatus
from kiosk.adapters.camera.synthetic import Step, render_turn, sample_tip
from kiosk.adapters.serial_board.protocol import Hit
from kiosk.domain.board import dart_at

FPS = 30.0


def knock(rng: np.random.Generator) -> tuple[float, float, float]:
    """A turn (pan, tilt, roll degrees) a knock could give a camera."""
    sign = float(rng.choice([-1.0, 1.0]))
    kind = int(rng.integers(0, 3))
    if kind == 2:
        return 0.0, 0.0, sign * float(rng.uniform(3.0, 45.0))
    turn = [0.0, 0.0, 0.0]
    turn[kind] = sign * float(rng.uniform(3.0, 20.0))
    return turn[0], turn[1], turn[2]


def one(seed: int) -> tuple[str, tuple[float, float, float], bool]:
    """How turn ``seed`` ended (see the module's doc), the knock, and whether the
    player was told of it."""
    cv2.setNumThreads(1)
    logging.getLogger("kiosk").setLevel(logging.CRITICAL)  # (what it said is counted)
    rng = np.random.default_rng(seed)
    tips = [sample_tip(rng), sample_tip(rng)]
    turn = knock(rng)
    steps = [Step("still", 6), Step("throw", tip=tips[0]), Step("still", 10),
             Step("knock", n=6, turn=turn), Step("still", 45),
             Step("throw", tip=tips[1]), Step("still", 20)]  # fmt: skip
    video = render_turn(seed, steps, off_axis=float(rng.uniform(15.0, 45.0)))
    events: list[object] = []
    scorer = CameraScorer(["bench"], [video.calibration], events.append, retry_interval=60)
    reader, scorer.readers = scorer.readers[0], []  # (its frames are handed over here)
    scorer.start()
    reader.on_status("connected", "bench")
    for k, frame in enumerate(video.frames):
        reader.on_frame(frame, k, k / FPS)
    scorer.stop()
    first = next(k for k, e in enumerate(events) if isinstance(e, Hit))
    after = events[first + 1 :]  # (the first dart's own doubt, if any, left out)
    hits = [str(e.dart) for e in after if isinstance(e, Hit)]
    named = any(isinstance(e, CameraStatus) and e.state == "lost" for e in after)
    asked = any(type(e).__name__ == "CameraUnreadable" for e in after)
    told = any(type(e).__name__ == "CameraKnocked" for e in after)
    if hits == [str(dart_at(*tips[1]))] and not asked:
        return "right", turn, told
    if not hits and named and not asked:
        return "named", turn, told
    return "wrong", turn, told


def main() -> int:
    a = _rendered.options(__doc__, 24, 7_300_000)
    with ProcessPoolExecutor(a.jobs) as pool:
        turns = list(pool.map(one, range(a.seed, a.seed + a.n)))
    print(f"\na camera knocked round between two darts: {a.n} rendered turns, one camera,"
          f" seeds {a.seed}..{a.seed + a.n - 1}\n")  # fmt: skip
    for how in ("right", "named", "wrong"):
        print(f"{how:>6}: {sum(h == how for h, _, _ in turns)}")
    print(f"  told the camera was knocked: {sum(told for _, _, told in turns)}")
    for seed, (how, turn, _) in enumerate(turns, a.seed):
        if how == "wrong":
            print(f"  seed {seed}: knock pan/tilt/roll {turn[0]:.1f}/{turn[1]:.1f}/{turn[2]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
