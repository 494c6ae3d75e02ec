"""Benchmark: per-frame read time of a custom (learned) theme against a built-in one.

For each built-in theme (sgt-mines, gnome-mines, xdemineur, expert 30x16 at
its own cell size) a few games are played in simulation, drawn with the
theme's recorded tiles and read as the player reads them (`reader_for`: the
learning reader over the classifier); the classifier alone is timed on the
same frames. For each of those cell sizes a random unseen theme is drawn
(`tests.support.themes`): a custom profile is made from its blank board, a
few games are played through the learning reader, then as many more by the
same reader (what it learned in hand), and, when `learned_profile` keeps one,
as many by a new reader on the saved profile. Every reader call is recorded
(frames, clicks sent, the clock) and replayed on a new reader, timing each
read in CPU time (the least of --repeat replays); printed: median and mean
per frame, and the custom read's median over the built-in one's.

    python -m tests.vision.bench_read [--games 3] [--learn-games 3] [--repeat 3]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from msolver.core.board import EXPLODED, MINE, UNKNOWN, Board
from msolver.core.clock import FakeClock
from msolver.core.game import Game
from msolver.vision.dryrun import Renderer
from msolver.vision.image import Image
from msolver.vision.learning_reader import LearningReader
from msolver.vision.profile import Profile, load_profile
from msolver.vision.reader import VisionReader
from msolver.vision.reading import Reading
from tests.support.live import SimScreen
from tests.support.themes import Theme, ThemedScreen, blank_profile

BUILTINS = ("sgt-mines", "gnome-mines", "xdemineur")


@dataclass
class Frame:
    """One frame as the reader was given it (compressed: a game's frames stay small)."""

    shape: tuple[int, ...]
    data: bytes

    @classmethod
    def of(cls, image: Image) -> Frame:
        return cls(tuple(image.shape), zlib.compress(np.ascontiguousarray(image).tobytes(), 1))

    def image(self) -> Image:
        raw = zlib.decompress(self.data)
        return np.frombuffer(raw, dtype=np.uint8).reshape(self.shape).copy()


@dataclass
class Tape:
    """Every call a player made on its reader, in order: ("read", Frame, clock time),
    ("sent", flagged, guessed, opened) and ("learn", Frame, Board)."""

    profile: Profile
    calls: list[tuple[Any, ...]] = field(default_factory=list)
    mark: int = 0  # reads before this many were the learning games (see custom_tapes)

    @property
    def reads(self) -> int:
        return sum(1 for c in self.calls if c[0] == "read")


class TapingReader:
    """Passes every call on to `reader` and keeps it on `tape`."""

    def __init__(self, reader: Any, tape: Tape, clock: FakeClock) -> None:
        self.reader = reader
        self.tape = tape
        self.clock = clock

    @property
    def grid(self) -> Any:
        return self.reader.grid

    @property
    def mines(self) -> int:
        return int(self.reader.mines)

    def read(self, image: Image) -> Reading:
        self.tape.calls.append(("read", Frame.of(image), self.clock.monotonic()))
        reading: Reading = self.reader.read(image)
        return reading

    def sent(
        self, flagged: frozenset[int], guessed: frozenset[int], opened: frozenset[int] = frozenset()
    ) -> None:
        self.tape.calls.append(("sent", flagged, guessed, opened))
        self.reader.sent(flagged, guessed, opened)

    def learn(self, image: Image, board: Board) -> None:
        self.tape.calls.append(("learn", Frame.of(image), board))
        self.reader.learn(image, board)

    def forget_unproven(self) -> None:
        self.tape.calls.append(("forget_unproven",))
        self.reader.forget_unproven()

    def zeros_alone(self, cells: frozenset[int]) -> None:
        self.tape.calls.append(("zeros_alone", sorted(cells)))
        self.reader.zeros_alone(cells)


@dataclass
class RenderedScreen(SimScreen):
    """A SimScreen drawn with a built-in theme's recorded tiles (as the dry run draws)."""

    renderer: Renderer | None = None

    def draw(self) -> Image:
        assert self.renderer is not None
        r = self.renderer
        board = self.game.board
        if r.missing(board):
            # sgt-mines' recordings hold no mine tile: a lost board's mines drawn
            # as the one that went off
            cells = tuple(EXPLODED if s == MINE else s for s in board.cells)
            board = Board(board.width, board.height, board.mines, cells)
        crop = r.render(board)
        # room around the board for the pointer to rest on
        h, w = r.top + crop.shape[0] + 60, r.left + crop.shape[1] + 60
        img = np.full((h, w, 3), 30, dtype=np.uint8)
        img[r.top : r.top + crop.shape[0], r.left : r.left + crop.shape[1]] = crop
        return img


def _play(screen: SimScreen, reader: Any, clock: FakeClock, games: int) -> None:
    from msolver.io.hotkeys import FakeHotkeys
    from msolver.play.loop import Player, Settings
    from msolver.play.target import NewGame

    settings = Settings(redraw_timeout=0.3, settle=0.0, confirm=0.6, new_game_timeout=1.0)
    left = games
    while left > 0:
        player = Player(
            reader,
            screen.capture(),
            screen.mouse(),
            FakeHotkeys(started=True),
            new_game=NewGame.parse("n"),
            settings=replace(settings, games=left),
            clock=clock,
        )
        out = player.run()
        if out.stopped is not None:
            print(f"  (stopped: {out.stopped})")
        left -= len(out.games) + (1 if out.stopped is not None else 0)
        if out.stopped is not None and screen.new_game is not None:
            screen.game = screen.new_game()


def builtin_tape(name: str, seed: int, games: int = 3) -> Tape:
    """Expert games of built-in theme `name`, read as the player reads it."""
    base = load_profile(name)
    renderer = Renderer(base, base.rows, base.cols)
    profile = renderer.profile
    seeds = itertools.count(seed)

    def next_game() -> Game:
        return Game(
            profile.cols, profile.rows, profile.mines, seed=next(seeds), first_click="opening"
        )

    screen = RenderedScreen(game=next_game(), grid=profile.grid, renderer=renderer)
    screen.new_game = next_game
    clock = FakeClock()
    tape = Tape(profile)
    _play(screen, TapingReader(new_reader(profile, clock), tape, clock), clock, games)
    return tape


def custom_tapes(
    pitch: int, palette: int, learn_games: int, games: int = 1
) -> tuple[Tape, Tape | None]:
    """An unseen theme at `pitch`: the tape of the `learn_games` games a fresh custom
    profile learns in and of `games` more read by the same reader (from read
    `mark` on), and that of `games` games read with the profile it learned (None
    if `learned_profile` kept none)."""
    theme = Theme.random(palette)
    seeds = itertools.count(10_000 * palette)

    def next_game() -> Game:
        return Game(30, 16, 99, seed=next(seeds), first_click="opening")

    screen = _themed(next(seeds), theme, pitch)
    screen.new_game = next_game
    fresh = blank_profile(screen)
    clock = FakeClock()
    learning = Tape(fresh)
    reader = new_reader(fresh, clock)
    _play(screen, TapingReader(reader, learning, clock), clock, learn_games)
    learned_profile = reader.learned_profile()
    learning.mark = learning.reads
    screen.game = next_game()
    _play(screen, TapingReader(reader, learning, clock), clock, games)
    if learned_profile is None:
        return learning, None
    learned_profile = Profile.from_json(learned_profile.to_json())
    clock = FakeClock()
    tape = Tape(learned_profile)
    screen.game = next_game()
    again = new_reader(learned_profile, clock)
    _play(screen, TapingReader(again, tape, clock), clock, games)
    return learning, tape


def _themed(seed: int, theme: Theme, pitch: int) -> ThemedScreen:
    from msolver.vision.geometry import Grid

    grid = Grid(origin=(30.0, 40.0), pitch=(float(pitch), float(pitch)), rows=16, cols=30)
    game = Game(30, 16, 99, seed=seed, first_click="opening")
    size = (int(60 + 30 * pitch), int(80 + 16 * pitch))
    return ThemedScreen(game=game, grid=grid, theme=theme, size=size)


def new_reader(profile: Profile, clock: FakeClock) -> Any:
    """The reader the player makes for `profile` (`play.readers.reader_for`), on `clock`."""
    if profile.theme == "custom" or "1" not in profile.tiles:
        return LearningReader(profile, clock=clock)
    return LearningReader(profile, base=VisionReader(profile), clock=clock)


def replay(
    tape: Tape, make: Callable[[Profile, FakeClock], Any] = new_reader
) -> tuple[list[Reading], list[float]]:
    """Every call of `tape` on a new reader (`make`): the readings, and each read's
    CPU seconds."""
    clock = FakeClock()
    reader = make(tape.profile, clock)
    readings: list[Reading] = []
    seconds: list[float] = []
    for call in tape.calls:
        if call[0] == "read":
            image = call[1].image()
            clock.now = call[2]  # the time the player read it at
            start = time.process_time()
            readings.append(reader.read(image))
            seconds.append(time.process_time() - start)
        elif call[0] == "sent":
            reader.sent(*call[1:])
        elif call[0] == "learn":
            reader.learn(call[1].image(), call[2])
        elif call[0] == "zeros_alone":
            reader.zeros_alone(frozenset(call[1]))
        else:
            reader.forget_unproven()
    return readings, seconds


def reading_key(r: Reading) -> tuple[Any, ...]:
    """Everything a reading says, to compare two reads of one frame."""
    return (
        r.board.cells,
        tuple(r.low_confidence),
        r.problem,
        tuple(a.cells for a in r.alternatives),
        tuple(sorted(r.unsure)),
    )


def _classifier(profile: Profile, clock: FakeClock) -> VisionReader:
    return VisionReader(profile)


def _times(
    tape: Tape, repeat: int, make: Callable[[Profile, FakeClock], Any] = new_reader
) -> list[float]:
    # The fastest of a few replays per frame: the machine is shared.
    runs = [replay(tape, make)[1] for _ in range(repeat)]
    return [min(t) for t in zip(*runs, strict=True)]


def _line(what: str, size: str, seconds: list[float]) -> str:
    ms = [1000 * s for s in seconds]
    return (
        f"{what:<34} {size:>10} {len(ms):>6} frames  median {statistics.median(ms):6.2f} ms  "
        f"mean {statistics.fmean(ms):6.2f} ms"
    )


def first_read(tape: Tape) -> str:
    """How a new reader on the tape's profile reads the tape's first frame (a blank
    board): "exact" when every cell is read unopened and sure."""
    frame, now = next((c[1], c[2]) for c in tape.calls if c[0] == "read")
    reading = new_reader(tape.profile, FakeClock(now)).read(frame.image())
    wrong = sum(1 for s in reading.board.cells if s != UNKNOWN)
    if reading.problem or reading.low_confidence or wrong:
        unsure = len(reading.low_confidence)
        return f"NOT exact ({wrong} read opened, {unsure} unsure: {reading.problem or '-'})"
    return "exact"


def _ratio(custom: list[float], built: list[float]) -> float:
    return statistics.median(custom) / statistics.median(built)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games timed per reader")
    ap.add_argument("--learn-games", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--palettes",
        type=int,
        default=0,
        help="time this many unseen themes per size (default: up to the first one kept)",
    )
    args = ap.parse_args()
    print(f"{'reader':<34} {'cells':>10} {'':>6}         per frame, CPU time")
    for k, name in enumerate(BUILTINS):
        tape = builtin_tape(name, args.seed, args.games)
        p = tape.profile
        size = f"{p.cols}x{p.rows}@{round(p.pitch[0])}"
        built = _times(tape, args.repeat)
        print(_line(f"built-in {name}", size, built), flush=True)
        classifier = Tape(p, [c for c in tape.calls if c[0] == "read"])
        alone = _times(classifier, args.repeat, _classifier)
        print(_line("  its classifier alone", size, alone), flush=True)
        # A palette whose learned profile is kept (learned_profile may refuse one).
        for palette in range(args.seed + 10 * k, args.seed + 10 * k + (args.palettes or 4)):
            learning, learned = custom_tapes(
                round(p.pitch[0]), palette, args.learn_games, args.games
            )
            every = _times(learning, args.repeat)
            first, later = every[: learning.mark], every[learning.mark :]
            print(_line(f"custom {palette}, learning games", size, first), flush=True)
            print(_line(f"custom {palette}, the games after", size, later), flush=True)
            print(f"  custom / built-in, median: {_ratio(later, built):.2f}x", flush=True)
            if learned is None:
                print(f"{f'custom {palette}, saved profile':<34} {size:>10}  (refused)")
                continue
            custom = _times(learned, args.repeat)
            print(_line(f"custom {palette}, saved profile", size, custom), flush=True)
            print(f"  custom / built-in, median: {_ratio(custom, built):.2f}x", flush=True)
            print(f"  its first read (the next game's blank board): {first_read(learned)}")
            if not args.palettes:
                break


if __name__ == "__main__":
    main()
