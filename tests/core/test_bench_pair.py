"""The paired win-rate tool measures what it says.

Its guess-tier arms are written on a plain evaluator (the whole board solved
again per number); the shipped rule written on it must choose exactly what
`guess.choose` chooses, or every arm built on it measures something else.
"""

from __future__ import annotations

import pytest

from msolver.core.bench import apply_moves, game_seed
from msolver.core.game import Game, Status
from msolver.core.solver import Solver, guess
from msolver.core.solver.constraints import Inconsistent, build
from msolver.core.solver.probability import analyse
from tests.core import bench_pair, winrate_arms


def _guess_positions(games: int) -> list[tuple[int, int]]:
    """(game, decision number) of every guess-tier decision in the first games,
    each checked against the plain evaluator (blend and dominance off)."""
    found = []
    for g in range(games):
        game = Game(30, 16, 99, seed=game_seed(7, g), first_click="opening")
        solver = Solver("opening", verify=False)
        k = 0
        while game.status is Status.PLAYING:
            d = solver.decide(game.board)
            if d.tier == "guess":
                board = game.board
                cs = build(board)
                assert not isinstance(cs, Inconsistent)
                a = analyse(board, cs)
                plain = winrate_arms._choose_by(winrate_arms.two_move)(board, cs, a)
                assert plain == guess.choose(board, cs, a) == (d.moves[0].index, d.moves[0].p_mine)
                found.append((g, k))
            apply_moves(game, d.moves)
            k += 1
    return found


def test_the_plain_evaluator_chooses_as_the_guess_tier_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(guess, "NEXT_SECOND_WEIGHT", 0.0)
    monkeypatch.setattr(guess, "DOMINANCE", False)
    assert len(_guess_positions(12)) >= 10


def test_sign_test_is_the_exact_binomial_tail() -> None:
    assert bench_pair.sign_test(0, 10) == 2 / 1024
    assert bench_pair.sign_test(5, 5) == 1.0
    assert abs(bench_pair.sign_test(1, 9) - 2 * 11 / 1024) < 1e-15
    # past 2,000 games the normal approximation (continuity-corrected) takes
    # over: it agrees with the exact tail at the switch
    exact = bench_pair.sign_test(1050, 950)
    assert 0.02 < exact < 0.035
    assert abs(bench_pair.sign_test(1051, 950) - exact) < 0.004


def test_a_paired_run_of_an_arm_against_itself_has_no_discordant_games() -> None:
    pairs, _, _ = bench_pair._chunk(("beginner", "base", "base_plain", "opening", 7, 0, 30))
    assert len(pairs) == 30
    assert all(a == b for a, b in pairs)
