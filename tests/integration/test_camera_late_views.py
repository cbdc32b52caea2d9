"""Cameras the fusion cannot wait for (too far behind, or blind while their first
calibration check runs): the others' darts are placed at once, and what the late
camera then sees of them, darts and bounce-outs, is not counted again."""

import time

from camera_players import Apart, Live, apart_scorer, said, wait

from kiosk.adapters.camera.scorer import CameraScorer
from kiosk.adapters.camera.synthetic import Step, render_rig_turn


def _camera_2_checked_slowly(monkeypatch, seconds, still_after):
    """Two cameras' videos of one dart; camera 2's calibration check takes ``seconds``
    (as with darts in the board), on its own thread."""
    from kiosk.adapters.camera import recheck as module

    steps = [Step("still", 10), Step("throw", tip=(0.0, 103.0)), Step("still", still_after)]
    videos = render_rig_turn(7, steps, 2, off_axis=(20.0, 45.0), size=(640, 360))

    def check(frame, cal):
        if cal is videos[1].calibration:
            time.sleep(seconds)
        return module.Recheck("same", 0.1)

    monkeypatch.setattr(module, "recheck", check)
    return videos


def test_a_camera_too_far_behind_to_wait_for_does_not_count_a_dart_or_bounce_out_twice():
    # Camera 2 hands its views over 4 s late, past MAX_WAIT_S: the darts are placed by
    # camera 1 alone, and camera 2's views of them, the bounce-out's too, are late.
    s, events = apart_scorer(lag=4.0)
    assert wait(lambda: s.stats.late >= 3, 20)
    time.sleep(0.5)
    s.stop()
    assert said(events) == ["T20", "MISS", "S5", "CameraTakeout"]


def test_a_camera_whose_first_check_takes_seconds_does_not_hold_the_others_darts_back(
    monkeypatch,
):
    # A camera plugged back in mid-game is checked against the board on its own thread
    # (seconds with darts in the board): meanwhile the other cameras' darts are placed
    # at once, not after the fusion waited MAX_WAIT_S for it (a player who thinks the
    # dart was missed types it in, and it counts twice).
    videos = _camera_2_checked_slowly(monkeypatch, 6.0, still_after=30)
    hits = []
    s = CameraScorer(["cam0", "cam1"], [v.calibration for v in videos],
                     lambda e: hits.append((time.monotonic(), e)) if type(e).__name__ == "Hit"
                     else None, retry_interval=60)  # fmt: skip
    play = Apart(s, [v.frames for v in videos], lag=0.0)
    s.start()
    assert wait(lambda: hits, 10)
    s.stop()
    when, hit = hits[0]
    impact = play.origin + videos[0].impacts[0][0] * play.period
    assert str(hit.dart) == "T20"
    assert when - impact < 2.2, f"{when - impact:.1f} s after the impact"


def test_a_live_camera_blind_through_a_long_first_check_does_not_count_the_dart_again(
    monkeypatch,
):
    # Live cameras drop the frames taken while the check ran: what camera 2 sees after
    # it is the dart in the board, already placed by camera 1, not a new one.
    videos = _camera_2_checked_slowly(monkeypatch, 3.0, still_after=150)
    events = []
    s = CameraScorer(["cam0", "cam1"], [v.calibration for v in videos], events.append,
                     retry_interval=60)  # fmt: skip
    play = Live(s, [v.frames for v in videos])
    s.start()
    assert wait(play.done, 30)
    time.sleep(0.5)
    s.stop()
    assert [str(e.dart) for e in events if type(e).__name__ == "Hit"] == ["T20"]
