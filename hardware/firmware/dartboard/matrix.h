// Membrane matrix debouncing for the dartboard firmware.
//
// Plain C++ (no Arduino.h): the sketch scans the pins and hands each scan in as bits,
// and passes the time in; the host tests (../test/test_matrix.cpp) do the same with
// made-up scans. No heap, no STL: it must fit an ATmega328P (2 KB RAM).
#ifndef DARTS_MATRIX_H
#define DARTS_MATRIX_H

#include <stdint.h>

namespace darts {

// Largest matrix a Debouncer can take: one uint16_t of column bits per row.
const uint8_t MAX_COLS = 16;

struct DebounceConfig {
  // A contact must read closed this many scans in a row to count as a press. Shorter
  // blips (membrane bounce, electrical noise) are ignored.
  uint8_t pressScans;
  // ... and read open this many scans in a row before it is armed again. Longer than
  // pressScans on purpose: a dart makes the segment rock, and the contact chatters as
  // it springs back; re-arming on the first open scan is what makes a board "double".
  uint8_t releaseScans;
  // Closed longer than this: reported once as stuck, then ignored until released.
  // Must be below 65536 (times are kept as 16-bit milliseconds per contact).
  uint16_t stuckMs;
  // After a hit, any other contact that closes within this window is the same dart
  // (a segment flexing onto its neighbour, a ghost, two contacts settling in the same
  // scan): it is swallowed, not reported. 0 disables it.
  uint16_t lockoutMs;
};

// Defaults for the sketch's scan rate (one full scan about every 0.5 ms).
const DebounceConfig DEFAULT_DEBOUNCE = {3, 40, 2000, 80};

enum EventKind : uint8_t {
  EVENT_HIT = 1,    // the contact closed (and was armed, and no lockout)
  EVENT_STUCK = 2,  // the contact has been closed for stuckMs; ignored until released
};

struct Event {
  EventKind kind;
  uint8_t row;
  uint8_t col;
};

// Called for every event, in scan order (row by row, column by column).
typedef void (*EventSink)(void* ctx, const Event& event);

// One per contact. The caller owns the array (rows * cols of them), so the sketch's
// matrix size decides the RAM used, not a constant in here.
struct ContactState {
  uint8_t phase;   // OPEN / CLOSED / STUCK (see matrix.cpp)
  uint8_t count;   // consecutive scans that disagree with the phase
  uint16_t since;  // low 16 bits of the time the contact became CLOSED
};

class Debouncer {
 public:
  // `states` must hold rows * cols entries; cols <= MAX_COLS. `nowMs` is the start
  // time: every contact starts as "closed, already handled", so a contact that reads
  // closed at power-on is never a hit (it is reported stuck after stuckMs if it stays
  // closed), and an open one is armed after releaseScans scans.
  Debouncer(ContactState* states, uint8_t rows, uint8_t cols, const DebounceConfig& config,
            uint32_t nowMs);

  // One full scan: bit c of closedBits[r] set = contact (r, c) reads closed.
  // Calls sink for each event of this scan.
  void update(const uint16_t* closedBits, uint32_t nowMs, EventSink sink, void* ctx);

  // Number of contacts currently reported stuck (for a status LED, say).
  uint16_t stuckCount() const;

 private:
  ContactState* states_;
  uint8_t rows_;
  uint8_t cols_;
  DebounceConfig config_;
  bool hitSeen_;
  uint32_t lastHitMs_;
};

// True once every `periodMs`; the first time `periodMs` after `startMs`.
// Wrap-safe across the 49-day rollover of millis(). If the caller falls behind by more
// than a period (a long blocking write), it fires once and re-aligns instead of
// firing a burst to catch up.
class Every {
 public:
  Every(uint32_t periodMs, uint32_t startMs);
  bool due(uint32_t nowMs);

 private:
  uint32_t period_;
  uint32_t next_;
};

}  // namespace darts

#endif
