"""Manual dart entry: what was typed on the keypad or keyboard -> a Dart.

Pure. Accepted forms (spaces and ``*`` separate a multiplier from a number):

- ``3*20``, ``3 20``, ``320`` -> T20; ``2*5``, ``205`` -> D5; ``1*7``, ``107`` -> S7
  (``m`` then the number: the dARts numeric code, also what the keypad naturally gives)
- ``20*3`` -> T20, ``25*2`` -> DB: the number first, as a sum on a calculator, where only
  that reading is a dart (the number over 3); ``2*3`` is D3, the multiplier first
- ``20`` -> S20 (a plain number 1-20 is a single)
- ``25`` -> SB, ``50`` -> DB, ``2*25`` -> DB, ``0`` -> MISS
- letter codes: ``T20``, ``d5``, ``SB``, ``DB``, ``MISS``, ``M``

Repeated separators count once (``3**20`` is T20); a separator with a number on one
side only (``3*``, ``*20``) is half a dart and refused.
Everything else is refused with a message that says what to type; a plain 21-60 is
refused rather than guessed (57 could only be T19, but 40 is D20 or never a single).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kiosk.domain.darts import BULL, Dart, DartError

HELP = "type 3*20 for T20, 20 for S20, 25 / 50 for the bulls, 0 for a miss"
TIMES = "\u00d7"  # the multiplication sign the scoreboard shows for a typed "*"
_SPLIT = re.compile(r"\s*[*xX\u00d7 ]\s*")


class EntryError(ValueError):
    """Typed text that is not a dart. ``template`` is the English msgid (its ``{name}``
    fields filled from ``values``): the screen shows ``t(template).format(**values)``."""

    def __init__(self, template: str, **values: object) -> None:
        super().__init__(template.format(**values))
        self.template = template
        self.values = values

    def shown(self, t: Callable[[str], str]) -> str:
        """The message in the language of ``t`` (English if the template is not in it)."""
        try:
            return t(self.template).format(**self.values)
        except (KeyError, IndexError, ValueError):  # a broken translation: English
            return str(self)


def dart_name(dart: Dart, t: Callable[[str], str]) -> str:
    """A dart as the screens name it: ``S20``, ``T20``, ``SB``, ``DB`` as printed on
    boards in every language, a miss in the language of ``t`` ("Промах"). The store,
    the log and the board's protocol keep ``str(dart)``."""
    return t("MISS") if dart.is_miss else str(dart)


def _number_dart(multiplier: int, number: int) -> Dart:
    if number == 50 and multiplier == 1:
        return Dart(BULL, 2)
    try:
        return Dart(number, multiplier)
    except DartError:
        # (the screen puts what was typed before it: "3*25: no such dart")
        raise EntryError("no such dart") from None


def parse_entry(typed: str) -> Dart:
    """The dart for ``typed``, or :class:`EntryError` with a message for the screen."""
    text = typed.strip().upper()
    if not text:
        raise EntryError(HELP)
    if text in ("M", "MISS", "0", "00"):
        return Dart.MISS
    if text[0].isalpha():
        try:
            return Dart.parse(text)
        except DartError:
            raise EntryError(HELP) from None
    parts = [p for p in _SPLIT.split(text) if p]
    if not all(p.isascii() and p.isdigit() for p in parts) or not 1 <= len(parts) <= 2:
        raise EntryError(HELP)
    if len(parts) == 1 and _SPLIT.search(text):
        # "3*" (the number forgotten) or "*20" (the multiplier): half a dart, not a single
        raise EntryError(HELP)
    if len(parts) == 2:
        m, n = int(parts[0]), int(parts[1])
        if m > 3 and 1 <= n <= 3:  # "20*3": the number first (over 3: no multiplier)
            m, n = n, m
        if not 1 <= m <= 3:
            raise EntryError("the multiplier is 1, 2 or 3, not {number}", number=m)
        return _number_dart(m, n)
    value = int(parts[0])
    if 1 <= value <= 20 or value in (25, 50):
        return _number_dart(1, value)
    if len(parts[0]) == 3 and parts[0][0] in "123":
        return _number_dart(int(parts[0][0]), int(parts[0][1:]))
    raise EntryError(HELP)
