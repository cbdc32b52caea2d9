"""Translations: gettext ``.po`` files read directly at start.

``assets/locale/<lang>/LC_MESSAGES/kiosk.po`` is parsed by the small reader below
(msgid / msgstr with continued strings and the C escapes; fuzzy entries and empty
translations are skipped, so the English text shows). No ``.mo`` build step: a
catalogue of a few hundred lines parses in about a millisecond. The UI avoids
plural forms (Ukrainian and Russian have three), writing "Darts: 3" style labels.
"""

from __future__ import annotations

import ast
import datetime
import functools
import gettext
import logging
import re
from pathlib import Path

from kiosk.domain.figures import fixed

log = logging.getLogger("kiosk.ui")

LANGUAGES = {"en": "English", "uk": "Українська", "ru": "Русский"}
DOMAIN = "kiosk"


class PoError(ValueError):
    """A .po file that cannot be read."""


def _unquote(token: str, where: str) -> str:
    token = token.strip()
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, got {token[:40]!r}")
    try:
        value = ast.literal_eval(token)
    except (SyntaxError, ValueError):
        raise PoError(f"{where}: bad string {token[:40]!r}") from None
    if not isinstance(value, str):
        raise PoError(f"{where}: bad string {token[:40]!r}")
    return value


def parse_po(text: str, name: str = "<po>") -> dict[str, str]:
    """msgid -> msgstr for every translated, non-fuzzy entry."""
    catalog: dict[str, str] = {}
    entry: dict[str, str] = {}
    fuzzy = False
    field = ""

    def flush() -> None:
        nonlocal entry, fuzzy, field
        msgid, msgstr = entry.get("msgid"), entry.get("msgstr", "")
        if msgid and msgstr and not fuzzy:
            catalog[msgid] = msgstr
        entry, fuzzy, field = {}, False, ""

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            flush()
        elif line.startswith("#"):
            if "msgid" in entry:
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
        elif line.startswith('"'):
            if not field:
                raise PoError(f"{where}: a string outside an entry")
            entry[field] += _unquote(line, where)
        else:
            keyword, _, rest = line.partition(" ")
            if keyword in ("msgid", "msgstr", "msgctxt"):
                if keyword == "msgid" and "msgid" in entry:
                    flush()
                field = keyword
                entry[field] = _unquote(rest, where)
            elif keyword.startswith("msgid_plural") or keyword.startswith("msgstr["):
                field = keyword  # plural forms are not used by the kiosk; read and ignored
                entry[field] = _unquote(rest, where)
            else:
                raise PoError(f"{where}: unknown keyword {keyword!r}")
    flush()
    return catalog


class Catalog(gettext.NullTranslations):
    def __init__(self, messages: dict[str, str], language: str) -> None:
        super().__init__()
        self.messages = messages
        self.language = language

    def gettext(self, message: str) -> str:
        return self.messages.get(message, message)


def po_path(language: str, locale_dir: Path) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load(language: str, locale_dir: Path) -> Catalog:
    """The catalogue for ``language``; English (the msgids) if it is missing or broken,
    logged, since a bad translation file must not stop the kiosk."""
    path = po_path(language, locale_dir)
    if language == "en" and not path.is_file():
        return Catalog({}, "en")
    try:
        return Catalog(parse_po(path.read_text(encoding="utf-8"), str(path)), language)
    except (OSError, PoError, UnicodeDecodeError) as e:
        log.error("translations for %r not loaded, showing English: %s", language, e)
        return Catalog({}, "en")


@functools.cache
def in_every_language(message: str, locale_dir: Path) -> frozenset[str]:
    """``message`` and its translation in every language the kiosk speaks: to know a
    default name ("Player 2", "Гравець 2") written while another language was on."""
    return frozenset({message} | {load(lang, locale_dir).gettext(message) for lang in LANGUAGES})


# The decimal mark of each language (a comma in Ukrainian and Russian: "2,45" marks a
# round); English, and any language not listed, has the point.
DECIMAL_MARKS = {"uk": ",", "ru": ","}


def number(value: float, places: int, language: str) -> str:
    """``value`` with ``places`` decimals, written as ``language`` writes numbers (an
    exact half rounded up, as a spreadsheet: 1.625 -> 1.63, ``kiosk.domain.figures``)."""
    text = fixed(value, places)
    return text.replace(".", DECIMAL_MARKS.get(language, "."))


def percent(value: float, language: str) -> str:
    """``85%``; in Ukrainian and Russian ``85 %`` (a no-break space, as they write it)."""
    space = "\u00a0" if language in DECIMAL_MARKS else ""
    return f"{number(value * 100, 0, language)}{space}%"


# How each language writes a date: day.month.year in Ukrainian and Russian; English,
# and any language not listed, the ISO order the league and the log use (2026-12-03).
DATE_FORMATS = {"uk": "%d.%m.%Y", "ru": "%d.%m.%Y"}


def date(value: datetime.date | str, language: str) -> str:
    """A date (a ``date``, a ``datetime``, or an ISO text such as a league night's
    ``2026-12-03``) as ``language`` writes it; a text that is not a date as it is."""
    if isinstance(value, str):
        try:
            return date(datetime.date.fromisoformat(value[:10]), language)
        except ValueError:
            return value
    return value.strftime(DATE_FORMATS.get(language, "%Y-%m-%d"))


def date_time(moment: datetime.datetime, language: str) -> str:
    """A date and time to the minute: ``03.12.2026 21:40`` (``2026-12-03 21:40``)."""
    return f"{date(moment, language)} {moment:%H:%M}"


def fill(template: str, **values: object) -> str:
    """``{name}`` placeholders of a translated text filled in, in one pass (a value
    with braces in it, a player's name, is shown as it is); a placeholder with no value,
    or a translation that lost one, still shows."""
    return re.sub(
        r"\{(\w+)\}",
        lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0),
        template,
    )
