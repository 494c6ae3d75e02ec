"""A first opening that shows one number in many looks is read, not refused.

kmines' default theme, Medium (16x16), under Qt's 125%: opened cells are
translucent over the window's gradient and the digits are scaled by whole
pixels, so a big first opening showed 19 new looks: the 1s in eight (phases
and shades), the 2s in five, the 3s in three. Three faults stopped it, each
mended at its mechanism:

- counted look by look, 19 looks were "too many new looks"; they are 6 kinds
  (looks that may be one number drawn again are one kind, `_joined`);
- the numberings were refused as "30720 ways to number the new looks" (the
  product of each look's candidates); the search now drops a partial
  numbering no completion can fit and finds the few that do
  (`naming._search`);
- the 3 at row 12, col 9 is orange on a darker shade of grey; its face, the
  median of its inside, was pulled apart per channel by the glyph's edge
  pixels to (170, 168, 161), a hue no shade of grey has, so it was no shade
  of the other 3s and no numbering fitted. The face is now taken from the
  pixels well apart from the ink (`contentbatch.face_apart`): (173, 173, 173).
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "kmines-default-qt125-16x16-opening"
)

# frame 2 as the picture shows it (a person's reading)
SHOWN = """\
........102.....
.1113...202.....
.1003...20111...
.1002.3110001...
.100111000001...
.10000001110112.
.11110001.100011
....101121100000
....101.10000011
....101.1000002.
....211.2100124.
.........1001...
.........3101...
..........111...
................
................"""


def test_the_first_opening_reads_as_shown() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 2
    second = readings[1]
    assert second.problem == ""
    assert second.board.to_text() == SHOWN
    # the 4 is the one number no rule tells yet (4 or 5): unsure, its reading kept
    cols = second.board.width
    assert sorted(divmod(i, cols) for i in second.unsure) == [(10, 14)]
    assert any(a.to_text() == SHOWN for a in second.alternatives)
