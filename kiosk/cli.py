"""The ``darts-kiosk`` command: with no subcommand it starts the kiosk; subcommands
are the diagnostic and maintenance tools (one module each in ``kiosk.commands``)."""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import pkgutil
import shlex
import signal
import sqlite3
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NoReturn

import kiosk
import kiosk.commands


def _command_modules() -> list[ModuleType]:
    mods = []
    for info in pkgutil.iter_modules(kiosk.commands.__path__):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"kiosk.commands.{info.name}"))
    return sorted(mods, key=lambda m: str(m.NAME))


class CommandParser(argparse.ArgumentParser):
    """A command's parser (and its actions'). argparse takes a name that starts with
    "-" (``players add -x``) for an option it does not know, and then says only that
    the name is missing; a value so (``export --season -x``), that it is missing. Said
    so, with the command line that works: the names after ``--``, the value joined to
    its option (``--season=-x``)."""

    _given: list[str]

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        given = args[0] if args else kwargs.get("args")
        self._given = list(sys.argv[1:] if given is None else given)
        return super().parse_known_args(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        super().error(message + self._dash_hint(message))

    def _dash_hint(self, message: str) -> str:
        given = getattr(self, "_given", [])
        if message.endswith(": expected one argument") and message.startswith("argument "):
            options = message.removeprefix("argument ").split(":")[0].split("/")
            for opt, value in itertools.pairwise(given):
                # (one of its own options: the value was left out, not begun with '-')
                if opt in options and value.startswith("-") and self._option(value) is None:
                    return (f"; a value that starts with '-' is joined to its option:"
                            f" {shlex.quote(f'{opt}={value}')}")  # fmt: skip
            return ""
        if not message.startswith("the following arguments are required"):
            return ""
        kept: list[str] = []  # the options it knows, with their values, as typed
        words: list[str] = []
        rest = iter(given)
        for arg in rest:
            if arg == "--":
                words += rest
                break
            action = self._option(arg)
            if action is None or not arg.startswith("-"):
                words.append(arg)
                continue
            kept.append(arg)
            if "=" not in arg and action.nargs != 0:
                kept.append(next(rest, ""))
        dashed = [w for w in words if w.startswith("-")]
        if not dashed:
            return ""
        works = shlex.join([*kept, "--", *words])
        return (
            f"; {dashed[0]} is not one of its options: a name (or another argument) that"
            f" starts with '-' goes after --, as in: {self.prog} {works}"
        )

    def _option(self, arg: str) -> argparse.Action | None:
        """The option ``arg`` names (``--opt`` or ``--opt=value``), as argparse takes it:
        also shortened to a start only it has (``--data-d`` for ``--data-dir``)."""
        name = arg.split("=", 1)[0]
        action = self._option_string_actions.get(name)
        if action is None and self.allow_abbrev and name.startswith("--"):
            found = {a for o, a in self._option_string_actions.items() if o.startswith(name)}
            action = found.pop() if len(found) == 1 else None
        return action


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(
        prog="darts-kiosk",
        description="Darts scoreboard kiosk. With no subcommand, starts the kiosk.",
        epilog=(
            "The kiosk's own options (--window, --virtual, --size WxH, --config FILE, ...):"
            " darts-kiosk kiosk --help."
        ),
    )
    parser.add_argument("--version", action="version", version=f"darts-kiosk {kiosk.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    commands: dict[str, ModuleType] = {}
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        commands[mod.NAME] = mod
    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand (or the kiosk). A command that fails on the outside world (a file
    that is not there or not a database, Ctrl-C) ends with one line on stderr and a
    non-zero exit, never a traceback: the commands catch what they expect, this is the
    net under them."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    name = args_list[0] if args_list and not args_list[0].startswith("-") else "kiosk"
    if sys.stdout is None and name != "kiosk":
        # (``players list >&-``: Python's print() to no stdout prints nothing, and the
        # command ended with 0 as if it had listed the players; the kiosk logs to stderr
        # without it)
        print(f"darts-kiosk {name}: standard output is closed (>&-): what it prints would be"
              " lost; run it with its output open (> /dev/null to throw it away)",
              file=sys.stderr)  # fmt: skip
        return 2
    _printable_anywhere()
    # Before any command loads OpenCV, which reads its size limit once, when it loads:
    # a picture too large for memory is then refused from its header, in any format.
    from kiosk.commands._picture import limit_decoding

    limit_decoding()
    try:
        code = _main(args_list)
        if sys.stdout is not None:  # (here, where a reader that has gone is caught)
            sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _reader_gone()
    except KeyboardInterrupt:
        print(f"darts-kiosk {name}: interrupted", file=sys.stderr)
        return 130
    except (OSError, sqlite3.Error, UnicodeDecodeError) as e:
        if name == "kiosk":
            raise  # the kiosk logs its own failures; a traceback in the journal helps
        print(f"darts-kiosk {name}: {_reason(e)}", file=sys.stderr)
        return 1


def _reader_gone() -> int:
    """``darts-kiosk players list | head -1``: the reader of the output has gone. Ended
    as ``cat`` ends, with no message and 141 (as killed by SIGPIPE); what is still
    buffered goes nowhere, not into "Exception ignored ... BrokenPipeError" at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 128 + signal.SIGPIPE


def _printable_anywhere() -> None:
    """A terminal or pipe whose encoding cannot spell a name (Олег on a latin-1 or an
    ASCII console) gets an escape for that letter, not a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        where = f"{e.filename}: " if e.filename is not None else ""
        return f"{where}{e.strerror}"
    if isinstance(e, UnicodeDecodeError):
        return f"not UTF-8 text ({e.reason} at byte {e.start})"
    return str(e) or type(e).__name__


def _main(args_list: list[str]) -> int:
    parser, commands = build_parser()
    if args_list and args_list[0] in commands:
        args = parser.parse_args(args_list)
        return int(commands[args.command].run(args))
    if any(a in ("-h", "--help", "--version") for a in args_list[:1]):
        parser.parse_args(args_list)  # prints and exits
    # No subcommand: the kiosk itself, with its own options (``--size 1024x600`` etc.).
    kiosk_parser = argparse.ArgumentParser(
        prog="darts-kiosk", description="Start the kiosk. Subcommands: darts-kiosk --help."
    )
    commands["kiosk"].add_arguments(kiosk_parser)
    return int(commands["kiosk"].run(kiosk_parser.parse_args(args_list)))
