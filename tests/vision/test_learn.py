"""A theme never seen: learned from a blank board and finished boards by the game's rules alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from msolver.core.board import UNKNOWN
from msolver.vision import grid
from msolver.vision.classify import read_board
from msolver.vision.learn import LearnError, learn_theme
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
