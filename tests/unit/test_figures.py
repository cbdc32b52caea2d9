"""Figures rounded as a spreadsheet's ROUND: an exact half away from zero, on the decimal
the float prints as (Python's own rounding gives 1.62 for 1.625 and 2.67 for 2.675)."""

import pytest

from kiosk.domain.figures import fixed, rounded
from kiosk.ui.i18n import number


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (13 * 3 / 24, 2, "1.63"),  # an MPR: 13 marks in 24 darts
        (501 / 4, 1, "125.3"),  # formula points a round
        (0.375, 2, "0.38"),
        (2.675, 2, "2.68"),  # a hair below the half as a binary float
        (1516.5, 0, "1517"),
        (-2.5, 0, "-3"),  # away from zero, as ROUND(-2.5; 0)
        (-0.004, 2, "0.00"),  # never "-0.00"
        (1.0049, 2, "1.00"),
    ],
)
def test_an_exact_half_is_rounded_up_as_a_spreadsheet_does(value, places, text):
    assert fixed(value, places) == text
    assert rounded(value, places) == float(text)
    assert number(value, places, "uk") == text.replace(".", ",")


def test_a_change_carries_its_sign():
    assert [fixed(v, 0, plus=True) for v in (15.5, -15.5, 0.2)] == ["+16", "-16", "+0"]
