"""Simulated win rates: the solver plays seeded games against the simulator.

Game g of a run with seed S is seeded from (S, g) alone, so a run is the same
whatever the number of workers, and any single game can be replayed.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from msolver.core.game import FirstClick, Game, Status
from msolver.core.gamestats import ClickCount, GameStats, apply_counted, simulated_stats
from msolver.core.solver import Move, Solver
from msolver.core.stats import percentile, wilson_interval


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    won: bool
    seconds: float  # solver time only
    move_ms: tuple[float, ...]  # solver time per decision
    guesses: int
    stats: GameStats | None = None  # 3BV, clicks by button, efficiency (core.gamestats)


@dataclass(frozen=True, slots=True)
class Summary:
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    ms_per_game: float
    ms_per_move_mean: float
    ms_per_move_p99: float
    ms_per_move_max: float

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "ms_per_game": self.ms_per_game,
            "ms_per_move_mean": self.ms_per_move_mean,
            "ms_per_move_p99": self.ms_per_move_p99,
            "ms_per_move_max": self.ms_per_move_max,
        }


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def apply_moves(game: Game, moves: Iterable[Move]) -> None:
    """Play a decision's moves in order, stopping when the game ends."""
    for move in moves:
        if move.kind == "flag":
            game.flag(move.index)
        else:
            game.open(move.index)
        if game.status is not Status.PLAYING:
            return


def play_one(
    width: int, height: int, mines: int, first_click: FirstClick, seed: int, index: int
) -> GameResult:
    game = Game(width, height, mines, seed=game_seed(seed, index), first_click=first_click)
    solver = Solver(first_click, verify=False)
    times: list[float] = []
    guesses = 0
    clicks = ClickCount()
    while game.status is Status.PLAYING:
        board = game.board
        t0 = time.perf_counter()
        decision = solver.decide(board)
        times.append((time.perf_counter() - t0) * 1000)
        if decision.status != "ok" or not decision.moves:
            # The solver cannot lose track on a simulated board; if it does, the
            # game counts as lost so the bug shows in the figures.
            break
        if not decision.certain:
            guesses += 1
        apply_counted(game, decision.moves, clicks)
    seconds = sum(times) / 1000
    stats = simulated_stats(game, clicks, seconds=seconds, guesses=guesses)
    won = game.board.outcome() == "won"
    return GameResult(index, won, seconds, tuple(times), guesses, stats)


def _play_chunk(args: tuple[int, int, int, FirstClick, int, list[int]]) -> list[GameResult]:
    width, height, mines, rule, seed, indices = args
    return [play_one(width, height, mines, rule, seed, i) for i in indices]


def run(
    width: int,
    height: int,
    mines: int,
    first_click: FirstClick,
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play `games` games; `progress(n)` is told how many finished since last call."""
    results: list[GameResult] = []
    if workers <= 1:
        for i in range(games):
            results.append(play_one(width, height, mines, first_click, seed, i))
            if progress:
                progress(1)
        return results
    chunk = 20
    # Jobs are made and submitted a window at a time, never all up front, so
    # a long run holds only a few chunks in flight.
    starts = iter(range(0, games, chunk))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[GameResult]]] = deque()
        while True:
            while len(pending) < 4 * workers:
                s = next(starts, None)
                if s is None:
                    break
                indices = list(range(s, min(s + chunk, games)))
                job = (width, height, mines, first_click, seed, indices)
                pending.append(pool.submit(_play_chunk, job))
            if not pending:
                break
            part = pending.popleft().result()
            results.extend(part)
            if progress:
                progress(len(part))
    return results


def summarise(results: list[GameResult]) -> Summary:
    n = len(results)
    wins = sum(r.won for r in results)
    moves = [t for r in results for t in r.move_ms]
    return Summary(
        games=n,
        wins=wins,
        win_rate=wins / n if n else 0.0,
        ci95=wilson_interval(wins, n),
        ms_per_game=sum(r.seconds for r in results) * 1000 / n if n else 0.0,
        ms_per_move_mean=sum(moves) / len(moves) if moves else 0.0,
        ms_per_move_p99=percentile(moves, 99),
        ms_per_move_max=max(moves, default=0.0),
    )
