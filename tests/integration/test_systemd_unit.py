"""The service unit and the install script, checked by the tools that will run them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "darts-kiosk.service"
INSTALL = ROOT / "systemd" / "install.sh"
# Exposure as systemd-analyze security scores it (0 = locked down, 10 = wide open).
# The unit measured 1.2 with systemd 252; the ceiling leaves room for scoring changes
# between systemd versions, not for removing hardening.
EXPOSURE_CEILING = 2.0

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze not installed (apt-get install systemd)",
)
needs_shellcheck = pytest.mark.skipif(
    shutil.which("shellcheck") is None,
    reason="shellcheck not installed (apt-get install shellcheck)",
)


def unit_entries() -> list[tuple[str, str, str]]:
    """(section, key, value) for every setting, in order; keys may repeat."""
    entries, section = [], ""
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        entries.append((section, key.strip(), value.strip()))
    return entries


def values(key: str) -> list[str]:
    return [value for _, k, value in unit_entries() if k == key]


@needs_analyze
def test_the_service_unit_verifies_without_a_single_warning(tmp_path: Path) -> None:
    # verify insists that ExecStart exists; on this machine nothing is installed in
    # /opt, so check a copy that differs in that one line.
    true = shutil.which("true")
    assert true is not None
    text = UNIT.read_text()
    copy_text = re.sub(r"(?m)^ExecStart=.*$", f"ExecStart={true}", text)
    changed = [a for a, b in zip(text.splitlines(), copy_text.splitlines(), strict=True) if a != b]
    assert changed == ["ExecStart=/opt/darts-kiosk/bin/darts-kiosk"]
    copy = tmp_path / "darts-kiosk.service"
    copy.write_text(copy_text)
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    # verify exits 0 even for unknown keys and bad values; its warnings are the verdict.
    assert (result.returncode, result.stderr.strip(), result.stdout.strip()) == (0, "", "")


@needs_analyze
def test_the_verify_check_would_catch_a_misspelt_setting(tmp_path: Path) -> None:
    true = shutil.which("true")
    copy = tmp_path / "darts-kiosk.service"
    text = re.sub(r"(?m)^ExecStart=.*$", f"ExecStart={true}", UNIT.read_text())
    copy.write_text(text.replace("Restart=always", "Restart=allways"))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert "restart specifier" in result.stderr


def test_the_unit_starts_the_program_that_install_sh_puts_in_place() -> None:
    venv = re.search(r"(?m)^readonly VENV=(\S+)$", INSTALL.read_text())
    assert venv is not None
    assert values("ExecStart") == [f"{venv.group(1)}/bin/darts-kiosk"]


def test_the_unit_runs_on_tty1_as_a_notify_service_with_a_watchdog() -> None:
    settings = {k: v for _, k, v in unit_entries() if k not in ("DeviceAllow", "After")}
    assert settings["Type"] == "notify"
    assert settings["NotifyAccess"] == "main"
    assert int(settings["WatchdogSec"]) >= 10
    assert settings["Restart"] == "always"
    assert settings["RestartPreventExitStatus"] == "2"  # a settings mistake stops it
    # The watchdog's SIGABRT dumps core; with systemd's unlimited default and no
    # systemd-coredump the file would land in the working directory, the games folder.
    assert settings["WatchdogSignal"] == "SIGABRT"
    assert settings["LimitCORE"] == "0"
    assert settings["WorkingDirectory"] == "%S/darts-kiosk"
    assert settings["Conflicts"] == "getty@tty1.service"
    assert settings["TTYPath"] == "/dev/tty1"
    assert settings["StandardOutput"] == "journal"
    assert settings["User"] == "darts"
    assert set(settings["SupplementaryGroups"].split()) == {
        "dialout",
        "video",
        "render",
        "input",
        "audio",
    }
    assert "SDL_VIDEODRIVER=kmsdrm" in values("Environment")
    assert settings["StateDirectory"] == settings["ConfigurationDirectory"] == "darts-kiosk"


def test_devices_are_allowed_by_class_so_a_replugged_board_still_works() -> None:
    allowed = values("DeviceAllow")
    for entry in [
        "char-ttyUSB rw",
        "char-ttyACM rw",
        "char-drm rw",
        "char-input r",
        "char-video4linux rw",
        "char-alsa rw",
    ]:
        assert entry in allowed
    # Only the fixed console may be named by path: USB devices move on a replug.
    assert sorted(a for a in allowed if a.startswith("/")) == ["/dev/tty rw", "/dev/tty1 rw"]
    assert values("DevicePolicy") == ["closed"]
    # PrivateDevices= would hide /dev/dri, /dev/input and the serial ports.
    assert values("PrivateDevices") == []


@needs_analyze
def test_the_security_exposure_stays_low() -> None:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "--offline" in result.stderr and result.returncode != 0:
        pytest.skip("this systemd-analyze has no --offline (needs systemd 250 or later)")
    found = re.search(r"Overall exposure level for darts-kiosk\.service: ([0-9.]+)", result.stdout)
    assert found is not None, result.stdout + result.stderr
    assert float(found.group(1)) <= EXPOSURE_CEILING


def test_install_sh_parses_with_bash_n() -> None:
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True)
    assert (result.returncode, result.stderr) == (0, "")


@needs_shellcheck
def test_install_sh_is_shellcheck_clean() -> None:
    result = subprocess.run(
        ["shellcheck", "--shell=bash", str(INSTALL)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout


def test_install_sh_explains_itself_and_refuses_unknown_options() -> None:
    shown = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True)
    assert shown.returncode == 0
    assert "--uninstall" in shown.stdout
    refused = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True)
    assert refused.returncode != 0
    assert "unknown option --frobnicate" in refused.stderr


def run_blank(function: str, cmdline: Path) -> str:
    script = f'source "{INSTALL}"; {function} "{cmdline}" && echo changed || echo unchanged'
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


FAKE_SYSTEMCTL = r"""#!/usr/bin/env bash
# systemctl as seen by install.sh: the unit's states, one line a poll, from $DIR/states
echo "$*" >>"$DIR/calls"
[[ $1 == show ]] || exit 0
n=$(cat "$DIR/n" 2>/dev/null || echo 0)
if [[ $3 == ActiveState ]]; then n=$((n + 1)); echo "$n" >"$DIR/n"; fi
line=$(sed -n "${n}p" "$DIR/states"); [[ -n $line ]] || line=$(tail -n 1 "$DIR/states")
read -r active sub job <<<"$line"
case $3 in
    ActiveState) echo "$active" ;;
    SubState) echo "$sub" ;;
    Job) [[ $job == - ]] || echo "$job" ;;
esac
"""


def start_service(tmp_path: Path, states: list[str], wait_s: int = 30) -> tuple[int, str, str]:
    """install.sh's ``start_service`` against a fake systemctl whose unit goes through
    ``states`` ("ActiveState SubState Job", Job "-" for none): (exit status, what it
    said, the systemctl calls)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "systemctl").write_text(FAKE_SYSTEMCTL)
    (bin_dir / "journalctl").write_text(
        "#!/bin/sh\necho 'pygame.error: no available video device'\n"
    )
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    (tmp_path / "states").write_text("\n".join(states) + "\n")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "DIR": str(tmp_path), "START_WAIT_S": str(wait_s)}
    script = f'source "{INSTALL}"; start_service'
    result = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=60, env=env
    )
    calls = (tmp_path / "calls").read_text()
    return result.returncode, result.stdout + result.stderr, calls


def test_install_says_the_scoreboard_runs_once_its_restart_is_done(tmp_path: Path) -> None:
    # The old process still active while the restart is queued is not taken for the new.
    states = ["active running 41", "activating start 41", "activating start 41", "active running -"]
    status, said, calls = start_service(tmp_path, states)
    assert status == 0 and "the scoreboard is running" in said
    assert "restart --no-block darts-kiosk.service" in calls
    assert (tmp_path / "n").read_text().strip() == "4"  # (not before the restart was done)


def test_install_with_no_screen_ends_well_and_says_why_the_scoreboard_did_not_start(
    tmp_path: Path,
) -> None:
    # A blocking restart waited up to 120 s, then ended the install in an error, though
    # everything was installed (a Pi set up over SSH before its screen is plugged in).
    status, said, _ = start_service(tmp_path, ["activating start 7", "activating auto-restart -"])
    assert status == 0, said
    assert "everything is installed, but the scoreboard did not start" in said
    assert "no available video device" in said and "journalctl -u darts-kiosk" in said


def test_install_does_not_take_the_state_before_its_restart_for_the_start(
    tmp_path: Path,
) -> None:
    # A unit left failed by the last try keeps that state while the restart job waits
    # (Job set): it is not "did not start" until no job is left.
    states = ["failed failed 41", "activating start 41", "active running -"]
    status, said, _ = start_service(tmp_path, states)
    assert status == 0 and "the scoreboard is running" in said, said
    assert "did not start" not in said


def test_install_says_a_start_systemd_does_not_try_again_is_not_tried_again(
    tmp_path: Path,
) -> None:
    # Exit status 2 (RestartPreventExitStatus): failed for good, not "again every 2 s".
    status, said, _ = start_service(tmp_path, ["activating start 7", "failed failed -"])
    assert status == 0 and "did not start" in said
    assert "tries again every 2 s" not in said and "systemctl restart darts-kiosk" in said


def test_install_does_not_wait_for_ever_for_a_slow_start(tmp_path: Path) -> None:
    status, said, _ = start_service(tmp_path, ["activating start 7"], wait_s=1)
    assert status == 0 and "still starting after 1 s" in said


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait\n",
            "console=serial0,115200 console=tty1 root=PARTUUID=1 rootwait consoleblank=0\n",
        ),
        ("console=tty1 consoleblank=600 rootwait\n", "console=tty1 consoleblank=0 rootwait\n"),
    ],
)
def test_console_blanking_is_switched_off_once_however_often_install_runs(
    tmp_path: Path, before: str, after: str
) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(before)
    assert run_blank("set_consoleblank", cmdline) == "changed"
    assert run_blank("set_consoleblank", cmdline) == "unchanged"
    assert cmdline.read_text() == after
    assert len(cmdline.read_text().splitlines()) == 1


def test_uninstall_takes_back_only_the_blanking_setting_it_added(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    original = "console=tty1 root=PARTUUID=1 rootwait quiet\n"
    cmdline.write_text(original)
    run_blank("set_consoleblank", cmdline)
    run_blank("unset_consoleblank", cmdline)
    assert cmdline.read_text() == original


# The driver that registers each allowed device class (its name in /proc/devices).
CLASS_DRIVERS = {
    "char-ttyUSB": "usbserial",
    "char-ttyACM": "cdc_acm",
    "char-video4linux": "videodev",
    "char-alsa": "snd",
    "char-drm": "drm",
}


def test_the_drivers_of_every_allowed_class_are_loaded_before_the_service() -> None:
    # systemd resolves "char-ttyUSB" from /proc/devices when the unit starts: a class
    # whose module is not loaded yet gets no rule, and a board plugged in later is
    # refused. install.sh lists the modules in modules-load.d; the unit waits for it.
    script = f'source "{INSTALL}"; printf "%s\\n" "${{MODULES[@]}}"; echo "$MODULES_CONF"'
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    *modules, conf = result.stdout.split()
    assert conf == "/etc/modules-load.d/darts-kiosk.conf"
    classes = {v.split()[0] for v in values("DeviceAllow") if v.startswith("char-")}
    assert {CLASS_DRIVERS[c] for c in classes if c in CLASS_DRIVERS} <= set(modules)
    assert classes - {"char-input"} <= set(CLASS_DRIVERS)  # input is built into the kernel
    assert "systemd-modules-load.service" in " ".join(values("After"))


def test_the_installed_config_shows_every_default_commented_out(tmp_path: Path) -> None:
    defaults = subprocess.run(
        [sys.executable, "-m", "kiosk", "config", "--print-defaults"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    script = f'source "{INSTALL}"; commented_defaults'
    result = subprocess.run(
        ["bash", "-c", script], input=defaults, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    installed = result.stdout
    keys = re.findall(r"(?m)^([a-z_]+) = ", defaults)
    assert keys and re.findall(r"(?m)^# ([a-z_]+) = ", installed) == keys
    parsed = tomllib.loads(installed)
    assert all(isinstance(v, dict) and not v for v in parsed.values())  # only empty tables
    conf = tmp_path / "kiosk.toml"
    conf.write_text(installed)
    check = subprocess.run(
        [sys.executable, "-m", "kiosk", "config", "--check", str(conf)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr


@pytest.mark.parametrize(
    "original",
    ["console=tty1 consoleblank=600 rootwait\n", "console=tty1 rootwait consoleblank=300\n"],
)
def test_uninstall_gives_back_a_blanking_time_the_owner_had_set(
    tmp_path: Path, original: str
) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(original)
    script = (
        f'source "{INSTALL}"; f="{cmdline}"; was=$(consoleblank_value "$f"); '
        'set_consoleblank "$f"; grep -q "consoleblank=0" "$f" && echo off; '
        'unset_consoleblank "$f" "$was"'
    )
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and result.stdout.strip() == "off", result.stderr
    assert cmdline.read_text() == original


POLKIT_RULE = ROOT / "systemd" / "50-darts-kiosk.rules"


def test_the_clock_rule_is_for_the_user_the_service_runs_as_and_install_sh_puts_it_in_place() -> (
    None
):
    script = (
        f'source "{INSTALL}"; echo "$KIOSK_USER $POLKIT_RULE"; printf "%s\\n" "${{PACKAGES[@]}}"'
    )
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    user, installed_at, *packages = result.stdout.split()
    assert values("User") == [user]
    assert f'subject.user === "{user}"' in POLKIT_RULE.read_text()
    assert installed_at == "/etc/polkit-1/rules.d/50-darts-kiosk.rules"
    assert "polkitd" in packages
    text = INSTALL.read_text()
    install = re.search(r"\ndo_install\(\) \{\n(.*?)\n\}\n", text, re.S)
    uninstall = re.search(r"\ndo_uninstall\(\) \{\n(.*?)\n\}\n", text, re.S)
    assert install and 'install_polkit_rule "$repo"' in install.group(1)
    assert uninstall and re.search(r'rm -f [^\n]*"\$POLKIT_RULE"', uninstall.group(1))


@pytest.mark.skipif(
    shutil.which("node") is None, reason="node not installed (the rule is JavaScript)"
)
def test_the_clock_rule_allows_setting_the_time_to_the_kiosk_user_and_nothing_else() -> None:
    # polkitd runs rules.d files as JavaScript with a ``polkit`` object; node stands in.
    harness = """
    const rules = [];
    const polkit = {Result: {YES: "yes", NO: "no", NOT_HANDLED: null},
                    addRule: (f) => rules.push(f)};
    eval(require("fs").readFileSync(process.argv[1], "utf8"));
    const ask = (id, user) => rules.map((f) => f({id}, {user})).find((r) => r !== null) ?? null;
    console.log(JSON.stringify([
      ask("org.freedesktop.timedate1.set-time", "darts"),
      ask("org.freedesktop.timedate1.set-ntp", "darts"),
      ask("org.freedesktop.timedate1.set-timezone", "darts"),
      ask("org.freedesktop.login1.reboot", "darts"),
      ask("org.freedesktop.timedate1.set-time", "pi"),
    ]));
    """
    result = subprocess.run(["node", "-e", harness, str(POLKIT_RULE)], capture_output=True,
                            text=True, timeout=30)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == '["yes","yes",null,null,null]'


# What pygame-ce's SDL2 dlopens from the system for the kiosk's path on a Pi (KMSDRM
# with EGL/GLES, sound through ALSA): each must come from a package install.sh asks
# for. alsa-lib by way of alsa-utils: "libasound2" is a real package on Bookworm but a
# virtual one with two providers on Trixie, which apt-get refuses to choose between.
SDL_SYSTEM_LIBRARIES = {
    "libEGL.so.1": {"libegl1"},
    "libGLESv2.so.2": {"libgles2"},
    "libgbm.so.1": {"libgbm1"},
    "libdrm.so.2": {"libdrm2"},
    "libasound.so.2": {"alsa-utils"},
}


def install_packages() -> list[str]:
    script = f'source "{INSTALL}"; printf "%s\\n" "${{PACKAGES[@]}}"'
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_install_sh_installs_every_library_sdl_loads_from_the_system() -> None:
    packages = install_packages()
    for soname, providers in SDL_SYSTEM_LIBRARIES.items():
        assert providers & set(packages), f"{soname}: none of {sorted(providers)} installed"
    # No package name that is only virtual on a release the README names.
    assert not {"libasound2", "libasound2t64"} & set(packages)


def test_the_system_libraries_listed_are_the_ones_the_installed_sdl_dlopens() -> None:
    import pygame

    libs = Path(pygame.__file__).resolve().parents[1] / "pygame_ce.libs"
    sdl = sorted(libs.glob("libSDL2-2*.so*"))
    if not sdl:
        pytest.skip(f"no bundled libSDL2 in {libs} (pygame-ce not from a manylinux wheel)")
    data = sdl[0].read_bytes()
    for soname in SDL_SYSTEM_LIBRARIES:
        # dlopened by this name: the wheel's own copies are renamed (libasound-<hash>),
        # so SDL's audio never finds a bundled alsa-lib.
        assert b"\0" + soname.encode() + b"\0" in data, soname
        assert not (libs / soname).exists()
