"""Shared set-up for the kiosk e2e tests: the real app headless, fed by a virtual board
over a real pty (the kiosk opens the board's symlink as it would /dev/dartboard)."""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.adapters.store import Store
from kiosk.bootstrap import Options, build
from kiosk.config import Config
from kiosk.ui.driver import ANNA_WINS as ANNA_WINS  # re-exported: the tests import it here
from kiosk.ui.driver import Driver


@contextmanager
def kiosk_on_board(
    tmp_path: Path, size: tuple[int, int] = (1280, 720), config: Config | None = None
) -> Iterator[tuple[Driver, VirtualBoard]]:
    board = VirtualBoard(tmp_path / "dartboard")
    board.start()
    # The games database in the test's own directory, never the developer's.
    options = Options(
        window=True, size=size, port=str(board.link), env={}, data_dir=tmp_path / "data"
    )
    running = build(options, config or Config())
    d = Driver(running)
    try:
        d.wait_for(lambda: d.kiosk.board.state == "connected", what="the board connected")
        yield d, board
    finally:
        running.close()
        board.close()


@contextmanager
def power_cut_at_the_end(monkeypatch: Any) -> Iterator[None]:
    """A kiosk closed in this block stops as a power cut (or kill -9) stops it: what it
    does at exit is left undone (each input is in the file as it is shown: the file is
    then as a cut leaves it)."""
    from kiosk.ui.games import GameKeeper

    with monkeypatch.context() as m:
        m.setattr(GameKeeper, "shutdown", lambda self: None)
        yield


@contextmanager
def kiosk_on_virtual_board(tmp_path: Path, size: tuple[int, int] = (1280, 720)) -> Iterator[Driver]:
    options = Options(window=True, size=size, virtual=True, env={}, data_dir=tmp_path / "data")
    running = build(options, Config())
    d = Driver(running)
    try:
        d.wait_for(
            lambda: running.devices.virtual and d.kiosk.board.state == "connected",
            what="the virtual board",
        )
        yield d
    finally:
        running.close()


def text_sizes(monkeypatch: Any) -> dict[str, float]:
    """Filled in as the kiosk draws: each text drawn with a width to fit -> the size it
    was drawn at, in % of the screen's height (what a player reads from the oche)."""
    from kiosk.ui import theme

    sizes: dict[str, float] = {}
    fit = theme.Painter.fit

    def recorded(self: Any, text: str, px: float, width: float, style: str = "regular") -> float:
        fitted = fit(self, text, px, width, style)
        sizes[text] = fitted / self.u
        return fitted

    monkeypatch.setattr(theme.Painter, "fit", recorded)
    return sizes


def send(d: Driver, board: VirtualBoard, lines: list[str]) -> None:
    """Board lines, each waited for until the kiosk has shown it."""
    for line in lines:
        before = d.app.frames
        seen = d.app.darts_shown
        board.send(line)
        if line.startswith("BTN"):
            d.wait_for(lambda b=before: d.app.frames > b, what=f"a frame after {line}")
        else:
            d.wait_for(lambda s=seen: d.app.darts_shown > s, what=f"{line} on screen")


def start_game(d: Driver, names: tuple[str, ...] = ("Anna", "Boris"), **options: object) -> None:
    from kiosk.ui.screens.cricket_menu import start_cricket
    from kiosk.ui.session import CricketSetup

    start_cricket(d.kiosk, CricketSetup(names=names, **options))  # type: ignore[arg-type]
    d.settle()
    assert d.screen.name == "cricket"


def left_with_one_dart(tmp_path: Path) -> None:
    """A kiosk that stops (a power cut, a restart) after a Cricket game's first dart."""
    with kiosk_on_board(tmp_path) as (d, board):
        start_game(d)
        send(d, board, ["T20"])


def side_game_on_hold(d: Driver, board: VirtualBoard, darts: list[str]) -> Any:
    """A Cricket game started, Anna's three ``darts`` thrown (her turn on hold), and
    the side game opened over it: the Cricket screen (the side game is ``d.screen``)."""
    from kiosk.ui.screens.formula import open_side_game

    start_game(d)
    cricket_screen = d.screen
    send(d, board, darts)
    open_side_game(d.kiosk, cricket_screen)
    d.settle()
    assert d.screen.name == "formula-side"
    return cricket_screen


# -- the games database in the test's folder ------------------------------------------


def db_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "kiosk.sqlite3"


def stored_events(tmp_path: Path) -> list[tuple[int, str, str]]:
    """(game, kind, payload) of every stored event, read by a second connection."""
    with closing(sqlite3.connect(db_file(tmp_path))) as conn:
        rows = conn.execute("SELECT game_id, kind, payload FROM game_events ORDER BY game_id, seq")
        return [(int(g), str(k), str(p)) for g, k, p in rows]


@contextmanager
def another_kiosk_holding(folder: Path) -> Iterator[subprocess.Popen[str]]:
    """Another kiosk process holding ``folder``'s lock (the service, while a second
    kiosk is started); killed at the end if the test has not stopped it already."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path;"
         " from kiosk.adapters.store.lock import DataLock;"
         " lock, why = DataLock.take(Path(sys.argv[1])); print(why or 'held', flush=True);"
         " time.sleep(60)", str(folder)],
        stdout=subprocess.PIPE, text=True, env=dict(os.environ),
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def add_players(tmp_path: Path, *names: str) -> None:
    with Store.open(db_file(tmp_path)) as store:
        for name in names:
            store.players.add(name)


# -- the crash rig: the real kiosk process, killed with SIGKILL at a random moment -------


@dataclass
class CrashTally:
    rounds: int = 0
    darts_shown: int = 0  # dart events on screen before a kill (the stored prefix checked)
    darts_restored: int = 0  # of those, found in the database at their place, same dart
    lost: int = 0
    frames_checked: int = 0  # "shown" frames whose state was replayed from the database
    frames_wrong: int = 0  # of those, the database's replay did not give that state
    resumes: int = 0  # restarts that rebuilt the game
    resumes_exact: int = 0  # of those, equal to the harness's own replay of the log
    integrity_ok: int = 0
    games: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"rounds {self.rounds}, games {self.games}, darts shown {self.darts_shown}, "
            f"darts restored {self.darts_restored}, lost {self.lost}; shown frames replayed "
            f"{self.frames_checked} ({self.frames_wrong} wrong); restarts resumed exactly "
            f"{self.resumes_exact}/{self.resumes}; integrity ok {self.integrity_ok}/{self.rounds}"
        )


SHOWN = re.compile(r"shown game=(\d+) seq=(\d+) digest=(\w+) (-|(\w+) (\{.*\}))\s*$")
OFFERED = re.compile(r"unfinished game (\d+) \((\w+)\) offered for resume")
ROOT = Path(__file__).resolve().parents[2]
# What the rig throws: mostly darts (Cricket numbers and not), some board buttons.
CRASH_INPUTS = [
    "T20", "S20", "D20", "T19", "S19", "T18", "S18", "D17", "S17", "T16", "S16",
    "S15", "D15", "SB", "DB", "MISS", "S5", "T1", "S9",
    "BTN UNDO", "BTN NEXT",
]  # fmt: skip


class CrashRig:
    """Round after round: (1) make sure the database holds a Cricket game in play (a
    new one when the last is over: what the menu would do); (2) start ``python -m
    kiosk --trace`` on a fresh virtual board; it offers the game; the board's NEXT
    resumes it; (3) throw random inputs every few ms; (4) SIGKILL at a random moment;
    (5) check the file: integrity, and that every state the kiosk logged as shown
    ("shown game=G seq=N digest=D <last event>", logged after the flip) is what the
    stored events 1..N replay to, with event N the one it named. The next round's first
    frame of the resumed game is checked against the harness's replay of the whole log.
    """

    def __init__(self, workdir: Path, seed: int = 0, max_kill_delay: float = 1.5) -> None:
        self.workdir = workdir
        self.data = workdir / "data"
        self.db = self.data / "kiosk.sqlite3"
        self.rng = random.Random(seed)
        self.max_kill_delay = max_kill_delay
        self.tally = CrashTally()
        self._expect_resume: tuple[int, str, int] | None = None  # game, digest, seq

    # -- the database, read as a second party --------------------------------------------

    def _game_in_play(self) -> int:
        from kiosk.adapters.store import Store

        with Store.open(self.db) as store:
            for record in reversed(store.games.unfinished()):
                if store.games.replay(record.id).outcome() is None:
                    return record.id
            for name in ("Anna", "Boris"):
                if store.players.find(name) is None:
                    store.players.add(name)
            live = store.start_game("cricket", ["Anna", "Boris"], {"round_limit": 20}, rated=True)
            self.tally.games += 1
            return live.id

    def _stored(self, game_id: int) -> tuple[str, list[tuple[str, str]], Any, list[str]]:
        """(integrity_check, events as (kind, payload), game row, player names)."""
        with closing(sqlite3.connect(self.db)) as conn:
            integrity = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
            rows = conn.execute(
                "SELECT kind, payload FROM game_events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
            game = conn.execute(
                "SELECT kind, settings FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            names = [
                str(r[0])
                for r in conn.execute(
                    """SELECT p.name FROM game_players gp JOIN players p ON p.id = gp.player_id
                       WHERE gp.game_id = ? ORDER BY gp.seat""",
                    (game_id,),
                )
            ]
        return integrity, [(str(k), str(p)) for k, p in rows], game, names

    # -- one round ---------------------------------------------------------------------

    def round(self) -> None:
        from kiosk.adapters.serial_board.virtual import VirtualBoard

        game_id = self._game_in_play()
        _, events, _, _ = self._stored(game_id)
        start_seq = len(events)
        board = VirtualBoard(self.workdir / "dartboard")
        board.start()
        lines: list[str] = []
        offered = threading.Event()
        resumed = threading.Event()
        connected = threading.Event()  # the kiosk reads the board (it drops older input)
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "kiosk", "--window", "--size=640x360",
                f"--port={board.link}", f"--data-dir={self.data}", "--trace",
            ],
            cwd=ROOT,
            env={
                **os.environ,
                "SDL_VIDEODRIVER": "dummy",
                "SDL_AUDIODRIVER": "dummy",
                "HOME": str(self.workdir),
                "XDG_CONFIG_HOME": str(self.workdir / "config"),
                "PYTHONUNBUFFERED": "1",
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line)
                m = OFFERED.search(line)
                if m and int(m[1]) == game_id:
                    offered.set()
                if "board connected" in line:
                    connected.set()
                m = SHOWN.search(line)
                if m and int(m[1]) == game_id:
                    resumed.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            if not (offered.wait(60) and connected.wait(30)):
                raise AssertionError("the kiosk did not offer the game:\n" + "".join(lines[-30:]))
            board.send("BTN NEXT")  # resume
            if not resumed.wait(30):
                raise AssertionError("the game did not resume:\n" + "".join(lines[-30:]))
            kill_at = time.monotonic() + self.rng.uniform(0.0, self.max_kill_delay)
            while time.monotonic() < kill_at:
                board.send(self.rng.choice(CRASH_INPUTS))
                time.sleep(self.rng.uniform(0.002, 0.03))
            proc.kill()
            proc.wait(timeout=10)
            reader.join(timeout=5)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            board.close()
        self._check(game_id, start_seq, lines)

    def _check(self, game_id: int, start_seq: int, lines: list[str]) -> None:
        from kiosk.domain.replay import GameEvent, apply, new_game
        from kiosk.ui.games import state_digest

        t = self.tally
        t.rounds += 1
        integrity, events, game, names = self._stored(game_id)
        if integrity == "ok":
            t.integrity_ok += 1
        else:
            t.problems.append(f"round {t.rounds}: integrity_check says {integrity}")
        shown: dict[int, tuple[str, str]] = {}  # seq -> (digest, "kind payload")
        for line in lines:
            m = SHOWN.search(line)
            if m and int(m[1]) == game_id:
                shown[int(m[2])] = (m[3], m[4])
        top = max(shown, default=start_seq)
        # The first frame of the resumed game: the kiosk's rebuilt state vs our replay.
        if start_seq in shown:
            t.resumes += 1
            expected = self._digest_at(game, names, events, start_seq)
            if shown[start_seq][0] == expected:
                t.resumes_exact += 1
            else:
                t.problems.append(f"round {t.rounds}: resumed state differs at seq {start_seq}")
        engine = new_game(str(game[0]), json.loads(game[1]), names)
        dart_seqs = [n for n, (k, _) in enumerate(events, start=1) if k == "dart"]
        wrong_from: int | None = None
        for n, (kind, payload) in enumerate(events[:top], start=1):
            apply(engine, GameEvent(kind, json.loads(payload)), names)
            if n in shown and n > start_seq:
                t.frames_checked += 1
                digest, what = shown[n]
                if digest != state_digest(engine) or what != f"{kind} {payload}":
                    t.frames_wrong += 1
                    wrong_from = n if wrong_from is None else wrong_from
        shown_darts = sum(1 for n in dart_seqs if start_seq < n <= top)
        # Shown beyond the stored log: at least the darts among the shown lines there.
        missing = [s for s, (_, what) in shown.items() if s > len(events) and "dart" in what]
        restored = shown_darts
        if wrong_from is not None:
            restored = sum(1 for n in dart_seqs if start_seq < n < wrong_from)
            t.problems.append(f"round {t.rounds}: shown state {wrong_from} not in the database")
        t.darts_shown += shown_darts + len(missing)
        t.darts_restored += restored
        t.lost += shown_darts + len(missing) - restored
        if missing:
            t.problems.append(f"round {t.rounds}: shown seq {missing} missing from the database")

    @staticmethod
    def _digest_at(game: Any, names: list[str], events: list[tuple[str, str]], n: int) -> str:
        from kiosk.domain.replay import GameEvent, replay
        from kiosk.ui.games import state_digest

        evs = [GameEvent(k, json.loads(p)) for k, p in events[:n]]
        return state_digest(replay(str(game[0]), json.loads(game[1]), names, evs))
