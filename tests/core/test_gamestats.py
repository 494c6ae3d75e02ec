"""Per-game statistics: clicks by button, 3BV done, efficiency; counting changes nothing."""

from __future__ import annotations

import pytest

from msolver.core import bench
from msolver.core.board import FLAG, Board
from msolver.core.game import Game, Status
from msolver.core.gamestats import (
    ClickCount,
    GameStats,
    apply_counted,
    bench_stats,
    final_layout,
    live_stats,
    simulated_stats,
)
from msolver.core.solver import Move, Solver


def line_game() -> Game:
    # 0 1 * 1 0: two openings, 3BV 2
    return Game(5, 1, 1, layout=frozenset({2}), first_click="none")


def test_a_hand_played_game() -> None:
    game = line_game()
    count = ClickCount()
    # (0) floods 0-1; (1) is then already open: no click; flag 2; (4) floods 3-4
    moves = (Move("open", 0, 0.0), Move("open", 1, 0.0), Move("flag", 2, 1.0), Move("open", 4, 0.0))
    apply_counted(game, moves, count)
    assert game.status is Status.WON
    stats = simulated_stats(game, count, seconds=0.5, guesses=0)
    assert stats.clicks_by_button == {"left": 2, "right": 1, "chord": 0}
    assert stats.clicks == 3
    assert (stats.bbbv, stats.solved_bbbv) == (2, 2)
    assert stats.efficiency == pytest.approx(2 / 3)
    assert stats.bbbv_per_s == pytest.approx(4.0)
    assert not stats.guessed
    assert stats.as_json() == {
        "bbbv": 2,
        "solved_bbbv": 2,
        "bbbv_per_s": pytest.approx(4.0),
        "clicks": 3,
        "clicks_by_button": {"left": 2, "right": 1, "chord": 0},
        "efficiency": pytest.approx(2 / 3),
        "guesses": 0,
    }


def test_a_lost_game_counts_the_3bv_it_did() -> None:
    game = line_game()
    count = ClickCount()
    apply_counted(game, (Move("open", 0, 0.0), Move("open", 2, 0.2), Move("open", 4, 0.0)), count)
    assert game.status is Status.LOST
    stats = simulated_stats(game, count, seconds=1.0, guesses=1)
    # the click on the mine is a click; the one after the loss never happens
    assert stats.clicks_by_button["left"] == 2
    assert (stats.bbbv, stats.solved_bbbv) == (2, 1)
    assert stats.guessed and not stats.won


@pytest.mark.parametrize("rule", ["safe", "opening"])
def test_counting_changes_no_game(rule: str) -> None:
    for seed in range(15):
        a = Game(16, 16, 40, seed=seed, first_click=rule)  # type: ignore[arg-type]
        b = Game(16, 16, 40, seed=seed, first_click=rule)  # type: ignore[arg-type]
        solver = Solver(rule, verify=False)  # type: ignore[arg-type]
        count = ClickCount()
        while a.status is Status.PLAYING:
            d = solver.decide(a.board)
            assert solver.decide(b.board) == d
            bench.apply_moves(a, d.moves)
            apply_counted(b, d.moves, count)
            assert a.board == b.board and a.status is b.status
        assert b.layout == a.layout


def test_simulated_games_click_as_a_player_must() -> None:
    results = bench.run(9, 9, 10, "safe", 60, seed=5)
    won = 0
    for r in results:
        s = r.stats
        assert s is not None
        assert s.won == r.won and s.guesses == r.guesses and s.seconds == r.seconds
        assert 0 <= s.solved_bbbv <= s.bbbv
        assert s.clicks_by_button["chord"] == 0  # the simulator's player never chords
        if r.won:
            won += 1
            assert s.solved_bbbv == s.bbbv
            # 3BV is the least number of left clicks that solve the board
            assert s.clicks_by_button["left"] >= s.bbbv
            assert s.efficiency is not None and s.efficiency <= 1.0
    assert won > 40


def test_bench_figures_are_unchanged_by_counting() -> None:
    # the same seeds played through apply_moves: same wins, same guesses
    for r in bench.run(16, 16, 40, "safe", 12, seed=3):
        game = Game(16, 16, 40, seed=bench.game_seed(3, r.index), first_click="safe")
        solver = Solver("safe", verify=False)
        guesses = 0
        while game.status is Status.PLAYING:
            d = solver.decide(game.board)
            guesses += not d.certain
            bench.apply_moves(game, d.moves)
        assert (game.status is Status.WON, guesses) == (r.won, r.guesses)


def test_final_layout_of_a_live_game() -> None:
    won = Board.parse("01F\n011\n000", 1)
    assert final_layout(won) == frozenset({2})
    won_unflagged = Board.parse("01.\n011\n000", 1)
    assert final_layout(won_unflagged) == frozenset({2})
    lost = Board.parse("1X*\n2W.\n...", 2)  # a wrong flag is no mine
    assert final_layout(lost) == frozenset({1, 2})
    hidden = Board.parse("1X.\n...\n...", 2)  # the game showed only the exploded mine
    assert final_layout(hidden) is None
    count = ClickCount()
    count.add("left", 2)
    count.add("chord")
    count.add("right")
    stats = live_stats(won, count, won=True, seconds=2.0)
    assert stats is not None
    assert stats.bbbv == 1 and stats.clicks == 4 and stats.efficiency == pytest.approx(0.25)
    assert live_stats(hidden, count, won=False, seconds=2.0) is None
    assert won.count(FLAG) == 1


def test_bench_stats() -> None:
    games = [
        GameStats(True, 10, 10, {"left": 10, "right": 0, "chord": 0}, 2.0, 0),
        GameStats(False, 20, 5, {"left": 4, "right": 1, "chord": 0}, 1.0, 2),
    ]
    s = bench_stats(games)
    assert s.mean_bbbv == 15.0
    assert s.guess_share == 0.5
    assert s.mean_efficiency == pytest.approx((1.0 + 1.0) / 2)
    assert s.mean_bbbv_per_s == pytest.approx((5.0 + 5.0) / 2)
    assert set(s.as_json()) == {"mean_bbbv", "guess_share", "mean_efficiency", "mean_bbbv_per_s"}
    assert bench_stats([]).mean_bbbv == 0.0
