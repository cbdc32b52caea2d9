"""The formula screens' tables of rounds: whose each row is, readable at 800x480."""

from __future__ import annotations

from pathlib import Path

import pytest
from kiosk_support import kiosk_on_board, text_sizes

from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.formula import start_formula


def test_a_duels_rounds_table_says_whose_each_row_is_in_the_same_order_every_round(
    tmp_path: Path,
) -> None:
    # Told apart by colour only (blue, orange), and the rows swapped places each
    # round as the players took turns to answer first.
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(3489, 1231, 7014))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n0+0+0+0\n")  # round 1: Anna first (3+4+8+9)
        d.pad("\n00+00\n")  # Boris: 34+89
        d.pad("\n")
        d.pad("\n00+00\n")  # round 2: Boris first (12+31)
        d.pad("\n0+0+0+0\n")  # Anna: 1+2+3+1
        d.pad("\n")
        assert session.game.round == 3 and session.phase == "ready"
        texts = d.texts
        table = texts[texts.index("Score", texts.index("Pts")) + 1 :]  # after its heads
        whose = [t for t in table if t in ("A", "B")]
        formulas = [t for t in table if t in ("3+4+8+9", "34+89", "1+2+3+1", "12+31")]
        assert whose == ["A", "B", "A", "B"], table
        assert formulas == ["3+4+8+9", "34+89", "1+2+3+1", "12+31"], table


def test_initials_tell_the_players_apart() -> None:
    from kiosk.ui.screens.formula_rounds import short_names

    assert short_names(["Anna", "Boris"]) == ["A", "B"]
    assert short_names(["Anna", "Artem"]) == ["An", "Ar"]
    assert short_names(["Player 1", "Player 2"]) == ["P1", "P2"]
    assert short_names(["Bohdan Kostiantynovych", "Anna"]) == ["BK", "A"]
    assert short_names(["Anna'", "Anna"]) == ["Anna'", "Anna"]  # (the computer's twin)


def test_the_rounds_tables_round_numbers_are_readable_at_800x480(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The "#" column, a fixed 4.5% of the table's width, shrank "10" to 8 px.
    sizes = text_sizes(monkeypatch)
    with kiosk_on_board(tmp_path, size=(800, 480)) as (d, _board):
        setup = FormulaSetup(names=("Anna",), digits=(1111,) * 11,
                             overrides=(("max_rounds", 12),))  # fmt: skip
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n")
        for _ in range(10):
            d.pad("0+0+0+0\n\n")  # 4 points a round; Enter: the next round
        assert session.game.round == 11
        assert "10" in d.texts  # round 10's row, the table's last
        assert sizes["10"] >= 3.0 and sizes["1111"] >= 3.0, sizes


def test_a_long_duels_end_table_is_readable_at_800x480(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seven rounds, fourteen rows: they were 13 px high, their text 2.8% of the height.
    sizes = text_sizes(monkeypatch)
    with kiosk_on_board(tmp_path, size=(800, 480)) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(1111,) * 7)
        start_formula(d.kiosk, setup)
        d.settle()
        for r in range(7):
            d.pad("\n0+0+0+0\n")
            d.pad("\n00+00\n")  # 11+11
            if r < 6:
                d.pad("\n")
        d.wait_screen("formula-end")
        assert "Draw!" in d.texts  # (seven rounds, nobody at 0: classic rules)
        rows = ["Anna: 1+1+1+1 = 4", "Boris: 11+11 = 22", "Boris: 1+1+1+1 = 4", "1111", "7"]
        assert all(row in d.texts for row in rows), d.texts
        assert min(sizes[row] for row in rows) >= 3.3, sizes
        last = d.rect_of("7")  # round 7's number, above the keys' line
        d.screen.seen()  # (the end read: the keys' line offers Enter, at its longest)
        d.settle()
        assert last.bottom <= d.rect_of("Enter: play again · / or 4: menu").top


def test_each_column_of_the_end_table_is_drawn_at_one_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each cell shrank on its own to fit: the "Best" column went 11, 16, 13 px, row by
    # row, at 800x480 in Russian.
    sizes = text_sizes(monkeypatch)
    with kiosk_on_board(tmp_path, size=(800, 480)) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel",
                             digits=(3489, 1111, 9999, 2025, 7777, 1234, 5050))  # fmt: skip
        start_formula(d.kiosk, setup)
        d.settle()
        for r in range(7):
            d.pad("\n0+0+0+0\n")
            d.pad("\n0+0+0+0\n")
            if r < 6:
                d.pad("\n")
        d.wait_screen("formula-end")
        rows = d.screen._lines()  # type: ignore[attr-defined]
        for k in range(6):
            cells = {row[k] for row in rows if row[k]}
            drawn = {round(sizes[cell], 3) for cell in cells}
            assert len(drawn) == 1, (k, {cell: sizes[cell] for cell in cells})


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_a_long_formula_in_the_end_table_keeps_its_result_and_the_players_name(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # "A: pow(4,5)-pow(8,sqrt(9)) =…": cut at its end, the result was gone, and a
    # long formula turned "Anna" into "A".
    with kiosk_on_board(tmp_path, size=size) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589,),
                             overrides=(("max_rounds", 1),))  # fmt: skip
        start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n80609-8065099\n")  # Anna: pow(4,5)-pow(8,sqrt(9))
        d.pad("\n00+00\n")  # Boris: 45+89
        d.wait_screen("formula-end")
        anna = next((t for t in d.texts if t.startswith("Anna: pow(")), d.texts)
        assert isinstance(anna, str) and anna.endswith(" = 512"), anna


MARIANA = "Мар'яна"  # noqa: RUF001


@pytest.mark.parametrize(
    ("size", "digits", "keys", "shown"),
    [
        ((1280, 720), 2931, "\n80-060+09\n", f"{MARIANA}: pow(2-9,3+1) = 2401"),
        # (at 800x480 by her initial: with her name the best one lost its result)
        ((800, 480), 6707, "\n0*800609\n", "\u041c: 6\u00d7pow(70,7) = 49412580000000"),
    ],
)
def test_the_end_table_gives_a_players_formula_the_room_the_best_column_does_not_need(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    size: tuple[int, int],
    digits: int,
    keys: str,
    shown: str,
) -> None:
    # A league duel in Russian: "<name>: pow(2-9,3… = 2401" at 1280x720, and
    # "<na>… = 49412580000000" (no formula at all) at 800x480, cut beside a "Best"
    # column with room to spare: the player's cell also holds their name.
    from kiosk.config import Config

    sizes = text_sizes(monkeypatch)
    with kiosk_on_board(tmp_path, size=size, config=Config(language="ru")) as (d, _board):
        setup = FormulaSetup(names=(MARIANA, "Пётр"), mode="duel", digits=(digits,),
                             overrides=(("max_rounds", 1),))  # fmt: skip
        start_formula(d.kiosk, setup)
        d.settle()
        d.pad(keys)  # her formula
        d.pad("\n0+0+0+0\n")  # his
        d.wait_screen("formula-end")
        assert shown in d.texts, [t for t in d.texts if ": " in t]
        assert sizes[shown] >= 3.0, sizes[shown]  # (theme.SMALL: read from the oche)


def test_the_end_tables_best_column_keeps_its_result_whole_beside_a_long_formula(
    tmp_path: Path,
) -> None:
    # At 800x480 the player's "<name>: 6*pow(70,7) = 49412580000000" took so much room
    # that the best one was cut at its end: "6*pow(70,7) = 49412580…", another number,
    # and no points.
    from kiosk.config import Config

    with kiosk_on_board(tmp_path, size=(800, 480), config=Config(language="ru")) as (d, _board):
        setup = FormulaSetup(names=(MARIANA, "Пётр"), mode="duel", digits=(6707,),
                             overrides=(("max_rounds", 1),))  # fmt: skip
        start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n0*800609\n")  # her formula
        d.pad("\n0+0+0+0\n")  # his
        d.wait_screen("formula-end")
        best = [t for t in d.texts if t.endswith("(+150)")]
        assert len(best) == 2, [t for t in d.texts if "4941" in t]
        assert all(t.endswith(" = 49412580000000 (+150)") for t in best), best
        # (hers whole too, by her initial: her name is in the scores above the table)
        assert "\u041c: 6\u00d7pow(70,7) = 49412580000000" in d.texts, d.texts
