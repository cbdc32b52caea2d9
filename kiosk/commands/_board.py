"""The board's port for the tools that read it (``board-monitor``, ``board-learn``):
found as the kiosk finds it, and, when the kiosk has it, said so (not "no board")."""

from __future__ import annotations

import sys

from kiosk.adapters.serial_board import ports
from kiosk.adapters.serial_board.reader import IN_USE

# How the README stops the installed kiosk, which holds the board while it runs.
STOP_KIOSK = "sudo systemctl stop darts-kiosk"


def find_port(tool: str, configured: str | None, baudrate: int) -> str | None:
    """The port given, else the board found as the kiosk finds it; None (said on
    stderr) when there is none, or only one another program holds."""
    busy: set[str] = set()
    # (FIXED and BY_ID read now, not when choose_port was defined: tests point them at
    # their own folder.)
    port = ports.choose_port(configured, fixed=ports.FIXED, by_id=ports.BY_ID,
                             baudrate=baudrate, busy=busy)  # fmt: skip
    if port is None and busy:
        print(held(tool, ", ".join(sorted(busy))), file=sys.stderr)
    elif port is None:
        print(f"{tool}: no board found (no {ports.FIXED}, none answered in {ports.BY_ID}); "
              "give --port", file=sys.stderr)  # fmt: skip
    return port


def held(tool: str, port: str) -> str:
    """What to do about a board another program holds: most likely the kiosk."""
    return (
        f"{tool}: the board on {port} is there but {IN_USE}: the kiosk holds it while it "
        f"runs. Stop the kiosk first ({STOP_KIOSK}; start it again after), or the other "
        "board-monitor or board-learn"
    )


def is_held(detail: str) -> bool:
    """Whether a reader's status detail says another program holds the port."""
    return IN_USE in detail
