"""The formula screens fit what they show, readable from the oche, down to 800x480:
a long formula, the rounds tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from kiosk_support import kiosk_on_board

from kiosk.adapters.formula_keys import MAX_TOKENS
from kiosk.config import Config
from kiosk.ui.formula_session import FormulaSetup
from kiosk.ui.screens.formula import start_formula


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_a_formula_too_long_for_its_box_shows_its_end_readable_inside_it(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    # 60 presses of 8 (pow() drew the formula at 8 px, past the box's right edge.
    with kiosk_on_board(tmp_path, size=size) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(9999,)))
        d.settle()
        d.pad("\n" + "8" * MAX_TOKENS)
        assert session.phase == "playing"
        shown = next(t for t in d.texts if "pow(" in t)
        assert shown.startswith("\u2026") and shown.endswith("pow(pow("), shown
        rect = d.rect_of(shown)
        w, h = size
        assert rect.right <= w * 0.60 - 0.02 * h  # inside the formula's box (the left pane)
        assert rect.height >= 0.05 * h  # not shrunk to a smudge


def test_a_key_refused_because_the_formula_is_full_is_said(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(9999,)))
        d.settle()
        d.pad("\n" + "8" * MAX_TOKENS)
        assert not any(t.startswith("Formula full") for t in d.texts)
        sounds = len(d.kiosk.sound.played)
        d.pad("0")  # one more key: nothing is added, and that is said
        assert "Formula full: delete with . or press Enter" in d.texts, d.texts
        assert list(d.kiosk.sound.played)[sounds:] == ["undo"]  # the refusal's sound
        d.pad(".")  # a key deleted: room again, the note gone
        assert not any(t.startswith("Formula full") for t in d.texts)


def test_letters_typed_on_a_keyboard_fill_the_formula_and_backspace_takes_one_back(
    tmp_path: Path,
) -> None:
    # A keyboard's letters were one token the cap did not count: they ran on without
    # end, and one Backspace took them all.
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(9999,)))
        d.settle()
        d.pad("\n")
        d.keyboard("x" * MAX_TOKENS)
        editor = d.screen.editor  # type: ignore[attr-defined]
        assert editor.text == "x" * MAX_TOKENS
        assert not any(t.startswith("Formula full") for t in d.texts)
        d.keyboard("x")  # one more: not taken, and that is said, with the keyboard's key
        assert editor.text == "x" * MAX_TOKENS
        assert "Formula full: delete with Backspace or press Enter" in d.texts, d.texts
        d.keyboard("\b")
        assert editor.text == "x" * (MAX_TOKENS - 1)
        assert not any(t.startswith("Formula full") for t in d.texts)


def test_the_formula_full_note_is_translated(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path, config=Config(language="uk")) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(9999,)))
        d.settle()
        d.pad("\n" + "8" * (MAX_TOKENS + 1))
        assert "Формула заповнена: стирайте клавішею . або натисніть Enter" in d.texts  # noqa: RUF001


@pytest.mark.parametrize(
    ("size", "names", "points_shown"),
    [
        ((800, 480), ("Олександра-Вікторія", "Christopher Longname"), False),
        ((1280, 720), ("Anna", "Boris"), True),
    ],
)
def test_the_side_games_strip_keeps_the_pass_the_turn_line_readable(
    tmp_path: Path, size: tuple[int, int], names: tuple[str, str], points_shown: bool
) -> None:
    # Long names at 800x480: "…: 4, then + (next player)" was squeezed to 8 px and drawn
    # over the match's points. It keeps its size; the points go when there is no room.
    from kiosk_support import send, start_game

    from kiosk.ui.screens.formula import open_side_game

    with kiosk_on_board(tmp_path, size=size, config=Config(language="uk")) as (d, board):
        start_game(d, names)
        cricket_screen = d.screen
        send(d, board, ["T20", "S19", "D18"])
        open_side_game(d.kiosk, cricket_screen)
        d.settle()
        hint = next(t for t in d.texts if t.endswith("потім + (наступний гравець)"))
        rect = d.rect_of(hint)
        assert rect.height >= 0.03 * size[1], rect  # (its font 2.8 % of the height)
        strip = [d.rect_of(t) for t in d.texts if d.rect_of(t).bottom <= rect.bottom + 2]
        assert all(r == rect or not r.colliderect(rect) for r in strip), strip
        points = f"{names[0]} 0   {names[1]} 0"
        assert (points in d.texts) == points_shown, d.texts


@pytest.mark.parametrize(
    ("size", "language", "verdict"),
    [((800, 480), "en", "still possible"), ((1280, 720), "ru", "ещё возможна"),
     ((800, 480), "uk", "ще можлива")],
)  # fmt: skip
def test_a_duels_perfect_game_note_keeps_its_verdict_whole(
    tmp_path: Path, size: tuple[int, int], language: str, verdict: str
) -> None:
    # The note is too long for a line of its own here: it was drawn under the player's
    # name cut short, "Perfect game (0 by round 4): still possi…" ("ещё воз…"), its
    # verdict the part lost. Parted after its colon, the name goes with the verdict.
    with kiosk_on_board(tmp_path, size=size) as (d, _board):
        d.kiosk.set_language(language)
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(3489,))
        start_formula(d.kiosk, setup)
        d.settle()
        assert f"Anna: {verdict}" in d.texts, d.texts
        assert not any(t.endswith("\u2026") and "(" in t for t in d.texts), d.texts
        d.pad("\n00+00\n")  # Anna answers: Boris's turn, his note
        assert f"Boris: {verdict}" in d.texts, d.texts
