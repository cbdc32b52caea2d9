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


def award_of(session: CricketSession, *darts: str) -> tuple[str, str, int] | None:
    """The award the last of ``darts`` brought (kind, player, marks), or None."""
    fb = None
    for d in darts:
        fb = session.throw(Dart.parse(d))
    assert fb is not None
    return None if fb.award is None else (fb.award.kind, fb.award.player, fb.award.marks)


def test_a_finished_turn_announces_its_feat_and_its_marks_from_five_to_nine() -> None:
    s = CricketSession(CricketSetup(names=("Anna", "Boris")))
    assert award_of(s, "T20", "T19") is None  # the turn is not over yet
    assert award_of(s, "T18") == ("white horse", "Anna", 9)
    assert award_of(s, "SB", "DB", "SB") == ("hat trick", "Boris", 4)
    assert award_of(s, "T17", "T16", "D15") == ("marks", "Anna", 8)


def test_four_marks_are_not_announced_nor_marks_that_score_nothing() -> None:
    s = CricketSession(CricketSetup(names=("Anna", "Boris")))
    assert award_of(s, "T20", "S19", "MISS") is None  # 4 marks
    s.next_player()  # (the hold)
    assert award_of(s, "T20", "T20", "MISS") is None  # closes 20: 3 marks, 3 dead
    s.next_player()
    # Anna: T19 closes 19 (3), T19 scores while Boris is open (3): 6 marks
    assert award_of(s, "T19", "T19", "MISS") == ("marks", "Anna", 6)


def test_a_turn_of_five_or_six_marks_ended_early_by_next_is_announced_too() -> None:
    s = CricketSession(CricketSetup(names=("Anna", "Boris")))
    throw(s, "T20", "T19")
    fb = s.next_player()
    assert fb.award is not None and (fb.award.kind, fb.award.marks) == ("marks", 6)
    throw(s, "S18")
    assert s.next_player().award is None


def test_the_winning_turn_is_the_game_not_an_award() -> None:
    s = CricketSession(CricketSetup(names=("Anna", "Boris"), variant="no-score"))
    for turn in (("T20", "T19", "T18"), ("MISS",) * 3, ("T17", "T16", "T15"), ("MISS",) * 3):
        throw(s, *turn)
        s.next_player()
    assert award_of(s, "SB", "DB") is None and s.over
