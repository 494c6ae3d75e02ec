"""A lost game's mines in a look not named yet, far from every click, are never
numbered (`naming.name_looks`' `mines_only`).

Ace of Penguins' minesweeper, 32x32 with 200 mines, played as a theme never
seen (`tests.e2e.bench_battery.run_one`, 2026-11-28): the third click, a
guess, hit a mine and the game drew all 200 in a look no frame had shown.
Only mines may show where no opening of ours reaches, yet the naming search
tried numbering that look on its 199 cells, and counting one such board
(199 numbers across the board) took every byte of the machine's 24 GB: the
player was killed by the kernel. The recording is that game's three frames
and the frame of the loss (cut from the screen grabbed after the kill).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from msolver.core.board import EXPLODED, MINE, Board
from msolver.core.solver.probability import Analysis
from msolver.vision import naming
from tests.support.replay import recorded

RECORDING = Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "ace-32x32-loss"


def test_the_loss_reads_as_mines_without_numbering_the_far_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = naming.analyse

    def analyse(board: Board, *args: Any, **kwargs: Any) -> Analysis:
        # Before the board had three numbers; a board numbering the far look
        # has 199 more (checked before counting it: that count was the blow-up).
        opened = sum(1 for s in board.cells if s >= 0)
        assert opened < 100, "the naming search numbers the lost game's mines"
        return real(board, *args, **kwargs)

    monkeypatch.setattr(naming, "analyse", analyse)
    readings = recorded(RECORDING)
    last = readings[-1][1]
    assert not last.problem, last.problem
    cells = last.board.cells
    assert cells[3] == EXPLODED  # row 0, col 3: the guess
    assert cells.count(MINE) == 199
