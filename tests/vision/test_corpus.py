"""The recorded corpus: its truth agrees with the games' rules, and every shot reads exactly."""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, Board
from msolver.vision.classify import read_board
from msolver.vision.grid import calibrate
from msolver.vision.profile import Profile, load_profile
from tests.vision.conftest import GAMES, corpus, mines_of, shot, truth


def _games() -> dict[str, list[Path]]:
    """Shots of one played game: "<game>/<size>-g<n>" (gnome, xdemineur) or "<game>/<size>"."""
    out: dict[str, list[Path]] = defaultdict(list)
    for p in corpus():
        parts = p.stem.split("-")
        game = [i for i, x in enumerate(parts) if x[:1] == "g" and x[1:].isdigit()]
        key = "-".join(parts[: game[0] + 1]) if game else parts[0]
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
        assert {UNKNOWN, FLAG, EXPLODED, 0, 1, 2, 3, 4, 5, 6, 7, 8} <= states, (game, states)
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
    assert len(mines) == final.mines
    for p in shots:
        board = truth(p)
        for i, s in enumerate(board.cells):
            if s >= 0:
                assert i not in mines, (p.name, divmod(i, 30))
                assert s == sum(j in mines for j in board.neighbours(i)), (p.name, divmod(i, 30))
            elif s == EXPLODED:
                assert i in mines


BLANK = {"t16": "t16-blank", "t20": "t20-blank", "t30": "t30-blank"}
BLANK |= {"w1200": "w1200-g0-start", "x21": "x21-g0-start"}


@cache
def _calibrated(blank: Path, mines: int) -> Profile:
    return calibrate(shot(blank), mines=mines)


@pytest.mark.parametrize("path", corpus(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_recorded_shot_reads_exactly_once_calibrated_on_a_blank_board(path: Path) -> None:
    blank = path.parent / f"{BLANK[path.stem.split('-')[0]]}.png"
    prof = _calibrated(blank, mines_of(path))
    assert prof.theme == path.parent.name
    res = read_board(shot(path), prof)
    assert res.low_confidence == ()
    assert res.board == truth(path)


@pytest.mark.parametrize(
    "path",
    [p for p in corpus() if mines_of(p) == 99],
    ids=lambda p: f"{p.parent.name}/{p.stem}",
)
def test_a_game_under_way_calibrates_from_its_own_picture(path: Path) -> None:
    img = shot(path)
    prof = calibrate(img, mines=99)
    assert prof.theme == path.parent.name
    res = read_board(img, prof)
    assert res.low_confidence == ()
    assert res.board == truth(path)


@pytest.mark.parametrize("game", GAMES)
def test_builtin_profile_reads_its_default_window_without_calibrating(game: str) -> None:
    prof = load_profile(game)
    size = {"sgt-mines": "t20", "gnome-mines": "w1200", "xdemineur": "x21"}[game]
    shots = [p for p in corpus(game) if p.stem.startswith(size)]
    assert shots
    for p in shots:
        res = read_board(shot(p), prof)
        assert res.low_confidence == (), p.name
        assert res.board.cells == truth(p).cells, p.name
