"""`msolver`: the parser of every command and the one place exit statuses leave.

Each command module of `msolver.app` registers its sub-command through a
small `register(subparsers)` function, in the order `--help` lists them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path

from msolver.app.errors import EXIT_STOPPED, EXIT_USAGE, Handler

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
    from msolver import __version__

    parser.add_argument("--version", action="version", version=f"msolver {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMANDS:
        import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        # argparse exits 2 on a bad option and 0 on --help/--version; give the
        # status back so an in-process caller (and the fuzz test) sees it.
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    if args.command in _PIXEL_COMMANDS:
        _one_blas_thread()
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("msolver: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        path = save_crash_report(argv, exc)
        where = f"; the details are in {path}" if path else ""
        print(
            f"msolver: internal error ({type(exc).__name__}: {exc}){where}; please report it",
            file=sys.stderr,
        )
        return EXIT_STOPPED


# The commands that read pixels (numpy, OpenCV); the others never load numpy.
_PIXEL_COMMANDS = frozenset(
    {"calibrate", "read", "dryrun", "play", "hint", "replay", "profiles", "flood"}
)


def _one_blas_thread() -> None:
    """Run numpy's BLAS on one thread.

    OpenBLAS starts a thread per core for every matrix product, and ours are
    small (a cell's pixels against a reference look): handing each one out
    costs more than it saves, and the threads spin on the cores the game
    draws with. Calibrating gnome-mines on a 1350x866 screen took 7.3 s
    and 12.6 s of CPU with them, 5.7 s and 7.5 s of CPU on one (docs/vision.md).
    """
    # threadpoolctl limits the libraries loaded: numpy's OpenBLAS, and the
    # one OpenCV's wheel bundles.
    import cv2  # noqa: F401
    import numpy  # noqa: F401
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def save_crash_report(argv: Sequence[str] | None, exc: BaseException) -> str | None:
    """Write the traceback under the user cache folder; its path, or None when it cannot."""
    import time
    import traceback

    from msolver import __version__

    try:
        import platformdirs

        folder = Path(platformdirs.user_cache_dir("msolver")) / "crash"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / time.strftime("crash-%Y%m%d-%H%M%S.txt")
        n = 1
        while path.exists():
            n += 1
            path = folder / time.strftime(f"crash-%Y%m%d-%H%M%S-{n}.txt")
        args = list(sys.argv[1:] if argv is None else argv)
        text = (
            f"msolver {__version__}, Python {sys.version.split()[0]}, {sys.platform}\n"
            f"arguments: {args!r}\n\n"
            + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        )
        path.write_text(text, encoding="utf-8")
        return str(path)
    except Exception:
        return None


if __name__ == "__main__":
    sys.exit(main())
