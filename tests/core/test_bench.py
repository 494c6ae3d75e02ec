"""The simulated bench: streamed runs, running totals and CPU time."""

from __future__ import annotations

import itertools
import time

from msolver.core import bench
from msolver.core.stats import percentile


def test_streamed_run_is_the_same_for_any_worker_count() -> None:
    one = list(bench.stream(9, 9, 10, "opening", 50, seed=7, workers=1))
    two = list(bench.stream(9, 9, 10, "opening", 50, seed=7, workers=2))
    assert [r.index for r in two] == list(range(50))
    assert [(r.won, r.guesses, len(r.move_ms)) for r in one] == [
        (r.won, r.guesses, len(r.move_ms)) for r in two
    ]
    assert bench.tally(9, 9, 10, "opening", 50, seed=7, workers=2).wins == sum(r.won for r in one)


def test_a_huge_run_starts_at_once() -> None:
    # No list of all jobs up front: the first games arrive while a billion wait.
    t0 = time.monotonic()
    first = list(itertools.islice(bench.stream(9, 9, 10, "safe", 10**9, seed=1, workers=2), 30))
    assert [r.index for r in first] == list(range(30))
    assert time.monotonic() - t0 < 30


def test_running_totals_match_the_exact_figures() -> None:
    results = bench.run(16, 16, 40, "safe", 30, seed=4)
    s = bench.summarise(iter(results))
    moves = [t for r in results for t in r.move_ms]
    assert s.games == 30 and s.wins == sum(r.won for r in results)
    assert abs(s.ms_per_move_mean - sum(moves) / len(moves)) < 1e-9
    assert s.ms_per_move_max == max(moves)
    exact = percentile(moves, 99)
    # the p99 is its 0.5%-wide bucket's upper edge, never below the true value
    assert exact <= s.ms_per_move_p99 <= max(exact * 1.005, 0.001) + 1e-12
    cpu = sum(r.cpu_seconds for r in results)
    assert cpu > 0 and abs(s.cpu_ms_per_game - cpu * 1000 / 30) < 1e-9
    assert s.as_json()["cpu_ms_per_game"] == s.cpu_ms_per_game
