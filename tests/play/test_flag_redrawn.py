"""A flag the game drew again otherwise is still our flag.

Recorded on the test page, a look drawn from seed 1007 (bevelled cells, CSS
triangle flags), 30x16 at 125%: after the seventh frame's click Chromium
re-rasterised the flag at (1, 0), its triangle's edges up to 12 levels off
what they were, and play stopped: "opened cells changed their look". A cell
we flagged that now shows a look not seen before is named like any new look:
the flag, as it shows only on cells we flagged.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import FLAG
from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random1007-flag-30x16"
)


def test_a_flag_drawn_again_otherwise_reads_as_the_flag() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 7
    last = readings[-1]
    assert not last.problem
    assert last.board.cells[30] == FLAG  # (1, 0)
    # the 5 the last click opened, a look not seen before: unsure between the
    # numbers that fit, the 5 its glyph's likeliest
    assert 61 in last.unsure
    best = min(range(len(last.alternatives)), key=lambda k: last.strain[k])
    assert last.alternatives[best].cells[61] == 5
