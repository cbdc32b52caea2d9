"""Bytes from a serial board in, protocol lines out (``LineSplitter``), with a bounded
buffer: the board reader's (``reader``) and the port probe's (``ports``) splitter."""

from __future__ import annotations

from kiosk.adapters.serial_board.protocol import MAX_LINE, Hit, Unknown, overlong, parse_line


class LineSplitter:
    """Bytes in, lines out, with a bounded buffer.

    ``\\n`` and ``\\r`` both end a line (``\\r\\n`` gives one line: empty lines are
    skipped). A line longer than ``MAX_LINE`` is dropped as one ``Unknown`` as soon as
    it is known to be too long; its bytes are never kept, so a megabyte of garbage
    without a newline costs at most ``MAX_LINE`` bytes of buffer.

    Silence mid-line (``gap``) marks a seam: when the line ends, a line the protocol
    reads whole (``T2``, a pause, ``0\\n``: a slow or busy board) is one line; else the
    part before the seam was cut short (the board reset, noise at plug-in) and is an
    ``Unknown`` of its own, and the part after it a line of its own, not lost with it.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._dropping = False  # inside an over-long line: skip to the next terminator
        self._seam: int | None = None  # where silence fell in the held line: see ``gap``
        self.high_water = 0  # largest pending buffer seen (bytes), for tests and bench

    @property
    def pending(self) -> bool:
        """Part of a line is held (or an over-long one is being skipped)."""
        return bool(self._buf) or self._dropping

    @property
    def at_line_start(self) -> bool:
        """The next byte starts a line, or the part of one after a seam."""
        return not self.pending or self._seam == len(self._buf)

    def cut(self) -> Unknown | None:
        """The line held so far ends here, unended (the board went quiet mid-line: it
        was reset, or noise came): it is an ``Unknown``, and what comes next starts a
        line of its own instead of being glued to it and lost with it. None if nothing
        was held (an over-long line being skipped was said already)."""
        held, self._buf, self._dropping = bytes(self._buf), bytearray(), False
        self._seam = None
        return Unknown(describe_cut(held)) if held.strip(b" \t\x00") else None

    def gap(self) -> None:
        """Silence fell here, in the middle of the line held: see the class docstring.
        (An over-long line being skipped ends here: it was said already.)"""
        if self._dropping or not bytes(self._buf).strip(b" \t\x00"):
            self._buf.clear()
            self._dropping, self._seam = False, None
        else:
            self._seam = len(self._buf)

    def _split_at_seam(self, line: bytes) -> list[bytes | Unknown]:
        """``line`` (ended) held across a seam: one line if the protocol reads it whole,
        else the part cut short and the line after it. Read whole as other than a dart
        while the part after the seam is a dart, it is the dart: a greeting's free text
        would take the next line in ("HELLO dartboard ", silence, "T20": not version
        T20)."""
        seam, self._seam = self._seam, None
        if seam is None:
            return [line]
        whole = parse_line(line)
        if isinstance(whole, Hit) or (
            not isinstance(whole, Unknown) and not isinstance(parse_line(line[seam:]), Hit)
        ):
            return [line]
        return [Unknown(describe_cut(line[:seam])), line[seam:]]

    def feed(self, chunk: bytes) -> list[bytes | Unknown]:
        out: list[bytes | Unknown] = []
        start = 0
        n = len(chunk)
        while start < n:
            end = _next_terminator(chunk, start)
            piece = chunk[start:end] if end >= 0 else chunk[start:]
            if self._dropping:
                if end < 0:
                    break
                self._dropping = False
            elif len(self._buf) + len(piece) > self.max_line and self._seam is not None:
                # Too long read whole: the part before the seam was cut short.
                seam, self._seam = self._seam, None
                out.append(Unknown(describe_cut(bytes(self._buf[:seam]))))
                del self._buf[:seam]
                continue  # the same piece again, after the part kept
            elif len(self._buf) + len(piece) > self.max_line:
                # No terminator inside, so over MAX_LINE: an Unknown with the escaped sample.
                sample = bytes(self._buf + piece[: self.max_line + 1])[: self.max_line + 1]
                out.append(overlong(sample))
                self._buf.clear()
                self._dropping = end < 0
                if end < 0:
                    break
            elif end < 0:
                self._buf += piece
                break
            else:
                line = bytes(self._buf + piece)
                self._buf.clear()
                for item in self._split_at_seam(line):
                    if not isinstance(item, bytes) or item.strip(b" \t"):  # blank: no line
                        out.append(item)
            start = end + 1
        self.high_water = max(self.high_water, len(self._buf))
        return out


def describe_cut(held: bytes) -> str:
    """How the log shows a line cut short by silence: as sent, and that it had no end."""
    event = parse_line(held)
    text = event.text if isinstance(event, Unknown) else held.decode("ascii", "replace")
    return f"{text} (no line end, then nothing)"


def _next_terminator(chunk: bytes, start: int) -> int:
    nl = chunk.find(b"\n", start)
    cr = chunk.find(b"\r", start, nl if nl >= 0 else len(chunk))
    return cr if cr >= 0 else nl
