/* Runs the Uno build of dartboard.ino in simavr with a simulated membrane matrix and
 * prints what the firmware sends on its serial port (raw bytes on stdout).
 *
 *   sim_board dartboard.elf MS [press ROW COL FROM_MS TO_MS]... [button I FROM_MS TO_MS]...
 *
 * Only the serial bytes go to stdout. A pressed contact (ROW, COL) pulls column COL LOW while the firmware drives row ROW
 * LOW, like the real membrane. The pin table is the sketch's default wiring (rows
 * D2-D9, columns D10-D12 A0-A4, buttons A5); change both together.
 * Build: cc -O2 -I/usr/include/simavr sim_board.c -lsimavr
 * (libsimavr-dev). Used by tests/integration/test_firmware.py.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"

typedef struct {
  char port;
  int bit;
} pin_t;

static const pin_t ROWS[] = {{'D', 2}, {'D', 3}, {'D', 4}, {'D', 5},
                             {'D', 6}, {'D', 7}, {'B', 0}, {'B', 1}};
static const pin_t COLS[] = {{'B', 2}, {'B', 3}, {'B', 4}, {'C', 0},
                             {'C', 1}, {'C', 2}, {'C', 3}, {'C', 4}};
static const pin_t BUTTONS[] = {{'C', 5}};
#define NROWS (int)(sizeof ROWS / sizeof ROWS[0])
#define NCOLS (int)(sizeof COLS / sizeof COLS[0])
#define NBUTTONS (int)(sizeof BUTTONS / sizeof BUTTONS[0])

typedef struct {
  int row, col; /* row -1: a button, col = its index */
  double from, to;
} press_t;

/* The simulation's state, for the callbacks. */
static avr_t* avr;
static press_t presses[64];
static int npresses;
static double cycles_per_ms;
static uint8_t ddr[3];  /* DDRB, DDRC, DDRD as last written (from the direction IRQ) */
static uint8_t out[3];  /* PORTB, PORTC, PORTD as last written */
static avr_irq_t* col_irq[NCOLS];
static avr_irq_t* button_irq[NBUTTONS];
static int col_level[NCOLS], button_level[NBUTTONS];
static int uart_fd = 1;

static int port_index(char port) { return port - 'B'; }

/* A row pulls its contacts' columns LOW only when it is an output with its PORT bit 0.
 * The firmware idles rows as inputs with PORT 0 and drives one by making it an output;
 * a row made an output with PORT 1 (say, left INPUT_PULLUP) drives HIGH and closes
 * nothing, as on the real membrane. */
static int row_driven_low(pin_t p) {
  const int i = port_index(p.port);
  return ((ddr[i] & ~out[i]) >> p.bit) & 1;
}

/* Recomputes every column and button level; run whenever the firmware has changed a
 * pin direction or a PORT register, i.e. at every row step of every scan. */
static void settle(void) {
  const double now = (double)avr->cycle / cycles_per_ms;
  int col_want[NCOLS], button_want[NBUTTONS];
  for (int c = 0; c < NCOLS; ++c) col_want[c] = 1;
  for (int b = 0; b < NBUTTONS; ++b) button_want[b] = 1;
  for (int i = 0; i < npresses; ++i) {
    const press_t* p = &presses[i];
    if (now < p->from || now >= p->to) continue;
    if (p->row < 0)
      button_want[p->col] = 0;
    else if (row_driven_low(ROWS[p->row]))
      col_want[p->col] = 0;
  }
  for (int c = 0; c < NCOLS; ++c)
    if (col_want[c] != col_level[c])
      avr_raise_irq(col_irq[c], (uint32_t)(col_level[c] = col_want[c]));
  for (int b = 0; b < NBUTTONS; ++b)
    if (button_want[b] != button_level[b])
      avr_raise_irq(button_irq[b], (uint32_t)(button_level[b] = button_want[b]));
}

static int dirty;

/* Raised by simavr *before* it stores DDR and refreshes that port's pins (which would
 * overwrite a level set now, on the same port), so only note it; the main loop
 * settles after the instruction. */
static void direction_changed(struct avr_irq_t* irq, uint32_t value, void* param) {
  (void)irq;
  ddr[(intptr_t)param] = (uint8_t)value;
  dirty = 1;
}

static void port_written(struct avr_irq_t* irq, uint32_t value, void* param) {
  (void)irq;
  out[(intptr_t)param] = (uint8_t)value;
  dirty = 1;
}

static void uart_out(struct avr_irq_t* irq, uint32_t value, void* param) {
  (void)irq;
  (void)param;
  const char c = (char)value;
  if (write(uart_fd, &c, 1) != 1) exit(1);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s firmware.elf MS [press R C FROM TO]... [button I FROM TO]...\n",
            argv[0]);
    return 2;
  }
  for (int i = 3; i < argc && npresses < 64;) {
    press_t p;
    if (!strcmp(argv[i], "press") && i + 4 < argc) {
      p = (press_t){atoi(argv[i + 1]), atoi(argv[i + 2]), atof(argv[i + 3]), atof(argv[i + 4])};
      i += 5;
    } else if (!strcmp(argv[i], "button") && i + 3 < argc) {
      p = (press_t){-1, atoi(argv[i + 1]), atof(argv[i + 2]), atof(argv[i + 3])};
      i += 4;
    } else {
      fprintf(stderr, "bad argument %s\n", argv[i]);
      return 2;
    }
    if (p.col < 0 || p.col >= (p.row < 0 ? NBUTTONS : NCOLS) || p.row >= NROWS) {
      fprintf(stderr, "contact out of range\n");
      return 2;
    }
    presses[npresses++] = p;
  }

  /* stdout carries the firmware's serial output only; simavr's own chatter
   * ("Loaded 4226 .text ...") goes to stderr. */
  fflush(stdout);
  uart_fd = dup(1);
  dup2(2, 1);

  elf_firmware_t f;
  memset(&f, 0, sizeof f);
  if (elf_read_firmware(argv[1], &f) != 0) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  strcpy(f.mmcu, "atmega328p");
  f.frequency = 16000000;
  avr = avr_make_mcu_by_name(f.mmcu);
  avr_init(avr);
  avr_load_firmware(avr, &f);
  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~AVR_UART_FLAG_STDIO;
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                          uart_out, NULL);

  for (int c = 0; c < NCOLS; ++c) {
    col_irq[c] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(COLS[c].port), COLS[c].bit);
    avr_raise_irq(col_irq[c], (uint32_t)(col_level[c] = 1));
  }
  for (int b = 0; b < NBUTTONS; ++b) {
    button_irq[b] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(BUTTONS[b].port), BUTTONS[b].bit);
    avr_raise_irq(button_irq[b], (uint32_t)(button_level[b] = 1));
  }
  for (char port = 'B'; port <= 'D'; ++port) {
    avr_irq_t* dir = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), IOPORT_IRQ_DIRECTION_ALL);
    avr_irq_register_notify(dir, direction_changed, (void*)(intptr_t)port_index(port));
    avr_irq_t* reg = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), IOPORT_IRQ_REG_PORT);
    avr_irq_register_notify(reg, port_written, (void*)(intptr_t)port_index(port));
  }

  const double end_ms = atof(argv[2]);
  cycles_per_ms = f.frequency / 1000.0;
  const avr_cycle_count_t end = (avr_cycle_count_t)(end_ms * cycles_per_ms);
  while (avr->cycle < end) {
    const int state = avr_run(avr);
    if (state == cpu_Done || state == cpu_Crashed) {
      fprintf(stderr, "firmware stopped (state %d)\n", state);
      return 1;
    }
    if (dirty) {
      dirty = 0;
      settle();
    }
  }
  avr_terminate(avr);
  return 0;
}
