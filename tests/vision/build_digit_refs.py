"""Build msolver's reference digits: ``python -m tests.vision.build_digit_refs DIR...``
(or ``--fonts``: freeze OpenCV's own digits, as this build draws them, in
src/msolver/vision/digit_fonts.npz).

Every recording in the folders given (each a subfolder `msolver play --record`
wrote, with its profile.json) is read again by a fresh reader; the number
looks it named (1-8) give one reference each (`digits.glyph_box`), near
duplicates of one digit dropped. Sprite looks (kmines' signposts: the digit
is a small part of a picture) are left out. Written to
src/msolver/vision/digit_refs.npz (atomically).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from msolver.core.clock import FakeClock
from msolver.files import atomic_open
from msolver.play.readers import reader_for
from msolver.play.record import reread
from msolver.vision import digits
from msolver.vision.learning_reader import LearningReader
from msolver.vision.profile import load_profile

# Two references of one digit nearer than this add nothing.
_DUPLICATE = 0.02


def harvest(folders: list[Path]) -> list[tuple[int, np.ndarray, str]]:
    found = []
    dirs = sorted({p.parent for f in folders for p in f.glob("*/profile.json")})
    for d in dirs:
        if not (d / "frames.jsonl").exists():
            continue
        clock = FakeClock()
        reader = reader_for(load_profile(d / "profile.json"), clock=clock)
        if not isinstance(reader, LearningReader):
            continue
        for _ in reread(d, reader, clock.advance):
            pass
        for look in reader.looks:
            c = look.content
            if look.state is None or not 1 <= look.state <= 8 or c.ink is None:
                continue
            if c.sprite is not None:
                continue
            got = digits.glyph_box(look.tile, c.face, c.ink)
            if got is not None:
                found.append((look.state, got[0], d.name))
    return found


def write_fonts() -> int:
    """OpenCV's digits as this build draws them, frozen (see digits._font_references)."""
    import cv2

    drawn = digits.drawn_fonts()
    with atomic_open(digits.FONT_REFS, "wb") as f:
        np.savez_compressed(
            f,
            digits=np.array([d for d, _ in drawn], np.int8),
            boxes=np.stack([b for _, b in drawn]).astype(np.float32),
        )
    print(
        f"{len(drawn)} references drawn by OpenCV {cv2.__version__} written to {digits.FONT_REFS}"
    )
    return 0


def main() -> int:
    if sys.argv[1:] == ["--fonts"]:
        return write_fonts()
    folders = [Path(a) for a in sys.argv[1:]]
    kept: list[tuple[int, np.ndarray]] = []
    for d, box, _name in harvest(folders):
        if all(e != d or float(np.abs(b - box).mean()) > _DUPLICATE for e, b in kept):
            kept.append((d, box))
    with atomic_open(digits.REFS, "wb") as f:
        np.savez_compressed(
            f,
            digits=np.array([d for d, _ in kept], np.int8),
            boxes=np.stack([b for _, b in kept]).astype(np.float16),
        )
    counts = [int(c) for c in np.bincount([d for d, _ in kept], minlength=9)[1:]]
    print(f"{len(kept)} references written to {digits.REFS}; per digit 1-8: {list(counts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
