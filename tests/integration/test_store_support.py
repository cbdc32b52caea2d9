"""Helpers for the store tests: play whole games through a LiveGame."""

import sqlite3
import subprocess
import sys
from contextlib import closing

WINNING = ["T20", "T19", "T18", "T17", "T16", "T15", "DB", "SB"]


def win_cricket(live, winner_seat):
    """The player at ``winner_seat`` closes everything; the others end their turns."""
    darts = iter(WINNING)
    winner = live.record.players[winner_seat]
    while not live.is_over():
        if live.engine.current_player == winner:
            live.dart(next(darts))
        else:
            live.end_turn()
    return live.finish()


def quick_formula_settings(mode, start=50):
    """No bonus, digits 5001: ``50+0*1`` takes 50 a round (start 50: 0 in one round)."""
    return {"mode": mode, "digits": [5001, 5001, 5001], "start": start, "bonus": 0}


def formula_qualifications(store, player, starts=(50, 100)):
    """One rated qualification of ``player`` per start, ``50+0*1`` every round: 0 in one
    round from 50, in two from 100."""
    for start in starts:
        live = store.start_game(
            "formula", [player], quick_formula_settings("qualification", start), rated=True
        )
        while not live.is_over():
            live.submit(0, "50+0*1")
        live.finish()


class Clock:
    """A store clock the test moves by hand."""

    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now


def draw_cricket(store, players, night_id=None):
    """A rated Cricket game drawn at a one-round limit: nobody throws, level on all."""
    live = store.start_game("cricket", players, {"round_limit": 1}, rated=True, night_id=night_id)
    while not live.is_over():
        live.end_turn()
    return live.finish()


def ann_marks_13_in_24_darts(store):
    """Ann: 13 marks in 24 darts (MPR 1.625) while Bob waits, then Bob closes all."""
    live = store.start_game("cricket", ["Ann", "Bob"], rated=True)
    ann = ["T20", "T19", "T18", "T17", "S16"] + ["MISS"] * 19
    bob = iter(WINNING)
    while not live.is_over():
        if live.engine.current_player == "Ann":
            live.dart(ann.pop(0)) if ann else live.end_turn()
        else:
            live.end_turn() if ann else live.dart(next(bob))
    live.finish()


def cy_scores_501_in_4_rounds(store):
    """Cy's qualification: 501 points in round 1, none in the other three (125.25 a
    round); not at 0 after the 4 rounds."""
    settings = {"mode": "qualification", "digits": [5001] * 4, "max_rounds": 4}
    settings |= {"start": 1000, "goal": 1000, "bonus": 0}
    live = store.start_game("formula", ["Cy"], settings, rated=True)
    for formula in ("500+1", "5*0*0*1", "5*0*0*1", "5*0*0*1"):
        live.submit(0, formula)
    assert live.is_over()
    live.finish()


def damage_an_index(path):
    """Garbage over one page of an index (the roster's names): the file still opens and
    its tables read, as after a bad SD card write, but quick_check finds the page."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'players'"
        ).fetchone()
    with path.open("r+b") as f:
        f.seek((root - 1) * page_size + 8)
        f.write(b"\xa5" * (page_size - 8))


def command(db, *argv):
    """What ``darts-kiosk ARGV --db DB`` prints, run as a user runs it (it must succeed)."""
    r = subprocess.run(
        [sys.executable, "-m", "kiosk", *argv, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout
