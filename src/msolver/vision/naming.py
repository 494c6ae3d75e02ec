"""Naming tiles never seen before from the rules of the game alone.

A theme that is not built in starts with one known tile, the unopened one
(from the blank board of the calibration). Every other look is learned in
play: when a batch of clicks shows tiles of new looks, each new look (a
class of identical cells) is named by what the rules allow:

- a look on cells we just flagged, and nowhere else, is the flag;
- every other new look on a cell that was unopened is an opened cell, so it
  shows a number 0-8 that no known look shows yet (one look per number), or
  one whose look it is near (the same glyph drawn at another sub-pixel
  phase: a toolkit that lays tiles at whole pixels unevenly draws its text
  at fractional ones);
- a number is at least its flagged neighbours and at most its unopened plus
  flagged neighbours, on every cell of the look;
- of the assignments of numbers to looks that fit those bounds, only those
  for which the whole board has a mine layout (the solver's exact count) can
  be true.

A look is named only when every fitting assignment gives it the same number.
An ambiguous look stays unnamed and its cells are reported as unread, so the
player never acts on a guess about the screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from msolver.core.board import (
    EXPLODED,
    FLAG,
    MINE,
    UNKNOWN,
    WRONG_FLAG,
    Board,
    neighbours_table,
    side_neighbours_table,
)
from msolver.core.solver import Decision, Move
from msolver.core.solver.constraints import Inconsistent, build
from msolver.core.solver.probability import Analysis, CountTooLarge, analyse, count_budget

# Beyond this many boards to check (each with the new looks numbered, or some
# of them), the evidence is too thin: name nothing yet.
MAX_ASSIGNMENTS = 4000
_SHOWN = (FLAG, MINE, EXPLODED)  # mines shown: each counts for its neighbours' numbers
# A new look's cell while the search has not numbered its look yet: opened, so
# no mine, and saying nothing. `build` reads a wrongly placed flag so (it shows
# no number and is no mine); an unknown cell instead would take mines.
_NUMBER_LEFT_OUT = WRONG_FLAG
# States a region's count may take while numberings are checked (a real
# board's take at most a few hundred): past it, nothing is named from it.
COUNT_STATES = 20_000
# How much better (in SHAPE_TOL of glyph, summed over the unsure looks) one
# reading must fit its looks than every other before a guess goes by it: a
# redrawn digit was measured up to 2.46 from its first look, two digits of
# one colour 3.8 and more apart (docs/vision.md).
LIKELIER_BY = 1.0


@dataclass(frozen=True, slots=True)
class Naming:
    """Names found (look id -> "flag" or "0".."8"), and why the rest stayed unnamed."""

    names: dict[int, str]
    unnamed: tuple[int, ...]
    reason: str = ""
    # Every numbering of the unnamed looks that fits the board (look id -> number).
    fits: tuple[dict[int, int], ...] = ()


def name_looks(
    width: int,
    height: int,
    mines: int,
    known: Sequence[int | None],
    looks: Mapping[int, Sequence[int]],
    *,
    flagged: frozenset[int] = frozenset(),
    known_numbers: frozenset[int] = frozenset(),
    guessed: frozenset[int] = frozenset(),
    clicked: frozenset[int] = frozenset(),
    variants: Mapping[int, frozenset[int]] | None = None,
    alike: Mapping[int, frozenset[int]] | None = None,
    mines_only: frozenset[int] = frozenset(),
    sides_only: bool = False,
    inkless: frozenset[int] = frozenset(),
    zeros: frozenset[int] = frozenset(),
) -> Naming:
    """Name new looks on a board.

    known: per cell, its state when its look is known (UNKNOWN for the
    unopened look), None when its look is one of `looks`.
    looks: look id -> the cells showing it (each cell in exactly one look).
    flagged: cells we right-clicked since they were last read as unopened.
    known_numbers: numbers whose look is already known (a new look is another number).
    guessed: cells the last batch opened on a guess (one may have been a mine).
    clicked: cells our clicks opened this game (left clicks, guessed or not,
    and the cells chords open); empty when not known. A mine goes off only there.
    variants: look id -> known numbers it may be another drawing of (a glyph
    drawn at another sub-pixel phase, near that number's look): those stay
    open to it, beside the numbers no look shows.
    alike: look id -> the other new looks it may be another drawing of (the
    same two phases of one glyph, both new): those may share a number.
    mines_only: cells where only a mine (or a flag) may show: no opening our
    clicks made reaches them. A look on one is no number, so its numberings
    are not searched (a lost game's 199 mines in a look not named yet, each
    numbering a board whose count took every byte of memory).
    sides_only: the game's cascade opens only a 0's side neighbours, so a 0
    may border unopened cells corner to corner.
    inkless: looks that draw nothing on their face: a number is drawn, so
    each can only be a 0.
    zeros: cells that can only be 0s: a click there opened its neighbours too
    (a number opens only itself).
    """
    variants = variants or {}
    alike = alike or {}
    names: dict[int, str] = {}
    numbered: dict[int, Sequence[int]] = {}
    mixed: list[int] = []
    for look, cells in looks.items():
        on_flags = sum(1 for i in cells if i in flagged)
        if cells and on_flags == len(cells):
            # Only where we flagged: the flag (or another look of it).
            names[look] = "flag"
        elif on_flags:
            # A cell we flagged is a mine and never opens: a look on flags and
            # on other cells is not one a game draws.
            mixed.append(look)
        else:
            numbered[look] = cells
    if (
        len(mixed) == 1
        and UNKNOWN not in known
        and sum(1 for s in known if s == FLAG) + len(looks[mixed[0]]) == mines
        and not any(i in clicked for i in looks[mixed[0]])
    ):
        # No cell left unopened and, with this look, as many flags as mines: a
        # won game that flagged the mines left itself (sgt-mines), on the frame
        # that first shows our flags. Never on a cell our clicks opened: a won
        # game shows a number there (react-minesweeper's loss draws its mines
        # over our flags and on the guess that went off, in one look).
        names[mixed[0]] = "flag"
        mixed = []
    if mixed:
        return Naming(
            names, tuple(mixed + list(numbered)), "a new look covers flags and other cells"
        )
    if not numbered:
        return Naming(names, ())

    def numbered_names() -> Naming:
        base: list[int] = [UNKNOWN if s is None else s for s in known]
        for look, name in names.items():
            for i in looks[look]:
                base[i] = FLAG if name == "flag" else base[i]
        rules = _Rules(
            width,
            height,
            mines,
            known,
            known_numbers,
            variants,
            alike,
            mines_only,
            sides_only,
            inkless,
            zeros,
        )
        order, fits, why = _numberings(rules, base, numbered)
        if why:
            return Naming(names, tuple(order), why)
        if not fits:
            lost = _name_loss(
                width,
                height,
                mines,
                base,
                numbered,
                known_numbers,
                guessed,
                clicked,
                variants,
                alike,
                inkless,
            )
            if lost is not None:
                names.update(lost)
                return Naming(names, ())
            alone = _gone_off_alone(rules, base, numbered, guessed)
            if alone is not None:
                names.update(alone.names)
                return Naming(names, alone.unnamed, alone.reason, alone.fits)
            return Naming(names, tuple(order), "no numbering of the new looks fits the board")
        naming = _named_from(names, order, fits)
        gone = _gone_off(rules, base, numbered, guessed)
        if gone is None:
            return naming
        # The guessed cell may show the mine that went off as well as a number (a
        # game that shows no other mine: sgt-mines): the loss fits too. Name only
        # what every reading agrees on, never that cell's look (a won board read
        # so proved a 3 as a 2, and the mine as a 3, for the games after).
        look, lorder, lfits = gone
        lpos = {k: j for j, k in enumerate(lorder)}
        keep = dict(names)
        for k, name in naming.names.items():
            if k in names or k == look:
                continue
            if k in lpos and any(str(f[lpos[k]]) != name for f in lfits):
                continue
            keep[k] = name
        unnamed = tuple(k for k in order if k not in keep)
        return Naming(
            keep,
            unnamed,
            "the guessed cell may show the mine that went off",
            _alternatives(unnamed, order, fits),
        )

    try:
        with count_budget(COUNT_STATES):
            return numbered_names()
    except CountTooLarge:
        return Naming(names, tuple(numbered), "too many ways to lay mines under these numberings")


def _named_from(
    names: Mapping[int, str], order: Sequence[int], fits: Sequence[tuple[int, ...]]
) -> Naming:
    """`names` and each look every fit gives one number; the rest unnamed, with
    the numberings that fit them."""
    named = dict(names)
    unnamed = []
    for k, look in enumerate(order):
        seen = {f[k] for f in fits}
        if len(seen) == 1:
            named[look] = str(seen.pop())
        else:
            unnamed.append(look)
    if not unnamed:
        return Naming(named, ())
    unique = _alternatives(unnamed, order, fits)
    return Naming(named, tuple(unnamed), f"{len(unique)} numberings fit", unique)


def _alternatives(
    unnamed: Sequence[int], order: Sequence[int], fits: Sequence[tuple[int, ...]]
) -> tuple[dict[int, int], ...]:
    """The distinct numberings of the unnamed looks among the fits (each fit
    numbers the looks in `order`)."""
    pos = {look: k for k, look in enumerate(order)}
    alts = ({look: f[pos[look]] for look in unnamed} for f in fits)
    return tuple({tuple(sorted(a.items())): a for a in alts}.values())


@dataclass(frozen=True, slots=True)
class _Rules:
    """What numbering new looks goes by, beside the board and the looks (see
    `name_looks` for each)."""

    width: int
    height: int
    mines: int
    known: Sequence[int | None]
    known_numbers: frozenset[int]
    variants: Mapping[int, frozenset[int]]
    alike: Mapping[int, frozenset[int]]
    mines_only: frozenset[int] = frozenset()
    sides_only: bool = False
    inkless: frozenset[int] = frozenset()
    zeros: frozenset[int] = frozenset()


def _numberings(
    rules: _Rules, base: Sequence[int], numbered: Mapping[int, Sequence[int]]
) -> tuple[list[int], list[tuple[int, ...]], str]:
    """(looks in the order tried, every numbering of them the board allows, why
    none was tried). `base`: the board with the new looks' cells unopened."""
    candidates = _candidates(rules, base, numbered)
    order = sorted(numbered, key=lambda k: len(candidates[k]))
    fits = _search(rules, base, numbered, order, [candidates[k] for k in order])
    if fits is None:
        total = 1
        for look in order:
            total *= max(1, len(candidates[look]))
        return order, [], f"{total} ways to number the new looks"
    return order, fits, ""


def _candidates(
    rules: _Rules, base: Sequence[int], numbered: Mapping[int, Sequence[int]]
) -> dict[int, list[int]]:
    """Per new look, the numbers its cells' own neighbourhoods allow, lowest first."""
    known, known_numbers, variants = rules.known, rules.known_numbers, rules.variants
    nbrs = neighbours_table(rules.width, rules.height)
    opens = (side_neighbours_table if rules.sides_only else neighbours_table)(
        rules.width, rules.height
    )
    candidates: dict[int, list[int]] = {}
    for look, cells in numbered.items():
        if any(i in rules.mines_only for i in cells):
            candidates[look] = []
            continue
        lo, hi = 0, 8
        for i in cells:
            hidden = sum(1 for j in nbrs[i] if base[j] == UNKNOWN and known[j] is not None)
            flags = sum(1 for j in nbrs[i] if base[j] in _SHOWN)
            lo, hi = max(lo, flags), min(hi, hidden + flags)
        # A 0 opens its neighbours at once (its side neighbours, in a game that
        # floods sideways only): it never borders an unopened one of them, and
        # a cell with no unopened or flagged neighbour left can only be a 0 (a
        # number's mines stay unopened).
        open_all = all(
            not any(base[j] == UNKNOWN and known[j] is not None for j in opens[i]) for i in cells
        )
        again = variants.get(look, frozenset())
        candidates[look] = [
            v
            for v in range(lo, hi + 1)
            if (v not in known_numbers or v in again)
            and (v > 0 or open_all)
            and (v == 0 or look not in rules.inkless)
            and (v == 0 or not any(i in rules.zeros for i in cells))
        ]
    return candidates


class _OutOfChecks(Exception):
    """The search needs more boards checked than MAX_ASSIGNMENTS allows."""


def _search(
    rules: _Rules,
    base: Sequence[int],
    numbered: Mapping[int, Sequence[int]],
    order: Sequence[int],
    choices: Sequence[Sequence[int]],
) -> list[tuple[int, ...]] | None:
    """Every numbering of the looks in `order` (the k-th taking a number of
    `choices[k]`, each list rising) that the board allows, in the order
    `itertools.product` lists them; None when finding them would check more
    than MAX_ASSIGNMENTS boards.

    A depth-first search that drops a partial numbering as soon as no way to
    go on can fit. The check of a partial numbering is sound: the looks not
    numbered yet are opened cells with their number left out (WRONG_FLAG,
    which `build` takes for a cell that is neither a mine nor a number), so
    the board asks a subset of the whole numbering's constraints, over the
    same unknown cells and mine count. A layout that fits the whole board
    fits that one; when none fits it (`build` and `analyse` are exact about
    that), no whole numbering below it fits either.
    """
    width, height, mines = rules.width, rules.height, rules.mines
    known_numbers, alike = rules.known_numbers, rules.alike
    n = len(order)
    # below[d]: the numberings of the looks from the d-th on, each one's choices
    # taken whole; what dropping a partial numbering at depth d spares.
    below = [1] * (n + 1)
    for d in range(n - 1, -1, -1):
        below[d] = below[d + 1] * len(choices[d])
    cells = list(base)
    for look in order:
        for i in numbered[look]:
            cells[i] = _NUMBER_LEFT_OUT
    values: list[int] = []
    # The looks that took each number so far (for one look per number).
    takers: dict[int, list[int]] = {}
    fits: list[tuple[int, ...]] = []
    # Whole numberings neither checked nor ruled out yet, and boards checked:
    # while checked + left <= MAX_ASSIGNMENTS, checking every one that is left
    # stays within the limit, and a partial check is made only when it keeps
    # that so. A product within the limit is then always searched to the end,
    # as the plain product loop did, in no more checks than it could take.
    left = below[0]
    checked = 0

    def fits_board() -> bool:
        nonlocal checked
        checked += 1
        board = Board(width, height, mines, tuple(cells))
        cs = build(board)
        return not isinstance(cs, Inconsistent) and analyse(board, cs).status == "ok"

    def worth_checking(d: int) -> bool:
        """Whether to check the board with the looks before the d-th numbered."""
        # A look with one choice adds its constraints at no cost in branches:
        # the board after it says more than the board before it, for the same check.
        if d >= n or len(choices[d]) < 2:
            return False
        return checked < MAX_ASSIGNMENTS and checked + left != MAX_ASSIGNMENTS

    def descend(d: int) -> None:
        nonlocal left
        if d == n:
            if checked >= MAX_ASSIGNMENTS:
                raise _OutOfChecks
            if fits_board():
                fits.append(tuple(values))
            left -= 1
            return
        look = order[d]
        mates = alike.get(look, frozenset())
        for v in choices[d]:
            # `_one_look_per_number` on the prefix: no later look undoes a clash.
            shared = v not in known_numbers and not all(
                other in mates for other in takers.get(v, ())
            )
            if shared:
                left -= below[d + 1]
                continue
            for i in numbered[look]:
                cells[i] = v
            values.append(v)
            takers.setdefault(v, []).append(look)
            if worth_checking(d + 1) and not fits_board():
                left -= below[d + 1]
            else:
                descend(d + 1)
            takers[v].pop()
            values.pop()
        for i in numbered[look]:
            cells[i] = _NUMBER_LEFT_OUT

    try:
        if worth_checking(0) and not fits_board():
            return []
        descend(0)
    except _OutOfChecks:
        return None
    return fits


def _gone_off(
    rules: _Rules,
    base: Sequence[int],
    numbered: Mapping[int, Sequence[int]],
    guessed: frozenset[int],
) -> tuple[int, list[int], list[tuple[int, ...]]] | None:
    """The loss that shows only the mine that went off (sgt-mines hides the
    others), if the board allows it: the new look on nothing but the one cell
    the last batch guessed, with the numberings of the other new looks the
    board with a mine there allows (in their order). None when no such look,
    or more than one, fits so."""
    found = []
    for look, cells in numbered.items():
        if len(cells) != 1 or cells[0] not in guessed:
            continue
        if look in rules.inkless:
            # nothing drawn on the number face: what a 0 looks like, no mine
            # (seed 1296: a guess that opened a 0 was read as lost)
            continue
        lost = list(base)
        lost[cells[0]] = EXPLODED
        rest = {k: c for k, c in numbered.items() if k != look}
        order, fits, why = _numberings(rules, lost, rest)
        if not why and (fits or not rest):
            found.append((look, order, fits or [()]))
    return found[0] if len(found) == 1 else None


def _gone_off_alone(
    rules: _Rules,
    base: Sequence[int],
    numbered: Mapping[int, Sequence[int]],
    guessed: frozenset[int],
) -> Naming | None:
    """A loss that shows only the mine that went off, when no numbering of the
    new looks fits: the look on the guessed cell, no number of which fits, is
    that mine (the others named where every numbering agrees). `_name_loss`
    needs every mine shown to count the numbers exactly; this needs only that
    the board fits."""
    gone = _gone_off(rules, base, numbered, guessed)
    if gone is None:
        return None
    look, order, fits = gone
    return _named_from({look: "exploded"}, order, fits)


def _one_look_per_number(
    order: Sequence[int],
    values: Sequence[int],
    known_numbers: frozenset[int],
    alike: Mapping[int, frozenset[int]],
) -> bool:
    """Whether no two new looks take one number that no known look shows, unless
    they are alike (two drawings of one glyph)."""
    first: dict[int, list[int]] = {}
    for look, v in zip(order, values, strict=True):
        if v in known_numbers:
            continue
        for other in first.get(v, ()):
            if other not in alike.get(look, frozenset()):
                return False
        first.setdefault(v, []).append(look)
    return True


def _name_loss(
    width: int,
    height: int,
    mines: int,
    base: Sequence[int],
    numbered: Mapping[int, Sequence[int]],
    known_numbers: frozenset[int],
    guessed: frozenset[int],
    clicked: frozenset[int],
    variants: Mapping[int, frozenset[int]],
    alike: Mapping[int, frozenset[int]],
    inkless: frozenset[int] = frozenset(),
) -> dict[int, str] | None:
    """Names for a lost board, when exactly one reading explains it; else None.

    A lost game shows all its mines: one or two new looks (the mines, and
    the one that went off) on cells that were unopened, as many as the board
    has mines (with the flags and the mines in looks known already, say
    from an earlier lost game); or only the one that went off, on the cell
    the last guess opened; or no new look at all, every mine shown in known
    looks. With those as mines, every number on the board must count its
    mined neighbours exactly, and each other new look must be one number.
    When only the one that went off shows, the others may stay hidden
    (sgt-mines) under cells still unopened: a new look beside one shows at
    least its count of shown mines, not always that count, so it is left to
    the rules (`_gone_off_alone`).

    A mine goes off only on a cell our clicks opened (`clicked`, when known).
    One new look on one cell they never opened, on the last mine of a
    board with no other cell unopened, is no loss: a won game flagged its
    last mine itself (the test page, a flag at another sub-pixel phase than
    ours: named the mine that went off, a win counted lost and the look proved
    so for every game after).

    A look that draws nothing on the face numbers are drawn on (`inkless`)
    is no mine: it is what a 0 looks like. (A mine drawn 14 levels darker
    than a dark face, under the faint rule's 16, read as no ink: named the
    mine, it proved the 0s of every game after mines.)
    """
    nbrs = neighbours_table(width, height)
    found: list[dict[int, str]] = []
    looks = list(numbered)
    shown = {i for i, s in enumerate(base) if s in _SHOWN}
    went_off_shown = EXPLODED in base
    new_cells = {i for k in looks for i in numbered[k]}
    # Cells that may hide a mine a loss does not show: unopened, and in no new look.
    hiding = {i for i, s in enumerate(base) if s == UNKNOWN and i not in new_cells}

    def off_limits(cell: int) -> bool:
        """Whether no mine can have gone off on `cell`: no click of ours opened it."""
        return bool(clicked) and cell not in clicked

    # New looks beside one: when a loss hides mines, their counts are bounds.
    by_hiding = {k for k in looks if any(j in hiding for i in numbered[k] for j in nbrs[i])}
    for size in (0, 1, 2):
        if size == 0 and not any(s in (MINE, EXPLODED) for s in base):
            continue  # (no mine in a known look: no evidence of a loss)
        for group in combinations(looks, size):
            if any(k in inkless for k in group):
                continue
            mined = {i for k in group for i in numbered[k]} | shown
            went_off = (
                size == 1 and len(numbered[group[0]]) == 1 and numbered[group[0]][0] in guessed
            )
            if len(mined) != mines and not went_off:
                # Most games show every mine when one goes off (sgt-mines only the
                # one, on the cell we guessed); less is no evidence of a loss.
                continue
            hidden = len(mined) != mines  # only the one that went off shows
            names: dict[int, str] = {}
            for k in looks:
                if hidden and k in by_hiding:
                    continue  # a mine not shown may border it: its count is a bound
                counts = {sum(1 for j in nbrs[i] if j in mined) for i in numbered[k]}
                if (
                    k not in group
                    and len(counts) == 1
                    and not counts <= known_numbers - variants.get(k, frozenset())
                ):
                    names[k] = str(counts.pop())
            if len(names) != len(looks) - size:
                continue
            order = list(names)
            values = [int(names[k]) for k in order]
            if not _one_look_per_number(order, values, known_numbers, alike):
                continue
            numbers_fit = all(
                s < 0 or sum(1 for j in nbrs[i] if j in mined) == s for i, s in enumerate(base)
            )
            if not numbers_fit:
                continue
            if size == 1:
                names[group[0]] = "exploded" if len(numbered[group[0]]) == 1 else "mine"
                if names[group[0]] == "exploded" and off_limits(numbered[group[0]][0]):
                    if hiding:
                        continue
                    names[group[0]] = "flag"  # the won game's own flag (see above)
                elif names[group[0]] == "exploded" and went_off_shown:
                    continue  # (one mine goes off, and one is shown going off)
            elif size == 2:
                a, b = sorted(group, key=lambda k: len(numbered[k]))
                if len(numbered[a]) != 1 or went_off_shown or off_limits(numbered[a][0]):
                    continue
                names[a], names[b] = "exploded", "mine"
            found.append(names)
    return found[0] if len(found) == 1 else None


def decide_among(boards: Sequence[Board], strain: Sequence[float] = ()) -> Decision:
    """The moves for a board known only up to `boards` (each one may be the true one).

    Cells safe (or mined) in every board are certain moves. Otherwise the one
    guess is the cell whose mine chance is lowest on the board least kind to
    it, and that worst chance is the risk it is sent with. Weighing the boards
    by their layouts would price each reading of the unsure look by how many
    mine layouts it leaves, not by how likely the screen is to show it: a
    look unlike every number seen (a 3 in a theme with all digits in one
    colour, taken for a 2 drawn again) can leave the true board a sliver of
    the layouts, and a cell it mines then looks 0.07% risky (measured: such a
    guess lost a game). No guess rests on that weighting; the mean over the
    boards only breaks ties.

    `strain`, per board, says how ill its numbers fit the looks they name
    (see `LearningReader`): when one board fits by LIKELIER_BY better than
    every other, the guess is the cell safest on it (the worst chance, then
    the mean, breaking ties), still sent with its worst chance. In sgt-mines
    with digits of one colour all three games lost in 270 were a guess the
    reading the glyphs favoured would have ruled out (docs/vision.md).
    """
    every = [analyse(b) for b in boards]
    analyses = [a for a in every if _fits(a)]
    if not analyses:
        return Decision("inconsistent", "no reading of the unsure tiles fits the board", (), False)
    total = sum(a.layouts for a in analyses)
    first = boards[0]
    unknown = [i for i, s in enumerate(first.cells) if s == UNKNOWN]
    if not unknown:
        return Decision("done", "no unknown cells left", (), True)
    worst: dict[int, float] = {}
    mean: dict[int, float] = {}
    for i in unknown:
        chances = [1.0 if (q := a.prob[i]) is None else q for a in analyses]
        worst[i] = max(chances)
        mean[i] = sum(a.layouts * c for a, c in zip(analyses, chances, strict=True)) / total
    safe = sorted(set.intersection(*(set(a.safe) for a in analyses)))
    mines = sorted(set.intersection(*(set(a.mines) for a in analyses)))
    if safe or mines:
        moves = [Move("open", i, 0.0) for i in safe] + [Move("flag", i, 1.0) for i in mines]
        return Decision("ok", "", tuple(moves), True, "alternatives")
    likely = _likeliest(every, strain)
    if likely is not None:
        on = likely.prob
        i = min(unknown, key=lambda j: (1.0 if on[j] is None else on[j], worst[j], mean[j], j))
        return Decision("ok", "", (Move("open", i, worst[i]),), False, "likeliest")
    i = min(unknown, key=lambda j: (worst[j], mean[j], j))
    return Decision("ok", "", (Move("open", i, worst[i]),), False, "alternatives")


def _likeliest(analyses: Sequence[Analysis], strain: Sequence[float]) -> Analysis | None:
    """The board whose numbers fit their looks best by LIKELIER_BY, if it fits
    the rules; else None."""
    if len(strain) != len(analyses) or len(analyses) < 2:
        return None
    order = sorted(range(len(analyses)), key=strain.__getitem__)
    best = analyses[order[0]]
    if strain[order[1]] - strain[order[0]] < LIKELIER_BY:
        return None
    return best if _fits(best) else None


def _fits(analysis: Analysis) -> bool:
    """Whether some mine layout fits the board analysed."""
    return analysis.status == "ok" and analysis.layouts > 0
