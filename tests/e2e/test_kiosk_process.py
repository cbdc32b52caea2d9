"""``darts-kiosk`` as a process: it opens the board given with --port, draws its first
frame, and stops cleanly on SIGTERM (what systemd sends)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.adapters.serial_board.virtual import VirtualBoard
from tests.plain_user import plain_user_process

ROOT = Path(__file__).resolve().parents[2]


def run_until(
    args: list[str],
    env: dict[str, str],
    ready: Callable[[str], bool],
    preexec_fn: Callable[[], None] | None = None,
) -> tuple[int, str]:
    """``python -m kiosk ARGS`` until its log so far is ``ready``, then SIGTERM (what
    systemd sends): its exit status and its whole log."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk", *args],
        cwd=ROOT,
        env={
            # The games database in the test's folder: never one systemd's
            # STATE_DIRECTORY (or the caller's XDG_STATE_HOME) names, shared by runs.
            **{k: v for k, v in env.items() if k != "STATE_DIRECTORY"},
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "PYTHONUNBUFFERED": "1",
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=preexec_fn,
    )
    assert proc.stdout is not None
    seen: list[str] = []
    # A kiosk that never gets there must fail the test, not hang it.
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        for line in proc.stdout:
            seen.append(line)
            if ready("".join(seen)):
                break
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=20)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, "".join(seen) + rest


def test_the_kiosk_process_reads_the_board_and_stops_on_sigterm(tmp_path: Path) -> None:
    with VirtualBoard(tmp_path / "dartboard") as board:
        board.start()
        env = dict(
            os.environ,
            HOME=str(tmp_path),
            XDG_CONFIG_HOME=str(tmp_path),
            XDG_STATE_HOME=str(tmp_path / "state"),
        )
        # "--opt=value": kiosk.cli hands unknown options on only in this form so far.
        args = ["--window", "--size=1024x600", f"--port={board.link}", "--verbose"]
        # The reader thread may connect before the first frame is drawn: wait for both.
        code, log = run_until(
            args, env, lambda text: "board connected" in text and "first frame after" in text
        )
        assert code == 0, log
        assert "display dummy, 1024x600" in log
        assert "first frame after" in log
        assert f"board connected: {board.link}" in log
        assert "darts-kiosk stopped" in log


def test_a_settings_mistake_under_systemd_is_an_error_in_the_journal_and_the_kiosk_comes_on(
    tmp_path: Path,
) -> None:
    # The unit does not restart an exit 2: a typo in the owner's file used to leave the
    # bar's screen dark until somebody read the journal.
    (tmp_path / "darts-kiosk").mkdir()
    (tmp_path / "darts-kiosk" / "kiosk.toml").write_text("[sound]\nvolume = 150\n")
    env = dict(
        os.environ,
        HOME=str(tmp_path),
        XDG_CONFIG_HOME=str(tmp_path),
        XDG_STATE_HOME=str(tmp_path / "state"),
        JOURNAL_STREAM="8:1",
    )
    code, log = run_until(["--window", "--virtual"], env, lambda text: "first frame after" in text)
    assert code == 0, log
    said = [line for line in log.splitlines() if "settings mistake" in line]
    assert said and said[0].startswith("<3>"), log
    assert "[sound] volume = 150" in said[0] and "config --check" in said[0]


@pytest.mark.parametrize("kind", ["unreadable", "folder"])
def test_a_settings_file_that_cannot_be_read_is_left_out_and_the_kiosk_comes_on(
    tmp_path: Path, kind: str
) -> None:
    # Root's, mode 600, the kiosk another user: "cannot read" on stderr and exit 2, and
    # the unit does not restart an exit 2: the bar's screen dark until someone looked.
    # A folder in the file's place was passed over without a word.
    user_file = tmp_path / "darts-kiosk" / "kiosk.toml"
    if kind == "folder":
        user_file.mkdir(parents=True)
    else:
        user_file.parent.mkdir()
        user_file.write_text('language = "uk"\n')
        user_file.chmod(0o000)  # (root's powers over file modes dropped: plain_user_process)
    env = dict(
        os.environ,
        HOME=str(tmp_path),
        XDG_CONFIG_HOME=str(tmp_path),
        XDG_STATE_HOME=str(tmp_path / "state"),
    )
    code, log = run_until(
        ["--window", "--virtual"],
        env,
        lambda text: "first frame after" in text,
        preexec_fn=plain_user_process,
    )
    assert code == 0, log
    said = [line for line in log.splitlines() if "settings mistake" in line]
    why = "cannot read: Permission denied" if kind == "unreadable" else "a folder"
    assert said and f"{user_file}: {why}" in said[0], log
