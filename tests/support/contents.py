"""The learning reader's batch of cell contents against one box at a time."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from msolver.vision.contentbatch import contents_of
from msolver.vision.image import Image
from msolver.vision.learning_reader import _INK_RULE, content


def assert_batch_matches(tiles: Sequence[Image]) -> None:
    """`contents_of` finds, bit for bit, what `content` finds box by box."""
    batch = contents_of(tiles, _INK_RULE)
    assert batch is not None
    for tile, parts in zip(tiles, batch, strict=True):
        if parts is None:
            continue  # a glyph run into the rim: content takes the box alone
        face, ink, shape, aspect, sprite, faint, tones = parts
        one = content(tile)
        assert one.faint == faint
        for a, b in zip(one.tones, tones, strict=True):
            assert (a is None) == (b is None)
            assert a is None or np.array_equal(a, b)
        assert np.array_equal(one.face, face)
        assert (one.ink is None) == (ink is None)
        if one.ink is not None:
            assert ink is not None and shape is not None and one.shape is not None
            assert np.array_equal(one.ink, ink)
            assert np.array_equal(one.shape, shape)
            assert one.aspect == aspect
        assert (one.sprite is None) == (sprite is None)
        if one.sprite is not None:
            assert sprite is not None
            assert np.array_equal(one.sprite, sprite)
