"""Solver speed and decision record: ``python -m tests.core.bench_speed``.

Plays seeded games the way ``msolver bench`` does (game g of seed S is seeded
from (S, g), verify off) and prints the CPU time per game (process time, so a
machine shared with other work does not distort it) and per move (mean, p99,
max). With ``--record FILE`` it writes every decision (tier, moves, mine
probability) of every game; with ``--compare FILE`` it replays the same games
and names the first game whose decisions differ, so a speed change can be
shown to decide exactly as before. ``--profile N`` prints the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import sys
import time
from dataclasses import dataclass

from msolver.core.game import LEVELS, FirstClick, Game, Status
from msolver.core.solver import Solver
from tests.core.reference_solver import Solver as ReferenceSolver


def game_seed(seed: int, index: int) -> int:
    # The same seeding as msolver.bench, so wins here match its wins.
    return seed * 1_000_003 + index


@dataclass(frozen=True, slots=True)
class Played:
    won: bool
    cpu_ms: float
    move_ms: tuple[float, ...]
    decisions: tuple[str, ...]


def play(
    level: str, rule: FirstClick, seed: int, index: int, reference: bool = False, timed: bool = True
) -> Played:
    lv = LEVELS[level]
    game = Game(lv.width, lv.height, lv.mines, seed=game_seed(seed, index), first_click=rule)
    solver = (ReferenceSolver if reference else Solver)(rule, verify=False)
    times: list[float] = []
    record: list[str] = []
    while game.status is Status.PLAYING:
        board = game.board
        if timed:
            t0 = time.process_time()
            d = solver.decide(board)
            times.append((time.process_time() - t0) * 1000)
        else:
            d = solver.decide(board)
        moves = " ".join(f"{m.kind[0]}{m.index}:{m.p_mine!r}" for m in d.moves)
        record.append(f"{d.status} {d.tier} {int(d.certain)} {moves}")
        if d.status != "ok" or not d.moves:
            break
        for m in d.moves:
            if m.kind == "flag":
                game.flag(m.index)
            else:
                game.open(m.index)
            if game.status is not Status.PLAYING:
                break
    return Played(game.status is Status.WON, sum(times), tuple(times), tuple(record))


def digest(decisions: tuple[str, ...]) -> str:
    return hashlib.sha256("\n".join(decisions).encode()).hexdigest()[:16]


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.core.bench_speed")
    ap.add_argument("--level", default="expert", choices=sorted(LEVELS))
    ap.add_argument("--first-click", default="opening", choices=["safe", "opening", "xp", "none"])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", help="write every decision of every game here (JSON)")
    ap.add_argument("--compare", help="check the decisions against this record")
    ap.add_argument(
        "--reference", action="store_true", help="time the solver as it was before (4a027f8)"
    )
    ap.add_argument(
        "--whole",
        action="store_true",
        help="no per-move timer (reading the process clock is a slow system call on some"
        " machines): CPU per game of the whole run, simulator included",
    )
    ap.add_argument("--profile", type=int, default=0, help="print this many top functions")
    a = ap.parse_args(argv)
    rule: FirstClick = a.first_click
    prof = cProfile.Profile() if a.profile else None
    played: list[Played] = []
    if prof:
        prof.enable()
    t0 = time.process_time()
    for g in range(a.games):
        played.append(play(a.level, rule, a.seed, g, a.reference, not a.whole))
    whole = (time.process_time() - t0) * 1000 / a.games
    if prof:
        prof.disable()
    if a.whole:
        print(
            f"{'reference ' if a.reference else ''}{a.level} {rule} seed {a.seed}: "
            f"{len(played)} games, {sum(p.won for p in played)} wins; "
            f"cpu ms/game {whole:.2f} (whole run, simulator included)"
        )
        return 0
    moves = [t for p in played for t in p.move_ms]
    wins = sum(p.won for p in played)
    per_game = sum(p.cpu_ms for p in played) / len(played)
    print(
        f"{'reference ' if a.reference else ''}{a.level} {rule} seed {a.seed}: "
        f"{len(played)} games, {wins} wins; "
        f"cpu ms/game {per_game:.2f}; per move mean {sum(moves) / len(moves):.3f} "
        f"p99 {pct(moves, 0.99):.2f} max {max(moves):.1f} ({len(moves)} moves)"
    )
    status = 0
    if a.record:
        with open(a.record, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "level": a.level,
                    "rule": rule,
                    "seed": a.seed,
                    "games": [list(p.decisions) for p in played],
                },
                f,
            )
    if a.compare:
        with open(a.compare, encoding="utf-8") as f:
            old = json.load(f)
        same = 0
        for g, p in enumerate(played):
            if g >= len(old["games"]):
                break
            ref = tuple(old["games"][g])
            if ref == p.decisions:
                same += 1
                continue
            if status == 0:
                k = next(
                    (k for k, (x, y) in enumerate(zip(ref, p.decisions, strict=False)) if x != y),
                    min(len(ref), len(p.decisions)),
                )
                print(f"game {g} differs at decision {k}:")
                print(f"  before: {ref[k] if k < len(ref) else '(none)'}")
                print(f"  after:  {p.decisions[k] if k < len(p.decisions) else '(none)'}")
            status = 1
        print(f"decisions identical in {same} of {min(len(played), len(old['games']))} games")
    if prof:
        pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(a.profile)
        pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(a.profile)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
