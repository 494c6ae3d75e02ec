"""`--log-json`: one JSON object per line, flushed as it happens.

Each event is written with a single write and flushed, so a crash or a kill
leaves every line before it whole and parseable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any


class EventLog:
    """JSON-lines event log; a no-op without a path."""

    def __init__(self, path: str | Path | None) -> None:
        self._fh: IO[str] | None = None
        if path is not None:
            # Truncate once: one file holds one session, ending in its summary.
            self._fh = open(path, "w", encoding="utf-8")  # noqa: SIM115 - lives with the log

    def write(self, **event: Any) -> None:
        if self._fh is None:
            return
        self._fh.write(json.dumps(event, separators=(", ", ": ")) + "\n")
        self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
