"""TOML written by the kiosk: a value as TOML spells it (``toml_value``), and a file's
text with a few values set in place (``set_values``), so that what a person wrote in
it (comments, blank lines, the order, values the kiosk does not know) stays as it was.

``set_values`` edits lines; it does not parse TOML in full. The caller checks its text
by reading it back (``tomllib``) and writes the file whole when the text is not what
it meant (``None`` here: a layout it does not edit, such as a dotted key).
"""

from __future__ import annotations

import datetime
import re
import tomllib
from collections.abc import Sequence
from typing import Any

# (table, key, value): the table None for a key at the top of the file, before any table
Change = tuple[str | None, str, Any]

_HEADER = re.compile(r"\s*\[\s*([^\[\]]*?)\s*\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"\s*\[")


def toml_value(value: Any) -> str:
    """``value`` as TOML writes it: what a file held (a setting the kiosk stepped over
    too, an inline table, a date) is written back as it was read."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return toml_string(str(value))


def toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(
        f"\\u{ord(c):04x}" if (c < " " and c != "\t") or c == "\x7f" else c for c in escaped
    )
    return f'"{escaped}"'


def toml_key(key: str) -> str:
    """A bare key (``volume``), or quoted when it is not one (``"sound volume"``)."""
    return key if _bare(key) else toml_string(key)


def _bare(key: str) -> bool:
    return bool(key) and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)


def set_values(text: str, changes: Sequence[Change]) -> str | None:
    """``text`` with each change's key set to its value: on the key's own line(s) where
    it is written (a comment after it kept), else added at the end of its table, or in
    a new table at the end of the file. None where the layout is not one this edits: a
    table written twice, a key given twice, a line it cannot read."""
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += newline
    for table, key, value in changes:
        done = _set_one(lines, table, key, value, newline)
        if done is None:
            return None
        lines = done
    return "".join(lines)


def _set_one(
    lines: list[str], table: str | None, key: str, value: Any, newline: str
) -> list[str] | None:
    spans = _key_spans(lines)
    if spans is None:
        return None
    line = f"{toml_key(key)} = {toml_value(value)}"
    # (``sound.volume = 40`` at the top: the key of a table, written dotted)
    dotted = None if table is None else f"{toml_key(table)}.{line}"
    here = [(start, end, line) for t, k, start, end in spans if t == table and k == key]
    if dotted is not None:
        here += [(start, end, dotted) for t, k, start, end in spans
                 if t is None and k == f"{table}.{key}"]  # fmt: skip
        if not here:  # ``input = "virtual"``, the short form: the table's key now;
            # ``input = {source = "auto", port = "..."}``: the key set in that inline table
            here = [(start, end, _in_inline(lines[start:end], table, key, value) or dotted)
                    for t, k, start, end in spans if t is None and k == table]  # fmt: skip
    if len(here) > 1:
        return None
    if here:
        start, end, written = here[0]
        indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
        comment = _comment_after(lines[start]) if end == start + 1 else ""
        return [*lines[:start], indent + written + comment + newline, *lines[end:]]
    headers = [i for i, ln in enumerate(lines) if _ANY_HEADER.match(ln)]
    if dotted is not None and (
        ends := [end for t, k, _, end in spans if t is None and k.startswith(f"{table}.")]
    ):
        at = max(ends)  # after the table's other dotted keys
        return [*lines[:at], dotted + newline, *lines[at:]]
    if table is None:
        ends = [end for t, _, _, end in spans if t is None]
        if ends:
            at = max(ends)
        elif headers:  # before the first table, and before the comments just above it
            at = headers[0]
            while at > 0 and lines[at - 1].lstrip().startswith("#"):
                at -= 1
        else:
            at = len(lines)
        blank = [newline] if headers and not ends else []
        return [*lines[:at], line + newline, *blank, *lines[at:]]
    own = [i for i in headers if _table_name(lines[i]) == table]
    if len(own) > 1:
        return None
    if own:
        ends = [end for t, _, _, end in spans if t == table]
        at = max(ends) if ends else own[0] + 1
        return [*lines[:at], line + newline, *lines[at:]]
    gap = [newline] if lines and lines[-1].strip() else []
    return [*lines, *gap, f"[{toml_key(table)}]" + newline, line + newline]


def _key_spans(lines: list[str]) -> list[tuple[str | None, str, int, int]] | None:
    """(table, key, first line, line after its value) for each key = value in ``lines``
    (a dotted key as ``"sound.volume"``); None for a line that is neither (nor a
    comment, a blank, a table's header) or a key written in a way this does not edit
    (quoted and dotted, or deeper than one dot)."""
    spans: list[tuple[str | None, str, int, int]] = []
    table: str | None = None
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        if _ANY_HEADER.match(lines[i]):
            table = _table_name(lines[i])
            if table is None:
                return None
            i += 1
            continue
        for end in range(i + 1, len(lines) + 1):
            try:
                parsed = tomllib.loads("".join(lines[i:end]))
            except tomllib.TOMLDecodeError:
                continue
            break
        else:
            return None
        if len(parsed) != 1:
            return None
        (key,) = parsed
        head = lines[i].split("=", 1)[0].strip()
        if head not in (key, toml_string(key), f"'{key}'"):
            parts = [part.strip() for part in head.split(".")]
            if len(parts) != 2 or parts[0] != key or not all(_bare(p) for p in parts):
                return None  # a key this does not edit (quoted and dotted, deeper)
            key = ".".join(parts)  # ``sound.volume``
        spans.append((table, key, i, end))
        i = end
    return spans


def _in_inline(lines: list[str], table: str, key: str, value: Any) -> str | None:
    """``table = {...}`` with ``key`` set to ``value`` in it, for a table written inline
    (its other keys kept, so the file is edited in place, not written afresh); None for
    another value (the short form ``input = "virtual"``)."""
    inline = tomllib.loads("".join(lines))[table]
    if not isinstance(inline, dict):
        return None
    return f"{toml_key(table)} = {toml_value({**inline, key: value})}"


def _table_name(line: str) -> str | None:
    """The table a ``[header]`` line opens; None for one this does not edit (an array
    of tables, a dotted name)."""
    match = _HEADER.match(line)
    if match is None:
        return None
    name = match.group(1)
    if _bare(name):
        return name
    try:
        parsed = tomllib.loads(f"[{name}]")
    except tomllib.TOMLDecodeError:
        return None
    (only,) = parsed
    return only if parsed == {only: {}} else None


def _comment_after(line: str) -> str:
    """The comment after a one-line ``key = value``, with the space before it ("" for
    none)."""
    whole = tomllib.loads(line)
    for at in (i for i, c in enumerate(line) if c == "#"):
        try:
            if tomllib.loads(line[:at]) == whole:
                value = line[:at].rstrip()
                return line[len(value) :].rstrip("\r\n")
        except tomllib.TOMLDecodeError:
            continue
    return ""
