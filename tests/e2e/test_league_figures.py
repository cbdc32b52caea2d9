"""Figures on the real kiosk's league screens, headless: how they are written (an exact
half rounded up, as the league secretary's spreadsheet rounds it: 1.625 -> 1.63, 125.25
-> 125.3; a decimal comma in Ukrainian and Russian) and drawn (the standings' heads at
one size, a player page's figures alike)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.test_league_screens import kiosk, rated_win, saved, to_league
from tests.integration.test_store_support import (
    ann_marks_13_in_24_darts,
    cy_scores_501_in_4_rounds,
    formula_qualifications,
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


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_in_ukrainian_and_russian_figures_are_written_with_a_decimal_comma(
    tmp_path: Path, language: str
) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        formula_qualifications(store, "Ann")  # 50.0 points a round, 1.5 rounds to 0
        rated_win(d, ["Ann", "Bob"], "Ann")  # Cricket: 21 marks in 8 darts
        d.kiosk.set_language(language)
        to_league(d)
        d.press("2")  # Tonight's standings
        assert d.screen.name == "standings"
        mpr = f"{21 / 8 * 3:.2f}".replace(".", ",")
        after = d.texts[d.texts.index("Ann") + 1 :][:9]
        assert after[4:8] == [mpr, mpr, "50,0", "1,5"], after
        d.look()  # (the standings read first)
        d.press("\n")  # the top row: Ann
        assert d.screen.name == "player-page"
        assert f"{d.kiosk.t('Last game')}: {mpr}" in d.texts
        assert not [t for t in d.texts if re.fullmatch(r"[\d.]*\d\.\d+", t)], d.texts


def test_the_standings_heads_are_drawn_at_one_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "Очки в" at full size over a shrunk "формулах" read as two labels, and a shrunk
    # "Drawn" beside a full-size "Won" as a lesser column (800x480).
    from kiosk_support import text_sizes

    from kiosk.ui.screens.standings import COLUMNS

    sizes = text_sizes(monkeypatch)
    with kiosk(tmp_path, size=(800, 480)) as d:
        saved(d, "Ann", "Bob")
        rated_win(d, ["Ann", "Bob"], "Ann")
        to_league(d)
        for language in ("ru", "en"):
            d.kiosk.set_language(language)
            sizes.clear()
            d.press("2")  # Tonight's standings
            assert d.screen.name == "standings"
            texts = d.texts  # the title, "Player", the heads, then "1", "Ann", ...
            lines = texts[texts.index(d.kiosk.t("Player")) + 1 : texts.index("Ann") - 1]
            assert " ".join(lines) == " ".join(d.kiosk.t(label) for label, *_ in COLUMNS)
            heads = {line: sizes[line] for line in lines}
            assert len(set(heads.values())) == 1, heads
            assert min(heads.values()) >= 2.7, heads  # (% of the height: from the bar)
            d.press("/")  # back to the league menu


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_player_page_s_last_game_and_average_are_drawn_alike_on_a_small_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    # "Остання гра: 2,38" (bold, in half the width) was drawn smaller than "Середнє".  # noqa: RUF003
    from kiosk_support import text_sizes

    sizes = text_sizes(monkeypatch)
    with kiosk(tmp_path, size=(800, 480)) as d:
        saved(d, "Ann", "Bob")
        rated_win(d, ["Ann", "Bob"], "Ann")
        d.kiosk.set_language(language)
        to_league(d)
        d.press("2")  # Tonight's standings
        d.look()  # (the standings read first)
        d.press("\n")  # Ann's page
        assert d.screen.name == "player-page"
        t = d.kiosk.t
        last = next(x for x in d.texts if x.startswith(f"{t('Last game')}: "))
        mean = next(x for x in d.texts if x.startswith(f"{t('Average')}: "))
        assert abs(sizes[last] - sizes[mean]) < 0.3, (sizes[last], sizes[mean])
