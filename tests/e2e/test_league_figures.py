"""Figures on the real kiosk's league screens, headless: an exact half rounded up, as
the league secretary's spreadsheet rounds it (1.625 -> 1.63, 125.25 -> 125.3)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_league_screens import kiosk, saved, to_league
from tests.integration.test_store_support import (
    ann_marks_13_in_24_darts,
    cy_scores_501_in_4_rounds,
)


def test_the_standings_round_an_exact_half_up_in_every_language(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob", "Cy")
        ann_marks_13_in_24_darts(store)  # MPR 13 * 3 / 24 = 1.625
        cy_scores_501_in_4_rounds(store)  # 501 / 4 = 125.25 points a round
        to_league(d)
        d.press("2")  # Tonight's standings
        assert d.screen.name == "standings"
        ann = d.texts[d.texts.index("Ann") + 1 :][:9]
        assert ann[4:6] == ["1.63", "1.63"], ann  # MPR, best MPR
        cy = d.texts[d.texts.index("Cy") + 1 :][:9]
        assert cy[6] == "125.3", cy  # formula points a round
        d.press("/")
        d.kiosk.set_language("uk")
        d.press("2")  # Tonight's standings, in Ukrainian: a decimal comma
        ann = d.texts[d.texts.index("Ann") + 1 :][:9]
        assert ann[4:6] == ["1,63", "1,63"], ann
