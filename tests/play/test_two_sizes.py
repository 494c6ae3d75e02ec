"""A board of cells of two pixel sizes: one digit in many looks, never named wrong.

kmines' classic theme at Qt's 175% lays its cells 15.75 px apart, 15 and 16
px wide, and draws each digit to fit its cell: the opening's 1s came in seven
looks and its 2s in three, two 1s' glyphs up to 5.8 SHAPE_TOL apart, past
the bound within which two looks were taken for one number drawn again (5).
Looks that might not share a number had to take distinct ones, which left
the true numbering out; a wrong one fitted, and the reader named the 2 at
(5, 4) a 4 for sure (play flagged three cells on it). On such a board any
two looks of one face and ink may be one number; the rules decide, and what
they cannot tell stays unsure.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import UNKNOWN
from msolver.core.clock import FakeClock
from msolver.play.readers import reader_for
from msolver.play.record import frames
from msolver.vision.image import read_png
from msolver.vision.profile import load_profile

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "kmines-classic-qt175-30x16"
)

# The opening after the first click at (3, 3), as the picture shows it (a
# person's reading of frame 2; the cells beyond it unopened).
SHOWN = {
    (0, 0): 0, (0, 1): 0, (0, 2): 0, (0, 3): 0, (0, 4): 1,
    (1, 0): 0, (1, 1): 0, (1, 2): 0, (1, 3): 0, (1, 4): 1,
    (2, 0): 0, (2, 1): 0, (2, 2): 0, (2, 3): 0, (2, 4): 1, (2, 5): 2,
    (3, 0): 0, (3, 1): 0, (3, 2): 0, (3, 3): 0, (3, 4): 0, (3, 5): 1,
    (4, 0): 1, (4, 1): 1, (4, 2): 1, (4, 3): 0, (4, 4): 1, (4, 5): 2,
    (5, 2): 1, (5, 3): 1, (5, 4): 2,
}  # fmt: skip


def test_the_opening_is_read_as_shown_or_left_unsure_on_every_read() -> None:
    clock = FakeClock()
    reader = reader_for(load_profile(RECORDING / "profile.json"), clock=clock)
    items = list(frames(RECORDING))
    reader.read(read_png(RECORDING / items[0]["png"]))
    click = items[0]["clicks"][0]
    reader.sent(frozenset(), frozenset(), frozenset(click["opens"]))
    image = read_png(RECORDING / items[1]["png"])
    sure_numbers = 0
    # The player reads a frame again and again while it holds still; each
    # read may name more looks.
    for _ in range(6):
        reading = reader.read(image)
        clock.advance(0.5)
        # a frame is named only once it has held still; until then it is unread
        if reading.problem:
            assert reading.problem == "new tiles, not yet holding still", reading.problem
            continue
        cols = reading.board.width
        doubted = set(reading.unsure) | set(reading.low_confidence)
        for i, state in enumerate(reading.board.cells):
            if i in doubted:
                continue
            where = divmod(i, cols)
            assert state == SHOWN.get(where, UNKNOWN), (where, state)
            sure_numbers += state > 0
        if doubted:
            assert any(
                all(a.cells[r * cols + c] == v for (r, c), v in SHOWN.items())
                for a in reading.alternatives
            ), "the true reading is among the alternatives"
    assert sure_numbers > 0
