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


# Russian writes ё without its dots at will ("Пётр" and "Петр" are one name);
# Ukrainian has no ё. (Belarusian writes ё always: a name holds one or the other.)
_YO = str.maketrans({"\u0451": "\u0435"})  # ё: the Cyrillic ie


def fold(name: str) -> str:
    """``name`` in the form two spellings of it share: the same letters in another
    case, with another apostrophe, or ё with or without its dots fold alike.
    (Casefolded first: casefolding can itself give U+02BC, and Ё becomes ё.)"""
    return fold_apostrophes(name.casefold()).translate(_YO)


# Cyrillic letters in alphabet order: the Ukrainian alphabet with the Russian letters
# (Ё Ъ Ы Э) and Belarusian Ў in their places, one order for names in either language.
# (Code points put the Ukrainian letters after the last, Я.) Fixed here, not taken from
# the system's locale: the Pi and CI may not have uk_UA.
CYRILLIC_ORDER = "абвгґдеёєжзиіїйклмнопрстуўфхцчшщъыьэюя"
# Each letter of it as a private-use character, in order: after every Latin letter (as
# by code point before) and before nothing a name is likely to hold.
_IN_ORDER = str.maketrans(
    {letter: chr(0xE000 + i) for i, letter in enumerate(CYRILLIC_ORDER)}
    | {mark: None for mark in APOSTROPHES}
)


def sort_key(name: str) -> tuple[str, str]:
    """Where ``name`` goes in a list of names: alphabet order, case ignored (Latin as
    by code point; Cyrillic in ``CYRILLIC_ORDER``); an apostrophe is passed over, as
    in a dictionary. Two names equal by that are ordered by their folded forms, so the
    order is the same every time."""
    folded = name.casefold()
    return folded.translate(_IN_ORDER), fold_apostrophes(folded)
