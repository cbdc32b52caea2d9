#include "matrix.h"

namespace darts {

namespace {

enum Phase : uint8_t {
  OPEN = 0,    // armed: the next press is a hit
  CLOSED = 1,  // pressed and already handled (hit, swallowed, or closed at power-on)
  STUCK = 2,   // closed past stuckMs and reported; silent until released
};

}  // namespace

Debouncer::Debouncer(ContactState* states, uint8_t rows, uint8_t cols,
                     const DebounceConfig& config, uint32_t nowMs)
    : states_(states),
      rows_(rows),
      cols_(cols > MAX_COLS ? MAX_COLS : cols),
      config_(config),
      hitSeen_(false),
      lastHitMs_(0) {
  for (uint16_t i = 0; i < static_cast<uint16_t>(rows_) * cols_; ++i) {
    states_[i].phase = CLOSED;
    states_[i].count = 0;
    states_[i].since = static_cast<uint16_t>(nowMs);
  }
}

void Debouncer::update(const uint16_t* closedBits, uint32_t nowMs, EventSink sink, void* ctx) {
  const uint16_t now16 = static_cast<uint16_t>(nowMs);
  ContactState* s = states_;
  for (uint8_t r = 0; r < rows_; ++r) {
    const uint16_t bits = closedBits[r];
    for (uint8_t c = 0; c < cols_; ++c, ++s) {
      const bool closed = (bits >> c) & 1u;
      if (s->phase == OPEN) {
        if (!closed) {
          s->count = 0;
          continue;
        }
        if (++s->count < config_.pressScans) continue;
        s->phase = CLOSED;
        s->count = 0;
        s->since = now16;
        // One dart, one hit: a second contact closing right after a hit (or in the same
        // scan) is the same dart. It is swallowed but still tracked as CLOSED, so it
        // cannot fire later without being released first.
        const bool locked = hitSeen_ && config_.lockoutMs > 0 &&
                            static_cast<uint32_t>(nowMs - lastHitMs_) < config_.lockoutMs;
        if (locked) continue;
        hitSeen_ = true;
        lastHitMs_ = nowMs;
        const Event e = {EVENT_HIT, r, c};
        sink(ctx, e);
        continue;
      }
      // CLOSED or STUCK: wait for a release that holds for releaseScans scans.
      if (!closed) {
        if (++s->count >= config_.releaseScans) {
          s->phase = OPEN;
          s->count = 0;
        }
        continue;
      }
      s->count = 0;
      if (s->phase == CLOSED && static_cast<uint16_t>(now16 - s->since) >= config_.stuckMs) {
        s->phase = STUCK;
        const Event e = {EVENT_STUCK, r, c};
        sink(ctx, e);
      }
    }
  }
}

uint16_t Debouncer::stuckCount() const {
  uint16_t n = 0;
  for (uint16_t i = 0; i < static_cast<uint16_t>(rows_) * cols_; ++i) {
    if (states_[i].phase == STUCK) ++n;
  }
  return n;
}

Every::Every(uint32_t periodMs, uint32_t startMs) : period_(periodMs), next_(startMs + periodMs) {}

bool Every::due(uint32_t nowMs) {
  // Signed difference: correct across the uint32_t wrap as long as calls are less than
  // ~24 days apart.
  if (static_cast<int32_t>(nowMs - next_) < 0) return false;
  next_ += period_;
  if (static_cast<int32_t>(nowMs - next_) >= 0) next_ = nowMs + period_;
  return true;
}

}  // namespace darts
