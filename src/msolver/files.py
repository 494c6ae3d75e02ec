"""Files written whole or not at all.

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


@contextmanager
def atomic_open(path: str | os.PathLike[str], mode: Literal["w", "wb"] = "w") -> Iterator[IO[Any]]:
    """Open a stand-in for `path`; it replaces `path` when the block ends without error."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        encoding = None if "b" in mode else "utf-8"
        with open(fd, mode, encoding=encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
