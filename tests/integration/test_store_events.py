"""Games as event logs in a real SQLite file: what was committed survives, what was not
is gone, even when the process is killed with SIGKILL."""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.adapters.store import GameError, NotSaved, Store
from kiosk.domain.darts import all_darts
from kiosk.domain.replay import GameEvent


@pytest.fixture
def db(tmp_path):
    return tmp_path / "kiosk.sqlite3"


def cricket(store, rated=False):
    for name in ("Ann", "Bob"):
        if store.players.find(name) is None:
            store.players.add(name)
    return store.start_game("cricket", ["Ann", "Bob"], {"variant": "standard"}, rated=rated)


def test_darts_survive_closing_and_reopening_the_file(db):
    with Store.open(db) as store:
        live = cricket(store)
        for d in ("T20", "S19", "MISS"):
            live.dart(d)
        live.end_turn()
        live.dart("DB")
        live.undo()
        state = live.engine.state
    with Store.open(db) as store:
        (game,) = store.games.unfinished()
        kinds = [e.kind for e in store.games.events(game.id)]
        assert kinds == ["dart", "dart", "dart", "turn_end", "dart", "undo"]
        resumed = store.resume(game.id)
        assert resumed.engine.state == state
        assert resumed.engine.current_player == "Ann"


def test_the_connection_is_wal_with_full_sync_and_foreign_keys(db):
    with Store.open(db) as store:
        c = store.db.conn
        assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert c.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert c.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_the_event_log_cannot_be_edited_or_deleted(db):
    with Store.open(db) as store:
        live = cricket(store)
        live.dart("T20")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.db.conn.execute("UPDATE game_events SET payload = '{}'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.db.conn.execute("DELETE FROM game_events")
        assert len(store.games.events(live.id)) == 1


def test_a_refused_input_is_not_recorded(db):
    with Store.open(db) as store:
        live = cricket(store)
        with pytest.raises(ValueError):
            live.undo()  # nothing to undo
        with pytest.raises(ValueError):
            live.dart("T21")
        assert store.games.events(live.id) == []


def test_an_event_that_fails_to_commit_is_taken_back_from_the_screen(db):
    with Store.open(db) as store:
        live = cricket(store)
        live.dart("T20")
        before = live.engine.state
        store.games.abandon(live.id)  # the next write is refused by the store
        with pytest.raises(GameError):
            live.dart("T19")
        assert live.engine.state == before
        with pytest.raises(GameError):
            live.undo()
        assert live.engine.state == before


def test_a_dart_put_in_place_of_the_last_is_saved_whole_or_not_at_all(db):
    # The cameras' other reading (the player pressed *): undo and dart, one input.
    with Store.open(db) as store:
        live = cricket(store)
        live.dart("S19")
        live.dart("T20")
        # The disk fails on the dart, after the undo was written in the same commit.
        store.db.conn.execute(
            "CREATE TEMP TRIGGER fail_dart BEFORE INSERT ON game_events"
            " WHEN NEW.kind = 'dart' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
        )
        with pytest.raises(NotSaved):
            live.replace_last("S20")
        assert [e.kind for e in store.games.events(live.id)] == ["dart", "dart"]  # no undo
        assert live.engine.marks("Ann", 20) == 3  # the screen keeps the dart it showed
        store.db.conn.execute("DROP TRIGGER fail_dart")
        live.replace_last("S20")
        assert live.engine.marks("Ann", 20) == 1 and str(live.engine.darts_this_turn[-1]) == "S20"
        with pytest.raises(ValueError):
            live.replace_last("T21")  # no such dart: refused, nothing taken back
        assert live.engine.marks("Ann", 20) == 1
    with Store.open(db) as store:
        assert [e.kind for e in store.games.events(1)] == ["dart", "dart", "undo", "dart"]
        assert store.resume(1).engine.marks("Ann", 20) == 1


def test_an_input_not_saved_is_taken_back_without_reading_the_failing_disk(db, monkeypatch):
    # A dying SD card: the write fails, and reading the log back would fail too.
    from kiosk.adapters.store.games import Games

    def failing(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    with Store.open(db) as store:
        live = cricket(store)
        for dart in ("T20", "S19", "S18"):
            live.dart(dart)
        shown = live.engine.state
        monkeypatch.setattr(Games, "record", failing)
        monkeypatch.setattr(Games, "replay", failing)
        for attempt in (
            live.undo,
            lambda: live.replace_last("T19"),
            lambda: live.correct(0, "S20"),
        ):
            with pytest.raises(NotSaved):
                attempt()
            assert live.engine.state == shown and live.failure == "disk I/O error"
        monkeypatch.undo()
        live.dart("S17")
        assert store.games.replay(live.id).state == live.engine.state


def test_the_unfinished_game_is_found_for_resume_and_abandon_closes_it(db):
    with Store.open(db) as store:
        assert store.unfinished_game() is None
        live = cricket(store)
        live.dart("T20")
        assert store.unfinished_game().id == live.id
        store.abandon(live.id)
        assert store.unfinished_game() is None
        with pytest.raises(GameError):
            store.resume(live.id)


def test_a_formula_clock_restarts_with_the_time_that_was_left(db):
    with Store.open(db) as store:
        store.players.add("Ann")
        live = store.start_game("formula", ["Ann"], {"mode": "training"})
        live.save_clock(0, 87.25)
    with Store.open(db) as store:
        assert store.games.clock(live.id) == (0, 87.25)
        resumed = store.resume(live.id)
        assert resumed.engine.digits == live.engine.digits


def test_a_formula_answer_takes_its_turns_clock_with_it_in_one_commit(db):
    # The clock was reset in a commit of its own after the answer's: a power cut
    # between them gave the next turn (the same player's next round, or in a duel the
    # other's) the 18.8 s the answered turn had left.
    with Store.open(db) as store:
        store.players.add("Ann")
        live = store.start_game("formula", ["Ann"], {"mode": "qualification",
                                                     "digits": [5001, 5001]})  # fmt: skip
        live.save_clock(0, 18.8)
        live.submit(0, "50+0*1")  # (the kiosk killed here, before its clock's own save)
    with Store.open(db) as store:
        assert store.games.clock(live.id) is None  # the next turn: its full time
    with Store.open(db) as store:
        live = store.resume(live.id)
        live.save_clock(0, 30.0)
        live.timeout(0)  # a turn run out ends the same way
        assert store.games.clock(live.id) is None


def test_a_formula_typed_and_not_sent_is_kept_for_its_turn_and_is_never_an_event(db):
    from kiosk.adapters.store import Draft

    with Store.open(db) as store:
        store.players.add("Ann")
        live = store.start_game("formula", ["Ann"], {"mode": "training",
                                                     "digits": [3489, 3001]})  # fmt: skip
        live.save_draft(0, ["3", "4", "+", "pow("])
    with Store.open(db) as store:
        assert store.games.draft(live.id) == Draft(0, 0, ("3", "4", "+", "pow("))
        assert store.games.events(live.id) == []  # not a formula sent
        assert store.games.replay(live.id).score("Ann") == 501
        resumed = store.resume(live.id)
        resumed.save_draft(0, [])  # all deleted again: nothing to bring back
        assert store.games.draft(live.id) is None


def test_an_answer_takes_the_formula_typed_with_it_in_one_commit(db):
    # Else a cut right after the answer would bring its keys back in the next turn.
    with Store.open(db) as store:
        store.players.add("Ann")
        live = store.start_game("formula", ["Ann"], {"mode": "training",
                                                     "digits": [5001, 5001, 5001]})  # fmt: skip
        live.save_draft(0, ["5", "0", "+"])
        live.submit(0, "50+0*1")
        assert store.games.draft(live.id) is None
        live.save_draft(0, ["5"])
        live.undo()  # (a take-back: the turn is answered again, its keys put back anew)
        assert store.games.draft(live.id) is None
        live.save_draft(0, ["5"])
        live.timeout(0)
        assert store.games.draft(live.id) is None
        live.save_draft(0, ["5"])
        live.abandon()
        assert store.games.draft(live.id) is None


def test_a_formula_typed_before_events_it_did_not_see_is_not_given_back(db):
    with Store.open(db) as store:
        store.players.add("Ann")
        live = store.start_game("formula", ["Ann"], {"mode": "training",
                                                     "digits": [5001, 5001]})  # fmt: skip
        live.submit(0, "50+0*1")
        store.db.conn.execute(  # (as no kiosk writes it: a draft from before the answer)
            "INSERT INTO game_drafts VALUES (?, 0, 0, '[\"5\"]', 'x')", (live.id,)
        )
        assert store.games.draft(live.id) is None
        store.db.conn.execute("UPDATE game_drafts SET seq = 1, tokens = '{}'")
        assert store.games.draft(live.id) is None  # nor one that is not a list of keys


WRITER = textwrap.dedent(
    """
    import sys
    from kiosk.adapters.store import Store
    store = Store.open(sys.argv[1])
    game_id = int(sys.argv[2])
    live = store.resume(game_id)
    darts = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10"]
    i = 0
    while True:
        if i % 4 == 3:
            live.end_turn()
        else:
            live.dart(darts[i % len(darts)])
        # Shown: only now may the screen draw it.
        print(len(live.engine.history), flush=True)
        i += 1
    """
)


def test_sigkill_mid_game_loses_no_committed_event_and_leaves_the_file_whole(db):
    with Store.open(db) as store:
        game_id = cricket(store).id
    rng = random.Random(7)
    shown_total = 0
    for _round in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), str(game_id)],
            stdout=subprocess.PIPE,
            text=True,
        )
        shown = 0
        stop_after = rng.randint(5, 60)
        for line in proc.stdout:
            shown = int(line)
            if shown >= shown_total + stop_after:
                break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        with Store.open(db) as store:
            assert store.integrity_check() == "ok"
            events = store.games.events(game_id)
            # Everything shown is there (the writer may have committed a few more darts
            # between our last read and the kill; those are whole too).
            assert len(events) >= shown
            resumed = store.resume(game_id)
            assert len(resumed.engine.history) == len(events)
        shown_total = len(events)


HOLDER = textwrap.dedent(
    """
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(
        "INSERT INTO game_events (game_id, seq, kind, payload, at) "
        "VALUES (?, 99, 'dart', '{\\"dart\\": \\"T20\\"}', 'now')",
        (int(sys.argv[2]),),
    )
    print("written, not committed", flush=True)
    time.sleep(60)
    """
)


def test_a_transaction_not_committed_when_killed_is_rolled_back(db):
    with Store.open(db) as store:
        live = cricket(store)
        live.dart("T20")
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db), str(live.id)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "written, not committed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    with Store.open(db) as store:
        assert store.integrity_check() == "ok"
        assert [json.dumps(dict(e.payload)) for e in store.games.events(live.id)] == [
            '{"dart": "T20"}'
        ]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    inputs=st.lists(
        st.one_of(
            st.sampled_from([str(d) for d in all_darts()]),
            st.sampled_from(["END", "UNDO", "T20", "T19", "DB"]),
        ),
        max_size=40,
    )
)
def test_a_resumed_game_equals_the_live_game_for_random_play(tmp_path_factory, inputs):
    db = tmp_path_factory.mktemp("prop") / "kiosk.sqlite3"
    with Store.open(db) as store:
        live = cricket(store)
        for text in inputs:
            try:
                if text == "END":
                    live.end_turn()
                elif text == "UNDO":
                    live.undo()
                else:
                    live.dart(text)
            except ValueError:
                pass
        state, outcome = live.engine.state, live.engine.outcome()
    with Store.open(db) as store:
        again = store.resume(live.id)
        assert again.engine.state == state
        assert again.engine.outcome() == outcome
        assert all(isinstance(e, GameEvent) for e in store.games.events(live.id))


def test_a_finished_game_is_in_the_database_file_itself_not_only_its_wal(db, tmp_path):
    # The kiosk runs for days without closing its database: a finished game must not
    # live only in the -wal file, where damage to one page loses all after it unsaid.
    store = Store.open(db)
    try:
        live = cricket(store, rated=True)
        for dart in ("T20", "T19", "T18", "T17", "T16", "T15", "DB", "SB"):
            live.dart(dart)  # Ann, one dart a turn
            if not live.is_over():
                live.end_turn()
                live.end_turn()  # Bob passes
        assert live.is_over()
        live.finish()
        alone = tmp_path / "main-file-only.sqlite3"
        alone.write_bytes(db.read_bytes())  # the database file without its -wal
    finally:
        store.close()
    with sqlite3.connect(alone) as c:
        rows = c.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        events = c.execute("SELECT COUNT(*) FROM game_events").fetchone()[0]
    assert rows == 2 and events == 8 + 7 * 2
