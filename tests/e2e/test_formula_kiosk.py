"""Formula darts in the real kiosk, headless: typed on the numeric keypad's own keys
(keycodes through the app's key table), time driven by the ``now`` given to update."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from kiosk_support import kiosk_on_board, send, side_game_on_hold, start_game, text_sizes

from kiosk.config import Config
from kiosk.domain.cricket import CricketGame
from kiosk.domain.darts import Dart
from kiosk.ui import theme
from kiosk.ui.driver import Driver
from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.formula import start_formula


def test_seed_000_typed_on_the_keypad_scores_424_274_251(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("\n")  # attract -> main menu
        d.press("2")
        assert d.screen.name == "formula-menu"
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001, 1231)))
        d.settle()
        assert d.screen.name == "formula"
        d.look()
        d.pad("\n")  # Enter: the digits appear, the clock starts
        assert {"3", "4", "8", "9"} <= set(d.texts)
        d.pad("00+00")  # 0 = next digit: 34+89
        assert "34+89" in d.texts and "= 123" in d.texts and "\u2192 score 424" in d.texts
        d.pad("\n")
        assert session.game.score("Anna") == 424
        assert any(t.startswith("best: ") for t in d.texts), d.texts
        d.pad("\n000*0\n")  # next round: 300*1
        assert session.game.score("Anna") == 274
        d.pad("\n0+00-0\n")  # 1+23-1
        assert session.game.score("Anna") == 251
        moves = [r.moves[0].formula for r in session.game.history if r.moves]
        assert moves == ["34+89", "300*1", "1+23-1"]


def test_the_formula_menu_says_the_starting_score_of_the_config(tmp_path: Path) -> None:
    base = Config()
    config = dataclasses.replace(base, formula=dataclasses.replace(base.formula, start=301))
    with kiosk_on_board(tmp_path, config=config) as (d, _board):
        d.press("\n")  # attract -> main menu
        d.press("2")
        assert d.screen.name == "formula-menu"
        assert "Make the round's 4 digits, in order, into a formula: bring 301 to 0" in d.texts


def test_a_refused_formula_shows_why_and_stays_editable(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3001,)))
        d.settle()
        d.pad("\n00/0*0\n")  # 30/0*1
        assert "division by zero" in d.texts
        assert session.game.history[0].moves == ()
        d.pad("....0*0\n")  # delete back to 30, then 0*1
        assert session.game.score("Anna") == 501 - 150


def test_a_duel_player_who_runs_out_of_time_gets_the_automatic_move(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+0*0\n")  # Anna: 45+8*9 = 117
        assert session.player == "Boris" and session.phase == "ready"
        assert not any("45+8" in t for t in d.texts)  # Boris does not see Anna's formula
        d.pad("\n00")  # Boris starts typing, then stops thinking
        screen = d.screen
        screen.update(screen.clock + 60)
        assert session.phase == "playing"
        screen.update(screen.clock + 61)  # past the 120 s
        d.settle()
        boris = session.game.history[0].move("Boris")
        assert boris is not None and boris.auto and boris.result == 134
        assert "Boris: 45 + 89 = 134" in " ".join(d.texts)
        assert session.game.score("Boris") == 501 - 66


def test_a_cricket_match_with_a_side_game_in_the_middle_loses_no_dart(tmp_path: Path) -> None:
    thrown = ["T20", "S19", "S19", "T20", "S18", "D17", "S20", "T19", "S5"]
    with kiosk_on_board(tmp_path) as (d, board):
        cricket_screen = side_game_on_hold(d, board, thrown[:3])
        d.pad("\n00+")  # Anna types a formula while Boris throws
        send(d, board, thrown[3:6])  # Boris's turn lands in the match, shown in the strip
        assert d.screen.name == "formula-side"
        assert any("Boris: T20 S18 D17" in t for t in d.texts), d.texts
        send(d, board, ["BTN NEXT"])  # the board's button ends the hold in the match
        assert d.screen.name == "formula-side"
        send(d, board, thrown[6:7])  # Anna's own dart: the scoreboard comes back
        assert d.screen is cricket_screen
        send(d, board, thrown[7:])
        game = cricket_screen.session.game  # type: ignore[attr-defined]
        expected = CricketGame(["Anna", "Boris"])
        for text in thrown:
            expected.push(Dart.parse(text))
        assert [str(h) for h in game.history] == [str(h) for h in expected.history]
        assert game.points("Anna") == expected.points("Anna")
        assert game.current_player == expected.current_player


def test_the_side_game_legend_says_4_goes_back_to_the_scoreboard(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        side_game_on_hold(d, board, ["T20", "S19", "S19"])
        assert "scoreboard" in d.texts and "menu" not in d.texts  # the key 4's label
        d.pad("4")
        assert d.screen.name == "cricket"


def test_the_pause_menu_opens_a_side_game_and_the_match_keeps_every_dart(
    tmp_path: Path,
) -> None:
    thrown = ["T20", "S19", "S19", "T20", "S18", "D17", "S20", "T19"]
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        cricket_screen = d.screen
        send(d, board, thrown[:3])  # Anna's turn, on hold
        d.pad("/")  # the keypad's menu key
        assert d.screen.name == "pause"
        assert "Formula darts while you wait" in d.texts
        d.pad("4")
        assert d.screen.name == "formula-side"
        d.pad("\n00*")  # Anna types while Boris throws
        send(d, board, thrown[3:6])
        assert d.screen.name == "formula-side"
        d.pad("4")  # Anna leaves the side game
        assert d.screen is cricket_screen
        send(d, board, thrown[6:])
        game = cricket_screen.session.game  # type: ignore[attr-defined]
        expected = CricketGame(["Anna", "Boris"])
        for text in thrown:
            expected.push(Dart.parse(text))
        assert [str(h) for h in game.history] == [str(h) for h in expected.history]
        assert game.points("Boris") == expected.points("Boris")
        assert game.current_player == expected.current_player


def test_the_clock_ticks_at_ten_seconds_left_and_sounds_time_up_at_zero(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        sound = d.kiosk.sound
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489,)))
        d.settle()
        d.pad("\n")
        screen = d.screen
        screen.update(screen.clock + 105)  # 15 s left: quiet
        assert "tick" not in sound.played
        screen.update(screen.clock + 5.5)  # 9.5 s left
        assert list(sound.played)[-1:] == ["tick"]
        screen.update(screen.clock + 10)
        assert "timeup" in sound.played and session.over


def test_training_takes_a_formula_back_with_the_dot_and_the_round_is_answered_again(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        sound = d.kiosk.sound
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001)))
        d.settle()
        d.pad("\n0+0+0-0\n")  # 3+4+8-9: 6 points
        assert session.game.score("Anna") == 495 and session.phase == "round_done"
        assert "Enter: next round   . : take the formula back" in d.texts  # said where it is
        d.pad(".")  # take it back
        assert session.game.score("Anna") == 501 and session.phase == "playing"
        assert "3+4+8-9" in d.texts and "2:00" in d.texts  # back in the editor, a fresh clock
        assert list(sound.played)[-1:] == ["undo"]
        d.pad(".......00+00\n")  # delete it, type 34+89
        assert session.game.score("Anna") == 424
        moves = [m.formula for r in session.game.history for m in r.moves]
        assert moves == ["34+89"]
        store = d.kiosk.store
        assert store is not None
        game_id = store.games.unfinished()[-1].id
        kinds = [e.kind for e in store.games.events(game_id)]
        assert kinds == ["formula", "undo", "formula"]


def test_a_duel_refuses_to_take_a_formula_back_and_says_so(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+0*0\n")  # Anna: 45+8*9 = 117
        d.pad("\n0+0+0+0\n")  # Boris: 4+5+8+9 = 26
        assert session.phase == "round_done"
        d.pad(".")
        assert "A formula can be taken back in training only" in d.texts
        assert session.phase == "round_done"
        assert session.game.score("Boris") == 501 - 26


def test_a_dart_the_board_could_not_score_during_the_side_game_is_asked_for(
    tmp_path: Path,
) -> None:
    # A contact the board map does not have: the dart is not scored, and the match
    # needs it typed. The side game makes way so the question is seen and answered.
    with kiosk_on_board(tmp_path) as (d, board):
        cricket_screen = side_game_on_hold(d, board, ["T20", "S19", "S19"])
        send(d, board, ["BTN NEXT"])
        board.send("RAW 3 7")  # Boris's dart on an unmapped contact
        d.wait_for(lambda: d.screen is cricket_screen, what="the scoreboard back")
        d.settle()
        assert any("is not in the board map: type it on the keypad" in t for t in d.texts)
        game = cricket_screen.session.game  # type: ignore[attr-defined]
        assert game.current_player == "Boris" and not game.darts_this_turn


def test_the_side_game_plays_the_owners_formula_settings(tmp_path: Path) -> None:
    config = Config()
    config = dataclasses.replace(
        config,
        formula=dataclasses.replace(config.formula, rules="distance", start=301, time_limit=30),
    )
    with kiosk_on_board(tmp_path, config=config) as (d, board):
        side_game_on_hold(d, board, ["T20", "S19", "S19"])
        rules = d.screen.session.rules  # type: ignore[attr-defined]
        assert (rules.name, rules.start, rules.time_limit) == ("distance", 301, 30)
        assert "301" in d.texts


def side_game_lost_on_time(d: Driver) -> None:
    """The side game's player lets the clock run out: its end screen is up."""
    d.pad("\n")  # the digits, the clock starts
    screen = d.screen
    screen.update(screen.clock + 121)  # type: ignore[attr-defined]
    screen.update(screen.clock + 10)  # type: ignore[attr-defined]  # "time ran out" shown
    d.settle()
    d.wait_screen("formula-end")


def test_after_the_side_game_the_boards_next_button_is_the_matchs(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        cricket_screen = side_game_on_hold(d, board, ["T20"])  # Boris plays at the side
        side_game_lost_on_time(d)
        send(d, board, ["BTN NEXT"])  # Anna ends her turn after one dart
        assert d.screen is cricket_screen
        game = cricket_screen.session.game
        assert game.current_player == "Boris" and not game.darts_this_turn


def test_a_dart_not_read_while_the_side_game_ends_is_asked_for_on_the_scoreboard(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        cricket_screen = side_game_on_hold(d, board, ["T20", "S19", "S19"])
        send(d, board, ["BTN NEXT"])  # Boris to throw; Anna plays on at the side
        side_game_lost_on_time(d)
        board.send("RAW 3 7")  # Boris's dart on an unmapped contact
        d.wait_for(lambda: d.screen is cricket_screen, what="the scoreboard back")
        d.settle()
        assert any("is not in the board map: type it on the keypad" in t for t in d.texts)


def test_a_lost_game_alone_is_told_on_the_attract_screen_as_lost_in_the_kiosks_language(
    tmp_path: Path,
) -> None:
    from kiosk.ui.screens.attract import AttractScreen

    config = dataclasses.replace(Config(), language="uk")
    with kiosk_on_board(tmp_path, config=config) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Анна",), digits=(3489,)))
        d.settle()
        side_game_lost_on_time(d)  # (a game alone, its clock run out the same way)
        assert "Час вийшов" in d.texts  # "Time ran out"
        d.kiosk.stack.reset(AttractScreen(d.kiosk))
        d.settle()
        line = next(t for t in d.texts if t.startswith("Формульний дартс"))
        assert "програш" in line and "нічия" not in line  # lost, not a draw
        assert "No formula" not in line and "Не встигли з формулою" in line, line  # noqa: RUF001
        d.kiosk.set_language("en")  # changed on the settings screen later
        d.kiosk.stack.reset(AttractScreen(d.kiosk))
        d.settle()
        line = next(t for t in d.texts if t.startswith("Formula darts"))
        assert "lost" in line and "No formula in time: the game is lost" in line, line


def test_settings_that_allow_no_perfect_game_show_no_perfect_game_note(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489,)))
        d.settle()
        assert "Perfect game (0 by round 4): still possible" in d.texts  # 501 / 150
        setup = FormulaSetup(names=("Anna",), digits=(3489,), overrides=(("goal", 1), ("bonus", 0)))
        start_formula(d.kiosk, setup)  # 501 rounds at least, 7 allowed
        d.settle()
        assert not any(t.startswith("Perfect game") for t in d.texts)


def test_the_perfect_game_note_says_whether_the_digits_or_the_score_rule_it_out(
    tmp_path: Path,
) -> None:
    # "not any more" before the player typed a thing read as a verdict on them: it is
    # the round's digits that cannot score the 150 a perfect game needs.
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(4420, 3489)))
        d.settle()
        assert "Perfect game (0 by round 4): still possible" in d.texts
        d.pad("\n")  # 4420: no formula of these makes 100 (or 200, 300 ...)
        # (on two lines: on one it is smaller than a player reads)
        said = d.texts.index("Perfect game (0 by round 4):")
        assert d.texts[said + 1] == "not with these digits", d.texts
        d.pad("0+0+0+0\n")  # 4+4+2+0 = 10: 491 left, more than 3 rounds can take
        d.pad("\n")
        assert "Perfect game (0 by round 4): not any more" in d.texts, d.texts


def test_the_game_menu_shows_the_clock_and_the_time_running_out_there_ends_it(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489,)))
        d.settle()
        d.pad("\n00+")  # 34+, then the menu while she thinks
        d.pad("4")
        menu = d.screen
        assert menu.name == "formula-pause"
        assert "The clock keeps running: 2:00" in d.texts  # (less than 2 s thought)
        menu.update(menu.game_screen.clock + 115)  # type: ignore[attr-defined]
        d.settle()
        assert "The clock keeps running: 0:05" in d.texts  # counting down where she is
        menu.update(menu.game_screen.clock + 6)  # type: ignore[attr-defined]
        d.settle()
        # Out of time: the menu goes and the game is lost there and then, as without
        # the menu (before, it waited unseen for her to come back, the game unfinished).
        assert d.screen.name in ("formula", "formula-end") and session.over
        assert session.game.outcome().reason == "time ran out"  # type: ignore[union-attr]


def test_a_side_game_set_aside_for_a_turn_at_the_board_comes_back_as_it_was(
    tmp_path: Path,
) -> None:
    import time

    with kiosk_on_board(tmp_path) as (d, board):
        cricket_screen = side_game_on_hold(d, board, ["T20", "S19", "S19"])
        side = d.screen
        d.pad("\n00+")  # Anna starts a formula while Boris throws
        typed = side.editor.text  # type: ignore[attr-defined]
        left = side.session.remaining(side.now())  # type: ignore[attr-defined]
        send(d, board, ["S18", "S18", "S18", "BTN NEXT", "S20"])  # her turn: the scoreboard
        assert d.screen is cricket_screen
        time.sleep(1.5)  # she throws; the side game's clock waits
        send(d, board, ["S20", "S20"])  # her turn is over, on hold
        d.pad("/4")  # the side game again
        assert d.screen is side and side.editor.text == typed  # type: ignore[attr-defined]
        assert side.session.remaining(side.now()) > left - 1.0  # type: ignore[attr-defined]
        assert side.session.game.round == 1  # type: ignore[attr-defined]
        d.pad("00")  # and she types on where she was
        rest = str(side.session.game.digits)[2:]  # type: ignore[attr-defined]
        assert side.editor.text == typed + rest  # type: ignore[attr-defined]


def test_the_hint_shows_at_once_and_the_tips_go_stale_no_longer(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489,)))
        d.settle()
        d.pad("\n2")  # a key with no use: the tip
        assert "0 = the next digit (3)" in d.texts
        d.pad("1")  # the hint, at once: not hidden under the tip for its 4 s
        hint = [t for t in d.texts if t.startswith("Hint: ")]
        assert hint, d.texts
        d.pad("1")  # again: the hint is there to read, no red "one hint per round" over it
        assert hint[0] in d.texts and "one hint per round" not in d.texts
        d.pad("0000")
        d.pad("2")  # all four digits in: the tip says so
        assert "All four digits are in" in d.texts
        d.pad(".")  # (typing clears the tip)
        assert "All four digits are in" not in d.texts
        d.pad("00")  # 0 past the last digit: said, not nothing
        assert "All four digits are in" in d.texts


def test_a_duels_rounds_table_shows_each_formula_whole_not_behind_a_cut_name(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Bohdan Kostiantynovych"), mode="duel",
                             digits=(7014, 3489))  # fmt: skip
        start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+00\n")  # Anna: 70+14
        d.pad("\n0+0+0+0\n")  # Bohdan: 7+0+1+4
        d.pad("\n")
        # The table's rows: the formula alone (in the player's colour), the round's
        # number and digits once; not "Bohdan K: 7+0+1+4 = 12" shrunk to fit.
        assert "70+14" in d.texts and "7+0+1+4" in d.texts
        assert not any(t.startswith("Bohdan K:") for t in d.texts)
        assert d.texts.count("7014") == 1
        # Between turns the perfect-game note is nobody's; in a turn, the player's own
        # (named above it where on one line it would be smaller than a player reads).
        assert not any(t.startswith("Anna: Perfect") for t in d.texts)
        notes = [n for n, t in enumerate(d.texts) if t.startswith("Perfect")]
        assert all(d.texts[n - 1] == "Bohdan Kostiantynovych:" for n in notes), d.texts
        d.pad("\n")  # round 2: Bohdan answers first
        notes = [t for t in d.texts if "Perfect game" in t]
        # (his name on the line above: on one line the note was drawn 2 % high)
        assert notes == ["Perfect game (0 by round 4): not any more"]
        assert d.texts[d.texts.index(notes[0]) - 1] == "Bohdan Kostiantynovych:"


def test_another_side_game_after_one_ends_is_its_players_not_the_next_waiting(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        cricket_screen = side_game_on_hold(d, board, ["T20", "S19", "S19"])  # Anna's
        send(d, board, ["S18", "S18", "S18"])  # Boris's turn, held: he is the one waiting
        assert d.screen.name == "formula-side"
        side_game_lost_on_time(d)
        d.pad("\n")  # Anna: another side game
        again = d.screen
        assert again.name == "formula-side" and again.side_player == "Anna"  # type: ignore[attr-defined]
        assert cricket_screen.side_games == {"Anna": again}  # type: ignore[attr-defined]
        send(d, board, ["BTN NEXT", "S20"])  # her own dart: the scoreboard comes back
        assert d.screen is cricket_screen


def test_a_long_duels_table_still_says_the_round_of_its_top_row(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        digits = (1111, 2222, 3333, 4444, 5555, 6666)
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=digits)
        session = start_formula(d.kiosk, setup)
        d.settle()
        for _ in range(5):  # five rounds, ten rows: the first scrolls off at 1280x720
            d.pad("\n0+0+0+0\n")
            d.pad("\n0+0+0+0\n")
            d.pad("\n")
        d.pad("\n0+0+0+0\n")  # round 6 under way: the table holds the five done
        assert session.game.round == 6
        # Nine rows fit: round 1's first row is gone, its second is the top row, and it
        # says which round it is (it was left blank, a row of no round).
        assert "1111" in d.texts


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 600), (800, 480)])
@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_training_round_s_keys_line_stays_within_the_left_pane(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    # "Enter: наступний раунд   . : забрати формулу назад" ran on behind the clock's pane.
    with kiosk_on_board(tmp_path, size=size, config=Config(language=language)) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001)))
        d.settle()
        d.pad("\n0+0+0-0\n")
        assert session.phase == "round_done"
        label = d.kiosk.t("Enter: next round   . : take the formula back")
        assert label in d.texts and label.startswith("Enter: ")
        # The gap between the left pane (60% of the width) and the clock's (63%), on
        # the line's row: background only.
        canvas = d.app.canvas
        w, h = canvas.get_size()
        u = h / 100
        ink = {
            tuple(canvas.get_at((x, y)))[:3]
            for x in range(int(w * 0.60) + 1, int(w * 0.63) - 1)
            for y in range(int(55 * u), int(59 * u))
        }
        assert ink == {theme.BG}


@pytest.mark.parametrize(
    ("language", "both_lost", "draw"),
    [("uk", "обидва програли", "нічия"), ("ru", "оба проиграли", "ничья")],  # noqa: RUF001
)
def test_a_duel_both_players_lost_is_told_on_the_attract_screen_as_lost_not_a_draw(
    tmp_path: Path, language: str, both_lost: str, draw: str
) -> None:
    from kiosk.ui.screens.attract import AttractScreen

    with kiosk_on_board(tmp_path, config=Config(language=language)) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", rules="distance",
                             digits=(3489,), overrides=(("max_rounds", 1),))  # fmt: skip
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+00\n")  # Anna: 34+89
        d.pad("\n00+00\n")  # Boris the same: the one round played, nobody at 0
        d.wait_screen("formula-end")
        assert session.game.outcome().winner is None
        assert d.kiosk.t("Both lose") in d.texts  # what the end screen says
        d.kiosk.stack.reset(AttractScreen(d.kiosk))
        d.settle()
        line = next(t for t in d.texts if t.startswith(d.kiosk.t("Formula darts")))
        assert both_lost in line and draw not in line, line


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_attract_screen_s_title_is_in_the_kiosk_s_language(
    tmp_path: Path, language: str
) -> None:
    with kiosk_on_board(tmp_path, config=Config(language=language)) as (d, _board):
        assert d.screen.name == "attract"
        assert "ДАРТС" in d.texts and "DARTS" not in d.texts


def test_in_russian_the_formula_screens_are_worded_as_meant(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path, config=Config(language="ru")) as (d, _board):
        setup = FormulaSetup(names=("Anna",), digits=(3489,), overrides=(("max_rounds", 1),))
        start_formula(d.kiosk, setup)
        d.settle()
        d.pad("0")  # a key before Enter: what Enter does is said
        assert "Enter — показать цифры и запустить отсчёт" in d.texts, d.texts  # not "время"
        d.pad("\n700+00\n")  # (34+89: a bracket left open
        assert any("непарные скобки" in t for t in d.texts), d.texts  # not "скобки не парные"
        d.pad(".......00+00\n")  # 34+89
        d.wait_screen("formula-end")
        # The table's column heads, each capitalised: "Лучшее" as "Формула", "Счёт".
        heads = ["Цифры", "Формула", "Балл", "Счёт", "Лучшее"]
        assert [t for t in d.texts if t in [*heads, "лучшее"]] == heads, d.texts


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_automatic_move_s_note_goes_on_two_lines_on_a_small_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    # "(час вийшов: автоматичний хід)" beside the points shrank to 2.2% of the height.
    sizes = text_sizes(monkeypatch)
    with kiosk_on_board(tmp_path, size=(800, 480), config=Config(language=language)) as (d, _):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(4589, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+0*0\n")  # Anna answers; Boris lets his clock run out
        d.pad("\n")
        screen = d.screen
        screen.update(screen.clock + 60)
        screen.update(screen.clock + 61)
        d.settle()
        assert session.phase == "round_done"
        note = f"({d.kiosk.t('time ran out: automatic move')})"
        assert note not in d.texts
        first = next(x for x in d.texts if note.startswith(x) and x != note and len(x) > 3)
        second = next(x for x in d.texts if note.endswith(x) and x != note and len(x) > 3)
        assert f"{first} {second}" == note, d.texts
        assert min(sizes[first], sizes[second]) >= 2.9


def test_a_tip_said_while_typing_is_gone_from_the_round_s_result(tmp_path: Path) -> None:
    # "All four digits are in" stayed on the result for its 4 s, over "Enter: next
    # round   . : take the formula back"; "Formula full: delete with ." there pointed at
    # the key that takes the formula back.
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489,)))
        d.settle()
        d.pad("\n00+00")
        d.pad("2")
        assert "All four digits are in" in d.texts
        d.pad("\n")
        assert session.game.score("Anna") == 424
        assert "All four digits are in" not in d.texts, d.texts


def test_a_huge_negative_result_s_preview_stays_in_the_formula_s_pane(tmp_path: Path) -> None:
    # -pow(9,8)*76: ten-digit points and score ran into the right-hand column, under
    # the "Perfect game" line.
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(9876,)))
        d.settle()
        d.pad("\n-80609*00")
        pane = d.running.app.canvas.get_width() * 0.60
        for shown in ("-3271550796 points", "\u2192 score 3271551297"):
            assert d.rect_of(shown).right <= pane, (shown, d.rect_of(shown))
        d.pad("\n")  # the rounds table: the formula not squeezed under the points
        drawn = list(zip(d.texts, d.running.app.text_rects, strict=True))
        formula = [r for t, r in drawn if t == "-pow(9,8)\u00d776 = -3271550796"][-1]
        points = [r for t, r in drawn if t == "-3271550796"][-1]
        assert formula.right <= points.left and formula.h >= points.h, (formula, points)
