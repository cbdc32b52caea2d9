"""What the kiosk comes back to at start, after a power cut, a crash or a restart: the
game left in play, offered for resume (``kiosk.ui.screens.resume``), or a Cricket game
that ended just before, on its results as they were, over its scoreboard: ``-`` still
takes back the winning dart (a bounce, a dart pulled out that registered) and ``*``
still corrects one; the game is finished and rated once the results go, as always.
Which game, and when its results come back rather than it being finished at start:
``GameKeeper.unfinished`` (the rules are in ``kiosk.ui.games``).

The results come back straight away, not behind the resume screen's question: they ask
nothing, and go to the attract screen by themselves when left alone
(``RESULTS_IDLE_S``), counting the game then. Their note says why they are up.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("kiosk.games")


def come_back(kiosk: Any) -> None:
    """Over the attract screen: the unfinished game's resume offer or its results."""
    from kiosk.ui.screens.resume import ResumeScreen

    keeper = kiosk.games
    assert keeper is not None
    offer = keeper.unfinished()  # (finishes the games over whose results do not come back)
    if offer is None:
        return
    record = offer.record
    if offer.over:
        results_again(kiosk, record)
        return
    log.info("unfinished game %d (%s) offered for resume", record.id, record.kind)
    kiosk.stack.push(ResumeScreen(kiosk, record))


def results_again(kiosk: Any, record: Any) -> bool:
    """The results of a Cricket game over but not finished, over its scoreboard rebuilt
    by replay, as the scoreboard puts them up; False (the game finished now) if the game
    cannot be rebuilt (``unfinished`` has just replayed it: a disk that failed since)."""
    from kiosk.ui.screens.cricket import CricketScreen
    from kiosk.ui.screens.results import ResultsScreen
    from kiosk.ui.session import CricketSession

    keeper = kiosk.games
    try:
        session = keeper.resume(record)
    except Exception as e:
        log.error("game %d cannot be rebuilt to show its results: %s", record.id, e)
        keeper.finish_at_start(record)
        return False
    assert isinstance(session, CricketSession)  # (``results_come_back``: Cricket only)
    log.info("game %d was over when the kiosk stopped: its results are back", record.id)
    from kiosk.ui.screens.formula_play import side_games_back

    scoreboard = CricketScreen(kiosk, session)
    # (the side games kept with it: an undo of the winning dart and they go on, as on
    # a resumed game; they go when the game is finished)
    side_games_back(kiosk, scoreboard)
    kiosk.cricket_defaults = session.setup  # (as a resumed game: the menus' next game)
    kiosk.stack.reset(scoreboard)
    note = kiosk.t("Back after a restart: - (undo) and * (correct a dart) still work")
    kiosk.stack.push(ResultsScreen(kiosk, scoreboard, note))
    return True
