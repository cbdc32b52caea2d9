import pytest

from kiosk.adapters.camera.fusion import Estimate, fuse
from kiosk.domain.darts import Dart


def test_agreeing_cameras_are_averaged_by_weight():
    f = fuse([Estimate(0, (10.0, 60.0), 1.0), Estimate(1, (12.0, 60.0), 3.0)])
    assert f is not None
    assert f.board == pytest.approx((11.5, 60.0))
    assert f.used == (0, 1)


def test_a_camera_that_disagrees_with_the_other_two_is_left_out():
    f = fuse([Estimate(0, (0.0, 103.0), 1.0), Estimate(1, (1.0, 103.0), 1.0),
              Estimate(2, (40.0, 60.0), 9.0)])  # fmt: skip
    assert f is not None
    assert f.dart == Dart.parse("T20")
    assert f.used == (0, 1)


def test_of_two_disagreeing_cameras_the_better_view_wins():
    f = fuse([Estimate(0, (0.0, 60.0), 1.0), Estimate(1, (0.0, 103.0), 2.0)])
    assert f is not None and f.dart == Dart.parse("T20")


def test_no_usable_estimate_fuses_to_nothing():
    assert fuse([]) is None
    assert fuse([Estimate(0, (float("nan"), 0.0), 1.0)]) is None
