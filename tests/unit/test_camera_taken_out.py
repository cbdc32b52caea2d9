import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kiosk.adapters.camera.taken_out import WIRE_CLEAR_MM, board_class
from kiosk.domain import board
from kiosk.domain.darts import Dart


def _colour(dart: Dart) -> int:
    """The regulation board's colour for a dart: 20's single is black, its double and
    treble red; 1's single cream, its double and treble green; bull green, 50 red."""
    if dart.is_bull:
        return 2 if dart.multiplier == 2 else 3
    dark = board.SEGMENTS.index(dart.number) % 2 == 0
    if dart.multiplier == 1:
        return 0 if dark else 1
    return 2 if dark else 3


@given(st.floats(-180, 180), st.floats(-180, 180))
def test_the_board_colour_under_a_point_is_its_segment_s_or_unknown_near_a_wire(x, y):
    (got,) = board_class(np.array([x]), np.array([y]))
    if np.hypot(x, y) > board.DOUBLE_OUTER or board.wire_distance(x, y) < WIRE_CLEAR_MM:
        assert got == -1
    else:
        assert got == _colour(board.dart_at(x, y))
