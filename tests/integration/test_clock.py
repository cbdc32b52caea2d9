"""Whether the system clock was set from the network (``kiosk.adapters.clock``), read
as on a Pi: systemd-timesyncd's flag file, else a real ``timedatectl`` program on the
PATH (a script here, answering as systemd's does); and the league screen's warning."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.adapters import clock
from kiosk.ui.screens.date_time import said_by_clock

SLEEP = shutil.which("sleep")  # by its path: the stand-in's PATH holds only itself


def _timedatectl(tmp_path: Path, script: str) -> str:
    """A PATH holding only a ``timedatectl`` that runs ``script`` (sh)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    prog = bin_dir / "timedatectl"
    prog.write_text(f"#!/bin/sh\n{script}\n")
    prog.chmod(0o755)
    return str(bin_dir)


@pytest.fixture(autouse=True)
def no_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This machine's own files out of the way: timesyncd's flag and saved time, and the
    clock chip's flag."""
    flag = tmp_path / "run" / "synchronized"
    monkeypatch.setattr(clock, "TIMESYNCD_FLAG", flag)
    monkeypatch.setattr(clock, "RTC_AT_BOOT", tmp_path / "rtc0" / "hctosys")
    monkeypatch.setattr(clock, "RTC_NOW", tmp_path / "rtc0" / "since_epoch")
    monkeypatch.setattr(clock, "TIMESYNC_CLOCK", tmp_path / "timesync" / "clock")
    return flag


# A timedatectl as systemd's answers: network time on, the clock it was set to (nothing
# before: not known), and every call recorded. ``saved``: a time timesyncd moves the clock
# forward to when it starts again (the time it last saved, later than the one set).
TIMEDATED = """d="${0%/*}"
echo "$@" >> "$d/calls"
case "$*" in
  "show --property=NTPSynchronized --value")
    [ -f "$d/synced" ] && read -r x < "$d/synced" && echo "$x" ;;
  "show --property=NTP --value") echo yes ;;
  "show --property=TimeUSec --value")
    [ -f "$d/time" ] && read -r t < "$d/time" && echo "Tue $t UTC" ;;
  "--no-ask-password set-time "*) echo "$3" > "$d/time" ;;
  "--no-ask-password set-ntp true")
    [ -f "$d/saved" ] && read -r t < "$d/saved" && echo "$t" > "$d/time" ;;
esac
exit 0"""  # shell builtins only: some tests leave nothing else on the PATH


@pytest.mark.parametrize(
    ("script", "answer"),
    [('echo "$@" > "${0%/*}/args"; echo no', False),
     ("echo yes", True),
     ("echo 'Failed to connect to bus: Host is down' >&2; exit 1", None),  # no systemd
     ("echo maybe", None)],
)  # fmt: skip
def test_timedatectl_says_whether_the_clock_was_set_from_the_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path, script: str, answer: object
) -> None:
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, script))
    assert clock.network_time() is answer
    if answer is False:
        assert (tmp_path / "bin" / "args").read_text().split() == [
            "show", "--property=NTPSynchronized", "--value"]  # fmt: skip


def test_timesyncd_flag_means_network_a_clock_chip_battery_and_no_systemd_cannot_tell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path
) -> None:
    import time

    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert clock.network_time() is None and clock.clock_source() is None
    rtc = tmp_path / "rtc0" / "hctosys"
    rtc.parent.mkdir()
    rtc.write_text("0\n")  # a clock chip that did not set the clock at boot
    assert clock.clock_source() is None
    rtc.write_text("1\n")  # a Pi 5 with its battery, an RTC board
    chip = tmp_path / "rtc0" / "since_epoch"
    chip.write_text(f"{int(time.time())}\n")  # it kept time
    assert clock.clock_source() == "battery" and clock.network_time() is None
    chip.write_text("86400\n")  # no battery: it began again on 2 January 1970
    assert clock.clock_source() is None
    chip.write_text(f"{int(time.time())}\n")
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, "echo no"))
    assert clock.clock_source() == "battery"
    rtc.write_text("0\n")
    assert clock.clock_source() == "unset"
    no_flag.parent.mkdir()
    no_flag.touch()
    assert clock.network_time() is True and clock.clock_source() == "network"


def test_unreadable_output_is_no_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path
) -> None:
    from datetime import datetime

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, r"printf '\377\376no\n'"))
    assert clock.network_time() is None
    assert clock.set_clock(datetime(2026, 12, 1, 20, 30)) == ""  # nothing said it failed


def test_a_hung_timedatectl_is_given_up_on_in_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path
) -> None:
    import time

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, f"exec {SLEEP} 30"))
    t0 = time.monotonic()
    assert clock.network_time() is None
    assert time.monotonic() - t0 < 3 * clock.SHOW_TIMEOUT_S


def test_the_league_menu_asks_to_check_the_date_only_when_the_clock_was_not_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.e2e.test_league_screens import kiosk, to_league

    warning = "Clock not set from the network: is tonight's date right?"
    path = os.environ["PATH"]
    answer = tmp_path / "answer"
    answer.write_text("no\n")
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, f"cat {answer}") + os.pathsep + path)
    with kiosk(tmp_path) as d:
        to_league(d)
        assert warning in d.texts
        assert any("not set from the network" in r.getMessage() for r in caplog.records)
        d.press("/")  # back to the main menu; the network sets the clock; league again
        assert d.screen.name == "main-menu"
        answer.write_text("yes\n")
        d.press("3")
        assert d.screen.name == "league-menu"
        assert warning not in d.texts
        assert any(t.startswith("Tonight: ") for t in d.texts)


def _calls(tmp_path: Path) -> list[str]:
    calls = tmp_path / "bin" / "calls"
    return [c for c in calls.read_text().splitlines() if "set-" in c] if calls.exists() else []


def test_setting_the_clock_turns_network_time_off_sets_it_and_turns_it_on_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import datetime

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, TIMEDATED))
    assert clock.set_clock(datetime(2026, 12, 1, 20, 30)) == ""
    assert _calls(tmp_path) == [
        "--no-ask-password set-ntp false",
        "--no-ask-password set-time 2026-12-01 20:30:00",
        "--no-ask-password set-ntp true",
    ]


def test_network_time_that_was_off_stays_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import datetime

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, TIMEDATED.replace("echo yes", "echo no")))
    assert clock.set_clock(datetime(2026, 12, 1, 20, 30)) == ""
    assert _calls(tmp_path) == ["--no-ask-password set-time 2026-12-01 20:30:00"]


def test_a_clock_set_back_that_timesyncd_moves_forward_again_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import datetime

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, TIMEDATED))
    (tmp_path / "bin" / "saved").write_text("2027-01-01 10:00:00\n")  # a typo set once
    said = clock.set_clock(datetime(2026, 12, 1, 20, 30))
    assert said.startswith("the clock is at 2027-01-01 10:00 ")
    assert said_by_clock(_ukrainian(), said).startswith("годинник показує 2027-01-01 10:00 (")


def _ukrainian() -> Callable[[str], str]:
    from kiosk.ui.i18n import load
    from kiosk.ui.theme import assets_dir

    return load("uk", assets_dir() / "locale").gettext


def test_a_time_before_the_one_timesyncd_saved_is_refused_before_anything_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os as _os
    from datetime import datetime

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, TIMEDATED))
    saved = tmp_path / "timesync" / "clock"
    saved.parent.mkdir()
    saved.touch()
    later = datetime(2027, 1, 1, 10, 0).timestamp()
    _os.utime(saved, (later, later))  # a typo once set the clock to 2027
    said = clock.set_clock(datetime(2026, 12, 1, 20, 30))
    assert said.startswith("it cannot go back before 2027-01-01 10:00: systemd-timesyncd")
    assert _calls(tmp_path) == []
    assert said_by_clock(_ukrainian(), said) == (  # the date screen's words in Ukrainian
        "не можна повернути раніше 2027-01-01 10:00: збережений час мережі знову"
        " переставить його вперед"
    )
    assert clock.set_clock(datetime(2027, 1, 2, 9, 0)) == ""  # forward is fine


def test_a_clock_that_cannot_be_set_says_why_in_timedatectls_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import datetime

    refuse = 'case "$2" in set-time) echo "Failed to set time: Access denied" >&2; exit 1;; esac'
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, refuse + "\n" + TIMEDATED))
    assert clock.set_clock(datetime(2026, 12, 1, 20, 30)) == "Failed to set time: Access denied"
    assert _calls(tmp_path)[-1] == "--no-ask-password set-ntp true"  # network time on again
    refuse_all = 'echo "$@" >> "${0%/*}/calls"; case "$2" in set-*) exit 1;; esac; echo yes'
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, refuse_all))
    (tmp_path / "bin" / "calls").unlink()
    assert clock.set_clock(datetime(2026, 12, 1, 20, 30)) == "exit status 1"
    # set-time not tried; network time turned back on all the same (it may have gone off)
    assert _calls(tmp_path) == ["--no-ask-password set-ntp false", "--no-ask-password set-ntp true"]
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert "timedatectl not found" in clock.set_clock(datetime(2026, 12, 1, 20, 30))


def test_a_hung_timedatectl_is_given_up_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time
    from datetime import datetime

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, f"exec {SLEEP} 60"))
    for name in ("SHOW_TIMEOUT_S", "SET_TIMEOUT_S", "NTP_TIMEOUT_S"):
        monkeypatch.setattr(clock, name, 0.3)
    t0 = time.monotonic()
    assert "timed out" in clock.set_clock(datetime(2026, 12, 1, 20, 30))
    assert time.monotonic() - t0 < 5  # each call gives up at its timeout


def test_the_date_is_typed_on_the_keypad_in_settings_and_the_league_stops_asking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_flag: Path
) -> None:
    from tests.e2e.test_league_screens import kiosk

    bin_dir = _timedatectl(tmp_path, TIMEDATED)
    (tmp_path / "bin" / "synced").write_text("no\n")
    monkeypatch.setenv("PATH", bin_dir + os.pathsep + os.environ["PATH"])
    warning = "Clock not set from the network: is tonight's date right?"
    with kiosk(tmp_path, clock_setting=True) as d:
        d.press("1")  # attract: any key
        d.press("3")
        assert d.screen.name == "league-menu" and warning in d.texts
        d.press("/")
        d.press("4")  # Settings
        assert d.screen.name == "settings" and "Date and time" in d.texts
        d.press("4")
        assert d.screen.name == "date-time"
        d.look()  # (the date screen read first)
        d.press("\n")  # Enter alone: nothing set
        assert "Type the date first" in d.texts and not _calls(tmp_path)
        d.press("202613")  # month 13
        d.press("\n")
        assert any(t.startswith("Not a date: 2026-13-") for t in d.texts), d.texts
        assert not any("set-time" in c for c in _calls(tmp_path))
        d.press("..")  # the 1 and 3 back; the rest as typed
        d.press("12012030\n")
        d.wait_for(lambda: "Clock set: 2026-12-01 20:30" in d.texts, what="the clock set")
        assert "--no-ask-password set-time 2026-12-01 20:30:00" in _calls(tmp_path)
        d.wait_for(lambda: d.screen.name == "settings", what="back to the settings")
        d.press("/")  # the main menu
        d.press("3")
        assert d.screen.name == "league-menu"
        assert warning not in d.texts


def test_a_kiosk_not_run_as_the_service_offers_no_clock_setting(tmp_path: Path) -> None:
    # From a desk or a test run (as root there) it would set the machine's own clock.
    from tests.e2e.test_league_screens import kiosk

    with kiosk(tmp_path) as d:
        d.press("1")
        d.press("4")
        assert d.screen.name == "settings"
        assert "Date and time" not in d.texts and "Back" in d.texts


def test_a_clock_chip_is_trusted_unless_the_clock_is_behind_the_games_it_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A clock chip that seems to have kept time, but is behind the games the kiosk saved
    # before, which cannot be: the league asks.
    import time
    from datetime import UTC, datetime, timedelta

    from test_store_support import Clock, win_cricket

    from kiosk.adapters.store import Store
    from tests.e2e.test_league_screens import kiosk, to_league

    rtc = tmp_path / "rtc0" / "hctosys"
    rtc.parent.mkdir()
    rtc.write_text("1\n")
    (tmp_path / "rtc0" / "since_epoch").write_text(f"{int(time.time())}\n")  # it kept time
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))  # no timedatectl: no network
    warning = "Clock not set from the network: is tonight's date right?"
    for days, warned in ((-1, False), (2, True)):
        home = tmp_path / f"kiosk{days}"
        (home / "data").mkdir(parents=True)
        moment = datetime.now(UTC) + timedelta(days=days)
        with Store.open(home / "data" / "kiosk.sqlite3", clock=Clock(moment)) as store:
            for name in ("Ann", "Bob"):
                store.players.add(name)
            win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
        with kiosk(home) as d:
            to_league(d)
            assert (warning in d.texts) is warned, days


def test_a_date_far_ahead_of_the_clock_needs_enter_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A year typed wrong (2062) could not be set back from the kiosk: timesyncd saves it.
    from datetime import datetime, timedelta

    from tests.e2e.test_league_screens import kiosk

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, TIMEDATED) + os.pathsep + os.environ["PATH"])
    ahead = (datetime.now() + timedelta(days=400)).replace(hour=20, minute=30)
    digits = ahead.strftime("%Y%m%d%H%M")
    with kiosk(tmp_path, clock_setting=True) as d:
        d.press("1")
        d.press("4")
        d.press("4")
        assert d.screen.name == "date-time"
        d.press(digits + "\n")
        said = [t for t in d.texts if "ahead of the clock" in t]
        assert said and ("(days: 399)" in said[0] or "(days: 400)" in said[0]), d.texts
        assert not _calls(tmp_path)
        d.press("\n")
        d.wait_for(lambda: any(t.startswith("Clock set: ") for t in d.texts), what="set")
        assert f"--no-ask-password set-time {ahead:%Y-%m-%d %H:%M}:00" in _calls(tmp_path)


def test_a_date_before_the_last_game_saved_needs_enter_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 2025 typed for 2026: tonight's games would join a night of last year's season.
    from datetime import UTC, datetime, timedelta

    from test_store_support import Clock, win_cricket

    from kiosk.adapters.store import Store
    from tests.e2e.test_league_screens import kiosk

    monkeypatch.setenv("PATH", _timedatectl(tmp_path, TIMEDATED) + os.pathsep + os.environ["PATH"])
    (tmp_path / "data").mkdir()
    with Store.open(tmp_path / "data" / "kiosk.sqlite3", clock=Clock(datetime.now(UTC))) as store:
        for name in ("Ann", "Bob"):
            store.players.add(name)
        win_cricket(store.start_game("cricket", ["Ann", "Bob"], rated=True), 0)
    back = (datetime.now() - timedelta(days=365)).replace(hour=20, minute=30)
    with kiosk(tmp_path, clock_setting=True) as d:
        d.press("1")
        d.press("4")
        d.press("4")
        assert d.screen.name == "date-time"
        d.press(back.strftime("%Y%m%d%H%M") + "\n")
        assert "before the last game saved" in " ".join(d.texts), d.texts  # (on two lines)
        assert not _calls(tmp_path)
        d.press("\n")
        d.wait_for(lambda: any(t.startswith("Clock set: ") for t in d.texts), what="set")
        assert f"--no-ask-password set-time {back:%Y-%m-%d %H:%M}:00" in _calls(tmp_path)


def test_why_the_clock_was_not_set_keeps_its_dates_whole_on_a_small_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At 800x480 in Ukrainian the reason goes on two lines, and was cut after the
    # hyphen nearest its middle: "годинник показує 2026-12-" / "05 23:40 (...)".
    from datetime import datetime

    from tests.e2e.test_league_screens import kiosk

    today = datetime.now().strftime("%Y-%m-%d")
    monkeypatch.setenv("PATH", _timedatectl(tmp_path, TIMEDATED) + os.pathsep + os.environ["PATH"])
    (tmp_path / "bin" / "saved").write_text(f"{today} 23:40:00\n")  # later than typed
    with kiosk(tmp_path, clock_setting=True, size=(800, 480)) as d:
        d.kiosk.set_language("uk")
        d.press("1")  # attract: any key
        d.press("4")  # Settings
        d.press("4")
        assert d.screen.name == "date-time"
        d.look()
        d.press(today.replace("-", "") + "0000\n")
        d.wait_for(lambda: any("не встановлено" in t for t in d.texts), what="the answer")
        assert any(t.endswith(today) or f"{today} 23:40" in t for t in d.texts), d.texts
        assert not any(t.endswith("-") for t in d.texts), d.texts
