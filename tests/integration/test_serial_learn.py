"""``board-learn``: a real process, its board a pty (VirtualBoard) sending RAW contacts."""

from __future__ import annotations

import re
from pathlib import Path

from test_serial_commands import Proc

from kiosk.adapters.serial_board import board_map
from kiosk.adapters.serial_board.protocol import Button, Hit, Raw
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.commands.board_learn import Learner, Target, targets
from kiosk.domain.darts import Dart

PROMPT = re.compile(r"\[(\d+)/(\d+)\] .* \((.+)\): press it")


def test_board_learn_records_every_segment_refuses_reuse_and_skips_buttons(
    tmp_path: Path,
) -> None:
    out = tmp_path / "map.json"
    wanted = [t.value for t in targets()]
    contact = {v: (i // 16, i % 16) for i, v in enumerate(wanted)}
    with VirtualBoard() as vb:
        learn = Proc("board-learn", "--port", vb.path, "--out", str(out), stdin=True)
        try:
            learn.until("  status connected")
            asked: dict[str, int] = {}
            while True:
                line = learn.next_line()
                if line.startswith("wrote "):
                    break
                m = PROMPT.match(line)
                if not m:
                    continue
                value = m.group(3)
                asked[value] = asked.get(value, 0) + 1
                if value in ("BTN NEXT", "MISS"):
                    learn.say("s")
                elif value == "D20" and asked[value] == 1:
                    learn.say("s")  # not allowed: a segment is needed
                elif value == "D20" and asked[value] == 2:
                    vb.send("RAW 0 0")  # S20i's contact: refused
                else:
                    r, c = contact[value]
                    vb.send(f"RAW {r} {c}")
                    if value == "S20i":
                        vb.send(f"RAW {r} {c}")  # the membrane read the press twice
            assert learn.p.wait(timeout=10) == 0
        finally:
            learn.stop()
    said = "\n".join(learn.seen)
    assert "D20 cannot be skipped" in said
    assert "contact 0,0 is already S20i; press D20 again" in said
    assert asked["D20"] == 3
    assert asked["S20o"] == 1, "the double read of S20i was not taken for S20o"
    learnt = board_map.load(out)
    assert len(learnt.contacts) == len(wanted) - 2
    assert learnt.event_for(Raw(*contact["T20"])) == Hit(Dart(20, 3))
    assert learnt.event_for(Raw(*contact["S5o"])) == Hit(Dart(5, 1), "o")
    assert learnt.event_for(Raw(*contact["DB"])) == Hit(Dart(25, 2))
    assert learnt.event_for(Raw(*contact["BTN MENU"])) == Button("MENU")
    assert learnt.contact_of("BTN NEXT") is None


def test_stopping_board_learn_early_keeps_the_old_map(tmp_path: Path) -> None:
    out = tmp_path / "map.json"
    out.write_text('{"version": 1, "contacts": {"1,1": "T20"}}')
    with VirtualBoard() as vb:
        learn = Proc("board-learn", "--port", vb.path, "--out", str(out), stdin=True)
        try:
            learn.until("  status connected")
            vb.send("RAW 4 4")
            learn.until("  S20i = contact 4,4")
            learn.say("q")
            assert learn.p.wait(timeout=10) == 1
        finally:
            learn.stop()
    assert board_map.load(out).contacts == {(1, 1): "T20"}
    assert board_map.load(str(out) + ".partial").contacts == {(4, 4): "S20i"}


def test_a_board_without_separate_inner_and_outer_single_gets_plain_singles() -> None:
    learner = Learner([Target("S20i", "inner"), Target("S20o", "outer"), Target("T20", "t")])
    learner.contact((1, 2), now=0.0)
    reply = learner.contact((1, 2), now=5.0)
    assert reply is not None and "recorded as S20" in reply
    learner.contact((1, 3), now=6.0)
    assert learner.done
    assert learner.contacts == {(1, 2): "S20", (1, 3): "T20"}


def test_undo_asks_the_last_segment_again() -> None:
    learner = Learner([Target("S1i", "a"), Target("S1o", "b")])
    learner.contact((0, 0), now=0.0)
    learner.undo()
    assert learner.prompt().endswith("(S1i): press it")
    learner.contact((0, 5), now=0.1)
    assert learner.contacts == {(0, 5): "S1i"}


def test_board_learn_refuses_a_map_in_a_missing_folder_before_any_dart(tmp_path: Path) -> None:
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-m", "kiosk", "board-learn", "--port", str(tmp_path / "no-board"),
         "--out", str(tmp_path / "missing" / "map.json")],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert r.returncode == 1
    assert r.stderr.strip() == f"board-learn: {tmp_path / 'missing'}: no such folder"
