"""The command-line tools on the terminals and pipes a support person has: names a
latin-1 terminal cannot spell or sends as other bytes, output piped to a reader that
goes (``| head -1``). Real processes on real SQLite files, as ``test_cli_contracts``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import cli_env, kiosk

pytestmark = pytest.mark.timeout(90)


def test_a_name_the_terminal_cannot_spell_is_escaped_not_a_traceback(tmp_path: Path) -> None:
    assert kiosk(tmp_path, "players", "add", "Олег").returncode == 0
    r = subprocess.run(
        [sys.executable, "-m", "kiosk", "players", "list"],
        capture_output=True,
        env={**cli_env(tmp_path), "PYTHONIOENCODING": "latin-1"},
        cwd=tmp_path,
        timeout=30,
    )
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr
    assert r.stdout.split()[0] == rb"\u041e\u043b\u0435\u0433"


@pytest.mark.parametrize(
    "command",
    [
        ["players", "add", b"Caf\xe9"],
        ["players", "rename", "Ann", b"Caf\xe9"],
        ["players", "retire", b"Caf\xe9"],
        ["league", "season", "start", b"\xc9t\xe9"],
        ["league", "standings", "--season", b"\xc9t\xe9"],
        ["export", "--season", b"\xc9t\xe9"],
    ],
)
def test_a_name_typed_on_a_terminal_that_is_not_utf8_is_refused_in_words(
    tmp_path: Path, command: list[str | bytes]
) -> None:
    """A latin-1 terminal sends "Caf\xe9" for Café: not a name that has control
    characters, nor a UnicodeEncodeError traceback; the terminal's encoding is named."""
    assert kiosk(tmp_path, "players", "add", "Ann").returncode == 0
    assert kiosk(tmp_path, "league", "season", "start", "Spring").returncode == 0
    r = subprocess.run(
        [sys.executable, "-m", "kiosk", *command],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path),
        cwd=tmp_path,
        timeout=30,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "not UTF-8" in r.stderr.splitlines()[-1], r.stderr
    assert "\\xe9" in r.stderr.splitlines()[-1], r.stderr
    seasons = kiosk(tmp_path, "league", "season", "list").stdout.splitlines()
    assert len(seasons) == 2, seasons


@pytest.mark.parametrize("buffered", [False, True])
@pytest.mark.parametrize(
    "command",
    [
        ["players", "list"],
        ["league", "season", "list"],
        ["league", "standings"],
        ["export", "--season", "Spring"],
        ["solve", "3489"],
    ],
)
def test_output_piped_to_a_reader_that_left_ends_quietly(
    tmp_path: Path, command: list[str], buffered: bool
) -> None:
    """``darts-kiosk players list | head -1``: the reader has gone; the command stops as
    ``cat`` would (141, as killed by SIGPIPE), without "[Errno 32] Broken pipe"."""
    assert kiosk(tmp_path, "players", "add", "Ann").returncode == 0
    assert kiosk(tmp_path, "league", "season", "start", "Spring").returncode == 0
    env = cli_env(tmp_path)
    if buffered:
        del env["PYTHONUNBUFFERED"]
    read, write = os.pipe()
    os.close(read)  # (before it starts: its every write finds nobody reading)
    try:
        r = subprocess.run(
            [sys.executable, "-m", "kiosk", *command],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=30,
        )
    finally:
        os.close(write)
    assert (r.returncode, r.stderr) == (141, "")


@pytest.mark.parametrize(
    "command",
    [
        ["players", "list"],
        ["players", "add", "Bob"],
        ["league", "season", "list"],
        ["export", "--season", "Spring"],
        ["backup", "copy.sqlite3"],
        ["solve", "3489"],
    ],
)
def test_output_closed_is_an_error_said_on_stderr_not_a_silent_success(
    tmp_path: Path, command: list[str]
) -> None:
    """``darts-kiosk players list >&-``: print() with no stdout prints nothing, and the
    command ended with 0 as if it had listed the players. Nothing is done."""
    assert kiosk(tmp_path, "players", "add", "Ann").returncode == 0
    assert kiosk(tmp_path, "league", "season", "start", "Spring").returncode == 0
    r = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "kiosk", *command],
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(tmp_path),
        cwd=tmp_path,
        timeout=30,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "standard output is closed" in r.stderr, r.stderr
    assert not (tmp_path / "copy.sqlite3").exists()
    assert kiosk(tmp_path, "players", "list").stdout.split() == ["Ann", "1500.0"]
