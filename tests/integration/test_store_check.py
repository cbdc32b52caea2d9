"""The look for damage made at start, in its own thread, on its own connection."""

from pathlib import Path

from test_store_support import damage_an_index

from kiosk.adapters.store import Store
from kiosk.adapters.store.check import DamageCheck, StoreDamaged


def checked(path: Path) -> list[StoreDamaged]:
    found: list[StoreDamaged] = []
    check = DamageCheck(path, found.append).start()
    check._thread.join(30)
    assert not check._thread.is_alive()
    return found


def league_file(path: Path) -> None:
    with Store.open(path) as store:
        for n in range(300):  # the roster's index spans several pages
            store.players.add(f"Player{n:03}")


def test_a_sound_file_raises_nothing_while_the_kiosk_holds_it_open(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    league_file(path)
    with Store.open(path) as store:  # the kiosk's own connection, writing as it goes
        store.players.add("Anna")
        assert checked(path) == []
        store.players.add("Boris")  # and the check left no lock behind
    with Store.open(path) as store:
        assert {"Anna", "Boris"} <= {p.name for p in store.players.roster()}


def test_a_damaged_page_is_reported_once_with_the_file_and_what_was_found(tmp_path, caplog):
    path = tmp_path / "kiosk.sqlite3"
    league_file(path)
    damage_an_index(path)
    with caplog.at_level("ERROR"):
        found = checked(path)
    assert len(found) == 1 and found[0].path == str(path) and found[0].finding
    said = [r.getMessage() for r in caplog.records]
    assert any("is damaged" in m and "darts-kiosk backup" in m for m in said), said


def test_a_check_stopped_before_it_began_reports_nothing(tmp_path):
    path = tmp_path / "kiosk.sqlite3"
    path.write_bytes(b"not a database at all" * 1000)
    found: list[StoreDamaged] = []
    check = DamageCheck(path, found.append)
    check.stop(timeout=0)
    check.start()
    check._thread.join(10)
    assert found == []


def test_a_stop_that_lands_before_the_check_reads_still_ends_it(tmp_path, monkeypatch):
    import threading
    import time

    from kiosk.adapters.store import check as check_module

    path = tmp_path / "kiosk.sqlite3"
    league_file(path)
    connected = threading.Event()

    def slow_to_begin(conn):
        connected.set()
        time.sleep(0.3)  # the kiosk closes now: no statement runs yet to interrupt
        return conn.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
            " SELECT count(*) FROM n"  # a check that would never end by itself
        ).fetchone()

    monkeypatch.setattr(check_module, "quick_check", slow_to_begin)
    found: list[StoreDamaged] = []
    check = DamageCheck(path, found.append).start()
    assert connected.wait(10)
    check.stop(timeout=10)
    assert not check._thread.is_alive() and found == []
