"""A theme never seen: learned from a blank board and finished boards by the game's rules alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from msolver.core.board import UNKNOWN
from msolver.vision import grid
from msolver.vision.classify import read_board
from msolver.vision.geometry import Grid
from msolver.vision.learn import LearnError, learn_theme, profile_from_examples
from msolver.vision.profile import STATE_OF_LABEL, load_profile
from tests.vision.conftest import ROOT, SHOTS, corpus, shot, truth

XDEM = SHOTS / "xdemineur"
_LABEL = {state: label for label, state in STATE_OF_LABEL.items()}


def test_xdemineur_learned_without_its_builtin_profile_reads_every_shot_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # withhold the built-in theme: calibration must not pass it off as another
    monkeypatch.setattr(grid, "BUILTIN_NAMES", ("sgt-mines", "gnome-mines"))
    blank = shot(XDEM / "x21-g0-start.png")
    # (xdemineur opens cells at launch: calibration refuses to learn from it
    # rather than name it; learning takes the board's geometry on its own)
    with pytest.raises(grid.CalibrationError, match="show a new, unplayed board"):
        grid.calibrate(blank, mines=99)
    # images only: two lost boards and a won one; no truth, no labels
    finished = [shot(XDEM / f"{n}.png") for n in ("x21-g0-lost", "x21-g2-lost", "x21-g1-won")]
    learned = learn_theme(blank, finished, mines=99, name="held-out")
    assert learned.unnamed == ()
    labels = set(learned.profile.tiles)
    assert {"unknown", "0", "1", "2", "3", "4", "5", "mine", "exploded", "flag"} <= labels
    shots = corpus("xdemineur")
    assert len(shots) >= 10
    seen_unlearned = 0
    for p in shots:
        res = read_board(shot(p), learned.profile)
        want = truth(p)
        low = {r * 30 + c for r, c in res.low_confidence}
        for i, (got, true) in enumerate(zip(res.board.cells, want.cells, strict=True)):
            if _LABEL[true] in labels:
                assert i not in low and got == true, (p.name, divmod(i, 30))
            else:
                # a kind the learning boards never showed (a 7, a wrong flag)
                # is reported as unsure, never read as something else
                assert i in low and got == UNKNOWN, (p.name, divmod(i, 30))
                seen_unlearned += 1
    assert seen_unlearned > 0


def test_learning_refuses_what_its_rules_cannot_explain() -> None:
    # gnome-mines draws its tiles anti-aliased on a fractional pitch: the
    # exact appearance classes do not hold, and learning must say so rather
    # than hand out a profile that misreads
    blank = shot(SHOTS / "gnome-mines" / "w1200-g0-start.png")
    lost = [shot(SHOTS / "gnome-mines" / f"{n}.png") for n in ("w1200-g0-lost", "w1200-g1-lost")]
    with pytest.raises(LearnError, match="no rule explains"):
        learn_theme(blank, lost, mines=99)
    with pytest.raises(LearnError, match="at least one finished"):
        learn_theme(blank, [], mines=99)
    with pytest.raises(LearnError, match="blank board"):
        learn_theme(np.zeros((300, 300, 3), np.uint8), lost, mines=99)


def test_builtin_profiles_are_the_corpus_tiles(tmp_path: Path) -> None:
    # calibration/*.json are data built from the recorded screenshots, not drawn by hand
    spec = importlib.util.spec_from_file_location(
        "build_profiles", ROOT / "scripts" / "build_profiles.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for game in ("sgt-mines", "xdemineur"):
        built = module.build(game)
        shipped = load_profile(game)
        assert (built.origin, built.pitch, built.new_game) == (
            shipped.origin,
            shipped.pitch,
            shipped.new_game,
        )
        assert set(built.tiles) == set(shipped.tiles)
        for label, variants in built.tiles.items():
            assert len(variants) == len(shipped.tiles[label])
            for a, b in zip(variants, shipped.tiles[label], strict=True):
                assert np.array_equal(a, b), (game, label)


def _widened(img: np.ndarray) -> np.ndarray:
    """An xdemineur shot (boxes from (16, 81), 21 px apart) with its first 10
    columns and 4 rows a pixel wider, as a toolkit laying cells at whole pixels
    unevenly does: each next cell starts a pixel later."""
    xs = [16 + 21 * k for k in range(1, 11)]
    ys = [81 + 21 * k for k in range(1, 5)]
    out = np.insert(img, xs, img[:, xs], axis=1)
    return np.ascontiguousarray(np.insert(out, ys, out[ys], axis=0))


def test_a_profile_from_examples_on_an_uneven_board_keeps_each_lines_edges() -> None:
    names = ("x21-g0-lost", "x21-g2-lost", "x21-g1-won")
    examples = [(_widened(shot(XDEM / f"{n}.png")), truth(XDEM / f"{n}.png")) for n in names]
    true = Grid.from_edges(
        [16.0 + 21 * k + min(k, 10) for k in range(31)],
        [81.0 + 21 * k + min(k, 4) for k in range(17)],
    )
    # Given a pixel off (a lattice fit places a board's edge to half a pixel):
    # the whole-pixel shift that cuts the truest tiles moves every line's edge.
    prof = profile_from_examples("uneven", "xdemineur", examples, grid=true.moved(1.0, -1.0))
    assert not prof.grid.uniform
    assert prof.grid.cell_edges() == true.cell_edges()
    for img, want in examples:
        res = read_board(img, prof)
        assert res.low_confidence == () and res.board == want
