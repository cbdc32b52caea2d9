"""How a formula game ends, as the player sees it and as the league counts it: ended
from the game menu, lost on time, a duel's headline."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from kiosk_support import add_players, db_file, kiosk_on_board, stored_events

from kiosk.adapters.store import Store
from kiosk.ui import theme
from kiosk.ui.driver import Driver
from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.formula import start_formula


def results_and_ratings(tmp_path: Path) -> tuple[list[tuple[int, str]], list[tuple[int, int]]]:
    """(game, outcome) of every result; (game, rating went down) of every rating."""
    with closing(sqlite3.connect(db_file(tmp_path))) as conn:
        results = conn.execute("SELECT game_id, outcome FROM results ORDER BY game_id")
        ratings = conn.execute("SELECT game_id, after < before FROM ratings ORDER BY id")
        return [tuple(r) for r in results], [tuple(r) for r in ratings]  # type: ignore[misc]


def test_a_rematch_ended_before_its_digits_were_shown_is_no_game_and_costs_no_rating(
    tmp_path: Path,
) -> None:
    # Enter on a won qualification's end screen starts another at once. Ended from the
    # menu before its digits were ever shown, it was recorded as lost (rating down) with
    # a "time ran out" round of digits she never saw.
    add_players(tmp_path, "Anna")
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna",), mode="qualification",
                             digits=(3001, 3001, 3001, 5100))  # fmt: skip
        start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n")
        for _ in range(3):
            d.pad("000*0\n\n")  # 300*1: +150, then the next round
        d.pad("00+0+0\n")  # 51+0+0: 0 in round 4
        d.wait_screen("formula-end")
        assert "PERFECT!" in d.texts
        d.pad("\n")  # Enter: play again
        assert d.screen.name == "formula" and "Press Enter to see the digits" in d.texts
        d.pad("4")
        assert "End game" in d.texts and "End game (counts as lost)" not in d.texts
        d.pad("2")
        assert not any("counts as lost" in t for t in d.texts), d.texts
        d.pad("2")
        assert d.screen.name == "main-menu"
        assert len(d.kiosk.results) == 1  # the attract screen lists the won game only
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "finished"
        assert store.games.get(2).status == "abandoned"
    results, ratings = results_and_ratings(tmp_path)
    assert results == [(1, "won")]
    assert ratings == [(1, 0)]  # only the won game moved her rating (up)


def test_a_qualification_ended_between_rounds_is_lost_with_no_round_she_never_saw(
    tmp_path: Path,
) -> None:
    # Ended on round 1's result, the loss was put in round 2 ("time ran out", digits
    # 9839 never shown) and the end screen said "Time ran out".
    add_players(tmp_path, "Anna")
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna",), mode="qualification", digits=(3001, 9839))
        start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n000*0\n")  # round 1: 300*1, its result on screen
        d.pad("4")
        assert "End game (counts as lost)" in d.texts  # as rules go: it is a loss
        d.pad("22")
        d.wait_screen("formula-end")
        assert "Game ended" in d.texts
        assert "You ended the game: it counts as lost" in d.texts
        assert not any("time ran out" in t.lower() for t in d.texts), d.texts
        assert "3001" in d.texts and "9839" not in d.texts  # round 1's row only
        d.pad("/")
    results, ratings = results_and_ratings(tmp_path)
    assert results == [(1, "lost")]
    assert ratings == [(1, 1)]  # her rating went down for it
    assert [kind for _game, kind, _payload in stored_events(tmp_path)] == ["formula", "concede"]


def test_a_game_ended_in_a_round_says_it_was_ended_in_ukrainian(tmp_path: Path) -> None:
    from kiosk.config import Config

    with kiosk_on_board(tmp_path, config=Config(language="uk")) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489,)))
        d.settle()
        d.pad("\n00+4")  # the digits, a formula begun, the game menu
        assert "Завершити гру (вважається програною)" in d.texts  # noqa: RUF001
        d.pad("22")
        d.wait_screen("formula-end")
        assert "Гру завершено" in d.texts and "Час вийшов" not in d.texts


def accent_in_clock_bar(d: Driver) -> int:
    """How many pixels of the clock's bar (under its figures) are lit."""
    canvas = d.app.canvas
    w, h = canvas.get_size()
    u = h / 100
    return sum(
        1
        for x in range(int(w * 0.63) + int(u) + 2, int(w - 3 * u))
        for y in range(int(24 * u), int(25.5 * u))
        if tuple(canvas.get_at((x, y)))[:3] in (theme.ACCENT, theme.BAD)
    )


def test_the_clock_shows_the_time_left_on_a_result_and_0_00_when_it_ran_out(
    tmp_path: Path,
) -> None:
    # It jumped back to a full "2:00" on every round's result and when the time ran out.
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001)))
        d.settle()
        d.pad("\n")
        screen = d.screen
        screen.update(screen.clock + 36)  # type: ignore[attr-defined]
        d.pad("00+00\n")  # answered with 1:24 left (less a moment)
        assert session.phase == "round_done"
        assert "1:24" in d.texts and "2:00" not in d.texts, d.texts
        d.pad("\n")  # round 2: its clock runs from 2:00
        assert "2:00" in d.texts and accent_in_clock_bar(d) > 0
        screen.update(screen.clock + 121)  # type: ignore[attr-defined]
        d.settle()
        assert session.over and d.screen is screen  # the last second before the end screen
        assert "0:00" in d.texts and "2:00" not in d.texts, d.texts
        assert accent_in_clock_bar(d) == 0  # the bar empty, not full


def test_a_duels_round_result_shows_no_clock_that_is_nobodys(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(3489, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+00\n")
        d.pad("\n0+0+0+0\n")
        assert session.phase == "round_done"
        assert not any(t.endswith(":00") for t in d.texts), d.texts
        assert accent_in_clock_bar(d) == 0
        d.pad("\n")  # the next player named: the time they will get
        assert "2:00" in d.texts


def play_duel(d: Driver, anna: list[str], boris: list[str]) -> None:
    """A duel of Anna and Boris on the same digits each round (3001 x3, 5100), each
    answering in turn: Anna first in odd rounds, Boris in even ones."""
    setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(3001, 3001, 3001, 5100))
    start_formula(d.kiosk, setup)
    d.settle()
    for n, (a, b) in enumerate(zip(anna, boris, strict=True)):
        first, second = (a, b) if n % 2 == 0 else (b, a)
        d.pad(f"\n{first}\n")
        d.pad(f"\n{second}\n")
        if n < len(anna) - 1:
            d.pad("\n")  # the next round
    d.wait_screen("formula-end")


def ink(d: Driver, text: str, colour: tuple[int, ...]) -> int:
    """Pixels of ``colour`` where ``text`` was drawn."""
    canvas, rect = d.app.canvas, d.rect_of(text)
    return sum(
        1
        for x in range(rect.left, rect.right)
        for y in range(rect.top, rect.bottom)
        if tuple(canvas.get_at((x, y)))[:3] == colour
    )


def test_a_perfect_duel_names_its_winner_in_the_headline(tmp_path: Path) -> None:
    # A huge "PERFECT!" with no name: who won was only in the small line under it.
    with kiosk_on_board(tmp_path) as (d, _board):
        play_duel(d, ["000*0", "000*0", "000*0", "00+0+0"], ["0+0+0+0"] * 4)
        assert "Anna: PERFECT!" in d.texts and "PERFECT!" not in d.texts, d.texts
        assert d.rect_of("Anna: PERFECT!").height >= 0.09 * d.app.canvas.get_height()
        assert ink(d, "Anna: PERFECT!", theme.ACCENT) > 0


def test_a_draw_is_not_drawn_in_the_red_of_a_loss(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        play_duel(d, ["000*0", "000*0", "000*0", "00+0+0"], ["000*0", "000*0", "000*0", "00+0+0"])
        assert "Draw!" in d.texts and "Both reached 0" in d.texts
        assert ink(d, "Draw!", theme.BAD) == 0
        assert ink(d, "Draw!", theme.TEXT) > 0  # (drawn, in white)


def test_a_perfect_duel_headline_is_translated(tmp_path: Path) -> None:
    from kiosk.config import Config

    with kiosk_on_board(tmp_path, config=Config(language="ru")) as (d, _board):
        play_duel(d, ["000*0", "000*0", "000*0", "00+0+0"], ["0+0+0+0"] * 4)
        assert "Anna: ИДЕАЛЬНО!" in d.texts, d.texts


def test_the_menu_key_as_a_game_ends_shows_its_end_not_a_menu_that_loses_it(
    tmp_path: Path,
) -> None:
    # The menu key in the second the last move stays up opened the game menu over the
    # finished game: "End game" went to the main menu, the end screen never showed and
    # the game was missing from the attract screen's results.
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(1000,),
                                            overrides=(("start", 150),)))  # fmt: skip
        d.settle()
        d.pad("\n000+0\n")  # 100+0 and its bonus of 50: 0 in one round
        assert d.game().phase == "over" and d.screen.name == "formula"
        d.pad("4")  # the menu key, at once
        assert d.screen.name == "formula-end" and "PERFECT!" in d.texts, d.texts
        assert len(d.kiosk.results) == 1


def test_the_menu_key_closes_the_game_menu_it_opened(tmp_path: Path) -> None:
    # 4 opened the game menu and a second 4 did nothing, while the clock ran on.
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(1234,)))
        d.settle()
        d.pad("\n")  # the digits, the clock running
        d.pad("4")
        assert d.screen.name == "formula-pause"
        d.pad("4")
        assert d.screen.name == "formula" and d.game().phase == "playing"
