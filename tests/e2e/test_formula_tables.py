"""The formula screens' tables of rounds: whose each row is, readable at 800x480."""

from __future__ import annotations

from pathlib import Path

from kiosk_support import kiosk_on_board

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
