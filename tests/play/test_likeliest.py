"""A guess among the readings of looks not named yet goes by the glyphs when
they clearly favour one reading (`naming.decide_among`, `LearningReader._strains`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from msolver.core.board import UNKNOWN, Board
from msolver.core.solver.probability import analyse
from msolver.vision.learning_reader import (
    NEW_NUMBER_STRAIN,
    SHAPE_TOL,
    Content,
    LearningReader,
    _Look,
)
from msolver.vision.naming import LIKELIER_BY, decide_among
from msolver.vision.reading import Reading
from tests.support.replay import recorded

RECORDINGS = Path(__file__).resolve().parents[2] / "screenshots" / "recordings"


def test_a_clear_best_reading_decides_the_guess_and_a_close_one_does_not() -> None:
    # The look at row 1, col 1 is a 1 or a 2. On "1" (0, 2) and (2, 2) are
    # safe and (1, 2) a mine; on "2" the other way round.
    one = Board.parse("01..\n01..\n01..", mines=4)
    two = Board.parse("01..\n02..\n01..", mines=4)
    plain = decide_among([one, two])
    assert plain.tier == "alternatives" and plain.moves[0].index == 6
    # glyphs favouring "1" clearly: a cell safe on it, still sent at its worst chance
    by_one = decide_among([one, two], (0.5, 0.5 + LIKELIER_BY))
    assert by_one.tier == "likeliest" and not by_one.certain
    assert by_one.moves[0].index in (2, 10) and by_one.moves[0].p_mine == 1.0
    assert decide_among([one, two], (0.5 + LIKELIER_BY, 0.5)).moves[0].index == 6
    # favoured by less than LIKELIER_BY: the worst case decides, as with no glyphs
    close = decide_among([one, two], (0.5, 0.4 + LIKELIER_BY))
    assert close.tier == "alternatives" and close.moves[0].index == 6
    # certain moves still need every reading: none here, whatever the glyphs say
    assert decide_among([one, one], (0.0, 5.0)).certain


def test_strain_is_the_glyph_distance_to_the_number_it_names_or_a_new_number_s() -> None:
    tile = np.zeros((8, 8, 3), np.uint8)
    face, ink = np.full(3, 200.0), np.full(3, 20.0)
    two_glyph = np.zeros(64)
    far = two_glyph + 4.5 * SHAPE_TOL
    near = two_glyph + 1.0 * SHAPE_TOL
    reader = LearningReader.__new__(LearningReader)
    reader.looks = [
        _Look(Content(face, ink, two_glyph, 0.0), tile, 2),
        _Look(Content(face, ink, far, 0.0), tile, None),
        _Look(Content(face, ink, near, 0.0), tile, None),
    ]
    strains = reader._strains([{1: 2}, {1: 3}, {2: 2}, {1: 3, 2: 2}])
    assert strains[0] == pytest.approx(4.5)
    assert strains[1] == NEW_NUMBER_STRAIN
    assert strains[2] == pytest.approx(1.0)
    assert strains[3] == pytest.approx(NEW_NUMBER_STRAIN + 1.0)


def _reading_at(name: str) -> tuple[Reading, dict[str, object]]:
    frames = recorded(RECORDINGS / name)
    assert frames
    item, reading = frames[-1]
    return reading, item


@pytest.mark.parametrize(
    ("name", "truth"),
    [
        # sgt-mines, "low" palette with every digit one colour, 9x9: a 3 not seen
        # yet, 4.57 SHAPE_TOL from the named 2, was unsure between 2 and 3; the
        # worst-case guess, (0, 7), 1 in 3 on either reading, was the mine. The
        # game's last frame shows 3s.
        ("sgt-lowmono-200-t26", 3),
        # the same at 30x16 in a "light" palette: a 6 unsure between 5 (4.59
        # from the named 5) and 6; the guess (11, 18) was the mine.
        ("sgt-lightmono-260-t17", 6),
    ],
)
def test_recorded_losses_guess_a_cell_safe_on_the_reading_the_glyphs_favour(
    name: str, truth: int
) -> None:
    reading, item = _reading_at(name)
    assert len(reading.alternatives) == 2 and reading.unsure
    [lost] = [c for c in item["clicks"] if c["button"] == "left"]  # type: ignore[attr-defined]
    width = reading.board.width
    lost_at = lost["row"] * width + lost["col"]
    true_board = next(
        b for b in reading.alternatives if all(b.cells[i] == truth for i in reading.unsure)
    )
    on_truth = analyse(true_board)
    # the recorded guess was a risk on the true board (and the mine), ...
    assert (on_truth.prob[lost_at] or 0.0) > 0.0
    decision = decide_among(reading.alternatives, reading.strain)
    assert decision.tier == "likeliest" and len(decision.moves) == 1
    guess = decision.moves[0].index
    # ... where the glyphs' reading picks a cell that board proves safe
    assert reading.board.cells[guess] == UNKNOWN and on_truth.prob[guess] == 0.0


def test_digits_of_one_colour_seen_for_the_first_time_go_by_their_shape() -> None:
    # Our page's buttons look at 80%: every digit the browser's grey disabled
    # text. The first click showed a lone number at (0, 0), a 1, 2 or 3 for
    # the rules (no number named yet); its shape is a 2, and the game's last
    # frame shows (1, 0) and (1, 1) mined (seen on the picture: the reader
    # had named no mine look by then). The recorded game guessed by the
    # worst reading (15.5%), then again, and lost; the glyph reading now
    # decides the guess (still sent at its worst chance).
    frames = recorded(RECORDINGS / "web-own-buttons-z80-16x16")
    _item, reading = frames[1]
    assert reading.unsure == frozenset({0})
    values = [b.cells[0] for b in reading.alternatives]
    assert sorted(values) == [1, 2, 3]
    best = min(range(len(values)), key=reading.strain.__getitem__)
    assert values[best] == 2
    assert all(
        reading.strain[j] - reading.strain[best] >= LIKELIER_BY
        for j in range(len(values))
        if j != best
    )
    decision = decide_among(reading.alternatives, reading.strain)
    assert decision.tier == "likeliest" and not decision.certain
