"""A built-in theme is played on only while its tiles read the game's own closely.

gnome-mines draws its own tiles at each window size (GTK), so its recording
at 33 px, scaled, reads the digits of another size by colour at best. The
player's reader keeps a built-in theme for a game only when it reads every
opened cell of the game's first frame surely (`learning_reader.SURE`);
otherwise every look is learned from the rules, as for a theme never seen.
"""

from __future__ import annotations

import pytest

from msolver.core.board import UNKNOWN, Board
from msolver.core.clock import FakeClock
from msolver.vision.grid import calibrate
from msolver.vision.image import Image
from msolver.vision.learning_reader import LearningReader
from msolver.vision.reader import VisionReader
from tests.vision.conftest import SHOTS, scaled, shot, truth


@pytest.mark.parametrize(("scale", "kept"), [(1.0, True), (1.25, False)])
def test_a_built_in_theme_is_kept_only_when_it_reads_a_games_first_frame_surely(
    scale: float, kept: bool
) -> None:
    game = SHOTS / "gnome-mines"
    blank = scaled(shot(game / "w1200-g0-start.png"), scale)
    first = scaled(shot(game / "w1200-g0-f1.png"), scale)
    prof = calibrate(blank, mines=99)
    assert prof.theme == "gnome-mines"
    left, top, w, h = prof.grid.rect()

    def grab(img: Image) -> Image:
        return img[top : top + h, left : left + w]

    clock = FakeClock(0.0)
    reader = LearningReader(prof, base=VisionReader(prof), clock=clock)
    assert reader.read(grab(blank)).board == Board.blank(prof.cols, prof.rows, prof.mines)
    want = truth(game / "w1200-g0-f1.png")
    opened = frozenset(i for i, s in enumerate(want.cells) if s != UNKNOWN)
    reader.sent(frozenset(), frozenset(), opened)
    reading = reader.read(grab(first))
    if not kept:
        # Unsure tiles: looked at again on a frame that holds still, nothing acted on.
        assert reading.low_confidence and not set(opened) - set(reading.low_confidence)
        clock.advance(1.0)
        reading = reader.read(grab(first))
    assert not reading.problem and not reading.low_confidence, reading.problem
    assert reading.board == want
    # Kept: every cell read by the recorded tiles; dropped: every look named by the rules.
    assert (reader.learned == []) == kept
    if not kept:
        assert {"0", "1"} <= set(reader.learned)
