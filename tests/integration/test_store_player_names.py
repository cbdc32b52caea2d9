"""Player names as a bar writes them: rosters from a spreadsheet, apostrophes of every
kind, on a real database file and through the real ``darts-kiosk players`` command."""

import subprocess
import sys

import pytest

from kiosk.adapters.store import Store


@pytest.fixture
def db(tmp_path):
    return tmp_path / "kiosk.sqlite3"


def players_command(db, *argv):
    """``darts-kiosk players ... --db DB`` as a real process."""
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "players", *argv, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def roster_names(db):
    with Store.open(db) as store:
        return [p.name for p in store.players.roster()]


# Word and Excel autocorrect ' to U+2019; Ukrainian spelling has U+02BC; people also
# type U+00B4, U+2018 and the grave accent.
@pytest.mark.parametrize("mark", ["\u2019", "\u02bc", "`", "\u00b4", "\u2018", "'"])
def test_a_roster_header_with_any_apostrophe_is_a_header_not_a_player(db, tmp_path, mark):
    roster = tmp_path / "roster.csv"
    header, lukyan, darya = ("Ім{}я", "Лук{}ян", "Дар{}я")
    roster.write_text(
        f"{header.format(mark)};Команда\n{lukyan.format(mark)};A\n{darya.format(mark)};B\n",
        encoding="utf-8",
    )
    r = players_command(db, "import", str(roster))
    assert r.returncode == 0, r.stderr
    assert "added 2, already there 0, refused 0" in r.stdout
    assert roster_names(db) == [darya.format(mark), lukyan.format(mark)]


def test_a_numbered_roster_adds_the_names_not_the_row_numbers(db, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "№,Прізвище та ім\u2019я,Телефон\n1,Коваль Дар\u2019я,050\n2,Бондар Ірина,067\n",
        encoding="utf-8",
    )
    r = players_command(db, "import", str(roster))
    assert r.returncode == 0, r.stderr
    assert "added 2, already there 0, refused 0" in r.stdout
    assert roster_names(db) == ["Бондар Ірина", "Коваль Дар\u2019я"]


def test_row_numbers_under_a_header_not_known_are_refused_and_said_not_added(db, tmp_path):
    # A header the import does not know: the first column is read, and it holds the
    # row numbers. They are refused, each line said, never added as players "1", "2".
    roster = tmp_path / "roster.csv"
    roster.write_text("№,Хто грає,Телефон\n1,Олег,050\n2,Ірина,067\n", encoding="utf-8")
    r = players_command(db, "import", str(roster))
    assert r.returncode == 1
    assert "added 0, already there 0, refused 3" in r.stdout
    assert "line 1: '№' has no letters: not a name" in r.stderr
    assert "line 2: '1' has no letters" in r.stderr and "line 3: '2'" in r.stderr
    assert roster_names(db) == []
