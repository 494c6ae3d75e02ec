"""Files written whole or not at all, and output paths checked before the work.

A profile, a plot or a CSV is written to a temporary file beside its target
and moved over it only once complete, so a crash, a full disk or a bad
value mid-write never leaves half a file or destroys the old one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Literal


class OutputPathError(ValueError):
    """An output path that cannot be written; one sentence naming it."""


def _umask() -> int:
    # The only portable way to read the umask is to set it and set it back.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_output_path(path: str | os.PathLike[str], what: str, *, overwrite: bool = True) -> Path:
    """Raise OutputPathError unless `path` can be created (or replaced) as a file.

    Called before any long work, so a bad path costs nothing.
    """
    p = Path(path)
    if str(path) == "":
        raise OutputPathError(f"{what}: the file name is empty")
    if p.is_dir():
        raise OutputPathError(f"{what} {p}: is a directory; give a file name")
    if p.exists() and not overwrite:
        raise OutputPathError(f"{what} {p}: already exists; give a new file name or delete it")
    parent = p.parent
    if parent.exists() and not parent.is_dir():
        raise OutputPathError(f"{what} {p}: {parent} is a file, not a folder")
    if not parent.exists():
        raise OutputPathError(f"{what} {p}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"{what} {p}: folder {parent} is not writable")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputPathError(f"{what} {p}: the file is not writable")
    return p


@contextmanager
def atomic_open(path: str | os.PathLike[str], mode: Literal["w", "wb"] = "w") -> Iterator[IO[Any]]:
    """Open a stand-in for `path`; it replaces `path` when the block ends without error."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        # mkstemp makes the file 0600; the result should look like any other
        # file the user creates.
        os.chmod(tmp, 0o666 & ~_umask())
        encoding = None if "b" in mode else "utf-8"
        with open(fd, mode, encoding=encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
