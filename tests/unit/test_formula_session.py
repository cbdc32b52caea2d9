"""FormulaSession: the one place formula inputs change a game; time comes as ``now``."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kiosk.adapters.store import Store
from kiosk.domain.formula.game import Termination
from kiosk.domain.formula.rules import CLASSIC
from kiosk.domain.replay import GameEvent, replay
from kiosk.ui.computer import computer_move
from kiosk.ui.formula_session import (
    OVER,
    PLAYING,
    READY,
    ROUND_DONE,
    SOUND_ACCEPTED,
    SOUND_GOAL,
    SOUND_WARN,
    FormulaSession,
    FormulaSetup,
)


def solo(*digits: int, mode: str = "training") -> tuple[FormulaSession, list[GameEvent]]:
    events: list[GameEvent] = []
    session = FormulaSession(FormulaSetup(names=("Ann",), mode=mode, digits=digits), events.append)
    return session, events


def test_the_recorder_sees_each_input_before_the_game_changes() -> None:
    seen: list[tuple[GameEvent, int]] = []
    session = FormulaSession(FormulaSetup(names=("Ann",), digits=(3489,)))
    session.recorder = lambda e: seen.append((e, session.game.score("Ann")))
    session.begin(0.0)
    session.submit("34+89", 1.0)
    assert seen == [(GameEvent.formula(0, "34+89"), 501)]
    assert session.game.score("Ann") == 424


def test_a_refused_formula_is_not_recorded_and_can_be_fixed() -> None:
    session, events = solo(3489)
    session.begin(0.0)
    fb = session.submit("34+8", 1.0)
    assert not fb.accepted and fb.error is not None and fb.error.code == "missing_digit"
    assert events == [] and session.phase == PLAYING
    assert session.submit("34+89", 2.0).accepted


def test_a_refused_formula_is_logged_at_debug(caplog: pytest.LogCaptureFixture) -> None:
    session, _ = solo(3001)
    session.begin(0.0)
    with caplog.at_level(logging.DEBUG, logger="kiosk"):
        session.submit("30/0*1", 1.0)
    refused = [r for r in caplog.records if r.levelno == logging.DEBUG and "refused" in r.message]
    assert len(refused) == 1
    assert "'30/0*1'" in refused[0].message and "Ann" in refused[0].message
    assert "division by zero" in refused[0].message


def test_the_recorded_events_replay_to_the_same_game() -> None:
    session, events = solo(3489, 3001)
    session.begin(0.0)
    session.submit("34+89", 1.0)
    session.next_round(2.0)
    session.update(200.0)  # solo: out of time, the game is lost
    engine = replay("formula", session.setup.settings(), ["Ann"], events)
    assert engine.score("Ann") == session.game.score("Ann") == 424
    outcome = engine.outcome()
    assert outcome is not None and outcome.termination == Termination.TIMEOUT
    assert session.phase == OVER


def test_a_game_is_conceded_only_once_its_player_has_seen_digits() -> None:
    session, events = solo(3001, 9839, mode="qualification")
    assert not session.digits_seen and not session.concede(0.0)  # never played: no loss
    assert events == [] and not session.over
    session.begin(1.0)
    session.submit("300*1", 2.0)
    assert session.phase == ROUND_DONE and session.digits_seen
    assert session.concede(3.0) and session.phase == OVER
    assert events[-1] == GameEvent.concede(0)
    assert session.finished_rounds() == session.game.history[:1]  # no round 2 row


def test_after_a_turn_the_clock_is_the_time_that_was_left_not_a_full_one() -> None:
    session, _ = solo(3489, 3001)
    session.begin(10.0)
    session.submit("34+89", 40.0)
    assert session.phase == ROUND_DONE and session.remaining(99.0) == 90.0
    session.next_round(100.0)
    assert session.remaining(100.0) == 120.0
    session.update(300.0)  # out of time
    assert session.phase == OVER and session.remaining(300.0) == 0.0


def test_a_resumed_game_whose_clock_ran_in_round_1_was_seen() -> None:
    setup = FormulaSetup(names=("Ann",), mode="qualification", digits=(3001,))
    assert FormulaSession(setup, budget=(0, 80.0)).digits_seen
    assert not FormulaSession(setup, budget=(-1, 0.0)).digits_seen


def test_the_clock_warns_once_at_ten_seconds_and_starts_only_on_enter() -> None:
    session, _ = solo(3489)
    assert session.phase == READY
    assert session.update(1000.0) == []  # no clock before Enter
    session.begin(1000.0)
    assert session.remaining(1050.0) == 70.0
    assert session.update(1109.0) == []
    assert session.update(1110.5) == [SOUND_WARN]
    assert session.update(1111.0) == []
    assert session.phase == PLAYING


def test_a_submit_after_the_deadline_is_a_timeout() -> None:
    session, events = solo(3489)
    session.begin(0.0)
    assert session.submit("34+89", 120.0).accepted  # the timeout itself was accepted
    assert events == [GameEvent.timeout(0)]
    assert session.game.score("Ann") == 501


def test_the_live_preview_gives_value_points_and_the_score_left() -> None:
    session, _ = solo(3489)
    session.begin(0.0)
    preview = session.preview("34+89")
    assert (preview.value, preview.points, preview.score_after) == (123, 77, 424)
    assert session.preview("34+").still_typing
    refused = session.preview("3+4/0*89")
    assert refused.error is not None and refused.error.position is not None
    assert not refused.still_typing
    # Points that push the score up are a warning on screen, not good news.
    assert preview.gains
    up = session.preview("3-489")
    assert (up.points, up.score_after, up.gains) == (-486, 987, False)


def test_a_duel_hides_the_first_answer_and_alternates_who_starts() -> None:
    events: list[GameEvent] = []
    setup = FormulaSetup(names=("Ann", "Bob"), mode="duel", digits=(3489, 3001))
    session = FormulaSession(setup, events.append)
    assert session.player == "Ann"
    session.begin(0.0)
    session.submit("34+89", 1.0)
    assert session.player == "Bob" and session.phase == READY
    assert session.score_before_round("Ann") == 501  # what the screen shows meanwhile
    session.begin(5.0)
    session.update(130.0)  # Bob runs out of time
    bob = session.game.history[0].move("Bob")
    assert bob is not None and bob.auto and bob.formula == "34+89"
    assert session.phase == ROUND_DONE
    session.next_round(131.0)
    assert session.player == "Bob"  # round 2: the other player answers first


def test_in_a_duel_the_next_player_does_not_hear_that_the_first_hit_the_goal() -> None:
    # On one kiosk they answer in turn, the second not knowing the first's answer: the
    # goal's own sound would tell them. It is heard once both have answered.
    session = FormulaSession(FormulaSetup(names=("Ann", "Bob"), mode="duel",
                                          digits=(1000, 1000)))  # fmt: skip
    session.begin(0.0)
    fb = session.submit("1000", 1.0)  # 1000 mod 100 = 0: the goal, 150 points
    assert session.game.score("Ann") == 351
    assert fb.sounds == [SOUND_ACCEPTED] and session.player == "Bob"
    session.begin(2.0)
    fb = session.submit("1*0+0+0", 3.0)
    assert session.phase == ROUND_DONE and fb.sounds == [SOUND_ACCEPTED, SOUND_GOAL]
    session.next_round(4.0)  # round 2: Bob first, Ann answers last
    session.begin(5.0)
    assert session.submit("1*0+0+0", 6.0).sounds == [SOUND_ACCEPTED]
    session.begin(7.0)
    assert session.submit("1000", 8.0).sounds == [SOUND_GOAL]  # the last: heard at once


def test_hints_are_for_training_once_per_round() -> None:
    session, _ = solo(3489)
    session.begin(0.0)
    assert session.ask_hint().accepted and session.hint is not None
    assert session.hint.points == 150
    assert not session.ask_hint().accepted
    qual, _ = solo(3489, mode="qualification")
    qual.begin(0.0)
    assert not qual.ask_hint().accepted


def test_the_computer_answers_at_once_and_perfect_plays_the_solvers_best() -> None:
    setup = FormulaSetup(names=("Ann", "Computer"), mode="duel", computer="perfect",
                         digits=(3489, 3001))  # fmt: skip
    session = FormulaSession(setup)
    session.begin(0.0)
    session.submit("34+89", 1.0)
    cpu = session.game.history[0].move("Computer")
    assert cpu is not None and cpu.points == 150
    assert session.phase == ROUND_DONE
    session.next_round(2.0)  # round 2: the computer answers first, at once
    assert session.game.history[1].move("Computer") is not None
    assert session.player == "Ann" and session.phase == READY


def test_computer_levels_are_ordered_easy_medium_perfect() -> None:
    lefts = {
        level: sum(
            CLASSIC.next_score(300, computer_move(level, d, CLASSIC, 300).points)
            for d in (3489, 4589, 1231, 7777, 2905)
        )
        for level in ("easy", "medium", "perfect")
    }
    assert lefts["perfect"] <= lefts["medium"] <= lefts["easy"]
    assert lefts["perfect"] < lefts["easy"]


def test_perfect_is_possible_only_while_the_points_allow_it() -> None:
    session, _ = solo(3489, 3001, 1231, 1000)
    assert session.perfect_possible("Ann")
    session.begin(0.0)
    session.submit("3+4+8-9", 1.0)  # 6 points: 495 left, 3 rounds of at most 150 to go
    assert not session.perfect_possible("Ann")


def test_perfect_is_possible_from_450_but_not_from_417_with_three_rounds_to_go() -> None:
    # Three rounds finish 0-399 or exactly 450 (a round earns at most 99, or 150 for
    # the goal itself): 417 is under 3 x 150 but cannot come to 0.
    session, _ = solo(3489, 3001, 1231, 1000)
    session.begin(0.0)
    session.submit("34+8+9", 1.0)  # 51 points: 450 left, three 150s still finish
    assert session.perfect_possible("Ann")
    session, _ = solo(3489, 3001, 1231, 1000)
    session.begin(0.0)
    session.submit("3*4+8*9", 1.0)  # 84 points: 417 left, neither 0-399 nor 450
    assert not session.perfect_possible("Ann")


def test_no_perfect_game_is_promised_when_the_settings_allow_fewer_rounds_than_it_needs() -> None:
    # start 301, goal 50, bonus 25: a perfect game takes ceil(301 / 75) = 5 rounds,
    # but the game ends after 3.
    overrides = (("start", 301), ("goal", 50), ("bonus", 25), ("max_rounds", 3))
    setup = FormulaSetup(names=("Ann",), digits=(3489, 3001, 1231), overrides=overrides)
    session = FormulaSession(setup)
    assert session.rules.min_rounds == 5
    assert not session.perfect_possible("Ann")
    same = FormulaSetup(names=("Ann",), digits=(3489,), overrides=overrides[:3])
    assert FormulaSession(same).perfect_possible("Ann")  # with the default 7 rounds


def test_training_takes_a_formula_back_and_the_round_is_answered_again() -> None:
    session, events = solo(3489, 3001)
    session.begin(0.0)
    session.submit("3+4+8-9", 5.0)  # a poor answer: 6 points
    assert session.phase == ROUND_DONE and session.game.score("Ann") == 495
    move = session.take_back(20.0)
    assert move is not None and move.formula == "3+4+8-9"
    assert session.game.score("Ann") == 501 and session.game.round == 1
    assert session.phase == PLAYING and session.player == "Ann"
    assert session.remaining(20.0) == 120.0  # a fresh clock
    assert events == [GameEvent.formula(0, "3+4+8-9"), GameEvent.undo()]
    assert session.submit("34+89", 30.0).accepted
    assert session.game.score("Ann") == 424 and session.phase == ROUND_DONE
    engine = replay("formula", session.setup.settings(), ["Ann"], events)
    assert engine.score("Ann") == 424 and engine.round == 2


def test_a_take_back_warns_and_times_out_on_its_own_fresh_clock() -> None:
    session, _ = solo(3489, 3001)
    session.begin(0.0)
    session.update(115.0)  # the first clock had warned
    session.submit("34+89", 116.0)
    session.take_back(200.0)
    assert session.update(250.0) == []  # 70 s left on the new clock: quiet
    assert session.update(311.0) == [SOUND_WARN]
    session.update(320.0)
    assert session.over  # training alone: out of time is the end, as on any clock


def test_a_qualification_or_a_duel_refuses_to_take_a_formula_back() -> None:
    qual, events = solo(3489, 3001, mode="qualification")
    qual.begin(0.0)
    qual.submit("3+4+8-9", 1.0)
    refusal = qual.take_back_check()
    assert not refusal.accepted and refusal.message
    assert qual.take_back(2.0) is None
    assert events == [GameEvent.formula(0, "3+4+8-9")] and qual.game.score("Ann") == 495
    assert qual.phase == ROUND_DONE
    duel = FormulaSession(FormulaSetup(names=("Ann", "Bob"), mode="duel", digits=(3489, 3001)))
    duel.begin(0.0)
    duel.submit("34+89", 1.0)
    duel.begin(2.0)
    duel.submit("3+4+8-9", 3.0)
    assert duel.phase == ROUND_DONE
    assert duel.take_back(4.0) is None and duel.game.score("Bob") == 495


def test_nothing_is_taken_back_while_a_round_is_being_answered() -> None:
    session, events = solo(3489, 3001)
    assert session.take_back(0.0) is None  # not started
    session.begin(0.0)
    assert session.take_back(1.0) is None and session.phase == PLAYING
    assert events == []


def test_a_take_back_is_in_the_database_and_one_that_fails_to_save_changes_nothing(
    tmp_path: Path,
) -> None:
    with Store.open(tmp_path / "kiosk.sqlite3") as store:
        store.players.add("Ann")
        setup = FormulaSetup(names=("Ann",), digits=(3489, 3001), seed=1)
        live = store.start_game("formula", ["Ann"], setup.settings())
        session = FormulaSession(setup, log=live)
        session.begin(0.0)
        session.submit("3+4+8-9", 1.0)
        assert session.take_back(2.0) is not None
        assert [e.kind for e in store.games.events(live.id)] == ["formula", "undo"]
        assert store.games.replay(live.id).score("Ann") == 501
        session.submit("34+89", 3.0)
        store.games.abandon(live.id)  # from now on the store refuses this game's events
        assert session.take_back(4.0) is None
        assert session.game.score("Ann") == 424 and session.phase == ROUND_DONE
        assert live.failure  # the banner's reason


def test_the_best_formula_shown_is_never_worse_than_the_players_own() -> None:
    # By the rules a floating result within 1e-9 (relative) of an integer is whole:
    # above 5e8 every one is. The solver leaves irrational steps out, and its best on
    # 1267 is 99 points; this formula scores 150. The round's "best" was the 99.
    session, _ = solo(1267, 3489)
    session.begin(0.0)
    assert session.submit("1*pow(sqrt(2),67)", 1.0).accepted
    best = session.best_for(1, "Ann")
    assert (best.formula, best.points) == ("1*pow(sqrt(2),67)", 150)
    session.next_round(2.0)
    session.begin(3.0)
    assert session.submit("34+89", 4.0).accepted  # (worse than the solver's: its best)
    best = session.best_for(2, "Ann")
    assert best.formula != "34+89" and best.points > 123


def test_a_formula_being_typed_is_saved_at_once_then_at_most_every_half_second() -> None:
    from kiosk.adapters.store.memory import MemoryGame
    from kiosk.ui.formula_session import DRAFT_SAVE_EVERY

    session, _ = solo(3489, 3001)
    memory = session.log
    assert isinstance(memory, MemoryGame)
    session.begin(0.0)
    session.note_draft(("3",), 1.0)  # a key after a pause: saved as it is typed
    assert memory.draft == (0, 0, ("3",))
    session.note_draft(("3", "4"), 1.1)  # a burst: the latest keys wait for their time
    session.note_draft(("3", "4", "+"), 1.2)
    assert memory.draft == (0, 0, ("3",)) and session.draft_due == 1.0 + DRAFT_SAVE_EVERY
    session.update(1.3)
    assert memory.draft == (0, 0, ("3",))
    session.update(1.0 + DRAFT_SAVE_EVERY)
    assert memory.draft == (0, 0, ("3", "4", "+")) and session.draft_due is None


def test_keys_typed_for_a_turn_are_never_saved_for_the_next_one() -> None:
    from kiosk.adapters.store.memory import MemoryGame

    session, _ = solo(3489, 3001)
    memory = session.log
    assert isinstance(memory, MemoryGame)
    session.begin(0.0)
    session.note_draft(("3",), 1.0)
    session.note_draft(("3", "4", "+", "8", "9"), 1.1)  # waiting for its time ...
    assert session.submit("34+89", 1.2).accepted  # ... and sent first
    assert memory.draft is None and session.draft_due is None
    session.update(5.0)
    assert memory.draft is None
    session.next_round(6.0)
    session.note_draft(("3",), 6.0)  # (keys before the digits show are nobody's)
    assert session.phase == PLAYING and memory.draft == (0, 1, ("3",))


def test_a_resumed_game_gives_the_formula_typed_back_once_to_its_turn_only() -> None:
    from kiosk.adapters.store import Draft
    from kiosk.adapters.store.memory import MemoryGame

    setup = FormulaSetup(names=("Anna", "Bob"), mode="duel", digits=(3489, 3001), seed=1)
    memory = MemoryGame("formula", setup.settings(), setup.names)
    keys = ("3", "4", "+")
    session = FormulaSession(setup, log=memory, draft=Draft(1, 0, keys))  # Bob's keys
    assert session.player == "Anna"  # (round 1: the first seat answers first)
    assert session.draft_for("Anna") == ()  # another seat's keys are not hers
    session = FormulaSession(setup, log=memory, draft=Draft(0, 0, keys))
    assert session.draft_for("Anna") == keys
    assert session.draft_for("Anna") == ()  # once
    stale = FormulaSession(setup, log=memory, draft=Draft(0, 3, keys))
    assert stale.draft_for("Anna") == ()  # typed after events this log does not hold
