from __future__ import annotations

import json
import subprocess
import sys

import pytest

from msolver.core.bench import play_one, run, summarise
from msolver.core.board import Board, Cell
from msolver.core.game import Game, Status
from msolver.core.solver import Decision, Move, Solver, _certain, analyse
from msolver.core.solver.constraints import Constraints, Inconsistent, build
from msolver.core.solver.guess import forced_pair


def test_certain_moves_come_as_one_batch_and_are_right() -> None:
    g = Game(30, 16, 99, seed=11, first_click="opening")
    solver = Solver("opening")
    first = solver.decide(g.board)
    g.open(first.moves[0].index)
    for _ in range(200):
        d = solver.decide(g.board)
        if d.status == "done" or g.status is not Status.PLAYING:
            break
        if d.certain:
            assert len({m.index for m in d.moves}) == len(d.moves)
            for m in d.moves:
                assert g.is_mine(m.index) == (m.kind == "flag")
        for m in d.moves:
            (g.flag if m.kind == "flag" else g.open)(m.index)


@pytest.mark.parametrize(
    ("width", "height", "mines", "rule", "cell"),
    [
        (30, 16, 99, "opening", (3, 3)),
        (16, 16, 51, "opening", (3, 3)),  # intermediate's size at expert's density
        (16, 16, 40, "opening", (2, 2)),
        (30, 16, 75, "opening", (2, 2)),  # expert's size at intermediate's density
        (9, 9, 10, "opening", (2, 2)),
        (9, 9, 20, "opening", (3, 3)),  # beginner's size at a quarter mines
        (6, 6, 9, "opening", (2, 2)),  # dense, but three in would pass the middle
        (3, 2, 1, "opening", (1, 2)),
        (30, 16, 99, "safe", (0, 0)),
        (30, 16, 99, "xp", (15, 29)),  # the far corner from where a moved mine goes
    ],
)
def test_the_first_click_goes_where_the_rule_wins_most(
    width: int, height: int, mines: int, rule: str, cell: tuple[int, int]
) -> None:
    board = Board.blank(width, height, mines)
    d = Solver(rule).decide(board)  # type: ignore[arg-type]
    assert d.moves[0].kind == "open"
    assert board.cell(d.moves[0].index) == Cell(*cell)


def test_a_batching_solver_sends_all_the_count_proves() -> None:
    # A simulated position where one number settles one cell and only the
    # exact count settles the other.
    board = Board.parse("2F1011\nF2101F\n.20122\nF311F1\n.F1111\n", 7)
    cheap = Solver("safe", verify=False).decide(board)
    assert Solver("safe").decide(board) == cheap  # batching is asked for, not the default
    full = Solver("safe", batch_proven=True).decide(board)
    assert full.certain and full.tier == cheap.tier
    assert {(m.kind, m.index) for m in cheap.moves} < {(m.kind, m.index) for m in full.moves}
    cs = build(board)
    assert not isinstance(cs, Inconsistent)
    a = analyse(board, cs)
    assert {m.index for m in full.moves if m.kind == "open"} == set(a.safe)
    assert {m.index for m in full.moves if m.kind == "flag"} == set(a.mines)


def test_inconsistent_board_is_a_value_not_a_crash() -> None:
    board = Board.parse("3..\n...\n...", 1)
    d = Solver().decide(board)
    assert d.status == "inconsistent"
    assert "need at least 3 mines but only 1" in d.reason


# Bottom-left: two unknown cells share one mine and touch no other unknown
# cell (the flags wall them off), so nothing can ever settle them. The open
# area on the right is safer per cell (4 mines in 15 cells).
FORCED = """\
02F.....
14F.....
..F.....
"""


def test_a_forced_fifty_fifty_is_taken_at_once() -> None:
    board = Board.parse(FORCED, 8)
    d = Solver("safe").decide(board)
    assert d.status == "ok" and not d.certain
    (move,) = d.moves
    assert move.kind == "open" and move.index in (board.index(2, 0), board.index(2, 1))
    assert move.p_mine == pytest.approx(0.5)


def test_a_fifty_fifty_that_column_two_cannot_tell_apart_is_forced() -> None:
    # On two rows, a number opened in column 2 touches both cells of the
    # pair in column 1: it counts them together and never tells them apart.
    board = Board.parse("1..\n1..\n", 2)
    assert forced_pair(board, _cs("1..\n1..\n", 2)) in (1, 4)
    assert forced_pair(Board.parse(FORCED, 8), _cs(FORCED, 8)) in (16, 17)
    # a third row gives column 2 a cell that touches only the lower one
    assert forced_pair(Board.parse("1..\n1..\n...", 2), _cs("1..\n1..\n...", 2)) is None


# A pair under a wall of flags, one mine between them (the 3s say so), with
# unknown cells below that touch both: whatever those show counts the pair
# together, so no later number can tell the pair apart.
WALLED_ABOVE = """\
F33F
F..F
F..F
....
"""

# The pair is fenced by known cells, but the 4 sees only the right one of
# them and three unknown cells beyond: settling those settles the pair.
SEEN_FROM_ONE_SIDE = """\
F32F..
F..4..
FFFF..
"""


def test_a_fifty_fifty_with_shared_unknown_neighbours_is_forced() -> None:
    board = Board.parse(WALLED_ABOVE, 9)
    assert forced_pair(board, _cs(WALLED_ABOVE, 9)) in (board.index(1, 1), board.index(1, 2))
    (move,) = Solver("safe").decide(board).moves
    assert move.index in (board.index(1, 1), board.index(1, 2))
    assert move.p_mine == pytest.approx(0.5)


def test_a_pair_one_number_sees_alone_is_not_forced() -> None:
    board = Board.parse(SEEN_FROM_ONE_SIDE, 10)
    assert forced_pair(board, _cs(SEEN_FROM_ONE_SIDE, 10)) is None


def _cs(text: str, mines: int) -> Constraints:
    cs = build(Board.parse(text, mines))
    assert not isinstance(cs, Inconsistent)
    return cs


def test_beginner_games_are_mostly_won_and_reproducible() -> None:
    results = run(9, 9, 10, "opening", 40, seed=5)
    again = run(9, 9, 10, "opening", 40, seed=5, workers=2)
    assert [r.won for r in results] == [r.won for r in again]
    assert summarise(results).wins >= 34  # 97% is the target; 40 games leave room for luck


def test_a_game_ends_won_or_lost() -> None:
    r = play_one(16, 16, 40, "safe", seed=3, index=0)
    assert r.move_ms


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "msolver.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_solve_json_contract() -> None:
    p = run_cli("solve", "-", "--mines", "4", "--json", stdin="..1.\n..1.\n1221\n....\n")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["status"] == "ok" and out["width"] == 4 and out["height"] == 4
    assert out["probabilities"][2][0] is None
    assert out["probabilities"][0][1] == pytest.approx(0.5)
    assert [1, 0] in out["safe"] and [0, 0] in out["mines"]
    assert out["best"]["p_mine"] == 0.0


def test_cli_solve_batch_keeps_order() -> None:
    lines = [
        json.dumps({"board": "..1.\n..1.\n1221\n....", "mines": 4}),
        json.dumps({"board": "3..\n...\n...", "mines": 1}),
        json.dumps({"board": "....\n....", "mines": 2}),
    ]
    p = run_cli("solve", "--batch", stdin="\n".join(lines) + "\n")
    assert p.returncode == 0, p.stderr
    outs = [json.loads(x) for x in p.stdout.splitlines()]
    assert [o["status"] for o in outs] == ["ok", "inconsistent", "ok"]
    assert outs[2]["probabilities"][0][0] == pytest.approx(0.25)


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (("solve", "-", "--mines", "4"), "..x.\n", "row 0, col 2"),
        (("solve", "-", "--mines", "-1"), "....\n", "negative"),
        (("solve", "-", "--mines", "9"), "....\n", "exceeds"),
        (("solve", "-", "--mines", "1"), "...\n..\n", "ragged"),
        (("solve", "--batch"), '{"board": "..", "mines": -3}\n', "line 1"),
        (("solve", "--batch"), "{not json\n", "line 1, column 2"),
        (("bench", "--width", "3", "--height", "3", "--mines", "9", "--games", "1"), "", "fit"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(args: tuple[str, ...], stdin: str, needle: str) -> None:
    p = run_cli(*args, stdin=stdin)
    assert p.returncode == 2
    err = p.stderr.strip()
    assert needle in err and len(err.splitlines()) == 1, err


def test_cli_inconsistent_board_exits_0_with_json() -> None:
    p = run_cli("solve", "-", "--mines", "1", "--json", stdin="3..\n...\n...\n")
    assert p.returncode == 0
    assert json.loads(p.stdout)["status"] == "inconsistent"


def test_cli_bench_json_and_sweep(tmp_path: object) -> None:
    from pathlib import Path

    tmp = Path(str(tmp_path))
    p = run_cli(
        "bench",
        "--level",
        "beginner",
        "--first-click",
        "opening",
        "--games",
        "20",
        "--seed",
        "2",
        "--json",
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    for key in ("games", "wins", "win_rate", "ci95", "ms_per_game", "ms_per_move_p99"):
        assert key in out
    assert out["games"] == 20 and out["ci95"][0] <= out["win_rate"] <= out["ci95"][1]
    p = run_cli(
        "bench",
        "--sweep-mines",
        "10:12",
        "--width",
        "10",
        "--height",
        "10",
        "--games",
        "10",
        "--plot",
        str(tmp / "s.png"),
        "--csv",
        str(tmp / "s.csv"),
    )
    assert p.returncode == 0, p.stderr
    assert (tmp / "s.png").read_bytes()[:4] == b"\x89PNG"
    rows = (tmp / "s.csv").read_text().splitlines()
    assert rows[0].startswith("mines,") and len(rows) == 4


def test_a_verified_decision_carries_the_probabilities_it_counted() -> None:
    board = Board.parse("..1.\n..1.\n1221\n....\n", 4)
    d = Solver("safe").decide(board)
    assert d.analysis is not None
    assert d.analysis.prob == analyse(board).prob
    # The cheap rules alone count nothing.
    assert Solver("safe", verify=False).decide(board).analysis is None


def test_the_hint_reuses_the_solvers_count(monkeypatch: pytest.MonkeyPatch) -> None:
    import msolver.play.hint as hint

    board = Board.parse("..1.\n..1.\n1221\n....\n", 4)
    expected = hint.render_hint(board)

    def counted_twice(*_a: object, **_k: object) -> None:
        raise AssertionError("the hint counted the board a second time")

    monkeypatch.setattr(hint, "analyse", counted_twice)
    assert hint.render_hint(board) == expected


def test_a_certain_decision_made_through_its_slots_is_the_checked_one() -> None:
    made = _certain({4, 1}, {9}, "trivial", None)
    moves = (Move("open", 1, 0.0), Move("open", 4, 0.0), Move("flag", 9, 1.0))
    checked = Decision("ok", "", moves, True, "trivial", None)
    assert made == checked and repr(made) == repr(checked) and hash(made) == hash(checked)
    assert made.analysis is None
