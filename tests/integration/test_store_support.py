"""Helpers for the store tests: play whole games through a LiveGame."""

WINNING = ["T20", "T19", "T18", "T17", "T16", "T15", "DB", "SB"]


def win_cricket(live, winner_seat):
    """The player at ``winner_seat`` closes everything; the others end their turns."""
    darts = iter(WINNING)
    winner = live.record.players[winner_seat]
    while not live.is_over():
        if live.engine.current_player == winner:
            live.dart(next(darts))
        else:
            live.end_turn()
    return live.finish()


def quick_formula_settings(mode, start=50):
    """No bonus, digits 5001: ``50+0*1`` takes 50 a round (start 50: 0 in one round)."""
    return {"mode": mode, "digits": [5001, 5001, 5001], "start": start, "bonus": 0}


def formula_qualifications(store, player, starts=(50, 100)):
    """One rated qualification of ``player`` per start, ``50+0*1`` every round: 0 in one
    round from 50, in two from 100."""
    for start in starts:
        live = store.start_game(
            "formula", [player], quick_formula_settings("qualification", start), rated=True
        )
        while not live.is_over():
            live.submit(0, "50+0*1")
        live.finish()


class Clock:
    """A store clock the test moves by hand."""

    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now


def draw_cricket(store, players, night_id=None):
    """A rated Cricket game drawn at a one-round limit: nobody throws, level on all."""
    live = store.start_game("cricket", players, {"round_limit": 1}, rated=True, night_id=night_id)
    while not live.is_over():
        live.end_turn()
    return live.finish()
