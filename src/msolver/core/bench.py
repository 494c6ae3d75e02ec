"""Simulated win rates: the solver plays seeded games against the simulator.

Game g of a run with seed S is seeded from (S, g) alone, so a run is the same
whatever the number of workers, and any single game can be replayed.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from msolver.core.game import PLAYING, WON, FirstClick, Game
from msolver.core.gamestats import BenchStats, ClickCount, GameStats, apply_counted, simulated_stats
from msolver.core.solver import Move, Solver
from msolver.core.stats import wilson_interval


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    won: bool
    seconds: float  # solver time only
    move_ms: tuple[float, ...]  # solver time per decision
    guesses: int
    stats: GameStats | None = None  # 3BV, clicks by button, efficiency (core.gamestats)
    # Process CPU time of the whole game (solver and simulator), read once per game:
    # reading the process clock is a system call that costs up to 150 us under load.
    cpu_seconds: float = 0.0


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
    cpu_ms_per_game: float = 0.0

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
            "cpu_ms_per_game": self.cpu_ms_per_game,
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
        if game.status is not PLAYING:
            return


def play_one(
    width: int, height: int, mines: int, first_click: FirstClick, seed: int, index: int
) -> GameResult:
    cpu0 = time.process_time()
    game = Game(width, height, mines, seed=game_seed(seed, index), first_click=first_click)
    solver = Solver(first_click, verify=False)
    times: list[float] = []
    guesses = 0
    clicks = ClickCount()
    while game.status is PLAYING:
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
    # What the board's outcome says, without making it: the game is won
    # exactly when its last safe cell opened (a lost one shows a mine).
    won = game.status is WON
    cpu = time.process_time() - cpu0
    return GameResult(index, won, seconds, tuple(times), guesses, stats, cpu)


def _play_chunk(args: tuple[int, int, int, FirstClick, int, int, int]) -> list[GameResult]:
    width, height, mines, rule, seed, start, stop = args
    return [play_one(width, height, mines, rule, seed, i) for i in range(start, stop)]


def stream(
    width: int,
    height: int,
    mines: int,
    first_click: FirstClick,
    games: int,
    seed: int,
    workers: int = 1,
) -> Iterator[GameResult]:
    """Yield the games' results in order, playing them on `workers` processes.

    Only a few chunks per worker are in flight at once, so a run of any length
    starts at once and holds bounded memory.
    """
    if workers <= 1:
        for i in range(games):
            yield play_one(width, height, mines, first_click, seed, i)
        return
    chunk = 20
    starts = iter(range(0, games, chunk))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[GameResult]]] = deque()

        def submit() -> None:
            s = next(starts, None)
            if s is not None:
                job = (width, height, mines, first_click, seed, s, min(s + chunk, games))
                pending.append(pool.submit(_play_chunk, job))

        try:
            for _ in range(4 * workers):
                submit()
            while pending:
                part = pending.popleft().result()
                submit()
                yield from part
        finally:
            # Stopped early (Ctrl-C, or the reader had enough): drop the chunks
            # not started rather than play them out.
            for f in pending:
                f.cancel()


# Per-move times go into buckets 0.5% wide (from 1 us up), so a run of any
# length keeps the p99 in bounded memory, to within 0.5%.
_BUCKET = math.log(1.005)
_FLOOR_MS = 0.001


def _bucket(ms: float) -> int:
    return max(0, math.ceil(math.log(max(ms, _FLOOR_MS) / _FLOOR_MS) / _BUCKET))


@dataclass(slots=True)
class Tally:
    """Running totals of a run: what `Summary` needs, without keeping the games."""

    games: int = 0
    wins: int = 0
    solver_seconds: float = 0.0
    cpu_seconds: float = 0.0
    moves: int = 0
    move_ms_sum: float = 0.0
    move_ms_max: float = 0.0
    buckets: dict[int, int] = field(default_factory=dict)
    # Running sums of the games' statistics (3BV, guesses, efficiency), so a
    # streamed run reports them without keeping its games.
    stats_games: int = 0
    bbbv_sum: int = 0
    guessed: int = 0
    eff_sum: float = 0.0
    eff_n: int = 0
    rate_sum: float = 0.0
    rate_n: int = 0

    def add(self, r: GameResult) -> None:
        if r.stats is not None:
            g = r.stats
            self.stats_games += 1
            self.bbbv_sum += g.bbbv
            self.guessed += bool(g.guessed)
            if (e := g.efficiency) is not None:
                self.eff_sum += e
                self.eff_n += 1
            if (v := g.bbbv_per_s) is not None:
                self.rate_sum += v
                self.rate_n += 1
        self.games += 1
        self.wins += r.won
        self.solver_seconds += r.seconds
        self.cpu_seconds += r.cpu_seconds
        self.moves += len(r.move_ms)
        self.move_ms_sum += sum(r.move_ms)
        self.move_ms_max = max(self.move_ms_max, max(r.move_ms, default=0.0))
        for t in r.move_ms:
            b = _bucket(t)
            self.buckets[b] = self.buckets.get(b, 0) + 1

    def percentile(self, q: float) -> float:
        """Nearest-rank percentile of the move times, as its bucket's upper edge."""
        if not self.moves:
            return 0.0
        rank = max(1, min(self.moves, round(q / 100 * self.moves + 0.5)))
        seen = 0
        for b in sorted(self.buckets):
            seen += self.buckets[b]
            if seen >= rank:
                return min(_FLOOR_MS * math.exp(b * _BUCKET), self.move_ms_max)
        return self.move_ms_max

    def bench_stats(self) -> BenchStats:
        """The same figures as `gamestats.bench_stats` over the games added."""
        n = self.stats_games
        if not n:
            return BenchStats(0.0, 0.0, None, None)
        return BenchStats(
            mean_bbbv=self.bbbv_sum / n,
            guess_share=self.guessed / n,
            mean_efficiency=self.eff_sum / self.eff_n if self.eff_n else None,
            mean_bbbv_per_s=self.rate_sum / self.rate_n if self.rate_n else None,
        )

    def summary(self) -> Summary:
        n = self.games
        return Summary(
            games=n,
            wins=self.wins,
            win_rate=self.wins / n if n else 0.0,
            ci95=wilson_interval(self.wins, n),
            ms_per_game=self.solver_seconds * 1000 / n if n else 0.0,
            ms_per_move_mean=self.move_ms_sum / self.moves if self.moves else 0.0,
            ms_per_move_p99=self.percentile(99),
            ms_per_move_max=self.move_ms_max,
            cpu_ms_per_game=self.cpu_seconds * 1000 / n if n else 0.0,
        )


def tally(
    width: int,
    height: int,
    mines: int,
    first_click: FirstClick,
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play `games` games keeping only running totals (bounded memory)."""
    t = Tally()
    for r in _told(stream(width, height, mines, first_click, games, seed, workers), progress):
        t.add(r)
    return t


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
    return list(_told(stream(width, height, mines, first_click, games, seed, workers), progress))


def _told(
    results: Iterator[GameResult], progress: Callable[[int], None] | None
) -> Iterator[GameResult]:
    """The results as they come, telling `progress` of each one."""
    for r in results:
        if progress:
            progress(1)
        yield r


def summarise(results: Iterable[GameResult] | Tally) -> Summary:
    if isinstance(results, Tally):
        return results.summary()
    t = Tally()
    for r in results:
        t.add(r)
    return t.summary()
