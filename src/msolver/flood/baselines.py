"""The published kinds of Flood-It bot, for comparison with the exact solver.

- greedy: each move takes the colour that floods the most cells now;
- lookahead k: each move starts the k-move sequence that floods the most cells
  (a sequence that wins within k moves counts best, the shorter the better).

Ties go to the lowest colour index. These are what the screen bots the issue
cites do (a greedy one won 28 of 100 games at 14x14/6/25, a 4-move lookahead
96); measuring them on the same boards makes the comparison like for like.
"""

from __future__ import annotations

from msolver.flood.core import FloodBoard, RegionGraph


class _Regions:
    def __init__(self, g: RegionGraph, colours: int) -> None:
        self.g = g
        sizes = [0] * g.count
        for k in g.region_of:
            sizes[k] += 1
        self.sizes = sizes
        self.cmask = [g.colour_mask[c] for c in range(colours)]

    def cells(self, regions: int) -> int:
        total = 0
        sizes = self.sizes
        while regions:
            low = regions & -regions
            total += sizes[low.bit_length() - 1]
            regions ^= low
        return total

    def step(self, flood: int, front: int, colour: int) -> tuple[int, int, int]:
        """(flood, front, cells gained) after playing `colour`."""
        m = front & self.cmask[colour]
        if not m:
            return flood, front, 0
        flood |= m
        front = (front | self.g.neighbours(m)) & ~flood
        return flood, front, self.cells(m)


def _best(r: _Regions, flood: int, front: int, depth: int) -> tuple[int, int]:
    """(-moves to win or 0, cells gained) of the best sequence of up to `depth` moves.

    Ranked first by winning sooner, then by cells flooded.
    """
    best = (0, -1)
    for c, mask in enumerate(r.cmask):
        if not front & mask:
            continue
        f2, fr2, gained = r.step(flood, front, c)
        if f2 == r.g.all:
            return (-1, gained)
        if depth > 1:
            sub_win, sub_gain = _best(r, f2, fr2, depth - 1)
            score = (sub_win - 1 if sub_win else 0, gained + max(sub_gain, 0))
        else:
            score = (0, gained)
        if _better(score, best):
            best = score
    return best


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    # Wins first (a larger negative count is a longer win), then cells.
    if a[0] and b[0]:
        return a[0] > b[0]
    if a[0] or b[0]:
        return bool(a[0])
    return a[1] > b[1]


def lookahead(board: FloodBoard, depth: int, max_moves: int = 1000) -> tuple[int, ...]:
    """Moves (colour indices) of the depth-k area lookahead; depth 1 is greedy."""
    if depth < 1:
        raise ValueError(f"lookahead depth {depth} must be at least 1")
    r = _Regions(board.regions, board.colours)
    g = r.g
    flood = 1 << g.start
    front = g.neighbours(flood)
    moves: list[int] = []
    while flood != g.all and len(moves) < max_moves:
        pick, pick_score = -1, (0, -1)
        for c, mask in enumerate(r.cmask):
            if not front & mask:
                continue
            f2, fr2, gained = r.step(flood, front, c)
            if f2 == g.all:
                pick = c
                break
            if depth > 1:
                sub_win, sub_gain = _best(r, f2, fr2, depth - 1)
                score = (sub_win - 1 if sub_win else 0, gained + max(sub_gain, 0))
            else:
                score = (0, gained)
            if pick < 0 or _better(score, pick_score):
                pick, pick_score = c, score
        flood, front, _ = r.step(flood, front, pick)
        moves.append(pick)
    return tuple(moves)
