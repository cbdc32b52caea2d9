from kiosk.adapters.camera.detector import DartSeen, Detector
from kiosk.adapters.camera.synthetic import SHAKE_FRAMES, Step, render_turn


def test_each_dart_is_reported_once_after_the_shake_has_settled():
    video = render_turn(
        5,
        [Step("still", 3), Step("throw", tip=(30.0, 60.0)), Step("still", 4),
         Step("throw", tip=(-50.0, -20.0)), Step("still", 4)],
        off_axis=30.0,
    )  # fmt: skip
    det = Detector(video.calibration)
    seen = []
    for i, f in enumerate(video.frames):
        seen += [(i, o) for o in det.feed(f, i) if isinstance(o, DartSeen)]
    impacts = [i for i, _ in video.impacts]
    assert [i for i, _ in seen] == [k + SHAKE_FRAMES + det.params.settle_frames for k in impacts]
    assert det.darts == 2
