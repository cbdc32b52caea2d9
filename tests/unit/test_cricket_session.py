"""What the scoreboard hears: the sounds the Cricket session asks for, input by input."""

from __future__ import annotations

from kiosk.domain.darts import Dart
from kiosk.ui.session import CricketSession, CricketSetup


def throw(session: CricketSession, *darts: str) -> list[list[str]]:
    return [session.throw(Dart.parse(d)).sounds for d in darts]


def test_a_dart_on_a_closed_target_sounds_like_the_miss_it_is() -> None:
    s = CricketSession(CricketSetup(names=("Anna", "Boris")))
    assert throw(s, "T20", "MISS", "MISS") == [["close"], ["miss"], ["miss"]]
    s.next_player()  # (the hold)
    assert throw(s, "T20") == [["close"]]  # Boris closes 20 for both
    assert throw(s, "T20", "S20") == [["miss"], ["miss"]]  # no marks, no points
    assert s.game.points("Boris") == 0


def test_a_game_ended_by_next_at_the_round_limit_is_heard_as_the_end() -> None:
    s = CricketSession(CricketSetup(names=("Anna", "Boris"), round_limit=1))
    throw(s, "T20")
    assert s.next_player().sounds == []  # Anna's turn ends early
    throw(s, "S19")
    fb = s.next_player()  # Boris's: round 1 is over, the limit reached
    assert s.over and fb.sounds == ["win"]
