"""The electronic dartboard over USB serial: a pure line parser and a reader thread."""
