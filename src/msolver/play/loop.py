"""The live loop: capture -> read -> solve -> act, and the checks that keep it safe.

One frame: rest the pointer off the board, grab the board, read it, check the
read against what the player already knows, ask the solver, and send every
certain click of the frame as one batch (flags, chords, opens). Then wait for
the game to redraw and read again. The player stops, saying why, as soon as
anything does not add up: it never clicks on a guess about the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from msolver.core.board import (
    EXPLODED,
    FLAG,
    MINE,
    UNKNOWN,
    WRONG_FLAG,
    Board,
    Result,
    neighbours_table,
    side_neighbours_table,
    state_char,
    zero_beside_unknown,
)
from msolver.core.clock import Clock, RealClock
from msolver.core.game import FirstClick
from msolver.core.gamestats import ClickCount, GameStats, live_stats, totals
from msolver.core.hidden import won_beneath
from msolver.core.solver import Decision, Solver, analyse
from msolver.io.capture import Capture, CaptureError, ScreenScale
from msolver.io.hotkeys import Hotkeys
from msolver.io.mouse import Button, FailSafe, Mouse, parse_click
from msolver.play.firstclick import RuleWatch
from msolver.play.plan import Click, plan
from msolver.play.record import Recorder, click_reasons
from msolver.play.target import NewGame, park_point
from msolver.shell.log import EventLog
from msolver.shell.session import Outcome, Stop, run_games
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.naming import decide_among
from msolver.vision.reading import Reader, Reading
from msolver.vision.strip import Strip, changed

PlayStop = Stop  # the shared session's stop, under the name this player's callers know


@dataclass(frozen=True, slots=True)
class GameResult:
    game: int
    result: Result
    seconds: float
    clicks: int
    frames: int
    stats: GameStats | None = None  # 3BV and the rest, when the last board shows the mines


_CHORD_BUTTONS: tuple[Button, ...] = ("middle", "left")


@dataclass(frozen=True, slots=True)
class Settings:
    games: int = 1
    chord: bool = True
    # Buttons tried, in order, for a chord; the first that works is kept. Middle
    # is the X11 convention (xdemineur), many games also chord on a left click
    # on a satisfied number (sgt-mines, gnome-mines).
    chord_buttons: tuple[Button, ...] = _CHORD_BUTTONS
    first_click: FirstClick = "safe"
    # The click that flags a cell: "right", or a left click with a key held
    # ("ctrl+left": a web game, where a right click opens the browser's menu).
    flag: str = "right"
    # How long a batch may take to show up on screen (gnome-mines needs ~70 ms).
    redraw_timeout: float = 1.5
    # How long a starved game (a browser short of CPU) may take to draw a
    # batch: a flag click is sent again only after this (a second toggle would
    # take the flag off, see `Player._after_batch`), and a cell the batch
    # clicked may show a passing look this long (the pointer's hover, a
    # modifier's preview) before the read is given up (`Player._look`).
    slow_draw: float = 5.0
    # The frame must hold still this long before it is read (no half-drawn board).
    settle: float = 0.008
    # A read with low-confidence cells is retried this long (a win flash, an
    # animation, a redraw on a loaded machine) before the player gives up;
    # nothing is clicked meanwhile. Longer than learn.HOLD, so a new look can
    # be named within it.
    confirm: float = 1.0
    new_game_timeout: float = 6.0
    # Quiet time after a game ends before the new-game action.
    end_quiet: float = 0.25
    max_frames: int = 5000
    # After a surprise (a read that failed a check, or that the reader had to
    # retry) a read is acted on only when the next grab, this long later,
    # reads the same: a frame caught mid-repaint can pass every check and
    # still be wrong (the board as it was before the batch). At most
    # `agree_grabs` such grabs per surprise, then the player stops.
    agree_settle: float = 0.1
    agree_grabs: int = 3
    # The band above the board (a face, counters) must hold still this long
    # before its change counts as the game's end: a running timer ticks every
    # second, a finished game's stops.
    strip_still: float = 1.2
    # Log every frame's read board (event "read"), so a test can check each
    # read against the game's final board.
    log_reads: bool = False


def chord_order(known: str | None) -> tuple[Button, ...]:
    """The chord buttons to try, given the one a profile kept (None: not found yet).

    A kept button goes first and the other one stays behind it, so a profile
    that remembered wrong costs one failed chord, not the chords of a session.
    """
    if known == "none":
        return ()
    default = _CHORD_BUTTONS
    for first in default:
        if first == known:
            return (first, *(b for b in default if b != first))
    return default


def game_state(board: Board) -> Result | None:
    """Won or lost, from the board alone; None while the game goes on."""
    return board.outcome()


def _where(board: Board, index: int) -> str:
    row, col = divmod(index, board.width)
    return f"row {row}, col {col}"


def _nothing_to_click(board: Board, decision: Decision) -> str:
    """The stop for moves that all fell on cells not read as unopened.

    It names what was dropped: the solver and the read then disagree about
    which cells are still unopened, and the message is all a user can send.
    """
    dropped = ", ".join(
        f"{m.kind} {_where(board, m.index)} (read as '{state_char(board.cells[m.index])}')"
        for m in decision.moves[:3]
    )
    what = f"its moves: {dropped}" if dropped else f"no move from its {decision.tier or 'rules'}"
    return f"the solver found nothing to click on a board still in play ({what})"


@dataclass
class _Game:
    number: int
    clicks: int = 0
    frames: int = 0
    first_click_at: float | None = None
    last_guess_p: float | None = None
    count: ClickCount = field(default_factory=ClickCount)
    guesses: int = 0
    covered: bool = False  # the end was seen under a window over the board
    # The board in hand is the player's verdict on the game's end, not a read
    # (a win under a dialog, a loss told by cells the game drew, the band).
    judged: bool = False
    # A guess that opened only its own cell, read through an unproven number,
    # with no band above the board to tell whether the game ended there.
    doubted_guess: int | None = None
    doubted_p: float = 0.0  # that guess's mine chance
    misses: dict[tuple[int, str], int] = field(default_factory=dict)
    # Cells whose flag was once taken off by a click sent again (see
    # `Player._check_effects`): pardoned once, not again.
    toggled: set[int] = field(default_factory=set)
    # The game's first click on a board with nothing open, until a read shows
    # what it opened (evidence on the first-click rule).
    first_index: int | None = None
    # 0s shown beside unopened cells that the game left so (see
    # `Player._zeros_left_alone`): their neighbours are ours to open.
    zeros_alone: set[int] = field(default_factory=set)


class Player:
    """Plays games on screen through a reader, a capture, a mouse and hotkeys."""

    def __init__(
        self,
        reader: Reader,
        capture: Capture,
        mouse: Mouse,
        hotkeys: Hotkeys,
        *,
        new_game: NewGame | None = None,
        settings: Settings | None = None,
        log: EventLog | None = None,
        say: Callable[[str], None] | None = None,
        clock: Clock | None = None,
        recorder: Recorder | None = None,
        strip: Strip | None = None,
    ) -> None:
        self.recorder = recorder
        self.reader = reader
        self.capture = capture
        self.mouse = mouse
        self.hotkeys = hotkeys
        self.new_game = new_game
        self.settings = settings or Settings()
        self.log = log or EventLog(None)
        self.say = say or (lambda _msg: None)
        self._clock: Clock = clock or RealClock()
        self.clock = self._clock.monotonic
        self.sleep = self._clock.sleep
        # The grid is in pixels of the whole-screen grab; the screen is asked
        # for, and the mouse clicks, in points. Every conversion goes through
        # `self.frame`, measured from the capture itself.
        self.grid = reader.grid
        try:
            self.frame = ScreenScale(capture.scale())
        except CaptureError as exc:
            raise PlayStop(f"cannot grab the screen: {exc}") from exc
        board_rect = self.grid.rect()
        self.strip, self._strip_rect = self._strip_in_view(strip, board_rect, capture)
        grab_rect = board_rect
        if self._strip_rect is not None:
            # One grab holds the board and the band above it.
            sl, st, sw, sh = self._strip_rect
            bl, bt, bw, bh = board_rect
            x0, y0 = min(sl, bl), min(st, bt)
            x1, y1 = max(sl + sw, bl + bw), max(st + sh, bt + bh)
            grab_rect = (x0, y0, x1 - x0, y1 - y0)
        self.region, self._grab_origin = self.frame.region_for(grab_rect)
        self._strip_now: Image | None = None
        # The band as the last frame we played on showed it, and the pixels
        # seen changing while the game went on (a timer, the mine counter).
        self._strip_play: Image | None = None if self.strip is None else self.strip.pixels
        self._strip_volatile = (
            None if self.strip is None else np.zeros(self.strip.pixels.shape[:2], dtype=bool)
        )
        # The first-click rule as this session's games show it (firstclick.py).
        self.rules = RuleWatch(self.settings.first_click)
        self.solver = Solver(self.rules.rule, batch_proven=True)
        try:
            park = park_point(self.grid, self.frame.screen_pixels(capture.screen()))
        except ValueError as exc:
            raise PlayStop(f"{exc}: make the game's window smaller") from exc
        self.park = self.frame.to_points(*park)
        self.last_board: Board | None = None
        self._nbrs = neighbours_table(self.grid.cols, self.grid.rows)
        self._sides = side_neighbours_table(self.grid.cols, self.grid.rows)
        self.rereads = 0  # frames read again after a check failed (mid-redraw grabs)
        # Set by `_look` when it had to read again (a frame it could not read
        # cleanly at first): the read it returns then needs a second grab's word.
        self._surprise = False
        # The last frame `_look` read and its reading (kept in a recording at a stop).
        self._looked: tuple[Image, Reading] | None = None
        # Cells of the board before the last batch read through a look not
        # named then (one of several numbers): none of it is taken as seen.
        self._doubt: frozenset[int] = frozenset()
        # The frame the last batch was decided on (see `_shows_through`).
        self._before: Image | None = None
        # How long a frame must hold still before it is read. It grows when a
        # frame that held still this long turns out to be still drawing (see
        # `_drawing`): a game that animates its tiles (a glyph fading in for
        # 600 ms, drawn at 60 frames a second) holds each frame 17 ms.
        self._settle = self.settings.settle
        self.chord_buttons = list(self.settings.chord_buttons if self.settings.chord else ())
        try:
            self.flag_click = parse_click(self.settings.flag)
        except ValueError as exc:
            raise PlayStop(f"{exc}; recalibrate with --flag") from exc
        # The chord button this session proved ("none": none works), for the profile.
        self.chord_found: str | None = None
        if (
            new_game is not None
            and new_game.kind == "click"
            and self.grid.inside(new_game.x, new_game.y)
        ):
            raise PlayStop(
                f"the new-game button {new_game} lies on the board; recalibrate its position "
                f"(menu:{new_game.x},{new_game.y} if the game shows it there only once the "
                "board is gone)"
            )

    # -- the whole session -----------------------------------------------------

    def run(self) -> Outcome[GameResult]:
        def play(g: int) -> GameResult:
            if g > 1:
                self._start_new_game(self.last_board)
            else:
                # Play was started with the pointer wherever the user left it,
                # often over the board, where many games light the cell beneath
                # (Tk's stock buttons): no blank board shows that. It rests
                # beside the board before the first look, as after every batch.
                self._mouse(lambda: self.mouse.move(*self.park))
                self._finished_at_start()
            try:
                return self._play_game(g)
            except PlayStop as stop:
                self._record_stop(g, str(stop))
                raise

        def report(res: GameResult) -> tuple[dict[str, object], str]:
            fields: dict[str, object] = {"seconds": round(res.seconds, 3), "clicks": res.clicks}
            fields.update(res.stats.as_json() if res.stats else {})
            return fields, (
                f"game {res.game}: {res.result} in {res.seconds:.2f} s, {res.clicks} clicks, "
                f"{res.frames} frames"
            )

        def sums(games: tuple[GameResult, ...]) -> dict[str, object]:
            return totals(g.stats for g in games if g.stats is not None)

        return run_games(self.settings.games, play, report, self.log, self.say, sums)

    def _finished_at_start(self) -> None:
        """A game left finished on screen (the last session's, or one the user
        played) is followed by a new one, when the profile has a new-game action:
        asked to play, a user wants a game, not a refusal. A board read with any
        doubt is left to the first look, which stops on it with its reason."""
        if self.new_game is None:
            return
        reading = self.reader.read(self._grab())
        over = game_state(reading.board)
        if over is None or reading.low_confidence or reading.problem:
            return
        self.say(f"the board on screen is a finished game ({over}); starting a new one")
        self._start_new_game(reading.board)

    # -- one game -------------------------------------------------------------------

    def _play_game(self, number: int) -> GameResult:
        game = _Game(number)
        self._surprise = False
        image, reading = self._look(self._grab())
        prev: Board | None = None
        self._doubt = frozenset()
        sent: list[Click] = []
        recheck_until = self.clock() + self.settings.confirm
        surprised = self._surprise
        agree_left = self.settings.agree_grabs
        # The most cells any read of this frame's rereads showed drawn: a read
        # extends the wait only past it, so reads that flip back and forth
        # cannot wait for ever.
        drawn_most = _drawn(reading.board)
        moved_left = _MOVED_RETRIES
        while True:
            board = reading.board
            if self.settings.log_reads:
                self.log.write(event="read", game=number, board=board.to_text())
            try:
                if game.covered and game_state(board) is not None:
                    # A verdict on the game's end, its hidden cells taken from
                    # the board before: nothing on it can be checked against
                    # that board, and a game may show cells no rule explains
                    # as it ends (every number, as it is lost).
                    decision = self._decide(reading)
                else:
                    if prev is not None:
                        self._check_continuity(prev, board, skip=self._doubt | reading.unsure)
                    decision = self._decide(reading)
                    if decision.status == "inconsistent":
                        raise PlayStop(
                            f"the board reads inconsistent ({decision.reason}); stopped instead "
                            "of guessing: is the board covered or the profile for another game?"
                            + _count_hint(board)
                        )
            except PlayStop:
                # The stop key first: pressed over the game it may have opened
                # a menu over the board (GTK opens one on F10).
                self._check_stop()
                # A frame caught mid-redraw can read wrong for a moment: look
                # again before calling it a problem.
                if self.clock() > recheck_until:
                    # A game that covers its board as it ends (a full-window
                    # "you lose" screen) reads as nonsense with confidence.
                    # (Judged once: a verdict judged again would give itself
                    # again, for ever.)
                    ended = (
                        None
                        if game.covered
                        else self._ended_under_cover(image, reading, prev, sent)
                    )
                    if ended is None or game_state(ended.board) is None:
                        raise
                    reading, game.covered = ended, True
                    continue
                self.rereads += 1
                if not surprised:
                    surprised, agree_left = True, self.settings.agree_grabs
                self.sleep(0.01)
                image, reading = self._look(self._grab(), prev, sent, game)
                if _drawn_further(board, reading.board, drawn_most):
                    # The game is still drawing what was clicked (an opening
                    # shown cell by cell, its 0s before their neighbours):
                    # the read is given its time from its latest progress.
                    drawn_most = _drawn(reading.board)
                    recheck_until = max(recheck_until, self.clock() + self.settings.confirm)
                continue
            if (surprised or self._surprise) and game_state(board) is None and not game.covered:
                # Act only on a read that two consecutive grabs agree on: the
                # frame after a surprise may be another caught mid-repaint.
                if not surprised:
                    surprised, agree_left = True, self.settings.agree_grabs
                if agree_left <= 0:
                    raise PlayStop(
                        f"the board read differently in each of {self.settings.agree_grabs} "
                        "grabs after a surprise: is the game still redrawing, or something "
                        "moving over it?"
                    )
                self._surprise = False
                self.sleep(self.settings.agree_settle)
                again_image, again = self._look(self._grab(), prev, sent, game)
                if again.board != board or again.low_confidence != reading.low_confidence:
                    self.rereads += 1
                    # A game that draws a batch cell by cell, slower than a
                    # settle (a web game asking its server for every cell:
                    # 2.4 s for 30 flags), reads differently in each grab
                    # only by cells it has now drawn. That is the game at
                    # work, not something moving over it: such a grab does
                    # not count. (Cells only ever go from unknown to drawn,
                    # so the wait ends within a grab per cell.)
                    if not _drawn_further(board, again.board, drawn_most):
                        agree_left -= 1
                    drawn_most = max(drawn_most, _drawn(again.board))
                    image, reading = again_image, again
                    continue
                surprised = self._surprise = False
            if not game.covered and prev is not None and game_state(board) is None:
                lost = self._lost_on_a_lone_guess(reading, prev, sent, game)
                if lost is not None:
                    # Judged without the board's word, as under a cover.
                    reading, game.covered = lost, True
                    continue
            first = game.first_index
            if first is not None and not game.covered and board.cells[first] != UNKNOWN:
                if board.cells[first] == EXPLODED:
                    # Lost on the profile's word that the first click is
                    # safe, not on a read or the solver, however sure the
                    # mine's look (said above).
                    game.last_guess_p = None
                if not _doubted(reading, first):
                    self._first_click_seen(board, first)
                    game.first_index = None
            over = game_state(board)
            if over is not None:
                if game.first_click_at is None and prev is None:
                    raise PlayStop(f"the board on screen is already {over}: start a new game first")
                if over == "lost" and game.last_guess_p == 0.0:
                    # A certain move that loses is a misread or a solver bug:
                    # say so loudly rather than count it as bad luck.
                    self.say("warning: the game was lost on a move the solver called certain")
                if over == "won" and not game.covered:
                    # (A board seen under a cover has no pixels to learn from.)
                    self.reader.learn(image, board)
                start = game.first_click_at if game.first_click_at is not None else self.clock()
                self.last_board = board
                if self.recorder is not None:
                    self.recorder.frame(
                        number,
                        image,
                        board,
                        reading.low_confidence,
                        decision,
                        judged=game.covered or game.judged,
                        unsure=reading.unsure,
                    )
                secs = self.clock() - start
                stats = live_stats(
                    board, game.count, won=over == "won", seconds=secs, guesses=game.guesses
                )
                return GameResult(number, over, secs, game.clicks, game.frames, stats)
            lost_at = self._check_effects(game, board, sent)
            if lost_at is not None:
                self.say(
                    f"clicks after a guess at {_where(board, lost_at)}, which shows a look "
                    "never proven, changed nothing twice: the game is lost (the mine that "
                    "went off read as a number)"
                )
                # The game was lost on the guess, not on the clicks after it
                # (read off the mine taken for a number, and never answered).
                game.last_guess_p = game.doubted_p
                row, col = divmod(lost_at, board.width)
                self.log.write(
                    event="lost_on", game=number, row=row, col=col, p_mine=game.doubted_p
                )
                # A verdict, as under a cover: nothing is learned from it.
                reading, game.covered = self._lost_on(board, lost_at), True
                continue
            self._check_stop()
            if decision.status == "done":
                raise PlayStop(
                    "no unknown cell is left but the game is not won: a flag on screen "
                    "must be wrong"
                )
            # A chord rests on a number: never on one the reader is unsure of.
            chord = bool(self.chord_buttons) and not reading.unsure
            clicks = plan(board, decision.moves, chord=chord)
            if not clicks:
                raise PlayStop(_nothing_to_click(board, decision))
            if (
                game_state(board) is None
                and not game.covered
                and moved_left > 0
                and self._drawing(image)
            ):
                # The frame the decision rests on was still being drawn: read
                # the board again once it holds still, and act only on a read a
                # second grab agrees with. (A few times a frame: a board with
                # something that moves for ever, its reads agreeing, is played.)
                moved_left -= 1
                image = self._wait_change(image, self.settings.redraw_timeout)
                image, reading = self._look(image, prev, sent, game)
                self._surprise = True
                continue
            moved_left = _MOVED_RETRIES
            game.frames += 1
            if game.frames > self.settings.max_frames:
                raise PlayStop(f"no end after {self.settings.max_frames} frames")
            why = click_reasons(
                board, decision, clicks, reading.unsure | set(reading.low_confidence)
            )
            game.guesses += not decision.certain
            if self.recorder is not None:
                self.recorder.frame(
                    number,
                    image,
                    board,
                    reading.low_confidence,
                    decision,
                    clicks,
                    why,
                    unsure=reading.unsure,
                )
            self._strip_in_play()
            self._send(game, board, clicks, why)
            sent = clicks
            prev = board
            self._before = image.copy()
            self._doubt = reading.unsure
            self._surprise = False
            image, reading = self._after_batch(image, board, clicks, game)
            recheck_until = self.clock() + self.settings.confirm
            surprised, agree_left = self._surprise, self.settings.agree_grabs
            drawn_most = _drawn(reading.board)

    def _record_stop(self, game: int, why: str) -> None:
        """Keep the last frame read, and why play stopped, in the recording: the
        frame a stop rests on is the one a user (or we) must see to tell a
        passing look from a real change."""
        if self.recorder is None or self._looked is None:
            return
        image, reading = self._looked
        self.recorder.frame(
            game,
            image,
            reading.board,
            reading.low_confidence,
            None,
            stop=why or "stopped",
            unsure=reading.unsure,
        )

    def _first_click_seen(self, board: Board, index: int) -> None:
        """What the game's first click opened, as evidence on the first-click rule."""
        why = self.rules.seen(board, index)
        if why is None:
            return
        self.say(why)
        self.log.write(event="first_click_rule", rule=self.rules.rule, reason=why)
        self.solver = Solver(self.rules.rule, batch_proven=True)

    @property
    def first_click_found(self) -> str | None:
        """The first-click rule this session learned, for the profile (None: as it said)."""
        return self.rules.rule if self.rules.changed else None

    # -- acting ------------------------------------------------------------------------

    def _send(self, game: _Game, board: Board, clicks: list[Click], why: list[str]) -> None:
        for click, reason in zip(clicks, why, strict=True):
            self._check_stop()
            self._check_target(board, click)
            x, y = self._cell_point(click.index)
            mods: tuple[str, ...] = ()
            if click.kind == "chord":
                button: Button = self.chord_buttons[0]
            elif click.kind == "right":
                button, mods = self.flag_click
            else:
                button = click.kind
            self._click(x, y, button, mods)
            if game.first_click_at is None:
                game.first_click_at = self.clock()
                if click.kind == "left" and all(s < 0 for s in board.cells):
                    game.first_index = click.index
            game.clicks += 1
            game.count.add(click.kind)
            if click.kind != "right":
                game.last_guess_p = click.p_mine
            row, col = divmod(click.index, board.width)
            self.log.write(
                event="click",
                game=game.number,
                row=row,
                col=col,
                button=click.kind,
                p_mine=round(click.p_mine, 6),
                reason=reason,
            )
        self._mouse(lambda: self.mouse.move(*self.park))
        self.reader.sent(
            frozenset(c.index for c in clicks if c.kind == "right"),
            frozenset(c.index for c in clicks if c.kind == "left" and c.p_mine > 0),
            _opens(clicks),
        )

    def _decide(self, reading: Reading) -> Decision:
        if len(reading.alternatives) > 1:
            # The reader is unsure of a tile: act only on what holds for every
            # board it could be (a guess by its chance on the worst of them).
            return decide_among(reading.alternatives, reading.strain)
        # The solver verifies every frame with the exact count and batches
        # all it proves (about 21 instead of 48 frames an expert game).
        return self.solver.decide(reading.board)

    def _cell_point(self, index: int) -> tuple[int, int]:
        """Where to click cell `index`: its centre, in points."""
        if self.frame.scale == 1.0:
            return self.grid.centre(index)
        return self.frame.to_points(*self.grid.centre_xy(*divmod(index, self.grid.cols)))

    def _check_target(self, board: Board, click: Click) -> None:
        """The last gate before a click: on the board, and on a cell of the right kind."""
        px, py = self.frame.to_pixels(*self._cell_point(click.index))
        if not self.grid.inside(px, py) or self.grid.cell_at(px, py) != click.index:
            raise PlayStop(
                f"refused a click at ({px:.0f}, {py:.0f}) px: outside the calibrated board"
            )
        state = board.cells[click.index]
        if click.kind == "chord":
            ok = state > 0 and all(board.cells[j] == UNKNOWN for j in click.opens)
        else:
            ok = state == UNKNOWN
        if not ok:
            raise PlayStop(
                f"refused a {click.kind} click at {_where(board, click.index)}: "
                "the cell was not read as one to click"
            )

    def _click(self, x: int, y: int, button: Button, mods: tuple[str, ...] = ()) -> None:
        self._mouse(lambda: self.mouse.click(x, y, button, mods))

    def _mouse(self, action: Callable[[], None]) -> None:
        try:
            action()
        except FailSafe as exc:
            raise PlayStop(f"stopped: {exc}", user=True) from exc

    def _check_stop(self) -> None:
        if self.hotkeys.stop.is_set():
            raise PlayStop("stopped by the stop key", user=True)

    # -- looking ------------------------------------------------------------------------

    def _grab(self) -> Image:
        """The board's pixels, `grid.rect()` exactly, whatever the display's scale
        (and the band above the board into `_strip_now`, when one is watched)."""
        try:
            image = self.capture.grab(self.region)
        except CaptureError as exc:
            raise PlayStop(f"cannot grab the screen: {exc}") from exc
        if self._strip_rect is not None:
            sl, st, sw, sh = self._strip_rect
            sx, sy = sl - self._grab_origin[0], st - self._grab_origin[1]
            band = image[sy : sy + sh, sx : sx + sw, :3] if sx >= 0 and sy >= 0 else None
            self._strip_now = band if band is not None and band.shape[:2] == (sh, sw) else None
        left, top, width, height = self.grid.rect()
        x, y = left - self._grab_origin[0], top - self._grab_origin[1]
        if (x, y) == (0, 0) and image.shape[:2] == (height, width):
            return image
        out = image[y : y + height, x : x + width]
        # a board flush with the screen's right or bottom edge, as calibrated
        filled = self.grid.flush_filled(out, (left, top)) if x >= 0 and y >= 0 else None
        if filled is None or filled.shape[:2] != (height, width):
            raise PlayStop(
                f"the screen grab ({image.shape[1]}x{image.shape[0]} px) does not hold the "
                f"board: has the display's scale (now {self.capture.scale():g} pixels per "
                f"point, was {self.frame.scale:g}) or the board's place changed? Recalibrate"
            )
        return filled

    def _look(
        self,
        image: Image,
        known: Board | None = None,
        sent: list[Click] | None = None,
        game: _Game | None = None,
    ) -> tuple[Image, Reading]:
        """Read the frame; retry briefly on low confidence (a flash, a redraw) before giving up.

        known: the board before the last batch. A game that pops a dialog over
        its board as it is won (gnome-mines) hides cells that were opened
        before; opened cells never change in a game, so those are taken from
        `known`, but only to see that the game is won, never to play on.
        sent: the last batch (what it opened, and whether it guessed).
        """
        opened = _opens(sent or [])
        clicked = {c.index for c in sent or []}
        start = moved = self.clock()
        last: Board | None = None
        most = -1
        while True:
            self._check_stop()
            reading = self.reader.read(image)
            self._looked = (image, reading)
            if last is not None and _drawn_further(last, reading.board, most):
                # More of the board drawn than any read before, nothing read
                # otherwise: a game drawing cell by cell (a web game asking its
                # server for each), still at work. Its time runs from here.
                start = self.clock()
            last, most = reading.board, max(most, _drawn(reading.board))
            if known is not None:
                won = _won_under_cover(reading, known, opened, doubt=self._doubt)
                if won is not None and sent and self._shows_through(image, known, sent) is not None:
                    won = None  # no window: `_ended_under_cover` judges the faces
                if won is not None:
                    self.say(
                        "a window covers part of the won board; its opened cells were read before"
                    )
                    if game is not None:
                        game.judged = True
                        # A look under it not named yet: a verdict only.
                        game.covered = game.covered or bool(won.unsure)
                    return image, won
            open_zero = self._open_zero(reading, game)
            if not reading.low_confidence and open_zero is None:
                return image, reading
            # Unread cells that are all cells the batch clicked, or a passing
            # look (the reader says so) only on such cells: the game is still
            # drawing our clicks (the pointer over a cell shows a hover or a
            # modifier's preview until then), which a starved game may take
            # seconds to finish. Anything else gets the short window. (A 0
            # beside such a cell reads as a 0 beside an unopened cell; a
            # reader that finds a passing look leaves the frame unread.)
            low = set(reading.low_confidence)
            ours = (low <= clicked and (bool(low) or open_zero in clicked)) or (
                bool(reading.passing) and reading.passing <= clicked
            )
            patience = self.settings.slow_draw if ours else self.settings.confirm
            # A frame still changing is a game still drawing (a cascade drawn in
            # waves, tiles fading in: our page at 400 ms a fade and 70 ms a
            # wave drew an expert opening for 1.4 s): wait for it to hold
            # still `confirm` long, up to `slow_draw` in all.
            drawing = min(moved + self.settings.confirm, start + self.settings.slow_draw)
            if self.clock() > max(start + max(patience, self.settings.confirm), drawing):
                if known is not None and sent:
                    ended = self._ended_under_cover(image, reading, known, sent)
                    if ended is not None:
                        if game is not None:
                            game.covered = True
                        return image, ended
                board = reading.board
                if reading.problem:
                    if reading.zeros_open and self._zeros_left_alone(reading, known, clicked, game):
                        continue  # read again: the reader takes those 0s as the game's
                    raise PlayStop(f"cannot read the board: {reading.problem}")
                if not reading.low_confidence and open_zero is not None:
                    if self._zeros_left_alone(reading, known, clicked, game):
                        return image, reading
                    raise PlayStop(
                        f"a 0 at {_where(board, open_zero)} borders unopened cells, which no "
                        "game shows: a misread (a highlighted cell?) or a frozen redraw"
                    )
                where = _where(board, reading.low_confidence[0])
                raise PlayStop(
                    f"{len(reading.low_confidence)} cells read with low confidence (first at "
                    f"{where}): the board is not where the profile says (window moved, "
                    "covered or closed?) or shows tiles not learned yet"
                )
            self._check_stop()
            self._surprise = True
            self.sleep(0.02)
            before, image = image, self._grab()
            if not np.array_equal(before, image):
                moved = self.clock()

    def _ended_under_cover(
        self, image: Image, reading: Reading, known: Board | None, sent: list[Click]
    ) -> Reading | None:
        """The game's end, when a window or overlay covers the board after our last batch.

        Called only once the cover has held still past the retries. Won when
        the cells the batch opened were all the safe cells left (or a won
        board shows through around a dialog); otherwise lost when the batch
        opened a cell on a guess (its "you lose" screen) or mines show beside
        the cover. A cover after certain clicks that did not finish the game
        stays a stop: nothing we did can have ended it.
        """
        if known is None or not sent:
            return None
        face = self._shows_through(image, known, sent)
        if face is not None:
            return self._ended_around_faces(image, known, sent, face)
        box = _cover_box(reading, known, self._doubt)
        if (
            len(box) < min(_COVER_MIN, known.size)
            or not _hides_fixed_cells(reading, known, box, self._doubt)
            or not _mostly_hidden(reading, known, box, self._doubt)
        ):
            # Only unopened cells changed, or scattered cells in a board that
            # shows as it was: the game drew in them (its mines, in a look not
            # learned yet, over our flags too: react-minesweeper, whose loss
            # had been taken for a window over a won board), nothing lies
            # over the board.
            return self._ended_by_reveal(reading, known, sent)
        opened = _opens(sent)
        outside = [s for i, s in enumerate(reading.board.cells) if i not in box]
        mines_shown = any(s in (MINE, EXPLODED, WRONG_FLAG) for s in outside)
        whole = Reading(reading.board, tuple(range(known.size)))
        won = None
        if not mines_shown:
            won = _won_under_cover(reading, known, opened, doubt=self._doubt) or _won_under_cover(
                whole, known, opened, doubt=self._doubt
            )
        if won is not None:
            self.say("a window covers the board as the game ends: every safe cell is open, won")
            return won
        guessed = [c.index for c in sent if c.kind == "left" and c.p_mine > 0]
        if not guessed and not mines_shown:
            return None
        hit = [i for i in guessed if i in box] or guessed
        where = f" after a guess at {_where(known, hit[0])}" if hit else ""
        self.say(f"a window covers the board{where}: the game is lost")
        cells = list(reading.board.cells)
        for i in box:
            cells[i] = known.cells[i]
        if hit:
            cells[hit[0]] = EXPLODED
        return Reading(Board(known.width, known.height, known.mines, tuple(cells)))

    # -- the band above the board ---------------------------------------------------

    def _strip_in_view(
        self, strip: Strip | None, board: tuple[int, int, int, int], capture: Capture
    ) -> tuple[Strip | None, tuple[int, int, int, int] | None]:
        """The band to watch, if it lies on the screen (a board moved to the top
        edge leaves none; the board is played all the same)."""
        if strip is None:
            return None, None
        rect = strip.rect(board)
        try:
            sl, st, sw, sh = self.frame.screen_pixels(capture.screen())
        except CaptureError:
            return None, None
        left, top, width, height = rect
        if left < sl or top < st or left + width > sl + sw or top + height > st + sh:
            return None, None
        return strip, rect

    def _strip_in_play(self) -> None:
        """The band of a frame we play on: the game goes on, so whatever changed
        in it since the last such frame is a timer or a counter, not an end."""
        now, last = self._strip_now, self._strip_play
        if now is None or last is None or self._strip_volatile is None:
            return
        if now.shape == last.shape:
            self._strip_volatile |= changed(now, last)
        self._strip_play = now.copy()

    def _strip_ended(self) -> bool:
        """Whether the band above the board changed since the last frame we played
        on (beyond the pixels a timer or counter changes) and then held still for
        `strip_still` seconds (a timer that still runs: the game goes on)."""
        if self._strip_play is None or self._strip_volatile is None:
            return False
        self._grab()
        last = self._strip_now
        if last is None:
            return False
        since = self.clock()
        deadline = since + 2 * self.settings.strip_still + 0.5
        while self.clock() - since < self.settings.strip_still:
            if self.clock() > deadline:
                return False
            self._check_stop()
            self.sleep(0.02)
            self._grab()
            now = self._strip_now
            if now is None:
                return False
            if bool(changed(now, last).any()):
                last, since = now, self.clock()
        return self._band_moved(last)

    def _shows_through(
        self, image: Image, known: Board, sent: list[Click]
    ) -> tuple[slice, slice] | None:
        """Where the cells' faces lie in their boxes, when what reads as a window over
        the board after a guess is the board itself, recoloured around them:
        the cells under it kept their faces from before the batch
        (`_kept_face`).

        A cell's box takes in half the gap or line around it, so a game that
        turns its window red as it is lost (pymines: every gap red, the mine
        that went off the only cell drawn anew) changes every cell's look: it
        read as a window over a won board, and four losses in 90 games were
        counted won. A window hides the faces; a recolouring leaves them.
        """
        before = self._before
        if before is None or before.shape != image.shape:
            return None
        if not any(c.kind == "left" and c.p_mine > 0 for c in sent):
            return None  # certain clicks: a cover can only be a win, as before
        # Every cell but those the batch opened: a loss may draw its mines, a
        # tenth of the cells at most here, and a board early in a game shows
        # few opened cells (pymines' corner guesses: 2 or 3).
        opened = _opens(sent)
        cells = [i for i in range(known.size) if i not in opened]
        return _kept_face(self.grid, image, before, cells)

    def _ended_around_faces(
        self, image: Image, known: Board, sent: list[Click], face: tuple[slice, slice]
    ) -> Reading:
        """The end, when the game recoloured the board around its faces after a guess
        (`_shows_through`): only an ended game redraws what lies between its
        cells. Lost, unless the guess could have opened the last safe cell;
        then its face tells: won if it shows the number it would show on the
        won board, as some other cell showed that number before; lost if it
        shows anything else. No cell showing that number: a stop."""
        assert self._before is not None
        opened = _opens(sent)
        guessed = [c.index for c in sent if c.kind == "left" and c.p_mine > 0]
        hidden = [i for i in opened if known.cells[i] == UNKNOWN]
        safe_left = known.size - known.mines - sum(1 for c in known.cells if c >= 0)
        hit = guessed[0]
        if len(hidden) >= safe_left:
            won = _won_board(known, list(known.cells), hidden)
            n = won.board.cells[hit]
            shown = [i for i, s in enumerate(known.cells) if s == n]
            if len(guessed) > 1 or not shown:
                raise PlayStop(
                    f"the board was redrawn around its cells after a guess at "
                    f"{_where(known, hit)} that could have opened the last safe cell, and no "
                    f"cell showed the {n} it would show: won or lost cannot be told; stopped "
                    "(start the next game by hand)"
                )
            if any(_same_face(self.grid, image, hit, self._before, i, face) for i in shown):
                self.say(
                    f"the board was redrawn around its cells as the guess at "
                    f"{_where(known, hit)} showed its {n}, the last safe cell: won"
                )
                return won
        self.say(
            f"the board was redrawn around its cells after a guess at {_where(known, hit)}, "
            "which shows no number it could: the game is lost"
        )
        cells = list(known.cells)
        cells[hit] = EXPLODED
        return Reading(Board(known.width, known.height, known.mines, tuple(cells)))

    def _ended_by_reveal(self, reading: Reading, known: Board, sent: list[Click]) -> Reading | None:
        """The end, when the game drew cells nobody opened after our last batch.

        In a game still in play only the cells we open change (and, through a
        0, their neighbours). As a game ends many draw their mines, in a look
        that may never have been seen (read as unsure, or as a wrong number
        that makes the board inconsistent). Won when every guessed cell shows
        a number and the batch opened the last safe cells (the game marks its
        mines). Lost when, after a guess, unopened cells out of the batch's
        reach no longer read unopened (the game shows its mines), unless the
        batch could have opened the last safe cells: the same drawing may be
        a win, and the board alone cannot tell, so it stays a stop.
        """
        opened = _opens(sent)
        guessed = [c.index for c in sent if c.kind == "left" and c.p_mine > 0]
        board = reading.board
        unsure = set(reading.low_confidence)
        if not any(i in unsure or board.cells[i] < 0 for i in guessed):
            won = _won_by_reveal(reading, known, opened)
            if won is not None:
                self.say("the game drew its mines as the last safe cells opened: won")
                return won
        if not guessed:
            return None
        # Where the batch can have opened cells: what it clicked, and on through
        # every cell that now reads 0 (a 0 opens its neighbours).
        reach = set(opened)
        todo = [i for i in opened if board.cells[i] == 0 and i not in unsure]
        while todo:
            i = todo.pop()
            for j in self._nbrs[i]:
                if j not in reach:
                    reach.add(j)
                    if board.cells[j] == 0 and j not in unsure:
                        todo.append(j)
        flagged = {c.index for c in sent if c.kind == "right"}
        drawn = [
            i
            for i, (a, b) in enumerate(zip(known.cells, board.cells, strict=True))
            if a == UNKNOWN
            and i not in reach
            and i not in flagged
            and (b != UNKNOWN or i in unsure)
        ]
        safe_left = known.size - known.mines - sum(1 for c in known.cells if c >= 0)
        could_win = sum(1 for i in opened if known.cells[i] == UNKNOWN) >= safe_left
        if not drawn:
            return self._ended_by_strip(reading, known, guessed, could_win)
        # Our flags drawn otherwise: a won game leaves them be (it may add its
        # own on the mines left), a loss may draw its mines over them
        # (react-minesweeper). So the batch's guess that could have finished
        # the game did not.
        flags_redrawn = any(
            s == FLAG and (i in unsure or board.cells[i] != FLAG) for i, s in enumerate(known.cells)
        )
        if could_win and not flags_redrawn:
            return None
        hit = [i for i in guessed if i in unsure or board.cells[i] < 0] or guessed
        self.say(
            f"the game drew {len(drawn)} cells nobody opened after a guess at "
            f"{_where(known, hit[0])}: the game is lost"
        )
        cells = list(known.cells)
        for i in drawn:
            cells[i] = MINE
        cells[hit[0]] = EXPLODED
        return Reading(Board(known.width, known.height, known.mines, tuple(cells)))

    def _lost_on_a_lone_guess(
        self, reading: Reading, known: Board, sent: list[Click], game: _Game
    ) -> Reading | None:
        """A loss the board shows only as a number on the guessed cell, seen on
        the face or counters above the board.

        A theme still being learned names a new look from the rules alone, and
        the mine that went off can fit as a number (pygame-minesweeper with
        every other mine flagged: the red mine was named a 4, and a 4 seen
        before renamed a 5). So when a guess opened nothing but its own cell,
        and that cell reads through a number no finished board has proven,
        the band above the board is asked before anything is clicked: if it
        changed and holds still (a face that turned, a timer that stopped),
        the game ended there, and as the guess cannot have opened the last
        safe cell (the board would read won), it was lost. The reader then
        forgets its unproven names: one of them was the mine.
        """
        if len(sent) != 1 or sent[0].kind != "left" or sent[0].p_mine <= 0:
            return None
        g = sent[0].index
        board = reading.board
        if (g not in reading.unproven and g not in reading.unsure) or board.cells[g] < 0:
            return None
        # A mine opens nothing: any other cell opened means the guess was safe.
        if any(
            a == UNKNOWN and b != a and i != g
            for i, (a, b) in enumerate(zip(known.cells, board.cells, strict=True))
        ):
            return None
        safe_left = known.size - known.mines - sum(1 for c in known.cells if c >= 0)
        if safe_left <= 1:
            return None
        game.doubted_guess = g  # named if the next clicks change nothing
        game.doubted_p = sent[0].p_mine
        if not self._strip_moved() or not self._strip_ended():
            return None
        self.say(
            f"the face or counters above the board changed right after a guess at "
            f"{_where(known, g)}, which shows a look never proven: the game is lost "
            "(the mine that went off read as a number)"
        )
        return self._lost_on(known, g)

    def _lost_on(self, board: Board, guess: int) -> Reading:
        """The board lost on a guess whose cell read as a number no finished board
        proved: that cell the mine that went off, and the reader's unproven names
        forgotten (one of them was the mine)."""
        self.reader.forget_unproven()
        cells = list(board.cells)
        cells[guess] = EXPLODED
        return Reading(Board(board.width, board.height, board.mines, tuple(cells)))

    def _strip_moved(self) -> bool:
        """Whether the band above the board, as last grabbed, differs from the last
        frame played on beyond a timer's or counter's pixels (a cheap first look)."""
        return self._strip_now is not None and self._band_moved(self._strip_now)

    def _band_moved(self, band: Image) -> bool:
        last, volatile = self._strip_play, self._strip_volatile
        if last is None or volatile is None or band.shape != last.shape:
            return False
        moved = changed(band, last) & ~volatile
        return int(moved.sum()) >= max(_STRIP_MIN_CHANGE, int(0.002 * moved.size))

    def _ended_by_strip(
        self, reading: Reading, known: Board, guessed: list[int], could_win: bool
    ) -> Reading | None:
        """A loss the board shows only in the guessed cell (a look never learned),
        confirmed by the face or counters above the board.

        Only when the guessed cell does not read as a number the board explains
        (unsure, a mine, or a number that leaves the board with no mine layout
        while the board without it has one), and the band above the board
        changed and holds still. When that guess could as well have opened the
        last safe cell, a changed face fits a win as well as a loss: a stop.
        """
        board = reading.board
        unsure = set(reading.low_confidence)
        hit = [i for i in guessed if i in unsure or board.cells[i] < 0]
        if not hit and self.solver.decide(board).status == "inconsistent":
            hit = [i for i in guessed if board.cells[i] >= 0]
        if not hit:
            return None
        # The board without the guessed cells (and what could not be read) must
        # fit a mine layout: the guess is the only thing out of place.
        cells = list(board.cells)
        for i in set(hit) | unsure:
            cells[i] = known.cells[i]
        rest = Board(known.width, known.height, known.mines, tuple(cells))
        if self.solver.decide(rest).status == "inconsistent":
            return None
        if not self._strip_ended():
            return None
        if could_win:
            raise PlayStop(
                f"the face or counters above the board changed after a guess at "
                f"{_where(known, hit[0])} that could have opened the last safe cell or a "
                "mine, and the board does not show which: won or lost cannot be told; "
                "stopped (start the next game by hand)"
            )
        self.say(
            f"the face or counters above the board changed right after a guess at "
            f"{_where(known, hit[0])}: the game is lost"
        )
        cells = list(known.cells)
        cells[hit[0]] = EXPLODED
        return Reading(Board(known.width, known.height, known.mines, tuple(cells)))

    def _open_zero(self, reading: Reading, game: _Game | None = None) -> int | None:
        """A 0 next to an unopened cell, if any: the game opens a 0's neighbours in the
        same redraw, so such a frame is caught mid-redraw or misread (gnome-mines
        lights the cell under the pointer in a grey close to an opened cell). A
        game seen to flood sideways only opens a 0's side neighbours. The 0s
        this game was seen to leave so (`_zeros_left_alone`) do not count."""
        zeros = self._zeros_open(reading, game)
        return zeros[0] if zeros else None

    def _zeros_open(self, reading: Reading, game: _Game | None) -> list[int]:
        """Every 0 with an unopened cell among the cells its cascade opens, but
        those `game` was seen to leave so."""
        opens = self._sides if reading.sides_only else self._nbrs
        cells = reading.board.cells
        if zero_beside_unknown(cells, opens) is None:
            return []  # (most frames: one pass, stopped at the first such 0)
        alone = game.zeros_alone if game is not None else set()
        return [
            i
            for i, s in enumerate(cells)
            if s == 0 and i not in alone and any(cells[j] == UNKNOWN for j in opens[i])
        ]

    def _zeros_left_alone(
        self, reading: Reading, known: Board | None, clicked: set[int], game: _Game | None
    ) -> bool:
        """Whether the 0s beside unopened cells, held still past every wait, are 0s
        the game left so: react-minesweeper's chord, or its left click on an
        opened number (which chords), opens a 0 without opening the 0's
        neighbours, and play stopped there in every game.

        Taken only where no misread can be behind it: each such 0 was unopened
        before the batch and not a cell the batch clicked (a lit cell under
        the pointer, or one drawn sunken while the button was down, is a
        clicked one), on a board read one way only, after the frame held
        still past every wait. Their neighbours are then safe, and the solver
        opens them. The 0's look may be named by the rules alone, as every
        look is in a new theme's first game: the player opens cells on such
        0s all game (a fresh profile at 16x16 met a chord's 0 before any
        game had ended, and stopped in game 1 every time).

        A reader learning a theme leaves a frame unread for such 0s when it
        shows a look not named yet (`Reading.zeros_open`: a glyph fading in
        may read as a 0 for a while): the 0s are judged the same way, and the
        reader is told, so that it names the new look (react-minesweeper
        stopped where a chord's lone 0 came with the game's first 6)."""
        if game is None or known is None or reading.unsure:
            return False
        if reading.problem and not reading.zeros_open:
            return False
        zeros = sorted(reading.zeros_open) if reading.problem else self._zeros_open(reading, game)
        if not zeros or any(known.cells[i] != UNKNOWN or i in clicked for i in zeros):
            return False
        game.zeros_alone.update(zeros)
        self.reader.zeros_alone(frozenset(zeros))
        self.say(
            f"the 0 at {_where(reading.board, zeros[0])} held still beside unopened cells: "
            "this game opens a 0 alone there (a chord); its neighbours are safe"
        )
        return True

    def _drawing(self, image: Image) -> bool:
        """Whether the screen has changed since `image`, a frame that held still
        `_settle` long: then the game draws in steps further apart than that,
        and every frame from now on must hold still longer."""
        if np.array_equal(self._grab(), image):
            return False
        self._settle = min(max(2 * self._settle, _MOTION_SETTLE), _MAX_SETTLE)
        return True

    def _wait_change(self, before: Image, timeout: float, poll: float = 0.001) -> Image:
        """Grab until the frame differs from `before`, then until it holds still.
        `poll`: the time between grabs while nothing changes."""
        deadline = self.clock() + timeout
        image = self._grab()
        while np.array_equal(image, before) and self.clock() < deadline:
            self._check_stop()
            self.sleep(poll)
            image = self._grab()
        settle_end = self.clock() + self._settle
        steps = 0
        while self.clock() < deadline:
            self.sleep(self._settle / 4)
            again = self._grab()
            if not np.array_equal(again, image):
                image = again
                steps += 1
                if steps >= _MOTION_STEPS:
                    # drawn in steps (an animation), not in one redraw
                    self._settle = max(self._settle, _MOTION_SETTLE)
                settle_end = self.clock() + self._settle
            elif self.clock() >= settle_end:
                break
        return image

    def _after_batch(
        self, before: Image, board: Board, clicks: list[Click], game: _Game | None = None
    ) -> tuple[Image, Reading]:
        """The first settled read showing every click's effect, or the last by the timeout.

        A click that shows no effect is sent again on the next frame (a click
        the game missed). A flag click toggles, though: sent again while the
        first is still on its way (a browser starved of CPU draws nothing for
        seconds, then both), it takes the flag off again, or shows a '?' in
        games that cycle. So a batch with a flag not yet shown is waited for
        longer (`slow_draw`) before anything is sent again, and one the game
        has begun to draw longer still.
        """
        start = self.clock()
        image = self._wait_change(before, self.settings.redraw_timeout)
        fewest = len(clicks)
        while True:
            image, reading = self._look(image, board, clicks, game)
            pending = _pending(reading.board, clicks)
            if not pending or game_state(reading.board) is not None:
                return image, reading
            if len(pending) < fewest:
                # More of the batch drawn than any read before showed: a game
                # slow to draw (a web game asking its server for each cell)
                # is at work, and a click sent again now would come twice. Its
                # time runs from here (at most once a click: the count only
                # falls).
                fewest = len(pending)
                start = self.clock()
            flag_due = any(c.kind == "right" for c in pending)
            wait = self.settings.slow_draw if flag_due else self.settings.redraw_timeout
            if flag_due and len(pending) < len(clicks):
                # The game drew part of the batch: it is at work, and the rest
                # is most likely on its way (a browser starved of CPU stalls
                # for seconds in the middle of a batch), not missed. A flag
                # sent twice would come off: wait longer still.
                wait = _MOST_WAITS * self.settings.slow_draw
            now = self.clock()
            left = start + max(wait, self.settings.redraw_timeout) - now
            if left <= 0:
                return image, reading
            # Past the redraw window the game is slow, not redrawing: grab
            # less often (a grab costs a few ms of CPU).
            quick = start + self.settings.redraw_timeout - now
            if quick > 0:
                image = self._wait_change(image, min(left, quick))
            else:
                image = self._wait_change(image, left, poll=0.02)

    def _check_continuity(
        self, prev: Board, board: Board, skip: frozenset[int] = frozenset()
    ) -> None:
        """Opened cells never change in a game: if one does, this is not our board any more."""
        for i, (a, b) in enumerate(zip(prev.cells, board.cells, strict=True)):
            if a >= 0 and b != a and not (i in skip and b >= 0):
                raise PlayStop(
                    f"the board changed by itself at {_where(board, i)} (was "
                    f"{a}, now reads {state_char(b)}): window moved or covered, or a new game "
                    "started"
                )

    def _check_effects(self, game: _Game, board: Board, sent: list[Click]) -> int | None:
        """Stop on clicks the game ignored twice, or return the guess the game was lost on.

        A guess that opened only its own cell, in a look never proven, while
        the next clicks change nothing: the game has ended. It cannot have
        been won on that guess (`_lost_on_a_lone_guess` asks that safe cells
        were left), so the mine went off there and its look was named a
        number (sgt-mines in a palette not learned yet shows only that mine).
        """
        chord_failed = False
        pending = _pending(board, sent)
        # A click sent again that now shows: the game took the first one
        # late (a browser starved of CPU draws nothing for longer than
        # slow_draw, then all it was sent). A flag click sent twice so came
        # off again: toggled, not missed. It is sent once more (once per
        # cell: a game that never flags still stops).
        late = any(c not in pending and game.misses.get((c.index, c.kind), 0) for c in sent)
        # The game answers a later click that opens: it goes on. A flag drawn
        # is no such answer: a lost game may still take flags (NiceGUI).
        if any(
            c not in pending and c.index != game.doubted_guess for c in sent if c.kind != "right"
        ):
            game.doubted_guess = None
        if self.chord_buttons and any(c.kind == "chord" and c not in pending for c in sent):
            # A chord opened its cells: this button works here (kept in the profile).
            self.chord_found = self.chord_buttons[0]
        for click in pending:
            if click.kind == "chord":
                chord_failed = True
                continue
            key = (click.index, click.kind)
            game.misses[key] = game.misses.get(key, 0) + 1
            if late and click.kind == "right" and click.index not in game.toggled:
                game.toggled.add(click.index)
                game.misses[key] = 0
                self.say(
                    f"the flag at {_where(board, click.index)} was drawn late and taken off "
                    "by the click sent again; flagging it once more"
                )
                continue
            if game.misses[key] >= 2:
                if game.doubted_guess is not None:
                    return game.doubted_guess
                raise PlayStop(
                    f"a {click.kind} click at {_where(board, click.index)} changed nothing "
                    "twice: is the game window behind another one or frozen?"
                )
        if chord_failed and self.chord_buttons:
            # This game does not chord with that button: try the next one, or
            # open cells one by one (the solver offers them again).
            failed = self.chord_buttons.pop(0)
            self.say(f"chording with the {failed} button did nothing here; not using it")
            if not self.chord_buttons:
                self.chord_found = "none"
        return None

    # -- between games ----------------------------------------------------------------

    def _fresh(self, reading: Reading, last: Board | None) -> bool:
        """A board a new game may start from: clean read, in play, consistent, not the old one."""
        if reading.low_confidence or game_state(reading.board) is not None:
            return False
        if last is not None and reading.board == last:
            return False
        if last is not None and _part_of(reading.board, last):
            # What is opened is the old board's, as it was: the old board half
            # cleared (a game that redraws its new board a row or a cell at a
            # time), not a new game's own opening.
            return False
        return self.solver.decide(reading.board).status == "ok"

    def _start_new_game(self, last: Board | None = None) -> None:
        if self.new_game is None:
            raise PlayStop(
                "more games asked for, but the profile has no new-game action "
                "(calibrate with --new-game KEY|click:X,Y)"
            )
        ng = self.new_game
        # Let an end-of-game animation finish first (sgt-mines flashes the
        # board and ignores keys meanwhile).
        self._quiet_screen(self.settings.end_quiet, self.settings.new_game_timeout)
        # The button is kept in the profile's pixels; the mouse clicks in points.
        button = self.frame.to_points(ng.x, ng.y)
        menu = ng.kind == "menu"
        # A menu may come only after an end screen that holds for seconds
        # (minesweeper-mvc: 5 s of "YOU WIN!"), which takes no click.
        attempts = _MENU_ATTEMPTS if menu else 3
        timeout = self.settings.new_game_timeout * (_MENU_ATTEMPTS / 3 if menu else 1)
        covered = False
        # The keys that close a box the game opened, tried in turn: Escape, then
        # Return, which presses a message box's default button (Tk's "OK" box
        # takes no Escape). Not into a game's own menu: Escape may quit it.
        closers = [] if menu else ["esc", "enter"]
        under: int | None = None
        for attempt in range(1, attempts + 1):
            self._check_stop()
            if covered and closers:
                # A window the game opened as it ended (a high-score table, a
                # "play again?" box) lies over the board and may take the
                # new-game key itself: close it the way a person would first.
                key = closers.pop(0)
                self.say(
                    "something covers the board after the game; sending "
                    f"{'Escape' if key == 'esc' else 'Return'} to close it"
                )
                self._key_over_board(key, under)
                self._quiet_screen(self.settings.end_quiet, self.settings.new_game_timeout / 6)
            image = self._grab()
            deadline = self.clock() + timeout / attempts
            if menu and not self._menu_shows(ng, deadline):
                # The board (or most of it) still shows where the button is to
                # come: a click there could open a cell. Nothing is sent.
                reading = None
                continue
            if ng.kind == "key":
                self._key_over_board(ng.key)
            else:
                self._mouse(lambda: self.mouse.click(*button, "left"))
                self._mouse(lambda: self.mouse.move(*self.park))
            reading = None
            while self.clock() < deadline:
                image = self._wait_change(image, max(0.0, deadline - self.clock()))
                reading = self.reader.read(image)
                if self._fresh(reading, last):
                    # The same fresh board twice in a row: the redraw is over.
                    self.sleep(0.03)
                    again = self.reader.read(self._grab())
                    if again.board == reading.board:
                        return
                self.sleep(0.01)
            covered = reading is not None and _board_hidden(reading)
            if covered and reading is not None:
                under = _middle_of(reading.low_confidence, reading.board.width)
            if attempt < attempts:
                self.say(f"the new-game action ({ng}) showed no fresh board yet; trying again")
        why = (
            "something covers the board (a dialog or another window; Escape and Return did "
            "not close it) or the game's window is gone: close it and start again"
            if covered and not menu
            else "the game's menu never hid the board, so its button was not clicked"
            if menu and reading is None
            else "is the game's window behind another one, or the action wrong for this game?"
        )
        raise PlayStop(
            f"the new-game action ({ng}) did not bring up a fresh board within "
            f"{timeout:.0f} s: {why}"
        )

    def _menu_shows(self, ng: NewGame, deadline: float) -> bool:
        """Wait until the board is hidden where a menu's new-game button is to be
        clicked: most cells, and the one under the button, read as no tile of
        the game (a menu or an end screen over them); False at `deadline`.

        A finished board still showing reads as the game's tiles (its mines
        are a fifth of an expert board's cells at most), so a click meant for
        the menu never lands on a cell of a board that shows."""
        at = self.grid.cell_at(ng.x, ng.y)
        while True:
            self._check_stop()
            reading = self.reader.read(self._grab())
            low = set(reading.low_confidence)
            if 2 * len(low) >= reading.board.size and (at is None or at in low):
                return True
            if self.clock() >= deadline:
                return False
            self.sleep(0.05)

    def _key_over_board(self, key: str, cell: int | None = None) -> None:
        """Send `key` with the pointer over the board (over `cell`, else the first
        cell), then park it again.

        Where keyboard focus follows the pointer (X11 without a window
        manager, some desktops' settings) a key goes to the window under the
        pointer, and the park point may lie just outside the game's window
        (xbomb's window ends 4 px right of its board). The board is surely
        inside it, or inside a dialog the game opened over it, which is the
        window that should get the key then. Where a click gives focus the
        game's window has it already from the last click on the board. A key
        meant for a box over the board is sent over the cells it hides: a box
        in the board's middle leaves its first cell bare.
        """
        at = 0 if cell is None else cell
        self._mouse(lambda: self.mouse.move(*self._cell_point(at)))
        try:
            self._mouse(lambda: self.mouse.key(key))
        finally:
            self._mouse(lambda: self.mouse.move(*self.park))

    def _quiet_screen(self, quiet: float, timeout: float) -> None:
        """Wait until the board has not changed for `quiet` seconds (or `timeout` passes)."""
        deadline = self.clock() + timeout
        last = self._grab()
        since = self.clock()
        while self.clock() < deadline and self.clock() - since < quiet:
            self.sleep(0.01)
            image = self._grab()
            if not np.array_equal(image, last):
                last, since = image, self.clock()


def _opens(clicks: list[Click]) -> frozenset[int]:
    """The cells a batch clicked open (left clicks and chords)."""
    return frozenset(j for c in clicks if c.kind != "right" for j in c.opens)


# Fewer changed pixels than this in the band above the board are no face
# that changed (noise, a cursor's edge).
_STRIP_MIN_CHANGE = 12

# A batch the game has begun to draw is waited for up to this many slow_draw
# windows before its clicks still not shown are sent again.
_MOST_WAITS = 4

# A new-game button on a menu the game shows over the board is tried this
# many times, over as many thirds of new_game_timeout.
_MENU_ATTEMPTS = 5

# Fewer cells than this under a cover are a misread tile, not a window.
_COVER_MIN = 9

# A frame found still drawing once it had held still (`Player._drawing`): the
# time a frame must hold still grows to at least _MOTION_SETTLE, doubling at
# each such find up to _MAX_SETTLE, and a decision is read again at most
# _MOVED_RETRIES times for it.
_MOTION_SETTLE = 0.05
_MAX_SETTLE = 0.4
_MOVED_RETRIES = 3
# A frame seen changing this many more times after its first change is drawn
# in steps, an animation: it, too, makes every frame hold still _MOTION_SETTLE.
_MOTION_STEPS = 3


def _part_of(board: Board, old: Board) -> bool:
    """Whether `board` opens some cells and each shows what it showed on `old`."""
    shown = [i for i, s in enumerate(board.cells) if s != UNKNOWN]
    return bool(shown) and all(board.cells[i] == old.cells[i] for i in shown)


def _cover_box(reading: Reading, known: Board, doubt: frozenset[int] = frozenset()) -> set[int]:
    """The cells inside the box of what cannot be the board any more: unsure cells,
    and opened cells or flags that read otherwise now (a dialog is a rectangle).
    `doubt`: cells of `known` read through a look not named then (one of several
    numbers): reading otherwise now is their name found, not a cover."""
    if sum(1 for s in reading.board.cells if s >= 0) > known.size - known.mines:
        # More cells read open than the board has safe cells: none of it is the board.
        return set(range(known.size))
    covered = set(reading.low_confidence)
    covered |= {
        i
        for i, (a, b) in enumerate(zip(known.cells, reading.board.cells, strict=True))
        if (a >= 0 or a == FLAG) and b != a and i not in doubt
    }
    if not covered:
        return set()
    w = known.width
    rows = [i // w for i in covered]
    cols = [i % w for i in covered]
    return {
        r * w + c for r in range(min(rows), max(rows) + 1) for c in range(min(cols), max(cols) + 1)
    }


def _hides_fixed_cells(
    reading: Reading, known: Board, box: set[int], doubt: frozenset[int] = frozenset()
) -> bool:
    """Whether `box` holds an opened cell or a flag that reads otherwise now.

    Those never change in a game, so something is drawn over them: a cover.
    (A cell of `doubt` was never read surely: see `_cover_box`.)
    """
    unsure = set(reading.low_confidence)
    return any(
        (known.cells[i] >= 0 or known.cells[i] == FLAG)
        and i not in doubt
        and (i in unsure or reading.board.cells[i] != known.cells[i])
        for i in box
    )


def _mostly_hidden(
    reading: Reading, known: Board, box: set[int], doubt: frozenset[int] = frozenset()
) -> bool:
    """Whether at least half the cells of `box` are hidden, as under a window:
    unread, or an opened cell or a flag of `known` that reads otherwise now (a
    cell of `doubt`, read unsurely then, counts as hidden). A cell unopened
    before that reads as a number now shows the board, not a window. More
    cells read open than the board has safe cells: nothing is the board."""
    if sum(1 for s in reading.board.cells if s >= 0) > known.size - known.mines:
        return True
    unsure = set(reading.low_confidence)
    hidden = sum(
        1
        for i in box
        if i in unsure
        or i in doubt
        or (known.cells[i] != UNKNOWN and reading.board.cells[i] != known.cells[i])
    )
    return 2 * hidden >= len(box)


def _won_under_cover(
    reading: Reading,
    known: Board,
    opened: frozenset[int],
    *,
    doubt: frozenset[int] = frozenset(),
) -> Reading | None:
    """The reading completed from `known` where it is unsure, if that shows a won game.

    An opened cell or a flag cannot have changed; a cell that was unopened
    stays unopened unless the last batch clicked it open. That click may have
    been a guess (games often end on one): had it hit a mine, the game would
    show its mines instead of a dialog, and any mine in sight refuses the win.
    A covered cell of `doubt` (read in `known` through a look not named then)
    counts as open, as it was, but its number is not known: the reading
    returned holds it as unsure, a verdict that nothing may be decided on or
    learned from.
    """
    cells = list(reading.board.cells)
    # What a dialog drawn over the board shows there is not the board, even
    # where it happens to look like a cell.
    covered = _cover_box(reading, known, doubt)
    unsure = frozenset(covered & doubt)
    if not covered or not _hides_fixed_cells(reading, known, covered, doubt):
        # Only unopened cells look new: no window over the board but the game
        # drawing in its cells (its mines, in a look not learned yet), which
        # may as well be a loss (`_won_by_reveal` judges that case).
        return None
    if not _mostly_hidden(reading, known, covered, doubt):
        # The box of what changed mostly shows the board as it was: no window
        # lies over it, the game drew in scattered cells. react-minesweeper's
        # loss draws its mines over our flags and on the guess that went off:
        # filled back in from before, that board added up to a win.
        return None
    hidden_opens = []
    for i in covered:
        cells[i] = known.cells[i]
        if known.cells[i] == UNKNOWN and i in opened:
            hidden_opens.append(i)
    if any(s in (MINE, EXPLODED, WRONG_FLAG) for s in cells):
        return None
    shown = sum(1 for s in cells if s >= 0) + len(hidden_opens)
    if shown < known.size - known.mines:
        # Fewer safe cells open than the board has: a 0 the batch opened may
        # have opened more under the cover (a cascade), if the rest fits.
        # (Numbers read through a look not named yet bind nothing there: one
        # reading of several, a wrong one had hidden minesweeper-mvc's win.)
        filled = won_beneath(cells, covered, opened, known, doubt | reading.unsure)
        return None if filled is None else Reading(filled, unsure=unsure)
    if shown != known.size - known.mines:
        return None
    return _won_board(known, cells, hidden_opens, unsure)


def _won_by_reveal(reading: Reading, known: Board, opened: frozenset[int]) -> Reading | None:
    """The won board, when the game drew its mines in sight as it ended.

    Nothing covers the board, so each cell that reads as nothing known is
    what the game drew: a cell the batch clicked open showing a number not
    seen yet, or else a mine (a cascade cannot hide under a mine's look).
    Won only if those cells and the cells read open add up to the board's
    safe cells exactly. A window that changed its layout reads unknown
    everywhere: far too many mines, no win; an opened cell or a flag reading
    otherwise now is no board at all.
    """
    unsure = set(reading.low_confidence)
    cells = list(reading.board.cells)
    if any(s in (MINE, EXPLODED, WRONG_FLAG) for i, s in enumerate(cells) if i not in unsure):
        return None
    hidden_opens = []
    for i in unsure:
        if known.cells[i] != UNKNOWN:
            return None
        if i in opened:
            hidden_opens.append(i)
        cells[i] = UNKNOWN
    shown = sum(1 for s in cells if s >= 0) + len(hidden_opens)
    if shown != known.size - known.mines:
        return None
    return _won_board(known, cells, hidden_opens)


# How far from the profile's mine count `_count_hint` looks for one that fits.
_COUNT_SPAN = 12


def _count_hint(board: Board) -> str:
    """What to say when the numbers fit the board but not its mine count.

    A user who typed the wrong count, or a game that lays a count of its own
    each time (minesweeper-python places 38 mines at random squares, so
    duplicates leave 34 to 38), reads as an inconsistent board at the end,
    which looks like a misread. The nearest counts that fit tell them apart.
    """
    cells = board.cells
    shown = sum(1 for s in cells if s in (FLAG, MINE, EXPLODED))
    unknown = sum(1 for s in cells if s == UNKNOWN)
    for step in range(1, _COUNT_SPAN + 1):
        for m in (board.mines - step, board.mines + step):
            if not shown <= m <= shown + unknown:
                continue
            trial = Board(board.width, board.height, m, cells)
            if analyse(trial).status == "ok":
                return (
                    f" The numbers fit {m} mine{'s' if m != 1 else ''}, not {board.mines}: "
                    "if this game lays another count, recalibrate with --mines."
                )
    return ""


# A window over the board is no window when the opened cells and flags under
# it, at least _FACES_SEEN of them, keep a part of their box as it was, the
# same part in _FACES_THROUGH of them, over a quarter of the box at least
# (`_kept_face`): their faces, the game having redrawn only around them.
_FACES_THROUGH = 0.9
_FACES_SEEN = 3
_FACE_PART = 0.25
# ... and the same part of the box around it changed in as many, a twentieth
# of the box at least (a line a pixel wide around a 36 px cell: a tenth).
_AROUND_PART = 0.05
# A pixel whose channels moved by this much in all is one that changed.
_PIXEL_MOVED = 24
# Two faces are one look when, less each one's median colour, they differ by
# under this many levels a pixel on average (at the best of a pixel's shift
# either way, for cells cut at a fractional pitch): the same number in two
# cells, over a vignette or a texture of a few levels.
_FACE_SAME = 6.0
# The most two faces of one look differ in their median colour (a vignette
# darkens a board's corners by 7 levels or so); an opened face and an
# unopened one differ by more.
_FACE_SHADE = 16


def _cell_box(grid: Grid, image: Image, i: int) -> npt.NDArray[np.int16]:
    """Cell i's box, one rounded pitch each way, in `image` (a grab of `grid.rect()`)."""
    left, top, _, _ = grid.rect()
    xs, ys = grid.cell_edges()
    w, h = grid.cell_size
    r, c = divmod(i, grid.cols)
    x0, y0 = xs[c] - left, ys[r] - top
    return image[y0 : y0 + h, x0 : x0 + w, :3].astype(np.int16)


def _kept_face(
    grid: Grid, image: Image, before: Image, cells: Sequence[int]
) -> tuple[slice, slice] | None:
    """The part of a cell's box (rows, columns) that `cells` all kept from `before`
    to `image` (all but a tenth of them), if it is a quarter of the box or
    more and the rest changed in them all: where the cells' faces lie, when a
    game redrew only around them."""
    if len(cells) < _FACES_SEEN:
        return None
    w, h = grid.cell_size
    kept = np.zeros((h, w), dtype=np.int32)
    for i in cells:
        a, b = _cell_box(grid, image, i), _cell_box(grid, before, i)
        if a.shape[:2] != (h, w) or b.shape[:2] != (h, w):
            return None
        kept += np.abs(a - b).sum(axis=2) < _PIXEL_MOVED
    mask = kept >= _FACES_THROUGH * len(cells)
    moved = kept <= (1 - _FACES_THROUGH) * len(cells)
    if mask.mean() < _FACE_PART or moved.mean() < _AROUND_PART:
        return None  # the faces hidden, or nothing drawn around them
    rows, cols = np.nonzero(mask)
    # the face's box less a pixel each side (its edge may take a shift)
    return slice(int(rows.min()) + 1, int(rows.max())), slice(int(cols.min()) + 1, int(cols.max()))


def _same_face(
    grid: Grid, image: Image, i: int, other: Image, j: int, face: tuple[slice, slice]
) -> bool:
    """Whether cell i's face in `image` shows cell j's in `other`: the same
    drawing at a pixel's shift at most, their shades _FACE_SHADE apart at most."""
    a = _cell_box(grid, image, i)
    b = _cell_box(grid, other, j)
    rs, cs = face
    core = a[rs, cs]
    if core.size == 0 or a.shape != b.shape:
        return False
    ma = np.median(core.reshape(-1, 3), axis=0).astype(np.int16)
    h, w = a.shape[:2]
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            y0, y1, x0, x1 = rs.start + dy, rs.stop + dy, cs.start + dx, cs.stop + dx
            if y0 < 0 or x0 < 0 or y1 > h or x1 > w:
                continue
            part = b[y0:y1, x0:x1]
            mb = np.median(part.reshape(-1, 3), axis=0).astype(np.int16)
            if int(np.abs(ma - mb).max()) > _FACE_SHADE:
                continue
            if float(np.abs((core - ma) - (part - mb)).mean()) < _FACE_SAME:
                return True
    return False


def _won_board(
    known: Board, cells: list[int], hidden_opens: list[int], unsure: frozenset[int] = frozenset()
) -> Reading:
    """A won board: every cell still unopened is a mine, which gives the numbers
    of the opened cells not read (`hidden_opens`)."""
    nbrs = neighbours_table(known.width, known.height)
    for i in hidden_opens:
        cells[i] = sum(1 for j in nbrs[i] if j not in hidden_opens and cells[j] in (UNKNOWN, FLAG))
    return Reading(Board(known.width, known.height, known.mines, tuple(cells)), unsure=unsure)


def _board_hidden(reading: Reading) -> bool:
    """Whether much of the board does not look like the game's cells (a window over it)."""
    return bool(reading.problem) or len(reading.low_confidence) >= min(
        _COVER_MIN, reading.board.size
    )


def _middle_of(cells: Sequence[int], width: int) -> int | None:
    """Of `cells` (row-major indexes on a board `width` wide), the one nearest
    their mean: under a box over the board, the box's middle."""
    if not cells:
        return None
    rows = [i // width for i in cells]
    cols = [i % width for i in cells]
    r0, c0 = sum(rows) / len(rows), sum(cols) / len(cols)
    return min(cells, key=lambda i: (i // width - r0) ** 2 + (i % width - c0) ** 2)


def _doubted(reading: Reading, i: int) -> bool:
    """Whether cell i is read through a look not proven: unread, one of several
    numbers (a new look; a starved game's lit cell under the pointer looked
    like one), or named by the rules only. Evidence is taken from no such cell."""
    return i in reading.low_confidence or i in reading.unsure or i in reading.unproven


def _drawn(board: Board) -> int:
    """How many cells read as anything but unopened."""
    return board.size - board.count(UNKNOWN)


def _drawn_further(before: Board, after: Board, most: int) -> bool:
    """Whether `after` is `before` with more of its unknown cells drawn, and more
    cells drawn than `most` (the most any read before showed): no cell known
    in `before` reads otherwise."""
    if _drawn(after) <= most:
        return False
    return all(a in (UNKNOWN, b) for a, b in zip(before.cells, after.cells, strict=True))


def _pending(board: Board, clicks: list[Click]) -> list[Click]:
    """The clicks whose effect the board does not show yet."""
    out = []
    for c in clicks:
        if c.kind == "right":
            if board.cells[c.index] == UNKNOWN:
                out.append(c)
        elif any(board.cells[j] == UNKNOWN for j in c.opens):
            out.append(c)
    return out


__all__ = [
    "GameResult",
    "Outcome",
    "PlayStop",
    "Player",
    "Settings",
    "chord_order",
    "game_state",
]
