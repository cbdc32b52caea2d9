"""Saving comes back by itself once what kept the kiosk from its database at the start
is put right: the file's owner or mode, a full disk, another kiosk on the same folder.
It used to be left to a restart: a bar owner who fixed the file at 9 pm lost the rest of
the night's results unless someone knew to restart the kiosk (headless, real pty, real
database file; root's file-mode powers lowered where a file's mode must count)."""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kiosk_support import (
    ANNA_WINS,
    another_kiosk_holding,
    db_file,
    kiosk_on_board,
    send,
    start_game,
    stored_events,
)

from kiosk import store_open
from kiosk.ui.driver import Driver
from tests.plain_user import plain_user

NOT_SAVED = "Results are not being saved: "


@pytest.fixture(autouse=True)
def _retry_often(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(store_open, "STORE_WAIT_S", 0.3)  # (5 s at the bar)
    monkeypatch.setattr(store_open, "STORE_RETRY_S", 0.3)  # (15 s)
    yield


def banner(d: Driver) -> list[str]:
    return [t for t in d.texts if t.startswith(NOT_SAVED)]


def saves_again(d: Driver) -> None:
    d.wait_for(lambda: not banner(d), what="the banner gone: saving again", timeout=10)


def a_game_with_a_dart(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])


def test_a_file_made_writable_again_saves_and_offers_its_game_with_no_restart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    a_game_with_a_dart(tmp_path)
    db_file(tmp_path).chmod(0o444)  # ``sudo cp`` of a backup: root's, 0644
    with caplog.at_level("INFO"), plain_user(), kiosk_on_board(tmp_path) as (d, board):
        assert banner(d), d.texts
        assert d.screen.name == "attract"  # not resumed into a file that refuses darts
        d.app.run(until=lambda: False, timeout=1.2)  # a few tries, the file as it is
        for each in db_file(tmp_path).parent.glob("kiosk.sqlite3*"):
            each.chmod(0o644)  # put right, as the log says (sudo chown darts: ...*)
        d.wait_screen("resume", timeout=10)  # the kept game offered, no restart
        assert not banner(d), d.texts
        d.press("1")
        send(d, board, ["S19"])
    assert [k for _, k, _ in stored_events(tmp_path)] == ["dart", "dart"]
    said = [r.getMessage() for r in caplog.records if "cannot be written by" in r.getMessage()]
    assert said and len(said) == len(set(said)), said  # a reason tried again: said once
    assert any("games are saved in" in r.getMessage() for r in caplog.records)


def test_space_freed_on_a_full_disk_saves_again_with_no_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.pwrite

    def full(fd: int, data: bytes, offset: int) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "pwrite", full)  # (only the lock file is written so)
    with kiosk_on_board(tmp_path) as (d, board):
        assert banner(d) == [NOT_SAVED + "the disk is full: free some space"], d.texts
        monkeypatch.setattr(os, "pwrite", real)  # space freed
        saves_again(d)
        start_game(d)
        send(d, board, ["T20"])
    assert [k for _, k, _ in stored_events(tmp_path)] == ["dart"]


def test_a_kiosk_on_the_same_folder_stopped_lets_this_one_save(tmp_path: Path) -> None:
    folder = db_file(tmp_path).parent
    folder.mkdir(parents=True)
    with another_kiosk_holding(folder) as holder, kiosk_on_board(tmp_path) as (d, board):
        assert banner(d), d.texts
        holder.kill()  # the other kiosk stopped
        holder.wait()
        saves_again(d)
        start_game(d)
        send(d, board, ["S19"])
    assert [k for _, k, _ in stored_events(tmp_path)] == ["dart"]


def test_a_backup_put_in_place_of_a_file_that_is_no_database_saves_again(
    tmp_path: Path,
) -> None:
    a_game_with_a_dart(tmp_path)
    good = db_file(tmp_path).read_bytes()
    junk = b"not a database at all, " * 100
    db_file(tmp_path).write_bytes(junk)
    with kiosk_on_board(tmp_path) as (d, _board):
        assert banner(d), d.texts
        d.app.run(until=lambda: False, timeout=1.2)  # tried again and again...
        assert db_file(tmp_path).read_bytes() == junk  # ...never written over
        db_file(tmp_path).write_bytes(good)  # the backup put in its place
        d.wait_screen("resume", timeout=10)
    assert [k for _, k, _ in stored_events(tmp_path)] == ["dart"]


def test_a_game_kept_in_a_file_put_right_while_someone_is_in_the_menus_is_offered_after(
    tmp_path: Path,
) -> None:
    # Put right while the main menu was up, the file's unfinished game was never offered.
    a_game_with_a_dart(tmp_path)
    db_file(tmp_path).chmod(0o444)
    with plain_user(), kiosk_on_board(tmp_path) as (d, _board):
        assert banner(d), d.texts
        d.press("1")  # attract: any key
        assert d.screen.name == "main-menu"
        for each in db_file(tmp_path).parent.glob("kiosk.sqlite3*"):
            each.chmod(0o644)
        saves_again(d)
        assert d.screen.name == "main-menu"  # not over the menu someone is in
        d.press("/")  # back out to the attract screen: offered there
        d.wait_screen("resume", timeout=5)


def test_the_game_that_opens_a_database_let_go_is_listed_once_in_the_last_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Held at the start, let go; the next game's start opens it and is saved there. The
    # last results were read from it only once the attract screen came back, after
    # that game: it was listed twice.
    import sqlite3
    from contextlib import closing

    from kiosk.ui.screens.cricket_menu import CricketMenu
    from kiosk.ui.screens.results import RESULTS_IDLE_S

    monkeypatch.setattr(store_open, "STORE_WAIT_S", 0.5)
    monkeypatch.setattr(store_open, "STORE_RETRY_S", 3600)  # only the game's start tries
    with kiosk_on_board(tmp_path) as (d, board):  # the file made, one game in it
        start_game(d, ("Cleo", "Dan"))
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
    with closing(sqlite3.connect(db_file(tmp_path), isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        with kiosk_on_board(tmp_path) as (d, board):
            assert d.screen.name == "attract"
            other.execute("ROLLBACK")  # let go while the attract screen is up
            d.kiosk.stack.push(CricketMenu(d.kiosk))  # a game starts from a menu
            d.settle()
            start_game(d)  # its start opens the database: this game is saved there
            send(d, board, ANNA_WINS)
            d.wait_screen("results")
            d.screen.update(time.monotonic() + RESULTS_IDLE_S + 1)
            d.settle()
            assert d.screen.name == "attract"
            lines = [t for t in d.texts if t.startswith("Cricket:")]
            assert lines == [
                "Cricket: winner Anna  (Anna · Boris)",
                "Cricket: winner Cleo  (Cleo · Dan)",
            ], lines
