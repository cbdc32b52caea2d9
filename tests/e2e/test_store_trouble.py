"""The games database in trouble, and the game goes on: a file that is no database, a
second kiosk on the same folder, a file the kiosk may read but not write, a full disk,
another program holding the file, the file deleted or replaced or damaged while the
kiosk runs. Each is said on screen (in the kiosk's language) and in the log, nothing on
screen is lost, and saving comes back where it can (headless, real pty, real database
file; root's file-mode powers lowered where a file's mode must count)."""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest
from kiosk_support import (
    add_players,
    another_kiosk_holding,
    db_file,
    kiosk_on_board,
    send,
    start_game,
    stored_events,
)

from kiosk.adapters.store import Store, check, schema
from kiosk.config import Config
from kiosk.ui import theme
from tests.integration.test_store_support import damage_an_index
from tests.plain_user import plain_user

MOVED = (
    "The games database was deleted or replaced: the kiosk keeps its games in a copy (see the log)"
)


def kept_copies(tmp_path: Path) -> list[Path]:
    return sorted(db_file(tmp_path).parent.glob("kiosk.sqlite3.kept-*[0-9]"))


def test_the_kiosk_runs_without_a_usable_database_and_says_results_are_not_saved(
    tmp_path: Path,
) -> None:
    db_file(tmp_path).parent.mkdir(parents=True)
    db_file(tmp_path).write_bytes(b"not a database at all, " * 100)
    with kiosk_on_board(tmp_path) as (d, board):
        assert any(t.startswith("Results are not being saved: ") for t in d.texts), d.texts
        start_game(d)
        send(d, board, ["T20"])
        assert d.screen.session.game.marks("Anna", 20) == 3  # type: ignore[attr-defined]
        assert any(t.startswith("Results are not being saved") for t in d.texts)
    assert db_file(tmp_path).read_bytes().startswith(b"not a database")  # never overwritten


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Results are not being saved: the games database is damaged or not the kiosk's"),
        ("uk", "Результати не зберігаються: база ігор пошкоджена або не належить кіоску"),  # noqa: RUF001
        ("ru", "Результаты не сохраняются: база игр повреждена или не принадлежит киоску"),
    ],
)
def test_a_database_that_is_not_one_is_said_plainly_in_the_kiosk_s_language(
    tmp_path: Path, language: str, said: str
) -> None:
    # The banner said "/var/lib/.../kiosk.sqlite3 is not a usable SQLite database: file
    # is not a database", in English whatever the language.
    db_file(tmp_path).parent.mkdir(parents=True)
    db_file(tmp_path).write_bytes(b"not a database at all, " * 100)
    with kiosk_on_board(tmp_path, config=Config(language=language)) as (d, _board):
        shown = " ".join(d.texts)
        assert said in shown, d.texts
        assert str(tmp_path) not in shown and "SQLite" not in shown


def test_a_second_kiosk_on_the_same_data_folder_saves_nothing_and_says_why(
    tmp_path: Path,
) -> None:
    folder = db_file(tmp_path).parent
    with kiosk_on_board(tmp_path) as (d, board):  # the first kiosk: a game in play
        start_game(d)
        send(d, board, ["T20"])
    # Another kiosk process holds the folder (the service, while this one is started)
    with another_kiosk_holding(folder), kiosk_on_board(tmp_path) as (d, board):
        assert d.screen.name != "resume"  # the other kiosk's game is not taken over
        banner = [t for t in d.texts if t.startswith("Results are not being saved: ")]
        assert banner == [
            "Results are not being saved: another kiosk program is using the games file:"
            " stop it, and saving comes back"
        ], d.texts  # (the process and the folder are in the log)
        start_game(d)
        send(d, board, ["S19"])
    assert [k for _, k, _ in stored_events(tmp_path)] == ["dart"]  # the first kiosk's only
    with kiosk_on_board(tmp_path) as (d, _board):  # the other gone: this one saves again
        assert d.screen.name == "resume"


def test_a_database_the_kiosk_may_read_but_not_write_is_named_and_its_game_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # ``sudo cp`` of a backup leaves the file root's (0644): the kiosk's user may read
    # it, not write it. SQLite opened it read-only without a word; the unfinished game
    # was resumed, every dart then refused ("Not saved: try again"), and the banner
    # blamed the disk.
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
    before = stored_events(tmp_path)
    db_file(tmp_path).chmod(0o444)  # (``plain_user``: so for root too)
    with caplog.at_level("WARNING"), plain_user(), kiosk_on_board(tmp_path) as (d, board):
        assert d.screen.name == "attract"  # not resumed into a file that refuses its darts
        shown = " ".join(d.texts)
        said = (
            "Results are not being saved: the games file cannot be written:"
            " check its owner and permissions"
        )
        assert said in shown, d.texts
        start_game(d)
        send(d, board, ["S19", "T18"])  # the game goes on, in memory
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["S19", "T18"]
        assert "Not saved: try again" not in d.texts
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert f"{db_file(tmp_path)} cannot be written by" in logged and "mode 0444" in logged
    assert "unfinished game 1 (cricket) is kept in the database" in logged
    assert stored_events(tmp_path) == before  # the file as it was
    for each in db_file(tmp_path).parent.glob("kiosk.sqlite3*"):
        each.chmod(0o644)  # put right: the game is offered again
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "resume"


def test_a_full_disk_at_the_first_start_is_said_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first start on a full disk: the lock file's process id could not be written,
    # a traceback, and systemd started the kiosk again every 2 s behind a dark screen.
    import errno
    import os

    def full(fd: int, data: bytes, offset: int) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "pwrite", full)  # (only the lock file is written so)
    with kiosk_on_board(tmp_path) as (d, board):
        said = "Results are not being saved: the disk is full: free some space"
        assert said in " ".join(d.texts), d.texts
        start_game(d)
        send(d, board, ["T20", "S19"])
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["T20", "S19"]


def test_an_input_that_cannot_be_saved_is_not_shown_and_raises_the_banner(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
        with Store.open(db_file(tmp_path)) as other:
            other.abandon(1)  # from now on the store refuses this game's events
        send(d, board, ["T19"])
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.marks("Anna", 19) == 0 and [str(x) for x in game.darts_this_turn] == ["T20"]
        assert "T19" not in d.texts
        assert any(t.startswith("Results are not being saved") for t in d.texts), d.texts


def test_once_a_dart_is_saved_again_not_saved_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schema, "KIOSK_BUSY_TIMEOUT_S", 0.2)
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
        with closing(sqlite3.connect(db_file(tmp_path), isolation_level=None)) as other:
            other.execute("BEGIN EXCLUSIVE")  # another program holding the database
            send(d, board, ["T19"])
            assert "Not saved: try again" in d.texts
            said = "Results are not being saved: another program is holding the games database"
            assert said in d.texts and not any("locked" in t for t in d.texts), d.texts
            other.execute("ROLLBACK")
        send(d, board, ["T19"])
        assert d.screen.session.game.marks("Anna", 19) == 3  # type: ignore[attr-defined]
        assert "Not saved: try again" not in d.texts, d.texts
        assert not any(t.startswith("Results are not being saved") for t in d.texts), d.texts
    assert [kind for _, kind, _ in stored_events(tmp_path)].count("dart") == 2


def test_a_dart_while_another_program_holds_the_database_holds_the_screen_briefly(
    tmp_path: Path,
) -> None:
    # The kiosk's write waited 10 s for the lock, the screen frozen meanwhile: a few
    # darts queued behind it outlasted systemd's 30 s watchdog.
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
        with closing(sqlite3.connect(db_file(tmp_path), isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # a command's transaction, held
            t0 = time.monotonic()
            board.send("T19")
            d.wait_for(lambda: "Not saved: try again" in d.texts, timeout=30, what="refused")
            frozen = time.monotonic() - t0
            other.execute("ROLLBACK")
        assert frozen < 4, frozen
        send(d, board, ["T19"])  # once it is let go, the dart is saved
        assert d.screen.session.game.marks("Anna", 19) == 3  # type: ignore[attr-defined]
    assert [kind for _, kind, _ in stored_events(tmp_path)] == ["dart", "dart"]


def test_a_database_held_at_the_start_is_tried_again_and_saves_once_let_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another program holding the file at the start turned saving off for the whole
    # night: "database is locked", the unfinished game never offered, nothing retried.
    from kiosk import store_open

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
    monkeypatch.setattr(store_open, "STORE_WAIT_S", 0.5)  # (5 s at the bar)
    monkeypatch.setattr(store_open, "STORE_RETRY_S", 0.5)  # (15 s)
    with closing(sqlite3.connect(db_file(tmp_path), isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # held through the start
        with kiosk_on_board(tmp_path) as (d, board):
            said = "Results are not being saved: another program is holding the games database"
            assert said in " ".join(d.texts), d.texts
            assert d.screen.name == "attract"
            other.execute("ROLLBACK")  # let go: the next try opens it
            d.wait_screen("resume", timeout=10)
            assert not any(t.startswith("Results are not being saved") for t in d.texts)
            d.press("1")
            send(d, board, ["S19"])
            game = d.screen.session.game  # type: ignore[attr-defined]
            assert [str(x) for x in game.darts_this_turn] == ["T20", "S19"]
    assert [kind for _, kind, _ in stored_events(tmp_path)] == ["dart", "dart"]


def test_a_database_let_go_during_a_game_in_memory_saves_from_the_next_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kiosk import store_open

    monkeypatch.setattr(store_open, "STORE_WAIT_S", 0.5)
    monkeypatch.setattr(store_open, "STORE_RETRY_S", 0.2)
    add_players(tmp_path, "Anna")
    with closing(sqlite3.connect(db_file(tmp_path), isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        with kiosk_on_board(tmp_path) as (d, board):
            start_game(d)  # played in memory
            other.execute("ROLLBACK")
            send(d, board, ["T20"])
            d.screen.update(time.monotonic() + 1)
            d.settle()  # the game in memory stays so, and says so
            assert any(t.startswith("Results are not being saved") for t in d.texts)
            start_game(d, ("Anna", "Boris"))  # the next game: saved
            send(d, board, ["S19"])
            assert not any(t.startswith("Results are not being saved") for t in d.texts)
    assert stored_events(tmp_path) == [(1, "dart", '{"dart":"S19"}')]


def on_disk(copy: Path) -> list[str]:
    """The darts a power cut now would leave in ``copy``: read by another connection
    while the kiosk runs (what it committed; nothing it holds in memory)."""
    with closing(sqlite3.connect(copy)) as conn:
        rows = conn.execute("SELECT payload FROM game_events ORDER BY seq").fetchall()
    return [r[0] for r in rows]


def test_a_database_deleted_while_the_kiosk_runs_is_said_and_its_games_kept_in_a_copy(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The kiosk went on committing into the deleted file without a word; the next
    # start made an empty database: the night's games gone. Then it noticed within a
    # minute, but copied only once a minute: a power cut lost the darts since.
    with caplog.at_level("INFO"), kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20", "T20"])
        db_file(tmp_path).unlink()  # a clean-up gone wrong
        send(d, board, ["T19"])  # noticed before the dart is on screen
        assert MOVED in " ".join(d.texts), d.texts
        [kept] = kept_copies(tmp_path)
        assert on_disk(kept) == ['{"dart":"T20"}', '{"dart":"T20"}', '{"dart":"T19"}']
        send(d, board, ["S19"])  # the game goes on, each dart in the copy as it is shown
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.history] == ["T20", "T20", "T19", "S19"]
        assert on_disk(kept)[-1] == '{"dart":"S19"}' and kept_copies(tmp_path) == [kept]
        assert not kept.with_name(kept.name + "-wal").exists()  # the file alone holds it
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert f"{db_file(tmp_path)} was deleted while the kiosk had it open" in logged
    assert str(kept) in logged
    assert len(on_disk(kept)) == 4
    # The next start (a new, empty database at the path) says the copy is there.
    with caplog.at_level("INFO"), kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "attract"
        said = f"Games kept in a copy are not in the database: {kept.name} (see the log)"
        assert said in " ".join(d.texts), d.texts
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert f"{kept} holds games an earlier run kept" in logged
    kept.replace(db_file(tmp_path))  # what the log says to do: the game is there
    for companion in ("-wal", "-shm"):
        db_file(tmp_path).with_name(db_file(tmp_path).name + companion).unlink(missing_ok=True)
    with kiosk_on_board(tmp_path) as (d, _board):
        assert not any(t.startswith("Games kept in a copy") for t in d.texts)
        assert d.screen.name == "resume"
        d.press("1")
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.history] == ["T20", "T20", "T19", "S19"]


def test_a_database_replaced_while_the_kiosk_runs_is_left_as_put_there_and_said(
    tmp_path: Path,
) -> None:
    # A backup moved in place of the live file (mv) while the kiosk ran.
    backup = tmp_path / "backup.sqlite3"
    with Store.open(backup) as store:
        store.players.add("Zoe")
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
        assert MOVED not in " ".join(d.texts)
        backup.replace(db_file(tmp_path))
        start_game(d, ("Anna", "Boris"))  # a new game looks first
        assert MOVED in " ".join(d.texts), d.texts
        send(d, board, ["S19"])
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["S19"]
        # A command on the file put there meanwhile sees it as it was put there: the
        # kiosk's darts did not go into the -wal file of the same name.
        with Store.open(db_file(tmp_path)) as store:
            assert [p.name for p in store.players.roster()] == ["Zoe"]
            assert store.games.unfinished() == []
    with Store.open(db_file(tmp_path)) as store:  # and after the kiosk stopped
        assert [p.name for p in store.players.roster()] == ["Zoe"]
        assert store.games.unfinished() == []
    [kept] = kept_copies(tmp_path)
    with closing(sqlite3.connect(kept)) as conn:  # the games played on the other
        rows = conn.execute("SELECT game_id, payload FROM game_events ORDER BY game_id")
        assert rows.fetchall() == [(1, '{"dart":"T20"}'), (2, '{"dart":"S19"}')]


def test_a_damaged_database_is_told_on_screen_and_in_the_log_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    add_players(tmp_path, *(f"Player{n:03}" for n in range(300)))  # an index of several pages
    damage_an_index(db_file(tmp_path))
    banner = "Games database damaged (see the log): back it up now"
    with caplog.at_level("ERROR"), kiosk_on_board(tmp_path) as (d, board):
        d.wait_for(lambda: banner in d.texts, what="the damaged database's banner")
        start_game(d)  # the players' lookup fails on the damaged page: played from memory
        send(d, board, ["T20"])
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["T20"]
        assert any(t.startswith("Results are not being saved") for t in d.texts), d.texts
    said = [r.getMessage() for r in caplog.records if "is damaged" in r.getMessage()]
    assert said and "darts-kiosk backup" in said[0]


def test_the_kiosk_is_up_before_the_look_for_damage_ends_and_plays_on_while_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The quick check reads the whole file: seconds on years of play. Held here until
    # the game is under way, as a big file on a slow card would hold it.
    add_players(tmp_path, *(f"Player{n:03}" for n in range(300)))
    damage_an_index(db_file(tmp_path))
    checking, done = threading.Event(), threading.Event()
    real = check.quick_check

    def slow(conn: sqlite3.Connection) -> str:
        checking.set()
        done.wait(30)
        return real(conn)

    monkeypatch.setattr(check, "quick_check", slow)
    banner = "Games database damaged (see the log): back it up now"
    with kiosk_on_board(tmp_path) as (d, board):
        assert checking.wait(10)
        assert d.screen.name == "attract" and banner not in d.texts
        start_game(d, ("Anna", "Boris"))
        send(d, board, ["T20"])
        assert banner not in d.texts
        done.set()
        d.wait_for(lambda: banner in d.texts, what="the damaged database's banner")
        send(d, board, ["S19"])  # the game goes on under it
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["T20", "S19"]


def test_a_kiosk_closed_during_the_look_for_damage_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_players(tmp_path, "Anna")
    started = threading.Event()
    real = check.quick_check

    def slow(conn: sqlite3.Connection) -> str:
        started.set()
        # A check cut short by the kiosk closing: sqlite3 says "interrupted"
        conn.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
        ).fetchone()
        return real(conn)

    monkeypatch.setattr(check, "quick_check", slow)
    t0 = time.monotonic()
    with kiosk_on_board(tmp_path) as (d, _board):
        assert started.wait(10)
        running_check = d.running.check
    assert not running_check._thread.is_alive()
    assert time.monotonic() - t0 < 30


def test_a_full_disk_mid_game_is_said_plainly_in_the_kiosks_language_and_hides_no_turn(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path, config=Config(language="uk")) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
        store = d.kiosk.store
        assert store is not None
        pages = store.db.conn.execute("PRAGMA page_count").fetchone()[0]
        store.db.conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is now full
        with board._lock:
            board._unplug()  # and the board is out: two banners at once
        d.wait_for(lambda: d.kiosk.board.lost, what="the board lost")
        for _ in range(110):  # typed darts, until one no longer fits on the disk
            d.press("19\n")
            if d.kiosk.not_saved_reason:
                break
        d.settle()
        shown = " ".join(d.texts)
        assert "Результати не зберігаються: диск заповнений: звільніть місце" in shown, d.texts
        assert "rollback" not in shown and "full" not in shown
        # The board's banner at the top, the disk's at the foot: the row with the
        # player to throw and the darts of the turn, just above the foot, stays clear.
        h = d.app.canvas.get_height()
        u = h / 100
        assert tuple(d.app.canvas.get_at((3, int(3.5 * u))))[:3] == theme.BAD
        assert tuple(d.app.canvas.get_at((3, int(h - 3.5 * u))))[:3] == theme.BAD
        assert tuple(d.app.canvas.get_at((3, int(h - 10 * u))))[:3] != theme.BAD


def test_a_copy_gone_on_in_that_is_deleted_too_is_followed_by_another(
    tmp_path: Path,
) -> None:
    # A clean-up of kiosk.sqlite3* takes the copy too. SQLite refuses to write a moved
    # file: every dart after it was refused ("Not saved") for the rest of the game.
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
        db_file(tmp_path).unlink()
        send(d, board, ["T19"])
        [first] = kept_copies(tmp_path)
        time.sleep(1.1)  # (the next copy is named by the second it is made)
        first.unlink()
        board.send("S19")  # refused at most once ("Not saved: try again"), then saved
        d.wait_for(lambda: len(kept_copies(tmp_path)) == 1, timeout=10, what="a new copy")
        game = d.screen.session.game  # type: ignore[attr-defined]
        if [str(x) for x in game.history][-1] != "S19":
            assert "Not saved: try again" in d.texts, d.texts
            send(d, board, ["S19"])
        send(d, board, ["S18"])
        [second] = kept_copies(tmp_path)
        assert second != first
        assert on_disk(second) == [
            '{"dart":"T20"}',
            '{"dart":"T19"}',
            '{"dart":"S19"}',
            '{"dart":"S18"}',
        ]
        assert [str(x) for x in game.history] == ["T20", "T19", "S19", "S18"]
