// Protocol v1 lines (board -> kiosk), formatted without Arduino.h so the host tests
// can check them. See /work/shared/spec/architecture.md, "Serial line protocol".
#ifndef DARTS_LINES_H
#define DARTS_LINES_H

#include <stdint.h>

#include "matrix.h"

namespace darts {

// A board map (board_map.h, made by ../tools/map2header.py from board-learn's JSON)
// gives each contact one byte: the kind in the top 3 bits, a number in the low 5.
// 0 = not mapped: the firmware sends `RAW r c` for it.
enum CodeKind : uint8_t {
  KIND_NONE = 0,
  KIND_SINGLE = 1,        // S<n>
  KIND_SINGLE_INNER = 2,  // S<n>i
  KIND_SINGLE_OUTER = 3,  // S<n>o
  KIND_DOUBLE = 4,        // D<n>
  KIND_TREBLE = 5,        // T<n>
  KIND_SPECIAL = 6,       // n: one of the SPECIAL_* below
};

enum Special : uint8_t {
  SPECIAL_SB = 1,
  SPECIAL_DB = 2,
  SPECIAL_MISS = 3,
  SPECIAL_BTN_NEXT = 4,
  SPECIAL_BTN_UNDO = 5,
  SPECIAL_BTN_MENU = 6,
};

constexpr uint8_t makeCode(uint8_t kind, uint8_t number) {
  return static_cast<uint8_t>((kind << 5) | (number & 0x1f));
}

// Longest line we format, terminator included ("STUCK 255 255\n" and "HELLO ...").
const uint8_t LINE_MAX = 48;

// Each writes a '\n'-terminated, NUL-terminated line into out (LINE_MAX bytes) and
// returns its length without the NUL.

// A hit on contact (row, col): the mapped line (`T20`, `S20i`, `SB`, `BTN NEXT`...)
// when code is a valid code, else `RAW r c`.
uint8_t formatHit(char* out, uint8_t row, uint8_t col, uint8_t code);

// `STUCK r c` (`STUCK r c T20` when the contact is mapped): a diagnostic outside
// protocol v1, which the kiosk logs as an unknown line and otherwise ignores.
uint8_t formatStuck(char* out, uint8_t row, uint8_t col, uint8_t code);

// `STUCK BTN NEXT` and the like, for a button on its own pin.
uint8_t formatStuckButton(char* out, uint8_t code);

// `HELLO <name> <version>`.
uint8_t formatHello(char* out, const char* name, const char* version);

}  // namespace darts

#endif
