"""League night on the real kiosk, headless, with its SQLite file in the test's directory:
players typed on the keypad, standings, a player's page, renames, a league game."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest

from kiosk.adapters.keypad import KeyAction
from kiosk.adapters.store import Store
from kiosk.bootstrap import Options, build
from kiosk.config import Config
from kiosk.domain.cricket import CricketGame
from kiosk.ui.driver import Driver
from tests.integration.test_store_support import formula_qualifications, win_cricket

WINNING = ["T20", "T19", "T18", "T17", "T16", "T15", "DB", "SB"]


@contextmanager
def kiosk(
    tmp_path: Path,
    *,
    store: bool = True,
    clock_setting: bool | None = None,
    size: tuple[int, int] = (1280, 720),
    language: str = "en",
) -> Iterator[Driver]:
    options = Options(
        window=True,
        size=size,
        port="loop://",
        env={},
        data_dir=tmp_path / "data",
        store=store,
        clock_setting=clock_setting,
    )
    running = build(options, Config(language=language))
    d = Driver(running)
    try:
        d.settle()
        yield d
    finally:
        running.close()


def thrower(live: Any) -> str:
    """Whose turn it is in a Cricket game in play."""
    engine = live.engine
    assert isinstance(engine, CricketGame)
    return engine.current_player


def rated_win(d: Driver, players: list[str], winner: str) -> None:
    """A rated Cricket game, played and finished through the store's own API."""
    store = d.kiosk.store
    assert store is not None
    live = store.start_game("cricket", players, rated=True)
    darts = iter(WINNING)
    while not live.is_over():
        if thrower(live) == winner:
            live.dart(next(darts))
        else:
            live.end_turn()
    live.finish()


def saved(d: Driver, *names: str) -> Store:
    """The kiosk's store, with ``names`` added as saved players."""
    store = d.kiosk.store
    assert store is not None
    for name in names:
        store.players.add(name)
    return store


def to_league(d: Driver) -> None:
    d.press("1")  # attract: any key
    assert d.screen.name == "main-menu"
    d.press("3")
    assert d.screen.name == "league-menu"


def keypad(d: Driver, keys: str) -> None:
    """Keys of the numeric keypad itself (``pad``): its digits move the letter picker,
    where a keyboard's main-row digits are typed into the name."""
    for ch in keys:
        action = KeyAction("enter", pad=True) if ch == "\n" else KeyAction("digit", ch, pad=True)
        d.running.inbox.put(action, source="keypad")
    d.settle()


def rows(d: Driver, names: list[str]) -> list[str]:
    """The names in the order the last frame drew them."""
    return [t for t in d.texts if t in names]


def test_the_standings_show_the_players_of_finished_rated_games_in_order(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob", "Cy")
        rated_win(d, ["Ann", "Cy"], "Cy")
        rated_win(d, ["Bob", "Cy"], "Cy")
        rated_win(d, ["Ann", "Bob"], "Bob")
        to_league(d)
        d.press("2")  # Tonight's standings
        assert d.screen.name == "standings"
        assert rows(d, ["Ann", "Bob", "Cy"]) == ["Cy", "Bob", "Ann"]
        cy = store.players.rating(store.players.find("Cy").id)  # type: ignore[union-attr]
        assert f"{cy:.0f}" in d.texts
        d.press("/")
        d.press("3")  # Season standings: the same three games
        assert rows(d, ["Ann", "Bob", "Cy"]) == ["Cy", "Bob", "Ann"]


def test_looking_at_the_league_makes_no_night_or_season_of_its_own(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        to_league(d)
        year = d.kiosk.store.league.tonight_as_is()[0].date[:4]  # type: ignore[union-attr]
        assert any(f"Season: {year}" in t for t in d.texts)  # the season to come
        d.press("2")  # Tonight's standings
        assert "No league games yet: standings start with the first rated game" in d.texts
        d.press("/")
        d.press("3")  # Season standings
        assert "No league games yet: standings start with the first rated game" in d.texts
        assert store.league.seasons() == []  # nothing made by looking
        rated_win(d, ["Ann", "Bob"], "Ann")
        d.press("/")
        d.press("2")
        assert rows(d, ["Ann", "Bob"]) == ["Ann", "Bob"]
        (season,) = store.league.seasons()
        assert season.name == year and len(store.league.nights(season.id)) == 1


def test_players_level_in_the_standings_share_a_position_as_the_command_shows_it(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        saved(d, "Ann", "Bob", "Cy")
        rated_win(d, ["Ann", "Cy"], "Ann")
        rated_win(d, ["Bob", "Cy"], "Bob")  # Ann and Bob: 1 played, 1 won
        to_league(d)
        d.press("2")  # Tonight's standings
        assert rows(d, ["Ann", "Bob", "Cy"]) == ["Ann", "Bob", "Cy"]  # by name: a listing
        rank = {name: d.texts[d.texts.index(name) - 1] for name in ("Ann", "Bob", "Cy")}
        assert rank == {"Ann": "1=", "Bob": "1=", "Cy": "3"}


def test_the_standings_show_formula_points_rounds_to_zero_and_the_fewest_rounds(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann")
        formula_qualifications(store, "Ann")  # 0 in one round, then in two
        to_league(d)
        d.press("2")  # Tonight's standings
        assert d.screen.name == "standings"
        # 150 points in 3 rounds: 50.0 a round; 1.5 rounds to 0 on average, 1 at best
        assert d.texts[d.texts.index("Ann") + 1 :][:9] == [
            *("2", "2", "0", "0"),  # played, won (both against par), lost, drawn
            *("\u2013", "\u2013"),  # no Cricket
            *("50.0", "1.5", "1"),
        ]


def test_the_player_page_shows_the_rating_form_and_mpr(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        saved(d, "Ann", "Bob")
        rated_win(d, ["Ann", "Bob"], "Ann")
        to_league(d)
        d.press("2")
        d.look()  # (the standings read first)
        d.press("\n")  # the top row: Ann
        assert d.screen.name == "player-page"
        assert "Ann" in d.texts
        assert "1516" in d.texts and "+16" in d.texts
        assert "W" in d.texts  # form: one win
        assert f"Last game: {21 / 8 * 3:.2f}" in d.texts  # the MPR of her one game
        d.press("+")  # the next player on the roster
        assert "Bob" in d.texts and "1484" in d.texts and "L" in d.texts


def test_the_player_page_form_counts_league_games_and_the_mpr_trend_every_game(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        rated_win(d, ["Ann", "Bob"], "Ann")
        training = store.start_game("cricket", ["Ann", "Bob"])  # Bob wins, unrated
        darts = iter(WINNING)
        while not training.is_over():
            if thrower(training) == "Bob":
                training.dart(next(darts))
            else:
                training.dart("S1")  # Ann: a dart thrown, no mark
                training.end_turn()
        training.finish()
        to_league(d)
        d.press("2")
        d.look()  # (the standings read first)
        d.press("\n")  # Ann
        assert d.screen.name == "player-page"
        assert "MPR, last Cricket games: 2" in d.texts  # the training game is in the trend
        assert "W" in d.texts and "L" not in d.texts  # but not in the form
        assert "Last game: 0.00" in d.texts  # the training game is the newest: no marks
        # The average is both games' marks over their darts, as the standings count
        # MPR: not the mean of the two games' MPRs, which weighs her short game as much.
        ann = store.players.find("Ann")
        games = store.league.player_games(ann.id)  # type: ignore[union-attr]
        marks, darts = sum(g.marks for g in games), sum(g.darts for g in games)
        mean = sum(g.mpr or 0 for g in games) / len(games)
        assert f"Average: {marks * 3 / darts:.2f}" in d.texts and f"{mean:.2f}" not in d.texts


def test_a_rename_on_the_kiosk_shows_in_the_list_and_the_standings(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        saved(d, "Ann", "Bob")
        rated_win(d, ["Ann", "Bob"], "Ann")
        to_league(d)
        d.press("4")  # Players
        d.press("3")  # Ann (after Add and Show retired)
        assert d.screen.name == "player-actions"
        d.press("2")  # Rename
        assert d.screen.name == "name-entry"
        d.press("...")  # delete "Ann"
        d.press("zoe\n")  # a keyboard types directly; Enter on the empty place saves
        assert d.screen.name == "player-actions"
        assert "Zoe" in d.texts and "Renamed: Zoe" in d.texts
        d.press("/")
        assert "Zoe   ·   1516" in d.texts
        d.press("/")
        d.press("2")
        assert rows(d, ["Zoe", "Ann", "Bob"]) == ["Zoe", "Bob"]


def test_a_league_game_is_chosen_from_saved_players_and_starts_rated(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        to_league(d)
        d.press("1")  # Start a rated Cricket game: the Cricket options
        assert d.screen.name == "cricket-menu"
        d.press("5")  # Choose players
        assert d.screen.name == "players"
        d.press("3")  # Start game with empty places: refused
        assert "Choose a player for every place" in d.texts
        d.press("1")  # place 1
        assert d.screen.name == "seat-chooser"
        assert "Who plays?  place 1 of 2" in d.texts, d.texts  # (not "(1)": of what?)
        d.press("2")  # New player is 1; Ann is 2
        assert d.screen.name == "seat-chooser"  # straight on to place 2
        assert "Who plays?  place 2 of 2" in d.texts, d.texts
        d.press("2")  # Bob (Ann is taken)
        assert d.screen.name == "players"
        assert "Ann" in d.texts and "Bob" in d.texts
        d.press("3")
        assert d.screen.name == "cricket"
        (game,) = store.games.unfinished()
        assert game.players == ("Ann", "Bob") and game.rated


def test_tonights_players_come_first_where_a_player_is_picked(tmp_path: Path) -> None:
    # With a league of 150 names in pages of seven, tonight's regulars were up to 20
    # presses of "More" along; they come first, then everyone by name.
    with kiosk(tmp_path) as d:
        store = saved(d, *(f"Ann {n}" for n in range(1, 10)), "Yan", "Zed")
        win_cricket(store.start_game("cricket", ["Zed", "Yan"]), 0)
        to_league(d)
        d.press("1")
        d.press("5")
        d.press("1")  # place 1
        assert d.screen.name == "seat-chooser"
        labels = [item.label for item in d.screen.items()]  # type: ignore[attr-defined]
        assert labels[1:4] == ["Yan", "Zed", "Ann 1"], labels


def rated_cricket_typed(d: Driver, *names: str) -> None:
    """From the league menu: a rated Cricket game, its players typed on a keyboard
    (each on the next place), then Start game."""
    d.press("1")  # a rated Cricket game
    d.press("5")  # Choose players
    for name in names:
        d.keyboard(f"{name}\n")
    d.press("3")  # Start game


def to_the_first_place(d: Driver) -> None:
    """From the attract screen to a Cricket game's players, place 1 chosen."""
    d.press("\n")  # attract -> main menu
    d.press("1")  # Cricket
    d.press("5")  # Choose players
    assert d.screen.name == "players"
    d.key("up")
    d.key("up")  # from "Start game" up to place 1


def test_a_retired_player_typed_for_a_league_game_is_told_how_to_bring_him_back(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        store.players.retire("Bob", True)
        to_league(d)
        rated_cricket_typed(d, "ann", "bob")
        assert d.screen.name == "players"
        assert "Bob is retired: Players \u2192 Show retired players \u2192 Bring back" in d.texts


def test_default_names_follow_a_language_change_and_never_join_the_roster(
    tmp_path: Path,
) -> None:
    with kiosk(tmp_path) as d:
        store = d.kiosk.store
        assert store is not None
        d.kiosk.set_language("uk")
        d.press("\n")  # attract -> main menu
        d.press("1")  # Cricket
        d.press("5")  # Choose players
        assert "\u0413\u0440\u0430\u0432\u0435\u0446\u044c 1" in d.texts  # "Гравець 1"
        d.press("3")  # Start game
        assert d.screen.name == "cricket"
        d.kiosk.set_language("en")  # changed in Settings during the game
        d.press("/")
        d.press("5")
        d.press("5")  # End game, twice: back to the menu
        d.press("1")  # Cricket
        d.press("5")  # Choose players: the same places, in English now
        assert "Player 1" in d.texts and "Player 2" in d.texts
        d.press("3")  # Start game
        assert d.game().players == ("Player 1", "Player 2")
        assert store.players.roster() == []  # default names are never saved players


def test_a_default_name_a_power_cut_left_a_saved_player_is_retired_at_its_next_game(
    tmp_path: Path,
) -> None:
    # The game's start adds "Player 1" and retires it in two commits: a cut between
    # them left it on every roster ("Who plays?") for good.
    with kiosk(tmp_path) as d:
        store = saved(d, "Player 1")  # (as the cut left it)
        d.press("\n")  # attract -> main menu
        d.press("1")  # Cricket
        d.press("5")  # Choose players
        d.press("3")  # Start game: Player 1 and Player 2
        assert d.game().players == ("Player 1", "Player 2")
        assert store.players.roster() == []


def test_a_formula_qualification_is_played_by_a_saved_player_and_counts(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann")
        d.press("\n")  # attract -> main menu
        d.press("2")  # Formula darts
        assert d.screen.name == "formula-menu"
        d.press("2")  # Qualification: who plays first
        assert d.screen.name == "players"
        assert "Saved players only: the result counts for the league" in d.texts
        d.press("2")  # Start game with the place empty ("Player 1" never counts): refused
        assert "Choose a player for every place" in d.texts
        d.press("1")  # the place
        d.press("2")  # New player is 1; Ann is 2
        assert d.screen.name == "players" and "Ann" in d.texts
        d.press("2")  # Start game
        assert d.screen.name == "formula"
        (game,) = store.games.unfinished()
        assert (game.kind, game.players, game.rated) == ("formula", ("Ann",), True)


def test_the_league_menu_starts_a_formula_qualification_too(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann")
        to_league(d)
        assert "Formula darts qualification" in d.texts
        d.press("5")  # the league's other rated game, where the organiser looks for it
        assert d.screen.name == "players"
        assert "Saved players only: the result counts for the league" in d.texts
        d.press("12")  # the place: Ann
        d.press("2")  # Start game
        assert d.screen.name == "formula"
        (game,) = store.games.unfinished()
        assert (game.kind, game.players, game.rated) == ("formula", ("Ann",), True)


def test_a_duel_against_the_computer_says_it_never_counts(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        d.press("\n")  # attract -> main menu
        d.press("2")  # Formula darts
        d.press("4")  # Duel against the computer: who plays first
        assert d.screen.name == "players"
        assert "Against the computer: never counts for the league" in d.texts


def test_without_a_database_the_league_menu_says_results_are_not_saved(tmp_path: Path) -> None:
    with kiosk(tmp_path, store=False) as d:
        to_league(d)
        assert "Results are not being saved: the database could not be opened" in d.texts
        d.press("2")  # greyed out: a message, no screen, no crash
        assert d.screen.name == "league-menu"


def test_in_russian_what_is_said_of_a_player_fits_anna_as_well_as_bob(tmp_path: Path) -> None:
    # "Добавлен", "Переименован", "Скрыт", "Bob скрыт" (masculine) were said of anyone.
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        store.players.retire("Bob", True)
        d.kiosk.set_language("ru")
        to_league(d)
        d.press("4")  # Players
        d.press("1")  # Add a player
        d.keyboard("zoe\n")
        assert d.screen.name == "players-list" and "Добавлено: Zoe" in d.texts, d.texts
        d.press("3")  # Ann
        d.press("2")  # Rename
        d.press("...")
        d.keyboard("ann-maria\n")
        assert "Переименовано: Ann-Maria" in d.texts, d.texts
        d.press("3")  # Retire
        assert "Скрыто: больше нет в списках выбора" in d.texts, d.texts
        d.press("/")
        d.press("2")  # Show retired players
        assert any(t.endswith("(скрыто)") for t in d.texts), d.texts
        d.press("/")
        assert d.screen.name == "league-menu", d.screen.name
        d.press("1")  # a rated Cricket game: Bob typed, who is retired
        d.press("5")
        d.keyboard("zoe\n")
        d.keyboard("bob\n")
        d.press("3")  # Start game
        assert "Bob среди скрытых: Игроки → Показать скрытых игроков → Вернуть" in d.texts


def test_in_ukrainian_a_retired_player_is_said_so_without_a_gendered_word(tmp_path: Path) -> None:
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        store.players.retire("Ann", True)
        d.kiosk.set_language("uk")
        to_league(d)
        d.press("4")  # Players
        d.press("2")  # Show retired players
        assert any(t.startswith("Ann") and t.endswith("(приховано)") for t in d.texts), d.texts


@pytest.mark.parametrize(("language", "english"), [("uk", False), ("ru", False), ("en", True)])
def test_league_nights_are_dated_as_the_kiosk_s_language_writes_dates(
    tmp_path: Path, language: str, english: bool
) -> None:
    # "Сьогодні: 2026-12-03" in Ukrainian: now 03.12.2026 (English keeps 2026-12-03).
    with kiosk(tmp_path) as d:
        store = saved(d, "Ann", "Bob")
        rated_win(d, ["Ann", "Bob"], "Ann")
        d.kiosk.set_language(language)
        iso = store.league.tonight_as_is()[0].date
        year, month, day = iso.split("-")
        shown = iso if english else f"{day}.{month}.{year}"
        t = d.kiosk.t
        to_league(d)
        assert any(x.startswith(f"{t('Tonight')}: {shown}   ·   ") for x in d.texts), d.texts
        d.press("2")  # Tonight's standings
        assert f"{t('League night')}  {shown}" in d.texts, d.texts
        assert english or not any(iso in x for x in d.texts)


@pytest.mark.parametrize(("language", "note"), [("uk", "без збереження"), ("ru", "без сохранения")])
def test_without_a_database_the_league_items_say_so_in_words_that_fit_each(
    tmp_path: Path, language: str, note: str
) -> None:
    # "Гравці (не зберігається)": a singular verb for a plural noun, and for the rest.
    with kiosk(tmp_path, store=False) as d:
        d.kiosk.set_language(language)
        to_league(d)
        t = d.kiosk.t
        for item in ("Players", "Tonight's standings", "Start a rated Cricket game"):
            assert f"{t(item)}  ({note})" in d.texts, d.texts


def test_the_tenth_line_of_a_menu_is_numbered_0_the_key_that_picks_it(tmp_path: Path) -> None:
    # It was numbered 10: a bar owner pressing 1 then 0 got "Add a player" on the 1.
    def listed() -> set[str]:
        return {t.split(" ")[1] for t in d.texts if t.startswith("Player ")}

    with kiosk(tmp_path) as d:
        saved(d, *(f"Player {n:02d}" for n in range(15)))
        to_league(d)
        d.press("4")
        assert d.screen.name == "players-list"
        first = listed()
        assert len(first) == 7 and "0" in d.texts and "10" not in d.texts, d.texts
        d.press("0")  # More: the next page
        assert d.screen.name == "players-list"
        assert len(listed()) == 7 and not listed() & first, d.texts
