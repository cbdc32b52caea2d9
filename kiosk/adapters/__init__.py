"""The outside world (serial board, cameras, keypad, storage), each behind a small interface."""
