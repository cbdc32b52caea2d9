"""Translations: every text the screens show is in the Ukrainian and Russian files,
and a broken file never stops the kiosk."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kiosk.domain.formula.errors import CODES, FormulaError
from kiosk.domain.formula.expression import evaluate
from kiosk.domain.formula.game import Move
from kiosk.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "kiosk" / "assets" / "locale"
UI = ROOT / "kiosk" / "ui"

# Where a msgid stands in kiosk/ui, read from the syntax tree of every file there (so
# a text split over lines, or in any call's argument list, is found all the same):
# the first argument of t(...); the argument (position or keyword) of the widgets and
# messages that the screens translate when they draw them.
MSGID_ARGS = {  # callable -> (positions, keywords)
    "t": ((0,), ()),
    "Item": ((0,), ("label", "note")),
    "Button": ((1,), ("label",)),
    "Target": ((0,), ("label",)),
    "Feedback": ((2,), ("message",)),
    "EntryError": ((0,), ("template",)),
}
ASSIGNED = ("title", "subtitle", "label")  # class attributes, and ``x.label = "..."``
NOT_TEXT = {".", "/", "next", "undo", "right", "down", "up", "reconnecting", "board", "cancel",
            "END", "missing_digit", "standard", "classic"}  # fmt: skip


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _text(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _literal(node: ast.expr) -> bool:
    """A choice's value: a constant such as ``"auto"``, ``4`` or ``-4``."""
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant)


def scan(source: str) -> tuple[set[str], list[str]]:
    """(the msgids in one file, the texts built before translation: f-strings and
    concatenations where a msgid belongs, which no catalogue can hold)."""
    found: set[str] = set()
    built: list[str] = []

    def take(node: ast.expr | None) -> None:
        text = _text(node)
        if text is not None:
            found.add(text)
        elif isinstance(node, ast.IfExp):  # "Bring back" if retired else "Retire"
            take(node.body)
            take(node.orelse)
        elif isinstance(node, ast.JoinedStr | ast.BinOp):
            built.append(f"line {node.lineno}: {ast.unparse(node)}")

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _name(node.func) in MSGID_ARGS:
            if any(k.arg == "raw_label" for k in node.keywords):
                continue  # a player's name, shown as it is
            positions, keywords = MSGID_ARGS[_name(node.func)]
            for i in positions:
                if i < len(node.args):
                    take(node.args[i])
            for keyword in node.keywords:
                if keyword.arg in keywords:
                    take(keyword.value)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            targets = [_name(t) for t in node.targets]
            if any(t in ASSIGNED for t in targets):
                take(node.value)
        elif isinstance(node, ast.List | ast.Tuple) and node.elts:
            # choices: [("value", "Label"), ...]; columns: [("Label", lambda ...), ...]
            pairs = [e for e in node.elts if isinstance(e, ast.Tuple) and len(e.elts) >= 2]
            if len(pairs) == len(node.elts):
                for pair in pairs:
                    first, second = pair.elts[0], pair.elts[1]
                    if isinstance(second, ast.Lambda):
                        take(first)
                    elif len(pair.elts) == 2 and _literal(first):
                        take(second)
    return found, built


def ui_msgids() -> set[str]:
    found: set[str] = set()
    for path in sorted(UI.rglob("*.py")):
        found |= scan(path.read_text(encoding="utf-8"))[0]
    from kiosk.ui.banner import PLAIN_REASONS
    from kiosk.ui.entry import HELP
    from kiosk.ui.formula_session import move_text
    from kiosk.ui.screens.formula_view import KEYPAD, MODE_LABELS, REFUSAL_TEMPLATES

    found.add(HELP)
    # Texts chosen at run time: the formula legend, game modes, a timed-out move.
    found.update(label for *_, label in KEYPAD if label.isalpha() or " " in label)
    found.update(MODE_LABELS.values())
    found.update(template for _code, _pattern, template in REFUSAL_TEMPLATES)
    found.update(plain for _words, plain in PLAIN_REASONS)  # why results are not saved
    found.add(move_text(Move("Anna", None, None, 0, 501, timed_out=True)))
    return {
        m for m in found if m.strip() and m not in NOT_TEXT and not m.isdigit() and "%" not in m
    }


def test_the_scan_reads_every_ui_file_and_finds_texts_however_they_are_written() -> None:
    files = sorted(UI.rglob("*.py"))
    assert len(files) >= 30 and UI / "screens" / "resume.py" in files
    found, built = scan(
        'x = t("one "\n      "text")\n'
        'Button("go", "Go on")\n'
        'Item("Volume", choices=[(0, "off"), (-1, "on")], note="soon")\n'
        'Item("Back" if gone else "Retire", retire)\n'
        'COLUMNS = [("Won", lambda s: s.won, 6.5)]\n'
        'class S:\n    title = "Settings"\n'
        'b.label = "Really?"\n'
        'raise EntryError("no such dart: {text}", text=typed)\n'
        'Feedback(False, [], "Not saved")\n'
        'y = t(f"Round {n}")\n'
    )
    assert found == {"one text", "Go on", "Volume", "off", "on", "soon", "Back", "Retire",
                     "Won", "Settings", "Really?", "no such dart: {text}", "Not saved"}  # fmt: skip
    assert built == ["line 12: f'Round {n}'"]


def test_no_text_is_put_together_before_it_is_translated() -> None:
    built = {}
    for path in sorted(UI.rglob("*.py")):
        lines = scan(path.read_text(encoding="utf-8"))[1]
        if lines:
            built[str(path.relative_to(ROOT))] = lines
    assert built == {}


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
           ("3/4+89", 3489), ("pow(3,-pow(4,8))*9", 3489)]  # fmt: skip


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
    # A figure as the language writes it; one no player reads (4.99e-137) left out.
    half = FormulaError("not_whole", "not a whole number: 490.732")
    assert refusal_text(catalog.gettext, half, ",").endswith(": 490,732")
    tiny = FormulaError("not_whole", "not a whole number: 4.99317e-137")
    assert refusal_text(catalog.gettext, tiny, ",") == catalog.gettext("not a whole number")


def calibration_reasons() -> tuple[set[str], list[str]]:
    """Every reason the automatic calibration can give the calibration screen (the
    first argument of ``Refused``, ``template=`` of ``AutoResult``, the texts of a found
    board picked from a dict), and those built before translation (an f-string no
    catalogue can hold)."""
    camera = ROOT / "kiosk" / "adapters" / "camera"
    # (the rings' step, rings.py, has reasons of its own)
    trees = [
        ast.parse((camera / f).read_text(encoding="utf-8")) for f in ("autocal.py", "rings.py")
    ]
    found: set[str] = set()
    built: list[str] = []
    for node in (n for tree in trees for n in ast.walk(tree)):
        texts: list[ast.expr] = []
        if isinstance(node, ast.Call) and _name(node.func) == "Refused" and node.args:
            texts.append(node.args[0])
        if isinstance(node, ast.Call) and _name(node.func) == "AutoResult":
            texts += [k.value for k in node.keywords if k.arg == "template"]
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
            texts += [v for v in node.value.values if v is not None]  # {"numbers": "...", ...}[how]
        for text in texts:
            if (value := _text(text)) is not None:
                found.add(value)
            elif isinstance(text, ast.JoinedStr | ast.BinOp):  # (a name passes one on)
                built.append(f"line {text.lineno}: {ast.unparse(text)}")
    return found, built


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_every_reason_the_automatic_calibration_gives_is_translated(language: str) -> None:
    catalog = i18n.load(language, LOCALE)
    reasons, built = calibration_reasons()
    assert built == []
    assert len(reasons) >= 18  # the scan still finds them
    assert sorted(r for r in reasons if r not in catalog.messages) == []


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


def test_fill_puts_values_in_once_so_a_name_with_braces_shows_as_it_is() -> None:
    assert i18n.fill("{name} wins!", name="Tom {n}") == "Tom {n} wins!"
    assert i18n.fill("{d} is not a digit of {n}", d=5, n=3489) == "5 is not a digit of 3489"
    assert i18n.fill("{x} left", y=1) == "{x} left"  # a field with no value still shows


def test_percentages_are_written_as_each_language_writes_them() -> None:
    assert i18n.percent(0.85, "en") == "85%"
    assert i18n.percent(0.85, "uk") == "85\u00a0%"
    assert i18n.percent(0.7, "ru") == "70\u00a0%"


def po_msgids(path: Path) -> list[str]:
    """Every msgid of a .po file in file order, translated or not (a msgid continued
    over lines read whole)."""
    ids: list[str] = []
    current: list[str] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("msgid "):
            current = [ast.literal_eval(line[len("msgid ") :])]
        elif line.startswith('"') and current is not None:
            current.append(ast.literal_eval(line))
        else:
            if current is not None and "".join(current):
                ids.append("".join(current))
            current = None
    return ids


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
def test_no_text_is_in_a_translation_file_twice(language: str) -> None:
    # gettext's own tools refuse a file with a msgid twice (msgfmt: "duplicate message
    # definition"), and a second translation would silently win over the first.
    ids = po_msgids(i18n.po_path(language, LOCALE))
    assert len(ids) > 300
    assert sorted({m for m in ids if ids.count(m) > 1}) == []


def test_the_three_translation_files_hold_the_same_texts_in_the_same_order() -> None:
    en = po_msgids(i18n.po_path("en", LOCALE))
    assert po_msgids(i18n.po_path("uk", LOCALE)) == en
    assert po_msgids(i18n.po_path("ru", LOCALE)) == en


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
def test_gettext_s_own_checker_accepts_the_translation_files(language: str) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt (gettext) is not installed")
    path = i18n.po_path(language, LOCALE)
    done = subprocess.run(
        [msgfmt, "-c", "-o", os.devnull, str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_dates_are_written_as_each_language_writes_them() -> None:
    import datetime

    assert i18n.date("2026-12-03", "en") == "2026-12-03"
    assert i18n.date("2026-12-03", "uk") == "03.12.2026"
    assert i18n.date(datetime.date(2026, 1, 9), "ru") == "09.01.2026"
    moment = datetime.datetime(2026, 12, 2, 21, 40, 59)
    assert i18n.date_time(moment, "uk") == "02.12.2026 21:40"
    assert i18n.date_time(moment, "en") == "2026-12-02 21:40"
    assert i18n.date("not a date", "uk") == "not a date"
