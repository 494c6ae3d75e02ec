"""A learned profile is kept for a textured theme at small cells, and reads the
next game's blank board exactly."""

from __future__ import annotations

import numpy as np

from tests.vision.bench_read import custom_tapes, first_read


def test_a_textured_theme_at_20px_keeps_its_learned_profile() -> None:
    # Palette 1 at 20 px: its blank cells differ among themselves (a texture), and
    # a board rebuilt from their 8x8 looks did not read blank, so nothing was kept.
    learning, learned = custom_tapes(20, 1, 3)
    blank = learning.profile.blank
    assert blank is not None
    cells = blank.reshape(learning.profile.rows, learning.profile.cols, -1).astype(np.int64)
    assert np.abs(np.diff(cells, axis=1)).max() > 0
    assert learned is not None, "the learned profile was refused"
    assert learned.profile.tiles.keys() - learning.profile.tiles.keys()
    assert first_read(learned) == "exact"
