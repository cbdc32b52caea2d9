"""A healthy database on a read-only or full disk is not called broken: the owner
would delete it. What the banner and the log say (``bootstrap.why_not_saved``)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from kiosk.bootstrap import open_store, why_not_saved

OPEN_FAILED = sqlite3.OperationalError("unable to open database file")


def test_a_full_disk_is_named_as_full_not_as_a_broken_database(tmp_path: Path) -> None:
    why = why_not_saved(tmp_path / "kiosk.sqlite3", OPEN_FAILED, free=200_000, writable=True)
    assert why.startswith(f"the disk holding {tmp_path} is full (195 KB free)")
    io = sqlite3.OperationalError("disk I/O error")
    assert "is full" in why_not_saved(tmp_path / "kiosk.sqlite3", io, free=0, writable=True)


def test_a_read_only_folder_is_named_as_such(tmp_path: Path) -> None:
    why = why_not_saved(tmp_path / "kiosk.sqlite3", OPEN_FAILED, free=10**9, writable=False)
    assert why.startswith(f"{tmp_path} cannot be written")
    assert "the database file is not the problem" in why


def test_a_file_that_is_not_a_database_is_still_called_that(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.sqlite3"
    path.write_bytes(b"not a database at all, " * 100)
    store, why = open_store(path)
    assert store is None
    assert why.startswith(f"{path}: ") and "not a usable SQLite database" in why
    assert path.read_bytes().startswith(b"not a database")
    # A disk with room and a folder that can be written: SQLite's own words stay.
    assert why_not_saved(path, OPEN_FAILED, free=10**9, writable=True) == f"{path}: {OPEN_FAILED}"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to any folder")
def test_a_read_only_data_folder_at_start_is_said_plainly(tmp_path: Path) -> None:
    folder = tmp_path / "state"
    folder.mkdir()
    store, _ = open_store(folder / "kiosk.sqlite3")
    store.close()
    folder.chmod(0o500)
    try:
        store, why = open_store(folder / "kiosk.sqlite3")
        assert store is None and why.startswith(f"{folder} cannot be written"), why
    finally:
        folder.chmod(0o700)
