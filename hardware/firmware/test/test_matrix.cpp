// Host tests for the firmware's debounce and line formatting (no Arduino, no framework).
// Run: ./run.sh (tests/integration/test_firmware.py runs it too).
#undef NDEBUG
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "../dartboard/lines.h"
#include "../dartboard/matrix.h"

using darts::Debouncer;
using darts::DebounceConfig;
using darts::Event;

namespace {

const DebounceConfig CFG = {3, 5, 1000, 0};  // press 3 scans, release 5, stuck 1 s, no lockout
const uint8_t ROWS = 4;
const uint8_t COLS = 4;

// A matrix fed one scan per millisecond, recording every event as "HIT r c"/"STUCK r c".
struct Board {
  darts::ContactState states[ROWS * COLS];
  Debouncer deb;
  uint32_t now;
  std::vector<std::string> events;

  explicit Board(const DebounceConfig& cfg = CFG, uint32_t start = 0)
      : deb(states, ROWS, COLS, cfg, start), now(start) {
    idle(cfg.releaseScans);  // power-on settle: open contacts become armed
    events.clear();
  }

  static void sink(void* ctx, const Event& e) {
    char buf[32];
    snprintf(buf, sizeof buf, "%s %d %d", e.kind == darts::EVENT_HIT ? "HIT" : "STUCK", e.row,
             e.col);
    static_cast<Board*>(ctx)->events.push_back(buf);
  }

  // One scan with the given contacts closed ({row, col} pairs).
  void scan(std::initializer_list<std::pair<int, int>> closed) {
    uint16_t bits[ROWS] = {0, 0, 0, 0};
    for (const auto& rc : closed) bits[rc.first] = static_cast<uint16_t>(bits[rc.first] | (1u << rc.second));
    deb.update(bits, now, sink, this);
    ++now;
  }
  void hold(int r, int c, int scans) {
    for (int i = 0; i < scans; ++i) scan({{r, c}});
  }
  void idle(int scans) {
    for (int i = 0; i < scans; ++i) scan({});
  }
  std::string joined() const {
    std::string s;
    for (const auto& e : events) s += (s.empty() ? "" : ", ") + e;
    return s;
  }
};

#define EXPECT_EVENTS(board, expected)                                                        \
  do {                                                                                        \
    if ((board).joined() != (expected)) {                                                     \
      fprintf(stderr, "%s:%d: events [%s], expected [%s]\n", __FILE__, __LINE__,              \
              (board).joined().c_str(), (expected));                                          \
      assert(false);                                                                          \
    }                                                                                         \
  } while (0)

void a_press_stable_for_press_scans_is_one_hit() {
  Board b;
  b.hold(1, 2, 2);
  EXPECT_EVENTS(b, "");
  b.hold(1, 2, 1);
  EXPECT_EVENTS(b, "HIT 1 2");
  b.hold(1, 2, 20);
  b.idle(10);
  EXPECT_EVENTS(b, "HIT 1 2");
}

void bounce_shorter_than_press_scans_is_not_a_hit() {
  Board b;
  for (int i = 0; i < 50; ++i) {
    b.hold(0, 3, 2);  // closed 2 scans, open 1: never 3 in a row
    b.idle(1);
  }
  EXPECT_EVENTS(b, "");
}

void a_held_contact_is_one_hit_and_rearms_only_after_a_full_release() {
  Board b;
  b.hold(2, 1, 200);
  EXPECT_EVENTS(b, "HIT 2 1");
  // chatter on release: open for fewer than releaseScans scans, then closed again
  for (int i = 0; i < 10; ++i) {
    b.idle(4);
    b.hold(2, 1, 4);
  }
  EXPECT_EVENTS(b, "HIT 2 1");
  b.idle(5);  // a real release
  b.hold(2, 1, 3);
  EXPECT_EVENTS(b, "HIT 2 1, HIT 2 1");
}

void a_stuck_contact_is_reported_once_then_ignored_until_released() {
  Board b;
  b.hold(3, 3, 999 + 3);  // hit at scan 3, closed since then
  EXPECT_EVENTS(b, "HIT 3 3");
  b.hold(3, 3, 1);
  EXPECT_EVENTS(b, "HIT 3 3, STUCK 3 3");
  b.hold(3, 3, 5000);
  EXPECT_EVENTS(b, "HIT 3 3, STUCK 3 3");
  // other contacts still work while it is stuck
  b.scan({{3, 3}, {0, 0}});
  b.scan({{3, 3}, {0, 0}});
  b.scan({{3, 3}, {0, 0}});
  EXPECT_EVENTS(b, "HIT 3 3, STUCK 3 3, HIT 0 0");
  b.idle(5);
  b.hold(3, 3, 3);
  EXPECT_EVENTS(b, "HIT 3 3, STUCK 3 3, HIT 0 0, HIT 3 3");
}

void a_contact_closed_at_power_on_is_not_a_hit_but_is_reported_stuck() {
  darts::ContactState states[ROWS * COLS];
  Debouncer deb(states, ROWS, COLS, CFG, 0);
  std::vector<std::string> events;
  auto sink = [](void* ctx, const Event& e) {
    char buf[32];
    snprintf(buf, sizeof buf, "%s %d %d", e.kind == darts::EVENT_HIT ? "HIT" : "STUCK", e.row,
             e.col);
    static_cast<std::vector<std::string>*>(ctx)->push_back(buf);
  };
  uint16_t bits[ROWS] = {0, 1u << 2, 0, 0};
  for (uint32_t t = 0; t < 1000; ++t) deb.update(bits, t, sink, &events);
  assert(events.empty());
  deb.update(bits, 1000, sink, &events);
  assert(events.size() == 1 && events[0] == "STUCK 1 2");
  assert(deb.stuckCount() == 1);
}

void two_contacts_in_one_scan_are_both_hits_without_lockout() {
  // lockoutMs = 0: every contact reports (what a diode matrix with two real closures wants)
  Board b;
  for (int i = 0; i < 3; ++i) b.scan({{0, 1}, {2, 3}});
  EXPECT_EVENTS(b, "HIT 0 1, HIT 2 3");
}

void two_contacts_in_one_scan_are_one_dart_with_lockout() {
  // The firmware's choice: one dart, one hit. The first contact in scan order wins;
  // the other is swallowed and stays silent until it is released.
  DebounceConfig cfg = CFG;
  cfg.lockoutMs = 80;
  Board b(cfg);
  for (int i = 0; i < 3; ++i) b.scan({{0, 1}, {2, 3}});
  EXPECT_EVENTS(b, "HIT 0 1");
  b.idle(1);
  for (int i = 0; i < 200; ++i) b.scan({{2, 3}});  // long past the lockout: still silent
  EXPECT_EVENTS(b, "HIT 0 1");
  b.idle(5);
  b.hold(2, 3, 3);  // released and pressed again: a new dart
  EXPECT_EVENTS(b, "HIT 0 1, HIT 2 3");
}

void a_ghost_appearing_with_a_real_hit_is_swallowed_by_the_lockout() {
  // No diodes: with (0,0) and (0,1) held (darts resting on them), pressing (1,0) also
  // reads (1,1) closed. Both settle in the same scan; only the first one counts.
  DebounceConfig cfg = CFG;
  cfg.lockoutMs = 80;
  cfg.stuckMs = 60000;
  Board b(cfg);
  b.hold(0, 0, 3);
  for (int i = 0; i < 100; ++i) b.scan({{0, 0}, {0, 1}});
  b.events.clear();
  for (int i = 0; i < 3; ++i) b.scan({{0, 0}, {0, 1}, {1, 0}, {1, 1}});
  EXPECT_EVENTS(b, "HIT 1 0");
}

void a_second_contact_within_the_lockout_is_swallowed_and_after_it_is_a_hit() {
  DebounceConfig cfg = CFG;
  cfg.lockoutMs = 80;
  Board b(cfg);
  b.hold(1, 1, 3);  // hit at t
  b.idle(5);
  b.hold(1, 2, 3);  // neighbour settles 8 ms later: same dart
  EXPECT_EVENTS(b, "HIT 1 1");
  b.idle(100);
  b.hold(1, 2, 3);  // a later dart
  EXPECT_EVENTS(b, "HIT 1 1, HIT 1 2");
}

void debounce_keeps_working_across_the_millis_wrap() {
  DebounceConfig cfg = CFG;
  cfg.lockoutMs = 80;
  Board b(cfg, 0xFFFFFFFFu - 20);
  b.hold(0, 0, 3);  // hit 13 ms before the wrap
  EXPECT_EVENTS(b, "HIT 0 0");
  b.idle(15);
  b.hold(1, 1, 3);  // settles 5 ms after the wrap: inside the lockout
  EXPECT_EVENTS(b, "HIT 0 0");
  b.idle(100);
  b.hold(2, 2, 1100);  // a later dart, held: stuck 1 s later
  EXPECT_EVENTS(b, "HIT 0 0, HIT 2 2, STUCK 2 2");
  b.idle(5);
  b.hold(2, 2, 3);
  EXPECT_EVENTS(b, "HIT 0 0, HIT 2 2, STUCK 2 2, HIT 2 2");
}

void the_heartbeat_fires_once_a_second_and_across_the_wrap() {
  darts::Every every(1000, 0);
  int fired = 0;
  for (uint32_t t = 0; t <= 5000; ++t) fired += every.due(t);
  assert(fired == 5);
  darts::Every late(1000, 0);
  assert(!late.due(999));
  assert(late.due(1000));
  assert(!late.due(1500));
  assert(late.due(2000));
  // fell 10 s behind: fires once, then a period later, no burst
  assert(late.due(12500));
  assert(!late.due(12600));
  assert(late.due(13500));
  darts::Every wrap(1000, 0xFFFFFFFFu - 500);
  assert(!wrap.due(0xFFFFFFFFu));
  assert(wrap.due(499));
  assert(!wrap.due(1000));
  assert(wrap.due(1499));
}

std::string hit(uint8_t r, uint8_t c, uint8_t code) {
  char buf[darts::LINE_MAX];
  uint8_t n = darts::formatHit(buf, r, c, code);
  assert(n == strlen(buf));
  return buf;
}

void lines_are_protocol_v1() {
  using darts::makeCode;
  assert(hit(3, 12, 0) == "RAW 3 12\n");
  assert(hit(0, 0, 0) == "RAW 0 0\n");
  assert(hit(255, 15, 0) == "RAW 255 15\n");
  assert(hit(1, 1, makeCode(darts::KIND_TREBLE, 20)) == "T20\n");
  assert(hit(1, 1, makeCode(darts::KIND_DOUBLE, 1)) == "D1\n");
  assert(hit(1, 1, makeCode(darts::KIND_SINGLE, 7)) == "S7\n");
  assert(hit(1, 1, makeCode(darts::KIND_SINGLE_INNER, 20)) == "S20i\n");
  assert(hit(1, 1, makeCode(darts::KIND_SINGLE_OUTER, 19)) == "S19o\n");
  assert(hit(1, 1, makeCode(darts::KIND_SPECIAL, darts::SPECIAL_SB)) == "SB\n");
  assert(hit(1, 1, makeCode(darts::KIND_SPECIAL, darts::SPECIAL_DB)) == "DB\n");
  assert(hit(1, 1, makeCode(darts::KIND_SPECIAL, darts::SPECIAL_MISS)) == "MISS\n");
  assert(hit(1, 1, makeCode(darts::KIND_SPECIAL, darts::SPECIAL_BTN_NEXT)) == "BTN NEXT\n");
  assert(hit(1, 1, makeCode(darts::KIND_SPECIAL, darts::SPECIAL_BTN_UNDO)) == "BTN UNDO\n");
  assert(hit(1, 1, makeCode(darts::KIND_SPECIAL, darts::SPECIAL_BTN_MENU)) == "BTN MENU\n");
  // a corrupt map byte never sends a wrong segment: it falls back to RAW
  assert(hit(2, 5, makeCode(darts::KIND_TREBLE, 21)) == "RAW 2 5\n");
  assert(hit(2, 5, makeCode(darts::KIND_TREBLE, 0)) == "RAW 2 5\n");
  assert(hit(2, 5, makeCode(7, 3)) == "RAW 2 5\n");
  assert(hit(2, 5, makeCode(darts::KIND_SPECIAL, 9)) == "RAW 2 5\n");

  char buf[darts::LINE_MAX];
  darts::formatStuck(buf, 4, 9, 0);
  assert(std::string(buf) == "STUCK 4 9\n");
  darts::formatStuck(buf, 4, 9, makeCode(darts::KIND_TREBLE, 5));
  assert(std::string(buf) == "STUCK 4 9 T5\n");
  darts::formatStuck(buf, 4, 9, makeCode(darts::KIND_TREBLE, 25));
  assert(std::string(buf) == "STUCK 4 9\n");
  darts::formatStuckButton(buf, makeCode(darts::KIND_SPECIAL, darts::SPECIAL_BTN_UNDO));
  assert(std::string(buf) == "STUCK BTN UNDO\n");
  darts::formatHello(buf, "darts-kiosk-board", "1.0");
  assert(std::string(buf) == "HELLO darts-kiosk-board 1.0\n");
  // an over-long name is cut, never overflows the buffer
  std::string huge(200, 'x');
  uint8_t n = darts::formatHello(buf, huge.c_str(), "1.0");
  assert(n == darts::LINE_MAX - 1 && buf[n - 1] == '\n' && buf[n] == '\0');
}

}  // namespace

int main() {
  a_press_stable_for_press_scans_is_one_hit();
  bounce_shorter_than_press_scans_is_not_a_hit();
  a_held_contact_is_one_hit_and_rearms_only_after_a_full_release();
  a_stuck_contact_is_reported_once_then_ignored_until_released();
  a_contact_closed_at_power_on_is_not_a_hit_but_is_reported_stuck();
  two_contacts_in_one_scan_are_both_hits_without_lockout();
  two_contacts_in_one_scan_are_one_dart_with_lockout();
  a_ghost_appearing_with_a_real_hit_is_swallowed_by_the_lockout();
  a_second_contact_within_the_lockout_is_swallowed_and_after_it_is_a_hit();
  debounce_keeps_working_across_the_millis_wrap();
  the_heartbeat_fires_once_a_second_and_across_the_wrap();
  lines_are_protocol_v1();
  puts("test_matrix: all passed");
  return 0;
}
