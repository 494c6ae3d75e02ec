"""Reading and learning a theme never seen, safely: the failure stories of issue 10.

Boards are drawn in numpy from random palettes (tests.support.themes): a
gradient behind the tiles, a vignette, textured tiles, edge cells a shade
lighter than the rest, small digits in big cells.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
import pytest

from msolver.core.board import EXPLODED, FLAG, UNKNOWN, Board
from msolver.core.clock import FakeClock
from msolver.core.game import Game
from msolver.io.hotkeys import FakeHotkeys
from msolver.play.loop import Player, Settings
from msolver.vision.learning_reader import (
    LearningReader,
    blank_reads_blank,
    content,
    explained,
    reads_blank,
)
from msolver.vision.profile import Profile, ProfileError, cell_patches
from msolver.vision.reading import Reading
from tests.support.themes import (
    Tally,
    Theme,
    ThemedScreen,
    blank_profile,
    play_checked,
    themed_sim,
)

FAST = Settings(redraw_timeout=0.3, settle=0.0, confirm=0.6, new_game_timeout=1.0)


def grab(screen: ThemedScreen) -> np.ndarray:
    left, top, w, h = screen.grid.rect()
    return screen.draw()[top : top + h, left : left + w]


def showing(screen: ThemedScreen, cells: list[int]) -> ThemedScreen:
    """The same screen drawing a fixed board (any states, anywhere)."""
    g = screen.grid
    board = Board(g.cols, g.rows, 99, tuple(cells))
    return replace(screen, game=SimpleNamespace(board=board, mines=99), _tiles={})  # type: ignore[arg-type]


@pytest.mark.parametrize("palette", [1, 2, 3])
def test_a_blank_board_with_shaded_edges_and_a_gradient_reads_all_unopened(palette: int) -> None:
    screen = themed_sim(palette, Theme.random(palette))
    reading = LearningReader(blank_profile(screen)).read(grab(screen))
    assert not reading.problem and not reading.low_confidence
    assert all(s == UNKNOWN for s in reading.board.cells)


def test_an_old_profile_on_shaded_edge_cells_stops_before_any_click() -> None:
    # The old calibration kept one unopened tile, from an inner cell: the lighter
    # edge cells do not match it, and they must not be named as numbers.
    screen = themed_sim(4, Theme.random(4))
    full = blank_profile(screen)
    g = screen.grid
    x, y, w = round(g.origin[0] + 5 * g.pitch[0]), round(g.origin[1] + 5 * g.pitch[1]), 36
    inner = np.ascontiguousarray(screen.draw()[y : y + w, x : x + w])
    old = full.with_changes(blank=None, tiles={"unknown": (inner,)})
    clock = FakeClock()
    reader = LearningReader(old, clock=clock)
    reading = reader.read(grab(screen))
    assert "before any click" in reading.problem
    edge = {i for i in range(g.rows * g.cols) if i % 30 in (0, 29) or i // 30 in (0, 15)}
    assert edge <= set(reading.low_confidence)
    said: list[str] = []
    out = Player(
        reader,
        screen.capture(),
        screen.mouse(),
        FakeHotkeys(started=True),
        settings=FAST,
        say=said.append,
        clock=clock,
    ).run()
    assert out.stopped is not None and "unplayed board" in out.stopped
    assert screen.clicks == [] and reader.learned == []


def test_small_digits_in_big_cells_separate_by_their_glyph() -> None:
    # One ink for every digit, drawn small in 48 px cells: only shapes tell them apart.
    theme = replace(Theme.random(5, one_ink=True), digit_scale=0.35)
    screen = themed_sim(5, theme, pitch=48.0)
    g = screen.grid
    n = g.rows * g.cols
    states = [(i * 7) % 9 for i in range(n)]  # every number 0-8 all over the board
    image = grab(showing(screen, states))
    left, top, _, _ = g.rect()
    cells: dict[int, list[object]] = {}
    for i, s in enumerate(states):
        r, c = divmod(i, g.cols)
        x, y = round(g.origin[0] + c * 48) - left, round(g.origin[1] + r * 48) - top
        cells.setdefault(s, []).append(content(image[y : y + 48, x : x + 48]))
    assert all(c.ink is None for c in cells[0])  # type: ignore[attr-defined]
    assert all(c.ink is not None for s in range(1, 9) for c in cells[s])  # type: ignore[attr-defined]
    for s, found in cells.items():
        ref = found[0]
        # One number, across the gradient, the vignette and the face texture: one look.
        assert max(ref.distance(c) for c in found) <= 1.0  # type: ignore[attr-defined]
        for t in range(s + 1, 9):
            # Two numbers: well apart (1 vs 2, 0 vs 2 included).
            assert min(ref.distance(c) for c in cells[t]) > 1.5  # type: ignore[attr-defined]


def _opened_by_one_click(seed: int) -> tuple[Game, int]:
    game = Game(30, 16, 99, seed=seed, first_click="opening")
    start = 7 * 30 + 15
    game.open(start)
    return game, start


class _Opened(NamedTuple):
    screen: ThemedScreen
    clock: FakeClock
    reader: LearningReader
    game: Game
    start: int
    frame: np.ndarray
    reading: Reading


def _read_an_opening(seed: int, theme: Theme | None = None) -> _Opened:
    """A random theme's blank board read, one click's opening shown and read
    twice a second apart (the first read waits for the frame to hold still)."""
    screen = themed_sim(seed, theme or Theme.random(seed))
    clock = FakeClock(0.0)
    reader = LearningReader(blank_profile(screen), clock=clock)
    reader.read(grab(screen))
    game, start = _opened_by_one_click(seed)
    reader.sent(frozenset(), frozenset({start}), frozenset({start}))
    frame = grab(showing(screen, list(game.board.cells)))
    reader.read(frame)
    clock.now += 1.0
    return _Opened(screen, clock, reader, game, start, frame, reader.read(frame))


def test_a_change_where_we_did_not_click_is_unread_and_never_named() -> None:
    theme = Theme.random(6)
    screen = themed_sim(6, theme)
    clock = FakeClock(0.0)
    reader = LearningReader(blank_profile(screen), clock=clock)
    assert not reader.read(grab(screen)).low_confidence
    game, start = _opened_by_one_click(6)
    cells = list(game.board.cells)
    # A cell far from the opening shows a number we never clicked.
    far = next(i for i in (0, 29, 450, 479) if cells[i] == UNKNOWN)
    cells[far] = 2
    frame = grab(showing(screen, cells))
    reader.sent(frozenset(), frozenset({start}), frozenset({start}))
    for k in range(4):
        reading = reader.read(frame)
        clock.now += 1.0
        assert far in reading.low_confidence and reading.problem
        if k:  # (the first read waits for the frame to hold still)
            assert "where we did not click" in reading.problem
    assert reader.learned == [] and all(look.state is None for look in reader.looks)
    # The same opening without the stray cell is learned from the rules.
    clean = grab(showing(screen, list(game.board.cells)))
    reader.read(clean)
    clock.now += 1.0
    reading = reader.read(clean)
    assert not reading.low_confidence, reading.problem
    assert reading.board == game.board


def test_a_ripple_on_an_opened_cell_is_read_again_not_learned() -> None:
    o = _read_an_opening(7)
    screen, clock, reader, game, frame, reading = (
        o.screen,
        o.clock,
        o.reader,
        o.game,
        o.frame,
        o.reading,
    )
    assert reading.board == game.board
    looks = len(reader.looks)
    # A click ripple lightens one opened cell for a moment.
    g = screen.grid
    zero = next(i for i, s in enumerate(game.board.cells) if s == 0)
    r, c = divmod(zero, g.cols)
    left, top, _, _ = g.rect()
    x, y = round(g.origin[0] + c * 36) - left, round(g.origin[1] + r * 36) - top
    ripple = frame.copy()
    ripple[y + 6 : y + 30, x + 6 : x + 30] = np.clip(
        ripple[y + 6 : y + 30, x + 6 : x + 30].astype(int) + 40, 0, 255
    )
    for _ in range(3):
        reading = reader.read(ripple)
        clock.now += 1.0
        assert reading.problem and zero in reading.low_confidence
    assert len(reader.looks) == looks
    assert reader.read(frame).board == game.board


def test_learned_tiles_are_kept_only_once_a_finished_board_proves_them() -> None:
    o = _read_an_opening(8)
    screen, reader, game, frame = o.screen, o.reader, o.game, o.frame
    assert reader.learned and reader.learned_profile() is None  # named, not proven
    # A won board, completed by the rules: the looks it shows are proven.
    mines = game.layout
    won = [
        s if s != UNKNOWN or i in mines else sum(1 for j in game.board.neighbours(i) if j in mines)
        for i, s in enumerate(game.board.cells)
    ]
    final = Board(30, 16, 99, tuple(won))
    assert explained(final)
    reader.learn(frame, final)
    kept = reader.learned_profile()
    assert kept is not None and set(reader.proven) <= set(kept.tiles)
    again = Profile.from_json(json.loads(json.dumps(kept.to_json())))
    assert blank_reads_blank(again) and reads_blank(again, grab(screen))
    # A profile that would read the blank board as anything else is refused.
    reader._blank_frame = frame  # the refusal path, on purpose
    assert not reads_blank(kept, frame) and reader.learned_profile() is None


def test_the_blank_looks_travel_in_the_profile_and_old_profiles_still_load() -> None:
    screen = themed_sim(9, Theme.random(9))
    prof = blank_profile(screen)
    data = json.loads(json.dumps(prof.to_json()))
    back = Profile.from_json(data)
    assert back.blank is not None and np.array_equal(back.blank, prof.blank)
    old = dict(data)
    del old["blank"]
    assert Profile.from_json(old).blank is None
    cut = dict(data, blank=dict(data["blank"], cells=3))
    with pytest.raises(ProfileError, match="blank"):
        Profile.from_json(cut)


def test_calibration_keeps_every_cells_blank_look_and_play_reads_it() -> None:
    from msolver.vision.grid import calibrate

    theme = replace(Theme.random(10), texture=0)  # the lattice finder needs flat tiles
    seeds = itertools.count(500)
    screen = themed_sim(next(seeds), theme)
    prof = calibrate(screen.draw(), mines=99)
    assert prof.theme == "custom" and prof.blank is not None
    assert prof.blank.shape == (480, 8, 8, 3)
    tally = Tally()
    clock = FakeClock()
    reader = LearningReader(prof, clock=clock)
    play_checked(
        screen,
        reader,
        2,
        lambda: Game(30, 16, 99, seed=next(seeds), first_click="opening"),
        tally,
        FAST,
        clock,
    )
    assert tally.misread == 0 and tally.misread_clicks == 0 and tally.certain_losses == 0
    assert tally.games == 2 and not tally.stops, tally.stops


def _play_fresh(theme: Theme, seeds: Iterator[int], games: int, **sim: object) -> Tally:
    """Expert games in `theme`, from a profile of its blank board alone, every read
    checked against the game; `sim`: the screen's rules (`SimScreen` fields)."""
    screen = themed_sim(next(seeds), theme)
    for name, value in sim.items():
        setattr(screen, name, value)
    clock = FakeClock()
    reader = LearningReader(blank_profile(screen), clock=clock)
    tally = Tally()
    play_checked(
        screen,
        reader,
        games,
        lambda: Game(30, 16, 99, seed=next(seeds), first_click="opening"),
        tally,
        FAST,
        clock,
    )
    return tally


@pytest.mark.parametrize("one_ink", [False, True])
def test_random_themes_play_whole_games_with_no_misread(one_ink: bool) -> None:
    palette = 11 if one_ink else 12
    tally = _play_fresh(Theme.random(palette, one_ink=one_ink), itertools.count(1000 * palette), 3)
    assert tally.reads > 20 and tally.clicks > 100
    assert tally.misread == 0 and tally.missed == 0
    assert tally.misread_clicks == 0 and tally.certain_losses == 0
    assert tally.games == 3 and not tally.stops, tally.stops


def test_after_a_certain_click_a_known_look_elsewhere_stops_at_once() -> None:
    o = _read_an_opening(13)
    screen, reader, game, reading = o.screen, o.reader, o.game, o.reading
    assert reading.board == game.board
    # A certain open of one cell; a number shows up far from it as well.
    cells = list(game.board.cells)
    safe = next(i for i, s in enumerate(cells) if s == UNKNOWN and i not in game.layout)
    far = next(
        i
        for i in (0, 29, 450, 479)
        if cells[i] == UNKNOWN and abs(i % 30 - safe % 30) > 2 and abs(i // 30 - safe // 30) > 2
    )
    number = next(s for s in cells if s > 0)
    cells[far] = number
    reader.sent(frozenset(), frozenset(), frozenset({safe}))
    reading = reader.read(grab(showing(screen, cells)))
    assert "where we did not click" in reading.problem and far in reading.low_confidence


def test_a_grid_a_few_pixels_off_still_reads_unopened_cells_beside_opened_ones() -> None:
    # Calibration can leave the origin 2-3 px into the next cell (an uneven
    # bevel): every patch then holds a sliver of its neighbour, which changes
    # when the neighbour opens. The unopened cell is still unopened.
    screen = themed_sim(9, Theme.random(9))
    exact = blank_profile(screen)
    origin = (exact.origin[0] + 3.0, exact.origin[1] + 3.0)
    g = exact.grid
    # Calibration cuts the blank looks where it put the grid.
    blank = cell_patches(screen.draw(), origin, g.pitch, g.rows, g.cols)
    off = exact.with_changes(origin=origin, blank=blank)
    clock = FakeClock(0.0)
    reader = LearningReader(off, clock=clock)
    left, top, w, h = off.grid.rect()

    def shot(s: ThemedScreen) -> np.ndarray:
        return s.draw()[top : top + h, left : left + w]

    fresh = reader.read(shot(screen))
    assert not fresh.problem and all(c == UNKNOWN for c in fresh.board.cells)
    game, start = _opened_by_one_click(9)
    reader.sent(frozenset(), frozenset({start}), frozenset({start}))
    frame = shot(showing(screen, list(game.board.cells)))
    reader.read(frame)
    clock.now += 1.0
    reading = reader.read(frame)
    assert not reading.problem and not reading.low_confidence, reading.problem
    assert reading.board == game.board


class _SeesOnlyUnopened:
    """A built-in theme's reader that only looks like the game's: it reads every
    cell unopened, sure of it (opened cells of a low-contrast palette)."""

    def __init__(self, profile: Profile) -> None:
        self.grid = profile.grid
        self.mines = profile.mines
        self._blank = Board.blank(profile.cols, profile.rows, profile.mines)

    def read(self, image: np.ndarray) -> Reading:
        return Reading(self._blank)

    def sent(self, *args: object) -> None:
        return None

    def learn(self, image: np.ndarray, board: Board) -> None:
        return None

    def forget_unproven(self) -> None:
        return None

    def zeros_alone(self, cells: frozenset[int]) -> None:
        return None


def test_a_built_in_theme_that_reads_opened_cells_unopened_is_dropped_for_the_rules() -> None:
    screen = themed_sim(10, Theme.random(10))
    custom = blank_profile(screen)
    # Named as a built-in theme: number tiles of another game, no blank looks.
    other = themed_sim(11, Theme.random(11))
    bogus = {str(k): (np.ascontiguousarray(grab(other)[:36, :36]),) for k in range(9)}
    profile = custom.with_changes(
        theme="lookalike", blank=None, tiles={"unknown": custom.tiles["unknown"], **bogus}
    )
    clock = FakeClock(0.0)
    reader = LearningReader(profile, base=_SeesOnlyUnopened(profile), clock=clock)
    assert not reader.read(grab(screen)).low_confidence
    game, start = _opened_by_one_click(10)
    reader.sent(frozenset(), frozenset({start}), frozenset({start}))
    frame = grab(showing(screen, list(game.board.cells)))
    first = reader.read(frame)
    # Not read as untouched: the cells that changed are doubted, not taken as unopened.
    assert first.problem and start in first.low_confidence
    clock.now += 1.0
    reading = reader.read(frame)
    assert not reading.problem and not reading.low_confidence, reading.problem
    assert reading.board == game.board


@pytest.mark.parametrize("alpha", [0.25, 0.06])
def test_a_faint_preview_on_an_unopened_cell_is_read_again_not_taken_for_a_0(
    alpha: float,
) -> None:
    # A Windows-classic look (as minesweeper-for-web draws it): a cell opens by
    # losing its bevel, the face keeps its grey. With the flag key held, the
    # game draws a 25% flag over the cell under the pointer; that faint ink is
    # below the ink threshold (INK), though over a faint digit's (INK_FAINT): a
    # new look with ink. At 6% it is below both, so by its content (which
    # leaves out the rim) the cell is a plain grey face: a 0. Its bevel says it
    # is still unopened either way.
    grey = (189, 189, 189)
    theme = replace(
        Theme.random(11),
        unopened=grey,
        opened=grey,
        flag=(255, 0, 0),
        texture=1,
        face_texture=1,
        edge_shade=0,
    )
    screen = themed_sim(11, theme)
    clock = FakeClock(0.0)
    reader = LearningReader(blank_profile(screen), clock=clock)
    assert not reader.read(grab(screen)).problem
    game, start = _opened_by_one_click(11)
    reader.sent(frozenset(), frozenset({start}), frozenset({start}))
    frame = grab(showing(screen, list(game.board.cells)))
    reader.read(frame)
    clock.now += 1.0
    reading = reader.read(frame)
    assert reading.board == game.board and not reading.problem, reading.problem
    g = screen.grid
    cols = g.cols
    edge = next(
        i
        for i, s in enumerate(game.board.cells)
        if s == UNKNOWN and any(game.board.cells[j] >= 0 for j in game.board.neighbours(i))
    )
    r, c = divmod(edge, cols)
    left, top, _, _ = g.rect()
    x = round(g.origin[0] + c * g.pitch[0]) + theme.gap // 2 - left
    y = round(g.origin[1] + r * g.pitch[1]) + theme.gap // 2 - top
    flag = screen._tile(edge, FLAG).astype(np.float32)
    th, tw = flag.shape[:2]
    faint = frame.copy()
    under = faint[y : y + th, x : x + tw].astype(np.float32)
    faint[y : y + th, x : x + tw] = np.rint((1 - alpha) * under + alpha * flag).astype(np.uint8)
    # By content alone: a look with faint ink at 25%, a 0 at 6%.
    zero = next(i for i, s in enumerate(game.board.cells) if s == 0)
    r0, c0 = divmod(zero, cols)
    x0 = round(g.origin[0] + c0 * g.pitch[0]) - left
    y0 = round(g.origin[1] + r0 * g.pitch[1]) - top
    w, h = round(g.pitch[0]), round(g.pitch[1])
    x1 = round(g.origin[0] + c * g.pitch[0]) - left
    y1 = round(g.origin[1] + r * g.pitch[1]) - top
    seen = content(faint[y1 : y1 + h, x1 : x1 + w])
    if alpha < 0.1:
        assert seen.distance(content(frame[y0 : y0 + h, x0 : x0 + w])) <= 1.0
    else:
        assert seen.ink is not None
    reader.sent(frozenset({edge}), frozenset(), frozenset())
    if alpha < 0.1:
        # the whole patch is its unopened look's, but for 11 levels
        reading = reader.read(faint)
        assert not reading.problem and reading.board == game.board, reading.problem
        return
    for _ in range(12):
        reading = reader.read(faint)
        clock.now += 0.1
        # unread on that cell alone, however long it holds (never named)
        assert reading.problem and edge in reading.low_confidence
        assert reading.board.cells[edge] == UNKNOWN
        # Said to be a passing look, on that cell alone: the player waits for
        # it longer when it is a cell it just clicked.
        assert reading.passing == {edge}
    # The preview goes: the board reads as it is, with no "changed look" stop.
    reading = reader.read(frame)
    assert not reading.problem and reading.board == game.board, reading.problem


def test_a_pressed_cell_drawn_as_a_0_then_opened_as_a_number_is_no_changed_look() -> None:
    # minegauler (Qt) draws a cell sunken while the button is down: the opened
    # 0's look. A grab between press and release reads it as a 0 that borders
    # unopened cells (a board no game shows; the player refuses to act on it),
    # and the release then opens it as a number. That 0 was never evidence of
    # an opened cell, so the number is read, not a "changed look" stop.
    theme = Theme.random(3)
    screen = themed_sim(3, theme)
    clock = FakeClock(0.0)
    reader = LearningReader(blank_profile(screen), clock=clock)
    assert not reader.read(grab(screen)).problem
    game, start = _opened_by_one_click(3)
    reader.sent(frozenset(), frozenset({start}), frozenset({start}))
    frame = grab(showing(screen, list(game.board.cells)))
    for _ in range(20):
        reading = reader.read(frame)
        clock.now += 0.3
        if not reading.problem and not reading.alternatives:
            break
    assert reading.board == game.board and not reading.problem, reading.problem
    cells = game.board.cells
    target = next(
        i
        for i, s in enumerate(cells)
        if s == UNKNOWN
        and not game.is_mine(i)
        and any(cells[j] >= 0 for j in game.board.neighbours(i))
        and 0 in set(reading.board.cells)
    )
    pressed = list(cells)
    pressed[target] = 0
    reader.sent(frozenset({target}), frozenset(), frozenset())
    first = reader.read(grab(showing(screen, pressed)))
    assert first.board.cells[target] == 0 and not first.problem, first.problem
    game.open(target)
    after = reader.read(grab(showing(screen, list(game.board.cells))))
    assert not after.problem, after.problem
    assert after.board == game.board
    # A cell whose every neighbour is opened or flagged: drawn sunken it is a 0
    # beside a flag, which no game shows either.
    board = game.board

    def count(j: int) -> int:
        return sum(game.is_mine(k) for k in board.neighbours(j))

    enclosed = next(
        t
        for t, s in enumerate(board.cells)
        if s == UNKNOWN
        and not game.is_mine(t)
        and all(count(j) > 0 for j in board.neighbours(t) if not game.is_mine(j))
    )
    nbrs = list(board.neighbours(enclosed))
    mines = frozenset(j for j in nbrs if game.is_mine(j))
    safe = [j for j in nbrs if j not in mines and board.cells[j] == UNKNOWN]
    for j in safe:
        game.open(j)
    reader.sent(mines, frozenset(), frozenset(safe))
    shown = [FLAG if j in mines else s for j, s in enumerate(game.board.cells)]
    for _ in range(20):
        flagged = reader.read(grab(showing(screen, shown)))
        clock.now += 0.3
        if not flagged.problem and not flagged.alternatives:
            break
    assert flagged.board.cells == tuple(shown), flagged.problem
    assert shown[enclosed] == UNKNOWN and all(shown[j] != UNKNOWN for j in nbrs)
    pressed = list(shown)
    pressed[enclosed] = 0
    reader.sent(frozenset(), frozenset(), frozenset({enclosed}))
    assert reader.read(grab(showing(screen, pressed))).board.cells[enclosed] == 0
    game.open(enclosed)
    shown[enclosed] = game.board.cells[enclosed]
    assert shown[enclosed] > 0
    after = reader.read(grab(showing(screen, shown)))
    assert not after.problem and after.board.cells == tuple(shown), after.problem
    # A cell that truly opened still may not change its look.
    moved = list(game.board.cells)
    moved[start] = 8 if moved[start] != 8 else 7
    changed = reader.read(grab(showing(screen, moved)))
    assert changed.problem.startswith("opened cells changed their look (")
    assert start in changed.low_confidence


def _flag_ours(o: _Opened, cells: list[int], i: int) -> None:
    """Right-click cell i on screen; the reader names the flag's look from the rules."""
    cells[i] = FLAG
    o.reader.sent(frozenset({i}), frozenset(), frozenset())
    frame = grab(showing(o.screen, cells))
    o.reader.read(frame)
    o.clock.now += 1.0
    assert o.reader.read(frame).board.cells[i] == FLAG


def test_a_guessed_cell_drawn_in_the_flag_look_is_the_mine_that_went_off() -> None:
    # gnome-mines draws the mine a guess hit on the unopened face first, which
    # matches the flag's look; a flag there was never ours, so it is a loss.
    o = _read_an_opening(12)
    assert not o.reading.low_confidence, o.reading.problem
    cells = list(o.game.board.cells)
    mine = next(i for i in range(len(cells)) if cells[i] == UNKNOWN and o.game.is_mine(i))
    flag = next(
        i for i in range(len(cells)) if cells[i] == UNKNOWN and o.game.is_mine(i) and i != mine
    )
    # Our flag, named from the rules first.
    _flag_ours(o, cells, flag)
    # The guess on a mine, drawn as the flag is drawn.
    o.reader.sent(frozenset(), frozenset({mine}), frozenset({mine}))
    cells[mine] = FLAG
    reading = o.reader.read(grab(showing(o.screen, cells)))
    assert reading.board.cells[mine] == EXPLODED
    assert reading.board.outcome() == "lost"


@pytest.mark.parametrize(
    ("last_guessed", "flag_first"), [(False, True), (True, True), (False, False)]
)
def test_a_won_game_that_flags_the_mines_left_reads_won(
    last_guessed: bool, flag_first: bool
) -> None:
    # sgt-mines flags every mine left when the last safe cell opens: flags
    # appear where we never clicked, on a board with no unopened cell left
    # and as many flags as mines. That is the game's own win, not a change
    # nobody explains, and (after a guess) not mines shown by a loss. Our
    # first flag may be sent in that last batch too: the flag is then a new
    # look on our flag and on the game's.
    # (Flat tiles: every flag drawn alike, as sgt-mines draws them.)
    flat = replace(Theme.random(13), texture=0, edge_shade=0, vignette=0.0)
    o = _read_an_opening(13, flat)
    assert not o.reading.low_confidence, o.reading.problem
    cells = list(o.game.board.cells)
    mines = [i for i in range(len(cells)) if o.game.is_mine(i)]
    if flag_first:
        _flag_ours(o, cells, mines[0])
    # The last batch opens every safe cell left (one of them on a guess).
    safe_left = frozenset(
        i for i in range(len(cells)) if cells[i] == UNKNOWN and not o.game.is_mine(i)
    )
    truth = Game(30, 16, 99, layout=frozenset(mines))
    for i in range(len(cells)):
        if not truth.is_mine(i):
            truth.open(i)
    won = [FLAG if s == UNKNOWN else s for s in truth.board.cells]
    guessed = frozenset({min(safe_left)}) if last_guessed else frozenset()
    o.reader.sent(frozenset() if flag_first else frozenset({mines[0]}), guessed, safe_left)
    frame = grab(showing(o.screen, won))
    reading = o.reader.read(frame)
    o.clock.now += 1.0
    reading = o.reader.read(frame)
    assert not reading.low_confidence, reading.problem
    assert reading.board.outcome() == "won"
    assert all(reading.board.cells[i] == FLAG for i in mines)


def test_our_first_flag_on_a_won_frame_after_a_guess_that_shows_a_new_number() -> None:
    # "a new look covers flags and other cells" (sgt-mines, digits of one
    # colour, a 9x9 board, before fb036c5): the batch that won the game sent
    # our first flag and a guess, and the guessed cell showed a number no look
    # showed yet, so it might have been the mine that went off and the game's
    # own flags were no change nobody explains (each borders a cell the
    # batch opened, as on a small board). The flag was then one new look on
    # our flag and on the game's: a won board, read won.
    flat = replace(Theme.random(13), texture=0, edge_shade=0, vignette=0.0)
    o = _read_an_opening(13, flat)
    assert not o.reading.low_confidence, o.reading.problem
    cells = list(o.game.board.cells)
    mines = [i for i in range(len(cells)) if o.game.is_mine(i)]
    truth = Game(30, 16, 99, layout=frozenset(mines))
    for i in range(len(cells)):
        if not truth.is_mine(i):
            truth.open(i)
    won = [FLAG if s == UNKNOWN else s for s in truth.board.cells]
    seen = {s for s in o.reading.board.cells if s >= 0}
    guess = next(i for i, s in enumerate(cells) if s == UNKNOWN and won[i] not in seen | {FLAG})
    every_safe = frozenset(i for i in range(len(cells)) if not o.game.is_mine(i))
    o.reader.sent(frozenset({mines[0]}), frozenset({guess}), every_safe)
    frame = grab(showing(o.screen, won))
    o.reader.read(frame)
    o.clock.now += 1.0
    reading = o.reader.read(frame)
    assert not reading.low_confidence, reading.problem
    assert reading.board.outcome() == "won"
    assert all(reading.board.cells[i] == FLAG for i in mines)


def test_a_chords_lone_zero_beside_a_new_look_is_judged_not_stopped_on() -> None:
    # react-minesweeper's chord opens a 0 without opening the 0's neighbours.
    # Where that came in the same batch as the game's first 6, the reader left
    # the frame unread ("a 0 beside unopened cells: the game is still
    # drawing", which may be a glyph fading in) and play stopped: the player,
    # which judges such 0s, never saw them. Now the reader says which 0s left
    # the frame unread, and is told when the player takes them as the game's.
    tally = _play_fresh(Theme.random(20), itertools.count(20_000), 3, chord_floods=False)
    assert not tally.stops, tally.stops
    assert tally.games == 3
    assert tally.misread == 0 and tally.misread_clicks == 0 and tally.certain_losses == 0
