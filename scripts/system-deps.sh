#!/usr/bin/env bash
# Debian packages that some tests use: shellcheck (install.sh), the AVR toolchain
# and arduino-mk (the firmware build for the Uno), simavr (the firmware run against a
# simulated board). Installed only when missing, only as root with apt-get; otherwise
# those tests skip and say which package is missing. Never fails the build: the
# Python tests do not need any of it.
set -u
packages=(shellcheck arduino-mk arduino-core-avr gcc-avr avr-libc simavr libsimavr-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: not installing ${missing[*]} (needs root and apt-get); their tests will skip."
  exit 0
fi
echo "system-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
{ apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } >/tmp/darts-kiosk-system-deps.log 2>&1 \
  || echo "system-deps: apt-get failed (see /tmp/darts-kiosk-system-deps.log); those tests will skip."
exit 0
