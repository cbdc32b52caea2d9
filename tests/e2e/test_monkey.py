"""Bad input never crashes the kiosk and never loses data: a monkey test of the real app.

The real kiosk, headless (SDL dummy drivers), with its database in the test's own
directory and a virtual board on a real pty, gets a few thousand random inputs from a
seeded ``random.Random``, the way a bar crowd would give them: keys as SDL key events
(the keypad with NumLock on and off, a keyboard's letters, Esc, Backspace, arrows),
clicks anywhere, board lines (darts, buttons, legacy codes, RAW, garbage bytes,
over-long lines, half lines), the board unplugged and plugged back, formulas typed as
text, pauses that let the clocks run. After every input:

- no exception escaped the loop (``App.step`` does not catch: it would end the
  kiosk), and nothing was logged at ERROR or above (where the screens and sessions
  catch what they must, they log it);
- the top screen draws (a forced redraw of the whole frame);

and at checkpoints and at the end, every game the kiosk still has open is what the
database replays to (a second connection to the file, ``Store.games.replay``), every
game on the stack is one the kiosk is keeping, and every game in the file replays.

``bench/monkey.py`` runs the same rig for many seeds and prints a tally.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import random
import sqlite3
import time
import traceback
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest
from kiosk_support import kiosk_on_board

from kiosk.adapters import keypad as kp
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.bootstrap import Options, build
from kiosk.config import Config, CricketConfig, DisplayConfig, FormulaConfig
from kiosk.ui.driver import Driver
from kiosk.ui.games import sessions_of, state_digest

HANG_S = 30.0  # one input handled in more than this: the kiosk hangs (stacks dumped, exit)
SIZE = (800, 480)  # the Pi's 7" touch screen

# -- what the crowd can press ---------------------------------------------------------

PAD = [kp.K_KP_0 if n == 0 else kp.K_KP_1 + n - 1 for n in range(10)]
PAD_TEXT = {kp.K_KP_0 if n == 0 else kp.K_KP_1 + n - 1: str(n) for n in range(10)}
PAD_OPS = {
    kp.K_KP_PLUS: "+", kp.K_KP_MINUS: "-", kp.K_KP_MULTIPLY: "*", kp.K_KP_DIVIDE: "/",
    kp.K_KP_PERIOD: ".", kp.K_KP_ENTER: "\r",
}  # fmt: skip
NAV = [
    kp.K_INSERT, kp.K_END, kp.K_PAGEDOWN, kp.K_CLEAR, kp.K_HOME, kp.K_PAGEUP,
    kp.K_UP, kp.K_DOWN, kp.K_LEFT, kp.K_RIGHT, kp.K_DELETE,
]  # fmt: skip
OTHER = [
    (kp.K_RETURN, "\r"), (kp.K_ESCAPE, "\x1b"), (kp.K_BACKSPACE, "\b"), (kp.K_TAB, "\t"),
    (kp.K_SPACE, " "), (kp.K_F11, ""), (0, ""), (0x40000000 | 58, ""),  # F1
]  # fmt: skip
ODD_TEXT = "()[],.;:!?'\"%&@#~é中Жß€½²\u200b"
# What leaves a screen: the menu keys, back, and the digits that choose "End game".
LEAVE = [
    (kp.K_KP_DIVIDE, "/"), (kp.K_ESCAPE, "\x1b"), (kp.K_KP_0 + 0, "0"), (kp.K_KP_PERIOD, "."),
    (kp.K_KP_1 + 3, "4"), (kp.K_KP_ENTER, "\r"), (kp.K_KP_1 + 1, "2"), (kp.K_KP_1 + 4, "5"),
    (kp.K_KP_1, "1"), (kp.K_KP_1 + 2, "3"),
]  # fmt: skip
# Where the crowd heads for, from the main menu (keypad digits, as the menus number).
PLANS = [
    ["1", "5", "3"],  # Cricket for two "Player N"
    ["1", "4", "5", "4"],  # Cricket for three
    ["1", "5", "1", "1"],  # Cricket, a new player typed for the first place
    ["1", "5", "1", "3"],  # Cricket, a saved player for the first place
    ["2", "1"], ["2", "3"], ["2", "4"], ["2", "2"],  # formula darts
    ["3", "1", "5"], ["3", "2"], ["3", "3"], ["3", "4"], ["3", "4", "1"], ["3", "4", "3"],
    ["4", "1"], ["4", "2"], ["4", "3"],  # settings
]  # fmt: skip
FORMULA_CHARS = "0123456789+-*/(),. ^" + "powsqrt" * 2

DARTS = (
    [f"{m}{n}" for m in "SDT" for n in range(1, 21)]
    + [f"S{n}I" for n in (1, 20)]
    + [f"S{n}O" for n in (5, 19)]
    + ["SB", "DB", "MISS", "M", "OUT"]
)  # fmt: skip
CRICKET_DARTS = [f"T{n}" for n in range(15, 21)] + ["DB", "SB", "D20", "S19"]
BUTTONS = ["BTN NEXT", "BTN UNDO", "BTN MENU", "BTN next", "BTN", "BTN FOO"]


def garbage(rng: random.Random) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if kind == 1:
        return b"T20" * rng.randrange(22, 400)  # over-long
    if kind == 2:
        return rng.choice([b"120", b"320", b"225", b"125", b"101", b"420", b"099", b"999"])
    if kind == 3:
        return f"RAW {rng.randrange(0, 1200)} {rng.randrange(0, 1200)}".encode()
    if kind == 4:
        return rng.choice([b"HELLO x 1", b"PING", b"HELLO", b"hello a b c", b"\x1b[2J"])
    if kind == 5:
        return rng.choice([b"T21", b"D0", b"S 20", b"t20", b"T20 T20", b"T2O", b"\x00T20"])
    if kind == 6:
        return b"\r\n" * rng.randrange(1, 5)
    return rng.choice(DARTS).encode() + bytes([rng.randrange(256)])


def config_for(seed: int) -> Config:
    """Every other seed plays short games (a few rounds, a 1 s formula clock) so games
    end, and the screens after them get their share; the language and the screen's
    rotation vary with the seed."""
    rng = random.Random(seed * 7919)
    short = seed % 2 == 1
    return Config(
        language=rng.choice(["en", "uk", "ru"]),
        cricket=CricketConfig(
            variant=rng.choice(["standard", "cut-throat", "no-score"]),
            round_limit=rng.choice([1, 2, 3]) if short else 20,
            single_bull=rng.random() < 0.3,
        ),
        formula=FormulaConfig(max_rounds=2, time_limit=1) if short else FormulaConfig(),
        display=DisplayConfig(rotation=rng.choice([0, 0, 90, 180, 270])),
    )


# -- the rig ----------------------------------------------------------------------------


class Errors(logging.Handler):
    """Every record at ERROR or above, from any logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Tally:
    steps: int = 0
    actions: Counter[str] = field(default_factory=Counter)
    screens: Counter[str] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(default_factory=dict)  # screen -> step seconds
    exceptions: int = 0
    errors_logged: int = 0
    draw_failures: int = 0
    checks: int = 0
    games_checked: int = 0
    mismatches: int = 0
    games_in_file: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in (
            "steps", "exceptions", "errors_logged", "draw_failures", "checks",
            "games_checked", "mismatches", "games_in_file",
        ):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.actions.update(other.actions)
        for name, times in other.times.items():
            self.times.setdefault(name, []).extend(times)
        self.screens.update(other.screens)
        self.problems += other.problems


class Monkey:
    """One kiosk, one seed; ``run(steps)`` and read ``tally``. Stops at the first
    problem when ``stop_on_problem`` (the test), else counts and goes on (the bench)."""

    def __init__(
        self, workdir: Path, seed: int, *, stop_on_problem: bool = True, pace: float = 1.0
    ) -> None:
        self.workdir = workdir
        self.pace = pace  # the pauses' share of their length (the test runs them shorter)
        self.seed = seed
        self.rng = random.Random(seed)
        self.stop_on_problem = stop_on_problem
        self.tally = Tally()
        self.history: list[str] = []
        self.same = 0  # steps on the same top screen
        # Keys on the way somewhere ("home": to the main menu). A crowd comes to play
        # Cricket first; where it wanders after depends on the seed (and on timing: how
        # many inputs a frame takes), and a walk that never found a game tested little.
        self.plan: list[str] = ["home", *PLANS[0]]
        self.home_tries = 0
        self.restarts = 0
        self.db = workdir / "data" / "kiosk.sqlite3"
        self.board = VirtualBoard(workdir / "dartboard")
        self.board.start()
        self.errors = Errors()
        logging.getLogger().addHandler(self.errors)
        self.config = config_for(seed)
        self._start()

    def _start(self) -> None:
        options = Options(
            window=True,
            size=SIZE,
            port=str(self.board.link),
            env={},
            data_dir=self.workdir / "data",
        )
        self.running = build(options, self.config)
        self.d = Driver(self.running)
        self.app = self.d.app
        self.app.pump_interval = 0.0  # every step reads SDL's queue: posted keys go in at once
        self.d.wait_for(lambda: self.d.kiosk.board.state == "connected", what="the board")

    def restart(self) -> None:
        """The kiosk stopped (systemd restart, power button) and started again: the game
        in play is offered for resume, exactly as it was."""
        from kiosk.adapters.store import Store

        self.check_data()
        keeper = self.d.kiosk.games
        assert keeper is not None
        playing = {
            int(getattr(g, "id")): state_digest(g.engine)  # noqa: B009 (a LiveGame's)
            for g in keeper.open
            if getattr(g, "id", None) is not None and not g.is_over()
        }
        self.running.close()
        with Store.open(self.db) as store:
            for game_id, digest in playing.items():
                if state_digest(store.games.replay(game_id)) != digest:
                    self.tally.mismatches += 1
                    self.problem(f"game {game_id} changed when the kiosk stopped")
        self.restarts += 1
        self._start()
        top = self.d.screen
        if playing:
            record = getattr(top, "record", None)
            if top.name != "resume" or record is None or record.id != max(playing):
                self.problem(f"game {max(playing)} not offered for resume after a restart")

    def close(self) -> None:
        try:
            self.running.close()
        finally:
            self.board.close()
            logging.getLogger().removeHandler(self.errors)

    # -- inputs -------------------------------------------------------------------------

    def post_key(self, key: int, text: str = "", mod: int = 0) -> None:
        ev = pygame.event.Event(pygame.KEYDOWN, key=key, unicode=text, mod=mod, scancode=0)
        pygame.event.post(ev)
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, scancode=0))

    def resize(self, size: tuple[int, int]) -> None:
        """The screen changed mode (another monitor, a window resized): the app gets
        the event and builds its canvas anew."""
        pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))

    def type_text(self, text: str) -> None:
        for ch in text:
            key = ord(ch.lower()) if ch.isascii() and ch.isprintable() else 0
            self.post_key(key, ch, pygame.KMOD_SHIFT if ch in "()*+^" else 0)

    def pad_key(self, char: str) -> str:
        key = {v: k for k, v in {**PAD_TEXT, **PAD_OPS}.items()}[char]
        self.post_key(key, char)
        return f"pad {char!r}"

    def follow_plan(self, top: str) -> str | None:
        """The next key of the plan (None: the plan is done or given up)."""
        while self.plan:
            step = self.plan[0]
            if step != "home":
                self.plan.pop(0)
                return "plan " + self.pad_key(step)
            if top == "main-menu" or self.home_tries > 12:
                self.plan.pop(0)
                if top != "main-menu":
                    self.plan.clear()
                continue
            self.home_tries += 1
            # The keys that leave each screen: the game menus' "End game" (twice).
            key = {"cricket": "/", "pause": "5", "formula": "4", "formula-pause": "2",
                   "formula-side": "4", "resume": "1"}.get(top)  # fmt: skip
            if key is None:
                self.post_key(kp.K_ESCAPE, "\x1b")
                return "plan home Esc"
            return "plan home " + self.pad_key(key)
        return None

    def act(self) -> str:
        rng = self.rng
        top = self.d.screen.name
        planned = self.follow_plan(top)
        if planned is not None:
            return planned
        if rng.random() < 0.012:
            self.home_tries = 0
            self.plan = ["home", *rng.choice(PLANS)]
            planned = self.follow_plan(top)
            if planned is not None:
                return planned
        # Bored of one screen (a long formula game): the crowd leaves it, sooner or later.
        if self.same > 40 and rng.random() < min(0.5, self.same / 300):
            key, text = rng.choice(LEAVE)
            self.post_key(key, text)
            return f"leave {text!r}"
        session = self.d.game()
        if session is not None and session.game.outcome() is not None and rng.random() < 0.5:
            pause = rng.uniform(0.2, 0.8)  # the crowd watches the winning dart
            self.app.run(timeout=pause * self.pace)
            return f"wait {pause:.2f}s"
        playing = getattr(getattr(self.d.screen, "session", None), "phase", "") == "playing"
        if top.startswith("formula") and playing and rng.random() < 0.04:
            pause = rng.uniform(0.4, 1.2)  # the crowd stares at the digits; the clock runs
            self.app.run(timeout=pause * self.pace)
            return f"wait {pause:.2f}s"
        r = rng.random()
        if r < 0.003:
            self.restart()
            return "restart"
        if r < 0.013:  # someone leans on the keypad: a burst handled in one pass
            keys = [rng.choice([*PAD, *PAD_OPS, *NAV]) for _ in range(rng.randrange(10, 60))]
            for key in keys:
                self.post_key(key, PAD_TEXT.get(key) or PAD_OPS.get(key, ""))
            return f"burst {len(keys)} keys"
        if r < 0.018:  # a flood from the board: darts and buttons as fast as it can
            lines = [rng.choice(DARTS + BUTTONS) for _ in range(rng.randrange(10, 80))]
            sent = self.write_board(("\n".join(lines) + "\n").encode())
            return f"board flood {len(lines)}" if sent else "board unread"
        if r < 0.020:
            size = rng.choice([(320, 240), (640, 480), (1920, 1080), (480, 800), (1280, 720)])
            self.resize(size)
            return f"resize {size}"
        if top == "formula" and r < 0.25:
            text = "".join(rng.choice(FORMULA_CHARS) for _ in range(rng.randrange(1, 12)))
            if rng.random() < 0.5:
                text += "\r"
            self.type_text(text)
            return f"formula text {text!r}"
        if top == "cricket" and r < 0.15:
            line = rng.choice(CRICKET_DARTS).encode()  # someone who can throw
            sent = self.write_board(line + b"\n")
            return f"board {line!r}" if sent else "board unread"
        if r < 0.30:
            key = rng.choice(PAD)
            self.post_key(key, PAD_TEXT[key] if rng.random() < 0.8 else "")  # NumLock off: ""
            return f"pad {PAD_TEXT[key]}"
        if r < 0.45:
            key, text = rng.choice(list(PAD_OPS.items()))
            self.post_key(key, text if rng.random() < 0.8 else "")
            return f"pad {text!r}"
        if r < 0.50:
            key = rng.choice(NAV)
            self.post_key(key)
            return f"nav {key:#x}"
        if r < 0.55:
            key, text = rng.choice(OTHER)
            self.post_key(key, text)
            return f"key {key:#x} {text!r}"
        if r < 0.62:
            ch = rng.choice("abcdefghijklmnopqrstuvwxyz0123456789" + ODD_TEXT)
            self.type_text(ch if rng.random() < 0.7 else ch.upper())
            return f"text {ch!r}"
        if r < 0.72:
            w, h = self.app.canvas.get_size()
            pos = (rng.randrange(-5, w + 5), rng.randrange(-5, h + 5))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
            return f"click {pos}"
        if r < 0.84:
            line = rng.choice(DARTS).encode()
            sent = self.write_board(line + b"\n")
            return f"board {line!r}" if sent else "board unread"
        if r < 0.89:
            line = rng.choice(BUTTONS).encode()
            sent = self.write_board(line + b"\n")
            return f"board {line!r}" if sent else "board unread"
        if r < 0.95:
            data = garbage(rng)
            end = rng.choice([b"\n", b"\r\n", b"\r", b""])
            if not self.write_board(data + end):
                return "board unread"
            return f"board garbage {data[:40]!r}{end!r}"
        if r < 0.965:
            self.board.replug(gap=rng.choice([0.0, 0.0, 0.05]))
            return "replug"
        pause = rng.uniform(0.0, 0.4)
        self.app.run(timeout=pause * self.pace)
        return f"wait {pause:.2f}s"

    def _drain(self) -> None:
        """Until the board's bytes are read (while the kiosk reads the board: the
        settings can switch it to other inputs) and everything queued is handled."""
        deadline = time.monotonic() + 1.0
        if self.running.devices.active != "serial" or self.running.devices.virtual:
            deadline = 0.0  # the kiosk does not read this board now
        left, progress = self.board.pending(), time.monotonic()
        while time.monotonic() < deadline:
            self.app.step(0.002)
            pending = self.board.pending()
            if pending < left:
                left, progress = pending, time.monotonic()
            stalled = time.monotonic() - progress > 0.05
            if (not pending or stalled) and not self.running.inbox.pending():
                break
        self.d.settle()

    def write_board(self, data: bytes) -> bool:
        """A board line, unless the pty is full (nobody has read the board for a while:
        a real board's bytes are lost then; the virtual one would block)."""
        if self.board.pending() > 2048:
            return False
        self.board.write(data)
        return True

    # -- the checks -----------------------------------------------------------------------

    def problem(self, text: str) -> None:
        where = f"seed {self.seed} step {self.tally.steps} on {self.d.screen.name}"
        self.tally.problems.append(
            f"{where}: {text}\n  last inputs: " + " | ".join(self.history[-12:])
        )
        if self.stop_on_problem:
            raise AssertionError(self.tally.problems[-1])

    def check_draw(self) -> None:
        self.app._force = True
        try:
            self.app.step(0)
        except Exception:
            self.tally.draw_failures += 1
            self.problem("the screen does not draw:\n" + traceback.format_exc())

    def check_data(self) -> None:
        """Every open game is what the file replays to; every game on screen is open."""
        from kiosk.adapters.store import Store

        self.tally.checks += 1
        keeper = self.d.kiosk.games
        assert keeper is not None
        screens = self.d.kiosk.stack.screens()
        # The formula side game over a Cricket match is training aside: never recorded.
        aside = [getattr(s, "session", None) for s in screens if s.name == "formula-side"]
        for session in sessions_of(screens):
            if any(session is a for a in aside):
                continue
            if all(session.log is not g for g in keeper.open):
                self.problem(f"a game on screen is not kept: {session.log!r}")
        with closing(sqlite3.connect(self.db)) as conn:
            playing = [r[0] for r in conn.execute("SELECT id FROM games WHERE status = 'playing'")]
        kept = {getattr(g, "id", None) for g in keeper.open}
        offered = [getattr(getattr(s, "record", None), "id", None) for s in screens]
        for game_id in playing:
            if game_id not in kept and game_id not in offered:
                self.problem(f"game {game_id} is left playing in the file, on no screen")
        with Store.open(self.db) as store:
            for game_log in keeper.open:
                game_id = getattr(game_log, "id", None)
                if game_id is None:
                    self.problem(f"a game is played in memory only: {game_log!r}")
                    continue
                self.tally.games_checked += 1
                stored = state_digest(store.games.replay(game_id))
                if stored != state_digest(game_log.engine):
                    self.tally.mismatches += 1
                    self.problem(f"game {game_id}: the screen's state is not the file's")

    def check_file(self) -> None:
        """Every game in the file replays; finished ones are over."""
        from kiosk.adapters.store import Store

        with closing(sqlite3.connect(self.db)) as conn:
            rows = conn.execute("SELECT id, status FROM games ORDER BY id").fetchall()
            ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            self.problem(f"integrity_check: {ok}")
        self.tally.games_in_file = len(rows)
        with Store.open(self.db) as store:
            for game_id, status in rows:
                try:
                    engine = store.games.replay(game_id)
                except Exception as e:
                    self.tally.mismatches += 1
                    self.problem(f"game {game_id} ({status}) does not replay: {e!r}")
                    continue
                if status == "finished" and engine.outcome() is None:
                    self.tally.mismatches += 1
                    self.problem(f"game {game_id} is finished but not over")
                if status == "abandoned" and engine.outcome() is not None:
                    self.tally.mismatches += 1
                    self.problem(f"game {game_id} was won but abandoned: its result is lost")

    # -- the run --------------------------------------------------------------------------

    def step(self) -> None:
        # A kiosk that hangs is as dead as one that crashed: say where it hangs.
        faulthandler.dump_traceback_later(HANG_S, exit=True)
        t0 = time.monotonic()
        before = self.d.screen.name
        what = self.act()
        self.history.append(f"{self.d.screen.name}: {what}")
        self.tally.actions[what.split(" ")[0]] += 1
        try:
            self._drain()
        except Exception:
            self.tally.exceptions += 1
            self.problem("an exception escaped the loop:\n" + traceback.format_exc())
        self.tally.steps += 1
        name = self.d.screen.name
        self.same = self.same + 1 if self.history[-1].startswith(name + ":") else 0
        self.tally.screens[name] += 1
        self.check_draw()
        if len(self.errors.records) > 0:
            records, self.errors.records = self.errors.records, []
            self.tally.errors_logged += len(records)
            text = "\n".join(
                r.getMessage() + ("\n" + "".join(traceback.format_exception(*r.exc_info)))
                if r.exc_info
                else r.getMessage()
                for r in records
            )
            self.problem(f"logged at ERROR:\n{text}")
        if not self.d.kiosk.running:
            self.problem("the kiosk stopped")
            self.d.kiosk.running = True
        faulthandler.cancel_dump_traceback_later()
        self.tally.times.setdefault(before, []).append(time.monotonic() - t0)

    def run(self, steps: int, check_every: int = 100) -> Tally:
        for n in range(steps):
            self.step()
            if n % check_every == check_every - 1:
                self.check_data()
        self.check_data()
        self.check_file()
        return self.tally


def monkey_run(
    workdir: Path, seed: int, steps: int, *, stop_on_problem: bool = True, pace: float = 1.0
) -> Tally:
    monkey = Monkey(workdir, seed, stop_on_problem=stop_on_problem, pace=pace)
    try:
        monkey.run(steps)
    finally:
        monkey.close()
    if not monkey.stop_on_problem:
        return monkey.tally
    monkey.check_file()  # after shutdown: what the file holds still replays
    return monkey.tally


# -- the tests --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bar_crowd_pressing_anything_neither_crashes_the_kiosk_nor_loses_a_game(
    tmp_path: Path, seed: int
) -> None:
    tally = monkey_run(tmp_path, seed, 1500, pace=0.25)
    assert tally.problems == []
    assert tally.steps == 1500 and tally.exceptions == 0 and tally.mismatches == 0
    assert tally.checks >= 15 and tally.games_checked > 0 and tally.games_in_file > 0
    # The crowd got around: menus, a game, and the board was heard.
    assert {"main-menu", "cricket"} <= set(tally.screens), tally.screens


# -- what the monkey found, one test each ----------------------------------------------


def errors_while(d: Driver, keys: str) -> list[str]:
    """The keys pressed; what was logged at ERROR meanwhile."""
    errors = Errors()
    logging.getLogger().addHandler(errors)
    try:
        d.press(keys)
    finally:
        logging.getLogger().removeHandler(errors)
    return [r.getMessage() for r in errors.records]


def test_a_list_with_nobody_in_it_takes_the_keypad_moves_and_goes_back(tmp_path: Path) -> None:
    # The merge list of the only saved player is empty: "-" (up) divided by its length.
    with kiosk_on_board(tmp_path) as (d, _board):
        assert d.kiosk.store is not None
        d.kiosk.store.players.add("Ann")
        d.press("\n34")  # main menu, league night, players
        d.press("3")  # Ann (after Add and Show retired)
        d.press("4")  # Merge into another player
        assert d.screen.name == "merge-pick"
        d.press("-+\n17")  # up, down, Enter, digits: nothing to choose, nothing breaks
        d.key("up")
        d.key("down")
        d.key("left")
        assert d.screen.name == "merge-pick"
        d.press("/")
        assert d.screen.name == "player-actions"


def test_without_cameras_the_input_setting_never_turns_to_cameras(tmp_path: Path) -> None:
    # Cameras chosen with none in the config: every dart unheard, an ERROR logged.
    with kiosk_on_board(tmp_path) as (d, _board):
        d.press("\n4")
        assert d.screen.name == "settings"
        seen = set()
        for _ in range(6):
            assert errors_while(d, "3") == []
            seen.add(d.kiosk.settings.source)
        assert seen == {"auto", "serial", "virtual"}
        assert not any("cameras" in t for t in d.texts)
