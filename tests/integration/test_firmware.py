"""The dartboard firmware (hardware/firmware): debounce on the host, the sketch for the Uno.

The debounce and line formatting are plain C++ compiled with the PC's g++. The sketch
build needs Debian's arduino-mk + arduino-core-avr + gcc-avr + avr-libc and is skipped
(with the reason) where they are missing; with simavr + libsimavr-dev, the built
firmware runs against a simulated membrane (test/sim_board.c) and what it sends goes
through the kiosk's own parser.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.adapters.serial_board.protocol import (
    BoardEvent,
    Button,
    Hello,
    Hit,
    Ping,
    Raw,
    parse_line,
)
from kiosk.domain.darts import BULL, Dart

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"
SKETCH = FIRMWARE / "dartboard"
MAP2HEADER = FIRMWARE / "tools" / "map2header.py"
RULES = ROOT / "hardware" / "udev" / "99-darts-kiosk.rules"
ARDUINO_MK = Path("/usr/share/arduino/Arduino.mk")
BOARDS_TXT = Path("/usr/share/arduino/hardware/arduino/avr/boards.txt")
INSTALL_HINT = "apt-get install arduino-mk arduino-core-avr gcc-avr avr-libc"

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
needs_arduino_mk = pytest.mark.skipif(
    not ARDUINO_MK.exists() or shutil.which("avr-gcc") is None,
    reason=f"{ARDUINO_MK} or avr-gcc missing ({INSTALL_HINT})",
)


def run(cmd: list[str], cwd: Path | None = None, timeout: float = 180) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


# --- host tests of the plain C++ ------------------------------------------------------


@needs_gxx
def test_the_debounce_and_line_tests_pass_on_the_host(tmp_path: Path) -> None:
    out = run(["sh", str(FIRMWARE / "test" / "run.sh"), str(tmp_path)])
    assert "test_matrix: all passed" in out


CONTACTS = {
    "0,0": "T20",
    "0,1": "S20i",
    "0,2": "S20o",
    "1,3": "D1",
    "2,0": "SB",
    "2,1": "DB",
    "3,7": "BTN NEXT",
    "4,4": "MISS",
    "7,7": "S19",
}
LEARNED = {"version": 1, "contacts": CONTACTS}

# Prints, for every cell of the compiled-in map, the line the firmware would send.
DUMP_MAP = """
#include <stdio.h>
#include "board_map.h"
#include "lines.h"
int main() {
  char line[darts::LINE_MAX];
  for (int r = 0; r < BOARD_MAP_ROWS; ++r)
    for (int c = 0; c < BOARD_MAP_COLS; ++c) {
      darts::formatHit(line, (uint8_t)r, (uint8_t)c, BOARD_MAP[r][c]);
      printf("%d,%d=%s", r, c, line);
    }
}
"""


@needs_gxx
def test_a_learned_map_makes_the_firmware_send_the_learned_segments(tmp_path: Path) -> None:
    (tmp_path / "map.json").write_text(json.dumps(LEARNED))
    header = tmp_path / "board_map.h"
    run([sys.executable, str(MAP2HEADER), str(tmp_path / "map.json"), "-o", str(header)])
    (tmp_path / "dump.cpp").write_text(DUMP_MAP)
    exe = tmp_path / "dump"
    sources = [str(tmp_path / "dump.cpp"), str(SKETCH / "lines.cpp")]
    run(
        [
            "g++",
            "-std=c++11",
            "-Wall",
            "-Werror",
            f"-I{tmp_path}",
            f"-I{SKETCH}",
            "-o",
            str(exe),
            *sources,
        ]
    )
    sent = dict(line.split("=", 1) for line in run([str(exe)]).splitlines())

    assert len(sent) == 8 * 8
    for key, value in CONTACTS.items():
        assert sent[key] == value, key
    r, c = 5, 5
    assert sent[f"{r},{c}"] == f"RAW {r} {c}"  # not learned: the kiosk still sees the contact
    # and the kiosk understands every line the map can produce
    events = [parse_line(line.encode()) for line in sent.values()]
    assert all(isinstance(e, Hit | Button | Raw) for e in events)
    assert parse_line(sent["3,7"].encode()) == Button("NEXT")


@pytest.mark.parametrize(
    ("value", "message"),
    [("T25", "not a segment"), ("D20i", "only singles"), ("BTN START", "not a segment")],
)
def test_map2header_refuses_a_value_the_kiosk_would_not_understand(
    tmp_path: Path, value: str, message: str
) -> None:
    (tmp_path / "map.json").write_text(json.dumps({"version": 1, "contacts": {"0,0": value}}))
    out = tmp_path / "board_map.h"
    done = subprocess.run(
        [sys.executable, str(MAP2HEADER), str(tmp_path / "map.json"), "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert message in done.stderr and value in done.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "value",
    ["T20", "t20", "S20i", "s20O", "BTN NEXT", "btn  menu", "SB", "db", "MISS", "D5", " T1 ",
     "320", "120", "225", "T20\x00", "D20i", "T25", "S0", "BTN START", "HELLO a 1",
     "RAW 1 2", ""],
)  # fmt: skip
def test_map2header_compiles_exactly_the_maps_the_kiosk_reads_whole(
    tmp_path: Path, value: str
) -> None:
    # One definition of a segment name: the kiosk read "320" as T20 (an old firmware's
    # wire code) where map2header refused it; a map is good for both or for neither.
    from kiosk.adapters.serial_board import board_map

    path = tmp_path / "map.json"
    path.write_text(json.dumps({"version": 1, "contacts": {"0,0": value, "0,1": "T1"}}))
    try:
        board_map.load(path)
        kiosk_reads_it = True
    except board_map.BoardMapError:
        kiosk_reads_it = False
    done = subprocess.run([sys.executable, str(MAP2HEADER), str(path)], capture_output=True,
                          text=True)  # fmt: skip
    assert (done.returncode == 0) is kiosk_reads_it, (value, done.stderr)
    if not kiosk_reads_it:
        assert done.returncode == 2 and "contact '0,0'" in done.stderr, done.stderr


def test_map2header_names_every_bad_entry_at_once(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text('{"version": 1, "contacts": {"0,0": "T21", "0,1": "320", "0,2": "T1", '
                    '"0,3": "S2", "0,3": "S3"}}')  # fmt: skip
    done = subprocess.run([sys.executable, str(MAP2HEADER), str(path)], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2
    for key in ("'0,0'", "'0,1'", "'0,3'"):
        assert f"contact {key}" in done.stderr, done.stderr
    assert "'0,2'" not in done.stderr


def test_map2header_refuses_a_contact_beyond_sixteen_columns(tmp_path: Path) -> None:
    (tmp_path / "map.json").write_text(json.dumps({"version": 1, "contacts": {"0,16": "T1"}}))
    done = subprocess.run(
        [sys.executable, str(MAP2HEADER), str(tmp_path / "map.json")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "outside" in done.stderr


# --- the sketch, built for the Uno with arduino-mk -----------------------------------


def build_sketch(
    dest: Path, board_map: dict[str, object] | None = None, board: str = "uno"
) -> Path:
    """Copy the sketch (without build output) to dest, build it for `board`: the .elf."""
    shutil.copytree(SKETCH, dest, ignore=shutil.ignore_patterns("build-*", "board_map.h"))
    if board_map is not None:
        (dest / "map.json").write_text(json.dumps(board_map))
        run([sys.executable, str(MAP2HEADER), str(dest / "map.json"), "-o", "board_map.h"], dest)
    run(["make", f"BOARD_TAG={board}", f"OBJDIR=build-{board}"], dest)
    return dest / f"build-{board}" / "dartboard.elf"


def flash_bytes(hex_file: Path) -> int:
    """Bytes of program in an Intel HEX file (data records only)."""
    total = 0
    for line in hex_file.read_text().split():
        if line.startswith(":") and line[7:9] == "00":
            total += int(line[1:3], 16)
    return total


def uno_limit(key: str, default: int) -> int:
    m = re.search(rf"^uno\.upload\.{key}=(\d+)", BOARDS_TXT.read_text(), re.M)
    return int(m.group(1)) if m else default


@pytest.fixture(scope="module")
def uno_elf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sketch(tmp_path_factory.mktemp("sketch") / "dartboard")


@needs_arduino_mk
def test_the_sketch_builds_for_the_uno_and_fits_its_flash_and_ram(uno_elf: Path) -> None:
    hex_file = uno_elf.with_suffix(".hex")
    assert hex_file.exists()
    size = flash_bytes(hex_file)
    assert 1000 < size <= uno_limit("maximum_size", 32256)
    # static RAM (.data + .bss) must leave room for the stack in the Uno's 2 KB
    out = run(["avr-size", "-A", str(uno_elf)])
    ram = sum(int(m.group(1)) for m in re.finditer(r"^\.(?:data|bss)\s+(\d+)", out, re.M))
    assert ram < uno_limit("maximum_data_size", 2048) * 3 // 4


@pytest.fixture(scope="module")
def mapped_elf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sketch(tmp_path_factory.mktemp("mapped") / "dartboard", LEARNED)


@needs_arduino_mk
def test_the_sketch_builds_with_a_learned_map_compiled_in(mapped_elf: Path) -> None:
    assert flash_bytes(mapped_elf.with_suffix(".hex")) <= uno_limit("maximum_size", 32256)
    # the segment names are in the firmware: it sends lines, not raw contacts
    assert b"BTN NEXT" in mapped_elf.read_bytes()


# --- the built firmware running in simavr, with a simulated membrane -------------------

SIM_HEADERS = Path("/usr/include/simavr/sim_avr.h")
SIM_HINT = "apt-get install simavr libsimavr-dev"


@pytest.fixture(scope="module")
def sim_board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """hardware/firmware/test/sim_board.c built: the firmware in simavr with a fake matrix."""
    if not SIM_HEADERS.exists() or shutil.which("cc") is None:
        pytest.skip(f"simavr headers missing ({SIM_HINT})")
    exe = tmp_path_factory.mktemp("sim") / "sim_board"
    source = FIRMWARE / "test" / "sim_board.c"
    run(["cc", "-O2", "-Wall", "-I/usr/include/simavr", "-o", str(exe), str(source), "-lsimavr"])
    return exe


def simulate(sim: Path, elf: Path, ms: int, *script: str) -> list[BoardEvent]:
    """Run the firmware for `ms` simulated ms; the kiosk's parse of each line it sent."""
    out = subprocess.run(
        [str(sim), str(elf), str(ms), *" ".join(script).split()],
        capture_output=True,
        timeout=120,
        check=True,
    ).stdout
    # Protocol v1 as sent, before the kiosk's lenient parse: every line ends in "\n"
    # (a last line without one would wait in the kiosk for the next), none over 64 bytes.
    assert out.endswith(b"\n"), out[-80:]
    lines = out.split(b"\n")[:-1]
    assert all(0 < len(line) <= 64 and b"\r" not in line for line in lines), lines
    return [parse_line(line + b"\n") for line in lines]


@needs_arduino_mk
def test_the_uno_firmware_in_simavr_reports_each_dart_once_and_pings(
    uno_elf: Path, sim_board: Path
) -> None:
    events = simulate(
        sim_board,
        uno_elf,
        1150,
        "press 1 2 200 210",  # a 10 ms dart
        "press 3 3 300 300.8",  # a 0.8 ms blip: bounce, not a dart
        "press 7 7 400 900",  # held half a second: still one dart
        "press 2 5 950 980 press 6 0 952 980",  # a second contact 2 ms later: same dart
        "button 0 1000 1050",  # NEXT pressed for 50 ms
    )
    assert events == [
        Hello("darts-kiosk-board", "1.0"),
        Raw(1, 2),
        Raw(7, 7),
        Raw(2, 5),
        Ping(),
        Button("NEXT"),
    ]


@needs_arduino_mk
def test_the_uno_firmware_with_a_learned_map_sends_segments_in_simavr(
    mapped_elf: Path, sim_board: Path
) -> None:
    events = simulate(
        sim_board, mapped_elf, 400, "press 0 0 100 120 press 5 5 200 220 press 2 1 300 320"
    )
    assert events == [
        Hello("darts-kiosk-board", "1.0"),
        Hit(Dart.parse("T20")),
        Raw(5, 5),
        Hit(Dart(BULL, 2)),
    ]


@pytest.fixture(scope="module")
def scan_rate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """hardware/firmware/test/scan_rate.c built: full matrix scans a second, in simavr."""
    if not SIM_HEADERS.exists() or shutil.which("cc") is None:
        pytest.skip(f"simavr headers missing ({SIM_HINT})")
    exe = tmp_path_factory.mktemp("rate") / "scan_rate"
    source = FIRMWARE / "test" / "scan_rate.c"
    run(["cc", "-O2", "-Wall", "-I/usr/include/simavr", "-o", str(exe), str(source), "-lsimavr"])
    return exe


@needs_arduino_mk
@pytest.mark.parametrize(
    ("board", "mcu", "row0"),
    [("uno", "atmega328p", "D 2"), ("leonardo", "atmega32u4", "D 1")],  # D2 on each
)
def test_the_firmware_scans_the_matrix_often_enough_to_see_a_dart(
    tmp_path: Path, scan_rate: Path, board: str, mcu: str, row0: str
) -> None:
    # The debounce counts are in scans (3 to press, 50 to release) and assume about
    # 2000 scans a second: a dart's contact lasts a few ms. A loop that waits (the
    # Pro Micro's `if (Serial)` sleeps 10 ms each time) scans 90 times a second, and
    # a dart then needs 30 ms on its segment to count: most are lost.
    elf = build_sketch(tmp_path / "dartboard", board=board)
    out = run([str(scan_rate), str(elf), mcu, *row0.split(), "400"])
    assert int(out) >= 1000, f"{board}: {out.strip()} scans a second"


# --- udev rules -----------------------------------------------------------------------

_TOKEN = re.compile(r'\s*([A-Z_]+)(?:\{([^}]+)\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(,|$)')


def rules() -> list[list[tuple[str, str, str, str]]]:
    """Each rule line as (key, attribute, operator, value) tuples; fails on bad syntax."""
    parsed = []
    for number, line in enumerate(RULES.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        tokens, pos = [], 0
        while pos < len(line):
            m = _TOKEN.match(line, pos)
            assert m, f"{RULES.name}:{number}: cannot parse at {line[pos:]!r}"
            tokens.append((m.group(1), m.group(2) or "", m.group(3), m.group(4)))
            pos = m.end()
        parsed.append(tokens)
    return parsed


def test_the_udev_rules_name_every_common_usb_serial_chip_dartboard() -> None:
    parsed = rules()
    labels = {v for rule in parsed for k, _, op, v in rule if k == "LABEL"}
    gotos = {v for rule in parsed for k, _, op, v in rule if k == "GOTO"}
    assert gotos <= labels
    matched = set()
    for rule in parsed:
        ids = {a: v for k, a, op, v in rule if k == "ATTRS" and op == "=="}
        if "idVendor" in ids and ("GOTO", "", "=", "darts_kiosk_board") in rule:
            for product in ids.get("idProduct", "*").split("|"):
                matched.add(f"{ids['idVendor']}:{product}")
    for chip in ["1a86:7523", "1a86:55d4", "10c4:ea60", "0403:6001", "0403:6015", "2341:*",
                 "2a03:*"]:  # fmt: skip
        assert chip in matched, chip
    label = parsed.index([("LABEL", "", "=", "darts_kiosk_board")])
    action = parsed[label + 1]
    assert ("SYMLINK", "", "+=", "dartboard") in action
    assert ("ENV", "ID_MM_DEVICE_IGNORE", "=", "1") in action
    assert ("TAG", "", "+=", "systemd") in action
    assert ("GROUP", "", "=", "dialout") in action


def test_udevadm_verify_accepts_the_rules_file() -> None:
    udevadm = shutil.which("udevadm")
    if udevadm is None or subprocess.run([udevadm, "verify", "--help"]).returncode != 0:
        pytest.skip("no `udevadm verify` here (needs systemd >= 254)")
    run([udevadm, "verify", str(RULES)])
