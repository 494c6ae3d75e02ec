"""Command line: argument parsing only; each command lives with its part.

Every part registers its sub-commands through a small `register(subparsers)`
function in its own `cli` module, imported here. Those modules import their
heavy dependencies (opencv, mss, pyautogui) inside the command functions, so
`msolver solve` never pays for, or fails on, a screen library.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib import import_module

# module path -> the part of msolver that owns those commands
_PARTS = (
    "msolver.core_cli",  # solve, bench
    "msolver.vision.cli",  # calibrate, read, dryrun
    "msolver.play.cli",  # play, profiles
    "msolver.flood.cli",  # flood solve|bench|play
)

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="msolver",
        description="Minesweeper (and Flood-It) auto-player: read the screen, solve, click.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _PARTS:
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            # A part still being built must not take the others down.
            if exc.name is not None and name.startswith(exc.name):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("msolver: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
