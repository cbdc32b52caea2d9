"""Logging to stdout, which systemd hands to the journal (``journalctl -u darts-kiosk``)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

import kiosk
from kiosk.config import Config

log = logging.getLogger("kiosk")

# syslog priorities; with SyslogLevelPrefix= (on by default) journald reads a leading
# "<N>" as the line's priority, so `journalctl -p warning` finds our warnings.
_PRIORITY = {
    logging.DEBUG: 7,
    logging.INFO: 6,
    logging.WARNING: 4,
    logging.ERROR: 3,
    logging.CRITICAL: 2,
}


class JournalFormatter(logging.Formatter):
    """No timestamp (the journal adds its own), a syslog priority prefix instead."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{_PRIORITY.get(record.levelno, 6)}>"
        text = super().format(record)
        # Continuation lines of a traceback keep the priority of their record.
        return "\n".join(prefix + line for line in text.splitlines())


def setup_logging(
    verbose: bool = False,
    *,
    stream: TextIO | None = None,
    env: Mapping[str, str] = os.environ,
) -> None:
    """INFO (DEBUG with ``--verbose``) to stdout; replaces any earlier set-up."""
    handler = logging.StreamHandler(sys.stdout if stream is None else stream)
    # systemd sets JOURNAL_STREAM when stdout is connected to the journal.
    if env.get("JOURNAL_STREAM"):
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
        )
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO, handlers=[handler], force=True
    )


def input_source(config: Config, *, port: str | None = None, source: str | None = None) -> str:
    """The dart source the kiosk actually uses: ``source`` when the caller knows it (the
    ``Devices`` it built), else ``serial`` when a port was given (``--port`` makes the
    kiosk use the serial board whatever the settings say), else the settings' source."""
    if source:
        return source
    if port:
        return "serial"
    return config.input.source


def startup_summary(
    config: Config,
    data_file: Path,
    *,
    port: str | None = None,
    source: str | None = None,
    config_files: Sequence[Path] = (),
    logger: logging.Logger = log,
) -> None:
    """What a bar owner reading the journal needs first: which version, which input,
    which port or cameras, where the games are kept. ``port`` is the port given on the
    command line or found automatically; ``source`` the input actually used (see
    ``input_source``). When that differs from the settings, the line says both, so a
    ``--port`` or ``--virtual`` left in a service file is seen at once."""
    logger.info("darts-kiosk %s starting (Python %s)", kiosk.__version__, sys.version.split()[0])
    files = ", ".join(str(p) for p in config_files) or "none (built-in defaults)"
    logger.info("settings from: %s", files)
    inp = config.input
    actual = input_source(config, port=port, source=source)
    shown = actual if actual == inp.source else f"{actual} (settings say {inp.source})"
    if actual in ("serial", "auto"):
        shown_port = port or inp.port or "auto-detect"
        logger.info("input: %s, serial port %s at %d baud", shown, shown_port, inp.baud)
    else:
        logger.info("input: %s", shown)
    cams = config.camera
    if cams.devices:
        for i, device in enumerate(cams.devices):
            calibration = cams.calibrations[i] if i < len(cams.calibrations) else "none"
            # numbered from 1, as on screen and in the rest of the log
            logger.info("camera %d: %s (calibration: %s)", i + 1, device, calibration)
    else:
        logger.info("cameras: none")
    logger.info("data file: %s", data_file)
