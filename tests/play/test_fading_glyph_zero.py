"""A cell whose glyph is still fading in is no 0 to learn from.

Recorded on the test page's seed 2123 at 90% (21 px cells, pale digits on a
dark green face; each glyph fades in over 300 ms after its face is drawn,
a cascade drawn 90 ms a step), 16x16/40, by `tests.e2e.bench_battery.run_one`
on 2026-12-01: the first six frames of game 1. Its 2s and 1s are pale and
alike, so the 2s' look stayed unsure (a 1 drawn at another phase, or a 2)
and play went on guessing. Live, the guess at (3, 3) opened a 2 whose face
showed before its glyph: read once as the 0 look, it beside unopened
cells, it left the 2s' look only a 1, and the reader named it so for good.
On that the player flagged a safe cell, opened three more as certain and
opened a mine at (0, 3) as certain. A 0 beside an unopened side neighbour is
a frame still drawing (a 0 opens its neighbours in the same redraw): nothing
is named from it. Frame 6 below is the kept frame; the frame read live is
rebuilt from it, (3, 3) drawn as the 0 at (0, 0).
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.clock import FakeClock
from msolver.play.readers import reader_for
from msolver.play.record import reread
from msolver.vision.image import read_png
from msolver.vision.learning_reader import LearningReader
from msolver.vision.naming import decide_among
from msolver.vision.profile import load_profile

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random2123-fading-two-z90-16x16"
)
COLS = 16


def _after_frame_five() -> tuple[LearningReader, FakeClock]:
    clock = FakeClock()
    reader = reader_for(load_profile(RECORDING / "profile.json"), clock=clock)
    assert isinstance(reader, LearningReader)
    for item, _ in reread(RECORDING, reader, clock.advance):
        if item["frame"] == 5:
            break
    # the guess at (3, 3) sent after frame 5, told as the player told it
    clicks = item["clicks"]
    assert [(c["row"], c["col"]) for c in clicks] == [(3, 3)]
    reader.sent(frozenset(), frozenset({3 * COLS + 3}), frozenset(clicks[0]["opens"]))
    return reader, clock


def test_a_zero_beside_unopened_cells_names_nothing() -> None:
    reader, clock = _after_frame_five()
    image = read_png(RECORDING / "frames" / "g001-f00006.png").copy()
    h, w = reader._h, reader._w
    r, c = divmod(3 * COLS + 3, COLS)
    image[reader._ys[r] : reader._ys[r] + h, reader._xs[c] : reader._xs[c] + w] = image[
        reader._ys[0] : reader._ys[0] + h, reader._xs[0] : reader._xs[0] + w
    ]
    for _ in range(3):  # held still: not a wait for a new look
        mid = reader.read(image)
        clock.advance(0.3)
    assert "still drawing" in mid.problem
    assert mid.low_confidence
    # the settled frame: the 2s' look is still a 1 or a 2, and no certain move
    # rests on its being a 1
    kept = read_png(RECORDING / "frames" / "g001-f00006.png")
    for _ in range(3):
        settled = reader.read(kept)
        clock.advance(0.3)
    assert {b.cells[2] for b in settled.alternatives} == {1, 2}
    decision = decide_among(settled.alternatives, settled.strain)
    opened = {m.index for m in decision.moves if m.kind == "open"}
    assert 3 not in opened  # (0, 3): a mine
    assert all(m.index in {1 * COLS + 3} for m in decision.moves if decision.certain)


def test_the_kept_frames_read_as_they_were_logged() -> None:
    clock = FakeClock()
    reader = reader_for(load_profile(RECORDING / "profile.json"), clock=clock)
    for item, reading in reread(RECORDING, reader, clock.advance):
        assert reading.board.to_text() == item["board"]
