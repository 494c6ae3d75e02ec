"""The classifier: robust to noise, JPEG, recoloured digits; unsure cells reported, not guessed."""

from __future__ import annotations

import numpy as np
import pytest

from msolver.core.board import UNKNOWN
from msolver.vision.classify import ReadError, read_board
from msolver.vision.dryrun import _recolour
from msolver.vision.geometry import Grid
from msolver.vision.grid import CalibrationError, calibrate, find_grid
from msolver.vision.image import Image, px
from msolver.vision.profile import Profile, load_profile
from tests.vision.conftest import SHOTS, shot, truth

MID = [
    SHOTS / "sgt-mines" / "t20-lost.png",
    SHOTS / "sgt-mines" / "t16-mid2.png",
    SHOTS / "sgt-mines" / "t30-won.png",
    SHOTS / "xdemineur" / "x21-g1-f45.png",
    SHOTS / "gnome-mines" / "w1200-g1-f52.png",
]


def _box(prof: Profile, r: int, c: int) -> tuple[slice, slice]:
    x, y, w, h = prof.grid.cell_box(r, c)
    return slice(px(y), px(y + h)), slice(px(x), px(x + w))


@pytest.mark.parametrize("path", MID, ids=lambda p: p.stem)
@pytest.mark.parametrize("sigma", [6.0, 12.0])
def test_gaussian_noise_reads_exactly(path: object, sigma: float) -> None:
    img = shot(path)  # type: ignore[arg-type]
    prof = calibrate(img, mines=99)
    rng = np.random.default_rng(int(sigma))
    noisy = np.clip(img + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8)
    res = read_board(noisy, prof)
    assert res.low_confidence == ()
    assert res.board == truth(path)  # type: ignore[arg-type]


@pytest.mark.parametrize("path", MID, ids=lambda p: p.stem)
def test_jpeg_artefacts_read_exactly(path: object) -> None:
    import cv2

    img = shot(path)  # type: ignore[arg-type]
    prof = calibrate(img, mines=99)
    ok, buf = cv2.imencode(".jpg", img[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 75])
    assert ok
    jpeg = np.ascontiguousarray(cv2.imdecode(buf, cv2.IMREAD_COLOR)[:, :, ::-1])
    res = read_board(jpeg, prof)
    assert res.low_confidence == ()
    assert res.board == truth(path)  # type: ignore[arg-type]


@pytest.mark.parametrize("path", MID, ids=lambda p: p.stem)
def test_digits_recoloured_per_cell_read_exactly(path: object) -> None:
    # a contest server recoloured the digits of every image at random
    img = shot(path).copy()  # type: ignore[arg-type]
    prof = calibrate(img, mines=99)
    board = truth(path)  # type: ignore[arg-type]
    rng = np.random.default_rng(7)
    changed = 0
    for i, s in enumerate(board.cells):
        if 1 <= s <= 8:
            ys, xs = _box(prof, *divmod(i, 30))
            before = img[ys, xs].copy()
            img[ys, xs] = _recolour(img[ys, xs], rng)
            changed += int(not np.array_equal(before, img[ys, xs]))
    assert changed > 20
    res = read_board(img, prof)
    assert res.low_confidence == ()
    assert res.board == board


def _paint(img: Image, prof: Profile, cell: tuple[int, int], tile: Image) -> None:
    ys, xs = _box(prof, *cell)
    img[ys, xs] = tile


def test_unclear_cells_are_reported_and_read_as_unknown_never_guessed() -> None:
    path = SHOTS / "sgt-mines" / "t20-mid2.png"
    prof = load_profile("sgt-mines")
    tiles = prof.tiles_at()
    img = shot(path).copy()
    board = truth(path)
    three = next(i for i, s in enumerate(board.cells) if s == 3)
    one = next(i for i, s in enumerate(board.cells) if s == 1)
    zero = next(i for i, s in enumerate(board.cells) if s == 0)
    # half a 3 and half a 7: neither
    blend = (tiles["3"][0].astype(np.uint16) + tiles["7"][0]) // 2
    _paint(img, prof, divmod(three, 30), blend.astype(np.uint8))
    # something that is no tile at all (a cursor, a pop-up corner)
    _paint(img, prof, divmod(one, 30), np.full((20, 20, 3), (255, 0, 255), np.uint8))
    # half opened, half unopened (a redraw caught midway)
    half = tiles["unknown"][0].copy()
    half[:, 10:] = tiles["0"][0][:, 10:]
    _paint(img, prof, divmod(zero, 30), half)
    res = read_board(img, prof)
    low = {r * 30 + c for r, c in res.low_confidence}
    assert low == {three, one, zero}
    for i, (got, want) in enumerate(zip(res.board.cells, board.cells, strict=True)):
        assert got == (UNKNOWN if i in low else want), divmod(i, 30)
    assert all(res.confidence.flat[i] < 0.35 for i in low)


def test_one_is_not_an_unopened_tile_and_three_is_not_seven() -> None:
    # every pairing the issue names, for every theme and recorded size
    for game in ("sgt-mines", "gnome-mines", "xdemineur"):
        prof = load_profile(game)
        for size in prof.tile_sizes():
            tiles = prof.tiles_at(size)
            for label in ("1", "3", "7", "unknown"):
                if label not in tiles:
                    continue
                w, h = size
                strip = np.concatenate([tiles[label][0]] * 2, axis=1)
                one = prof.with_changes(
                    origin=(0.0, 0.0), pitch=(float(w), float(h)), rows=1, cols=2, mines=0
                )
                res = read_board(strip, one)
                assert res.labels == (label, label), (game, size, label)
                assert res.low_confidence == ()


def test_a_profile_for_another_game_refuses_to_read() -> None:
    img = shot(SHOTS / "xdemineur" / "x21-g1-f45.png")
    sgt = load_profile("sgt-mines").moved_to((16.0, 81.0)).with_changes(pitch=(21.0, 21.0))
    with pytest.raises(ReadError, match="match no tile of profile 'sgt-mines'"):
        read_board(img, sgt)


def test_a_board_outside_the_image_refuses_to_read() -> None:
    img = shot(SHOTS / "sgt-mines" / "t20-blank.png")
    prof = load_profile("sgt-mines").moved_to((500.0, 300.0))
    with pytest.raises(ReadError, match="lies outside"):
        read_board(img, prof)


def test_reads_a_bgra_grab_as_mss_returns_it() -> None:
    img = shot(SHOTS / "sgt-mines" / "t20-mid1.png")
    bgra = np.concatenate([img[:, :, ::-1], np.full((*img.shape[:2], 1), 255, np.uint8)], 2)
    res = read_board(bgra, load_profile("sgt-mines"))
    assert res.board == truth(SHOTS / "sgt-mines" / "t20-mid1.png")


DIGITS = "12345678"


def _noisy_recolours(tile: Image, rng: np.random.Generator, n: int) -> list[Image]:
    out = []
    for _ in range(n):
        t = _recolour(tile, rng).astype(np.float64) + rng.normal(0, 10, tile.shape)
        out.append(np.clip(np.rint(t), 0, 255).astype(np.uint8))
    return out


def _read_tiles(prof: Profile, tiles: list[Image]) -> tuple[list[str], list[float]]:
    """Read tiles laid out as a one-row board of the profile's theme."""
    w, h = prof.cell_size
    img = np.concatenate(tiles, axis=1)
    one_row = prof.with_changes(origin=(0.0, 0.0), rows=1, cols=len(tiles), mines=1)
    assert img.shape[:2] == (h, w * len(tiles))
    res = read_board(img, one_row, image_origin=(0, 0))
    return list(res.labels), [float(c) for c in res.confidence.ravel()]


@pytest.mark.parametrize("game", ["sgt-mines", "xdemineur"])
def test_pale_and_bold_digits_recoloured_under_noise_read_surely(game: str) -> None:
    # xdemineur's 5 is pale pink, its 6 bold green: scaled to the black grid
    # line, the 5 recoloured dark once read as an unsure 6
    prof = load_profile(game)
    rng = np.random.default_rng(7)
    for digit in DIGITS:
        labels, conf = _read_tiles(prof, _noisy_recolours(prof.tiles[digit][0], rng, 40))
        assert labels == [digit] * 40
        assert min(conf) >= 0.35, (digit, min(conf))


@pytest.mark.parametrize("game", ["sgt-mines", "xdemineur", "gnome-mines"])
def test_a_digit_the_profile_never_saw_is_reported_not_read_as_its_neighbour(game: str) -> None:
    # a learned theme knows only the digits its example boards showed: a 6
    # is near a 5 on the whole, and must come out unsure, not a 5
    full = load_profile(game)
    rng = np.random.default_rng(11)
    for digit in DIGITS:
        tiles = {k: v for k, v in full.tiles.items() if k != digit}
        prof = full.with_changes(tiles=tiles)
        unseen = [full.tiles[digit][0]] * 3 + _noisy_recolours(full.tiles[digit][0], rng, 20)
        # amid known tiles, or the whole board would rightly be refused
        known = [full.tiles["unknown"][0], full.tiles["0"][0]] * 50
        labels, conf = _read_tiles(prof, unseen + known)
        sure = [(lab, round(c, 2)) for lab, c in zip(labels, conf[:23], strict=False) if c >= 0.35]
        assert sure == [], (digit, sure)
        assert labels[23:] == ["unknown", "0"] * 50


# -- reading fast: equal cells found on the raw pixels -------------------------------


def _spread(uniq: Image, inverse: np.ndarray) -> Image:
    out: Image = uniq[inverse]
    return out


@pytest.mark.parametrize("seed", range(40))
def test_distinct_cells_resample_to_the_bytes_of_the_whole_board(seed: int) -> None:
    import cv2

    from msolver.vision.distinct import _unique_cells_u8, sample_cells_u8

    rng = np.random.default_rng(seed)
    pw, ph = int(rng.integers(8, 60)), int(rng.integers(8, 60))
    rows, cols = int(rng.integers(1, 17)), int(rng.integers(1, 31))
    # a few tile designs repeated, one cell of noise: equal and distinct cells
    tiles = rng.integers(0, 256, size=(4, ph, pw, 3), dtype=np.uint8)
    tiles = np.stack([cv2.GaussianBlur(t, (0, 0), 1.5) for t in tiles])
    pick = rng.integers(0, 4, size=(rows, cols))
    board = tiles[pick].transpose(0, 2, 1, 3, 4).reshape(rows * ph, cols * pw, 3)
    board = np.ascontiguousarray(board)
    board[int(rng.integers(0, rows * ph)), int(rng.integers(0, cols * pw))] ^= 1
    img = np.zeros((rows * ph + 9, cols * pw + 7, 3), dtype=np.uint8)
    img[5 : 5 + rows * ph, 3 : 3 + cols * pw] = board
    origin = (3.0 + float(rng.uniform(-0.49, 0.49)), 5.0)
    uniq, inverse = _unique_cells_u8(img, origin, (float(pw), float(ph)), rows, cols)
    assert len(uniq) <= min(rows * cols, 5)
    whole = sample_cells_u8(img, origin, (float(pw), float(ph)), rows, cols)
    assert np.array_equal(_spread(uniq, inverse), whole)


@pytest.mark.parametrize("path", MID, ids=lambda p: p.stem)
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_distinct_cells_of_a_shot_are_its_whole_board_samples(path: object, scale: float) -> None:
    from msolver.vision.distinct import _unique_cells_u8, sample_cells_u8
    from tests.vision.conftest import scaled

    img = scaled(shot(path), scale)  # type: ignore[arg-type]
    try:
        prof: Grid | Profile = calibrate(img, mines=99)
    except CalibrationError:  # a finished board of no known theme: its geometry suffices
        prof = find_grid(img)
    args = (img, prof.origin, prof.pitch, prof.rows, prof.cols)
    uniq, inverse = _unique_cells_u8(*args)
    if scale == 1.0:  # at a fractional pitch equal cells sit at different phases
        assert len(uniq) < prof.rows * prof.cols // 4
    assert np.array_equal(_spread(uniq, inverse), sample_cells_u8(*args))


def test_cells_that_share_a_hash_are_not_read_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from msolver.vision import distinct

    # every row hashes alike: only the full comparison keeps them apart
    monkeypatch.setattr(distinct, "_multipliers", lambda width: np.zeros(width, dtype=np.uint64))
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 3, size=(50, 4), dtype=np.uint64)
    rows[:10] = rows[0]
    first, inverse = distinct._groups(rows)
    assert np.array_equal(rows[first][inverse], rows)
    path = MID[-1]
    img = shot(path)
    res = read_board(img, load_profile("gnome-mines"))
    assert res.low_confidence == ()
    assert res.board.cells == truth(path).cells


# -- reading a scaled board on cell windows ------------------------------------------

BLANK_OF = {
    "t20-mid2": "t20-blank",
    "x21-g1-f45": "x21-g0-start",
    "w1200-g1-f52": "w1200-g0-start",
}


@pytest.mark.parametrize("stem", list(BLANK_OF))
@pytest.mark.parametrize("scale", [1.25, 1.5, 1.75, 2.0])
def test_scaled_board_reads_exactly_on_cell_windows(stem: str, scale: float) -> None:
    from msolver.vision import distinct
    from tests.vision.conftest import scaled

    game = next(p.parent.name for p in SHOTS.glob(f"*/{stem}.png"))
    blank = scaled(shot(SHOTS / game / f"{BLANK_OF[stem]}.png"), scale)
    img = scaled(shot(SHOTS / game / f"{stem}.png"), scale)
    prof = calibrate(blank, mines=99)
    res = read_board(img, prof)
    assert res.low_confidence == ()
    assert res.board == truth(SHOTS / game / f"{stem}.png")
    # few distinct samples whichever way: at a fractional pitch the whole
    # boxes sit at many sub-pixel phases with blended edges, and the read
    # went by the windows (of the board cut as read_board cuts it: a grid
    # with its own line edges, the recorded last row laid a pixel short
    # scaled past 1 px, is cut cell by cell onto an even lattice first)
    cut, even = prof.grid.restitched(img)
    uniq, _inverse, windowed = distinct._read_cells(
        cut, even.origin, even.pitch, prof.rows, prof.cols
    )
    assert len(uniq) <= prof.rows * prof.cols // 3
    if not all(float(p).is_integer() for p in prof.pitch):
        assert windowed


@pytest.mark.parametrize("scale", [1.25, 1.75])
def test_scaled_noisy_board_reads_exactly(scale: float) -> None:
    from tests.vision.conftest import scaled

    path = SHOTS / "gnome-mines" / "w1200-g1-f52.png"
    prof = calibrate(scaled(shot(SHOTS / "gnome-mines" / "w1200-g0-start.png"), scale), mines=99)
    img = scaled(shot(path), scale)
    rng = np.random.default_rng(7)
    noisy = np.clip(img + rng.normal(0, 8.0, img.shape), 0, 255).astype(np.uint8)
    res = read_board(noisy, prof)
    assert res.low_confidence == ()
    assert res.board == truth(path)


@pytest.mark.parametrize("size", [16, 20, 33, 48])
def test_window_kernel_at_whole_pixels_is_an_area_resize(size: int) -> None:
    import cv2

    from msolver.vision.features import K, _area_kernel, _kernel_samples

    rng = np.random.default_rng(size)
    tile = rng.integers(0, 256, size=(size, size, 3), dtype=np.uint8)
    k = _area_kernel(0.0, float(size), size)
    assert np.allclose(k.sum(axis=1), 1.0, atol=1e-6)
    ours = _kernel_samples(tile[None], k[None], k[None])[0].astype(int)
    theirs = cv2.resize(tile, (K, K), interpolation=cv2.INTER_AREA).astype(int)
    assert np.abs(ours - theirs).max() <= 1


def test_window_kernel_moves_with_its_phase() -> None:
    from msolver.vision.features import K, _area_kernel

    # a half-pixel later start takes half of the first pixel and half of one more
    k0 = _area_kernel(0.0, 40.0, 41)
    k1 = _area_kernel(0.5, 40.0, 41)
    assert np.allclose(k1.sum(axis=1), 1.0, atol=1e-6)
    assert k0[:, 40].max() == 0 and k1[K - 1, 40] > 0
    assert k1[0, 0] == pytest.approx(0.5 * k0[0, 0])
