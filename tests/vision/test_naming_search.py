"""The search for numberings of new looks (`naming._search`) against the plain
product loop it replaced: the same fits, in the same order, on small random
boards; and the boards it now reads whose product of choices is too large
for that loop."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import product
from math import prod
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msolver.core.board import FLAG, MINE, UNKNOWN, Board, neighbours_table
from msolver.core.game import Game
from msolver.core.solver import probability
from msolver.core.solver.constraints import Constraints, Inconsistent, build
from msolver.core.solver.probability import analyse
from msolver.vision import naming
from msolver.vision.naming import (
    MAX_ASSIGNMENTS,
    _candidates,
    _numberings,
    _one_look_per_number,
    _Rules,
    _search,
    name_looks,
)

SEARCH = settings(max_examples=200, deadline=None)
# The product loop is the oracle: past this many numberings it is too slow to
# run on every example.
ORACLE_MAX = 2000


@dataclass(frozen=True)
class Case:
    rules: _Rules
    base: list[int]
    numbered: dict[int, list[int]]


def brute(
    rules: _Rules,
    base: Sequence[int],
    numbered: Mapping[int, Sequence[int]],
    order: Sequence[int],
    choices: Sequence[Sequence[int]],
) -> list[tuple[int, ...]]:
    """The loop `_numberings` ran before the search: every numbering, checked whole."""
    fits = []
    for values in product(*choices):
        if not _one_look_per_number(order, values, rules.known_numbers, rules.alike):
            continue
        cells = list(base)
        for look, v in zip(order, values, strict=True):
            for i in numbered[look]:
                cells[i] = v
        board = Board(rules.width, rules.height, rules.mines, tuple(cells))
        if isinstance(build(board), Inconsistent):
            continue
        if analyse(board).status != "ok":
            continue
        fits.append(values)
    return fits


@st.composite
def cases(draw: st.DrawFn, max_looks: int = 4) -> Case:
    """A small board with a hidden layout: each cell unopened, known (its number,
    or a mine shown) or in one of a few new looks (which may mix numbers: the
    search must agree with the loop on boards no game draws, too)."""
    width = draw(st.integers(2, 5))
    height = draw(st.integers(1, 4))
    n = width * height
    mined = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    nbrs = neighbours_table(width, height)
    looks = draw(st.integers(1, max_looks))
    known: list[int | None] = []
    numbered: dict[int, list[int]] = {}
    for i in range(n):
        if mined[i]:
            known.append(draw(st.sampled_from((UNKNOWN, UNKNOWN, FLAG, MINE))))
            continue
        role = draw(st.sampled_from(("unopened", "known", "new", "new")))
        if role == "unopened":
            known.append(UNKNOWN)
        elif role == "known":
            known.append(sum(1 for j in nbrs[i] if mined[j]))
        else:
            known.append(None)
            numbered.setdefault(10 + draw(st.integers(0, looks - 1)), []).append(i)
    # The true count, or one off it: the mine count must prune soundly too.
    mines = min(n, max(0, sum(mined) + draw(st.sampled_from((0, 0, -1, 1)))))
    known_numbers = draw(st.frozensets(st.integers(0, 8), max_size=4))
    ids = sorted(numbered)
    variants = {
        k: draw(st.frozensets(st.sampled_from(sorted(known_numbers))))
        if known_numbers
        else frozenset()
        for k in ids
    }
    pairs = draw(st.sets(st.tuples(st.sampled_from(ids), st.sampled_from(ids)))) if ids else set()
    alike = {
        k: frozenset({b for a, b in pairs if a == k} | {a for a, b in pairs if b == k}) - {k}
        for k in ids
    }
    base = [UNKNOWN if s is None else s for s in known]
    rules = _Rules(width, height, mines, known, known_numbers, variants, alike)
    return Case(rules, base, numbered)


@contextmanager
def counting_checks() -> Iterator[list[int]]:
    """Count the boards `naming` checks (each check builds its board once)."""
    count = [0]
    real: Callable[[Board], Constraints | Inconsistent] = build

    def counted(board: Board) -> Constraints | Inconsistent:
        count[0] += 1
        return real(board)

    with patch.object(naming, "build", counted):
        yield count


@SEARCH
@given(cases())
def test_numberings_match_the_product_loop(case: Case) -> None:
    candidates = _candidates(case.rules, case.base, case.numbered)
    order, fits, why = _numberings(case.rules, case.base, case.numbered)
    assert order == sorted(case.numbered, key=lambda k: len(candidates[k]))
    total = prod(len(candidates[k]) for k in order)
    if total <= MAX_ASSIGNMENTS:
        assert why == ""  # a product the loop took whole is always searched
    if total > ORACLE_MAX:
        return
    assert fits == brute(
        case.rules, case.base, case.numbered, order, [candidates[k] for k in order]
    )


@SEARCH
@given(cases(), st.data())
def test_search_matches_the_product_loop_on_any_choices(case: Case, data: st.DataObject) -> None:
    # Choices the local bounds would not give (numbers a cell cannot show, a 0
    # beside unopened cells) reach the partial checks too.
    order = list(case.numbered)
    choices = [
        sorted(data.draw(st.frozensets(st.integers(0, 8), max_size=4), label=f"look {k}"))
        for k in order
    ]
    fits = _search(case.rules, case.base, case.numbered, order, choices)
    assert fits == brute(case.rules, case.base, case.numbered, order, choices)


@SEARCH
@given(cases(), st.integers(1, 30))
def test_search_checks_no_more_boards_than_the_limit(case: Case, limit: int) -> None:
    candidates = _candidates(case.rules, case.base, case.numbered)
    order = sorted(case.numbered, key=lambda k: len(candidates[k]))
    choices = [candidates[k] for k in order]
    with patch.object(naming, "MAX_ASSIGNMENTS", limit), counting_checks() as checked:
        fits = _search(case.rules, case.base, case.numbered, order, choices)
    assert checked[0] <= limit
    if prod(len(c) for c in choices) <= limit:
        assert fits is not None
    if fits is not None and prod(len(c) for c in choices) <= ORACLE_MAX:
        assert fits == brute(case.rules, case.base, case.numbered, order, choices)


def split_opening(seed: int, pieces: int) -> tuple[list[int | None], dict[int, list[int]]]:
    """An expert first opening whose every number shows in `pieces` looks (a
    glyph drawn at several phases): look 10 * number + piece."""
    game = Game(30, 16, 99, seed=seed, first_click="opening")
    game.open(8 * 30 + 15)
    known: list[int | None] = []
    looks: dict[int, list[int]] = {}
    for i, s in enumerate(game.board.cells):
        if s == UNKNOWN:
            known.append(UNKNOWN)
        else:
            known.append(None)
            looks.setdefault(10 * s + i % pieces, []).append(i)
    return known, looks


def test_a_product_past_the_limit_is_searched() -> None:
    known, looks = split_opening(1, 4)
    alike = {k: frozenset(j for j in looks if j // 10 == k // 10 and j != k) for k in looks}
    base = [UNKNOWN if s is None else s for s in known]
    rules = _Rules(30, 16, 99, known, frozenset(), {}, alike)
    candidates = _candidates(rules, base, looks)
    total = prod(len(c) for c in candidates.values())
    assert total > MAX_ASSIGNMENTS  # the product loop refused this board
    order, fits, why = _numberings(rules, base, looks)
    assert why == ""
    assert fits == brute(rules, base, looks, order, [candidates[k] for k in order])
    truth = tuple(k // 10 for k in order)
    assert truth in fits
    named = name_looks(30, 16, 99, known, looks, alike=alike)
    assert named.names and named.fits
    assert all(name == str(k // 10) for k, name in named.names.items())
    assert all(set(f) == set(named.unnamed) for f in named.fits)


def test_a_search_too_large_still_says_how_many_ways() -> None:
    # Lone opened cells amid unopened ones, each its own look, all alike: every
    # partial numbering fits, so no check prunes and the limit must stop it.
    width, height = 12, 6
    lone = [r * width + c for r in (1, 4) for c in (1, 4, 7, 10)]
    known: list[int | None] = [None if i in lone else UNKNOWN for i in range(width * height)]
    looks = {k: [i] for k, i in enumerate(lone)}
    alike = {k: frozenset(looks) - {k} for k in looks}
    with patch.object(naming, "MAX_ASSIGNMENTS", 300), counting_checks() as checked:
        result = name_looks(width, height, 20, known, looks, alike=alike)
    assert result.reason == f"{8 ** len(lone)} ways to number the new looks"
    assert result.unnamed and not result.names and not result.fits
    assert checked[0] <= 300


def test_a_look_no_number_fits_needs_no_search() -> None:
    # The cell at (1, 1) borders only opened 0s: it can only be a 0, a number
    # known already (and no variant of it). The lone cells' product alone is
    # past the limit, which the product loop refused.
    width, height = 16, 5
    known: list[int | None] = [UNKNOWN] * (width * height)
    for i in (0, 1, 2, 16, 18, 32, 33, 34):
        known[i] = 0
    looks = {0: [17]} | {k: [2 * width + c] for k, c in enumerate((4, 7, 10, 13), start=1)}
    for cells in looks.values():
        known[cells[0]] = None
    base = [UNKNOWN if s is None else s for s in known]
    alike = {k: frozenset(looks) - {k} for k in looks}
    rules = _Rules(width, height, 10, known, frozenset({0}), {}, alike)
    candidates = _candidates(rules, base, looks)
    assert candidates[0] == []
    assert prod(len(candidates[k]) for k in looks if k) > MAX_ASSIGNMENTS
    with counting_checks() as checked:
        _, fits, why = _numberings(rules, base, looks)
    assert (fits, why) == ([], "")
    assert checked[0] == 0


def test_numberings_too_big_to_count_name_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # A first opening of three number looks, all new: with the count's budget
    # at one state no numbering can be checked, and none is named or guessed
    # from (a board only a reading supposes may take millions of states).
    g = Game(16, 16, 40, seed=3, first_click="opening")
    g.open(0)
    known: list[int | None] = list(g.board.cells)
    looks: dict[int, list[int]] = {}
    for i, s in enumerate(g.board.cells):
        if s > 0:
            looks.setdefault(s, []).append(i)
            known[i] = None
    assert len(looks) >= 2
    # (starved first, on an empty cache: the regions' counts are kept once made)
    with monkeypatch.context() as m:
        m.setattr(probability, "_CACHE", {})
        m.setattr(naming, "COUNT_STATES", 1)
        starved = name_looks(16, 16, 40, known, looks, known_numbers=frozenset({0}))
    assert not starved.names and not starved.fits
    assert set(starved.unnamed) == set(looks)
    assert "too many ways" in starved.reason
    got = name_looks(16, 16, 40, known, looks, known_numbers=frozenset({0}))
    assert got.names or got.fits  # the full count reads them
