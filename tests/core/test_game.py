from __future__ import annotations

import pytest

from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG, BoardError
from msolver.core.game import Game, Status


def test_same_seed_same_game() -> None:
    a = Game(30, 16, 99, seed=7, first_click="safe")
    b = Game(30, 16, 99, seed=7, first_click="safe")
    a.open(100)
    b.open(100)
    assert a.layout == b.layout
    assert a.board == b.board


@pytest.mark.parametrize("seed", range(30))
def test_first_click_rules(seed: int) -> None:
    safe = Game(9, 9, 70, seed=seed, first_click="safe")
    safe.open(40)
    assert 40 not in safe.layout and len(safe.layout) == 70
    opening = Game(9, 9, 70, seed=seed, first_click="opening")
    opening.open(40)
    banned = {40, *opening.board.neighbours(40)}
    assert not banned & opening.layout and len(opening.layout) == 70
    assert opening.board.cells[40] == 0


def test_xp_rule_moves_the_mine_to_the_top_left_free_cell() -> None:
    # Find a seed whose uniform layout has a mine under the click.
    for seed in range(200):
        plain = Game(5, 5, 10, seed=seed, first_click="none")
        if plain.is_mine(12):
            break
    else:
        pytest.fail("no seed put a mine under the click")
    xp = Game(5, 5, 10, seed=seed, first_click="xp")
    xp.open(12)
    expected = next(i for i in range(25) if i not in plain.layout)
    assert xp.layout == (plain.layout - {12}) | {expected}


def test_no_protection_can_lose_on_the_first_click() -> None:
    lost = 0
    for seed in range(100):
        g = Game(4, 4, 12, seed=seed, first_click="none")
        if g.open(5) is Status.LOST:
            lost += 1
    assert 50 < lost < 95  # 12/16 of the time, give or take


def test_zero_floods_iteratively_on_a_huge_empty_board() -> None:
    g = Game(300, 300, 1, seed=1, first_click="opening", layout=frozenset({89999}))
    g.open(0)
    assert g.status is Status.WON


def test_chord_opens_around_a_satisfied_number() -> None:
    g = Game(3, 3, 2, layout=frozenset({0, 8}), seed=0)
    g.open(4)
    assert g.board.cells[4] == 2
    g.flag(0)
    g.chord(4)  # one flag for a 2: chording must do nothing
    assert g.board.cells[1] == UNKNOWN
    g.flag(8)
    g.chord(4)
    assert g.status is Status.WON
    assert g.board.cells[0] == FLAG and g.board.cells[8] == FLAG


def test_chord_with_a_wrong_flag_loses_and_shows_everything() -> None:
    g = Game(3, 3, 1, layout=frozenset({0}), seed=0)
    g.open(4)  # the centre shows 1
    g.flag(1)  # wrong flag
    g.chord(4)
    assert g.status is Status.LOST
    cells = g.board.cells
    assert cells[0] == EXPLODED and cells[1] == WRONG_FLAG
    assert MINE not in cells


def test_too_many_mines_is_an_error() -> None:
    with pytest.raises(BoardError, match="do not fit"):
        Game(3, 3, 1, first_click="opening")


@pytest.mark.parametrize("seed", range(40))
def test_the_board_says_the_outcome_the_game_keeps(seed: int) -> None:
    # Random clicks and flags until the game ends: at every step the board's
    # own outcome (what a player sees) is the simulator's status.
    import random

    rng = random.Random(seed)
    game = Game(9, 9, 10 + seed % 20, seed=seed, first_click="none")
    while True:
        want = None if game.status is Status.PLAYING else game.status.value
        assert game.board.outcome() == want
        if want is not None:
            break
        i = rng.randrange(81)
        if rng.random() < 0.2:
            game.flag(i)
        else:
            game.open(i)
