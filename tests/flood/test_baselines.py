"""The published bots' play (greedy area, k-move area lookahead), kept for comparison."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from msolver.cli import main
from msolver.flood.baselines import lookahead
from msolver.flood.core import FloodBoard, winning
from msolver.flood.solver import solve

DATA = Path(__file__).resolve().parent / "data"


def test_greedy_takes_the_colour_that_floods_most_cells() -> None:
    # From the corner, colour 2 takes 1 cell and colour 3 takes 3: greedy plays 3.
    board = FloodBoard.parse("123\n333\n222")
    moves = lookahead(board, 1)
    assert moves[0] == board.symbol_index("3")
    assert winning(board, moves)


def test_lookahead_deep_enough_finds_the_shortest_win() -> None:
    rng = random.Random(3)
    checked = 0
    while checked < 15:
        w, h, k = rng.randint(3, 5), rng.randint(3, 4), rng.randint(2, 4)
        text = "\n".join("".join(str(rng.randint(1, k)) for _ in range(w)) for _ in range(h))
        board = FloodBoard.parse(text)
        best = len(solve(board).moves)
        if not 1 <= best <= 4:
            continue
        assert len(lookahead(board, 4)) == best, text
        checked += 1


def test_greedy_is_worse_than_the_solver_on_pc19_sample() -> None:
    boards = [FloodBoard.parse(t) for t in (DATA / "pc19-sample-boards.txt").read_text().split()]
    greedy = [lookahead(b, 1) for b in boards]
    assert all(winning(b, m) for b, m in zip(boards, greedy, strict=True))
    optimal = [len(s) for s in (DATA / "pc19-sample-optimal.txt").read_text().split()]
    assert sum(map(len, greedy)) > sum(optimal)


def test_bench_strategy_option(capsys: pytest.CaptureFixture[str]) -> None:
    boards = str(DATA / "pc19-sample-boards.txt")
    assert (
        main(
            [
                "flood",
                "bench",
                "--boards",
                boards,
                "--strategy",
                "lookahead",
                "--depth",
                "2",
                "--json",
            ]
        )
        == 0
    )
    got = json.loads(capsys.readouterr().out)
    assert got["strategy"] == "lookahead2" and got["boards"] == 7 and got["proved_optimal"] == 0
    assert (
        main(["flood", "bench", "--boards", boards, "--strategy", "lookahead", "--depth", "0"]) == 2
    )
    assert "--depth 0: must be at least 1" in capsys.readouterr().err
