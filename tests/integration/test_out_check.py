"""The check a command makes on its output file before the work that fills it
(``kiosk.commands._out.why_not_writable``): the calibration and the board map are
written beside their place and renamed into it, so what counts is the folder, and in
a sticky folder (/tmp) whether the file there may be replaced."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.commands import _out


def test_a_file_of_another_user_in_a_sticky_folder_is_refused_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # /tmp/cam0.json left by another user: the new file is made, but the rename over
    # theirs fails, after the five points (or 86 darts) were given.
    sticky = tmp_path / "shared"
    sticky.mkdir()
    sticky.chmod(0o1777)
    theirs = sticky / "cam0.json"
    theirs.write_text("{}")
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(tmp_path).st_uid + 4242)  # the kiosk's user
    why = _out.why_not_writable(theirs)
    assert why is not None and why.startswith(f"{theirs}: cannot write it: another user's file")
    assert _out.why_not_writable(sticky / "cam1.json") is None  # a new file: fine there


def test_a_file_left_by_another_user_in_the_kiosks_own_folder_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    left = tmp_path / "cam0.json"  # sudo cp: root's, in a folder that is not sticky
    left.write_text("{}")
    left.chmod(0o444)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(left).st_uid + 4242)
    assert _out.why_not_writable(left) is None
