"""Players in the store: add, rename, merge, retire, import a roster."""

import pytest
from test_store_support import win_cricket

from kiosk.adapters.store import PlayerError, Store


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "kiosk.sqlite3") as s:
        yield s


def test_names_are_unique_whatever_the_case_in_any_script(store):
    store.players.add("Олег")
    store.players.add("Ann  Lee ")
    with pytest.raises(PlayerError, match="already"):
        store.players.add("ОЛЕГ")
    with pytest.raises(PlayerError, match="already"):
        store.players.add("ann lee")
    assert [p.name for p in store.players.roster()] == ["Ann Lee", "Олег"]


@pytest.mark.parametrize("bad", ["", "   ", "x" * 25, "tab\there\x07", None])
def test_a_bad_name_is_refused_with_a_reason(store, bad):
    with pytest.raises(PlayerError):
        store.players.add(bad)
    assert store.players.roster() == []


def test_a_renamed_player_keeps_their_games_and_they_still_replay(store):
    store.players.add("Ann")
    store.players.add("Bob")
    live = store.start_game("cricket", ["Ann", "Bob"])
    live.dart("T20")
    store.players.rename("ann", "Annie")
    assert store.players.find("Ann") is None
    resumed = store.resume(live.id)
    assert resumed.record.players == ("Annie", "Bob")
    assert resumed.engine.marks("Annie", 20) == 3


def test_renaming_onto_another_players_name_is_refused(store):
    store.players.add("Ann")
    store.players.add("Bob")
    with pytest.raises(PlayerError, match="already"):
        store.players.rename("Ann", "BOB")
    store.players.rename("Ann", "ANN")  # a change of case of one's own name is fine
    assert store.players.find("ann").name == "ANN"


def test_a_retired_player_leaves_the_list_but_keeps_history(store):
    store.players.add("Ann")
    store.players.add("Bob")
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
    store.players.retire("Ann")
    assert [p.name for p in store.players.roster()] == ["Bob"]
    assert [p.name for p in store.players.roster(include_retired=True)] == ["Ann", "Bob"]
    assert store.players.rating(store.players.find("Ann").id) == pytest.approx(1516)


def test_merging_moves_games_and_ratings_to_the_kept_player(store):
    for name in ("Ann", "Anne", "Bob"):
        store.players.add(name)
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
    win_cricket(store.start_game("cricket", ["Anne", "Bob"], rated=True), 0)
    kept = store.players.merge("Anne", "Ann")
    assert kept.name == "Ann"
    # Recomputed as two wins by one player: 1516, then 1516 + 32 * (1 - E(1516, 1484)).
    history = store.players.rating_history(kept.id)
    assert [g for g, _b, _a in history] == [1, 2]
    assert history[0][2] == pytest.approx(1516)
    assert history[1][1] == pytest.approx(1516)
    assert store.players.find("Anne").id == kept.id  # the old name finds the kept player
    assert [p.name for p in store.players.roster(include_retired=True)] == ["Ann", "Bob"]
    assert store.games.get(2).players == ("Ann", "Bob")
    # Renaming by the old name would rename Ann while saying "Anne": refused, clearly.
    with pytest.raises(PlayerError, match="'Anne' was merged into 'Ann'"):
        store.players.rename("Anne", "Annie")
    assert store.players.find("Ann") is not None and store.players.find("Annie") is None


def test_merging_an_old_merged_name_again_is_refused_and_the_kept_player_stays(store):
    for name in ("Ann", "Anne", "Bob", "Dan"):
        store.players.add(name)
    win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
    store.players.merge("Anne", "Ann")
    # "Anne" now finds Ann: merging it into Dan would merge Ann, a player of her own.
    with pytest.raises(PlayerError, match="'Anne' was merged into 'Ann': merge 'Ann'"):
        store.players.merge("Anne", "Dan")
    assert [p.name for p in store.players.roster()] == ["Ann", "Bob", "Dan"]
    assert store.games.get(1).players == ("Ann", "Bob")
    assert store.players.rating(store.players.find("Ann").id) == pytest.approx(1516)


def test_two_players_who_met_in_a_game_cannot_be_merged(store):
    store.players.add("Ann")
    store.players.add("Bob")
    store.start_game("cricket", ["Ann", "Bob"]).dart("T20")
    with pytest.raises(PlayerError, match="played each other"):
        store.players.merge("Bob", "Ann")


def test_a_roster_csv_adds_new_names_and_reports_the_rest(store):
    store.players.add("Bob")
    text = "\ufeffteam,name\nRed,Ann\nRed,bob\n\nBlue,\nBlue,Олег\nBlue\n"
    report = store.players.import_roster(text)
    assert report.added == ["Ann", "Олег"]
    assert report.existing == ["bob"]
    assert [line for line, _why in report.refused] == [5, 7]
    assert len(store.players.roster()) == 3


def test_a_merge_recomputes_ratings_in_the_order_games_ended_even_if_the_clock_went_back(
    tmp_path,
):
    # A Pi without network after a power cut: its clock comes back up to an hour behind
    # the games it stamped before the cut, so a later game carries an earlier end time.
    from datetime import datetime, timedelta

    from test_store_support import Clock

    clock = Clock(datetime(2025, 3, 4, 21, 0).astimezone())
    with Store.open(tmp_path / "kiosk.sqlite3", clock=clock) as store:
        for name in ("Ann", "Bob", "Cy", "Cyril", "Di"):
            store.players.add(name)
        win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
        clock.now -= timedelta(minutes=50)  # the power cut
        win_cricket(store.start_game("cricket", ["Bob", "Ann"], rated=True), 0)
        win_cricket(store.start_game("cricket", ["Cy", "Di"], rated=True), 0)
        before = {n: store.players.rating(store.players.find(n).id) for n in ("Ann", "Bob")}
        store.players.merge("Cyril", "Cy")  # nothing to do with Ann and Bob
        after = {n: store.players.rating(store.players.find(n).id) for n in ("Ann", "Bob")}
    assert after == pytest.approx(before)
    assert before["Ann"] != pytest.approx(before["Bob"])  # the order matters to Elo


@pytest.mark.parametrize("sep", [";", "\t"])
def test_a_roster_saved_with_semicolons_or_tabs_adds_the_names_not_whole_lines(store, sep):
    # A spreadsheet in a Ukrainian, Russian or German locale saves CSV with ";".
    text = (
        sep.join(["Ім'я", "email"])
        + "\n"
        + "\n".join(
            sep.join(row) for row in (["Олег", "o@x.ua"], ['"Smith, John"', "j@x"], ["Ivan", ""])
        )
        + "\n"
    )
    report = store.players.import_roster(text)
    assert report.added == ["Олег", "Smith, John", "Ivan"]
    assert not report.refused


def test_a_roster_header_called_player_is_a_header_not_a_player(store):
    report = store.players.import_roster("Team,Player\nRed,Ann\nBlue,Bob\n")
    assert report.added == ["Ann", "Bob"]
    assert store.players.find("Player") is None


def test_a_merged_name_cannot_be_retired_in_place_of_the_kept_player(store):
    store.players.add("Ann")
    store.players.add("Annie")
    store.players.merge("Annie", "Ann")
    with pytest.raises(PlayerError, match="merged into 'Ann'"):
        store.players.retire("Annie")
    assert not store.players.find("Ann").retired
    assert store.players.retire("Ann").retired


@pytest.mark.parametrize(
    "header",
    ["First name,Last name", "Ім'я,Прізвище", "имя;фамилия", "Surname,First name"],
)
def test_a_roster_with_first_and_last_names_in_two_columns_joins_them(store, header):
    # Two Olegs are two players, not one; the header row is not a player.
    sep = ";" if ";" in header else ","
    first_then_last = header.casefold().startswith(("first", "ім", "им"))
    rows = [("Oleg", "Petrenko"), ("Oleg", "Ivanov"), ("Iryna", "")]
    lines = [sep.join(r if first_then_last else (r[1], r[0])) for r in rows]
    report = store.players.import_roster("\n".join([header, *lines]) + "\n")
    assert report.added == ["Oleg Petrenko", "Oleg Ivanov", "Iryna"]
    assert not report.refused and not report.existing


def test_a_title_row_above_the_header_is_not_a_player(store):
    text = "Tuesday league, spring 2026\n\nTeam,Name\nRed,Ann\nBlue,Bob\n"
    report = store.players.import_roster(text)
    assert report.added == ["Ann", "Bob"]
    assert store.players.find("Tuesday league") is None


@pytest.mark.parametrize("title", ["Club roster 2026", "Tuesday league, spring 2026"])
@pytest.mark.parametrize("sep", [";", "\t"])
def test_a_title_row_above_a_semicolon_or_tab_header_is_skipped_too(store, title, sep):
    # The title row has no separator of the file's own (or a comma of its text): the
    # fields are still split by what the header and the names use.
    rows = [("first name", "last name", "phone"), ("Carl", "Smith", "1"), ("Dana", "Jones", "")]
    text = "\n".join([title, *(sep.join(r) for r in rows)]) + "\n"
    report = store.players.import_roster(text)
    assert report.added == ["Carl Smith", "Dana Jones"]
    assert not report.refused and not report.existing


def test_names_the_export_guarded_from_spreadsheets_come_back_as_they_were(store):
    # The season export writes "@Bob" as "'@Bob" (a spreadsheet would run it); a roster
    # saved from it brings back "@Bob", not a second player "'@Bob".
    store.players.add("@Bob")
    report = store.players.import_roster("name\n'@Bob\n'-Ann\n'=Cy\nO'Neil\n")
    assert report.existing == ["@Bob"]
    assert report.added == ["-Ann", "=Cy", "O'Neil"]
