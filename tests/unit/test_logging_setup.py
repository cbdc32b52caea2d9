"""The start-up lines a bar owner reads in the journal, and the journal's format."""

import io
import logging
import sys
from pathlib import Path

import pytest

from kiosk.config import CameraConfig, Config, InputConfig
from kiosk.logging_setup import JournalFormatter, input_source, setup_logging, startup_summary


class Lines(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


@pytest.fixture
def logger():
    handler = Lines()
    log = logging.getLogger("kiosk.test-startup")
    log.setLevel(logging.INFO)
    log.propagate = False
    log.addHandler(handler)
    yield log
    log.removeHandler(handler)


def summary(logger, config=None, **kwargs):
    startup_summary(config or Config(), Path("/data/kiosk.sqlite3"), logger=logger, **kwargs)
    return logger.handlers[0].lines


def line_starting(lines, prefix):
    (line,) = [x for x in lines if x.startswith(prefix)]
    return line


def test_a_port_given_on_the_command_line_is_logged_as_a_serial_input(logger):
    lines = summary(logger, Config(input=InputConfig(source="camera")), port="/dev/ttyUSB1")
    assert line_starting(lines, "input:") == (
        "input: serial (settings say camera), serial port /dev/ttyUSB1 at 115200 baud"
    )


def test_with_no_port_the_settings_source_and_port_are_logged(logger):
    lines = summary(logger, Config(input=InputConfig(port="/dev/ttyACM0", baud=9600)))
    assert line_starting(lines, "input:") == "input: auto, serial port /dev/ttyACM0 at 9600 baud"


def test_an_unset_port_is_logged_as_auto_detect(logger):
    assert "serial port auto-detect" in line_starting(summary(logger), "input:")


def test_the_virtual_board_is_logged_without_a_serial_port(logger):
    lines = summary(logger, source="virtual")
    assert line_starting(lines, "input:") == "input: virtual (settings say auto)"


def test_the_source_the_kiosk_uses_wins_over_the_port(logger):
    assert input_source(Config(), port="loop://", source="virtual") == "virtual"
    assert input_source(Config(), port="loop://") == "serial"
    assert input_source(Config(input=InputConfig(source="camera"))) == "camera"


def test_settings_files_cameras_and_the_data_file_are_named(logger):
    cams = CameraConfig(devices=("/dev/video0", "/dev/video2"), calibrations=("cam0.json",))
    lines = summary(
        logger,
        Config(input=InputConfig(source="camera"), camera=cams),
        config_files=[Path("/etc/darts-kiosk/kiosk.toml"), Path("bar.toml")],
    )
    assert "settings from: /etc/darts-kiosk/kiosk.toml, bar.toml" in lines
    assert "input: camera" in lines
    assert "camera 1: /dev/video0 (calibration: cam0.json)" in lines
    assert "camera 2: /dev/video2 (calibration: none)" in lines
    assert lines[-1] == "data file: /data/kiosk.sqlite3"


def test_no_settings_files_and_no_cameras_say_so(logger):
    lines = summary(logger)
    assert "settings from: none (built-in defaults)" in lines
    assert "cameras: none" in lines
    assert lines[0].startswith("darts-kiosk ")


def test_journal_lines_carry_a_syslog_priority_each_traceback_line_too():
    fmt = JournalFormatter("%(name)s: %(message)s")
    warning = logging.LogRecord("kiosk", logging.WARNING, __file__, 1, "board lost", None, None)
    assert fmt.format(warning) == "<4>kiosk: board lost"
    try:
        raise ValueError("bad line")
    except ValueError:
        error = logging.LogRecord(
            "kiosk", logging.ERROR, __file__, 1, "crashed", None, sys.exc_info()
        )
    lines = fmt.format(error).splitlines()
    assert len(lines) > 2 and all(line.startswith("<3>") for line in lines)


@pytest.fixture
def root_restored():
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.usefixtures("root_restored")
def test_under_systemd_the_journal_format_is_used_and_otherwise_a_timestamp():
    out = io.StringIO()
    setup_logging(stream=out, env={"JOURNAL_STREAM": "8:1234"})
    logging.getLogger("kiosk").info("hello")
    assert out.getvalue() == "<6>kiosk: hello\n"
    out = io.StringIO()
    setup_logging(verbose=True, stream=out, env={})
    logging.getLogger("kiosk").debug("detail")
    text = out.getvalue()
    assert text.endswith("DEBUG   kiosk: detail\n") and text[2] == ":"
