"""The learning reader's fast paths read every recorded frame exactly as the plain ones.

A custom theme is learned over played games and its learned profile plays one
more; every reader call is recorded (`tests.vision.bench_read`). The frames
are then read again by the reader as it is and by a reference reader that
matches each cell against each look one pair at a time, recomputes every
cell's content and cuts every cell's blank-look patch from every frame (the
code before the speed-up): each frame's reading (board,
unread cells, reason, alternative boards, unsure cells) must be the same.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from msolver.core.clock import FakeClock
from msolver.vision.contentbatch import contents_of
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.learning_reader import _INK_RULE, F32, Content, LearningReader, content
from msolver.vision.lookmatch import LookTable, best_look
from msolver.vision.patchcache import PatchCache, PatchMemo
from msolver.vision.profile import Profile, cell_patches, grid_patches
from tests.vision.bench_read import Tape, custom_tapes, reading_key, replay


class ReferenceReader(LearningReader):
    """The learning reader with every per-cell shortcut taken out."""

    def _patches(self, image: Image, which: list[int]) -> Image | None:
        return grid_patches(image, self._grid, which, self._offset)

    def _content(self, image: Image, i: int) -> Content:
        return content(self._tile(image, i))

    def _prefetch(self, image: Image, cells: list[int]) -> None:
        return None

    def _still(self, patches: F32 | Image, ask: list[int]) -> npt.NDArray[np.bool_]:
        return self._still_now(patches, ask)

    def _halfway_verdicts(
        self, got: F32 | Image, cells: list[int], looks: list[int]
    ) -> npt.NDArray[np.bool_]:
        return self._halfway_now(got, cells, looks)

    def _match(self, c: Content, i: int | None = None) -> tuple[int | None, bool]:
        best: int | None = None
        best_d = 1.0
        for k, look in enumerate(self.looks):
            d = c.distance(look.content)
            if d <= best_d:
                best, best_d = k, d
        if best is None:
            return None, True
        state = self.looks[best].state
        clear = all(
            look.state == state or c.distance(look.content) > 1.0
            for look in self.looks
            if look is not self.looks[best]
        )
        return best, clear


def _reference(profile: Profile, clock: FakeClock) -> LearningReader:
    return ReferenceReader(profile, clock=clock)


@pytest.fixture(scope="module")
def tapes() -> tuple[Tape, Tape]:
    learning, learned = custom_tapes(21, 3, 2)
    assert learned is not None, "the theme's games kept no learned profile"
    return learning, learned


@pytest.mark.parametrize("which", ["learning", "learned"])
def test_fast_reads_equal_the_reference_on_every_recorded_frame(
    tapes: tuple[Tape, Tape], which: str
) -> None:
    tape = tapes[0] if which == "learning" else tapes[1]
    fast, _ = replay(tape)
    slow, _ = replay(tape, _reference)
    assert len(fast) == len(slow) == tape.reads > 20
    # Frames that read opened cells against looks (not only blank boards).
    opened = [r for r in slow if any(s >= 0 for s in r.board.cells)]
    assert len(opened) > 10
    for k, (a, b) in enumerate(zip(fast, slow, strict=True)):
        assert reading_key(a) == reading_key(b), f"frame {k}"


def test_look_table_distances_are_bit_identical_to_content_distance() -> None:
    rng = np.random.default_rng(7)
    looks: list[Content] = []
    for k in range(40):
        face = rng.integers(0, 256, 3).astype(np.float64)
        if k % 3 == 0:
            looks.append(Content(face))
        else:
            looks.append(
                Content(
                    face,
                    rng.integers(0, 256, 3).astype(np.float64),
                    rng.random(100),
                    float(rng.normal(0.0, 0.3)),
                )
            )
    from msolver.vision import learning_reader as lr

    table = LookTable(lr.FACE_TOL, lr.INK_TOL, lr.SHAPE_TOL, lr.ASPECT_TOL)
    for a in looks:
        table.add(a.face, a.ink, a.shape, a.aspect)
    for c in looks[:12]:
        # near copies too, so some distances fall within 1
        near = Content(
            c.face + 3.0,
            None if c.ink is None else c.ink + 5.0,
            None if c.shape is None else np.clip(c.shape + 0.01, 0.0, 1.0),
            c.aspect + 0.01,
        )
        for q in (c, near):
            want = np.array([q.distance(a) for a in looks])
            got = table.distances(q.face, q.ink, q.shape, q.aspect)
            assert got.tobytes() == want.tobytes()
            assert (
                (got[5:]).tobytes()
                == table.distances(q.face, q.ink, q.shape, q.aspect, start=5).tobytes()
            )
            assert any(want <= 1.0)


def test_best_look_is_the_last_nearest_within_one() -> None:
    assert best_look(np.array([1.5, 2.0])) is None
    assert best_look(np.array([], dtype=np.float64)) is None
    assert best_look(np.array([0.5, 0.2, 0.9, 0.2, 1.0])) == 3
    assert best_look(np.array([1.0, 3.0])) == 0


@pytest.mark.parametrize("pitch", [(20.0, 20.0), (33.0, 33.0), (21.4, 19.7), (7.0, 7.0)])
def test_patch_cache_cuts_as_cell_patches_frame_after_frame(pitch: tuple[float, float]) -> None:
    rng = np.random.default_rng(int(pitch[0] * 10))
    rows, cols = 6, 9
    origin = (13.3, 8.6)
    offset = (5, 3)
    h = int(origin[1] + rows * pitch[1]) + 10
    w = int(origin[0] + cols * pitch[0]) + 10
    cache = PatchCache(Grid(origin, pitch, rows, cols), offset)
    image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    n = rows * cols
    for frame in range(12):
        if frame:
            # a few boxes of new pixels, some single pixels, sometimes none at all
            for _ in range(int(rng.integers(0, 4))):
                y, x = int(rng.integers(0, h - 8)), int(rng.integers(0, w - 8))
                image[y : y + 8, x : x + 8] = rng.integers(0, 256, (8, 8, 3), dtype=np.uint8)
            y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
            image[y, x, int(rng.integers(0, 3))] ^= 1
        which = sorted(int(i) for i in rng.choice(n, size=int(rng.integers(1, n)), replace=False))
        got = cache.get(image.copy(), which)
        want = cell_patches(image, origin, pitch, rows, cols, which, offset)
        assert got is not None and want is not None
        assert got.tobytes() == want.tobytes(), f"frame {frame}"
    # A grab that does not hold the board: as cell_patches, None.
    assert cache.get(image[: h // 2], [0]) is None


def test_patch_cache_cuts_an_uneven_board_at_each_lines_own_edge() -> None:
    # GTK at 1000x560: columns 27 px apart, then 26 (one line a pixel off).
    rng = np.random.default_rng(11)
    xs = tuple(10.0 + 27 * c if c <= 4 else 10.0 + 27 * 4 + 26 * (c - 4) for c in range(10))
    ys = tuple(6.0 + 27 * r if r <= 2 else 6.0 + 27 * 2 + 26 * (r - 2) for r in range(7))
    grid = Grid((xs[0], ys[0]), (26.4, 26.3), 6, 9, xs, ys)
    cache = PatchCache(grid, (0, 0))
    image = rng.integers(0, 256, (200, 260, 3), dtype=np.uint8)
    every = list(range(54))
    for frame in range(6):
        if frame:
            y, x = int(rng.integers(0, 180)), int(rng.integers(0, 240))
            image[y : y + 12, x : x + 12] = rng.integers(0, 256, (12, 12, 3), dtype=np.uint8)
        got = cache.get(image.copy(), every)
        want = grid_patches(image, grid, every)
        assert got is not None and want is not None
        assert got.tobytes() == want.tobytes(), f"frame {frame}"


def _parts(c: Content) -> tuple[bytes, bytes, bytes, float, bool, bytes, bytes]:
    light, dark = c.tones
    return (
        c.face.tobytes(),
        b"" if c.ink is None else c.ink.tobytes(),
        b"" if c.shape is None else c.shape.tobytes(),
        c.aspect,
        c.faint,
        b"-" if light is None else light.tobytes(),
        b"-" if dark is None else dark.tobytes(),
    )


def test_contents_of_many_boxes_equal_content_of_each(tapes: tuple[Tape, Tape]) -> None:
    learned = tapes[1]
    p = learned.profile
    reader = LearningReader(p)
    frames = [call[1].image() for call in learned.calls if call[0] == "read"]
    cells = range(p.rows * p.cols)
    boxes = [np.ascontiguousarray(reader._tile(f, i)) for f in frames[-3:] for i in cells]
    # boxes of other sizes and looks: noise, flat faces, a 6 px box (rim only)
    rng = np.random.default_rng(5)
    others = [rng.integers(0, 256, (24, 24, 3), dtype=np.uint8) for _ in range(5)]
    others += [np.full((24, 24, 3), 90, dtype=np.uint8) for _ in range(2)]
    tiny = [rng.integers(0, 256, (2, 2, 3), dtype=np.uint8) for _ in range(3)]
    inked = 0
    for group in (boxes, others):
        got = contents_of(group, _INK_RULE)
        assert got is not None and len(got) == len(group)
        for box, parts in zip(group, got, strict=True):
            if parts is None:
                continue  # a glyph run into the rim: content takes the box alone
            want = content(box)
            assert _parts(Content(*parts)) == _parts(want)
            inked += want.ink is not None
    # Boxes with no inside are left to content.
    assert contents_of(tiny, _INK_RULE) is None
    assert inked > 100


def test_contents_kept_by_pixels_stay_within_their_bound(
    tapes: tuple[Tape, Tape], monkeypatch: pytest.MonkeyPatch
) -> None:
    from msolver.vision import learning_reader as lr

    tape = tapes[1]
    want = [reading_key(r) for r in replay(tape)[0]]
    made: list[LearningReader] = []

    def make(profile: Profile, clock: FakeClock) -> LearningReader:
        made.append(LearningReader(profile, clock=clock))
        return made[-1]

    monkeypatch.setattr(lr, "_SHOWN_BYTES", 40_000)
    readings, _ = replay(tape, make)
    # cleared whenever over the bound: at most one bound plus one frame's new boxes
    box = tape.profile.cell_size[0] * tape.profile.cell_size[1] * 3
    assert 0 < made[0]._shown_bytes <= 40_000 + tape.profile.rows * tape.profile.cols * box
    assert [reading_key(r) for r in readings] == want


def test_patch_memo_asks_again_only_for_new_bytes_or_keys() -> None:
    rng = np.random.default_rng(11)
    n = 20
    patches = rng.integers(0, 256, (n, 8, 8, 3), dtype=np.uint8)
    asked: list[list[int]] = []

    def verdict(got: Image, cells: list[int], keys: list[int]) -> npt.NDArray[np.bool_]:
        asked.append(cells)
        # a verdict of the bytes and the key: odd sum of the first channel, xor key parity
        return np.array(
            [(int(p[..., 0].sum()) + k) % 2 == 1 for p, k in zip(got, keys, strict=True)]
        )

    def truth(cells: list[int], keys: list[int]) -> list[bool]:
        pairs = zip(cells, keys, strict=True)
        return [(int(patches[i][..., 0].sum()) + k) % 2 == 1 for i, k in pairs]

    memo = PatchMemo(n)
    cells = list(range(0, n, 2))
    keys = [3] * len(cells)
    assert memo.get(patches[cells], cells, verdict, keys).tolist() == truth(cells, keys)
    assert asked == [cells]
    # the same bytes and keys: nothing asked
    assert memo.get(patches[cells], cells, verdict, keys).tolist() == truth(cells, keys)
    assert len(asked) == 1
    # one patch changed, one key changed: only those two asked
    patches[4, 0, 0, 0] ^= 1
    keys2 = [3] * len(cells)
    keys2[0] = 4
    got = memo.get(patches[cells], cells, verdict, keys2)
    assert got.tolist() == truth(cells, keys2)
    assert asked[-1] == [0, 4]
    memo.reset()
    memo.get(patches[cells], cells, verdict, keys2)
    assert asked[-1] == cells


@pytest.mark.parametrize("channels", [3, 4])
def test_patch_cache_on_whole_pixel_boxes_and_four_channel_grabs(channels: int) -> None:
    rng = np.random.default_rng(channels)
    rows, cols, pitch = 5, 7, (12.0, 12.0)
    origin, offset = (20.0, 9.0), (2, 1)
    cache = PatchCache(Grid(origin, pitch, rows, cols), offset)
    image = rng.integers(0, 256, (90, 120, channels), dtype=np.uint8)
    every = list(range(rows * cols))
    for frame in range(8):
        if frame:
            y, x = int(rng.integers(0, 90)), int(rng.integers(0, 120))
            image[y, x, int(rng.integers(0, channels))] ^= 4
        got = cache.get(image.copy(), every)
        want = cell_patches(image, origin, pitch, rows, cols, every, offset)
        assert got is not None and want is not None
        assert got.tobytes() == want.tobytes(), f"frame {frame}"


def test_halfway_verdicts_kept_per_patch_equal_the_formula(tapes: tuple[Tape, Tape]) -> None:
    """`_halfway`'s memo gives `_halfway_now`'s verdict for every patch and look, as
    patches and looks change between calls and when the blank looks change."""
    profile = tapes[1].profile
    reader = LearningReader(profile)
    assert len(reader.looks) >= 2
    rng = np.random.default_rng(7)
    n = profile.rows * profile.cols
    blank = np.clip(np.rint(reader._blank), 0, 255).astype(np.uint8)
    look_patches = [
        np.clip(np.rint(np.asarray(look.patch)), 0, 255).astype(np.uint8) for look in reader.looks
    ]
    cells = [int(i) for i in rng.choice(n, 60, replace=False)]
    looks = [int(k) for k in rng.integers(0, len(reader.looks), len(cells))]
    # A third still blank, a third showing their look, a third in between.
    patches = np.stack(
        [
            blank[i]
            if j % 3 == 0
            else look_patches[k]
            if j % 3 == 1
            else ((blank[i].astype(np.uint16) + look_patches[k]) // 2).astype(np.uint8)
            for j, (i, k) in enumerate(zip(cells, looks, strict=True))
        ]
    )
    seen = set()
    for step in range(6):
        if step == 2:
            patches[::5] = rng.integers(0, 256, patches[::5].shape, dtype=np.uint8)
        if step == 3:
            looks = [(k + 1) % len(reader.looks) if j % 4 == 0 else k for j, k in enumerate(looks)]
        if step == 4:
            reader._blank = np.roll(reader._blank, 1, axis=0)  # new blank looks: memo reset
        got = reader._halfway_verdicts(patches.copy(), cells, looks)
        want = reader._halfway_now(patches.astype(np.float32), cells, looks)
        assert got.tolist() == want.tolist(), f"step {step}"
        seen |= set(got.tolist())
    assert seen == {True, False}
