"""Subcommands of ``darts-kiosk``, one module each, found by ``kiosk.cli``.

A command module defines ``NAME`` (the subcommand), ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``. Modules whose name starts with
``_`` are helpers, not commands.
"""
