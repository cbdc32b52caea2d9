"""Where the rendered test set's darts land (``synthetic.sample_tip``)."""

from __future__ import annotations

import numpy as np

from kiosk.adapters.camera.synth_board import WIRE_MM
from kiosk.adapters.camera.synthetic import sample_tip
from kiosk.domain import board


def test_no_rendered_tip_is_inside_a_wire() -> None:
    """A steel point cannot stick in a wire's metal; the test set never asks for one."""
    rng = np.random.default_rng(1)
    for near in (False, True):
        tips = [sample_tip(rng, near) for _ in range(3000)]
        assert min(board.wire_distance(*t) for t in tips) >= WIRE_MM / 2


def test_near_wire_tips_are_within_a_millimetre_of_a_wire_on_both_sides() -> None:
    rng = np.random.default_rng(2)
    tips = [sample_tip(rng, near_wire=True) for _ in range(3000)]
    assert max(board.wire_distance(*t) for t in tips) <= WIRE_MM + 1e-9
    rings = [t for t in tips if abs(np.hypot(*t) - board.TREBLE_INNER) <= WIRE_MM]
    inside = sum(np.hypot(*t) < board.TREBLE_INNER for t in rings)
    assert 0.3 < inside / len(rings) < 0.7  # both sides of the wire, about equally


def test_uniform_tips_cover_the_board_and_a_few_misses() -> None:
    rng = np.random.default_rng(3)
    darts = [board.dart_at(*sample_tip(rng)) for _ in range(3000)]
    assert {d.multiplier for d in darts} == {0, 1, 2, 3}
    assert len({d.number for d in darts if not d.is_miss}) == 21  # 1-20 and the bull
