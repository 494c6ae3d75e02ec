"""The lattice board finder: rows, columns, origin and pitch exact; refusals refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from msolver.core.board import UNKNOWN
from msolver.core.clock import FakeClock
from msolver.play.readers import reader_for
from msolver.vision.grid import CalibrationError, calibrate
from msolver.vision.image import read_png
from msolver.vision.lattice import LatticeError, find_lattice
from msolver.vision.profile import load_profile
from tests.vision.conftest import SHOTS, desktop, scaled, shot
from tests.vision.synth_boards import Spec, render

# The battery corpus of third-party games (another branch records it).
BATTERY = Path(__file__).resolve().parents[2] / "screenshots" / "corpus"
GOLDEN = Path(__file__).resolve().parent / "golden"

BLANKS = {"sgt-mines": "t20-blank", "gnome-mines": "w1200-g0-start"}


@pytest.mark.parametrize("game", sorted(BLANKS))
@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5, 1.75, 2.0])
def test_recorded_blank_boards_found_exactly_at_every_scale(game: str, scale: float) -> None:
    at = (37, 21)
    window = scaled(shot(SHOTS / game / f"{BLANKS[game]}.png"), scale)
    size = (max(1920, at[0] + window.shape[1]), max(1080, at[1] + window.shape[0]))
    lat = find_lattice(desktop(window, at, size))
    builtin = load_profile(game)
    assert (lat.rows, lat.cols, lat.unlike) == (16, 30, ())
    for axis in (0, 1):
        # gnome-mines lays its last row a pixel short (GTK rounds each row):
        # the fitted pitch follows the other fifteen
        assert lat.pitch[axis] == pytest.approx(builtin.pitch[axis] * scale, abs=0.05)
        assert lat.origin[axis] == pytest.approx(at[axis] + builtin.origin[axis] * scale, abs=0.25)


def test_a_partly_played_board_keeps_its_size_and_names_the_opened_cells() -> None:
    # xdemineur opens 20 cells at launch; the board is still 30x16
    lat = find_lattice(shot(SHOTS / "xdemineur" / "x21-g0-start.png"))
    assert (lat.rows, lat.cols) == (16, 30)
    text = (SHOTS / "xdemineur" / "x21-g0-start.txt").read_text().split()
    opened = {(r, c) for r, line in enumerate(text) for c, ch in enumerate(line) if ch != "."}
    assert set(lat.unlike) == opened


def test_an_unseen_partly_played_board_is_refused_not_saved_smaller() -> None:
    img, _truth = render(Spec(rows=16, cols=16, tile=24, opened=4, seed=3))
    with pytest.raises(CalibrationError, match="show a new, unplayed board"):
        calibrate(img, mines=40)
    blank, truth = render(Spec(rows=16, cols=16, tile=24, seed=3))
    prof = calibrate(blank, mines=40)
    assert (prof.rows, prof.cols, prof.theme) == (16, 16, "custom")
    assert prof.origin == pytest.approx(truth.origin, abs=0.25)


def test_theme_custom_forces_learning_of_a_builtin_board() -> None:
    img = shot(SHOTS / "sgt-mines" / "t20-blank.png")
    assert calibrate(img).theme == "sgt-mines"
    prof = calibrate(img, theme="custom")
    assert prof.theme == "custom" and set(prof.tiles) == {"unknown"}


def test_a_recoloured_builtin_game_is_a_custom_theme() -> None:
    img = shot(SHOTS / "sgt-mines" / "t20-blank.png").copy()
    # the unopened face (230, 230, 230) turned light blue-grey, bevels kept
    face = np.all(img == 230, axis=2)
    img[face] = (200, 215, 235)
    prof = calibrate(img)
    assert prof.theme == "custom"


def test_no_board_and_two_boards_are_refused() -> None:
    with pytest.raises(LatticeError, match=r"^no board found"):
        find_lattice(desktop(np.zeros((0, 0, 3), np.uint8), (0, 0)))
    a = shot(SHOTS / "xdemineur" / "x21-g0-start.png")
    img = desktop(a, (0, 0))
    img[500 : 500 + a.shape[0], 1000 : 1000 + a.shape[1]] = a  # another phase
    with pytest.raises(LatticeError, match="2 boards found"):
        find_lattice(img)


def test_two_boards_of_different_tile_sizes_are_refused() -> None:
    # two games side by side, each at its own tile size: neither lattice is
    # the other's harmonic, and each alone would be a good board
    a = shot(SHOTS / "sgt-mines" / "t20-blank.png")
    b = scaled(a, 1.25)
    img = desktop(a, (0, 0))
    img[0 : b.shape[0], a.shape[1] + 20 : a.shape[1] + 20 + b.shape[1]] = b
    with pytest.raises(LatticeError, match="2 boards found"):
        find_lattice(img)
    assert find_lattice(desktop(b, (a.shape[1] + 20, 0))).cols == 30


SYNTH = [
    Spec(rows=16, cols=30, tile=20, style="bevel", seed=1),
    Spec(rows=16, cols=16, tile=24, style="bevel", scale=1.5, seed=2),
    Spec(rows=9, cols=9, tile=30, style="bevel", scale=1.75, area=True, seed=4),
]


@pytest.mark.parametrize("spec", SYNTH, ids=lambda s: f"{s.style}-{s.tile}-{s.scale}")
def test_synthetic_boards_found_exactly(spec: Spec) -> None:
    img, truth = render(spec)
    lat = find_lattice(img)
    assert (lat.rows, lat.cols, lat.unlike) == (truth.rows, truth.cols, ())
    assert lat.origin == pytest.approx(truth.origin, abs=0.25)
    assert lat.pitch == pytest.approx(truth.pitch, abs=0.05)


def _battery() -> list[Path]:
    return sorted(BATTERY.glob("*.json")) if BATTERY.is_dir() else []


# Shots whose cells only their flat faces show (calibrate finds them by
# `grid._face_grid`, test_battery_corpus): a lineless checkerboard, whose
# cells correlate only in blocks, and 1 px lines a zoomed-out browser drops in
# every few cells, which cut the lattice's board into pieces or blocks.
FACES_ONLY = {
    "web-own-checker-z100-16x16",
    "web-own-flat-z75-16x16",
    "web-own-big-z67-16x16",
    "web-own-random33-z90-16x16",
}
# Boards Chromium drew off the page's own layout (the truth here) by more than
# this test's quarter pixel, each found on its drawn pixels; test_battery_corpus
# checks their cells against their faces. At 90%, a dropped line's board grown
# on its drawn lines, which snap to whole pixels up to 0.4 px off the layout;
# at 125%, faces whose layout starts at 82.5 px drawn from pixel 83 (no line
# or gap between the cells: nothing before the face to cut at).
SNAPPED = {"web-own-random33-z90-16x16-screen", "web-own-random15-z125-16x16"}


@pytest.mark.skipif(not _battery(), reason="battery corpus not present")
def test_battery_corpus_sgt_palettes_and_web_found_exactly() -> None:
    for j in _battery():
        t = json.loads(j.read_text())
        if t.get("expect") != "board" or not j.stem.startswith(("sgt-", "web-", "pygame-2000")):
            continue
        if j.stem in FACES_ONLY | SNAPPED:
            continue
        lat = find_lattice(read_png(j.with_suffix(".png")))
        assert (lat.rows, lat.cols) == (t["rows"], t["cols"]), j.stem
        for axis in (0, 1):
            lo = t["origin"][axis] - t["gap"][axis] - 0.25
            assert lo <= lat.origin[axis] <= t["origin"][axis] + 0.25, (j.stem, lat.origin)
            assert lat.pitch[axis] == pytest.approx(t["pitch"][axis], abs=0.05), j.stem


# boards laid in two steps of cell size, the first 10 (or 8) rows and columns a
# pixel bigger: the lattice of either pitch drifts off the other part
UNEVEN = [
    Spec(rows=16, cols=30, tile=33, gap=3, style="bevel", wide=10, seed=5),
    Spec(rows=16, cols=30, tile=21, gap=3, style="rounded", wide=10, seed=6),
    Spec(rows=16, cols=30, tile=25, gap=0, style="bevel", wide=8, seed=7),
]


@pytest.mark.parametrize("spec", UNEVEN, ids=lambda s: f"{s.style}-{s.tile}-wide{s.wide}")
def test_a_board_laid_in_two_steps_of_cell_size_is_found_whole(spec: Spec) -> None:
    img, truth = render(spec)
    assert truth.xs is not None and truth.ys is not None
    lat = find_lattice(img)
    assert (lat.rows, lat.cols) == (truth.rows, truth.cols)
    prof = calibrate(img, mines=99)
    assert (prof.rows, prof.cols) == (truth.rows, truth.cols)
    # every line on its own gap (the truth is the gap's middle; a box may start
    # anywhere across it), and all of them cut alike: within a pixel of each other
    for got, true in zip(prof.grid.edges(), (truth.xs, truth.ys), strict=True):
        off = [a - b for a, b in zip(got, true, strict=True)]
        assert max(abs(d) for d in off) <= spec.gap / 2 + 0.25, off
        assert max(off) - min(off) <= 1.0, off


def test_a_board_mostly_at_the_bigger_step_grows_its_smaller_part() -> None:
    # gnome-mines in a window 829 px wide (GTK's Adwaita:dark, a random sweep,
    # 2026-12-07): its 30x16 tiles laid 21 px apart for 20 columns, then 20
    # (rows: 8 gaps of 21, then 20). The lattice at 21 px held 21 columns,
    # its last line 2.5 px past their gap; the strip beyond, cut from there,
    # was unlike the board, and calibration refused the board as going on
    # past its right edge.
    shot = GOLDEN / "gnome-mines-829x787-adwaita-dark-two-steps-screen.png"
    img = read_png(shot)
    lat = find_lattice(img)
    assert (lat.rows, lat.cols) == (16, 30)
    # tile faces start at x = 25 + 21 k (k < 20), then 444 + 20 (k - 20), each
    # after a 4 px gap: every line within its gap
    faces = [25 + 21 * k for k in range(20)] + [444 + 20 * k for k in range(10)]
    xs = lat.xs or tuple(lat.origin[0] + k * lat.pitch[0] for k in range(31))
    for k, face in enumerate(faces):
        assert face - 4.5 <= xs[k] <= face + 0.5, (k, xs[k], face)
    prof = calibrate(img, mines=99)
    assert (prof.rows, prof.cols) == (16, 30)


OBLONG = [
    Spec(rows=16, cols=16, tile=20, gap=2, style="bevel", stretch=1.4, seed=11),
    Spec(rows=9, cols=9, tile=24, gap=1, style="rounded", stretch=1.7, seed=12),
    Spec(rows=16, cols=30, tile=22, gap=0, style="lines", stretch=0.7, seed=13),
    Spec(rows=16, cols=16, tile=18, gap=0, style="bevel", stretch=0.55, seed=14),
]


@pytest.mark.parametrize("spec", OBLONG, ids=lambda s: f"{s.style}-{s.tile}-x{s.stretch}")
def test_a_board_of_oblong_cells_is_found(spec: Spec) -> None:
    # cells wider than tall or taller than wide: no pair of pitches within 15%
    # of each other holds the board, and blocks of cells must not stand for it
    img, truth = render(spec)
    lat = find_lattice(img)
    assert (lat.rows, lat.cols, lat.unlike) == (truth.rows, truth.cols, ())
    assert lat.pitch == pytest.approx(truth.pitch, rel=0.01)
    for got, true, pitch in zip(lat.origin, truth.origin, truth.pitch, strict=True):
        assert abs(got - true) <= 0.1 * pitch, (lat.origin, truth.origin)


def test_oblong_cells_on_a_whole_screen_are_not_taken_for_a_strip() -> None:
    # minesweeper-python 0.0.4 (PyPI, Tk): 16x16 stock buttons 66 x 48 px in
    # the corner of a whole 1920x1080 screen, a Restart button across the
    # board's width below it. A pair of about one pitch (45.5 x 48) held a
    # strip of 2x15 "cells" inside the board, so the oblong pairs were never
    # tried: calibration said "37 mines do not fit a 2x15 board".
    shot = GOLDEN / "minesweeper-python-16x16-oblong-screen.png"
    lat = find_lattice(read_png(shot))
    assert (lat.rows, lat.cols, lat.unlike) == (16, 16, ())
    assert lat.pitch == pytest.approx((66.0, 48.0), abs=0.05)
    assert lat.origin == pytest.approx((0.0, 0.0), abs=0.5)


@pytest.mark.parametrize(
    ("at", "origin"), [("0-0", (0.0, 0.0)), ("0-100", (0.0, 98.7)), ("663-100", (661.7, 98.7))]
)
def test_oblong_cells_beside_a_panel_are_found_wherever_the_window_lies(
    at: str, origin: tuple[float, float]
) -> None:
    # The same game with its side panel ("Time", "Mines caught: 0 / 37"), a
    # random sweep's helper moving its window about: at (0, 0) the square
    # pairs cut its columns into stripes of alike cells ("3 boards found");
    # lower down a square pair held a beat of them, 15x9 "cells" 49.6 x 48
    # px, refused as a board cut off. The strongest combs are 66 and 48: the
    # oblong pairs are tried whenever the two axes' best are oblong.
    shot = GOLDEN / f"minesweeper-python-16x16-panel-at-{at}-screen.png"
    lat = find_lattice(read_png(shot))
    assert (lat.rows, lat.cols, lat.unlike) == (16, 16, ())
    assert lat.pitch == pytest.approx((66.0, 48.0), abs=0.05)
    assert lat.origin == pytest.approx(origin, abs=0.5)


def test_a_window_frame_beside_a_lineless_checkerboard_is_no_column() -> None:
    # The Tk clone's lineless checkerboard (greens 8 levels apart) at 24 px,
    # 16x16, on a whole screen (a random sweep, 2026-12-07): the lattice took
    # a 17th column over the window's frame (1 px white, 7 px grey) and the
    # black screen past it, all of it unlike a blank cell, and calibration
    # refused the board as partly played. That strip is the same all along
    # its length, across the lines where cells would meet: no cells.
    shot = GOLDEN / "tk-checker22-16x16-frame-column-screen.png"
    lat = find_lattice(read_png(shot))
    assert (lat.rows, lat.cols, lat.unlike) == (16, 16, ())
    assert lat.pitch == pytest.approx((24.0, 24.0), abs=0.05)
    assert lat.origin == pytest.approx((11.0, 42.0), abs=0.5)


FLUSH = ["tk-stock-16x16", "xbomb-16x16", "kmines-classic-medium", "gnome-mines-1000x560"]


@pytest.mark.parametrize("name", FLUSH)
def test_a_board_flush_with_the_pictures_edge_is_found_whole(name: str) -> None:
    # A window in the screen's corner (a Tk clone from PyPI came up so) or a
    # screenshot cut to the board: its first cells start at the picture's
    # edge, their outer line on it or just past it.
    t = json.loads((BATTERY / f"{name}.json").read_text())
    window = read_png(BATTERY / f"{name}.png")
    (ox, oy), (gx, gy) = t["origin"], t["gap"]
    x, y = round(ox - gx / 2), round(oy - gy / 2)
    picture = np.ascontiguousarray(window[y:, x:])
    prof = calibrate(picture, mines=t["mines"])
    assert (prof.rows, prof.cols) == (t["rows"], t["cols"])
    # the board within the picture, and read back from it as a blank board
    left, top, width, height = prof.grid.rect()
    assert left >= 0 and top >= 0
    reading = reader_for(prof, clock=FakeClock()).read(
        picture[top : top + height, left : left + width]
    )
    assert not reading.problem and not reading.low_confidence
    assert set(reading.board.cells) == {UNKNOWN}
    # every line where the truth puts it (anywhere across its gap; each cell's
    # own start where the game lays them unevenly), the first on the picture's
    # edge at the latest where the face starts there
    for got, cut, axis in ((prof.grid.edges()[0], x, "col"), (prof.grid.edges()[1], y, "row")):
        i = 0 if axis == "col" else 1
        o, p, g = t["origin"][i] - cut, t["pitch"][i], t["gap"][i]
        starts = [s - cut for s in t[f"{axis}_starts"]] or [o + k * p for k in range(len(got) - 1)]
        assert got[0] >= 0.0
        for k, (e, start) in enumerate(zip(got, starts, strict=False)):
            assert start - g - 1.0 <= e <= start + 1.0, (axis, k, e, start)


def test_a_seamless_board_on_a_whole_screen_is_not_taken_for_oblong_cells() -> None:
    # kmines' grass 9x9 in the corner of a whole black 1920x1080 screen, as the
    # live harness grabs it: no comb holds the board, and an oblong pair tried
    # before the repeat search found 9x7 of it (blocks of two cells split back)
    window = read_png(BATTERY / "kmines-green-easy.png")
    t = json.loads((BATTERY / "kmines-green-easy.json").read_text())
    screen = np.zeros((1080, 1920, 3), np.uint8)
    screen[: window.shape[0], : window.shape[1]] = window
    lat = find_lattice(screen)
    assert (lat.rows, lat.cols, lat.unlike) == (9, 9, ())
    assert lat.pitch == pytest.approx(t["pitch"], abs=0.05)


def test_a_textured_board_small_on_a_whole_screen_is_found() -> None:
    # minegauler's grass buttons at 26 px, 9x9, grabbed with the whole screen:
    # the combs are drowned (their best pairs are multiples and near-misses),
    # and a weak pair passed over among them must still be tried afterwards
    window = read_png(BATTERY / "minegauler-textured-b26-9x9.png")
    t = json.loads((BATTERY / "minegauler-textured-b26-9x9.json").read_text())
    screen = np.zeros((1080, 1920, 3), np.uint8)  # a bare X screen is black
    screen[: window.shape[0], : window.shape[1]] = window
    lat = find_lattice(screen)
    assert (lat.rows, lat.cols, lat.unlike) == (9, 9, ())
    assert lat.pitch == pytest.approx(t["pitch"], abs=0.05)


def test_a_picture_repeating_every_four_cells_is_split_into_its_cells() -> None:
    # minegauler's grass buttons at 22 px, 16x16, grabbed with the whole screen:
    # the grass repeats every 4 cells, and the lattice found was 4x4 blocks of
    # 88.5 x 86.7 px ("40 mines do not fit a 4x4 board"). A block's pitch split
    # by 4 is 0.3 px a row off and cut 14 rows; it is refitted on its cells.
    window = read_png(BATTERY / "minegauler-textured-b22-16x16.png")
    t = json.loads((BATTERY / "minegauler-textured-b22-16x16.json").read_text())
    screen = np.zeros((1080, 1920, 3), np.uint8)
    screen[: window.shape[0], : window.shape[1]] = window
    lat = find_lattice(screen)
    assert (lat.rows, lat.cols, lat.unlike) == (16, 16, ())
    assert lat.pitch == pytest.approx(t["pitch"], abs=0.05)
    assert lat.origin == pytest.approx(t["origin"], abs=0.5)


def _gradient_beside_a_played_board(seed: int) -> np.ndarray:
    """A window's smooth background gradient on the left; on the right a board
    under way, every cell its own colour and mark, dark lines between: its
    lines give the picture a pitch, and no block of its cells is alike."""
    rng = np.random.default_rng(seed)
    h, w = 420, 640
    ramp = np.linspace(185, 145, h)[:, None] + np.linspace(0, 6, w)[None, :]
    img = np.repeat(np.clip(ramp, 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)
    p, ox, oy, n = 29, 330, 60, 9
    for r in range(n):
        for c in range(n):
            y, x = oy + r * p, ox + c * p
            img[y : y + p, x : x + p] = rng.integers(60, 250, 3)
            k = int(rng.integers(0, 4))
            img[y + 6 + k : y + 20, x + 8 : x + 12 + 2 * k] = rng.integers(0, 255, 3)
            img[y, x : x + p] = 40
            img[y : y + p, x] = 40
    return img


@pytest.mark.parametrize("seed", range(2))
def test_a_smooth_gradient_is_no_board(seed: int) -> None:
    # kmines under Qt's 125% scaling: its board's cells differ pixel for pixel
    # (every fourth pixel doubled), and the lattice of its pitch cut the
    # window's background gradient, flat but for a ramp the same in every
    # cell, into a 7x5 "board" that calibration saved. Cells with no shape
    # but a ramp are no cells.
    with pytest.raises(LatticeError):
        find_lattice(_gradient_beside_a_played_board(seed))


def test_a_small_board_at_a_whole_screens_corner_is_cut_at_its_cells_own_pitch() -> None:
    # Our page's buttons at 50% (9x9, cells exactly 16 px apart) in a browser
    # window at the screen's corner: the combs said 15.8, the board found
    # there took 15.907 px and six lines grown off it (calibration then
    # refused it as partly played). The picture's exact repeat says 16.
    window = read_png(BATTERY / "web-own-buttons-z50-9x9.png")
    t = json.loads((BATTERY / "web-own-buttons-z50-9x9.json").read_text())
    screen = np.zeros((1080, 1920, window.shape[2]), np.uint8)
    screen[: window.shape[0], : window.shape[1]] = window
    lat = find_lattice(screen)
    assert (lat.rows, lat.cols) == (9, 9)
    assert lat.grown == 0
    assert all(abs(p - q) < 0.05 for p, q in zip(lat.pitch, t["pitch"], strict=True))


def _shaded_checkerboard(
    scale: float, lit: float, shades: tuple[tuple[int, ...], ...]
) -> np.ndarray:
    """A blank 16x16 board of 29 px cells in two shades alternating as a
    checkerboard, each face a ramp lit from above, on a page shown at `scale`."""
    import cv2

    cell, n = 29, 16
    ramp = np.linspace(lit, -lit, cell)[:, None, None]
    looks = [
        np.clip(np.array(face, np.float64) + ramp + np.zeros((cell, cell, 3)), 0, 255)
        for face in shades
    ]
    page = np.full((n * cell + 120, n * cell + 100, 3), 64.0)
    for r in range(n):
        for c in range(n):
            y, x = 80 + r * cell, 40 + c * cell
            page[y : y + cell, x : x + cell] = looks[(r + c) % 2]
    out: np.ndarray = cv2.resize(
        page.astype(np.uint8), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA
    )
    return out


GREYGREENS = ((196, 214, 204), (180, 203, 190))


@pytest.mark.parametrize("lit", [4.0, 8.0])
def test_a_checkerboard_of_shaded_cells_is_found_at_its_cells_not_in_blocks(lit: float) -> None:
    # Two shades by parity, each a ramp (nearly flat at 4 levels, clear at
    # 8): at 110% each cell's rim blends in the other shade and only a 2x2
    # block of cells repeats. The finder took the blocks for cells (an 8x8
    # board of 63.8 px); cut at half their pitch they are two even shades by
    # parity, each cell alike its parity's own look (_checker_cut).
    lat = find_lattice(_shaded_checkerboard(1.1, lit, GREYGREENS))
    assert (lat.rows, lat.cols) == (16, 16)
    assert lat.unlike == ()
    assert all(abs(p - 29 * 1.1) < 0.05 for p in lat.pitch)
    assert all(abs(o - a * 1.1) < 0.5 for o, a in zip(lat.origin, (40, 80), strict=True))


def test_columns_that_blend_their_bevel_do_not_cut_the_board_short() -> None:
    # Our page's seed 1174 (bevelled faces lit from above) at 67%: 12.72 px
    # cells, each bevel blended at its own phase, and two columns of nine
    # correlate 0.63-0.76 with the typical cell (0.8 needed). The board was
    # found 4 columns wide, and saved so: the strip between the board and
    # more of it, loosely shaped as its cells with their very face inside,
    # is board.
    golden = Path(__file__).resolve().parent / "golden" / "web-own-random1174-z67-9x9-screen.png"
    lat = find_lattice(read_png(golden))
    assert (lat.rows, lat.cols) == (9, 9)
    # the page's own report: 12.7188 px apart
    assert all(abs(p - 12.7188) < 0.1 for p in lat.pitch)
