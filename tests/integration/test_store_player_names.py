"""Player names as a bar writes them: rosters from a spreadsheet, apostrophes of every
kind, on a real database file and through the real ``darts-kiosk players`` command."""

import sqlite3
import subprocess
import sys
from contextlib import closing

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


# The same name with each kind of apostrophe (the kiosk's name entry types only ').
CURLY, STRAIGHT, MODIFIER = "Лук\u2019ян", "Лук'ян", "Лук\u02bcян"


def test_one_name_with_another_apostrophe_is_the_same_player(db, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(f"Ім\u2019я\n{CURLY}\n", encoding="utf-8")
    assert players_command(db, "import", str(roster)).returncode == 0
    for spelling in (STRAIGHT, MODIFIER, "ЛУК`ЯН"):
        r = players_command(db, "add", spelling)
        assert r.returncode == 1
        assert f"there is already a player called {spelling!r} (written {CURLY!r})" in r.stderr
    shouted = CURLY.upper().replace("\u2019", "\u00b4")
    roster.write_text(f"Name\n{STRAIGHT}\n{shouted}\n", encoding="utf-8")
    r = players_command(db, "import", str(roster))
    assert "added 0, already there 2, refused 0" in r.stdout
    assert roster_names(db) == [CURLY]
    with Store.open(db) as store:
        assert store.players.find(STRAIGHT).name == CURLY
        assert store.players.rename(STRAIGHT, MODIFIER).name == MODIFIER  # one's own name


def two_lukyans_from_before(path):
    """A schema-3 file (apostrophes not folded yet) where the name with a curly
    apostrophe (from a roster) and with a straight one (typed at the kiosk) are two
    players, each with a game won against Ann."""
    from test_store_support import win_cricket

    from kiosk.adapters.store.schema import connect

    connect(path, migrate_to=3).close()
    with closing(sqlite3.connect(path)) as raw:
        raw.executemany(
            "INSERT INTO players (id, name, name_key, created_at) VALUES (?, ?, ?, 'x')",
            [(1, CURLY, CURLY.casefold()), (2, "Ann", "ann"), (3, STRAIGHT, STRAIGHT.casefold())],
        )
        raw.commit()
    with Store.open(path) as store:
        for name in (CURLY, STRAIGHT):
            win_cricket(store.start_game("cricket", [name, "Ann"], rated=True), 0)


def test_two_players_of_one_name_in_an_old_database_stay_two_until_merged(db):
    two_lukyans_from_before(db)
    with Store.open(db) as store:
        # Opened without a fault; each is found by the name as it is written, with
        # their own game; another spelling finds the first made.
        assert sorted(p.name for p in store.players.roster()) == sorted(["Ann", CURLY, STRAIGHT])
        curly, straight = store.players.find(CURLY), store.players.find(STRAIGHT)
        assert (curly.id, straight.id) == (1, 3)
        assert store.players.find(MODIFIER).id == 1
        assert [g.game_id for g in store.league.player_games(3)] == [2]
    listed = players_command(db, "list")
    assert listed.returncode == 0
    assert f"{STRAIGHT} and {CURLY} are one name written two ways" in listed.stderr
    assert "players merge" in listed.stderr
    merged = players_command(db, "merge", STRAIGHT, CURLY)
    assert merged.returncode == 0, merged.stderr
    with Store.open(db) as store:
        assert [p.name for p in store.players.roster()] == ["Ann", CURLY]
        kept = store.players.find(STRAIGHT)
        assert kept.id == 1 and len(store.league.player_games(1)) == 2
    assert "one name written two ways" not in players_command(db, "list").stderr
    assert players_command(db, "add", MODIFIER).returncode == 1


def test_a_name_merged_away_does_not_take_the_name_from_a_player_in_the_lists(db):
    """An old file: the name with a straight apostrophe was merged into Lucian long
    ago; the one with a curly apostrophe is a player of his own. After the apostrophes
    are folded, he keeps his name: any spelling of it finds him, not Lucian, and he can
    be renamed in its case."""
    from kiosk.adapters.store.schema import connect

    connect(db, migrate_to=3).close()
    with closing(sqlite3.connect(db)) as raw:
        raw.executemany(
            "INSERT INTO players (id, name, name_key, created_at) VALUES (?, ?, ?, 'x')",
            [(1, STRAIGHT, STRAIGHT.casefold()), (2, CURLY, CURLY.casefold()),
             (3, "Lucian", "lucian")],
        )  # fmt: skip
        raw.execute("UPDATE players SET merged_into = 3, retired = 1 WHERE id = 1")
        raw.commit()
    with Store.open(db) as store:
        assert store.players.find(CURLY).id == 2
        assert store.players.find(MODIFIER).id == 2
        assert store.players.find(STRAIGHT).id == 3  # the merged name: whom it went to
        assert store.players.rename(CURLY, CURLY.upper()).id == 2


# Ukrainian and Russian names in the order of their alphabets, merged as
# kiosk.domain.names.CYRILLIC_ORDER: code points put the Ukrainian letters and the
# Russian Ё after the last letter, Я. Latin first, as before; case ignored.
IN_ORDER = ["Anna", "boris", "Гена", "Ґалина", "Ефим", "Ёлкин", "Євген", "Ірина", "Эдуард"]
IN_ORDER += ["Юрий", "Ярослав"]


def test_players_and_the_league_table_are_listed_in_alphabet_order(db):
    from test_store_support import draw_cricket

    drawn = IN_ORDER[1:]  # five draws: ten players level, the table lists them by name
    with Store.open(db) as store:
        for name in reversed(IN_ORDER):
            store.players.add(name)
        for pair in zip(drawn[0::2], drawn[1::2], strict=True):
            draw_cricket(store, list(reversed(pair)))
    listed = players_command(db, "list")
    assert [line.split()[0] for line in listed.stdout.splitlines()] == IN_ORDER
    table = subprocess.run(
        [sys.executable, "-m", "kiosk", "league", "standings", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert [line.split()[1] for line in table.splitlines()[2:]] == drawn


# Russian writes ё without its dots at will: one regular, two spellings.
PYOTR, PETR = "Пётр", "Петр"


def test_a_name_written_with_or_without_the_dots_of_yo_is_the_same_player(db):
    with Store.open(db) as store:
        store.players.add(PYOTR)
    r = players_command(db, "add", PETR)
    assert r.returncode == 1
    assert f"there is already a player called {PETR!r} (written {PYOTR!r})" in r.stderr
    with Store.open(db) as store:
        assert store.players.find(PETR).name == PYOTR
        assert store.players.find("ПЁТР").name == PYOTR
        assert [p.name for p in store.players.roster()] == [PYOTR]
        store.players.add("Пэтр")  # another letter: another name
        assert sorted(p.name for p in store.players.roster()) == sorted([PYOTR, "Пэтр"])


def test_two_players_written_with_and_without_yo_in_an_old_database_stay_two(db):
    from test_store_support import win_cricket

    from kiosk.adapters.store.schema import connect

    connect(db, migrate_to=5).close()  # before ё was folded
    with closing(sqlite3.connect(db)) as raw:
        raw.executemany(
            "INSERT INTO players (id, name, name_key, created_at) VALUES (?, ?, ?, 'x')",
            [(1, PYOTR, PYOTR.casefold()), (2, "Ann", "ann"), (3, PETR, PETR.casefold())],
        )
        raw.commit()
    with Store.open(db) as store:
        win_cricket(store.start_game("cricket", [PETR, "Ann"], rated=True), 0)
        assert store.players.find(PYOTR).id == 1 and store.players.find(PETR).id == 3
        assert [g.game_id for g in store.league.player_games(3)] == [1]
    listed = players_command(db, "list")
    assert f"{PETR} and {PYOTR} are one name written two ways" in listed.stderr


@pytest.mark.parametrize(
    ("encoding", "said"), [("cp1251", "read as Windows Cyrillic (cp1251)"), ("utf-16", "")]
)
def test_a_roster_excel_saved_in_windows_cyrillic_or_unicode_text_is_read(
    db, tmp_path, encoding, said
):
    # Excel's "CSV" on a Ukrainian or Russian Windows writes cp1251; "Unicode text",
    # UTF-16 with a BOM. Both were refused as "not UTF-8 text".
    roster = tmp_path / "roster.csv"
    lines = ["Ім'я;Команда", "Олена Петренко;1", "John Smith;2"]
    roster.write_bytes("\n".join(lines).encode(encoding))
    r = players_command(db, "import", str(roster))
    assert r.returncode == 0, r.stderr
    assert "added 2, already there 0, refused 0" in r.stdout
    assert said in r.stderr
    assert roster_names(db) == ["John Smith", "Олена Петренко"]


def test_a_western_roster_not_in_utf8_is_refused_until_its_encoding_is_named(db, tmp_path):
    # Read as cp1251 its accents would be Cyrillic letters ("Josй"): never added so.
    roster = tmp_path / "roster.csv"
    roster.write_bytes("name\nJosé Núñez\nZoë Brontë\n".encode("cp1252"))
    r = players_command(db, "import", str(roster))
    assert r.returncode == 1 and "--encoding" in r.stderr and "Traceback" not in r.stderr
    assert not db.exists()  # (nor a new, empty database made for nothing)
    r = players_command(db, "import", str(roster), "--encoding", "cp1252")
    assert r.returncode == 0, r.stderr
    assert roster_names(db) == ["José Núñez", "Zoë Brontë"]


@pytest.mark.parametrize("encoding", ["koi8-u", "iso-8859-5"])
def test_a_cyrillic_roster_in_another_old_encoding_is_not_read_as_windows_cyrillic(
    db, tmp_path, encoding
):
    # Read as cp1251 these are Cyrillic letters too, with the case turned round:
    # "Олег" in KOI8-U read "пМЕЗ", and was added so.
    roster = tmp_path / "roster.csv"
    roster.write_bytes("\n".join(["name", "Олег Петренко", "Марія Шевченко"]).encode(encoding))
    r = players_command(db, "import", str(roster))
    assert r.returncode == 1 and "--encoding" in r.stderr and not db.exists()
    r = players_command(db, "import", str(roster), "--encoding", encoding)
    assert r.returncode == 0, r.stderr
    assert roster_names(db) == ["Марія Шевченко", "Олег Петренко"]
