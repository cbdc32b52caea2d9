// darts-kiosk dartboard firmware: scans a soft-tip board's membrane matrix and sends
// serial line protocol v1 to the kiosk (see ../../README.md and architecture.md).
//
// Boards: Arduino Uno, Nano (ATmega328P) and Pro Micro / Leonardo (ATmega32U4).
// Build: `make` in this folder (Debian's arduino-mk), or open this file in the
// Arduino IDE. The debounce logic is in matrix.cpp, tested on the PC by
// ../test/run.sh.
//
// Lines sent (115200 baud 8N1, "\n" terminated):
//   HELLO darts-kiosk-board <version>   on reset (and, on a Pro Micro, when the port opens)
//   PING                                every second
//   T20, S20i, SB, BTN NEXT ...         a hit, when board_map.h maps the contact
//   RAW r c                             a hit on a contact the map does not know
//   BTN NEXT / BTN UNDO / BTN MENU      the buttons on their own pins
//   STUCK r c [T20], STUCK BTN NEXT     diagnostic, not protocol v1 (the kiosk logs it)

#include "lines.h"
#include "matrix.h"

// A board map compiled in: put board_map.h (made from board-learn's map.json by
// ../tools/map2header.py) next to this file. Without it every hit is sent as RAW r c
// and the kiosk applies the map itself.
#if defined(__has_include)
#if __has_include("board_map.h")
#include "board_map.h"
#define HAVE_BOARD_MAP 1
#endif
#endif

// ------------------------------------------------------------------------------------
// Configuration: set these for your board and wiring.

const char FIRMWARE_NAME[] = "darts-kiosk-board";
const char FIRMWARE_VERSION[] = "1.0";
const unsigned long BAUD = 115200;

// Rows are driven LOW one at a time (the others float); columns have pull-ups and read
// LOW when a contact closes. Either tail of the membrane can be "rows". Up to 16
// columns. D0/D1 are the serial port; D13 (the LED) is avoided because the LED loads
// the line. Pro Micro: it has no D11-D13/A4/A5; use e.g. rows 2-9, cols 10,14,15,16,
// A0-A3.
const uint8_t ROW_PINS[] = {2, 3, 4, 5, 6, 7, 8, 9};
const uint8_t COL_PINS[] = {10, 11, 12, A0, A1, A2, A3, A4};

// Buttons to GND (internal pull-up), in the order NEXT, UNDO, MENU; -1 = not wired.
// Buttons wired into the matrix instead are learned with board-learn like segments.
const int BUTTON_PINS[] = {A5, -1, -1};

// One full scan every SCAN_INTERVAL_US; the debounce counts below are in scans.
const unsigned int SCAN_INTERVAL_US = 500;
const unsigned int ROW_SETTLE_US = 5;

// pressScans, releaseScans, stuckMs, lockoutMs (see matrix.h).
// Double hits: raise releaseScans (and lockoutMs). Missed darts: lower pressScans.
const darts::DebounceConfig MATRIX_DEBOUNCE = {3, 50, 2000, 80};
const darts::DebounceConfig BUTTON_DEBOUNCE = {20, 40, 10000, 0};

// ------------------------------------------------------------------------------------

const uint8_t ROWS = sizeof(ROW_PINS) / sizeof(ROW_PINS[0]);
const uint8_t COLS = sizeof(COL_PINS) / sizeof(COL_PINS[0]);
const uint8_t BUTTONS = sizeof(BUTTON_PINS) / sizeof(BUTTON_PINS[0]);
static_assert(COLS <= darts::MAX_COLS, "at most 16 columns");
static_assert(BUTTONS <= 3, "NEXT, UNDO, MENU");
#ifdef HAVE_BOARD_MAP
static_assert(BOARD_MAP_ROWS <= ROWS && BOARD_MAP_COLS <= COLS,
              "board_map.h was learned on a bigger matrix than ROW_PINS x COL_PINS");
#endif

const uint8_t BUTTON_CODES[] = {
    darts::makeCode(darts::KIND_SPECIAL, darts::SPECIAL_BTN_NEXT),
    darts::makeCode(darts::KIND_SPECIAL, darts::SPECIAL_BTN_UNDO),
    darts::makeCode(darts::KIND_SPECIAL, darts::SPECIAL_BTN_MENU),
};

darts::ContactState matrixStates[ROWS * COLS];
darts::ContactState buttonStates[BUTTONS];
// Built before setup(), when millis() is still 0.
darts::Debouncer matrix(matrixStates, ROWS, COLS, MATRIX_DEBOUNCE, 0);
darts::Debouncer buttons(buttonStates, 1, BUTTONS, BUTTON_DEBOUNCE, 0);
darts::Every heartbeat(1000, 0);
unsigned long lastScanUs;
#if defined(USBCON)
bool portWasOpen;
#endif

uint8_t codeAt(uint8_t row, uint8_t col) {
#ifdef HAVE_BOARD_MAP
  if (row < BOARD_MAP_ROWS && col < BOARD_MAP_COLS) return pgm_read_byte(&BOARD_MAP[row][col]);
#else
  (void)row;
  (void)col;
#endif
  return 0;
}

void sendHello() {
  char line[darts::LINE_MAX];
  Serial.write(line, darts::formatHello(line, FIRMWARE_NAME, FIRMWARE_VERSION));
}

void onMatrixEvent(void*, const darts::Event& e) {
  char line[darts::LINE_MAX];
  const uint8_t code = codeAt(e.row, e.col);
  const uint8_t n = e.kind == darts::EVENT_HIT ? darts::formatHit(line, e.row, e.col, code)
                                                : darts::formatStuck(line, e.row, e.col, code);
  Serial.write(line, n);  // a hit may wait for the TX buffer; it is never dropped
}

void onButtonEvent(void*, const darts::Event& e) {
  char line[darts::LINE_MAX];
  const uint8_t code = BUTTON_CODES[e.col];
  const uint8_t n = e.kind == darts::EVENT_HIT ? darts::formatHit(line, 0, e.col, code)
                                                : darts::formatStuckButton(line, code);
  Serial.write(line, n);
}

void scanMatrix(uint16_t* bits) {
  for (uint8_t r = 0; r < ROWS; ++r) {
    // PORT bit is 0 (set in setup), so OUTPUT drives LOW at once; INPUT floats again.
    // Floating, not HIGH: two closed contacts in one column would otherwise short a
    // HIGH row to the LOW one.
    pinMode(ROW_PINS[r], OUTPUT);
    delayMicroseconds(ROW_SETTLE_US);
    uint16_t b = 0;
    for (uint8_t c = 0; c < COLS; ++c) {
      if (digitalRead(COL_PINS[c]) == LOW) b |= static_cast<uint16_t>(1u << c);
    }
    pinMode(ROW_PINS[r], INPUT);
    bits[r] = b;
  }
}

uint16_t readButtons() {
  uint16_t b = 0;
  for (uint8_t i = 0; i < BUTTONS; ++i) {
    if (BUTTON_PINS[i] >= 0 && digitalRead(BUTTON_PINS[i]) == LOW) b |= 1u << i;
  }
  return b;
}

void setup() {
  for (uint8_t r = 0; r < ROWS; ++r) {
    digitalWrite(ROW_PINS[r], LOW);
    pinMode(ROW_PINS[r], INPUT);
  }
  for (uint8_t c = 0; c < COLS; ++c) pinMode(COL_PINS[c], INPUT_PULLUP);
  for (uint8_t i = 0; i < BUTTONS; ++i) {
    if (BUTTON_PINS[i] >= 0) pinMode(BUTTON_PINS[i], INPUT_PULLUP);
  }
  Serial.begin(BAUD);
  sendHello();
  lastScanUs = micros();
}

void loop() {
  const unsigned long nowUs = micros();
  if (nowUs - lastScanUs < SCAN_INTERVAL_US) return;
  lastScanUs = nowUs;
  const unsigned long now = millis();

  uint16_t bits[ROWS];
  scanMatrix(bits);
  matrix.update(bits, now, onMatrixEvent, nullptr);
  const uint16_t pressed = readButtons();
  buttons.update(&pressed, now, onButtonEvent, nullptr);

#if defined(USBCON)
  // Pro Micro: USB serial does not reset the board when the kiosk opens the port, so
  // say HELLO again then, or the kiosk never sees one. Serial.dtr(), not `if (Serial)`:
  // the core's operator bool sleeps 10 ms every call, which cut the scan rate from
  // ~1400 to ~90 a second and lost most darts.
  const bool open = Serial.dtr();
  if (open && !portWasOpen) sendHello();
  portWasOpen = open;
#endif

  if (heartbeat.due(now)) {
    // A PING may be dropped (no one listening on a Pro Micro), never wait for it.
    if (Serial.availableForWrite() >= 5) Serial.write("PING\n", 5);
  }
}
