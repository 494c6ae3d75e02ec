"""The command layer's one error and one exit-code convention.

Every command ends in one of three statuses: 0 done (or stopped by the user),
1 stopped for another reason (safety, no screen, no board), 2 bad input (a
bad option, file or profile; nothing was clicked or overwritten). A command
raises `CommandError` with one clear sentence; `main` prints it after the
command's own prefix and returns its status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

EXIT_OK = 0
EXIT_STOPPED = 1
EXIT_USAGE = 2

Handler = Callable[[argparse.Namespace], int]


class CommandError(Exception):
    """One sentence for the user and the exit status it ends with (bad input by default)."""

    def __init__(self, msg: str, code: int = EXIT_USAGE) -> None:
        super().__init__(msg)
        self.code = code


def fail(msg: str, code: int = EXIT_USAGE) -> int:
    """Print `msg` as one line on stderr; return the exit status."""
    print(msg, file=sys.stderr)
    return code


def reporting(prefix: str, handler: Handler) -> Handler:
    """`handler`, with a `CommandError` printed as '<prefix><message>' and its status returned."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except CommandError as exc:
            return fail(f"{prefix}{exc}", exc.code)

    return run


def read_text(src: str | None, what: str = "board text") -> tuple[str, str]:
    """The UTF-8 text of file `src` (stdin for None or '-') and the name to give it in errors.

    Decoded here rather than by the locale, so invalid bytes are one sentence
    and a byte-order mark (Windows Notepad writes one) is dropped.
    """
    from pathlib import Path

    if src in (None, "-"):
        where = "<stdin>"
        raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else None
        if raw is None:
            return sys.stdin.read().removeprefix("\ufeff"), where
    else:
        assert src is not None
        where = src
        p = Path(src)
        if p.is_dir():
            raise CommandError(f"{src}: is a directory, not a {what} file")
        try:
            raw = p.read_bytes()
        except FileNotFoundError:
            raise CommandError(f"{src}: cannot read {what}: no such file") from None
        except OSError as exc:
            raise CommandError(f"{src}: cannot read {what} ({exc.strerror or exc})") from exc
    try:
        return raw.decode("utf-8-sig"), where
    except UnicodeDecodeError as exc:
        raise CommandError(
            f"{where}: byte {exc.start} is not UTF-8 text ({what} must be UTF-8)"
        ) from exc
