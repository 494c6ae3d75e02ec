"""A chord's lone 0 in the same frame as a look not named yet.

Recorded on react-minesweeper 1.0.2 (npm, a React component in Chromium) at
16x16/40 on 2026-12-07, game 4 of a session on a profile trained that day.
This game's chord opens a 0 without opening the 0's neighbours. On frame 60
the chord at (5, 10) had left a lone 0 at (6, 10) over an unopened (7, 10),
and a click at (3, 4) showed the game's first 6. The reader names nothing
from a frame with a 0 beside unopened cells (a glyph fading in reads as a 0
for a while), so the 6 stayed unread and play stopped. The player judges
such 0s (`Player._zeros_left_alone`); it now learns which 0s left the frame
unread, and tells the reader when it takes them as the game's.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import UNKNOWN
from msolver.core.clock import FakeClock
from msolver.play.readers import reader_for
from msolver.play.record import reread
from msolver.vision.image import read_png
from msolver.vision.profile import load_profile

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "react-minesweeper-16x16-chord-zero-first-six"
)
ZERO = 6 * 16 + 10
SIX = 3 * 16 + 4


def test_the_reader_says_which_zero_left_the_frame_unread_and_reads_it_once_told() -> None:
    clock = FakeClock()
    reader = reader_for(load_profile(RECORDING / "profile.json"), clock=clock)
    frames = list(reread(RECORDING, reader, clock.advance))
    item, last = frames[-1]
    assert item["frame"] == 60
    assert "still drawing" in last.problem and SIX in last.low_confidence
    assert last.zeros_open == frozenset({ZERO})
    assert last.board.cells[ZERO] == 0 and last.board.cells[ZERO + 16] == UNKNOWN
    # the frames before it were read whole
    assert all(not r.problem and not r.low_confidence for _, r in frames[:-1])

    reader.zeros_alone(frozenset({ZERO}))
    image = read_png(RECORDING / "frames" / "g004-f00060.png")
    again = reader.read(image)
    assert not again.problem and not again.low_confidence and not again.unsure
    assert again.board.cells[SIX] == 6 and again.board.cells[ZERO] == 0


def test_a_zero_not_told_still_leaves_the_frame_unread() -> None:
    # Being told of one 0 is no licence for others: a glyph fading in elsewhere
    # still reads as a frame being drawn.
    clock = FakeClock()
    reader = reader_for(load_profile(RECORDING / "profile.json"), clock=clock)
    frames = list(reread(RECORDING, reader, clock.advance))
    reader.zeros_alone(frozenset({ZERO - 16}))  # the 1 above it: not this 0
    again = reader.read(read_png(RECORDING / "frames" / "g004-f00060.png"))
    assert "still drawing" in again.problem and again.zeros_open == frozenset({ZERO})
    assert frames[-1][1].zeros_open == again.zeros_open
