"""Player names as people write them.

An apostrophe is typed in many ways: the straight U+0027 of a keyboard (the kiosk's
name entry has only that one), the right quotation mark U+2019 that Word, Excel and
phones put in by autocorrect, the modifier letter U+02BC of Ukrainian orthography, and
the left quotation mark U+2018, the grave U+0060 and the acute U+00B4 of whoever
reached for something that looked right. A name written with any of them is the same
name: ``fold_apostrophes`` writes each of them as U+0027, and ``fold`` is the form in
which two spellings of one name are equal (any case, in any script, any apostrophe).
"""

from __future__ import annotations

# U+0027, U+2019, U+02BC, U+2018, U+0060, U+00B4
APOSTROPHES = "'\u2019\u02bc\u2018`\u00b4"
_TO_STRAIGHT = str.maketrans({mark: "'" for mark in APOSTROPHES})


def fold_apostrophes(text: str) -> str:
    """``text`` with every kind of apostrophe written ``'``."""
    return text.translate(_TO_STRAIGHT)


def fold(name: str) -> str:
    """``name`` in the form two spellings of it share: the same letters in another
    case or with another apostrophe fold alike. (Casefolded first: casefolding can
    itself give U+02BC.)"""
    return fold_apostrophes(name.casefold())
