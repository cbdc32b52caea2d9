"""Which devices the kiosk opened to ask for a board's HELLO, in tests of how boards are
looked for (a GPS or a printer must not be opened and reset every few seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest


def count_probes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the devices probed from now on (``ports.says_hello``), in order."""
    from kiosk.adapters.serial_board import ports

    probed: list[str] = []
    real = ports.says_hello

    def counted(url: str, *args: object, **kwargs: object) -> bool:
        probed.append(Path(url).name)
        return real(url, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ports, "says_hello", counted)
    return probed
