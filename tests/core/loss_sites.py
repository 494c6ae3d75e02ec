"""Where games are lost: ``python -m tests.core.loss_sites LEVEL GAMES SEED``.

Plays seeded games (opening rule, seeded as ``msolver bench`` seeds them) and
files each lost game under its last uncertain move: the tier that chose it,
the layouts left (in buckets) and the unknown cells. Beside each bucket's
losses it prints the risk taken there (the sum of the chosen cells' mine
chances over every game), which the losses should match.
"""

from __future__ import annotations

import sys
from collections import Counter

from msolver.core.bench import apply_moves, game_seed
from msolver.core.game import LEVELS, Game, Status
from msolver.core.solver import Solver

Site = tuple[str, str, str]


def _site(tier: str, layouts: int, unknown: int) -> Site:
    if layouts <= 600:
        lay = "<=600"
    elif layouts <= 5000:
        lay = "<=5000"
    elif layouts <= 100_000:
        lay = "<=1e5"
    else:
        lay = ">1e5"
    unk = "unk<40" if unknown < 40 else "unk<100" if unknown < 100 else "unk>=100"
    return tier, lay, unk


def main(argv: list[str]) -> int:
    level, games, seed = argv[0], int(argv[1]), int(argv[2])
    lv = LEVELS[level]
    losses: Counter[Site] = Counter()
    risk: dict[Site, float] = {}
    for g in range(games):
        game = Game(lv.width, lv.height, lv.mines, seed=game_seed(seed, g), first_click="opening")
        solver = Solver("opening", verify=False)
        last: Site | None = None
        while game.status is Status.PLAYING:
            d = solver.decide(game.board)
            if d.status != "ok" or not d.moves:
                break
            if not d.certain and d.analysis is not None:
                unknown = sum(1 for s in game.board.cells if s == -1)
                last = _site(d.tier, d.analysis.layouts, unknown)
                risk[last] = risk.get(last, 0.0) + d.moves[0].p_mine
            apply_moves(game, d.moves)
        if game.board.outcome() != "won" and last is not None:
            losses[last] += 1
    print(f"{level}, {games} games of seed {seed}: {sum(losses.values())} lost")
    for site, n in losses.most_common():
        print(" ".join(site), n, f"risk {risk[site]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
