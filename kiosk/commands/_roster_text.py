"""A roster file's text, as a spreadsheet saved it: ``players import`` reads it.

UTF-8 (with a BOM or without) is read as it is; so is UTF-16 with its BOM (Excel's
"Unicode text"). A file that is neither is read as Windows Cyrillic (cp1251) when
that makes every word of it Cyrillic or Latin, never both, and cased as words are
(Excel's "CSV" on a Ukrainian or Russian Windows writes cp1251, and the league's
names are mostly Cyrillic). A Western file with accents ("José" in cp1252) read as cp1251 mixes the
two in one word ("Josй"), and a KOI8 file read so turns its case round ("пМЕЗ" for
"Олег"): refused, with the way to name the encoding, rather than names added garbled.
"""

from __future__ import annotations

import codecs
import re

CP1251 = "Windows Cyrillic (cp1251)"
_WORD = re.compile(r"[^\W\d_]+")


class RosterTextError(ValueError):
    """The file is not text this can read without being told its encoding."""


def _cyrillic(c: str) -> bool:
    return "\u0400" <= c <= "\u052f"


def _cased(word: str) -> bool:
    """``word`` is written as words are: lower case, upper case, or a capital first."""
    return word.islower() or word.isupper() or (word[0].isupper() and word[1:].islower())


def _reads_as_cyrillic(text: str) -> bool:
    """Every word of ``text`` is all Cyrillic or has no Cyrillic letter, each Cyrillic
    word is cased as words are, and there is some Cyrillic in it. KOI8 and ISO-8859-5
    read as cp1251 are Cyrillic letters too, but with the case turned round ("Олег" in
    KOI8-U reads "пМЕЗ")."""
    seen = False
    for word in _WORD.findall(text):
        cyr = sum(_cyrillic(c) for c in word)
        if cyr and (cyr != len(word) or not _cased(word)):
            return False
        seen = seen or bool(cyr)
    return seen


def roster_text(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """The text of a roster file's bytes ``data``, and what it was read as. With
    ``encoding`` (Python's codec name), read as that. Raises ``RosterTextError``."""
    if encoding is not None:
        try:
            return data.decode(encoding), encoding
        except LookupError:
            raise RosterTextError(f"no such encoding: {encoding}") from None
        except UnicodeDecodeError as e:
            raise RosterTextError(f"not {encoding} text (byte {e.start})") from None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            raise RosterTextError("not UTF-16 text, though it starts as such") from None
    try:
        return data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError as e:
        at = e.start
    try:
        text = data.decode("cp1251")
    except UnicodeDecodeError:
        text = ""
    if "\x00" not in text and _reads_as_cyrillic(text):
        return text, CP1251
    raise RosterTextError(
        f'not UTF-8 text (byte {at}): save it as "CSV UTF-8", or name its encoding '
        "with --encoding (e.g. cp1252, koi8-u)"
    )
