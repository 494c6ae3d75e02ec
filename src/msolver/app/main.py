"""`msolver`: the parser of every command and the one place exit statuses leave.

Each command module of `msolver.app` registers its sub-command through a
small `register(subparsers)` function, in the order `--help` lists them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from msolver.app.errors import EXIT_USAGE, Handler

_COMMANDS = (
    "msolver.app.solve",
    "msolver.app.hint",
    "msolver.app.bench",
    "msolver.app.calibrate",
    "msolver.app.read",
    "msolver.app.dryrun",
    "msolver.app.play",
    "msolver.app.replay",
    "msolver.app.profiles",
    "msolver.app.flood",  # flood solve|bench|play
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="msolver",
        description="Minesweeper (and Flood-It) auto-player: read the screen, solve, click.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMANDS:
        import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("msolver: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
