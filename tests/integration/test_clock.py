"""Whether the system clock was set from the network (``kiosk.adapters.clock``), read
as on a Pi: systemd-timesyncd's flag file, else a real ``timedatectl`` program on the
PATH (a script here, answering as systemd's does); and the league screen's warning."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.adapters import clock


def _timedatectl(tmp_path: Path, script: str) -> str:
    """A PATH holding only a ``timedatectl`` that runs ``script`` (sh)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    prog = bin_dir / "timedatectl"
    prog.write_text(f"#!/bin/sh\n{script}\n")
    prog.chmod(0o755)
    return str(bin_dir)


@pytest.fixture
def no_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    flag = tmp_path / "run" / "synchronized"
    monkeypatch.setattr(clock, "TIMESYNCD_FLAG", flag)
    return flag


@pytest.mark.parametrize(
    ("script", "answer"),
    [('echo "$@" > "${0%/*}/args"; echo no', False),
     ("echo yes", True),
     ("echo 'Failed to connect to bus: Host is down' >&2; exit 1", None),  # no systemd
     ("echo maybe", None)],
)  # fmt: skip
def test_timedatectl_says_whether_the_clock_was_set_from_the_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path, script: str, answer: object
) -> None:
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, script))
    assert clock.network_time() is answer
    if answer is False:
        assert (tmp_path / "bin" / "args").read_text().split() == [
            "show", "--property=NTPSynchronized", "--value"]  # fmt: skip


def test_timesyncd_flag_file_means_set_and_no_systemd_means_cannot_tell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert clock.network_time() is None
    no_flag.parent.mkdir()
    no_flag.touch()
    assert clock.network_time() is True


def test_a_hung_timedatectl_is_given_up_on_in_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path
) -> None:
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, "exec sleep 30"))
    assert clock.network_time() is None


def test_the_league_menu_asks_to_check_the_date_only_when_the_clock_was_not_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.e2e.test_league_screens import kiosk, to_league

    warning = "Clock not set from the network: is tonight's date right?"
    path = os.environ["PATH"]
    answer = tmp_path / "answer"
    answer.write_text("no\n")
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, f"cat {answer}") + os.pathsep + path)
    with kiosk(tmp_path) as d:
        to_league(d)
        assert warning in d.texts
        assert any("not set from the network" in r.getMessage() for r in caplog.records)
        d.press("/")  # back to the main menu; the network sets the clock; league again
        assert d.screen.name == "main-menu"
        answer.write_text("yes\n")
        d.press("3")
        assert d.screen.name == "league-menu"
        assert warning not in d.texts
        assert any(t.startswith("Tonight: ") for t in d.texts)
