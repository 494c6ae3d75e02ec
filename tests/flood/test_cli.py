"""`msolver flood solve` and `msolver flood bench`: output contract and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msolver.cli import main
from msolver.flood.core import FloodBoard, winning

DATA = Path(__file__).resolve().parent / "data"
BOARDS = DATA / "pc19-sample-boards.txt"
OPTIMAL = DATA / "pc19-sample-optimal.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["flood", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_json_gives_a_winning_optimal_sequence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BOARDS.read_text().split()[0]
    ref = OPTIMAL.read_text().split()[0]
    path = tmp_path / "board.txt"
    path.write_text(text + "\n")
    status, out, _ = run(capsys, "solve", str(path), "--json")
    assert status == 0
    got = json.loads(out)
    assert set(got) == {"moves", "length", "optimal"}
    board = FloodBoard.parse(text)
    assert got["length"] == len(got["moves"]) == len(ref)
    assert got["optimal"] is True
    assert winning(board, [board.symbol_index(ch) for ch in got["moves"]])


def test_solve_text_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("aab\nbca\nccb\n"))
    status, out, _ = run(capsys, "solve", "-")
    assert status == 0
    moves, summary = out.splitlines()
    board = FloodBoard.parse("aab\nbca\nccb")
    assert winning(board, [board.symbol_index(ch) for ch in moves])
    assert summary == f"{len(moves)} moves (optimal)"


def test_bench_json_keys_and_figures(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "bench",
        "--boards",
        str(BOARDS),
        "--optimal",
        str(OPTIMAL),
        "--limit",
        "19",
        "--json",
    )
    assert status == 0
    got = json.loads(out)
    for key in (
        "boards",
        "total_moves",
        "mean_moves",
        "wins",
        "optimal_hits",
        "ms_per_board",
        "ms_max",
    ):
        assert key in got
    lengths = [len(s) for s in OPTIMAL.read_text().split()]
    assert got["boards"] == 7
    assert got["total_moves"] == sum(lengths)
    assert got["optimal_hits"] == 7
    assert got["wins"] == sum(n <= 19 for n in lengths) < 7  # the limit is applied
    assert 0 < got["ms_per_board"] <= got["ms_max"]


@pytest.mark.parametrize(
    ("text", "extra", "needle"),
    [
        ("123\n12\n", (), "row 1: 2 cells, expected 3 (ragged board)"),
        ("123\n1x3\n1.3\n", (), "row 2, col 1: unknown character '.'"),
        ("12345\n", ("--colours", "4"), "row 0, col 4: colour '5' is one more than the 4"),
        ("\n\n", (), "no board: the text is empty"),
    ],
)
def test_solve_bad_boards_are_one_line_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    extra: tuple[str, ...],
    needle: str,
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    status, out, err = run(capsys, "solve", str(path), *extra)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err and str(path) in err


def test_bench_bad_files_name_the_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = BOARDS.read_text().split()
    boards = tmp_path / "boards.txt"
    boards.write_text("\n".join([lines[0], lines[1][:-1] + "#", lines[2]]) + "\n")
    status, _, err = run(capsys, "bench", "--boards", str(boards))
    assert status == 2
    assert err.count("\n") == 1 and "line 2: board 2: row 13, col 13: unknown character '#'" in err

    boards.write_text("\n".join(lines[:2]) + "\n")
    wrong = tmp_path / "opt.txt"
    refs = OPTIMAL.read_text().split()
    wrong.write_text(refs[0] + "\n" + refs[0] + "\n")  # board 1's answer does not win board 2
    status, _, err = run(capsys, "bench", "--boards", str(boards), "--optimal", str(wrong))
    assert status == 2
    assert err.count("\n") == 1 and "line 2: this sequence does not win board 2" in err

    wrong.write_text(refs[0] + "\n")
    status, _, err = run(capsys, "bench", "--boards", str(boards), "--optimal", str(wrong))
    assert status == 2 and "1 solutions for 2 boards" in err

    status, _, err = run(capsys, "bench", "--boards", str(tmp_path / "missing.txt"))
    assert status == 2 and "missing.txt: cannot read" in err
