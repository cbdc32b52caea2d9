"""Nothing lost: the kiosk keeps every game in its SQLite file as it is played, and a
restarted kiosk offers the unfinished game back, exactly as it was (headless, real pty,
real database file)."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from kiosk_support import ANNA_WINS, kiosk_on_board, send, start_game

from kiosk.adapters.store import Store, check, schema
from kiosk.config import Config
from kiosk.domain.replay import GameEvent
from kiosk.ui import theme
from kiosk.ui.driver import Driver
from kiosk.ui.formula_session import PLAYING, READY, FormulaSetup
from kiosk.ui.screens import resume
from kiosk.ui.screens.formula import open_side_game, start_formula
from tests.integration.test_store_support import damage_an_index
from tests.plain_user import plain_user


def db_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "kiosk.sqlite3"


def stored_events(tmp_path: Path) -> list[tuple[int, str, str]]:
    """(game, kind, payload) of every stored event, read by a second connection."""
    with closing(sqlite3.connect(db_file(tmp_path))) as conn:
        rows = conn.execute("SELECT game_id, kind, payload FROM game_events ORDER BY game_id, seq")
        return [(int(g), str(k), str(p)) for g, k, p in rows]


def add_players(tmp_path: Path, *names: str) -> None:
    with Store.open(db_file(tmp_path)) as store:
        for name in names:
            store.players.add(name)


def test_each_dart_is_in_the_database_when_the_scoreboard_shows_it(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        for n, dart in enumerate(["T20", "S19", "MISS", "D18"], start=1):
            send(d, board, [dart])
            assert dart in d.texts
            events = stored_events(tmp_path)
            assert len(events) == n and events[-1][1:] == ("dart", f'{{"dart":"{dart}"}}')
        d.press("-")  # undo is an event too, after the darts, in order
        d.press("+")  # (Anna's finished turn, held again by the undo: no event)
        d.press("+")  # and ending a turn early is one
        kinds = [k for _, k, _ in stored_events(tmp_path)]
        assert kinds == ["dart", "dart", "dart", "dart", "undo", "turn_end"]


def test_a_restarted_kiosk_offers_the_unfinished_game_and_resumes_it_exactly(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20", "T20", "S19", "D18", "MISS"])
        before = d.screen.session.game.state  # type: ignore[attr-defined]
    with kiosk_on_board(tmp_path) as (d, board):
        assert d.screen.name == "resume"
        assert any("Anna" in t and "Boris" in t for t in d.texts), d.texts
        d.press("1")
        assert d.screen.name == "cricket"
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert game.state == before
        assert game.current_player == "Boris" and [str(x) for x in game.darts_this_turn] == [
            "D18",
            "MISS",
        ]
        send(d, board, ["S20"])  # play goes on, into the same stored game
        assert len({g for g, _, _ in stored_events(tmp_path)}) == 1


def test_a_turn_on_hold_at_a_power_cut_is_on_hold_again_and_next_does_not_skip_a_player(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20", "S19", "D18"])  # Anna's turn, shown until her darts are out
    with kiosk_on_board(tmp_path) as (d, board):
        send(d, board, ["BTN NEXT"])  # the board's NEXT answers the offer: resume
        assert d.screen.name == "cricket"
        session = d.screen.session  # type: ignore[attr-defined]
        assert session.shown_player == "Anna" and "D18" in d.texts  # her turn, as it was
        send(d, board, ["BTN NEXT"])  # her darts pulled
        game = session.game
        assert game.current_player == "Boris" and game.round == 1 and not game.darts_this_turn
        assert [k for _, k, _ in stored_events(tmp_path)] == ["dart"] * 3  # no turn skipped


def test_the_offer_speaks_the_kiosks_language_and_tells_the_time_by_its_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Europe/Kyiv")
    time.tzset()
    try:
        with kiosk_on_board(tmp_path) as (d, board):
            start_game(d)
            send(d, board, ["T20"])
        with Store.open(db_file(tmp_path)) as store:
            started = store.games.unfinished()[0].started_at
        with kiosk_on_board(tmp_path, config=Config(language="uk")) as (d, _board):
            assert d.screen.name == "resume"
            local = datetime.fromisoformat(str(started)).astimezone()
            assert local.utcoffset() != timedelta(0)  # (Kyiv is never on UTC)
            # What was saved, counted as "label: N" (not "1 збережено", "1 saved").
            assert "Раунд 1 · Anna кидає · збережено дій: 1" in d.texts, d.texts
            # (as Ukrainian writes dates: day.month.year)
            assert any(t.endswith(f"Почато {local:%d.%m.%Y %H:%M}") for t in d.texts), d.texts
            assert any(re.fullmatch(r"Продовжиться сама через \d+ с", t) for t in d.texts)  # noqa: RUF001
            assert not any("UTC" in t or t.endswith(" s") for t in d.texts), d.texts
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_dart_thrown_at_the_offer_resumes_the_game_and_counts(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
    with kiosk_on_board(tmp_path) as (d, board):
        assert d.screen.name == "resume"
        send(d, board, ["S19"])
        assert d.screen.name == "cricket"
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.darts_this_turn] == ["T20", "S19"]


def test_with_no_answer_the_game_resumes_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
    monkeypatch.setattr(resume, "AUTO_RESUME", 1.0)  # 30 s at the bar
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "resume"
        d.wait_screen("cricket", timeout=5.0)
        assert d.screen.session.game.marks("Anna", 20) == 3  # type: ignore[attr-defined]


def test_abandon_takes_two_presses_and_closes_the_game_with_no_result(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("2")
        assert d.screen.name == "resume" and any("Really" in t for t in d.texts)
        d.press("2")
        assert d.screen.name == "attract"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.unfinished() == []
        assert store.games.get(1).status == "abandoned"
        assert len(store.games.events(1)) == 1  # the log itself is kept


def test_a_league_game_of_saved_players_is_finished_and_rated_when_its_results_are_left(
    tmp_path: Path,
) -> None:
    add_players(tmp_path, "Anna", "Boris")
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
        with Store.open(db_file(tmp_path)) as store:  # the winning dart can still be undone
            assert store.games.get(1).status == "playing"
        d.press("/")  # to the menu: the game is over and gone from the screen
        with Store.open(db_file(tmp_path)) as store:
            game = store.games.get(1)
            assert game.status == "finished" and game.rated
            anna, boris = store.players.need("Anna"), store.players.need("Boris")
            assert store.players.rating(anna.id) > store.players.rating(boris.id)


def test_generic_player_names_play_a_friendly_game_kept_off_the_roster(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d, names=("Player 1", "Player 2"))
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
        d.press("\n")  # rematch: the first game is finished, a second one starts
    with Store.open(db_file(tmp_path)) as store:
        first = store.games.get(1)
        assert first.status == "finished" and not first.rated
        assert store.games.get(2).status == "playing"
        assert store.players.roster() == []


def test_ending_a_game_from_the_menu_abandons_it(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])
        d.press("/")
        labels = [item.label for item in d.screen.items()]  # type: ignore[attr-defined]
        end = str(labels.index("End game") + 1)
        d.press(end)  # End game ...
        d.press(end)  # ... really
        assert d.screen.name == "main-menu"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "abandoned"


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
    import os
    import subprocess
    import sys

    folder = db_file(tmp_path).parent
    with kiosk_on_board(tmp_path) as (d, board):  # the first kiosk: a game in play
        start_game(d)
        send(d, board, ["T20"])
    # Another kiosk process holds the folder (the service, while this one is started)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path;"
         " from kiosk.adapters.store.lock import DataLock;"
         " lock, why = DataLock.take(Path(sys.argv[1])); print(why or 'held', flush=True);"
         " time.sleep(60)", str(folder)],
        stdout=subprocess.PIPE, text=True, env=dict(os.environ),
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with kiosk_on_board(tmp_path) as (d, board):
            assert d.screen.name != "resume"  # the other kiosk's game is not taken over
            banner = [t for t in d.texts if t.startswith("Results are not being saved: ")]
            assert banner == [
                "Results are not being saved: another kiosk program is running: restart the kiosk"
            ], d.texts  # (the process and the folder are in the log)
            start_game(d)
            send(d, board, ["S19"])
    finally:
        holder.kill()
        holder.wait()
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


MOVED = (
    "The games database was deleted or replaced: the kiosk keeps its games in a copy (see the log)"
)


def kept_copies(tmp_path: Path) -> list[Path]:
    return sorted(db_file(tmp_path).parent.glob("kiosk.sqlite3.kept-*[0-9]"))


def test_a_database_deleted_while_the_kiosk_runs_is_said_and_its_games_kept_in_a_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The kiosk went on committing into the deleted file without a word; the next
    # start made an empty database: the night's games gone.
    from kiosk import store_open

    monkeypatch.setattr(store_open, "STORE_LOOK_S", 0.2)  # (a minute)
    with caplog.at_level("INFO"), kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20", "T20"])
        db_file(tmp_path).unlink()  # a clean-up gone wrong
        d.wait_for(lambda: MOVED in " ".join(d.texts), timeout=10, what="the banner")
        send(d, board, ["S19"])  # the game goes on
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.history] == ["T20", "T20", "S19"]
        assert "S19" in d.texts
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert f"{db_file(tmp_path)} was deleted while the kiosk had it open" in logged
    [kept] = kept_copies(tmp_path)
    assert str(kept) in logged
    with closing(sqlite3.connect(kept)) as conn:  # every dart, the one after it too
        rows = conn.execute("SELECT payload FROM game_events ORDER BY seq").fetchall()
        assert [r[0] for r in rows] == ['{"dart":"T20"}', '{"dart":"T20"}', '{"dart":"S19"}']
    kept.rename(db_file(tmp_path))  # what the log says to do: the game is there
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "resume"
        d.press("1")
        game = d.screen.session.game  # type: ignore[attr-defined]
        assert [str(x) for x in game.history] == ["T20", "T20", "S19"]


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


def test_a_formula_round_resumes_with_the_time_that_was_left(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        session = start_formula(d.kiosk, FormulaSetup(names=("Anna",), digits=(3489, 3001)))
        d.settle()
        d.press("\n")  # the digits appear, the clock starts: 120 s
        assert session.phase == PLAYING
        screen = d.screen
        screen.update(time.monotonic() + 50)  # 50 s pass
        screen.update(time.monotonic() + 50.5)
    with Store.open(db_file(tmp_path)) as store:
        seat, left = store.games.clock(1) or (None, 0.0)
        assert seat == 0 and 68 <= left <= 71
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("1")
        assert d.screen.name == "formula"
        resumed = d.screen.session  # type: ignore[attr-defined]
        assert resumed.phase == READY and resumed.game.digits == 3489
        d.settle()  # the screen before Enter promises the time that is left, not 2:00
        assert any(t.startswith("Your clock starts then: 1:1") for t in d.texts), d.texts
        assert "2:00" not in d.texts  # the big clock says the same
        d.press("\n")
        assert resumed.phase == PLAYING
        assert 67 <= resumed.remaining(time.monotonic()) <= 71


def test_a_resumed_duel_does_not_show_the_first_answers_score_before_the_second_answers(
    tmp_path: Path,
) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        setup = FormulaSetup(names=("Anna", "Boris"), mode="duel", digits=(3489, 3001))
        session = start_formula(d.kiosk, setup)
        d.settle()
        d.pad("\n00+00\n")  # Anna: 34+89 (0 = the next digit), 77 points: 424 left
        assert session.game.score("Anna") == 424 and session.player == "Boris"
    with kiosk_on_board(tmp_path) as (d, _board):
        d.settle()
        assert d.screen.name == "resume"
        text = " ".join(d.texts)
        assert "Anna: 501" in text and "Boris: 501" in text and "424" not in text, text


def run_out_of_time(d: Driver) -> None:
    """Enter starts the clock; 200 s later a solo game is lost; then to the menu."""
    d.press("\n")
    screen = d.screen
    screen.update(time.monotonic() + 200)  # the screen's clock only moves forward
    screen.update(time.monotonic() + 202)  # and the last move has stayed up its second
    d.wait_screen("formula-end")
    d.press("/")


def test_a_qualification_of_a_saved_player_is_rated_and_training_never(tmp_path: Path) -> None:
    add_players(tmp_path, "Anna")
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="qualification"))
        d.settle()
        run_out_of_time(d)
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="training"))
        d.settle()
        run_out_of_time(d)
    with Store.open(db_file(tmp_path)) as store:
        qualification, training = store.games.get(1), store.games.get(2)
        assert qualification.status == training.status == "finished"
        assert qualification.rated and not training.rated


def test_a_formula_duel_of_saved_players_is_rated_and_against_the_computer_not(
    tmp_path: Path,
) -> None:
    add_players(tmp_path, "Anna", "Boris")
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna", "Boris"), mode="duel"))
        d.settle()
        start_formula(
            d.kiosk, FormulaSetup(names=("Anna", "Computer"), mode="duel", computer="easy")
        )
        d.settle()
    with Store.open(db_file(tmp_path)) as store:
        duel, against_computer = store.games.get(1), store.games.get(2)
        assert duel.kind == against_computer.kind == "formula"
        assert duel.rated and not against_computer.rated


def test_a_side_game_leaves_the_cricket_game_in_play(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20", "T20", "T20"])
        open_side_game(d.kiosk, d.screen)
        d.settle()
        assert d.screen.name == "formula-side"
        send(d, board, ["S19"])  # Boris throws: on the Cricket game, still stored
    with Store.open(db_file(tmp_path)) as store:
        assert [g.kind for g in store.games.unfinished()] == ["cricket"]
        assert len(store.games.events(1)) == 4


def test_a_stored_game_that_does_not_replay_is_set_aside_with_the_reason(tmp_path: Path) -> None:
    with Store.open(db_file(tmp_path)) as store:
        store.players.add("Anna")
        live = store.start_game("formula", ["Anna"], {"mode": "training"})
        store.games.record(live.id, GameEvent.dart("T20"))  # no dart fits a formula game
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.screen.name == "resume"
        d.press("1")
        assert d.screen.name == "resume" and "This game cannot be resumed" in d.texts
        assert any("does not apply" in t for t in d.texts), d.texts
        d.press("\n")
        assert d.screen.name == "attract"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "abandoned"


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


def test_a_qualification_ended_from_the_game_menu_is_a_loss_for_the_standings(
    tmp_path: Path,
) -> None:
    # Ending a qualification about to be lost must not keep it off the standings: it
    # is lost as the clock would lose it. A training ended the same way is just gone.
    add_players(tmp_path, "Anna")
    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="qualification"))
        d.settle()
        d.pad("\n4")  # the digits, then the game menu
        assert d.screen.name == "formula-pause" and "End game (counts as lost)" in d.texts
        d.pad("2")
        assert "Really end the game? It counts as lost: choose again" in d.texts
        d.pad("2")
        d.wait_screen("formula-end")  # lost, and shown so, as on time
        assert len(d.kiosk.results) == 1  # on the attract screen's list too
        d.pad("/")
        assert d.screen.name == "main-menu"
        start_formula(d.kiosk, FormulaSetup(names=("Anna",), mode="training"))
        d.settle()
        d.pad("\n4")
        assert "End game (counts as lost)" in d.texts  # (said to the player the same way)
        d.pad("22")
        d.wait_screen("formula-end")
        d.pad("/")
    with Store.open(db_file(tmp_path)) as store:
        qualification, training = store.games.get(1), store.games.get(2)
        assert qualification.status == "finished" and qualification.rated
        assert training.status == "finished" and not training.rated
    with closing(sqlite3.connect(db_file(tmp_path))) as conn:
        rows = conn.execute("SELECT game_id, outcome FROM results ORDER BY game_id").fetchall()
        assert rows[0] == (1, "lost")
        rated = conn.execute("SELECT game_id, after < before FROM ratings").fetchall()
        assert rated == [(1, 1)]  # her rating went down for it


def test_results_left_on_screen_go_to_the_attract_screen_and_the_game_counts(
    tmp_path: Path,
) -> None:
    # The last results of the night left on the TV: the game must count (standings,
    # export over SSH at closing) without anyone pressing a key.
    from kiosk.ui.screens.results import RESULTS_IDLE_S

    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ANNA_WINS)
        d.wait_screen("results")
        with Store.open(db_file(tmp_path)) as store:
            assert store.games.get(1).status == "playing"  # undo and correct still open
        d.screen.update(time.monotonic() + RESULTS_IDLE_S - 5)
        d.settle()
        assert d.screen.name == "results"
        d.press("*")  # "Correct a dart" opened over them, and left there too
        assert d.screen.name == "correct-dart"
        d.screen.update(time.monotonic() + RESULTS_IDLE_S + 1)
        d.settle()
        assert d.screen.name == "attract" and any("Anna" in t for t in d.texts)
        with Store.open(db_file(tmp_path)) as store:
            assert store.games.get(1).status == "finished"


def test_a_formula_games_end_left_on_screen_goes_to_the_attract_screen(tmp_path: Path) -> None:
    from kiosk.ui.screens.results import RESULTS_IDLE_S

    with kiosk_on_board(tmp_path) as (d, _board):
        start_formula(d.kiosk, FormulaSetup(names=("Anna",)))
        d.settle()
        d.press("\n")
        screen = d.screen
        screen.update(time.monotonic() + 200)  # her time runs out: the game is lost
        screen.update(time.monotonic() + 202)
        d.wait_screen("formula-end")
        d.screen.update(time.monotonic() + RESULTS_IDLE_S + 1)
        d.settle()
        assert d.screen.name == "attract"
    with Store.open(db_file(tmp_path)) as store:
        assert store.games.get(1).status == "finished"
