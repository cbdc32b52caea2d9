#!/bin/sh
# Build and run the firmware's host tests with the PC's g++ (no Arduino needed).
# Usage: hardware/firmware/test/run.sh [build-dir]   (CXX=clang++ to change compiler)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${TMPDIR:-/tmp}/darts-firmware-test}
mkdir -p "$out"
${CXX:-g++} -std=c++11 -Wall -Wextra -Werror -Wconversion -g -fsanitize=address,undefined \
    -fno-sanitize-recover=all \
    -o "$out/test_matrix" \
    "$here/test_matrix.cpp" "$here/../dartboard/matrix.cpp" "$here/../dartboard/lines.cpp"
"$out/test_matrix"
