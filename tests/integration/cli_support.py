"""What the command-line tests share: a ``darts-kiosk`` process run as a user runs it,
in a home of its own (its settings and games there, never the developer's), and the
check that a command failed as promised."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def cli_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("STATE_DIRECTORY",)}
    env.update(
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        XDG_STATE_HOME=str(home / "state"),
        XDG_CONFIG_HOME=str(home / "config"),
        PYTHONUNBUFFERED="1",
    )
    return env


def kiosk(home: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=cli_env(home),
        cwd=home,
    )


def fails_cleanly(r: subprocess.CompletedProcess[str], *words: str) -> None:
    """Non-zero, one line on stderr naming ``words``, no traceback."""
    assert r.returncode != 0, r
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
