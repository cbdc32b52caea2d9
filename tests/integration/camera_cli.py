"""``darts-kiosk camera-score`` run as a support person runs it, on rendered throws
written to files: the camera-score tests' common parts."""

from __future__ import annotations

import subprocess
import sys

import cv2


def cli(*args):
    return subprocess.run([sys.executable, "-m", "kiosk", "camera-score", *args],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def files(tmp_path, throw, i, ext="png"):
    """Camera ``i``'s calibration, before and after pictures of ``throw``, written into
    ``tmp_path``: their paths."""
    cal, b, a = tmp_path / f"c{i}.json", tmp_path / f"b{i}.{ext}", tmp_path / f"a{i}.{ext}"
    throw.calibrations[i].save(cal)
    cv2.imwrite(str(b), throw.before[i])
    cv2.imwrite(str(a), throw.after[i])
    return str(cal), str(b), str(a)
