#include "lines.h"

namespace darts {

namespace {

// A tiny appender: no snprintf, which costs ~1.5 KB of flash on the AVR.
struct Line {
  char* buf;
  uint8_t len;

  void text(const char* s) {
    while (*s && len < LINE_MAX - 2) buf[len++] = *s++;
  }
  void number(uint8_t n) {
    char digits[3];
    uint8_t k = 0;
    do {
      digits[k++] = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n);
    while (k && len < LINE_MAX - 2) buf[len++] = digits[--k];
  }
  uint8_t end() {
    buf[len++] = '\n';
    buf[len] = '\0';
    return len;
  }
};

// Writes the mapped line for code; false if the code is not a valid one.
bool appendCode(Line& line, uint8_t code) {
  const uint8_t kind = code >> 5;
  const uint8_t n = code & 0x1f;
  if (kind >= KIND_SINGLE && kind <= KIND_TREBLE) {
    if (n < 1 || n > 20) return false;
    static const char PREFIX[] = {'S', 'S', 'S', 'D', 'T'};
    const char p[2] = {PREFIX[kind - KIND_SINGLE], '\0'};
    line.text(p);
    line.number(n);
    if (kind == KIND_SINGLE_INNER) line.text("i");
    if (kind == KIND_SINGLE_OUTER) line.text("o");
    return true;
  }
  if (kind != KIND_SPECIAL) return false;
  switch (n) {
    case SPECIAL_SB: line.text("SB"); return true;
    case SPECIAL_DB: line.text("DB"); return true;
    case SPECIAL_MISS: line.text("MISS"); return true;
    case SPECIAL_BTN_NEXT: line.text("BTN NEXT"); return true;
    case SPECIAL_BTN_UNDO: line.text("BTN UNDO"); return true;
    case SPECIAL_BTN_MENU: line.text("BTN MENU"); return true;
    default: return false;
  }
}

void appendContact(Line& line, const char* word, uint8_t row, uint8_t col) {
  line.text(word);
  line.number(row);
  line.text(" ");
  line.number(col);
}

}  // namespace

uint8_t formatHit(char* out, uint8_t row, uint8_t col, uint8_t code) {
  Line line = {out, 0};
  if (code == 0 || !appendCode(line, code)) {
    line.len = 0;
    appendContact(line, "RAW ", row, col);
  }
  return line.end();
}

uint8_t formatStuck(char* out, uint8_t row, uint8_t col, uint8_t code) {
  Line line = {out, 0};
  appendContact(line, "STUCK ", row, col);
  const uint8_t plain = line.len;
  line.text(" ");
  if (code == 0 || !appendCode(line, code)) line.len = plain;
  return line.end();
}

uint8_t formatStuckButton(char* out, uint8_t code) {
  Line line = {out, 0};
  line.text("STUCK ");
  if (!appendCode(line, code)) line.text("BTN ?");
  return line.end();
}

uint8_t formatHello(char* out, const char* name, const char* version) {
  Line line = {out, 0};
  line.text("HELLO ");
  line.text(name);
  line.text(" ");
  line.text(version);
  return line.end();
}

}  // namespace darts
