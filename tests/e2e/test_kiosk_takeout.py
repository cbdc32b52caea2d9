"""A camera rig's takeout (the cameras see the darts pulled out of the board) on the real
kiosk, headless, with a board on a pty for the darts: it passes the turn as NEXT does,
but never once more after a NEXT by hand (the next player would lose a turn), and it is
no key on the menus or in formula darts (a hand at the board is not the keypad)."""

from __future__ import annotations

from pathlib import Path

import pytest
from kiosk_support import kiosk_on_board, send, side_game_on_hold, start_game

from kiosk.adapters.camera.scorer import CameraTakeout
from kiosk.ui.driver import Driver


def pulled(d: Driver) -> None:
    """The cameras' takeout, reported to the kiosk's devices as the camera scorer's
    thread does, and handled."""
    d.running.devices._camera_event(CameraTakeout())
    d.settle(2.0)
    assert not d.running.inbox.pending()


def test_darts_pulled_pass_the_turn_with_or_without_its_third_dart(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S20", "S19"])  # the third dart fell to the floor
        pulled(d)
        session = d.game()
        game = session.game
        assert game.current_player == "Boris" and game.darts_this_turn == ()
        send(d, board, ["S1", "S2", "S3"])  # the scoreboard holds Boris's turn
        assert session.hold is not None
        pulled(d)
        assert session.hold is None and game.current_player == "Anna"


def test_darts_pulled_after_next_by_hand_cost_the_next_player_nothing(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, names=("Anna", "Boris", "Chen"))
        send(d, board, ["T20", "T20", "T20"])
        d.press("+")  # Anna ends the hold by hand, out of habit, then pulls her darts
        pulled(d)
        game = d.game().game
        assert game.current_player == "Boris" and game.darts_this_turn == ()
        send(d, board, ["S19"])
        assert game.current_player == "Boris" and game.marks("Boris", 19) == 1
        send(d, board, ["BTN NEXT"])  # Boris's other darts missed: the board's button
        pulled(d)  # then he pulls his one dart: Chen keeps her turn
        assert game.current_player == "Chen" and game.darts_this_turn == ()


def test_darts_pulled_are_no_key_on_the_menus(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        d.settle()
        attract = d.screen.name
        pulled(d)
        assert d.screen.name == attract  # the attract screen stays
        d.press("1")
        menu = d.screen
        chosen = menu.selected  # type: ignore[attr-defined]
        pulled(d)
        assert d.screen is menu and menu.selected == chosen  # type: ignore[attr-defined]


def test_in_the_side_game_darts_pulled_pass_the_match_turn_not_the_formula(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        cricket_screen = side_game_on_hold(d, board, ["T20", "S19", "S19"])
        side = d.screen
        d.pad("\n")  # Enter: the side game's round starts
        typed = side.editor.text  # type: ignore[attr-defined]
        pulled(d)
        assert d.screen is side and side.editor.text == typed  # type: ignore[attr-defined]
        assert cricket_screen.session.hold is None  # type: ignore[attr-defined]


def test_darts_pulled_before_the_dart_not_read_is_typed_say_how_to_go_back(
    tmp_path: Path,
) -> None:
    from kiosk.adapters.camera.scorer import CameraUnreadable
    from kiosk.ui.inbox import DeviceEvent

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S20"])
        d.running.inbox.put(DeviceEvent(CameraUnreadable((0,)), source="camera"))
        d.settle()
        assert "A dart was not read: type it on the keypad" in d.texts
        send(d, board, ["S18"])
        pulled(d)  # Anna pulls her darts before typing it: her turn ends (rules.md)
        game = d.game().game
        assert game.current_player == "Boris"
        assert "A dart was not read: type it on the keypad" not in d.texts
        said = "Anna: the dart not read was not typed; - (undo) goes back to type it"
        assert said in d.texts, d.texts
        d.press("-")  # back to Anna's turn, and her dart typed there
        d.press("19\n")
        assert game.marks("Anna", 19) == 1 and game.marks("Boris", 19) == 0


def test_on_a_camera_rig_a_plus_pressed_after_the_pull_is_asked_again_not_a_lost_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kiosk.devices import Devices

    # The darts come from the pty board here; the scoreboard is told it is a camera rig.
    monkeypatch.setattr(Devices, "active", property(lambda self: "camera"))
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, names=("Anna", "Boris", "Chen"))
        send(d, board, ["S20", "S19", "S18"])
        assert "Pull your darts: the turn passes" in d.texts, d.texts
        assert "Remove darts, then + (next player)" not in d.texts
        pulled(d)
        game = d.game().game
        assert game.current_player == "Boris"
        d.press("+")  # as a board machine taught them: Boris keeps his turn
        assert game.current_player == "Boris" and game.darts_this_turn == ()
        said = "The turn passed when the darts were pulled: + again ends Boris's turn"
        assert said in d.texts, d.texts
        d.press("+")  # Boris passes, asked and meant
        assert game.current_player == "Chen"
        assert said not in d.texts  # it named Boris: Chen is up now


def test_the_plus_again_question_goes_once_the_player_it_names_throws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kiosk.devices import Devices

    monkeypatch.setattr(Devices, "active", property(lambda self: "camera"))
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, names=("Anna", "Boris"))
        send(d, board, ["S20", "S19", "S18"])
        pulled(d)
        d.press("+")
        said = "The turn passed when the darts were pulled: + again ends Boris's turn"
        assert said in d.texts, d.texts
        d.press("3*20\n")  # Boris types a dart after all, then ends his turn
        assert said not in d.texts, d.texts
        d.press("+")
        assert d.game().game.current_player == "Anna"
        assert not any("+ again ends" in t for t in d.texts), d.texts


def test_the_cameras_question_stays_through_the_pull_and_goes_with_the_next_dart(
    tmp_path: Path,
) -> None:
    from kiosk.adapters.camera.scorer import CameraDoubt
    from kiosk.adapters.serial_board.protocol import Hit
    from kiosk.domain.darts import Dart
    from kiosk.ui.inbox import DeviceEvent

    t20, s20 = Dart.parse("T20"), Dart.parse("S20")
    question = "Cameras unsure: T20 or S20? Press * for S20, - to undo"
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["S19", "S19"])
        d.running.inbox.put(DeviceEvent(Hit(t20), source="camera"))
        d.running.inbox.put(DeviceEvent(CameraDoubt(t20, s20), source="camera"))
        d.settle()
        assert question in d.texts
        pulled(d)  # the turn passes; the dart asked about is still the last
        assert question in d.texts
        d.press("*")
        game = d.game().game
        assert game.marks("Anna", 20) == 1 and game.current_player == "Boris"
        d.running.inbox.put(DeviceEvent(Hit(t20), source="camera"))
        d.running.inbox.put(DeviceEvent(CameraDoubt(t20, s20), source="camera"))
        d.settle()
        assert question in d.texts
        send(d, board, ["S1", "S2"])  # Boris's turn goes on: * could not take it now
        assert question not in d.texts, d.texts
