"""A flag our second click took off is a blank cell again, not a misread.

Recorded live on the test page, a look drawn from seed 1361, 16x16 at 67%,
on a loaded machine: Chromium drew nothing of a batch (a flag at (14, 0) and
an open) within slow_draw, so the batch was sent again. The first flag click
drew before the next read, the second took the flag off after it, and play
stopped: "opened cells changed their look". A cell we flagged that shows
blank again after an even number of right clicks is that cell, unflagged by
us; the player flags it once more.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import FLAG, UNKNOWN
from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random1361-flag-clicked-off-16x16"
)
CELL = 14 * 16 + 0  # (14, 0)


def test_a_flag_clicked_twice_reads_blank_again() -> None:
    frames = recorded(RECORDING)
    assert [r.problem for _item, r in frames if r.problem] == []
    # the batch with its flag, sent twice (nothing of it drawn in between)
    sends = [
        item["frame"]
        for item, _r in frames
        if any(c["button"] == "right" and (c["row"], c["col"]) == (14, 0) for c in item["clicks"])
    ]
    assert len(sends) == 2
    after = [r.board.cells[CELL] for item, r in frames if item["frame"] > sends[-1]]
    assert after == [FLAG, UNKNOWN]  # drawn, then taken off by the second click
