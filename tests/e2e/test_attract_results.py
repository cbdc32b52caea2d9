"""The attract screen's last results say who won or drew as the results screen did: a
team's win in the plural, a draw among some of the players naming them (the real
kiosk, headless)."""

from __future__ import annotations

from pathlib import Path

from kiosk_support import kiosk_on_virtual_board

from kiosk.domain.cricket import CricketGame, parse_input
from kiosk.ui.screens.results import cricket_line


def play(game: CricketGame, script: str) -> CricketGame:
    for token in script.split():
        game.apply(parse_input(token))
    return game


def shown(tmp_path: Path, game: CricketGame) -> list[str]:
    with kiosk_on_virtual_board(tmp_path) as d:
        d.kiosk.add_result(cricket_line(game))
        d.wait_for(lambda: "Last results" in d.texts, what="the last results drawn")
        return d.texts


def test_a_teams_win_is_said_in_the_plural(tmp_path: Path) -> None:
    # "winner Anna & Chen": the results screen had said "Anna & Chen win!".
    game = CricketGame([], teams=[["Anna", "Chen"], ["Boris", "Dana"]])
    play(game, "T20 T19 T18 END T17 T16 T15 END DB SB")
    assert game.outcome() is not None
    assert "Cricket: winners Anna & Chen  (Anna · Boris · Chen · Dana)" in shown(tmp_path, game)


def test_a_draw_between_two_of_three_names_the_two(tmp_path: Path) -> None:
    # "draw (Anna · Boris · Chen)" read as if all three drew; Chen was third.
    game = CricketGame(["Anna", "Boris", "Chen"], round_limit=1)
    play(game, "T20 END T20 END END")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert "Cricket: draw Anna & Boris  (Anna · Boris · Chen)" in shown(tmp_path, game)


def test_a_draw_of_two_is_a_draw(tmp_path: Path) -> None:
    game = CricketGame(["Anna", "Boris"], round_limit=1)
    play(game, "T20 END T20 END")
    assert "Cricket: draw  (Anna · Boris)" in shown(tmp_path, game)


def test_four_long_names_at_800x480_leave_the_winner_readable(tmp_path: Path) -> None:
    # The whole line shrank to about 7 px; the winner is read, the players left out.
    names = ["Олександра-Вікторія", "Christopher Longname", "Єлизавета Ковальчук",
             "Maximilian-Alexander"]  # fmt: skip
    game = play(CricketGame(names), "T20 T19 T18 END END END T17 T16 T15 END END END DB SB")
    assert game.outcome() is not None
    with kiosk_on_virtual_board(tmp_path, size=(800, 480)) as d:
        d.kiosk.add_result(cricket_line(game))
        d.wait_for(lambda: "Last results" in d.texts, what="the last results drawn")
        line = "Cricket: winner Олександра-Вікторія"
        assert line in d.texts, d.texts
        assert d.rect_of(line).height >= 0.03 * 480  # (3.4 % of the height, kept)


def test_a_result_that_names_nobody_keeps_its_players_when_it_is_too_long(
    tmp_path: Path,
) -> None:
    # "Formula darts: both lost  (…)  …": the names are the only ones it has. Too long
    # at 800x480, it kept the detail and lost the players, and read as nobody's game.
    from kiosk.ui.context import ResultLine

    line = ResultLine("Formula darts", None, ("Олександра-Вікторія", "Christopher Longname"),
                      lambda t: "No formula in time: the game is lost", all_lost=True)  # fmt: skip
    with kiosk_on_virtual_board(tmp_path, size=(800, 480)) as d:
        d.kiosk.add_result(line)
        d.wait_for(lambda: "Last results" in d.texts, what="the last results drawn")
        said = next(t for t in d.texts if t.startswith("Formula darts:"))
        assert "Олександра-Вікторія" in said, said
        assert d.rect_of(said).height >= 0.03 * 480
