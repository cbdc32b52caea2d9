"""Files written whole or not at all: a temporary file beside the target, flushed to
the disk, then renamed over it. A power cut, a full disk or a kill mid-write leaves the
file as it was (the last good export, calibration or board map), never a cut-off one."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_text_atomically(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """``text`` into ``path``, whole or not at all (``OSError`` if not: the old file stays,
    and no temporary file is left), on the disk when it returns (the file and its
    rename). A symbolic link is followed (the file it names is
    replaced, the link stays); what is not a file (``/dev/stdout``, a pipe) is written
    to as it is: renamed over, it would be a file in its place."""
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        with open(target, "w", encoding=encoding, newline="") as f:
            f.write(text)
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as e:  # (said of the file asked for, not of a hidden temporary one)
        raise OSError(e.errno, e.strerror, str(path)) from None
    try:
        os.fchmod(fd, _mode_for(target))
        _keep_owner(fd, target)
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    sync_folder(target.parent)


def sync_folder(folder: Path) -> None:
    """A rename in ``folder`` on the disk too: after a power cut the folder names the
    new file, not the old one (or, on some file systems, neither)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _mode_for(target: Path) -> int:
    """The new file's permissions: the old file's, or as ``open`` would make it (0644
    under the usual umask). A temporary file is 0600: a calibration written by one
    user (``sudo``) could no longer be read by the kiosk's service user."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _keep_owner(fd: int, target: Path) -> None:
    """The old file's owner and group, where this user may give them (root may)."""
    try:
        st = target.stat()
        if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
            os.fchown(fd, st.st_uid, st.st_gid)
    except OSError:
        pass  # (a new file, or not ours to give: the writer's, as open() makes it)


def _umask() -> int:
    """The process's umask, read without setting it (``os.umask`` sets it, for every
    thread at once)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022
