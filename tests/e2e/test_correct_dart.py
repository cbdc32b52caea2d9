"""Correcting a misread dart in place from the game menu (rules.md: "a dart can be
corrected (replaced) in place"), in the real kiosk on a board over a pty."""

from __future__ import annotations

from pathlib import Path

import pytest
from kiosk_support import kiosk_on_board, send, start_game

from kiosk.adapters import keypad as kp
from kiosk.config import Config
from kiosk.ui.screen import Notice


def test_a_dart_the_board_misread_is_corrected_in_place_from_the_game_menu(tmp_path: Path) -> None:
    from kiosk.adapters.store import Store

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S19", "S5", "T20"])  # the S5 was in the 20; the turn is held
        d.press("/")
        assert "Correct a dart" in d.texts
        d.press("6")
        assert d.screen.name == "correct-dart"
        assert [t for t in d.texts if t in ("S19", "S5", "T20")] == ["S19", "S5", "T20"]
        d.press("2")  # the second dart
        d.press("3*\n")  # half a dart: refused, said, nothing changed
        assert d.screen.name == "correct-dart"
        assert any(t.startswith("3\u00d7: type 3*20 for T20") for t in d.texts), d.texts
        d.press("20\n")
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert d.screen.name == "cricket" and "Anna: dart 2 corrected, S20 instead of S5" in d.texts
        assert [str(x) for x in game.history] == ["S19", "S20", "T20"]
        assert (game.marks("Anna", 20), game.points("Anna"), game.marks("Anna", 19)) == (3, 20, 1)
        assert str(game.current_player) == "Boris"  # the turn still ends with the T20
        assert [str(x) for x in d.screen.session.shown_darts] == ["S19", "S20", "T20"]  # type: ignore[attr-defined]
        send(d, board, ["S18"])  # and Boris throws on
    with Store.open(tmp_path / "data" / "kiosk.sqlite3") as store:
        resumed = store.resume(1).engine  # the log replays to what the screen showed
        assert [str(x) for x in resumed.history] == ["S19", "S20", "T20", "S18"]
        assert (resumed.points("Anna"), resumed.marks("Boris", 18)) == (20, 1)


def test_a_corrected_dart_that_wins_ends_the_game_there(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        # Anna owns all but the bull; Boris has nothing. Her second bull was read as a 25.
        script = ["T20", "T19", "T18", "BTN NEXT", "MISS", "MISS", "MISS", "T17", "T16",
                  "T15", "BTN NEXT", "MISS", "MISS", "MISS", "SB", "SB", "S1"]  # fmt: skip
        send(d, board, script)
        d.press("/6")
        d.press("2")
        d.press("50\n")  # it was the inner bull: 3 marks, the board is hers
        # The S1 after it would go, for good: asked once.
        assert d.screen.name == "correct-dart"
        assert "Anna wins with it, and the darts after it go (1). Enter again to correct" in d.texts
        d.press("\n")
        assert d.screen.name == "cricket" and "Anna wins!" in d.texts
        d.wait_screen("results")
        assert "Anna wins!" in d.texts
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.history][-1] == "DB"  # the S1 after it is gone


def test_the_correction_screen_reads_a_numlock_off_keypad_and_leaves_the_board_to_the_match(
    tmp_path: Path,
) -> None:
    def numlock_off(*keys: int) -> None:
        for key in keys:
            action = kp.action_for(key, "")
            assert action is not None
            d.running.inbox.put(action, source="keypad")
        d.settle()

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S19", "S5"])
        d.press("/6")
        numlock_off(kp.K_DOWN)  # 2: the second dart
        numlock_off(kp.K_END, kp.K_UP, kp.K_KP_ENTER)  # 18 Enter
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert d.screen.name == "cricket" and [str(x) for x in game.history] == ["S19", "S18"]
        d.press("/6")
        send(d, board, ["BTN NEXT"])  # the turn passes, as on the scoreboard
        assert d.screen.name == "cricket" and str(game.current_player) == "Boris"
        assert [str(x) for x in game.history] == ["S19", "S18", "END"]
        d.press("/6")
        assert "Anna's turn · Round 1" in d.texts  # after NEXT: the turn before it
        d.running.inbox.put(Notice("A dart was not read: type it on the keypad", act=True))
        d.settle()  # the thrower is asked on the scoreboard, not left unasked here
        assert d.screen.name == "cricket"
        assert "A dart was not read: type it on the keypad" in d.texts
        d.press("20\n")
        assert game.marks("Boris", 20) == 1


def test_a_misread_seen_after_the_next_player_has_thrown_is_corrected_in_its_own_turn(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S19", "S5", "T20", "S18"])  # Boris has thrown when Anna sees it
        d.press("/6")
        assert "Boris's turn · Round 1" in d.texts and "S18" in d.texts
        d.press("4")  # the turn before
        assert "Anna's turn · Round 1" in d.texts and "S5" in d.texts
        d.press("2")
        d.press("20\n")
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert "Anna: dart 2 corrected, S20 instead of S5" in d.texts
        assert [str(x) for x in game.history] == ["S19", "S20", "T20", "S18"]
        assert (game.points("Anna"), str(game.current_player)) == (20, "Boris")
        assert [str(x) for x in game.darts_this_turn] == ["S18"]  # Boris throws on
        send(d, board, ["S17"])
        assert [str(x) for x in game.darts_this_turn] == ["S18", "S17"]
        d.press("-")  # undo takes back the last dart, and says which
        assert "Undone: S17 (Boris)" in d.texts and str(game.history[1]) == "S20"


# Anna owns all but the bull, Boris has nothing; her last turn reads DB, S25: she wins.
WON_ON_A_MISREAD = ["T20", "T19", "T18", "BTN NEXT", "MISS", "MISS", "MISS", "T17", "T16",
                    "T15", "BTN NEXT", "MISS", "MISS", "MISS", "DB", "SB"]  # fmt: skip


def test_a_game_won_on_a_misread_is_corrected_from_the_results_and_goes_on(tmp_path: Path) -> None:
    from kiosk.adapters.store import Store

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, WON_ON_A_MISREAD)
        d.wait_screen("results")
        assert "Anna wins!" in d.texts and "Correct a dart (*)" in d.texts
        assert len(d.kiosk.results) == 1  # on the attract screen's list
        d.press("*")
        assert d.screen.name == "correct-dart" and "Anna's turn · Round 3" in d.texts
        send(d, board, ["BTN NEXT"])  # the game is over: the board changes nothing
        assert d.screen.name == "correct-dart"
        d.press("2")
        d.press("5\n")  # the S25 was an S5: asked once, over the results
        assert "Anna: dart 2, S5 instead of SB? Enter again to correct" in d.texts
        d.press("\n")  # no win after all
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert d.screen.name == "cricket" and "Anna: dart 2 corrected, S5 instead of SB" in d.texts
        assert game.outcome() is None and game.marks("Anna", 25) == 2
        assert [str(x) for x in game.darts_this_turn] == ["DB", "S5"]  # her third dart to come
        assert d.kiosk.results == []  # the win withdrawn from the attract list
        # No results come back for a game that goes on.
        assert not d.app.run(until=lambda: d.screen.name != "cricket", timeout=2.0)
        send(d, board, ["SB"])  # she wins with her third dart
        d.wait_screen("results")
        assert "Anna wins!" in d.texts and len(d.kiosk.results) == 1
        d.press("/")  # the results go: the game is finished
    with Store.open(tmp_path / "data" / "kiosk.sqlite3") as store:
        done = store.games.replay(1)
        assert [str(x) for x in done.history][-3:] == ["DB", "S5", "SB"]
        assert store.games.get(1).status == "finished"


def test_a_correction_from_the_results_can_change_the_winner_or_be_left(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, round_limit=2)
        # Round limit 2: Anna wins on points, 40 to 19. But Boris's last dart, read S5,
        # was a T19: 76 points to her 40, and the win is his.
        send(d, board, ["T20", "S20", "MISS", "T19", "MISS", "MISS",
                        "S20", "MISS", "MISS", "S19", "MISS", "S5"])  # fmt: skip
        d.wait_screen("results")
        assert "Anna wins!" in d.texts
        d.press("*")
        d.press("3")
        d.press("-")  # a step back: the dart unchosen
        d.press("-")  # and back to the results, unchanged
        assert d.screen.name == "results" and "Anna wins!" in d.texts
        assert len(d.kiosk.results) == 1
        d.press("*")
        d.press("3")
        d.press("3*19\n\n")
        said = "Boris: dart 3 corrected, T19 instead of S5"
        assert d.screen.name == "cricket" and said in d.texts and "Boris wins!" in d.texts
        d.wait_screen("results")  # over still, with the new winner, and what made it so
        assert "Boris wins!" in d.texts and said in d.texts
        assert [line.winner for line in d.kiosk.results] == ["Boris"]


def test_turns_are_paged_with_the_mouse_on_a_touch_screen(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S19", "S5", "T20", "S18"])
        d.press("/6")
        screen = d.screen
        earlier, later = screen.page_buttons  # type: ignore[attr-defined]
        assert "Boris's turn · Round 1" in d.texts
        d.click(later.rect.center)  # the last turn already: nothing later
        assert "Boris's turn · Round 1" in d.texts
        d.click(earlier.rect.center)
        assert "Anna's turn · Round 1" in d.texts
        d.click(screen.slots[1].center)  # type: ignore[attr-defined]
        d.press("20\n")
        assert "Anna: dart 2 corrected, S20 instead of S5" in d.texts


def test_a_dart_typed_by_habit_on_the_results_corrects_nothing_unasked(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, WON_ON_A_MISREAD)
        d.wait_screen("results")
        d.press("3")  # a dart typed as on the scoreboard: the game is over, and said how
        assert "The game is over: * corrects a dart" in d.texts
        d.press("*19\n")  # * opens the correction, 1 picks a dart, 9 Enter: only asked
        assert d.screen.name == "correct-dart"
        assert "Anna: dart 1, S9 instead of DB? Enter again to correct" in d.texts
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert str(game.history[-2]) == "DB" and game.outcome() is not None
        d.press("---")  # the typing, the dart, the screen: back to the results
        assert d.screen.name == "results" and len(d.kiosk.results) == 1


def test_a_win_on_a_third_dart_corrected_away_holds_the_turn_for_next(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, [*WON_ON_A_MISREAD[:-2], "S1", "DB", "SB"])  # the SB, third, wins
        d.wait_screen("results")
        d.press("*3")
        d.press("5\n\n")  # it was an S5
        session = d.screen.session  # type: ignore[attr-defined]
        # Her turn is held, as after any third dart: the board's NEXT, pressed once the
        # darts are pulled, passes it; it must not cost Boris his turn.
        assert session.hold is not None and "Remove darts, then + (next player)" in d.texts
        send(d, board, ["BTN NEXT"])
        assert str(session.game.current_player) == "Boris" and session.game.darts_left == 3
        assert "END" not in [str(x) for x in session.game.history[-3:]]


def test_the_cameras_question_on_the_winning_dart_is_answered_on_the_results(
    tmp_path: Path,
) -> None:
    from kiosk.adapters.camera.scorer import CameraDoubt
    from kiosk.domain.darts import Dart
    from kiosk.ui.inbox import DeviceEvent

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, WON_ON_A_MISREAD)  # (the board standing in for the cameras)
        doubt = CameraDoubt(Dart.parse("SB"), Dart.parse("S5"))
        d.running.inbox.put(DeviceEvent(doubt, source="camera"))
        d.settle()
        d.wait_screen("results")
        question = "Cameras unsure: SB or S5? Press * for S5, - to undo"
        assert question in d.texts  # what * does here, said
        d.press("*")  # the other reading, as on the scoreboard: no win after all
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert d.screen.name == "cricket" and str(game.history[-1]) == "S5"
        assert game.outcome() is None and d.kiosk.results == []


@pytest.mark.parametrize(
    ("language", "bull", "miss"), [("uk", "БУЛЛ", "Промах"), ("ru", "БУЛЛ", "Мимо")]
)
def test_the_bull_and_a_missed_dart_are_named_in_the_kiosk_s_language(
    tmp_path: Path, language: str, bull: str, miss: str
) -> None:
    from kiosk.adapters.camera.scorer import CameraDoubt
    from kiosk.domain.darts import Dart
    from kiosk.ui.inbox import DeviceEvent

    with kiosk_on_board(tmp_path, config=Config(language=language)) as (d, board):
        t = d.kiosk.t
        start_game(d)
        assert bull in d.texts and "BULL" not in d.texts  # the scoreboard's last row
        send(d, board, ["S19", "MISS"])
        assert [x for x in d.texts if x in ("S19", miss)] == ["S19", miss]  # the turn's boxes
        assert "MISS" not in d.texts
        d.press("-")
        assert t("Undone: {} ({})").format(miss, "Anna") in d.texts
        send(d, board, ["MISS", "T20"])  # the turn is held
        d.press("/")
        d.press("6")
        assert d.screen.name == "correct-dart"
        assert [x for x in d.texts if x in ("S19", miss, "T20")] == ["S19", miss, "T20"]
        assert "MISS" not in d.texts
        d.press("2")
        d.press("20\n")
        said = t("{}: dart {} corrected, {} instead of {}").format("Anna", 2, "S20", miss)
        assert d.screen.name == "cricket" and said in d.texts
        d.press("+")  # Boris: a dart on the double's edge, or just off the board
        send(d, board, ["D20"])
        d.running.inbox.put(DeviceEvent(CameraDoubt(Dart.parse("D20"), Dart.MISS), "camera"))
        d.settle()
        question = t("Cameras unsure: {} or {}? Press * for {}, - to undo")
        assert question.format("D20", miss, miss) in d.texts
        assert question.startswith(
            {"uk": "Камери не впевнені: ", "ru": "Камеры не уверены: "}[language]
        )
        assert not any("MISS" in x for x in d.texts), d.texts


def test_a_dart_that_lands_while_the_right_dart_is_typed_is_scored_and_the_typing_kept(
    tmp_path: Path,
) -> None:
    # The dart brought the scoreboard back: the "2" typed was lost, and "0 Enter" then
    # typed a MISS for Anna, which ended her turn; the S5 stayed wrong.
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S5"])  # the dart is in the 20
        d.press("/6")
        d.press("1")
        d.press("2")
        send(d, board, ["T20"])  # Anna throws her next dart meanwhile
        assert d.screen.name == "correct-dart" and "Meanwhile, Anna: T20" in d.texts, d.texts
        assert "2" in d.texts  # what was typed is still there
        d.press("0\n")
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert d.screen.name == "cricket" and "Anna: dart 1 corrected, S20 instead of S5" in d.texts
        assert [str(x) for x in game.history] == ["S20", "T20"]
        assert [str(x) for x in game.darts_this_turn] == ["S20", "T20"]  # her turn goes on


def test_the_last_player_corrects_while_the_next_one_throws_and_passes(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S19", "S5", "T20", "S18"])
        d.press("/6")
        d.press("4")  # Anna's turn
        d.press("2")
        d.press("2")
        send(d, board, ["S17", "BTN NEXT"])  # Boris throws and passes meanwhile
        assert d.screen.name == "correct-dart"
        assert "Meanwhile: the turn passed" in d.texts and "Anna's turn · Round 1" in d.texts
        d.press("0\n")
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert "Anna: dart 2 corrected, S20 instead of S5" in d.texts
        assert [str(x) for x in game.history] == ["S19", "S20", "T20", "S18", "S17", "END"]
        assert (game.points("Anna"), str(game.current_player)) == (20, "Anna")


def test_a_game_won_while_a_dart_is_corrected_goes_to_its_results(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, [*WON_ON_A_MISREAD[:-2], "SB"])  # Anna owns all but the bull
        d.press("/6")
        d.press("1")
        d.press("2")
        send(d, board, ["DB"])  # her bull closes: she wins under the correction
        assert d.screen.name == "cricket"
        said = "The game is over: the correction was not made. * on the results corrects a dart"
        assert said in d.texts, d.texts
        d.wait_screen("results")
        assert "Anna wins!" in d.texts


def test_a_dart_not_read_while_the_right_dart_is_typed_is_said_there_and_asked_after(
    tmp_path: Path,
) -> None:
    said = "A dart was not read: type it on the keypad"
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S5"])
        d.press("/6")
        d.press("1")
        d.press("2")
        d.running.inbox.put(Notice(said, act=True))
        d.settle()
        assert d.screen.name == "correct-dart" and said in d.texts, d.texts
        d.press("0\n")
        assert d.screen.name == "cricket"
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.history] == ["S20"]
        d.press("19\n")  # the dart not read, typed on the scoreboard
        assert [str(x) for x in game.history] == ["S20", "S19"]
