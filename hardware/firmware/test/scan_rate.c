/* Runs a build of dartboard.ino in simavr and prints how many full matrix scans it made
 * per second: the number of times the first row pin was driven (made an output), in
 * the second half of the run (after setup). The debounce counts in dartboard.ino are
 * in scans and assume about 2000 scans a second; a loop that blocks makes a dart's
 * few milliseconds of contact too short to count.
 *
 *   scan_rate dartboard.elf MCU PORT BIT MS     e.g. atmega32u4 D 1 400 (Leonardo D2)
 *
 * Needs no serial host: the Pro Micro's USB is never enumerated here, as on a board
 * whose port no program has opened. Build: cc -O2 -I/usr/include/simavr scan_rate.c
 * -lsimavr. Used by tests/integration/test_firmware.py.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "sim_avr.h"
#include "sim_elf.h"

static int row_bit, driven, scans;

static void direction_changed(struct avr_irq_t* irq, uint32_t value, void* param) {
  (void)irq;
  (void)param;
  const int now = (int)((value >> row_bit) & 1u);
  if (now && !driven) ++scans;
  driven = now;
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s firmware.elf MCU PORT BIT MS\n", argv[0]);
    return 2;
  }
  /* stdout carries the result only; simavr's own chatter goes to stderr. */
  fflush(stdout);
  const int out = dup(1);
  dup2(2, 1);

  elf_firmware_t f;
  memset(&f, 0, sizeof f);
  if (elf_read_firmware(argv[1], &f) != 0) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  snprintf(f.mmcu, sizeof f.mmcu, "%s", argv[2]);
  f.frequency = 16000000;
  avr_t* avr = avr_make_mcu_by_name(f.mmcu);
  if (avr == NULL) return 1;
  avr_init(avr);
  avr_load_firmware(avr, &f);
  row_bit = atoi(argv[4]);
  avr_irq_register_notify(
      avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(argv[3][0]), IOPORT_IRQ_DIRECTION_ALL),
      direction_changed, NULL);

  const double ms = atof(argv[5]);
  const avr_cycle_count_t half = (avr_cycle_count_t)(ms / 2 * 16000);
  const avr_cycle_count_t end = 2 * half;
  int at_half = -1;
  while (avr->cycle < end) {
    const int state = avr_run(avr);
    if (state == cpu_Done || state == cpu_Crashed) {
      fprintf(stderr, "firmware stopped (state %d)\n", state);
      return 1;
    }
    if (at_half < 0 && avr->cycle >= half) at_half = scans;
  }
  char line[32];
  const int n = snprintf(line, sizeof line, "%d\n", (int)((scans - at_half) * 1000 / (ms / 2)));
  if (write(out, line, (size_t)n) != n) return 1;
  return 0;
}
