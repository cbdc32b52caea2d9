"""Figures rounded as a league secretary's spreadsheet rounds them (an exact half up),
in the league table, the player list and the export, through the real commands."""

import csv
import io
import json

import pytest
from test_store_support import ann_marks_13_in_24_darts, command, cy_scores_501_in_4_rounds

from kiosk.adapters.store import Store
from kiosk.commands.league import HEADER


@pytest.fixture
def db(tmp_path):
    return tmp_path / "kiosk.sqlite3"


def a_night_of_halves(db):
    with Store.open(db) as store:
        for name in ("Ann", "Bob", "Cy"):
            store.players.add(name)
        store.league.start_season("Spring")
        ann_marks_13_in_24_darts(store)
        cy_scores_501_in_4_rounds(store)


def test_an_exact_half_is_rounded_up_in_the_league_table(db):
    a_night_of_halves(db)
    table = command(db, "league", "standings").splitlines()
    row = {line.split()[1]: line.split() for line in table[2:]}  # (names of one word)
    assert row["Ann"][HEADER.index("MPR")] == "1.63"  # 13 * 3 / 24 = 1.625
    assert row["Ann"][HEADER.index("Best MPR")] == "1.63"
    assert row["Cy"][HEADER.index("F pts")] == "125.3"  # 501 / 4 = 125.25


def test_an_exact_half_is_rounded_up_in_the_export(db):
    a_night_of_halves(db)
    data = json.loads(command(db, "export", "--season", "Spring", "--format", "json"))
    ann = next(r for r in data["standings"] if r["name"] == "Ann")
    assert (ann["cricket_mpr"], ann["best_cricket_mpr"]) == (1.63, 1.63)
    rows = csv.DictReader(io.StringIO(command(db, "export", "--season", "Spring")))
    ann_rows = [r for r in rows if r["name"] == "Ann"]
    assert [r["cricket_mpr"] for r in ann_rows] == ["1.63", "1.63"]  # season, night
