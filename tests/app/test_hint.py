"""`msolver hint`: the picture on recorded screenshots, its JSON, bad input; `solve`'s reason."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from msolver.app.main import main
from msolver.core.board import Board
from msolver.core.solver import Solver
from msolver.core.solver.reason import explain
from msolver.vision.image import read_png
from msolver.vision.overlay import RING, cell_centre
from tests.vision.conftest import SHOTS, truth

SHOT = SHOTS / "sgt-mines" / "t20-mid2.png"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_json_is_solve_json_with_reason_and_geometry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_png = tmp_path / "h.png"
    code, out, _ = _run(
        ["hint", str(SHOT), "--profile", "sgt-mines", "-o", str(out_png), "--json"], capsys
    )
    assert code == 0
    result = json.loads(out)
    board = truth(SHOT)
    assert (result["height"], result["width"]) == (board.height, board.width)
    decision = Solver().decide(board)
    assert result["reason"] == explain(board, decision, decision.moves[0])
    geo = result["image"]
    image = read_png(SHOT)
    assert (geo["image_width"], geo["image_height"]) == (image.shape[1], image.shape[0])
    assert (geo["rows"], geo["cols"]) == (board.height, board.width)
    # The ringed cell on the written picture is the JSON's best move.
    pic = read_png(out_png)
    best = result["best"]
    ring = np.all(pic[: image.shape[0]] == RING, axis=-1)
    ys, xs = np.nonzero(ring)
    assert len(xs) > 0
    from msolver.vision.geometry import Grid

    grid = Grid(tuple(geo["origin"]), tuple(geo["pitch"]), geo["rows"], geo["cols"])
    cx, cy = cell_centre(grid, best["row"], best["col"])
    assert abs(xs.mean() - cx) < grid.pitch[0] / 2 and abs(ys.mean() - cy) < grid.pitch[1] / 2


def test_hint_bad_input_exits_2_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_png = tmp_path / "h.png"
    out_png.write_bytes(b"old")
    code, _, err = _run(["hint", str(tmp_path / "none.png"), "-o", str(out_png)], capsys)
    assert code == 2 and err.count("\n") == 1 and "no such file" in err
    code, _, err = _run(
        ["hint", str(SHOT), "--profile", "no-such-profile", "-o", str(out_png)], capsys
    )
    assert code == 2 and err.count("\n") == 1
    code, _, err = _run(["hint", str(SHOT), "-o", str(tmp_path / "no" / "x.png")], capsys)
    assert code == 2 and "does not exist" in err
    not_png = tmp_path / "bad.png"
    not_png.write_text("hello")
    code, _, err = _run(["hint", str(not_png), "-o", str(out_png)], capsys)
    assert code == 2 and "not an image" in err
    # An empty or folder-like path names no screenshot (found by the CLI fuzz test).
    for bad in ("", ".", str(tmp_path) + "/.."):
        code, _, err = _run(["hint", bad], capsys)
        assert code == 2 and err.count("\n") == 1 and "not a screenshot file" in err
    assert out_png.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_hint_auto_calibrates_an_untouched_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_png = tmp_path / "h.png"
    blank = SHOTS / "sgt-mines" / "t16-blank.png"
    code, out, _ = _run(["hint", str(blank), "--auto", "-o", str(out_png), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["reason"].startswith("first click")
    assert read_png(out_png).shape[0] > read_png(blank).shape[0]  # the caption strip


def test_solve_json_and_text_carry_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board.parse("F1...\n11...\n.....\n.....", 3)
    src = tmp_path / "b.txt"
    src.write_text(board.to_text())
    code, out, _ = _run(["solve", str(src), "--mines", "3", "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    best = result["best"]
    assert result["reason"] == explain(
        board,
        Solver().decide(board),
        next(m for m in Solver().decide(board).moves if m.index == best["row"] * 5 + best["col"]),
    )
    assert "(0,1)" in result["reason"]  # places counted from 0, like the JSON
    code, out, _ = _run(["solve", str(src), "--mines", "3"], capsys)
    assert code == 0 and f"why: {result['reason']}" in out
