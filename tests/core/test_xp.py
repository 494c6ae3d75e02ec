"""The XP rule's weighted count against every layout the game could lay."""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache
from itertools import combinations

import pytest

from msolver.core.board import FLAG, UNKNOWN, Board
from msolver.core.game import Game
from msolver.core.solver import Solver, endgame, xp
from msolver.core.solver.constraints import Inconsistent, build
from msolver.core.solver.probability import analyse


def _laid(width: int, height: int, mines: int, first: int) -> list[frozenset[int]]:
    """Every uniformly laid layout (each once), after the XP rule moved its mine."""
    out = []
    for laid in combinations(range(width * height), mines):
        mined = set(laid)
        if first in mined:
            mined.remove(first)
            mined.add(next(i for i in range(width * height) if i not in mined and i != first))
        out.append(frozenset(mined))
    return out


def _shows(board: Board, mined: frozenset[int], i: int) -> int:
    return sum(1 for j in board.neighbours(i) if j in mined)


@pytest.mark.parametrize(
    ("width", "height", "mines", "opened", "flagged"),
    [
        (4, 3, 4, (11,), ()),  # the run's cells off the frontier: counted together
        (4, 3, 4, (11, 5), ()),  # the run starts on the frontier
        (5, 3, 5, (14, 2), ()),  # one run cell off the frontier, then one on it
        (4, 3, 3, (11, 0), ()),  # the run's first cell open: no weights
        (5, 3, 5, (14,), (0,)),  # a known mine in the run: the run goes on through it
        (4, 4, 5, (15, 6), ()),
        (6, 3, 6, (17, 9), ()),
    ],
)
def test_weighted_chances_match_the_games_own_layouts(
    width: int, height: int, mines: int, opened: tuple[int, ...], flagged: tuple[int, ...]
) -> None:
    blank = Board.blank(width, height, mines)
    seen: dict[tuple[int, ...], list[frozenset[int]]] = defaultdict(list)
    first = width * height - 1  # the XP rule's first click
    assert opened[0] == first
    for mined in _laid(width, height, mines, first):
        if any(i in mined for i in opened) or not all(f in mined for f in flagged):
            continue
        seen[tuple(_shows(blank, mined, i) for i in opened)].append(mined)
    assert len(seen) > 1
    weighted_somewhere = False
    for numbers, layouts in seen.items():
        cells = [UNKNOWN] * (width * height)
        for i, v in zip(opened, numbers, strict=True):
            cells[i] = v
        for f in flagged:
            cells[f] = FLAG
        board = Board(width, height, mines, tuple(cells))
        cs = build(board)
        plain = analyse(board, cs)
        weighted = xp.Weighted.make(board, plain, cs)
        prob = plain.prob if weighted is None else weighted.analysis(plain).prob
        weighted_somewhere |= weighted is not None
        for c in range(width * height):
            if cells[c] == UNKNOWN:
                truth = sum(c in m for m in layouts) / len(layouts)
                assert prob[c] == pytest.approx(truth, abs=1e-12), (numbers, c)
    assert weighted_somewhere == (0 not in opened)


def test_a_layout_weighs_as_many_times_as_the_game_lays_it() -> None:
    width, height, mines = 4, 3, 4
    laid = _laid(width, height, mines, first=11)
    board = Board(width, height, mines, (UNKNOWN,) * 11 + (1,))
    cs = build(board)
    weigh = xp.weigher(board, cs)
    pos = {c: k for k, c in enumerate(cs.unknown)}
    for mined in set(laid):
        if 11 in mined:
            continue
        mask = sum(1 << pos[c] for c in mined)
        assert weigh(mask) == laid.count(mined), sorted(mined)


def test_the_solver_under_xp_sees_the_moved_mine() -> None:
    # The XP rule's first click (the bottom right corner) shows 1. Counted
    # uniformly every cell off the frontier has one chance; but a mine under
    # the click went to the top left corner, which so is likelier a mine.
    board = Board.parse(".....\n.....\n.....\n....1", 5)
    xp_view = Solver("xp").decide(board)
    safe_view = Solver("safe").decide(board)
    assert xp_view.analysis is not None and safe_view.analysis is not None
    corner, other = board.index(0, 0), board.index(0, 4)
    assert safe_view.analysis.prob[corner] == pytest.approx(safe_view.analysis.prob[other])
    assert xp_view.analysis.prob[corner] > xp_view.analysis.prob[other] + 0.05
    assert xp_view.moves[0].index != corner
    # and every chance sums to the mine count, as any count's must
    total = sum(p for p in xp_view.analysis.prob if p is not None)
    assert total == pytest.approx(board.mines)


def _weighted_value(layouts: tuple[int, ...], weights: tuple[int, ...], nbr: list[int]) -> float:
    """Best play's share of the weight, by plain recursion over the game tree."""

    @cache
    def value(group: frozenset[int]) -> float:
        distinct = {layouts[j] for j in group}
        if len(distinct) == 1:
            return 1.0
        total = sum(weights[j] for j in group)
        best = 0.0
        for k in range(len(nbr)):
            parts: dict[int, set[int]] = defaultdict(set)
            for j in group:
                if not layouts[j] >> k & 1:
                    parts[(layouts[j] & nbr[k]).bit_count()].add(j)
            if not parts or (len(parts) == 1 and sum(map(len, parts.values())) == len(group)):
                continue  # a mine everywhere, or safe everywhere and telling nothing
            won = sum(sum(weights[j] for j in p) * value(frozenset(p)) for p in parts.values())
            best = max(best, won / total)
        return best

    return value(frozenset(range(len(layouts))))


def test_the_endgame_wins_the_most_weight() -> None:
    rng = random.Random(5)
    n = 6
    # a 3x2 patch: neighbours of each cell
    nbr = []
    for k in range(n):
        r, c = divmod(k, 3)
        nbr.append(
            sum(
                1 << (rr * 3 + cc)
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if 0 <= rr < 2 and 0 <= cc < 3 and (rr, cc) != (r, c)
            )
        )
    for _ in range(40):
        distinct = rng.sample([m for m in range(1 << n) if m.bit_count() == 2], rng.randint(2, 7))
        weights = [rng.randint(1, 3) for _ in distinct]
        copies = [m for m, w in zip(distinct, weights, strict=True) for _ in range(w)]
        found = endgame.search(copies, nbr)
        assert found is not None
        want = _weighted_value(tuple(distinct), tuple(weights), nbr)
        assert found[0] == pytest.approx(want, abs=1e-9), (distinct, weights)


def test_xp_games_play_to_the_end() -> None:
    for seed in range(6):
        game = Game(9, 9, 10, seed=seed, first_click="xp")
        solver = Solver("xp", verify=True)
        for _ in range(200):
            if game.status.value != "playing":
                break
            decision = solver.decide(game.board)
            assert decision.status == "ok", decision.reason
            for move in decision.moves:
                if move.kind == "open":
                    game.open(move.index)
                else:
                    game.flag(move.index)
        assert game.status.value != "playing"


def _term_boards(board: Board) -> list[Board]:
    """The board, then with the first 1, 2, ... run cells taken as mines."""
    cells = list(board.cells)
    out = [board]
    for c in xp.run_cells(board):
        if cells[c] == UNKNOWN:
            cells[c] = FLAG
        out.append(Board(board.width, board.height, board.mines, tuple(cells)))
    return out


def _reference_chances(board: Board) -> list[float | None]:
    """The weighted chances the plain way: every term a board of its own, all of them."""
    counts = [a for a in map(analyse, _term_boards(board)) if a.status == "ok" and a.layouts]
    total = sum(a.layouts for a in counts)
    return [
        None if s >= 0 else sum(a.layouts * (a.prob[c] or 0.0) for a in counts) / total
        for c, s in enumerate(board.cells)
    ]


def _reference_score(board: Board, i: int) -> float:
    """`Weighted.score` the plain way: every term a board of its own, no tail left out."""
    boards = _term_boards(board)
    counts = [analyse(b) for b in boards]
    total = sum(a.layouts for a in counts if a.status == "ok")
    nb = board.neighbours(i)
    shown = sum(1 for j in nb if board.cells[j] == FLAG)
    others = [c for c in build(board).unknown if c != i]  # type: ignore[union-attr]
    score = 0.0
    for v in range(shown, len(nb) + 1):
        seen = []
        for b in boards:
            if b.cells[i] != UNKNOWN:
                continue
            opened = list(b.cells)
            opened[i] = v
            a = analyse(Board(b.width, b.height, b.mines, tuple(opened)))
            if a.status == "ok" and a.layouts:
                seen.append(a)
        share = sum(a.layouts for a in seen)
        if not share:
            continue
        chances = sorted(sum(a.layouts * (a.prob[c] or 0.0) for a in seen) / share for c in others)
        w2 = 0.2
        second = chances[1] if len(chances) > 1 else chances[0]
        score += share / total * ((1 - w2) * (1 - chances[0]) + w2 * (1 - second))
    return score


def test_the_lookahead_matches_a_plain_count() -> None:
    checked = 0
    for seed in range(40):
        game = Game(12, 8, 18, seed=seed, first_click="xp")
        solver = Solver("xp", verify=False)
        while game.status.value == "playing" and checked < 30:
            board = game.board
            cs = build(board)
            assert not isinstance(cs, Inconsistent)
            plain = analyse(board, cs)
            weighted = xp.Weighted.make(board, plain, cs) if not plain.safe else None
            if weighted is not None:
                prob = weighted.analysis(plain).prob
                assert prob == pytest.approx(_reference_chances(board), abs=1e-12)
                near = sorted((p, c) for c, p in enumerate(prob) if p is not None and p < 1)[:3]
                for _, c in near:
                    assert weighted.score(c) == pytest.approx(_reference_score(board, c), abs=3e-4)
                    checked += 1
            decision = solver.decide(board)
            for move in decision.moves:
                game.open(move.index) if move.kind == "open" else game.flag(move.index)
    assert checked >= 30
