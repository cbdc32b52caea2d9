"""The command-line tools as a user (and the issues' checks) run them: real processes,
real ptys, real SQLite files, in a temporary directory.

Each test names the promise it checks. A failing command must end with one line on
stderr and a non-zero exit, never a traceback. ``solve --all`` (about 15 s of one core)
runs in the background from the first test on and is checked by the last one.
"""

from __future__ import annotations

import csv
import itertools
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import cv2
import pytest
import serial
from cli_support import cli_env, fails_cleanly, kiosk

from kiosk.adapters.camera.synthetic import render_throw
from kiosk.adapters.serial_board.ports import choose_port
from kiosk.adapters.serial_board.protocol import Button, Hello, Hit, Ping, Raw, Unknown, parse_line
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.domain.darts import Dart
from kiosk.domain.formula.expression import evaluate

pytestmark = pytest.mark.timeout(90)


class Proc:
    """A long-running ``darts-kiosk`` process whose stdout lines are timestamped."""

    def __init__(self, home: Path, *args: str) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-m", "kiosk", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(home),
            cwd=home,
        )
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        self.seen: list[str] = []
        assert self.p.stdout is not None
        threading.Thread(target=self._pump, args=(self.p.stdout,), daemon=True).start()

    def _pump(self, out: IO[str]) -> None:
        for line in out:
            self.lines.put((time.monotonic(), line.rstrip("\n")))

    def next(self, timeout: float = 10.0) -> tuple[float, str]:
        try:
            item = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"nothing in {timeout} s after {self.seen}") from None
        self.seen.append(item[1])
        return item

    def line(self, timeout: float = 10.0) -> str:
        return self.next(timeout)[1]

    def finish(self, sig: int = signal.SIGTERM, timeout: float = 10) -> tuple[int, str]:
        if self.p.poll() is None:
            self.p.send_signal(sig)
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            raise AssertionError(f"{self.p.args!r} did not stop on signal {sig}") from None
        assert self.p.stderr is not None
        return self.p.returncode, self.p.stderr.read()


@pytest.fixture
def procs() -> Iterator[list[Proc]]:
    started: list[Proc] = []
    yield started
    for p in started:
        if p.p.poll() is None:
            p.p.kill()
            p.p.wait()


@pytest.fixture(scope="module")
def solve_all(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    home = tmp_path_factory.mktemp("solve")
    out = home / "table.csv"
    p = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "solve", "--all", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(home),
    )
    yield p, out
    if p.poll() is None:
        p.kill()
        p.wait()


# -- the program ------------------------------------------------------------------------


def test_help_lists_every_tool_and_version_prints_the_version(
    tmp_path: Path, solve_all: tuple[subprocess.Popen[str], Path]
) -> None:
    r = kiosk(tmp_path, "--help")
    assert r.returncode == 0
    for name in ("virtual-board", "board-monitor", "board-learn", "solve", "players", "export",
                 "backup", "league", "camera-score", "config"):  # fmt: skip
        assert re.search(rf"^\s+{name}\s", r.stdout, re.M), name
    assert "--window" in r.stdout and "darts-kiosk kiosk --help" in r.stdout
    r = kiosk(tmp_path, "kiosk", "--help")
    assert r.returncode == 0 and "--window" in r.stdout and "--virtual" in r.stdout
    r = kiosk(tmp_path, "--version")
    assert r.returncode == 0
    assert re.fullmatch(r"darts-kiosk \d+\.\d+\.\d+\S*\n", r.stdout)


# -- the serial board ----------------------------------------------------------------------

SCRIPT = """# a scripted game, sent before anybody listens
T20
sleep 1
SB
DB
MISS
BTN NEXT
BTN UNDO
BTN MENU
S20i
S20o
320
125
225
xyz
{long}
T19
"""
SHOWN = [
    "status connected",
    "hit T20",
    "hit SB",
    "hit DB",
    "miss",
    "button NEXT",
    "button UNDO",
    "button MENU",
    "hit S20i",  # the inner single, as the board said it; it scores as S20
    "hit S20o",
    "hit T20",  # legacy dARts codes
    "hit SB",
    "hit DB",
    "unknown 'xyz'",
]


def test_board_monitor_shows_a_scripted_game_then_the_unplug_and_stops_on_ctrl_c(
    tmp_path: Path, procs: list[Proc]
) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT.format(long="S" * 70))
    board = Proc(tmp_path, "virtual-board", "--script", str(script))
    procs.append(board)
    path = board.line()
    assert path.startswith("/dev/pts/")
    time.sleep(0.5)  # the board is up and scripted before the monitor starts
    monitor = Proc(tmp_path, "board-monitor", "--port", path, "--baud", "9600")
    procs.append(monitor)
    got = [monitor.next() for _ in SHOWN]
    assert [text for _, text in got] == SHOWN
    # (Seen as the monitor prints them: T20 may be printed late, on a busy machine.)
    assert got[2][0] - got[1][0] >= 0.6, "sleep 1 pauses the script"
    overlong = monitor.line()
    assert overlong.startswith("unknown 'SSSS") and overlong.endswith("...'"), overlong
    assert monitor.line() == "hit T19", "an over-long line is dropped; the next one counts"
    board.p.kill()  # the USB cable pulled: no goodbye
    assert monitor.line(timeout=6) == "status lost"
    assert not [s for s in monitor.seen if s in ("ping",) or s.startswith("hello")]
    monitor.p.send_signal(signal.SIGINT)
    time.sleep(0.05)
    code, err = monitor.finish(signal.SIGINT)  # a second Ctrl-C while it stops
    assert code == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_virtual_board_keeps_a_link_says_hello_and_pings_every_second(
    tmp_path: Path, procs: list[Proc]
) -> None:
    script = tmp_path / "s.txt"
    script.write_text("D16\nsleep 0.5\nBTN NEXT\n")
    link = tmp_path / "dartboard"
    board = Proc(tmp_path, "virtual-board", "--script", str(script), "--link", str(link))
    procs.append(board)
    path = board.line()
    assert link.is_symlink() and os.readlink(link) == path
    port = serial.serial_for_url(str(link), baudrate=115200, timeout=0.1)
    lines: list[tuple[float, bytes]] = []
    try:
        buf = b""
        end = time.monotonic() + 3.3
        while time.monotonic() < end:
            buf += port.read(max(1, port.in_waiting))
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                lines.append((time.monotonic(), line))
    finally:
        port.close()
    texts = [t for _, t in lines]
    assert texts[0].startswith(b"HELLO virtual-board "), texts
    sent = [(t, x) for t, x in lines if x in (b"D16", b"BTN NEXT")]
    assert [x for _, x in sent] == [b"D16", b"BTN NEXT"]
    assert sent[1][0] - sent[0][0] >= 0.45
    pings = [t for t, x in lines if x == b"PING"]
    assert len(pings) >= 2, texts
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    assert all(0.7 < g < 1.5 for g in gaps), gaps
    code, err = board.finish(signal.SIGTERM)
    assert code == 0, err
    assert not link.exists() and not link.is_symlink(), "the link goes with the board"


def test_crlf_lines_count_once_and_a_closed_board_is_lost(
    tmp_path: Path, procs: list[Proc]
) -> None:
    vb = VirtualBoard(tmp_path / "dartboard")
    try:
        monitor = Proc(tmp_path, "board-monitor", "--port", str(vb.link))
        procs.append(monitor)
        assert monitor.line() == "status connected"
        vb.write(b"T20\r\nD16\r\n" + b"S5" + b" " * 62 + b"\r\n")  # 64 bytes: still a line
        assert [monitor.line() for _ in range(3)] == ["hit T20", "hit D16", "hit S5"]
    finally:
        vb.close()
    assert monitor.line(timeout=6) == "status lost"
    code, err = monitor.finish(signal.SIGTERM)
    assert code == 0 and "Traceback" not in err


def test_ctrl_c_stops_the_virtual_board_without_a_traceback(
    tmp_path: Path, procs: list[Proc]
) -> None:
    script = tmp_path / "s.txt"
    script.write_text("T20\n")  # a scripted board runs until it is stopped
    board = Proc(tmp_path, "virtual-board", "--script", str(script), "--link", str(tmp_path / "db"))
    procs.append(board)
    board.line()
    time.sleep(0.3)
    board.p.send_signal(signal.SIGINT)
    time.sleep(0.05)
    code, err = board.finish(signal.SIGINT)
    assert code == 130
    assert "Traceback" not in err, err
    assert not (tmp_path / "db").is_symlink(), "the link goes with the board"
    r = kiosk(tmp_path, "virtual-board", "--script", "missing.txt", "--link", "db")
    fails_cleanly(r, "missing.txt")
    assert r.stdout == "" and not (tmp_path / "db").is_symlink()


@pytest.mark.parametrize("tool", ["board-monitor", "board-learn"])
def test_a_port_that_does_not_exist_is_one_clear_line_and_exit_1(tmp_path: Path, tool: str) -> None:
    extra = ["--out", str(tmp_path / "map.json")] if tool == "board-learn" else []
    r = kiosk(tmp_path, tool, "--port", str(tmp_path / "ttyNOPE"), *extra, timeout=15)
    fails_cleanly(r, "ttyNOPE")
    assert r.returncode == 1
    if tool == "board-monitor":
        assert r.stdout == "status lost\n"
    assert not (tmp_path / "map.json").exists()


# -- the serial protocol, as a table --------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "event"),
    [
        (b"T20\n", Hit(Dart(20, 3))),
        (b"D20\n", Hit(Dart(20, 2))),
        (b"S20\n", Hit(Dart(20, 1))),
        (b"S20i\n", Hit(Dart(20, 1), "i")),
        (b"S20o\r\n", Hit(Dart(20, 1), "o")),
        (b"SB\n", Hit(Dart(25, 1))),
        (b"DB\r\n", Hit(Dart(25, 2))),
        (b"MISS\n", Hit(Dart.MISS)),
        (b"BTN NEXT\n", Button("NEXT")),
        (b"BTN UNDO\n", Button("UNDO")),
        (b"BTN MENU\n", Button("MENU")),
        (b"RAW 2 9\n", Raw(2, 9)),
        (b"HELLO dartboard 1.2\n", Hello("dartboard", "1.2")),
        (b"PING\r\n", Ping()),
        (b"120\n", Hit(Dart(20, 1))),
        (b"320\n", Hit(Dart(20, 3))),
        (b"125\n", Hit(Dart(25, 1))),
        (b"225\n", Hit(Dart(25, 2))),
        (b"325\n", Unknown("325")),
        (b"BTN PANIC\n", Unknown("BTN PANIC")),
        (b"\xff\xfe\n", Unknown("\\xff\\xfe")),
        (b"\n", Unknown("")),
    ],
)
def test_every_protocol_line_parses_to_its_event(raw: bytes, event: object) -> None:
    assert parse_line(raw) == event


def test_a_line_over_64_bytes_is_unknown_and_64_is_a_line() -> None:
    assert isinstance(parse_line(b"T20" + b" " * 61), Hit)
    assert isinstance(parse_line(b"T20" + b" " * 62), Unknown)


def test_the_port_is_chosen_configured_then_dartboard_then_the_first_by_id_that_speaks(
    tmp_path: Path,
) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    none = tmp_path / "no-dartboard"
    with (
        VirtualBoard(tmp_path / "dartboard") as fixed,
        VirtualBoard(ping_interval=3600) as mute,
        VirtualBoard(ping_interval=0.1) as first,
        VirtualBoard(ping_interval=0.1) as second,
    ):
        for vb in (first, second):
            vb.start()
        (by_id / "usb-1-gps").symlink_to(mute.path)
        (by_id / "usb-2-dartboard").symlink_to(first.path)
        (by_id / "usb-3-dartboard").symlink_to(second.path)
        assert choose_port("/dev/ttyUSB7", fixed=fixed.link or "", by_id=by_id) == "/dev/ttyUSB7"
        assert choose_port(None, fixed=str(fixed.link), by_id=by_id) == str(fixed.link)
        found = choose_port(None, fixed=none, by_id=by_id, timeout=1.0)
        assert found == str(by_id / "usb-2-dartboard")
        (by_id / "usb-2-dartboard").unlink()
        (by_id / "usb-3-dartboard").unlink()
        assert choose_port(None, fixed=none, by_id=by_id, timeout=0.5) is None


# -- formula darts ---------------------------------------------------------------------------


def test_solve_prints_the_best_formula_for_each_rule_set(tmp_path: Path) -> None:
    r = kiosk(tmp_path, "solve", "3489")
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()
    assert [row.split()[0] for row in rows] == ["classic", "distance"]
    for row in rows:
        m = re.fullmatch(r"\w+\s+(\S+) = (-?\d+) -> (-?\d+) points", row)
        assert m, row
        assert evaluate(m.group(1), 3489) == int(m.group(2))
    fails_cleanly(kiosk(tmp_path, "solve", "123"), "1000")
    # A number with --all was ignored, and the 9000-row table printed instead.
    fails_cleanly(kiosk(tmp_path, "solve", "3489", "--all"), "not both")


# -- players, league, export, backup ---------------------------------------------------------


def test_camera_score_prints_a_dart_then_a_board_point_and_refuses_bad_files(
    tmp_path: Path,
) -> None:
    throw = render_throw(11, 2)
    args: list[str] = []
    for i in range(2):
        cal, before, after = tmp_path / f"c{i}.json", tmp_path / f"b{i}.jpg", tmp_path / f"a{i}.jpg"
        throw.calibrations[i].save(cal)
        cv2.imwrite(str(before), throw.before[i])
        cv2.imwrite(str(after), throw.after[i])
        args += ["--calibration", str(cal), "--before", str(before), "--after", str(after)]
    r = kiosk(tmp_path, "camera-score", "--calibration", "c0.json", "b0.jpg", "a0.jpg")
    assert r.returncode == 0, r.stderr
    dart, point = r.stdout.splitlines()
    assert re.fullmatch(r"[SDT]([1-9]|1\d|20)|SB|DB|MISS", dart), dart
    assert re.fullmatch(r"-?\d+\.\d -?\d+\.\d mm", point), point
    r = kiosk(tmp_path, "camera-score", *args)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 2, r
    r = kiosk(tmp_path, "camera-score", "--calibration", "c0.json", "b0.jpg", "b0.jpg")
    assert r.stdout == "none\n"
    fails_cleanly(kiosk(tmp_path, "camera-score", "--calibration", "c0.json", "b0.jpg", "x.jpg"),
                  "x.jpg")  # fmt: skip
    (tmp_path / "bad.json").write_text("{bad")
    fails_cleanly(kiosk(tmp_path, "camera-score", "--calibration", "bad.json", "b0.jpg", "a0.jpg"),
                  "bad.json")  # fmt: skip
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe")
    fails_cleanly(kiosk(tmp_path, "camera-score", "--calibration", "bin.json", "b0.jpg", "a0.jpg"),
                  "bin.json")  # fmt: skip


# -- settings ---------------------------------------------------------------------------------


def test_the_printed_defaults_load_back_and_a_wrong_value_names_file_key_and_choices(
    tmp_path: Path,
) -> None:
    r = kiosk(tmp_path, "config", "--print-defaults")
    assert r.returncode == 0 and r.stdout.startswith("#")
    (tmp_path / "kiosk.toml").write_text(r.stdout)
    assert kiosk(tmp_path, "config", "--check", "kiosk.toml").returncode == 0
    (tmp_path / "bad.toml").write_text('[input]\nsource = "usb"\n')
    fails_cleanly(kiosk(tmp_path, "config", "--check", "bad.toml"),
                  "bad.toml", "source", "auto", "serial", "camera", "virtual")  # fmt: skip
    (tmp_path / "typo.toml").write_text("languag = 'en'\n")
    fails_cleanly(kiosk(tmp_path, "config", "--check", "typo.toml"), "typo.toml", "languag")


@pytest.mark.parametrize("what", ["/dev/null", "a named pipe"])
@pytest.mark.parametrize(
    "command",
    [["players", "list", "--config"], ["config", "--check"], ["--window", "--config"]],
)
def test_a_settings_file_that_is_a_device_or_a_pipe_is_not_called_missing(
    tmp_path: Path, what: str, command: list[str]
) -> None:
    # It said "no such file" of /dev/null, which is there.
    if what == "/dev/null":
        path = "/dev/null"
    else:
        path = str(tmp_path / "settings.pipe")
        os.mkfifo(path)
    r = kiosk(tmp_path, *command, path)
    assert r.returncode == 2, r
    fails_cleanly(r, path, "not a regular file")
    assert "no such file" not in r.stderr


# -- last: the background table ---------------------------------------------------------------


def test_solve_all_writes_the_table_of_all_9000_numbers(
    solve_all: tuple[subprocess.Popen[str], Path],
) -> None:
    p, out = solve_all
    try:
        p.wait(timeout=80)
    except subprocess.TimeoutExpired:
        raise AssertionError("solve --all did not finish in 80 s") from None
    assert p.returncode == 0, p.stderr.read() if p.stderr else ""
    with out.open(newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][0] == "digits" and len(rows) == 9001
    assert [int(r[0]) for r in rows[1:]] == list(range(1000, 10000))
    head = rows[0]
    for row in rows[1::997]:
        record = dict(zip(head, row, strict=True))
        for rules in ("classic", "distance"):
            formula, result = record[f"{rules}_formula"], int(record[f"{rules}_result"])
            assert evaluate(formula, int(record["digits"])) == result


def test_under_systemd_a_mistake_in_where_games_are_saved_stops_it_as_an_error_in_the_journal(
    tmp_path: Path,
) -> None:
    # journalctl -p warning ("only problems", as the README says) must show why the
    # kiosk stopped; the unit does not restart it on this exit status (2). Other
    # settings' mistakes are stepped over (the e2e settings tests): never this one.
    bad = tmp_path / "kiosk.toml"
    bad.write_text('data_dir = "games"\n', encoding="utf-8")
    env = {**cli_env(tmp_path), "JOURNAL_STREAM": "8:1"}
    r = subprocess.run(
        [sys.executable, "-m", "kiosk", "--config", str(bad)],
        capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 2
    assert r.stderr.startswith("<3>darts-kiosk: ") and "data_dir" in r.stderr
    plain = kiosk(tmp_path, "--config", str(bad))
    assert plain.returncode == 2 and plain.stderr.startswith("darts-kiosk: ")


def test_an_unexpected_failure_of_the_kiosk_is_logged_as_critical(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import kiosk.bootstrap

    def broken(*args: object) -> int:
        raise RuntimeError("no display: kmsdrm not available")

    monkeypatch.setattr(kiosk.bootstrap, "run_kiosk", broken)
    monkeypatch.setenv("JOURNAL_STREAM", "8:1")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/nonexistent-config")
    from kiosk.cli import main

    assert main(["kiosk"]) == 1
    out = capsys.readouterr().out
    assert "<2>kiosk: the kiosk stopped on an error" in out
    assert "<2>RuntimeError: no display: kmsdrm not available" in out


def test_a_display_that_cannot_be_opened_still_leaves_the_start_up_summary(
    tmp_path: Path,
) -> None:
    # The black-screen case: the journal must say what the kiosk was to do, and why
    # it stopped, not only a traceback.
    env = {**cli_env(tmp_path), "SDL_VIDEODRIVER": "no-such-display"}
    r = subprocess.run(
        [sys.executable, "-m", "kiosk", "--virtual"],
        capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 1, r
    out = r.stdout
    assert "darts-kiosk" in out and "starting" in out
    assert "input: virtual" in out and "data file: " in out
    assert "the kiosk stopped on an error" in out
    assert out.index("starting") < out.index("the kiosk stopped on an error")
