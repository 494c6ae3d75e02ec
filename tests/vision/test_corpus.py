"""The recorded corpus: its truth agrees with the games' rules, and every shot reads exactly."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, Board
from msolver.vision.classify import read_board
from msolver.vision.grid import calibrate
from msolver.vision.profile import load_profile
from tests.vision.conftest import GAMES, corpus, shot, truth


def _games() -> dict[str, list[Path]]:
    """Shots of one played game: "<game>/<size>-g<n>" (gnome, xdemineur) or "<game>/<size>"."""
    out: dict[str, list[Path]] = defaultdict(list)
    for p in corpus():
        parts = p.stem.split("-")
        key = "-".join(parts[:2]) if len(parts) > 2 and parts[1].startswith("g") else parts[0]
        out[f"{p.parent.name}/{key}"].append(p)
    return out


def _mines(final: Board) -> set[int]:
    if EXPLODED in final.cells:  # a lost board shows its mines (gnome-mines, xdemineur)
        return {i for i, s in enumerate(final.cells) if s in (MINE, EXPLODED, FLAG)}
    return {i for i, s in enumerate(final.cells) if s in (UNKNOWN, FLAG)}  # won: the rest


def test_corpus_covers_every_game_and_the_issue_asks_for() -> None:
    for game in GAMES:
        shots = corpus(game)
        assert len(shots) >= 10, game
        assert any("lost" in p.stem for p in shots), game
        states = set()
        for p in shots:
            states |= set(truth(p).cells)
        assert {UNKNOWN, FLAG, EXPLODED, 0, 1, 2, 3, 4, 5} <= states, (game, states)
    sizes = {p.stem.split("-")[0] for p in corpus("sgt-mines")}
    assert sizes == {"t16", "t20", "t30"}


@pytest.mark.parametrize("group", sorted(_games()))
def test_truth_agrees_with_the_mines_the_finished_game_shows(group: str) -> None:
    # The truth was not produced by the classifier: every number in every
    # recorded frame equals its count of the mines that the finished game
    # shows (gnome-mines and xdemineur show them on a loss; sgt-mines games
    # were started from a known layout, and its won board flags every mine).
    shots = _games()[group]
    finals = [p for p in shots if p.stem.endswith(("-lost", "-won"))]
    won = [p for p in finals if p.stem.endswith("-won")]
    if group.startswith("sgt-mines"):
        final = truth(won[0])
    else:
        assert len(finals) == 1
        final = truth(finals[0])
    mines = _mines(final)
    assert len(mines) == 99
    for p in shots:
        board = truth(p)
        for i, s in enumerate(board.cells):
            if s >= 0:
                assert i not in mines, (p.name, divmod(i, 30))
                assert s == sum(j in mines for j in board.neighbours(i)), (p.name, divmod(i, 30))
            elif s == EXPLODED:
                assert i in mines


@pytest.mark.parametrize("path", corpus(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_recorded_shot_reads_exactly_after_auto_calibration(path: Path) -> None:
    img = shot(path)
    prof = calibrate(img, mines=99)
    assert prof.theme == path.parent.name
    res = read_board(img, prof)
    assert res.low_confidence == ()
    assert res.board.to_text() == truth(path).to_text()


@pytest.mark.parametrize("game", GAMES)
def test_builtin_profile_reads_its_default_window_without_calibrating(game: str) -> None:
    prof = load_profile(game)
    size = {"sgt-mines": "t20", "gnome-mines": "w1200", "xdemineur": "x21"}[game]
    shots = [p for p in corpus(game) if p.stem.startswith(size)]
    assert shots
    for p in shots:
        res = read_board(shot(p), prof)
        assert res.low_confidence == (), p.name
        assert res.board == truth(p), p.name
