"""A game whose cascade floods sideways only, and a look that draws nothing.

Recorded on the test page with `cascade=sides` (its flat look, 9x9/10): the
guess at (0, 2) opened a 0 that opened (0, 1), (0, 3) and (1, 2) beside it,
and the 0 at (0, 3) opened (0, 4) and (1, 3); the 0s border (1, 1) and (1, 4)
corner to corner. A 0 opening all its neighbours, no numbering with the blank
look a 0 fits; the reader named the blank look 1 and the 1s 2, and the player
flagged (1, 0), (1, 1) and (1, 4) as certain mines, two of them wrong. A look
that draws nothing on the face the 1s are drawn on is no number, so no
numbering fits; the reader asks the sideways rule, which fits, and learns that
the game floods so.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import UNKNOWN
from msolver.vision.naming import decide_among, name_looks
from msolver.vision.reading import Reading
from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "web-own-flat-sideways-9x9"
)


def test_a_sideways_opening_reads_as_the_screen_shows_it() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 3
    last = readings[-1]
    assert not last.problem and not last.low_confidence and not last.unsure
    rows = last.board.to_text().splitlines()
    assert rows[0] == "11001...."
    assert rows[1] == "..11....."
    assert last.sides_only
    # before the opening nothing said the game floods sideways
    assert not readings[1].sides_only


def _opening() -> tuple[list[int | None], dict[int, list[int]]]:
    """The recorded opening on a 9x9 board: look 0 blank (0, 2), (0, 3); look 1
    the 1s at (0, 0), (0, 1), (0, 4), (1, 2), (1, 3); every other cell unopened."""
    known: list[int | None] = [UNKNOWN] * 81
    looks = {0: [2, 3], 1: [0, 1, 4, 11, 12]}
    for cells in looks.values():
        for i in cells:
            known[i] = None
    return known, looks


def test_a_look_with_nothing_drawn_is_named_no_number() -> None:
    known, looks = _opening()
    # the blank look as a 1 and the 1s as 2s fit a board where a 0 opens all
    # its neighbours; told the blank look draws nothing, no numbering fits
    assert name_looks(9, 9, 10, known, looks).names == {0: "1", 1: "2"}
    named = name_looks(9, 9, 10, known, looks, inkless=frozenset({0}))
    assert not named.names and not named.fits


def test_the_sideways_rule_names_the_blank_look_a_zero() -> None:
    known, looks = _opening()
    named = name_looks(9, 9, 10, known, looks, sides_only=True, inkless=frozenset({0}))
    assert named.names == {0: "0", 1: "1"}


CORNER = RECORDING.with_name("web-own-flat-sideways-corner-9x9")


def _last_read_sideways(folder: Path) -> Reading:
    """The last frame's reading of a recording, asserted clean and read with the
    sideways rule (every test below asks both of it)."""
    last = [reading for _item, reading in recorded(folder)][-1]
    assert last.sides_only and not last.problem and not last.low_confidence
    return last


def test_a_first_click_that_opened_its_sides_only_is_read() -> None:
    # The first click at (0, 0) was a 0 that opened (0, 1) and (1, 0) and not
    # (1, 1): one 0 only, but the cell we clicked. Before, no numbering fitted
    # and play stopped on the first frame.
    last = _last_read_sideways(CORNER)
    for board in last.alternatives or (last.board,):
        assert board.cells[0] == 0
        assert board.cells[10] == UNKNOWN
    assert last.unsure == frozenset({1, 9})  # the 1s: no rule yet says 1, 2 or 3


RUN = RECORDING.with_name("web-own-random44-sideways-30x16")


def test_a_cascade_from_our_click_that_leaves_one_zero_cornered_is_read() -> None:
    # A look the page draws from seed 44 (rounded cells with gaps), 30x16 at
    # 125%: the first click at (0, 0) flooded sideways along row 0 to (0, 3),
    # the only 0 bordering an unopened cell corner to corner, (1, 4). Joined
    # to our click through 0s, it is our click's cascade; before, one such 0
    # not clicked itself was not enough, and play stopped at once.
    last = _last_read_sideways(RUN)
    for board in last.alternatives or (last.board,):
        assert board.cells[:4] == (0, 0, 0, 0)
        assert board.cells[4] > 0  # a 1 drawn, no rule yet says which number
        assert board.cells[34] == UNKNOWN


CHECKER = RECORDING.with_name("web-own-random1059-checker-sideways-9x9")


def test_a_blank_look_on_the_other_shade_of_a_checkerboard_is_no_number() -> None:
    # A look the page draws from seed 1059: a checkerboard whose opened cells
    # alternate two dark greys 15 levels apart, 9x9 at 125%, flooding
    # sideways. The first click's 0 at (0, 0) lies on one shade and the 1s it
    # opened on the other: taken for a face of its own, the blank look was
    # named 1 and the 1s 2, and the player flagged (1, 1), a safe cell, as a
    # certain mine. The other shade of the numbers' face is a shade of it.
    last = _last_read_sideways(CHECKER)
    for board in last.alternatives or (last.board,):
        assert board.cells[0] == 0
        assert board.cells[10] == UNKNOWN


RANDOM1170 = RECORDING.parent / "web-own-random1170-checker-sideways-16x16"


def test_a_first_click_that_opened_its_neighbours_is_a_0() -> None:
    # Our page's seed 1170 (a checkerboard of lit, bevelled faces, 90%,
    # cascade=sides): the first click at (0, 0) opened it and its two side
    # neighbours. Its opened face is a shade no number was drawn on yet, so
    # it was named 1: a board where a 0 opens all its neighbours then fits,
    # and the player flagged (1, 1), a safe cell, as a certain mine. Only a
    # 0 cascades: the cell is a 0, which borders (1, 1) corner to corner,
    # and the reader learns that the game floods sideways.
    last = [reading for _item, reading in recorded(RANDOM1170)][-1]
    assert not last.problem
    assert last.sides_only
    boards = last.alternatives or (last.board,)
    assert all(b.cells[0] == 0 for b in boards)
    decision = decide_among(boards, last.strain)
    assert ("flag", 17) not in {(m.kind, m.index) for m in decision.moves}
