"""Nothing lost, with a real kill: the kiosk process plays a Cricket game fed by a
virtual board and is SIGKILLed at a random moment, a few times over; every dart it had
shown is in the database, in place, each shown state is what the stored events replay
to, the restarted kiosk rebuilds the game exactly, and the file is intact.
(``bench/crash.py`` runs the same rig for 200 rounds and prints the tally.)"""

from __future__ import annotations

from pathlib import Path

from kiosk_support import CrashRig


def test_a_kiosk_killed_at_random_moments_keeps_every_dart_it_showed(tmp_path: Path) -> None:
    rig = CrashRig(tmp_path, seed=7)
    for _ in range(4):
        rig.round()
    t = rig.tally
    assert t.problems == [], t.summary()
    assert t.rounds == 4 and t.integrity_ok == 4
    assert t.darts_shown > 0 and t.lost == 0 and t.darts_restored == t.darts_shown
    assert t.frames_checked > 0 and t.frames_wrong == 0
    assert t.resumes == 4 and t.resumes_exact == 4
