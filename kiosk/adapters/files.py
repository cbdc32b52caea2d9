"""Files written whole or not at all: a temporary file beside the target, flushed to
the disk, then renamed over it. A power cut, a full disk or a kill mid-write leaves the
file as it was (the last good export, calibration or board map), never a cut-off one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_text_atomically(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """``text`` into ``path``, whole or not at all (``OSError`` if not: the old file stays,
    and no temporary file is left)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
