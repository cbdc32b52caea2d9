"""Checks on a file a command is to write, made before the work that fills it (five
points marked, 86 segments thrown at) rather than after it."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def why_not_writable(path: str | os.PathLike[str]) -> str | None:
    """Why a file cannot be written at ``path`` (its folder missing or not ours), or None.
    The files checked so (a calibration, a board map) are written beside their place
    and renamed into it: what counts is the folder, not the file there now (one left
    root's by ``sudo cp`` is replaced all the same)."""
    folder = Path(path).parent
    if not folder.is_dir():
        return f"{folder}: no such folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder}: cannot write there (as the kiosk's user: sudo -u darts ...)"
    target = Path(path)
    if target.is_dir():
        return f"{target}: is a folder"
    if target.exists() and (why := _not_replaceable(target)):
        return f"{target}: cannot write it: {why}"
    try:  # the permission bits are not all (root, a read-only mount, /proc): try it
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return f"{target}: cannot write it: {e.strerror or e}"
    return None


def _not_replaceable(target: Path) -> str:
    """Why ``target`` cannot be renamed over, though its folder takes new files: in a
    sticky folder (/tmp) only its owner, the folder's or root may ("" if it can be)."""
    try:
        folder, st = target.parent.stat(), target.stat()
    except OSError:
        return ""
    me = os.geteuid()
    if folder.st_mode & stat.S_ISVTX and me not in (0, st.st_uid, folder.st_uid):
        return "another user's file in a folder where only its owner may replace it"
    return ""
