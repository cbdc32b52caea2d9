#!/usr/bin/env bash
# Install darts-kiosk as a service on Raspberry Pi OS (64-bit, Bookworm or Trixie, Lite):
#   sudo ./systemd/install.sh              install, or update to this checkout; safe to rerun
#   sudo ./systemd/install.sh --uninstall  remove what it added; keeps games and settings
# Run it from a checkout of the repository: it installs that checkout.
set -euo pipefail

readonly APP=darts-kiosk
readonly KIOSK_USER=darts
readonly VENV=/opt/darts-kiosk
readonly UNIT=/etc/systemd/system/darts-kiosk.service
readonly UDEV_RULE=/etc/udev/rules.d/99-darts-kiosk.rules
# The unit allows devices by class (char-ttyUSB ...): systemd looks the classes up in
# /proc/devices when the service starts, and a class whose driver module is not
# loaded yet gets no rule, so a board plugged in later would be refused. Loaded at
# every boot, before the service.
readonly MODULES_CONF=/etc/modules-load.d/darts-kiosk.conf
readonly MODULES=(usbserial cdc_acm videodev snd drm)
# Lets the kiosk's user set the clock (Settings -> Date and time) through timedated.
readonly POLKIT_RULE=/etc/polkit-1/rules.d/50-darts-kiosk.rules
readonly CONF_DIR=/etc/darts-kiosk
readonly CONF_FILE=$CONF_DIR/kiosk.toml
# What this script changed beyond its own files, so --uninstall undoes only that.
readonly RECORD=$CONF_DIR/installed-by-install-sh
readonly DATA_DIR=/var/lib/darts-kiosk
readonly GROUPS_NEEDED=(dialout video render input audio)
# The commands on the PATH (sudo's secure_path has /usr/local/bin): the README's
# "sudo -u darts darts-kiosk ..." over SSH.
readonly COMMAND_LINK=/usr/local/bin/darts-kiosk
# pygame-ce's wheel carries SDL2 (with its KMSDRM driver) but dlopens libdrm, libgbm,
# EGL/GLES and alsa-lib (libasound.so.2) from the system; Mesa's DRI drivers drive the
# Pi's GPU. alsa-lib comes with alsa-utils: its package is libasound2 on Bookworm but
# libasound2t64 on Trixie (where "libasound2" is a virtual name with two providers,
# which apt-get refuses); alsa-utils is one name on both, and brings aplay (README).
readonly PACKAGES=(
    python3-venv
    libegl1 libgbm1 libegl-mesa0 libgles2 libdrm2 libgl1-mesa-dri
    alsa-utils libasound2-data
    fonts-dejavu-core
    polkitd
)

say() { printf '%s: %s\n' "$APP" "$*"; }
die() { printf '%s: error: %s\n' "$APP" "$*" >&2; exit 1; }

# The kernel command line is one line; these keep it one line and are idempotent.
set_consoleblank() {
    local file=$1
    if grep -qE '(^|[[:space:]])consoleblank=0([[:space:]]|$)' "$file"; then
        return 1 # already off: nothing changed
    fi
    if grep -qE '(^|[[:space:]])consoleblank=' "$file"; then
        sed -i -E 's/(^|[[:space:]])consoleblank=[^[:space:]]*/\1consoleblank=0/' "$file"
    else
        sed -i -E '1s/[[:space:]]*$/ consoleblank=0/' "$file"
    fi
}

# Takes back consoleblank=0: the value there was before (``$2``), else none at all.
unset_consoleblank() {
    local file=$1 was=${2:-}
    if [[ -n $was ]]; then
        sed -i -E "1s/(^|[[:space:]])consoleblank=0([[:space:]]|\$)/\1consoleblank=${was}\2/" "$file"
    else
        sed -i -E '1s/[[:space:]]+consoleblank=0([[:space:]]|$)/\1/; 1s/[[:space:]]+$//' "$file"
    fi
}

# The consoleblank= value on the command line now ("" when there is none).
consoleblank_value() {
    grep -oE '(^|[[:space:]])consoleblank=[^[:space:]]*' "$1" | head -n 1 | sed 's/.*=//' || true
}

find_cmdline() {
    local candidate
    for candidate in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        if [[ -f $candidate ]]; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    return 1
}

record() { printf '%s\n' "$1" >>"$RECORD"; }

repo_dir() {
    local here
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    [[ -f $here/pyproject.toml && -d $here/kiosk ]] || die "run me from a darts-kiosk checkout"
    printf '%s\n' "$here"
}

install_packages() {
    say "installing system packages: ${PACKAGES[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "darts-kiosk needs Python 3.11 or newer (Raspberry Pi OS Bookworm or later)"
}

make_user() {
    local group
    mkdir -p "$CONF_DIR"
    for group in "${GROUPS_NEEDED[@]}"; do
        if ! getent group "$group" >/dev/null; then
            groupadd --system "$group"
            record "group=$group"
        fi
    done
    if ! id -u "$KIOSK_USER" >/dev/null 2>&1; then
        say "creating the system user $KIOSK_USER"
        useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "darts-kiosk scoreboard" "$KIOSK_USER"
        record "user=$KIOSK_USER"
    fi
    # The unit gives the service these groups; the user has them too, so the commands
    # run as it over SSH (camera-calibrate, board-learn) can open the camera and board.
    usermod -a -G "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$KIOSK_USER"
}

install_venv() {
    local repo=$1 src
    say "installing the kiosk into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    # Built from a copy: a build in the checkout itself, as root, would leave root-owned
    # build/ and *.egg-info there (a later make test as the owner could not write them).
    src=$(mktemp -d)
    # shellcheck disable=SC2064  # $src is fixed now: removed however the install ends
    trap "rm -rf '$src'" EXIT
    tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=./build \
        --exclude=./.mypy_cache --exclude=./.pytest_cache --exclude=./.ruff_cache \
        --exclude=./.hypothesis --exclude="./*.egg-info" -cf - . | tar -C "$src" -xf -
    "$VENV/bin/python" -m pip install --quiet "$src"
    # Same version number, newer code (a git pull): replace the package itself too.
    "$VENV/bin/python" -m pip install --quiet --force-reinstall --no-deps "$src"
    rm -rf "$src"
    trap - EXIT
    ln -sfn "$VENV/bin/darts-kiosk" "$COMMAND_LINK"
}

install_udev_rule() {
    local repo=$1 rule=$1/hardware/udev/99-darts-kiosk.rules
    if [[ ! -f $rule ]]; then
        say "warning: $rule not found; no udev rule installed"
        return 0
    fi
    install -m 0644 "$rule" "$UDEV_RULE"
    udevadm control --reload-rules || true
    udevadm trigger --action=change --subsystem-match=tty --subsystem-match=input || true
}

install_polkit_rule() {
    local repo=$1
    # polkitd makes the folder (with its own owner and mode: left as they are).
    [[ -d $(dirname "$POLKIT_RULE") ]] || install -d -m 0755 "$(dirname "$POLKIT_RULE")"
    install -m 0644 "$repo/systemd/50-darts-kiosk.rules" "$POLKIT_RULE"
}

install_modules() {
    {
        echo "# darts-kiosk: drivers whose device classes its service allows (install.sh)"
        printf '%s\n' "${MODULES[@]}"
    } >"$MODULES_CONF"
    chmod 0644 "$MODULES_CONF"
    modprobe -a "${MODULES[@]}" 2>/dev/null || say "warning: not every driver loaded (${MODULES[*]})"
}

# Every "key = value" line commented out: the file shows the defaults without pinning
# them (a later version's new default applies; a renamed key is no error).
commented_defaults() {
    sed -E 's/^([A-Za-z_][A-Za-z0-9_]* = )/# \1/'
}

install_config() {
    if [[ -e $CONF_FILE ]]; then
        say "keeping the existing $CONF_FILE"
        "$VENV/bin/darts-kiosk" config --check "$CONF_FILE" \
            || say "warning: fix $CONF_FILE (a wrong setting is left out; a wrong data_dir stops the kiosk)"
        return 0
    fi
    local tmp
    tmp=$(mktemp)
    "$VENV/bin/darts-kiosk" config --print-defaults | commented_defaults >"$tmp"
    install -m 0644 "$tmp" "$CONF_FILE"
    rm -f "$tmp"
    say "wrote $CONF_FILE (every setting, commented)"
}

console_blanking_off() {
    local cmdline
    if ! cmdline=$(find_cmdline); then
        say "warning: no cmdline.txt (not a Raspberry Pi?); console blanking left as is"
        return 0
    fi
    local was
    was=$(consoleblank_value "$cmdline")
    if set_consoleblank "$cmdline"; then
        record "consoleblank=$cmdline"
        [[ -z $was ]] || record "consoleblank_was=$was"
        say "console blanking off from the next boot ($cmdline)"
    fi
    # And now, without a reboot.
    TERM=linux setterm --blank 0 --powerdown 0 >/dev/tty1 </dev/tty1 2>/dev/null || true
}

install_service() {
    local repo=$1
    install -m 0644 "$repo/systemd/darts-kiosk.service" "$UNIT"
    systemctl daemon-reload
    systemctl enable darts-kiosk.service
    start_service
}

# How long the install waits to see the scoreboard up: a Pi loads cv2 and numpy from
# its SD card (10-40 s), and READY=1 comes with the first frame (TimeoutStartSec=120).
START_WAIT_S=${START_WAIT_S:-120}

# The scoreboard started, and what came of it said. Not a failure of the install:
# everything is in place by now, and a Pi installed over SSH before its screen is
# plugged in starts the scoreboard once it is (systemd tries again every 2 s). A
# blocking restart ended the install in an error, after up to 120 s, in that case.
start_service() {
    local unit=darts-kiosk.service state sub job waited=0
    # restart, not start: a rerun after an update must run the new code.
    systemctl restart --no-block "$unit"
    while ((waited < START_WAIT_S * 2)); do
        sleep 0.5
        waited=$((waited + 1))
        state=$(systemctl show -p ActiveState --value "$unit")
        sub=$(systemctl show -p SubState --value "$unit")
        job=$(systemctl show -p Job --value "$unit")
        # (a job still queued: the state is the one before the restart, a last try's)
        if [[ -z $job && $state == failed ]]; then
            # Not restarted (RestartPreventExitStatus=2: a settings mistake, the journal names it)
            say "warning: everything is installed, but the scoreboard did not start, and systemd does not try again: put right what its last lines say, then: systemctl restart darts-kiosk"
            journalctl -u "$unit" -n 8 --no-pager -o cat 2>/dev/null | sed 's/^/    /' || true
            return 0
        fi
        if [[ -z $job && $sub == auto-restart ]]; then
            say "warning: everything is installed, but the scoreboard did not start; systemd tries again every 2 s."
            say "with no screen plugged in that is expected: it starts once one is. Its last lines (all: journalctl -u darts-kiosk -e):"
            journalctl -u "$unit" -n 8 --no-pager -o cat 2>/dev/null | sed 's/^/    /' || true
            return 0
        fi
        if [[ $state == active && -z $job ]]; then
            say "the scoreboard is running"
            return 0
        fi
    done
    say "warning: everything is installed, but the scoreboard is still starting after ${START_WAIT_S} s: journalctl -u darts-kiosk -f shows how it goes"
}

do_install() {
    local repo
    repo=$(repo_dir)
    install_packages
    make_user
    install_venv "$repo"
    install_udev_rule "$repo"
    install_polkit_rule "$repo"
    install_modules
    install_config
    console_blanking_off
    install_service "$repo"
    say "installed. The scoreboard takes over tty1 (the login moves to tty2 and SSH)."
    say "logs: journalctl -u darts-kiosk -f   settings: $CONF_FILE"
}

do_uninstall() {
    local line
    say "removing the service, the program, the udev rule, the clock rule and the module list; keeping $DATA_DIR and $CONF_FILE"
    if [[ -f $UNIT ]]; then
        systemctl disable --now darts-kiosk.service || true
        rm -f "$UNIT"
        systemctl daemon-reload
    fi
    if [[ -f $UDEV_RULE ]]; then
        rm -f "$UDEV_RULE"
        udevadm control --reload-rules || true
    fi
    rm -f "$MODULES_CONF" "$POLKIT_RULE"
    if [[ $(readlink "$COMMAND_LINK" 2>/dev/null) == "$VENV/bin/darts-kiosk" ]]; then
        rm -f "$COMMAND_LINK"
    fi
    rm -rf "$VENV"
    if [[ -f $RECORD ]]; then
        local was
        was=$(sed -n 's/^consoleblank_was=//p' "$RECORD" | head -n 1)
        while IFS= read -r line; do
            case $line in
                consoleblank=*) [[ -f ${line#*=} ]] && unset_consoleblank "${line#*=}" "$was" ;;
                user=*) userdel "${line#*=}" 2>/dev/null || true ;;
                group=*) groupdel "${line#*=}" 2>/dev/null || true ;;
            esac
        done <"$RECORD"
        rm -f "$RECORD"
    fi
    # The login prompt comes back on tty1.
    systemctl start getty@tty1.service 2>/dev/null || true
    say "done. The games are still in $DATA_DIR; remove it and $CONF_DIR to forget them."
}

main() {
    case ${1:-} in
        -h | --help)
            sed -n '2,5s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
            return 0
            ;;
        --uninstall | "") ;;
        *) die "unknown option ${1}; try --help" ;;
    esac
    [[ $EUID -eq 0 ]] || die "run as root: sudo $0 ${1:-}"
    if [[ ${1:-} == --uninstall ]]; then
        do_uninstall
    else
        do_install
    fi
}

# Sourced (by the tests), only the functions are defined.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
