"""The attract screen's last results, as they were before a restart: the games
finished last, read back from the database (a power cut or an update must not empty
the list the bar reads between games). Each is replayed from its events and said as
its results screen said it; one that cannot be replayed is left out, with a word in
the log."""

from __future__ import annotations

import logging
from typing import Any

from kiosk.domain.cricket import CricketGame
from kiosk.ui.context import RESULTS_KEPT, ResultLine

log = logging.getLogger("kiosk.ui")


def stored_results(store: Any) -> list[ResultLine]:
    """The last ``RESULTS_KEPT`` finished games of ``store``, the last first."""
    from kiosk.ui.screens.formula_end import formula_line
    from kiosk.ui.screens.results import cricket_line

    out: list[ResultLine] = []
    try:
        ids = store.games.last_finished(RESULTS_KEPT)
    except Exception as e:  # (the list is a nicety: never a reason not to start)
        log.warning("the last results could not be read: %s", e)
        return out
    for game_id in ids:
        try:
            game = store.games.replay(game_id)
            line = cricket_line(game) if isinstance(game, CricketGame) else formula_line(game)
        except Exception as e:
            log.warning("game %d left out of the last results: %s", game_id, e)
            continue
        out.append(line)
    return out
