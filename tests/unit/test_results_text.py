"""The results screen's reason line: the engine's English reason, translated, with
names put back as they are."""

from __future__ import annotations

from pathlib import Path

from kiosk.ui import i18n
from kiosk.ui.screens.results import mark_turns_text, reason_text

LOCALE = Path(__file__).resolve().parents[2] / "kiosk" / "assets" / "locale"


def english(text: str) -> str:
    return text


def test_a_player_named_with_an_ampersand_is_one_player() -> None:
    said = reason_text(english, "Tom & Jerry owns every target first")
    assert said == "Tom & Jerry owns every target first"


def test_a_team_takes_the_plural_verb() -> None:
    said = reason_text(english, "Anna & Chen owns every target first", team=True)
    assert said == "Anna & Chen own every target first"


def test_a_name_with_braces_is_shown_as_it_is() -> None:
    said = reason_text(english, "{how} owns every target first")
    assert said == "{how} owns every target first"


def test_the_reasons_are_translated_with_their_numbers_and_names() -> None:
    ru = i18n.load("ru", LOCALE).gettext
    assert reason_text(ru, "round limit (7) reached: a draw") == "Лимит раундов (7) исчерпан: ничья"
    said = reason_text(ru, "round limit (3) reached: Anna wins on most points")
    assert said == "Лимит раундов (3) исчерпан: Anna побеждает — больше всего очков"
    uk = i18n.load("uk", LOCALE).gettext
    said = reason_text(uk, "Anna & Chen owns every target first", team=True)
    assert said == "Anna & Chen закривають всі сектори раніше за всіх"
    said = reason_text(uk, "round limit (10) reached: Bob wins on more marks on the board")
    assert said == "Ліміт раундів (10) вичерпано: Bob перемагає — більше міток на табло"


def test_a_reason_it_does_not_know_is_shown_as_it_comes() -> None:
    assert reason_text(english, "something new") == "something new"


def test_the_5_plus_mark_turns_are_listed_best_first_one_figure_a_turn() -> None:
    none = dict.fromkeys(range(5, 10), 0)
    assert mark_turns_text(none) == "\u2013"
    assert mark_turns_text({**none, 5: 1, 7: 1, 9: 1}) == "9, 7, 5"
    assert mark_turns_text({**none, 5: 2, 6: 1}) == "6, 5, 5"
    assert mark_turns_text({**none, 5: 3, 8: 1}) == "8, 5, 5, 5"
    assert mark_turns_text({**none, 5: 4, 6: 1, 8: 1}) == "8, 6, 5 +3"  # six turns
