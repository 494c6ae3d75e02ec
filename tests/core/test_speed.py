"""The fast solver decides exactly as the reference (the solver before the speed work).

Each fast path is checked against its reference on random positions: the
region counts equal as integers, the probabilities equal as floats (both are
exact fractions rounded once), the endgame value and cell equal, the
lookahead's layouts and safety equal; and whole seeded games make the same
decisions, move for move.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.core.reference_solver as ref
from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG, Board
from msolver.core.game import LEVELS, FirstClick, Game, Status
from msolver.core.solver import Solver, endgame, guess, probability, rules
from msolver.core.solver.constraints import Builder, Constraints, build
from msolver.core.solver.probability import (
    Recombined,
    analyse,
    collector_paused,
    count_by_free,
    count_key,
    count_region,
    layouts_and_least,
    layouts_and_two_least,
    region_keys,
)
from tests.core.reference_solver import endgame as ref_endgame
from tests.core.reference_solver import guess as ref_guess
from tests.core.reference_solver import probability as ref_probability


@pytest.fixture(autouse=True, scope="module")
def _reference_guess_rules() -> Iterator[None]:
    # The reference predates the guess tier's blend and dominance rules
    # (tests/core/test_guess.py holds those to a plain evaluator): they are
    # off here, so every fast path is held to the reference alone.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(guess, "NEXT_SECOND_WEIGHT", 0.0)
        mp.setattr(guess, "DOMINANCE", False)
        yield


def _trim(poly: list[int]) -> list[int]:
    out = list(poly)
    while out and out[-1] == 0:
        out.pop()
    return out


@st.composite
def regions(draw: st.DrawFn) -> tuple[list[int], list[list[int]], list[int]]:
    n = draw(st.integers(1, 14))
    sizes = draw(st.lists(st.integers(1, 8), min_size=n, max_size=n))
    m = draw(st.integers(1, 12))
    cons = [
        sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=min(n, 5))))
        for _ in range(m)
    ]
    needs = [draw(st.integers(0, sum(sizes[b] for b in c))) for c in cons]
    return sizes, cons, needs


@settings(max_examples=300, deadline=None)
@given(regions())
def test_region_counts_equal_the_reference(
    region: tuple[list[int], list[list[int]], list[int]],
) -> None:
    sizes, cons, needs = region
    fast = count_region(sizes, cons, needs)
    slow = ref_probability.count_region(sizes, cons, needs)
    if slow is None:
        assert fast is None
        return
    assert fast is not None
    assert _trim(fast.total) == _trim(slow.total)
    assert [_trim(p) for p in fast.box_mines] == [_trim(p) for p in slow.box_mines]


def _position(seed: int, level: str, rule: FirstClick, moves: int) -> Board:
    """A real game part-way through, played by the reference solver."""
    lv = LEVELS[level]
    g = Game(lv.width, lv.height, lv.mines, seed=seed, first_click=rule)
    solver = ref.Solver(rule, verify=False)
    for _ in range(moves):
        d = solver.decide(g.board)
        if d.status != "ok" or not d.moves:
            break
        before = g.board
        for m in d.moves:
            (g.flag if m.kind == "flag" else g.open)(m.index)
        if g.status is not Status.PLAYING:
            return before
    return g.board


positions = st.builds(
    _position,
    st.integers(0, 100_000),
    st.sampled_from(["beginner", "intermediate", "expert"]),
    st.sampled_from(["opening", "safe"]),
    st.integers(1, 40),
)


@st.composite
def spoilt(draw: st.DrawFn) -> Board:
    """A position with one number changed: often no layout fits it any more."""
    board = draw(positions)
    opened = [i for i, s in enumerate(board.cells) if s >= 0]
    if not opened:
        return board
    i = draw(st.sampled_from(opened))
    return board.replace({i: draw(st.integers(0, 8))})


@settings(max_examples=150, deadline=None)
@given(st.one_of(positions, spoilt()))
def test_probabilities_equal_the_reference_exactly(board: Board) -> None:
    fast = analyse(board)
    slow = ref_probability.analyse(board)
    assert fast.status == slow.status
    assert fast.reason == slow.reason
    assert fast.prob == slow.prob
    assert fast.safe == slow.safe
    assert fast.mines == slow.mines
    assert fast.layouts == slow.layouts
    assert fast.off_frontier_p == slow.off_frontier_p


def _looks(board: Board, most: int) -> Iterator[tuple[Constraints, guess._Lookahead]]:
    """A few unknown cells of the board (the same few every time), each opened."""
    cs = build(board)
    assert isinstance(cs, Constraints)
    unknown = [i for i, s in enumerate(board.cells) if s == UNKNOWN]
    for i in Random(len(unknown)).sample(unknown, min(most, len(unknown))):
        yield cs, guess._Lookahead(board, cs, i)


@settings(max_examples=60, deadline=None)
@given(positions)
def test_lookahead_equals_the_reference(board: Board) -> None:
    for cs, look in _looks(board, 4):
        i = look.i
        for v in range(9):
            slow = ref_guess._next_safety(board, i, v)
            plain = guess._next_safety(board, cs, i, v)
            assert plain[:2] == slow
            assert look.safety(v) == plain  # the second-safest cell too


@settings(max_examples=60, deadline=None)
@given(positions)
def test_a_candidates_count_along_its_regions_plan_equals_its_own(board: Board) -> None:
    # `prime_key` with `within` counts along the plan of the region before
    # (boxes split where the new number sees part of them): the same counts,
    # for every need, as a plan of the candidate's own region.
    for _, look in _looks(board, 6):
        if look.keys is None:
            continue
        x, kf = look.at
        region = look.keys[x]
        within = look._within(region)
        probability._CACHE.clear()
        own = probability.prime_key(region, kf)
        probability._CACHE.clear()
        along = probability.prime_key(region, kf, within)
        if own is None:
            assert along is None
            continue
        assert along is not None
        assert len(own) == len(along)
        for a, b in zip(own, along, strict=True):
            assert (a is None) == (b is None)
            if a is not None and b is not None:
                assert a.total == b.total
                assert a.boxes == b.boxes
                assert a.box_mines == b.box_mines


@st.composite
def layout_sets(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    n = draw(st.integers(2, 12))
    rng = Random(draw(st.integers(0, 10**6)))
    nbr_mask = []
    for k in range(n):
        m = 0
        for j in range(n):
            if j != k and rng.random() < 0.35:
                m |= 1 << j
        nbr_mask.append(m)
    layouts = sorted(set(draw(st.lists(st.integers(0, (1 << n) - 1), min_size=2, max_size=60))))
    return layouts, nbr_mask


@settings(max_examples=300, deadline=None)
@given(layout_sets())
def test_endgame_search_equals_the_reference(case: tuple[list[int], list[int]]) -> None:
    layouts, nbr_mask = case
    assert endgame.search(layouts, nbr_mask) == ref_endgame.search(layouts, nbr_mask)


def test_endgame_search_gives_up_where_the_reference_does() -> None:
    # The work budget is counted the same way, so a search that runs out runs
    # out in both; with a small budget some of these do and some do not.
    rng = Random(5)
    outcomes = set()
    old, old_ref = endgame.WORK_BUDGET, ref_endgame.WORK_BUDGET
    try:
        for budget in (300, 3_000, 30_000):
            endgame.WORK_BUDGET = ref_endgame.WORK_BUDGET = budget
            for _ in range(20):
                n = 10
                nbr_mask = [rng.getrandbits(n) & ~(1 << k) for k in range(n)]
                layouts = sorted({rng.getrandbits(n) for _ in range(80)})
                fast = endgame.search(layouts, nbr_mask)
                assert fast == ref_endgame.search(layouts, nbr_mask)
                outcomes.add(fast is None)
    finally:
        endgame.WORK_BUDGET, ref_endgame.WORK_BUDGET = old, old_ref
    assert outcomes == {True, False}


def _decisions(solver: Solver | ref.Solver, level: str, rule: FirstClick, seed: int) -> list[str]:
    lv = LEVELS[level]
    g = Game(lv.width, lv.height, lv.mines, seed=seed, first_click=rule)
    out = []
    while g.status is Status.PLAYING:
        d = solver.decide(g.board)
        out.append(f"{d.status} {d.tier} {d.certain} {d.moves}")
        if d.status != "ok" or not d.moves:
            break
        for m in d.moves:
            (g.flag if m.kind == "flag" else g.open)(m.index)
            if g.status is not Status.PLAYING:
                break
    return out


def test_seeded_games_make_the_same_decisions() -> None:
    plan = [("beginner", 150), ("intermediate", 40), ("expert", 12)]
    games = 0
    for level, n in plan:
        for rule in ("opening", "safe"):
            for seed in range(n):
                fast = _decisions(Solver(rule, verify=False), level, rule, 9_000 + seed)
                slow = _decisions(ref.Solver(rule, verify=False), level, rule, 9_000 + seed)
                assert fast == slow, (level, rule, seed)
                games += 1
    assert games == 404


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(positions, spoilt()), min_size=1, max_size=6), st.integers(0, 10**6))
def test_incremental_constraints_equal_a_fresh_build(boards: list[Board], seed: int) -> None:
    # Frames of one game in order (each a few cells on from the last), then
    # jumps between unrelated boards, sizes and spoilt numbers: the builder
    # must give what a fresh build gives every time.
    builder = Builder()
    rng = Random(seed)
    for board in boards:
        lv = next(lv for lv in LEVELS.values() if lv.width == board.width)
        g = Game(lv.width, lv.height, lv.mines, seed=rng.randrange(10**6), first_click="safe")
        frames = [board]
        for _ in range(rng.randrange(6)):
            unknown = [i for i, s in enumerate(g.board.cells) if s == UNKNOWN]
            i = rng.choice(unknown)
            if rng.random() < 0.3:
                g.flag(i)
            else:
                g.open(i)
            if g.status is not Status.PLAYING:
                break
            frames.append(g.board)
        for frame in frames:
            assert builder.build(frame) == build(frame)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(positions, spoilt()), min_size=1, max_size=6), st.integers(0, 10**6))
def test_the_builders_first_rule_equals_the_rule_on_a_fresh_build(
    boards: list[Board], seed: int
) -> None:
    # The solver asks the builder for the first rule's moves before any
    # constraint is assembled: on every frame (spoilt numbers, disagreeing
    # numbers and all) it must give what the rule gives on a fresh build, or
    # nothing where only the assembled constraints can answer, and build the
    # same constraints afterwards.
    builder = Builder()
    rng = Random(seed)
    for board in boards:
        lv = next(lv for lv in LEVELS.values() if lv.width == board.width)
        g = Game(lv.width, lv.height, lv.mines, seed=rng.randrange(10**6), first_click="opening")
        frames = [board, g.board]
        for _ in range(rng.randrange(8)):
            d = Solver("opening", verify=False).decide(frames[-1])
            if d.status != "ok" or not d.moves:
                break
            for m in d.moves[: rng.randrange(1, len(d.moves) + 1)]:
                (g.flag if m.kind == "flag" else g.open)(m.index)
            if g.status is not Status.PLAYING:
                break
            frames.append(g.board)
        _check_the_first_rule(builder, frames)


def _check_the_first_rule(builder: Builder, frames: list[Board]) -> int:
    """Check the builder's first rule against a fresh build on each frame;
    give how many frames it settled."""
    answered = 0
    for frame in frames:
        quick = builder.trivial(frame)
        cs = build(frame)
        if quick is not None:
            assert isinstance(cs, Constraints)
            assert quick and quick == rules.trivial(cs)
            answered += 1
        elif isinstance(cs, Constraints) and 0 < cs.mines_left < len(cs.unknown):
            assert not rules.trivial(cs)
        assert builder.build(frame) == cs
    return answered


def test_the_builders_first_rule_settles_frames_of_whole_games() -> None:
    # The drawn frames above may all be ones the first rule leaves alone (a
    # short game of guesses); whole seeded games on each level surely reach
    # frames it settles, so the check above is not empty.
    builder = Builder()
    for seed, lv in enumerate(LEVELS.values()):
        g = Game(lv.width, lv.height, lv.mines, seed=seed, first_click="opening")
        frames = [g.board]
        solver = Solver("opening", verify=False)
        while g.status is Status.PLAYING:
            d = solver.decide(g.board)
            assert d.status == "ok" and d.moves
            for m in d.moves:
                (g.flag if m.kind == "flag" else g.open)(m.index)
                if g.status is not Status.PLAYING:
                    break
            frames.append(g.board)
        assert _check_the_first_rule(builder, frames) > 0


@settings(max_examples=60, deadline=None)
@given(st.one_of(positions, spoilt()), st.integers(0, 10**6))
def test_unknown_cells_written_anyhow_build_as_a_fresh_build(board: Board, seed: int) -> None:
    # Frames that only write over unknown cells take the builder's short way
    # (a number's constraint from its last one). Here they are written with
    # any number, a flag, a shown mine or a wrong flag, so numbers come to
    # hold no more, hold again, or disagree, on spoilt boards too; with the
    # list of changes (`since`) or without it.
    builder = Builder()
    rng = Random(seed)
    states = [FLAG, MINE, EXPLODED, WRONG_FLAG, *range(9)]
    frames = 0
    while True:
        assert builder.build(board) == build(board)
        frames += 1
        unknown = [i for i, s in enumerate(board.cells) if s == UNKNOWN]
        if not unknown or frames > 12:
            break
        picked = rng.sample(unknown, min(len(unknown), rng.randrange(1, 12)))
        cells = list(board.cells)
        for i in picked:
            cells[i] = rng.choice(states)
        since = (board.cells, tuple(picked)) if rng.random() < 0.7 else None
        board = Board(board.width, board.height, board.mines, tuple(cells), since)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(LEVELS)))
def test_constraints_from_the_games_list_of_changes_equal_a_fresh_build(
    seed: int, level: str
) -> None:
    # The simulator lists the cells it wrote since the last board it handed
    # out; the builder reads only those. Flags set and taken back (listed,
    # unchanged), chords, floods and the lost board (every mine shown, no
    # list) must all come out as a fresh build makes them.
    lv = LEVELS[level]
    rng = Random(seed)
    g = Game(lv.width, lv.height, lv.mines, seed=seed, first_click="safe")
    builder = Builder()
    last: tuple[int, ...] | None = None
    listed = frames = 0
    for _ in range(60):
        frame = g.board
        frames += 1
        if frame.since is not None and frame.since[0] is last:
            listed += 1
        assert builder.build(frame) == build(frame)
        last = frame.cells
        if g.status is not Status.PLAYING:
            break
        unknown = [i for i, s in enumerate(frame.cells) if s == UNKNOWN]
        if not unknown:
            break
        for _ in range(rng.randrange(1, 4)):
            x = rng.random()
            i = rng.choice(unknown)
            if x < 0.15:
                g.flag(i)
                g.flag(i)  # and back: listed, not changed
            elif x < 0.35:
                g.flag(i)
            elif x < 0.45:
                g.chord(rng.randrange(lv.width * lv.height))
            elif not g.is_mine(i) or x < 0.5:
                g.open(i)
    # Every frame after the first comes with the list (the lost board aside).
    assert listed >= frames - 2
    # A list made since other cells than the builder saw is not trusted.
    other = Builder()
    other.build(Board.blank(lv.width, lv.height, lv.mines))
    assert other.build(g.board) == build(g.board)


@settings(max_examples=80, deadline=None)
@given(positions)
def test_guess_choice_equals_the_reference(board: Board) -> None:
    # The guess tier on any position (whether or not a certain move exists):
    # the pruned lookahead must pick the same cell as the full one.
    cs = build(board)
    assert isinstance(cs, Constraints)
    a = analyse(board, cs)
    if a.status != "ok" or not cs.unknown or not any(s >= 0 for s in board.cells):
        return
    ref_cs = ref_guess.build(board)
    assert isinstance(ref_cs, ref_guess.Constraints)
    ref_a = ref_probability.analyse(board, ref_cs)
    assert guess.choose(board, cs, a) == ref_guess.choose(board, ref_cs, ref_a)


@settings(max_examples=200, deadline=None)
@given(regions(), st.data())
def test_counts_for_every_free_number_equal_one_count_each(
    region: tuple[list[int], list[list[int]], list[int]], data: st.DataObject
) -> None:
    # One pass with the free boxes' mines in a second variable gives, for
    # each v, what a count with one more number "v mines in the free boxes"
    # gives (the lookahead's candidate number, every value at once).
    sizes, cons, needs = region
    free = sorted(data.draw(st.sets(st.integers(0, len(sizes) - 1), min_size=1, max_size=5)))
    vmax = sum(sizes[b] for b in free)
    fast = count_by_free(sizes, cons, needs, frozenset(free), vmax)
    for v in range(vmax + 1):
        slow = ref_probability.count_region(sizes, [*cons, free], [*needs, v])
        if slow is None:
            assert fast[v] is None, v
            continue
        got = fast[v]
        assert got is not None, v
        assert _trim(got.total) == _trim(slow.total)
        assert [_trim(p) for p in got.box_mines] == [_trim(p) for p in slow.box_mines]


@st.composite
def region_sets(draw: st.DrawFn) -> tuple[list[tuple[tuple[int, ...], int]], int, int]:
    """Constraints over a few cells, often in several regions, and a mine count."""
    cells = draw(st.integers(2, 16))
    cons: dict[tuple[int, ...], int] = {}
    for _ in range(draw(st.integers(1, 7))):
        key = tuple(sorted(draw(st.sets(st.integers(0, cells - 1), min_size=1, max_size=4))))
        cons[key] = draw(st.integers(0, len(key)))
    frontier = len({c for key in cons for c in key})
    n_unknown = frontier + draw(st.integers(0, 30))
    mines_left = draw(st.integers(-1, n_unknown + 1))
    return list(cons.items()), n_unknown, mines_left


@settings(max_examples=300, deadline=None)
@given(region_sets(), st.data())
def test_one_region_recombined_equals_a_whole_solve(
    case: tuple[list[tuple[tuple[int, ...], int]], int, int], data: st.DataObject
) -> None:
    # The lookahead's path: every region fixed but one, whose needs vary (as
    # a candidate's number does); the layouts and the least probability must
    # be those of solving the whole set again, exactly.
    cons, n_unknown, mines_left = case
    keys = region_keys(cons)
    x = data.draw(st.integers(0, len(keys) - 1))
    region = keys[x]
    cells = len({c for key, _ in region for c in key})
    rest = Recombined(keys[:x] + keys[x + 1 :], cells, n_unknown, mines_left)
    for _ in range(4):
        needs = [data.draw(st.integers(0, len(key))) for key, _ in region]
        varied = tuple(sorted((key, n) for (key, _), n in zip(region, needs, strict=True)))
        whole = layouts_and_least([], n_unknown, mines_left, [*keys[:x], varied, *keys[x + 1 :]])
        assert rest.layouts_and_least(count_key(varied)) == whole
        both = layouts_and_two_least([], n_unknown, mines_left, [*keys[:x], varied, *keys[x + 1 :]])
        assert rest.layouts_and_two_least(count_key(varied)) == both
        assert both[:2] == whole


def test_the_collector_is_paused_only_while_counting() -> None:
    # The counting pauses Python's cycle collector and must always resume
    # it, after an error too, and leave it paused if it found it paused.
    seen: list[bool] = []

    @collector_paused
    def probe(fail: bool) -> int:
        seen.append(gc.isenabled())
        if fail:
            raise ValueError("boom")
        return 7

    was = gc.isenabled()
    try:
        gc.enable()
        assert probe(False) == 7
        assert gc.isenabled()
        with pytest.raises(ValueError):
            probe(True)
        assert gc.isenabled()
        gc.disable()
        assert probe(False) == 7
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False, False, False]
