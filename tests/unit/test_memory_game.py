"""The game log a kiosk plays on when its database cannot be opened: the same inputs as
the stored one, held in memory, always replaying to what the screen shows."""

import pytest

from kiosk.adapters.store import MemoryGame
from kiosk.domain.replay import new_game, replay


def test_a_dart_put_in_place_of_the_last_keeps_the_log_replaying_to_the_screen() -> None:
    log = MemoryGame("cricket", {}, ["Ann", "Bob"])
    for dart in ("S19", "S19", "T20"):  # the third passes the turn
        log.dart(dart)
    assert str(log.engine.current_player) == "Bob"
    log.replace_last("S20")
    assert (log.engine.marks("Ann", 20), str(log.engine.current_player)) == (1, "Bob")
    with pytest.raises(ValueError):
        log.replace_last("T21")  # no such dart
    assert (log.engine.marks("Ann", 20), log.engine.marks("Ann", 19)) == (1, 2)
    log.end_turn()
    with pytest.raises(ValueError):
        log.replace_last("S20")  # the last input is no dart: nothing to put in its place
    again = replay("cricket", {}, ["Ann", "Bob"], log.events)
    assert again.state == log.engine.state
    assert new_game("cricket", {}, ["Ann", "Bob"]).state != again.state
