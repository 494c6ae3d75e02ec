"""The guess tier's blend and dominance rules, on real positions.

Both positions come from simulated intermediate games (seed 3, opening;
games 138 and 228) where the rule changed the cell chosen. Each test checks
the choice and the reason for it with the plain evaluator of
`tests.core.winrate_arms` (the whole board solved again per number), which
shares no counting shortcut with the guess tier.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from msolver.core.board import Board
from msolver.core.solver import guess
from msolver.core.solver.constraints import Constraints, Inconsistent, build
from msolver.core.solver.probability import Analysis, analyse
from tests.core import winrate_arms

# Intermediate, game 138 of seed 3: 30 unknown cells.
BLEND = """\
0000000001......
1110000012......
1F1011102F3.....
22101F102F......
F100111023..F...
110000001F224F..
0000000011102F31
0111000011102220
01F100012F101F10
01111223F3101232
00002FF4F21111FF
11102F4F211F1122
1F10123210111000
222112F211000111
1F23F423F31212F1
12F3FF12F3F2F211
"""

# Intermediate, game 228 of seed 3: 39 unknown cells.
DOMINATED = """\
000000000112111.
0000011212F2F33.
000002F3F3233FF2
000002F312F23F4.
00001232113F32..
00001F2F214F43..
000011212F3F..F.
011100001134....
01F21100001FF...
0223F1001123....
01F211001F22....
01121100113F4...
0001F100002F....
001221000023..4.
001F1000001F22..
00111000001111..
"""


def _position(text: str) -> tuple[Board, Constraints, Analysis]:
    board = Board.parse(text, 40)
    cs = build(board)
    assert not isinstance(cs, Inconsistent)
    return board, cs, analyse(board, cs)


@pytest.fixture
def rules(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    # Each test sets the two switches it needs; these are the shipped ones.
    assert guess.NEXT_SECOND_WEIGHT == 0.2
    assert guess.DOMINANCE is True
    yield monkeypatch


def test_the_blend_prefers_a_guess_that_leaves_a_second_safe_cell(
    rules: pytest.MonkeyPatch,
) -> None:
    board, cs, a = _position(BLEND)
    old, new = board.index(3, 11), board.index(2, 11)
    rules.setattr(guess, "DOMINANCE", False)
    rules.setattr(guess, "NEXT_SECOND_WEIGHT", 0.0)
    assert guess.choose(board, cs, a)[0] == old
    rules.setattr(guess, "NEXT_SECOND_WEIGHT", 0.2)
    assert guess.choose(board, cs, a)[0] == new
    # Why: (3, 11) keeps the next move at least as safe, (2, 11) leaves a
    # safer second cell, enough to win once it weighs 0.2.
    out_old = winrate_arms.outcomes(board, cs, a, old)
    out_new = winrate_arms.outcomes(board, cs, a, new)
    assert winrate_arms.two_move(out_old) >= winrate_arms.two_move(out_new)
    spare_old = sum(o.share * o.second for o in out_old)
    spare_new = sum(o.share * o.second for o in out_new)
    assert spare_new > spare_old
    assert winrate_arms.blend(out_new) > winrate_arms.blend(out_old)


def test_a_guess_whose_every_number_points_at_one_cell_gives_way_to_it(
    rules: pytest.MonkeyPatch,
) -> None:
    board, cs, a = _position(DOMINATED)
    dead, target = board.index(0, 15), board.index(3, 15)
    rules.setattr(guess, "DOMINANCE", False)
    rules.setattr(guess, "NEXT_SECOND_WEIGHT", 0.0)
    assert guess.choose(board, cs, a)[0] == dead
    rules.setattr(guess, "DOMINANCE", True)
    assert guess.choose(board, cs, a)[0] == target
    # Why: whatever (0, 15) shows, the one safest cell next is (3, 15), which
    # is as safe now: opening (0, 15) first would tell nothing that changes
    # the next move.
    outs = winrate_arms.outcomes(board, cs, a, dead)
    assert outs
    assert {o.probs[0][1] for o in outs} == {(target,)}
    assert a.prob[target] == a.prob[dead]


def test_the_shipped_rules_choose_as_the_plain_evaluator_does_on_real_games() -> None:
    # The blend and dominance over the lookahead's shortcuts (re-combining one
    # region, pruning, skipping the dominance check when it cannot fire)
    # against the same rules written on whole re-solves: every guess-tier
    # decision of a few expert games.
    from msolver.core.bench import apply_moves, game_seed
    from msolver.core.game import Game, Status
    from msolver.core.solver import Solver

    plain = winrate_arms._choose_by(winrate_arms.blend, dominance=True)
    checked = 0
    for g in range(12):
        game = Game(30, 16, 99, seed=game_seed(3, g), first_click="opening")
        solver = Solver("opening", verify=False)
        while game.status is Status.PLAYING:
            d = solver.decide(game.board)
            if d.tier == "guess":
                board, cs, a = _position_of(game.board)
                assert guess.choose(board, cs, a) == plain(board, cs, a)
                checked += 1
            apply_moves(game, d.moves)
    assert checked >= 10


def _position_of(board: Board) -> tuple[Board, Constraints, Analysis]:
    cs = build(board)
    assert not isinstance(cs, Inconsistent)
    return board, cs, analyse(board, cs)
