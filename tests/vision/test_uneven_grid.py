"""Boards whose lines a toolkit laid out unevenly: a Grid with each line's own edges.

GTK at a fractional window size spaces some columns a pixel wider than the
rest (gnome-mines at 1000x560: 10 columns 27 px apart, then 20 at 26 px).
Such a board is found line by line, saved and loaded with its edges, read
cell by cell from each cell's own edges, and clicked on each cell's centre.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from msolver.core.board import UNKNOWN
from msolver.vision.classify import read_board
from msolver.vision.geometry import Grid, GridError
from msolver.vision.grid import calibrate
from msolver.vision.image import Image
from msolver.vision.profile import ProfileError, load_profile, save_profile
from msolver.vision.reader import VisionReader
from tests.vision.conftest import SHOTS, shot, truth

# gnome-mines at 1200 px wide (recorded): boxes from (23, 108), 33 px apart;
# each face starts 2 px into its box, and the gap between faces is 4 px.
GNOME = SHOTS / "gnome-mines"
WIDE_COLS = 10  # the first columns (rows) laid a pixel wider, as GTK does
WIDE_ROWS = 4


def widen(img: Image) -> Image:
    """The picture with the first WIDE_COLS columns and WIDE_ROWS rows a pixel wider:
    one more pixel of the gap at each of their right (bottom) boundaries."""
    xs = [23 + 33 * k for k in range(1, WIDE_COLS + 1)]
    ys = [108 + 33 * k for k in range(1, WIDE_ROWS + 1)]
    out = np.insert(img, xs, img[:, xs], axis=1)
    return np.ascontiguousarray(np.insert(out, ys, out[ys], axis=0))


def face_starts(n: int, first: int, wide: int) -> list[int]:
    return [first + 33 * k + min(k, wide) for k in range(n)]


def test_a_grid_with_its_own_edges_boxes_centres_and_hits_every_cell() -> None:
    xs = (10.0, 37.0, 64.0, 90.0, 116.0, 142.0)
    ys = (5.0, 32.0, 58.0, 84.0)
    g = Grid.from_edges(xs, ys)
    assert (g.rows, g.cols, g.uniform, g.cell_size) == (3, 5, False, (26, 26))
    assert g.cell_box(1, 2) == (64.0, 32.0, 26.0, 26.0)
    assert g.cell_box(0, 0) == (10.0, 5.0, 27.0, 27.0)
    assert g.rect() == (10, 5, 132, 79)
    assert g.cell_edges() == ([10, 37, 64, 90, 116, 142], [5, 32, 58, 84])
    for i in range(g.rows * g.cols):
        x, y = g.centre(i)
        assert g.cell_at(x, y) == i
        r, c = divmod(i, g.cols)
        assert xs[c] < x < xs[c + 1] and ys[r] < y < ys[r + 1]
    assert g.cell_at(9.9, 10) is None and g.cell_at(142.0, 10) is None
    assert g.cell_at(63.9, 31.9) == 1 and g.cell_at(64.0, 32.0) == 7
    moved = g.moved(100, -5)
    assert moved.xs == tuple(v + 100 for v in xs) and moved.ys == tuple(v - 5 for v in ys)
    assert moved.cell_at(164.0, 27.0) == 7
    assert g.moved_to((0.0, 0.0)).cell_edges() == ([0, 27, 54, 80, 106, 132], [0, 27, 53, 79])
    # a last line laid a pixel short: its cut (one rounded pitch) is still on the board
    short = Grid.from_edges(xs, (5.0, 32.0, 59.0, 84.0))
    assert short.cell_size[1] == 26 and short.rect()[1] + short.rect()[3] >= 59 + 26


def test_an_even_grid_is_unchanged_by_the_edges_rule() -> None:
    g = Grid((23.4, 108.5), (33.0, 33.0), 16, 30)
    assert g.uniform and g.xs is None
    assert g.centre_xy(3, 4) == (23.4 + 4.5 * 33.0, 108.5 + 3.5 * 33.0)
    assert g.cell_edges()[0][:3] == [math.floor(23.4 + 0.5), 56, 89]
    img = np.zeros((10, 10, 3), np.uint8)
    same, at = g.restitched(img)
    assert same is img and at is g


@pytest.mark.parametrize(
    ("xs", "why"),
    [
        ((0.0, 27.0, 54.0), "3 given for 4 cells"),
        ((0.0, 27.0, 26.0, 80.0, 106.0), "alike steps"),
        ((0.0, 27.0, 54.0, 120.0, 146.0), "alike steps"),
        ((0.0, 27.0, float("nan"), 80.0, 106.0), "finite"),
    ],
)
def test_edges_that_are_no_boards_lines_are_refused(xs: tuple[float, ...], why: str) -> None:
    with pytest.raises(GridError, match=why):
        Grid((0.0, 0.0), (26.5, 26.0), 2, 4, xs=xs)


def test_restitching_cuts_every_cell_from_its_own_edge() -> None:
    g = Grid.from_edges((2.0, 6.0, 9.0, 13.0), (1.0, 4.0))
    img = np.arange(6 * 12, dtype=np.uint8).reshape(6, 12, 1).repeat(3, axis=2)
    out, even = g.restitched(img, margin=1)
    assert (even.origin, even.pitch, even.rows, even.cols) == ((1.0, 1.0), (4.0, 3.0), 1, 3)
    assert out.shape == (3 + 2, 12 + 2, 3)
    # each box one rounded pitch (4 x 3) from its own edge; past the picture's
    # edge, and in the margin, the outermost pixels repeat
    cols = [2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 11, 11]
    assert (out[1:4, 1:13, 0] == img[1:4][:, cols, 0]).all()
    assert (out[0, 1:13, 0] == img[1][cols, 0]).all()
    assert (out[1:4, 0, 0] == img[1:4, 2, 0]).all()


def test_profile_saves_and_loads_a_grids_own_edges(profile_dir: Path) -> None:
    base = load_profile("gnome-mines")
    g = Grid.from_edges(
        tuple(23.0 + 33 * k + min(k, 10) for k in range(31)),
        tuple(108.5 + 33 * k + min(k, 4) for k in range(17)),
    )
    prof = base.with_changes(name="uneven", grid=g)
    path = save_profile(prof, "uneven")
    data = json.loads(path.read_text())
    assert data["col_edges"] == list(g.xs or ()) and data["row_edges"] == list(g.ys or ())
    back = load_profile("uneven")
    assert back.grid == g
    # moving the board (a window moved) moves every line's own edge with it
    moved = back.moved_to((back.origin[0] + 7, back.origin[1] - 3))
    assert moved.grid.xs == tuple(v + 7 for v in g.xs or ())
    assert moved.grid.ys == tuple(v - 3 for v in g.ys or ())
    # another pitch or size is an even lattice again
    assert back.with_changes(origin=(0.0, 0.0), rows=1, cols=3).grid.uniform


def test_old_profiles_without_edges_load_unchanged(profile_dir: Path) -> None:
    prof = load_profile("gnome-mines")
    assert prof.grid.uniform
    path = save_profile(prof, "old")
    data = json.loads(path.read_text())
    assert "col_edges" not in data and "row_edges" not in data
    assert load_profile("old").grid == prof.grid


@pytest.mark.parametrize(
    ("edges", "message"),
    [
        ("1,2,3", "col_edges is not a list of numbers"),
        ([1, 2, "3"], "col_edges is not a list of numbers"),
        ([0.0, 33.0], "2 given for 30 cells"),
        ([33.0 * k for k in range(30)] + [33.0 * 28], "alike steps"),
    ],
)
def test_a_bad_edges_list_is_a_clear_profile_error(
    profile_dir: Path, edges: object, message: str
) -> None:
    path = save_profile(load_profile("gnome-mines"), "bad")
    data = json.loads(path.read_text())
    data["col_edges"] = edges
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError, match=message):
        load_profile("bad")


def test_uneven_board_round_trips_calibrate_save_load_read(profile_dir: Path) -> None:
    blank = widen(shot(GNOME / "w1200-g0-start.png"))
    played = widen(shot(GNOME / "w1200-g0-f47.png"))
    prof = calibrate(blank, mines=99, name="gtk")
    assert (prof.rows, prof.cols, prof.theme) == (16, 30, "gnome-mines")
    assert not prof.grid.uniform
    # every cell is cut the same way: its face starts at one offset in its box
    xs, ys = prof.grid.cell_edges()
    for edges, faces in (
        (xs, face_starts(30, 25, WIDE_COLS)),
        (ys, face_starts(16, 110, WIDE_ROWS)),
    ):
        offsets = {f - e for f, e in zip(faces, edges, strict=False)}
        assert max(offsets) - min(offsets) <= 1 and 1 <= min(offsets) <= 3, offsets
    # the recorded board has its last row laid a pixel short; measured, not assumed
    assert ys[-2] - ys[-3] in (32, 33)
    save_profile(prof, "gtk")
    back = load_profile("gtk")
    assert back.grid == prof.grid
    res = read_board(played, back)
    assert res.low_confidence == ()
    assert res.board == truth(GNOME / "w1200-g0-f47.png")
    # the player's reader: a grab of the board's rectangle, full and then incremental
    reader = VisionReader(back)
    left, top, width, height = back.grid.rect()
    first = reader.read(blank[top : top + height, left : left + width])
    assert first.low_confidence == () and set(first.board.cells) == {UNKNOWN}
    reading = reader.read(played[top : top + height, left : left + width])
    assert not reading.problem and reading.low_confidence == ()
    assert reading.board == truth(GNOME / "w1200-g0-f47.png")
    # where play clicks: every cell's centre is inside that cell's own face
    fx, fy = face_starts(30, 25, WIDE_COLS), face_starts(16, 110, WIDE_ROWS)
    for i in range(back.rows * back.cols):
        r, c = divmod(i, back.cols)
        x, y = back.grid.centre(i)
        assert fx[c] <= x < fx[c] + 29 and fy[r] <= y < fy[r] + 29, (r, c, x, y)
        assert back.grid.cell_at(x, y) == i


def test_the_players_readers_cut_an_uneven_board_by_its_own_edges(profile_dir: Path) -> None:
    from msolver.play.readers import reader_for
    from msolver.vision.learning_reader import LearningReader

    blank = widen(shot(GNOME / "w1200-g0-start.png"))
    played = widen(shot(GNOME / "w1200-g0-f47.png"))
    for theme in (None, "custom"):
        prof = calibrate(blank, mines=99, name="gtk", theme=theme)
        assert not prof.grid.uniform
        reader = reader_for(prof) if theme is None else LearningReader(prof)
        left, top, width, height = prof.grid.rect()
        first = reader.read(blank[top : top + height, left : left + width])
        assert not first.problem and first.low_confidence == ()
        assert set(first.board.cells) == {UNKNOWN}, theme
        if theme is None:
            reading = reader.read(played[top : top + height, left : left + width])
            assert not reading.problem and reading.low_confidence == ()
            assert reading.board == truth(GNOME / "w1200-g0-f47.png")


def test_a_dry_run_plays_an_uneven_profile_at_its_own_size() -> None:
    from msolver.vision.dryrun import DryRunError, run_dryrun

    corpus = SHOTS / "corpus"
    prof = calibrate(shot(corpus / "gnome-mines-1000x560.png"), mines=99)
    assert not prof.grid.uniform
    report = run_dryrun(prof, games=2, first_click="safe")
    assert report.frames > 10 and report.misreads == 0 and report.low_confidence_cells == 0
    # another board size would need line edges the profile does not have
    with pytest.raises(DryRunError, match="lines unevenly"):
        run_dryrun(prof, level="beginner", games=1)
