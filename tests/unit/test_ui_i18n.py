"""Translations: every text the screens show is in the Ukrainian and Russian files,
and a broken file never stops the kiosk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kiosk.domain.formula.errors import CODES, FormulaError
from kiosk.domain.formula.expression import evaluate
from kiosk.domain.formula.game import Move
from kiosk.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "kiosk" / "assets" / "locale"
UI = ROOT / "kiosk" / "ui"

# The ways a msgid appears in kiosk/ui: t("..."), Item("...", title = "...",
# note="...", Button(action, "..."), and ("value", "Label") choice pairs.
PATTERNS = [
    r'\bt\("([^"]+)"\)',
    r"\bt\('([^']+)'\)",
    r'Item\(\s*"([^"]+)"',
    r'(?:title|subtitle) = "([^"]+)"',
    r'note="([^"]+)"',
    r'Button\("[a-z]+", "([^"]+)"\)',
    r'\(\s*"[a-z-]+",\s*"([^"]+)"\)',
    r'\((?:-?\d+|True|False), "([^"]+)"\)',
    r'^\s+\("([^"]+)", lambda',
    r'Feedback\([^)]*message="([^"]+)"',
]
# Files whose texts are not checked (none: every screen is translated).
NOT_YET_TRANSLATED: set[str] = set()
NOT_TEXT = {".", "/", "next", "undo", "right", "down", "up", "reconnecting", "board", "cancel",
            "END", "missing_digit", "standard", "classic"}  # fmt: skip


def ui_msgids() -> set[str]:
    found: set[str] = set()
    for path in UI.rglob("*.py"):
        if path.name in NOT_YET_TRANSLATED:
            continue
        text = path.read_text(encoding="utf-8")
        for pattern in PATTERNS:
            found.update(re.findall(pattern, text, flags=re.MULTILINE))
    from kiosk.ui.entry import HELP
    from kiosk.ui.formula_session import move_text
    from kiosk.ui.screens.formula_view import KEYPAD, MODE_LABELS, REFUSAL_TEMPLATES

    found.add(HELP)
    # Texts chosen at run time: the formula legend, game modes, a timed-out move.
    found.update(label for *_, label in KEYPAD if label.isalpha() or " " in label)
    found.update(MODE_LABELS.values())
    found.update(template for _code, _pattern, template in REFUSAL_TEMPLATES)
    found.add(move_text(Move("Anna", None, None, 0, 501, timed_out=True)))
    return {m for m in found if m not in NOT_TEXT and not m.isdigit() and "%" not in m}


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_every_text_on_the_screens_is_translated(language: str) -> None:
    catalog = i18n.load(language, LOCALE)
    ids = ui_msgids()
    assert len(ids) > 50  # the extraction itself still finds the texts
    missing = sorted(m for m in ids if m not in catalog.messages)
    assert missing == []


# One formula for each way the engine refuses one: (formula, the round's number).
REFUSED = [("", 3489), ("(" * 301, 3489), ("(" * 41 + "3" + ")" * 41 + "+489", 3489),
           ("34+x89", 3489), ("3 4+89", 3489), ("034+89", 3489), ("(34+89", 3489),
           ("3489/7", 3489), ("3+4+8+8", 3489), ("34+8", 3489), ("3+8", 3489),
           ("9843", 3489), ("34+89+", 3489), ("pow(3,4,8)+9", 3489), ("sqrt(3,4)+89", 3489),
           ("3+0+0+0+0", 3000), ("3/0+0+1", 3001), ("sqrt(3-4)+89", 3489),
           ("pow(3-4,8/9)", 3489), ("pow(1-1,0-3)", 1103), ("pow(3,pow(4,pow(8,9)))", 3489),
           ("3/4+89", 3489)]  # fmt: skip


def refusals() -> list[FormulaError]:
    found = []
    for text, digits in REFUSED:
        try:
            evaluate(text, digits)
        except FormulaError as e:
            found.append(e)
    return found


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_every_refusal_a_player_can_meet_is_shown_in_their_language(language: str) -> None:
    from kiosk.ui.screens.formula_view import refusal_text

    catalog = i18n.load(language, LOCALE)
    errors = refusals()
    assert {e.code for e in errors} == set(CODES)
    untranslated = [e.message for e in errors if refusal_text(catalog.gettext, e) == e.message]
    assert untranslated == []
    shown = refusal_text(catalog.gettext, FormulaError("wrong_digit", "7 is not a digit of 3489"))
    assert "7" in shown and "3489" in shown and "digit" not in shown
    assert all(catalog.gettext(general) != general for general in CODES.values())


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_translations_keep_every_placeholder(language: str) -> None:
    catalog = i18n.load(language, LOCALE)
    broken = [
        (msgid, text)
        for msgid, text in catalog.messages.items()
        if sorted(re.findall(r"\{\w+\}", msgid)) != sorted(re.findall(r"\{\w+\}", text))
    ]
    assert broken == []


def test_the_english_file_reads_and_changes_nothing() -> None:
    catalog = i18n.load("en", LOCALE)
    assert catalog.gettext("Undo") == "Undo"


def test_translations_are_in_the_right_script() -> None:
    uk = i18n.load("uk", LOCALE)
    assert uk.gettext("Undo") == "Скасувати"
    assert i18n.load("ru", LOCALE).gettext("Undo") == "Отменить"


def test_po_reader_handles_continued_strings_escapes_and_fuzzy_entries() -> None:
    po = """# comment
msgid ""
msgstr "Language: uk\\n"

msgid "Hello"
msgstr ""
"При"
"віт \\"друже\\""

#, fuzzy
msgid "Old"
msgstr "Старе"

msgid "Empty"
msgstr ""
"""
    assert i18n.parse_po(po) == {"Hello": 'Привіт "друже"'}


def test_a_broken_translation_file_falls_back_to_english(tmp_path: Path) -> None:
    path = i18n.po_path("uk", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text('msgid "Undo"\nmsgstr Скасувати\n', encoding="utf-8")
    catalog = i18n.load("uk", tmp_path)
    assert catalog.gettext("Undo") == "Undo"
    assert i18n.load("ru", tmp_path / "none").gettext("Undo") == "Undo"
