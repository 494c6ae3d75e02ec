"""Read recorded games again and report any cell read for sure whose number changes.

    python -m tests.e2e.reread_recordings DIR [DIR ...]

Each DIR is searched for recordings (`msolver play --record` folders, as
`bench_battery --keep DIR --record` keeps them). Each is read again frame by
frame by a fresh reader of its profile (`msolver.play.record.reread`, on a
fake clock). An opened cell never changes in a game, so a cell read as a
number for sure (neither unsure nor unread) on one frame and as another
number for sure on a later frame of the same game is a misread on one of
them. This checks games the battery cannot: those that stop before their
end, whose mine layout no frame shows. Prints each such change and a
summary; exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from msolver.core.clock import FakeClock
from msolver.play.readers import reader_for
from msolver.play.record import PROFILE, reread
from msolver.vision.profile import load_profile


def changes(folder: Path) -> list[str]:
    """One line for each cell of `folder`'s recording read for sure as two numbers."""
    clock = FakeClock()
    reader = reader_for(load_profile(folder / PROFILE), clock=clock)
    out: list[str] = []
    first: dict[int, tuple[int, int]] = {}
    game = None
    for item, reading in reread(folder, reader, clock.advance):
        if item["game"] != game:
            game, first = item["game"], {}
        if reading.problem:
            continue
        doubt = set(reading.unsure) | set(reading.low_confidence)
        width = reading.board.width
        for i, state in enumerate(reading.board.cells):
            if state < 0 or i in doubt:
                continue
            was = first.setdefault(i, (state, item["frame"]))
            if was[0] != state:
                row, col = divmod(i, width)
                out.append(
                    f"{folder}: game {game}, row {row}, col {col}: {was[0]} on frame "
                    f"{was[1]}, {state} on frame {item['frame']}"
                )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("dirs", nargs="+", type=Path)
    args = ap.parse_args(argv)
    found = sorted({p.parent for d in args.dirs for p in d.rglob(PROFILE)})
    bad = 0
    for folder in found:
        lines = changes(folder)
        bad += len(lines)
        for line in lines:
            print(line)
    print(f"{len(found)} recordings read again: {bad} cells read for sure as two numbers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
