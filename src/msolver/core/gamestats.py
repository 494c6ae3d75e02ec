"""Per-game statistics in the community's units: 3BV, 3BV/s, clicks by button, efficiency.

Definitions (as Arbiter, Viennasweeper and minesweeper.online use them):

- ``bbbv``: the board's 3BV (see `msolver.core.bbbv`);
- ``solved_bbbv``: the 3BV the game got done, the whole 3BV on a win;
- ``clicks``: every click sent, ``clicks_by_button`` split into ``left``,
  ``right`` (flags) and ``chord``;
- ``efficiency``: solved 3BV / clicks (1.0 is a perfect no-flag game; chords
  and no flags push it above 1, flags pull it below);
- ``bbbv_per_s``: solved 3BV / seconds.

The simulator counts clicks as a player would send them: `apply_counted`
plays a decision's moves exactly as `msolver.core.bench.apply_moves` does (same
calls, same order, so no decision changes) and counts a click for each move
on a cell that was still unknown when its turn came; a move whose cell an
earlier click of the batch had already flooded open is one a player would
not click. The live game knows the layout only at the end: `final_layout`
takes it from the finished board.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from msolver.core.bbbv import bbbv as board_bbbv
from msolver.core.bbbv import bbbv_per_s, efficiency, figures, solved_bbbv
from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, Board
from msolver.core.game import LOST, PLAYING, WON, Game
from msolver.core.solver import Move

Button = Literal["left", "right", "chord"]
BUTTONS: tuple[Button, ...] = ("left", "right", "chord")


@dataclass
class ClickCount:
    """Clicks sent so far, by button."""

    left: int = 0
    right: int = 0
    chord: int = 0

    def add(self, button: Button, n: int = 1) -> None:
        setattr(self, button, getattr(self, button) + n)

    @property
    def total(self) -> int:
        return self.left + self.right + self.chord

    def as_json(self) -> dict[str, int]:
        return {"left": self.left, "right": self.right, "chord": self.chord}


@dataclass(frozen=True, slots=True)
class GameStats:
    """One finished game's figures; `as_json` gives the log and bench keys."""

    won: bool
    bbbv: int
    solved_bbbv: int
    clicks_by_button: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    guesses: int = 0

    @property
    def clicks(self) -> int:
        return sum(self.clicks_by_button.values())

    @property
    def efficiency(self) -> float | None:
        return efficiency(self.solved_bbbv, self.clicks)

    @property
    def bbbv_per_s(self) -> float | None:
        return bbbv_per_s(self.solved_bbbv, self.seconds)

    @property
    def guessed(self) -> bool:
        return self.guesses > 0

    def as_json(self) -> dict[str, object]:
        return {
            "bbbv": self.bbbv,
            "solved_bbbv": self.solved_bbbv,
            "bbbv_per_s": self.bbbv_per_s,
            "clicks": self.clicks,
            "clicks_by_button": dict(self.clicks_by_button),
            "efficiency": self.efficiency,
            "guesses": self.guesses,
        }


def apply_counted(game: Game, moves: Iterable[Move], count: ClickCount) -> None:
    """`bench.apply_moves` that also counts the clicks a player would send.

    The game calls are the ones apply_moves makes, in the same order, so the
    game (and every later decision) is the same as without counting.
    """
    for move in moves:
        if move.kind == "flag":
            # A decision flags each cell once and only cells it saw unknown,
            # and no open of the batch can touch a mine: always a real click.
            count.right += 1
            game.flag(move.index)
        else:
            # Opening a cell that is still closed changes the game (a safe
            # cell opens, a mine ends it); one an earlier click flooded open
            # changes nothing, and a player would not click it.
            before = game.opened
            game.open(move.index)
            if game.opened != before or game.status is LOST:
                count.left += 1
        if game.status is not PLAYING:
            return


def opened_cells(board: Board) -> list[int]:
    return [i for i, s in enumerate(board.cells) if s >= 0]


def simulated_stats(game: Game, count: ClickCount, *, seconds: float, guesses: int) -> GameStats:
    """The figures of a finished simulated game (the simulator knows its layout)."""
    # From the counts the game keeps, and without listing the parts: the
    # same figures as `parts` and `solved_parts` give.
    won = game.status is WON
    shown = None if won else game.board.cells
    total, done = figures(game.width, game.height, game.numbers(), shown)
    return GameStats(won, total, done, count.as_json(), seconds, guesses)


def final_layout(board: Board) -> frozenset[int] | None:
    """The mines of a finished board as the game shows them, or None if it does not show them all.

    Won: every cell left closed or flagged is a mine. Lost: the game shows
    its mines (shown, exploded, and flags it did not mark wrong); None when
    fewer than the board's mine count are shown, since the rest are unknown.
    """
    closed = {i for i, s in enumerate(board.cells) if s in (UNKNOWN, FLAG, MINE)}
    if EXPLODED not in board.cells and len(closed) == board.mines:
        return frozenset(closed)
    shown = {i for i, s in enumerate(board.cells) if s in (MINE, EXPLODED, FLAG)}
    return frozenset(shown) if len(shown) == board.mines else None


def live_stats(
    final: Board, count: ClickCount, *, won: bool, seconds: float, guesses: int = 0
) -> GameStats | None:
    """The figures of a finished live game from its last board read; None without a layout."""
    layout = final_layout(final)
    if layout is None:
        return None
    total = board_bbbv(final.width, final.height, layout)
    done = total if won else solved_bbbv(final.width, final.height, layout, opened_cells(final))
    return GameStats(won, total, done, count.as_json(), seconds, guesses)


@dataclass(frozen=True, slots=True)
class BenchStats:
    """Run-wide figures for `msolver bench --json`."""

    mean_bbbv: float
    guess_share: float  # share of games that needed at least one guess
    mean_efficiency: float | None
    mean_bbbv_per_s: float | None  # solver time only, so a machine figure, not a human one

    def as_json(self) -> dict[str, object]:
        return {
            "mean_bbbv": self.mean_bbbv,
            "guess_share": self.guess_share,
            "mean_efficiency": self.mean_efficiency,
            "mean_bbbv_per_s": self.mean_bbbv_per_s,
        }


def bench_stats(games: list[GameStats]) -> BenchStats:
    n = len(games)
    if not n:
        return BenchStats(0.0, 0.0, None, None)
    effs = [e for g in games if (e := g.efficiency) is not None]
    rates = [r for g in games if (r := g.bbbv_per_s) is not None]
    return BenchStats(
        mean_bbbv=sum(g.bbbv for g in games) / n,
        guess_share=sum(1 for g in games if g.guessed) / n,
        mean_efficiency=sum(effs) / len(effs) if effs else None,
        mean_bbbv_per_s=sum(rates) / len(rates) if rates else None,
    )


def totals(games: Iterable[GameStats]) -> dict[str, object]:
    """A session's sums for the play log's summary line (games without figures left out)."""
    done = list(games)
    if not done:
        return {}
    clicks: dict[str, int] = {}
    for g in done:
        for button, n in g.clicks_by_button.items():
            clicks[button] = clicks.get(button, 0) + n
    solved = sum(g.solved_bbbv for g in done)
    seconds = sum(g.seconds for g in done)
    n_clicks = sum(clicks.values())
    return {
        "bbbv": sum(g.bbbv for g in done),
        "solved_bbbv": solved,
        "seconds": round(seconds, 3),
        "bbbv_per_s": bbbv_per_s(solved, seconds),
        "clicks": n_clicks,
        "clicks_by_button": clicks,
        "efficiency": efficiency(solved, n_clicks),
        "guessed_games": sum(1 for g in done if g.guessed),
    }
