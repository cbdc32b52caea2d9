"""The calibration screen in the real app, headless: clicks and keypad presses at the
true image points of the known board points (the renderer's ground truth) give a
calibration file that ``Calibration.load`` reads back and that matches the camera.
(The command around it: ``test_camera_calibrate_command.py``.)"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pygame
import pytest
from calibrate_support import error_mm, numbers_hidden, truth

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.keypad import KeyAction
from kiosk.commands._camera_calibrate import Session, open_session
from kiosk.domain import board
from kiosk.ui import theme
from kiosk.ui.screen import Click
from kiosk.ui.screens.camera_calibrate import TARGETS


@pytest.fixture
def session(camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path) -> Iterator[Session]:
    with _on(camera[1], tmp_path) as s:
        yield s


@contextmanager
def _on(image: np.ndarray, tmp_path: Path) -> Iterator[Session]:
    """The calibration screen on ``image``, saving to ``cal.json``; closed after."""
    s = open_session(image, tmp_path / "cal.json", size=(1280, 720))
    try:
        yield s
    finally:
        s.close()


def _put(s: Session, *events: object) -> None:
    for e in events:
        s.inbox.put(e, source="keypad")
    s.app.step(0)
    while s.screen.busy:  # a check said on screen first runs on the next step
        s.app.step(0)


def _click(s: Session, pt: tuple[float, float]) -> None:
    x, y = s.screen.image_to_screen(pt)
    _put(s, Click((round(x), round(y))))


def test_clicking_the_five_points_shows_the_board_and_enter_saves_a_calibration_that_fits(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    assert "20/1" in " ".join(session.app.texts)
    for t in TARGETS:
        _click(session, truth(cam, t.board))
    assert session.screen.reviewing
    assert "Do the rings, wires and numbers match the board?" in session.app.texts
    assert not (tmp_path / "cal.json").exists()  # nothing is saved before Enter
    _put(session, KeyAction("enter"))
    assert session.screen.saved
    assert "Calibration saved" in session.app.texts
    assert not any("Enter = save" in t for t in session.app.texts)  # done: no keys offered
    cal = Calibration.load(tmp_path / "cal.json")
    assert len(cal.points) == 5
    # A click lands on a whole screen pixel (1.2 picture pixels here): about 0.5 mm.
    assert error_mm(cal, cam) < 1.5


def test_start_again_and_quit_ask_once_before_throwing_marks_away(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    """- and / sit beside the keys that move the crosshair: one slip used to throw away
    the points marked so far (or a calibration shown, not saved). The first press asks."""
    cam, _ = camera
    screen = session.screen
    for t in TARGETS[:3]:
        _click(session, truth(cam, t.board))
    _put(session, KeyAction("undo", "-"))
    assert len(screen.marks) == 3
    assert "- again to start again: the points marked go" in session.app.texts
    _put(session, KeyAction("cancel", "/"))  # another key: the question goes, / asks its own
    assert not screen.finished and len(screen.marks) == 3
    assert "/ again to quit: nothing is saved" in session.app.texts
    _click(session, truth(cam, TARGETS[3].board))  # marking on: the questions go
    _put(session, KeyAction("undo", "-"), KeyAction("undo", "-"))
    assert screen.marks == []
    for t in TARGETS:
        _click(session, truth(cam, t.board))
    assert screen.reviewing
    review = "Check the rings, wires and numbers. Enter = save, . = back, - = start again"
    _put(session, KeyAction("undo", "-"), KeyAction("cancel", "/"), KeyAction("digit", "8"))
    assert review in session.app.texts, session.app.texts  # what to do is back, not blank
    _put(session, KeyAction("cancel", "/"))
    assert not screen.finished
    _put(session, KeyAction("cancel", "/"))
    assert screen.finished and not (tmp_path / "cal.json").exists()


def test_the_keypad_alone_marks_the_points_with_the_crosshair(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    screen = session.screen
    presses = 0
    for n, t in enumerate(TARGETS):
        tx, ty = truth(cam, t.board)
        if n == 4:  # the bull: the crosshair already waits where the wires' diagonals cross
            assert math.dist(screen.cursor, (tx, ty)) < 3.0, (screen.cursor, (tx, ty))
        for step in screen.steps:  # large, coarse, fine
            while screen.step != step:
                _put(session, KeyAction("times", "*"))
                presses += 1
            cx, cy = screen.cursor
            nx, ny = round((tx - cx) / step), round((ty - cy) / step)
            keys = ["6" if nx > 0 else "4"] * abs(nx) + ["2" if ny > 0 else "8"] * abs(ny)
            _put(session, *(KeyAction("digit", k) for k in keys))
            presses += len(keys)
        _put(session, KeyAction("digit", "5"))
    assert screen.reviewing
    # Five points in well under a hundred presses (8-pixel steps alone took 230-300).
    assert presses < 100, presses
    _put(session, KeyAction("enter"))
    assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0


def test_a_wrong_click_is_taken_back_with_the_point_key(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    _click(session, truth(cam, TARGETS[0].board))
    _click(session, (30.0, 30.0))  # a slip, far from the 6/10 wire
    _put(session, KeyAction("back", "."))
    assert len(session.screen.marks) == 1
    for t in TARGETS[1:]:
        _click(session, truth(cam, t.board))
    _put(session, KeyAction("enter"))
    assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.5


def test_points_that_cannot_be_a_board_are_refused_on_screen_and_nothing_is_saved(
    session: Session, tmp_path: Path
) -> None:
    for i in range(len(TARGETS)):
        _click(session, (400.0 + 40 * i, 300.0))  # five points on one line
    assert not session.screen.reviewing
    assert session.screen.error
    assert any("do not fit a board" in t for t in session.app.texts)
    _put(session, KeyAction("enter"))
    assert not (tmp_path / "cal.json").exists()


@pytest.mark.parametrize(
    ("order", "why"),
    [
        ((1, 2, 3, 0, 4), "The board's numbers put 20 elsewhere"),  # begun at the 6/10 wire
        ((0, 3, 2, 1, 4), "These points go round the wrong way"),  # anticlockwise
    ],
)
def test_points_marked_turned_or_mirrored_are_refused_and_can_be_put_right(
    session: Session,
    camera: tuple[synthetic.Camera, np.ndarray],
    tmp_path: Path,
    order: tuple[int, ...],
    why: str,
) -> None:
    # The rings and wires drawn back would lie on the board all the same: only where
    # 20 is (or the way round) tells, and every dart would score wrong.
    cam, _ = camera
    for i in order:
        _click(session, truth(cam, TARGETS[i].board))
    screen = session.screen
    assert not screen.reviewing and screen.error
    assert "These points cannot be used" in session.app.texts
    assert any(t.startswith(why) for t in session.app.texts), session.app.texts
    _put(session, KeyAction("enter"))
    assert not (tmp_path / "cal.json").exists()
    _put(session, KeyAction("undo", "-"))  # start again, the right way round
    for t in TARGETS:
        _click(session, truth(cam, t.board))
    assert screen.reviewing
    _put(session, KeyAction("enter"))
    assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.5


def _turned(b: tuple[float, float], wires: int) -> tuple[float, float]:
    """Board point ``b`` turned ``wires`` wires clockwise (18 degrees each)."""
    a = math.radians(-18.0 * wires)
    return (b[0] * math.cos(a) - b[1] * math.sin(a), b[0] * math.sin(a) + b[1] * math.cos(a))


@pytest.mark.parametrize("wires", [1, -1], ids=["at-1-18", "at-5-20"])
def test_marks_begun_one_wire_along_are_put_right_and_the_screen_says_mark_1_was_wrong(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path, wires: int
) -> None:
    # Begun at the 1/18 (or the 5/20) wire, each mark one wire along from the one
    # asked for: the red and green rings no longer match the marks, two fits of them
    # are as near, and the numbers say which.
    cam, _ = camera
    for t in TARGETS:
        _click(session, truth(cam, _turned(t.board, wires)))
    assert session.screen.reviewing, session.app.texts
    said = "Mark 1 was not on the 20/1 wire: put right by the board's numbers."
    assert any(said in t for t in session.app.texts), session.app.texts
    assert not any("mm off" in t or "could not be read" in t for t in session.app.texts)
    _put(session, KeyAction("enter"))
    assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.5


@pytest.mark.parametrize("wires", [0, 2])
def test_marks_on_a_board_whose_numbers_cannot_be_read_ask_to_check_the_numbers_drawn(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path, wires: int
) -> None:
    # Marks begun two wires along fit the red and green rings as well as the right
    # ones (they repeat every 36 degrees); with the numbers hidden only the person can
    # tell, by the numbers drawn back over the picture, and is asked to look.
    cam, image = camera
    with _on(numbers_hidden(cam, image), tmp_path) as s:
        for t in TARGETS:
            _click(s, truth(cam, _turned(t.board, wires)))
        assert s.screen.reviewing, s.app.texts
        said = "The board's numbers could not be read: check the numbers drawn match them."
        assert any(said in t for t in s.app.texts), s.app.texts


def test_marks_on_a_picture_without_the_board_s_rings_say_they_were_not_checked(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # A person in front of the board, a board of other colours: the marks are all
    # there is, and the screen must not say they were checked.
    cam, image = camera
    grey = np.full_like(image, 128)
    with _on(grey, tmp_path) as s:
        for t in TARGETS:
            _click(s, truth(cam, t.board))
        assert s.screen.reviewing, s.app.texts
        said = "The board's rings were not found to check the marks"
        assert any(said in t for t in s.app.texts), s.app.texts
        assert not any("could not be read" in t for t in s.app.texts)


def test_marks_on_a_board_whose_numbers_are_read_do_not_ask_about_the_numbers(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    cam, _ = camera
    for t in TARGETS:
        _click(session, truth(cam, t.board))
    assert session.screen.reviewing
    assert not any("could not be read" in t for t in session.app.texts), session.app.texts


def test_the_auto_key_shows_the_automatic_calibration_for_confirmation(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    _put(session, KeyAction("digit", "0"))
    assert session.screen.reviewing
    assert any("Auto calibration" in t for t in session.app.texts)
    assert not any("face-on" in t for t in session.app.texts)  # 30 degrees off: fine
    _put(session, KeyAction("enter"))
    assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 0.5


def test_the_command_s_auto_shows_its_result_not_the_first_prompt_before_any_key(
    session: Session,
) -> None:
    # ``camera-calibrate --auto`` (the window) runs it before any key: what the owner
    # sees must be the search, then the calibration to check, never the first "mark
    # here" prompt (an Enter there would save a calibration unseen).
    session.screen.auto_later()
    session.app.step(0)
    assert "Looking for the board..." in session.app.texts, session.app.texts
    session.app.step(0)
    title = "Do the rings, wires and numbers match the board?"
    assert title in session.app.texts, session.app.texts
    assert any("Auto calibration" in t for t in session.app.texts)


def test_the_automatic_calibration_s_reasons_are_shown_in_the_kiosk_s_language(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    blank = np.full_like(camera[1], 90)  # no board at all: refused
    for image, said in (
        (camera[1], "мішень знайдена (20 за числами)"),
        (blank, "немає червоно-зелених"),
    ):
        with _on(image, tmp_path) as s:
            s.kiosk.set_language("uk")
            _put(s, KeyAction("digit", "0"))
            assert any(said in t for t in s.app.texts), s.app.texts
            assert not any("board" in t for t in s.app.texts), s.app.texts


def test_a_camera_nearly_face_on_is_told_to_move_before_it_is_saved(
    face_on: np.ndarray, tmp_path: Path
) -> None:
    with _on(face_on, tmp_path) as s:
        _put(s, KeyAction("digit", "0"))
        assert s.screen.reviewing
        advice = [t for t in s.app.texts if "nearly face-on" in t]
        assert advice and "15°" in advice[0], s.app.texts
        assert "at 1920x1080 than at 1280x720" in advice[0]  # (a 720p picture)
        _put(s, KeyAction("enter"))  # it can still be saved: it scores, only less well
        assert Calibration.load(tmp_path / "cal.json").face_on


def test_marks_on_the_double_ring_s_inner_edge_are_put_right_by_the_rings(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # The inner edge taken for the outer one: a board 6 % small, darts on the double
    # ring scored as singles. The rings, fitted from the marks, are shown instead.
    cam, _ = camera
    for t in TARGETS:
        x, y = t.board
        inner = board.DOUBLE_INNER / board.DOUBLE_OUTER
        _click(session, truth(cam, (x * inner, y * inner)))
    assert session.screen.reviewing
    assert any("mm off: put right by the board's rings" in t for t in session.app.texts), (
        session.app.texts
    )
    _put(session, KeyAction("enter"))
    assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0


@pytest.mark.parametrize("edge", ["inner", "outer"])
def test_with_darts_over_the_rings_inner_edge_marks_are_still_put_right(
    tmp_path: Path, edge: str
) -> None:
    # Three darts in the treble 20 hide enough of the rings that their fit lines up
    # only at 0.78 (``recheck.UNSURE_FIT``): not enough to act on alone, enough to
    # tell marks on the double ring's inner edge (8-12 mm off it) from true ones.
    rng = np.random.default_rng(914)
    cam = synthetic.random_camera(rng)
    scene = synthetic.random_scene(rng)
    darts = [synthetic.random_dart(rng, t) for t in ((-3.0, 101.0), (4.0, 106.0), (1.0, 96.0))]
    image = synthetic.render(cam, scene, rng, tuple(darts))
    k = board.DOUBLE_INNER / board.DOUBLE_OUTER if edge == "inner" else 1.0
    with _on(image, tmp_path) as s:
        for t in TARGETS:
            _click(s, truth(cam, (t.board[0] * k, t.board[1] * k)))
        assert s.screen.reviewing
        put_right = any("put right by the board's rings" in t for t in s.app.texts)
        assert put_right == (edge == "inner"), s.app.texts
        _put(s, KeyAction("enter"))
        assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.5


def test_auto_without_readable_numbers_says_how_to_mark_the_20_and_that_way_works(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, image = camera
    with _on(numbers_hidden(cam, image), tmp_path) as s:
        _put(s, KeyAction("digit", "0"))
        assert not s.screen.reviewing
        said = "mark the 20 by hand. Mark the first point (the 20/1 wire), then press 0."
        assert any(said in t for t in s.app.texts), s.app.texts  # (two sentences)
        _click(s, truth(cam, TARGETS[0].board))
        _put(s, KeyAction("digit", "0"))
        assert s.screen.reviewing, s.app.texts
        _put(s, KeyAction("enter"))
        assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0


def test_a_first_mark_on_the_wrong_wire_is_not_trusted_by_auto_when_the_numbers_say_so(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    _click(session, truth(cam, TARGETS[1].board))  # the 6/10 wire taken for the 20/1
    _put(session, KeyAction("digit", "0"))
    assert not session.screen.reviewing
    assert any("numbers put 20 elsewhere" in t for t in session.app.texts), session.app.texts
    _put(session, KeyAction("enter"))
    assert not (tmp_path / "cal.json").exists()


def test_true_marks_with_a_dart_over_the_numbers_are_kept(tmp_path: Path) -> None:
    # Darts in the board; one over the numbers made them read as if 20 were elsewhere,
    # and true marks were refused ("darts over the numbers? pull them out first"). That
    # read rests on the one number the dart hides, and is no read now: the marks are
    # kept, to a fraction of a millimetre.
    rng = np.random.default_rng(349)
    tips = [synthetic.sample_tip(rng) for _ in range(3)]
    throw = synthetic.render_grouped(349, tips, 3, off_axis=(15.0, 50.0))[2]
    cam = throw.cameras[0]
    with _on(throw.after[0], tmp_path) as s:
        for t in TARGETS:
            _click(s, truth(cam, t.board))
        assert s.screen.reviewing and not s.screen.error, s.app.texts
        _put(s, KeyAction("enter"))
        assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0


@pytest.mark.parametrize(
    ("off", "shift"),
    [
        (1, (0.0, -25.0)),  # the five points disagree: refused before the rings were asked
        (4, (-15.0, 10.0)),  # ... the bull
        (2, (0.0, -25.0)),  # the five agree well enough; the rings say which is off
    ],
)
def test_one_mark_off_is_named_and_the_rings_fit_is_shown_to_save(
    session: Session,
    camera: tuple[synthetic.Camera, np.ndarray],
    tmp_path: Path,
    off: int,
    shift: tuple[float, float],
) -> None:
    # One slip of the hand among five marks: which one cannot be told from the points
    # alone, but the board's rings, fitted from all five, tell, and put it right.
    cam, _ = camera
    for i, t in enumerate(TARGETS):
        dx, dy = shift if i == off else (0.0, 0.0)
        _click(session, truth(cam, (t.board[0] + dx, t.board[1] + dy)))
    assert session.screen.reviewing and not session.screen.error
    mm = round(math.hypot(*shift))
    said = f"Mark {off + 1} was {mm} mm off: put right by the board's rings."
    assert any(t.startswith(said) for t in session.app.texts), session.app.texts
    _put(session, KeyAction("enter"))
    assert error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0


def test_a_check_that_takes_a_while_is_said_on_screen_before_it_runs(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    # The marks checked against the rings, or the automatic calibration, take a second
    # or more (longer on a Pi): the screen says what it is doing rather than freeze.
    cam, _ = camera
    for t in TARGETS[:-1]:
        _click(session, truth(cam, t.board))
    x, y = session.screen.image_to_screen(truth(cam, TARGETS[-1].board))
    session.inbox.put(Click((round(x), round(y))), source="mouse")
    session.app.step(0)
    assert "Checking the marks against the board's rings..." in session.app.texts
    assert not session.screen.reviewing
    session.app.step(0)
    assert (
        session.screen.reviewing
        and "Do the rings, wires and numbers match the board?" in session.app.texts
    )
    _put(session, KeyAction("undo", "-"), KeyAction("undo", "-"))  # start again
    session.inbox.put(KeyAction("digit", "0"), source="keypad")
    session.app.step(0)
    assert "Looking for the board..." in session.app.texts and not session.screen.reviewing
    session.app.step(0)
    assert session.screen.reviewing


def test_the_magnifier_shows_the_crosshair_s_surroundings_and_a_click_in_it_marks_what_it_shows(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    # A wire meeting the double ring's edge is a pixel or two on the screen: the
    # magnifier, away from the crosshair, is where the fine steps are aimed, and a click
    # in it marks the point shown under the click, not what the box covers.
    cam, image = camera
    screen = session.screen
    aim = truth(cam, TARGETS[0].board)
    _put(session, KeyAction("digit", "8"))  # (the crosshair moved: drawn again)
    screen.cursor = aim
    screen.dirty = True
    session.app.step(0)
    box = screen.view.zoom_box
    assert box.w > 0.3 * screen.view.rect.h
    assert not box.collidepoint(screen.image_to_screen(aim))  # it hides not the crosshair
    # What the box shows is the picture round the crosshair, magnified.
    shown = pygame.surfarray.array3d(session.app.canvas.subsurface(box.inflate(-8, -8)))
    x, y = round(aim[0]), round(aim[1])
    round_it = image[y - 10 : y + 10, x - 10 : x + 10, ::-1].reshape(-1, 3).mean(axis=0)
    assert np.abs(shown.reshape(-1, 3).mean(axis=0) - round_it).max() < 60
    cx, cy = box.center
    _put(session, Click((cx + 12, cy)))  # a little right of the crosshair, in the box
    marked = screen.marks[0]
    assert abs(marked[1] - aim[1]) < 1.0 and 0.5 < marked[0] - aim[0] < 6.0


def test_enter_pressed_twice_neither_marks_a_point_nor_saves_a_review_unseen(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # Enter from the check screen ("Enter = no, calibrate again") pressed twice marked a
    # point at the picture's centre; Enter pressed while the marks were checked saved
    # them before the rings drawn back were ever seen.
    cam, _ = camera
    screen = session.screen
    _put(session, KeyAction("enter"))
    assert screen.marks == [] and "5 marks the point" in session.app.texts
    for t in TARGETS[:-1]:
        _click(session, truth(cam, t.board))
    x, y = screen.image_to_screen(truth(cam, TARGETS[-1].board))
    session.inbox.put(Click((round(x), round(y))), source="mouse")
    session.app.step(0)  # "Checking the marks..." on screen
    assert screen.busy
    _put(session, KeyAction("enter"))  # meanwhile
    assert screen.reviewing and not (tmp_path / "cal.json").exists()
    _put(session, KeyAction("enter"))  # seen, then saved
    assert (tmp_path / "cal.json").exists()


def test_quit_asks_first_also_after_marks_are_refused(session: Session, tmp_path: Path) -> None:
    # - after a refusal starts again at once (what the refusal asks for); / would throw
    # away five marks, four of them perhaps right: it asks, as it does otherwise.
    for i in range(len(TARGETS)):
        _click(session, (400.0 + 40 * i, 300.0))  # five points on one line: refused
    assert session.screen.error
    _put(session, KeyAction("cancel", "/"))
    assert not session.screen.finished
    assert "/ again to quit: nothing is saved" in session.app.texts
    _put(session, KeyAction("undo", "-"))
    assert session.screen.marks == []


def test_auto_refusing_mark_1_as_the_20_says_to_take_it_back_and_mark_the_20_first(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    # The hint is mark 1 whatever is marked after it: "mark a point on the 20 segment"
    # led to a second mark there, and the same refusal.
    cam, _ = camera
    _click(session, truth(cam, TARGETS[1].board))  # the 6/10 wire taken for the 20/1
    _put(session, KeyAction("digit", "0"))
    said = ("Auto calibration: the board's numbers put 20 elsewhere than mark 1: . = take "
            "the marks back, then mark the 20/1 wire first and press 0")  # fmt: skip
    assert said in session.app.texts, session.app.texts


def test_the_magnifier_stays_in_its_corner_while_the_crosshair_is_aimed_past_the_middle(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    # The 6/10 wire sits at the bull's height on a level camera: a fine step across the
    # picture's middle moved the box to the other corner, just as it was being watched.
    screen = session.screen
    w, h = screen.image_size
    for y in (h / 2 - 3, h / 2 + 3):
        screen.cursor = (w * 0.75, y)
        screen.dirty = True
        session.app.step(0)
        if y < h / 2:
            box = screen.view.zoom_box.copy()
    assert screen.view.zoom_box == box
    screen.cursor = screen.screen_to_image(box.center)  # the crosshair under the box
    screen.dirty = True
    session.app.step(0)
    assert screen.view.zoom_box != box  # ... it makes way
    assert not screen.view.zoom_box.collidepoint(screen.image_to_screen(screen.cursor))


def _accent_in_picture(s: Session) -> int:
    """How many pixels of the picture's place are in the crosshair's and the magnifier's
    colour (the picture itself has next to none)."""
    rect = s.screen.view.rect
    shown = pygame.surfarray.array3d(s.app.canvas.subsurface(rect))
    return int(np.all(shown == np.array(theme.ACCENT), axis=-1).sum())


def test_after_the_marks_are_refused_no_crosshair_or_magnifier_is_drawn(
    session: Session,
) -> None:
    # Five marks refused: nothing more can be marked (. takes one back, - starts again),
    # so a crosshair and a magnifier over the picture only hid the marks to look at.
    for i in range(len(TARGETS) - 1):
        _click(session, (400.0 + 40 * i, 300.0))
    assert _accent_in_picture(session) > 200  # aiming the fifth: both are there
    _click(session, (560.0, 300.0))  # the fifth, on one line with the others: refused
    assert session.screen.error and not session.screen.reviewing
    assert "These points cannot be used" in session.app.texts
    _put(session, KeyAction("digit", "8"))  # (a move key changes nothing to aim)
    assert _accent_in_picture(session) < 20
    _put(session, KeyAction("back", "."))  # the last mark taken back: aiming again
    assert _accent_in_picture(session) > 200
