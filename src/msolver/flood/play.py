"""The Flood-It player: capture -> read -> solve -> click, with safety stops.

It reuses the Minesweeper player's outside world (`msolver.io`: capture,
mouse with the corner fail-safe, global hotkeys) and its JSON-lines log.

Each game is solved once from the first frame (the whole sequence, with the
solver's time budget), then played move by move. After every click the board
must turn into exactly what the move should give; while it does not, the frame
is read again (the game may be mid-redraw) and after a timeout the player stops
and says what it saw. sgt-flood signals a game lost on moves (the limit reached
with colours left) by flashing every cell black: that ends the game as lost.
After the winning move sgt-flood plays a rainbow flash for about a second; the
player waits for the single colour to settle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from msolver.core.clock import Clock, RealClock
from msolver.flood.core import FloodBoard
from msolver.flood.solver import solve
from msolver.flood.vision import (
    FloodProfile,
    FloodRead,
    FloodVisionError,
    cell_centre,
    learn_palette,
    read_board,
)
from msolver.io.capture import Capture, CaptureError, Region
from msolver.io.hotkeys import Hotkeys
from msolver.io.mouse import Mouse
from msolver.shell.log import EventLog
from msolver.shell.session import Outcome, Stop, run_games

FloodStop = Stop  # the shared session's stop


@dataclass(frozen=True, slots=True)
class Timing:
    settle_s: float = 2.0  # longest wait for a move to show on screen
    finish_s: float = 4.0  # longest wait for the victory flash to end
    new_game_s: float = 5.0  # longest wait for a new board after the new-game key
    calm_s: float = 0.15  # a new board must read the same for this long
    poll_s: float = 0.01
    delay_s: float = 0.0  # extra pause between moves (for watching)


@dataclass(frozen=True, slots=True)
class GameResult:
    game: int
    result: str  # "won" | "lost"
    seconds: float
    moves: int
    planned: int
    optimal: bool


def pick_cell(board: FloodBoard, colour: int) -> int:
    """A cell of `colour` touching the flood: clicking it is the move in any Flood-It."""
    flood = board.flood_cells()
    w, h = board.width, board.height
    for i in sorted(flood):
        r, c = divmod(i, w)
        for nr, nc in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
            if 0 <= nr < h and 0 <= nc < w:
                j = nr * w + nc
                if j not in flood and board.cells[j] == colour:
                    return j
    raise ValueError(f"colour {colour} does not touch the flood")


def _unseen_colour(r: FloodRead) -> bool:
    return r.board is None and "not in the palette" in r.reason


class FloodPlayer:
    def __init__(
        self,
        profile: FloodProfile,
        capture: Capture,
        mouse: Mouse,
        keys: Hotkeys,
        *,
        games: int = 1,
        budget_s: float = 5.0,
        new_game_key: str = "n",
        timing: Timing = Timing(),
        log: EventLog | None = None,
        say: Callable[[str], None] | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.profile = profile
        self.capture = capture
        self.mouse = mouse
        self.keys = keys
        self.games = games
        self.budget_s = budget_s
        self.new_game_key = new_game_key
        self.timing = timing
        self.log = log or EventLog(None)
        self.say = say or (lambda _m: None)
        # every wait goes through the clock, so the loop's tests run on a fake one
        self._clock: Clock = clock or RealClock()
        self.clock = self._clock.monotonic
        self.sleep = self._clock.sleep
        x, y, w, h = profile.grid.rect()
        self.region: Region = (x - 2, y - 2, w + 4, h + 4)

    # -- frames ---------------------------------------------------------------

    def _read(self) -> FloodRead:
        try:
            img = self.capture.grab(self.region)
        except CaptureError as exc:
            raise FloodStop(f"cannot grab the screen: {exc}") from exc
        return read_board(img, self.profile, (self.region[0], self.region[1]))

    def _wait_for(
        self, want: Callable[[FloodRead], bool], timeout: float
    ) -> tuple[FloodRead, bool]:
        """Poll frames until `want(read)`; returns the last read and whether it came."""
        end = self.clock() + timeout
        seen_dark = False
        while True:
            self._check_stop()
            r = self._read()
            seen_dark = seen_dark or r.dark
            if want(r):
                return replace(r, dark=seen_dark), True
            if self.clock() >= end:
                return replace(r, dark=seen_dark), False
            self.sleep(self.timing.poll_s)

    def _check_stop(self) -> None:
        if self.keys.stop.is_set():
            raise FloodStop("stop key pressed", user=True)

    # -- session --------------------------------------------------------------

    def run(self) -> Outcome[GameResult]:
        def report(res: GameResult) -> tuple[dict[str, object], str]:
            fields: dict[str, object] = {
                "seconds": round(res.seconds, 3),
                "moves": res.moves,
                "planned": res.planned,
                "optimal": res.optimal,
            }
            line = f"game {res.game}: {res.result} in {res.moves} moves, {res.seconds:.2f} s"
            return fields, line

        return run_games(
            self.games, lambda g: self._play(g, self._start_game(g)), report, self.log, self.say
        )

    def _start_game(self, number: int) -> FloodBoard:
        if number > 1:
            self.mouse.key(self.new_game_key)
        end = self.clock() + self.timing.new_game_s
        learned = False
        while True:
            look_for_new = not learned

            def ready(r: FloodRead, look_for_new: bool = look_for_new) -> bool:
                if r.board is not None:
                    return not r.board.is_solved()
                return look_for_new and _unseen_colour(r)

            r, ok = self._wait_for(ready, max(0.0, end - self.clock()))
            if ok and r.board is None:
                # An unseen colour: learn the palette if it is still there once
                # the screen has settled (a mid-redraw frame can look new too).
                self.sleep(self.timing.calm_s)
                if _unseen_colour(self._read()):
                    self._learn_palette()
                    learned = True
                continue
            if not ok:
                if r.board is not None and r.board.is_solved():
                    raise FloodStop("the board is already one colour: start a new game first")
                what = f"no new game after {self.new_game_key!r}" if number > 1 else "no board"
                raise FloodStop(f"{what}: {r.reason}")
            assert r.board is not None
            # The new board must hold still: a frame of the old game's victory
            # flash, or one caught mid-redraw, also reads as a board.
            first = r.board
            calm = self.clock() + self.timing.calm_s
            while self.clock() < calm:
                self.sleep(self.timing.poll_s)
                again = self._read()
                if again.board is None or again.board.cells != first.cells:
                    break
            else:
                return first
            if self.clock() >= end:
                raise FloodStop(f"game {number}: the board did not hold still")

    def _learn_palette(self) -> None:
        img = self.capture.grab(self.region)
        shifted = self.profile.grid.moved(-self.region[0], -self.region[1])
        try:
            palette = learn_palette(img, shifted, self.profile.palette)
        except FloodVisionError as exc:
            raise FloodStop(f"cannot read the new board: {exc}") from exc
        self.profile = FloodProfile(self.profile.grid, palette)

    def _play(self, number: int, board: FloodBoard) -> GameResult:
        t0 = self.clock()
        sol = solve(board, budget_s=self.budget_s)
        self.say(
            f"game {number}: {len(sol.moves)} moves planned"
            f" ({'optimal' if sol.optimal else 'best found'}, {sol.seconds:.2f} s)"
        )
        moves = 0
        for k, colour in enumerate(sol.moves):
            self._check_stop()
            cell = pick_cell(board, colour)
            row, col = divmod(cell, board.width)
            x, y = cell_centre(self.profile.grid, row, col)
            self._check_inside(x, y)
            self.mouse.click(x, y)
            moves += 1
            expected = board.play(colour)
            self.log.write(
                event="move",
                game=number,
                move=moves,
                colour=board.symbols[colour],
                rgb=list(self.profile.palette[colour]),
                row=row,
                col=col,
                x=x,
                y=y,
            )
            last = k == len(sol.moves) - 1
            want = expected.cells
            r, ok = self._wait_for(
                lambda r: r.board is not None and r.board.cells == want,  # noqa: B023
                self.timing.finish_s if last else self.timing.settle_s,
            )
            if r.dark:
                # sgt-flood flashes black when the move limit is reached unsolved.
                return GameResult(
                    number, "lost", self.clock() - t0, moves, len(sol.moves), sol.optimal
                )
            if not ok:
                seen = r.board.to_text() if r.board is not None else r.reason
                raise FloodStop(
                    f"game {number}, move {moves} (colour {board.symbols[colour]} at row "
                    f"{row + 1}, col {col}): the screen does not show what the move "
                    f"gives; read: {seen!r}"
                )
            board = expected
            if self.timing.delay_s:
                self.sleep(self.timing.delay_s)
        return GameResult(number, "won", self.clock() - t0, moves, len(sol.moves), sol.optimal)

    def _check_inside(self, x: int, y: int) -> None:
        grid = self.profile.grid
        if not grid.inside(x, y):
            raise FloodStop(f"refusing to click ({x}, {y}) outside the board {grid.rect()}")
