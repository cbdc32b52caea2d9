"""The ``darts-kiosk`` command: with no subcommand it starts the kiosk; subcommands
are the diagnostic and maintenance tools (one module each in ``kiosk.commands``)."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Sequence
from types import ModuleType

import kiosk
import kiosk.commands


def _command_modules() -> list[ModuleType]:
    mods = []
    for info in pkgutil.iter_modules(kiosk.commands.__path__):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"kiosk.commands.{info.name}"))
    return sorted(mods, key=lambda m: str(m.NAME))


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(
        prog="darts-kiosk",
        description="Darts scoreboard kiosk. With no subcommand, starts the kiosk.",
    )
    parser.add_argument("--version", action="version", version=f"darts-kiosk {kiosk.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands: dict[str, ModuleType] = {}
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        commands[mod.NAME] = mod
    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    parser, commands = build_parser()
    args, rest = parser.parse_known_args(argv)
    name = args.command or "kiosk"
    if name not in commands:
        parser.error(f"unknown command {name!r}")
    if args.command is None:
        # No subcommand: the kiosk itself, with its own options.
        sub_parser = argparse.ArgumentParser(prog="darts-kiosk")
        commands["kiosk"].add_arguments(sub_parser)
        args = sub_parser.parse_args(rest)
    elif rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return int(commands[name].run(args))
