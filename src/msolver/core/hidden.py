"""Rule: a game just won behind a window can be completed from what is still in sight.

When a game is won every cell left unopened is a mine. A dialog drawn over the
board as the game ends hides some cells that were unknown before the last
batch; besides the cells the batch clicked open, a click that opened a 0 may
have opened more of them by cascade. The board is won only if the hidden
unknown cells can be split into mines and opened cells so that every number
in sight (and every number known from before the cover) holds, the mines add
up to the board's count, and every hidden cell called open was reached by a
cascade: joined to a cell the batch opened through opened 0s. If no split
fits, the board is not won; if one does, it gives the numbers under the cover.
"""

from __future__ import annotations

from collections.abc import Iterable

from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG, Board, neighbours_table

# Layouts tried before giving up: a cover over a board this open hides a few
# dozen unknown cells at most, and giving up only means not calling a win.
_BUDGET = 20_000
# More hidden unknown cells than this are no board just won (and the search
# recurses once per cell).
_MOST_FREE = 300


def won_beneath(
    cells: list[int],
    hidden: Iterable[int],
    opened: Iterable[int],
    board: Board,
    unsure: Iterable[int] = (),
) -> Board | None:
    """The won board, if `cells` can be one.

    cells: the board as seen, with the cells under the cover taken from before
    it (unknown ones still unknown). hidden: the cells under the cover.
    opened: the cells the last batch opened (clicked, or chorded around).
    board: the board before the batch (size and mine count).
    unsure: opened cells whose number the reader could not name for sure
    (one of several readings of a look): open, but their numbers bind
    nothing, and the won board gives them the count of their mines. A 3
    read as a 2 had left minesweeper-mvc's win under its end screen unfound.
    Returns the board with the hidden cells filled in (opened with their
    numbers, or left unknown as mines), or None when no won board fits.
    """
    if any(s in (MINE, EXPLODED, WRONG_FLAG) for s in cells):
        return None
    nbrs = neighbours_table(board.width, board.height)
    hidden_set = set(hidden)
    doubt = {i for i in unsure if cells[i] >= 0}
    clicked = {i for i in opened if cells[i] == UNKNOWN and i in hidden_set}
    free = sorted(i for i in hidden_set if cells[i] == UNKNOWN and i not in clicked)
    if len(free) > _MOST_FREE:
        return None
    free_set = set(free)
    # Outside the free cells, every unopened cell is a mine on a won board.
    fixed = {i for i, s in enumerate(cells) if s == FLAG or (s == UNKNOWN and i not in hidden_set)}
    left = board.mines - len(fixed)
    if not 0 <= left <= len(free):
        return None
    # Each number seen: the mines it still needs among its free neighbours.
    cons: list[tuple[list[int], int]] = []
    for i, s in enumerate(cells):
        if s < 0 or i in clicked or i in doubt:
            continue
        need = s - sum(1 for j in nbrs[i] if j in fixed)
        around = [j for j in nbrs[i] if j in free_set]
        if not 0 <= need <= len(around):
            return None
        if around:
            cons.append((around, need))
    cons_of: dict[int, list[int]] = {i: [] for i in free}
    for c, (around, _) in enumerate(cons):
        for j in around:
            cons_of[j].append(c)
    placed = [0] * len(cons)  # mines placed so far per constraint
    open_left = [len(around) for around, _ in cons]  # its cells not yet decided
    mine: dict[int, bool] = {}
    budget = [_BUDGET]
    # Where a cascade into the cover can start: the hidden cells clicked, and
    # every cell in sight that this batch opened (clicked or cascaded).
    newly = set(clicked) | {
        i
        for i, s in enumerate(cells)
        if i not in hidden_set and board.cells[i] == UNKNOWN and s >= 0
    }

    def filled(layout: dict[int, bool]) -> list[int]:
        """The board under `layout`: hidden cells opened show their numbers."""
        value = list(cells)
        for i in [*free, *clicked, *doubt]:
            if not layout.get(i, False):
                value[i] = sum(1 for j in nbrs[i] if j in fixed or layout.get(j, False))
        return value

    def fits(layout: dict[int, bool]) -> bool:
        # A free cell called open must have been reached by a cascade.
        value = filled(layout)
        reached = set()
        todo = [i for i in newly if value[i] == 0]
        while todo:
            i = todo.pop()
            for j in nbrs[i]:
                if j in free_set and not layout[j] and j not in reached:
                    reached.add(j)
                    if value[j] == 0:
                        todo.append(j)
        return all(layout[i] or i in reached for i in free)

    def search(k: int, mines: int) -> dict[int, bool] | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if k == len(free):
            return dict(mine) if mines == left and fits(mine) else None
        i = free[k]
        for is_mine in (True, False):
            if is_mine and mines >= left:
                continue
            if not is_mine and len(free) - k - 1 < left - mines:
                continue
            ok = True
            for c in cons_of[i]:
                p = placed[c] + is_mine
                if p > cons[c][1] or p + open_left[c] - 1 < cons[c][1]:
                    ok = False
            if not ok:
                continue
            for c in cons_of[i]:
                placed[c] += is_mine
                open_left[c] -= 1
            mine[i] = is_mine
            found = search(k + 1, mines + is_mine)
            del mine[i]
            for c in cons_of[i]:
                placed[c] -= is_mine
                open_left[c] += 1
            if found is not None:
                return found
        return None

    layout = search(0, 0)
    if layout is None:
        return None
    won = Board(board.width, board.height, board.mines, tuple(filled(layout)))
    return won if won.outcome() == "won" else None
