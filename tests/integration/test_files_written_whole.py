"""Files written whole or not at all (``kiosk.adapters.files``), on a real folder: the
old file stays when the write fails, and the new one can be read as the old one could."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from kiosk.adapters.files import write_text_atomically


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_is_readable_by_others_as_open_makes_it(tmp_path: Path) -> None:
    # A temporary file is 0600: a calibration written with sudo could not be read by
    # the kiosk's service user.
    old = os.umask(0o022)
    try:
        write_text_atomically(tmp_path / "cal.json", "{}\n")
    finally:
        os.umask(old)
    assert mode(tmp_path / "cal.json") == 0o644
    assert (tmp_path / "cal.json").read_text() == "{}\n"


def test_a_file_replaced_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "league.csv"
    target.write_text("last week\n")
    target.chmod(0o640)
    write_text_atomically(target, "this week\n")
    assert target.read_text() == "this week\n" and mode(target) == 0o640


def test_a_write_that_fails_leaves_the_old_file_and_no_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "board-map.json"
    target.write_text("the old map\n")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        write_text_atomically(target, "the new map\n")
    assert target.read_text() == "the old map\n"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_a_symbolic_link_is_followed_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "exports" / "league.csv"
    real.parent.mkdir()
    real.write_text("last week\n")
    link = tmp_path / "latest.csv"
    link.symlink_to(real)
    write_text_atomically(link, "this week\n")
    assert link.is_symlink() and real.read_text() == "this week\n"


def test_what_is_not_a_file_is_written_to_not_replaced(tmp_path: Path) -> None:
    # "--out /dev/stdout" (as root) put a plain file where /dev/stdout was.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    read: list[str] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_text()))
    reader.start()
    write_text_atomically(fifo, "through the pipe\n")
    reader.join(5)
    assert read == ["through the pipe\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_folder_that_is_not_there_is_said_of_the_file_asked_for(tmp_path: Path) -> None:
    with pytest.raises(OSError) as e:
        write_text_atomically(tmp_path / "gone" / "league.csv", "x\n")
    assert e.value.filename == str(tmp_path / "gone" / "league.csv")  # not ".league.csv.x.part"
