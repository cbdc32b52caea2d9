"""Unplug and replug, again and again: every hit sent while connected arrives once.

100 rounds here (issue 4), with the reader's own retry interval;
``bench/serial_board.py`` does 120 and more and prints the reconnect times."""

from __future__ import annotations

import operator
from functools import partial
from pathlib import Path

from test_serial_support import Events

from kiosk.adapters.serial_board.protocol import Hit
from kiosk.adapters.serial_board.reader import BoardReader, Status
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.domain.darts import Dart, all_darts

ROUNDS = 100


def test_a_hundred_replugs_in_a_row_lose_and_double_no_hit(tmp_path: Path) -> None:
    darts = [str(d) for d in all_darts()]
    sent: list[str] = []
    with VirtualBoard(tmp_path / "dartboard") as vb:
        vb.start()
        events = Events()
        reader = BoardReader(str(vb.link), events)
        reader.start()
        events.status("connected")
        for round_ in range(ROUNDS):
            for k in range(3):
                dart = darts[(round_ * 3 + k) % len(darts)]
                vb.send(dart)
                sent.append(dart)
            last = Hit(Dart.parse(dart))
            events.next(partial(operator.eq, last))
            vb.replug()
            events.status("lost")
            events.status("connected")
        reader.stop()
    got = [str(e.dart) for e in events.of_type(Hit)]  # type: ignore[attr-defined]
    assert got == sent
    states = [s.state for s in events.of_type(Status)]  # type: ignore[attr-defined]
    assert states.count("lost") == ROUNDS
    assert reader.stats.losses == ROUNDS
