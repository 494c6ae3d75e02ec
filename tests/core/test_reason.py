"""Reasons: each sentence names a proof a person can check on the board, and it holds."""

from __future__ import annotations

import re
from itertools import combinations

import pytest

from msolver.core.bench import apply_moves
from msolver.core.board import FLAG, UNKNOWN, Board, neighbours_table
from msolver.core.game import Game, Status
from msolver.core.solver import Decision, Move, Solver, analyse
from msolver.core.solver.constraints import MINE_STATES
from msolver.core.solver.reason import count_text, explain, explain_all, percent


def board_of(text: str) -> Board:
    """`*` a hidden mine, `F` a flagged mine, `o` a hidden safe cell, `.` an opened cell.

    Opened cells show the number the mines give them, so every board is one
    a real game could show.
    """
    rows = [r.strip() for r in text.strip().splitlines()]
    width, height = len(rows[0]), len(rows)
    flat = "".join(rows)
    mines = {i for i, ch in enumerate(flat) if ch in "*F"}
    nbrs = neighbours_table(width, height)
    cells = []
    for i, ch in enumerate(flat):
        if ch == "F":
            cells.append(FLAG)
        elif ch in "*o":
            cells.append(UNKNOWN)
        else:
            cells.append(sum(j in mines for j in nbrs[i]))
    return Board(width, height, len(mines), tuple(cells))


def reason_for(board: Board, row: int, col: int) -> str:
    """The reason of the decision's move on (row, col), counted from 0."""
    d = Solver().decide(board)
    i = board.index(row, col)
    moves = [m for m in d.moves if m.index == i]
    assert moves, f"the solver did not play ({row},{col}): {d}"
    return explain(board, d, moves[0])


def test_one_number_that_already_has_its_mine() -> None:
    # numbers: row 1 "F 1 . . .", row 2 "1 1 . . ."; the 1 at (1,2) touches the flag
    board = Board.parse("F1...\n11...\n.....\n.....", 3)
    assert reason_for(board, 0, 2) == "safe: the 1 at (0,1) already touches its mine at (0,0)"


def test_one_number_that_needs_every_unknown_cell() -> None:
    # the 3 at (2,2) has exactly three hidden neighbours, all mines
    board = board_of("**..\n*...\n....\noooo")
    assert reason_for(board, 0, 0) == (
        "mine: the 3 at (1,1) needs 3 more mines and has 3 unknown cells left"
    )


def test_the_mine_count() -> None:
    assert reason_for(board_of("F.\n.o"), 1, 1) == "safe: the one mine is flagged"
    assert reason_for(board_of("*.\n.."), 0, 0) == "mine: 1 mine left for the 1 unknown cell"


def test_pair_of_numbers_that_need_the_same_mine() -> None:
    # numbers 1 1 1 1 under four hidden cells: the 1 at (2,1) sees (1,1),(1,2), both
    # also seen by the 1 at (2,2), which therefore has no mine for (1,3)
    board = board_of("*oo*\n....\n....")
    assert reason_for(board, 0, 2) == (
        "safe by the pair (1,0)/(1,1): every unknown cell of the 1 at (1,0) is next to "
        "the 1 at (1,1), and both need 1 mine"
    )


def test_pair_of_numbers_where_one_needs_more() -> None:
    # numbers 1 1 2 1: the 2 at (2,3) needs one more mine than the 1 at (2,2) and
    # has one cell, (1,4), the 1 does not see: it is the mine, so (1,1) is safe
    board = board_of("o*o*\n....\n....")
    assert Solver().decide(board).tier == "pairs"
    assert reason_for(board, 0, 0) == (
        "safe by the pair (1,2)/(1,1): the 2 at (1,2) needs 1 more mine than the 1 at (1,1) "
        "and has 1 cell it does not see"
    )
    assert reason_for(board, 0, 3).startswith("mine by the pair (1,2)/(1,1)")


def test_exact_count() -> None:
    # one mine, and the 1 at (2,2) holds it among its 8 neighbours: 8 layouts,
    # none with a mine on columns 4-5
    board = board_of("*oooo\no.ooo\nooooo")
    assert Solver().decide(board).tier == "probability"
    assert reason_for(board, 0, 4) == "exact count: 0 of 8 layouts put a mine here"


def test_forced_fifty_fifty() -> None:
    # (1,1)/(1,2) share one mine; the flags wall them off from every other
    # cell, and the hidden rows below hold too many layouts for the endgame
    board = board_of(
        "*oF.....\n..F.....\n........\nFFFFFFFF\n"
        "*ooooooo\n*ooooooo\noo*ooo*o\noooooooo\nooo**ooo\no*oooooo"
    )
    d = Solver().decide(board)
    assert d.tier == "guess"
    assert explain(board, d) == "guess: a 50/50 with (0,1) that no number can ever settle"


def test_endgame_counts_the_layouts_it_wins() -> None:
    # two hidden cells, one mine, nothing can tell them apart: 1 of 2 layouts
    board = board_of("*o\n..\n..")
    d = Solver().decide(board)
    assert d.tier == "endgame"
    assert explain(board, d) == "endgame: wins 1 of 2 remaining layouts (50% mine now)"


def _brute_next_safe(board: Board, cell: int) -> float:
    """By listing every layout: P(cell safe and the safest cell after it safe)."""
    unknown = [i for i, s in enumerate(board.cells) if s == UNKNOWN]
    flags = {i for i, s in enumerate(board.cells) if s in MINE_STATES}
    left = board.mines - len(flags)
    fits = []
    for combo in combinations(unknown, left):
        mines = flags | set(combo)
        if all(
            s < 0 or s == sum(j in mines for j in board.neighbours(i))
            for i, s in enumerate(board.cells)
        ):
            fits.append(mines)
    groups: dict[int, list[set[int]]] = {}
    for mines in fits:
        if cell not in mines:
            groups.setdefault(sum(j in mines for j in board.neighbours(cell)), []).append(mines)
    total = 0.0
    for group in groups.values():
        rest = [c for c in unknown if c != cell]
        safest = min(sum(c in m for m in group) for c in rest) if rest else 0
        total += len(group) / len(fits) * (1 - safest / len(group))
    return total


def test_guess_says_its_risk_candidates_and_next_safety() -> None:
    # the 1 in the middle holds one of the five mines among its 8 neighbours
    # (12.5% each); the 16 outer cells hold four (25%): 8 cells near the safest,
    # of which the guess tier weighs its most, 6
    board = board_of("*ooo*\nooooo\no*.oo\nooooo\n*ooo*")
    d = Solver().decide(board)
    assert d.tier == "guess"
    text = explain(board, d)
    m = re.fullmatch(
        r"guess: 12\.5% mine, best of 6 candidates; next move safe with ([0-9.]+)%", text
    )
    assert m, text
    assert float(m.group(1)) == pytest.approx(
        100 * _brute_next_safe(board, d.moves[0].index), abs=0.05
    )


def test_a_guess_among_readings_of_an_unsure_tile_says_so() -> None:
    # (vision.naming.decide_among's decision: the board is one of several)
    board = board_of("*ooo*\nooooo\no*.oo\nooooo\n*ooo*")
    d = Decision("ok", "", (Move("open", 0, 0.5),), False, "alternatives")
    assert explain(board, d) == (
        "guess: 50% mine on the worst of the boards a tile not named yet allows"
    )
    d = Decision("ok", "", (Move("open", 0, 0.5),), False, "likeliest")
    assert explain(board, d) == (
        "guess: the safest cell on the reading the tiles not named yet look most like, "
        "50% mine on the worst of the boards they allow"
    )


def test_first_click_and_finished_and_inconsistent() -> None:
    d = Solver("safe").decide(Board.blank(9, 9, 10))
    assert explain(Board.blank(9, 9, 10), d) == "first click: safe by the game's first-click rule"
    d = Solver("none").decide(Board.blank(9, 9, 10))
    assert explain(Board.blank(9, 9, 10), d) == "first click: 12.3% mine, nothing is open yet"
    done = Board.parse("1F\n11", 1)
    assert explain(done, Solver().decide(done)) == "done: no unknown cell left"
    bad = Board.parse("3.\n..", 1)
    d = Solver().decide(bad)
    assert explain(bad, d) == f"inconsistent: {d.reason}"


def test_number_formats() -> None:
    assert count_text(1240) == "1,240"
    assert count_text(3_200_000_000_000_000_000_000) == "3.2e21"
    assert percent(0.125) == "12.5%"
    assert percent(0.5) == "50%"


_PLACE = r"\((\d+),(\d+)\)"


def _check(board: Board, decision: Decision, move: Move, text: str) -> None:
    """Every claim the sentence makes about the board holds."""

    def at(m: re.Match[str], k: int) -> int:
        return board.index(int(m.group(k)), int(m.group(k + 1)))

    def touches(i: int, j: int) -> bool:
        return j in board.neighbours(i)

    if m := re.fullmatch(rf"safe: the (\d) at {_PLACE} already touches its mines? at (.*)", text):
        n = at(m, 2)
        assert board.cells[n] == int(m.group(1)) and touches(n, move.index)
        named = [board.index(int(r), int(c)) for r, c in re.findall(_PLACE, m.group(4))]
        assert len(named) == board.cells[n]
        assert all(board.cells[j] in MINE_STATES and touches(n, j) for j in named)
    elif m := re.fullmatch(rf"mine: the (\d) at {_PLACE} needs (\d) more mines? and .*", text):
        n = at(m, 2)
        unknown = [j for j in board.neighbours(n) if board.cells[j] == UNKNOWN]
        flags = sum(board.cells[j] in MINE_STATES for j in board.neighbours(n))
        assert move.index in unknown and len(unknown) == int(m.group(4)) == board.cells[n] - flags
    elif m := re.match(rf"(safe|mine) by the pair {_PLACE}/{_PLACE}", text):
        a, b = at(m, 2), at(m, 4)
        ua = {j for j in board.neighbours(a) if board.cells[j] == UNKNOWN}
        ub = {j for j in board.neighbours(b) if board.cells[j] == UNKNOWN}
        need_a = board.cells[a] - sum(board.cells[j] in MINE_STATES for j in board.neighbours(a))
        need_b = board.cells[b] - sum(board.cells[j] in MINE_STATES for j in board.neighbours(b))
        assert ua & ub and need_a - need_b == len(ua - ub)
        assert move.index in (ua - ub if m.group(1) == "mine" else ub - ua)
    elif m := re.fullmatch(r"exact count: (0 of|all) ([0-9,.e]+) layouts put a mine here", text):
        counted = analyse(board)
        assert counted.prob[move.index] == (1.0 if m.group(1) == "all" else 0.0)
        assert m.group(2) == count_text(counted.layouts)
    elif text.startswith(("guess: ", "endgame: ")):
        assert not decision.certain
        assert percent(move.p_mine) in text or "50/50" in text
    elif text.startswith("safe: all ") or text.startswith("safe: the one mine"):
        assert board.known_mines() == board.mines
    elif text.startswith("mine: ") and "left for the" in text:
        assert board.mines - board.known_mines() == board.count(UNKNOWN)
    else:
        assert text.startswith("first click: "), text


@pytest.mark.parametrize("rule", ["safe", "opening"])
def test_every_reason_of_simulated_games_holds_on_its_board(rule: str) -> None:
    kinds = {"safe:", "mine:", "safe pair", "mine pair", "exact", "guess:", "first"}
    seen: set[str] = set()
    # Games until every kind of proof has come up (a dozen or so are enough).
    for seed in range(40):
        if kinds <= seen:
            break
        game = Game(16, 16, 40, seed=seed, first_click=rule)  # type: ignore[arg-type]
        solver = Solver(rule, batch_proven=True)  # type: ignore[arg-type]
        while game.status is Status.PLAYING:
            board = game.board
            d = solver.decide(board)
            assert d.status == "ok"
            for move, text in zip(d.moves, explain_all(board, d), strict=True):
                _check(board, d, move, text)
                seen.add(text.split(" ")[0] + (" pair" if "pair" in text else ""))
            apply_moves(game, d.moves)
    # the games exercised every kind of proof
    assert kinds <= seen
