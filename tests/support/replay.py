"""Replay a recorded game's frames through a learning reader, as the player fed them.

`replay`: a folder holding `profile.json` and `frames.json` (a list of
frames, each with its `png` and the `clicks` sent after it: row, col,
p_mine, opens). `recorded`: a folder `msolver play --record` wrote, read as
`msolver replay` reads it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from msolver.core.clock import FakeClock
from msolver.play.readers import reader_for
from msolver.play.record import reread
from msolver.vision.image import read_png
from msolver.vision.learning_reader import HOLD, LearningReader
from msolver.vision.profile import load_profile
from msolver.vision.reading import Reading


def replay(shots: Path) -> list[Reading]:
    """The last read of each frame, frames fed as the player fed them."""
    prof = load_profile(shots / "profile.json")
    clock = FakeClock()
    reader = LearningReader(prof, clock=clock)
    reads = []
    for frame in json.loads((shots / "frames.json").read_text()):
        image = read_png(shots / frame["png"])
        # read until a new look has held still long enough to be named
        for _ in range(int(HOLD / 0.1) + 3):
            got = reader.read(image)
            clock.sleep(0.1)
        reads.append(got)
        clicks = frame["clicks"]
        reader.sent(
            frozenset(),
            frozenset(c["row"] * prof.cols + c["col"] for c in clicks if c["p_mine"] > 0),
            frozenset(j for c in clicks for j in c["opens"]),
        )
    return reads


def recorded(folder: Path) -> list[tuple[dict[str, Any], Reading]]:
    """Each kept frame of a recorded game with its reading by a fresh reader of
    the recording's profile (`msolver.play.record.reread`, on a fake clock)."""
    clock = FakeClock()
    reader = reader_for(load_profile(folder / "profile.json"), clock=clock)
    return list(reread(folder, reader, clock.advance))


def numbers_shown(text: str) -> dict[int, int]:
    """Cell index -> number for each digit of a board written row by row (one
    line a row, any other character a cell showing no number)."""
    rows = text.split()
    return {
        r * len(line) + c: int(ch)
        for r, line in enumerate(rows)
        for c, ch in enumerate(line)
        if ch.isdigit()
    }
