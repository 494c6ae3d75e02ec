"""The game's end seen on a face or counter above the board (the band the
profile keeps from calibration), only where the board alone cannot tell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msolver.core.board import EXPLODED, MINE, WRONG_FLAG, neighbours_table
from msolver.core.clock import FakeClock
from msolver.core.game import Game, Status
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import Button
from msolver.play.loop import Player, Settings
from msolver.shell.log import EventLog
from msolver.vision.geometry import Grid
from msolver.vision.strip import Strip, strip_above
from tests.support.live import SimReader, SimScreen

FACE = (110, 20, 150, 50)
TIMER = (50, 20, 80, 50)


def _game(
    seed: int, *, face: bool = True, timer: bool = True, watch: bool = True, **kw: object
) -> tuple[SimScreen, Player, list[str]]:
    """A 9x9 game that shows a loss only in the mine that went off, in a look the
    reader never learned (read as unsure); a face and a timer above the board."""
    grid = Grid(origin=(40.0, 60.0), pitch=(20.0, 20.0), rows=9, cols=9)
    sim = SimScreen(
        game=Game(9, 9, 10, seed=seed, first_click="safe"),
        grid=grid,
        mines_on_loss=False,
        face=FACE if face else None,
        timer=TIMER if timer else None,
        **kw,  # type: ignore[arg-type]
    )
    strip: Strip | None = None
    if watch:
        strip = strip_above(sim.draw(), grid.rect(), grid.pitch[1], (0, 0))
        assert strip is not None
    said: list[str] = []
    player = Player(
        SimReader(grid, 10, unseen=frozenset({MINE, EXPLODED, WRONG_FLAG})),
        sim.capture(),
        sim.mouse(),
        FakeHotkeys(started=True),
        settings=Settings(
            games=1,
            redraw_timeout=0.3,
            settle=0.0,
            confirm=0.05,
            first_click="safe",
            strip_still=0.3,
        ),
        say=said.append,
        clock=FakeClock(),
        strip=strip,
    )
    return sim, player, said


# Seeds whose game is lost on a guess that cannot have been the last safe cell.
LOST = [3, 4, 27, 43]


@pytest.mark.parametrize("seed", LOST)
def test_a_loss_shown_only_on_the_face_is_logged_lost(seed: int) -> None:
    sim, player, said = _game(seed)
    outcome = player.run()
    assert sim.game.status is Status.LOST
    assert outcome.stopped is None, outcome.stopped
    assert [g.result for g in outcome.games] == ["lost"]
    assert any("above the board changed right after a guess" in m for m in said)


@pytest.mark.parametrize("seed", LOST[:2])
def test_without_the_band_the_same_loss_is_a_stop(seed: int) -> None:
    # The board alone: one cell in a look never seen, nothing else drawn.
    sim, player, _ = _game(seed, watch=False)
    outcome = player.run()
    assert sim.game.status is Status.LOST
    assert not outcome.games and outcome.stopped is not None


@pytest.mark.parametrize("seed", LOST[:2])
def test_a_timer_alone_is_no_end(seed: int) -> None:
    # No face: only the timer changes, which it did all game long (and it
    # stops as the game ends): the band says nothing, so this stays a stop.
    sim, player, _ = _game(seed, face=False)
    outcome = player.run()
    assert sim.game.status is Status.LOST
    assert not outcome.games and outcome.stopped is not None
    assert "low confidence" in outcome.stopped


def test_a_face_that_keeps_changing_is_no_end() -> None:
    # A face that never holds still (an animation) after the loss: no end from it.
    ticks = iter(range(10**6))

    def blinking(status: Status) -> tuple[int, int, int]:
        if status is Status.PLAYING:
            return (240, 220, 0)
        return (220, 30, 30) if next(ticks) % 2 else (30, 30, 220)

    sim, player, _ = _game(LOST[0], face_of=blinking)
    outcome = player.run()
    assert sim.game.status is Status.LOST
    assert not outcome.games and outcome.stopped is not None


@pytest.mark.parametrize("seed", [10, 13, 18, 21])
def test_the_face_never_overrules_the_board(seed: int) -> None:
    # A face that turns red on the first click, the game going on: every
    # game is played to the end the board shows, with the game's own result.
    clicked: list[bool] = []

    def face(status: Status) -> tuple[int, int, int]:
        return (220, 30, 30) if clicked else (240, 220, 0)

    sim, player, _ = _game(seed, face_of=face)
    sim.mines_on_loss = True  # the board shows a loss itself here
    inner = sim.on_click

    def on_click(x: int, y: int, button: Button) -> None:
        clicked.append(True)
        inner(x, y, button)

    sim.on_click = on_click  # type: ignore[method-assign]
    sim.mouse()
    player.mouse = sim._mouse  # type: ignore[assignment]
    player.reader = SimReader(sim.grid, 10)
    outcome = player.run()
    assert outcome.stopped is None, outcome.stopped
    assert [g.result for g in outcome.games] == [sim.game.status.value]


def test_a_last_guess_that_could_have_won_stays_a_stop_with_the_reason() -> None:
    # The last guess hits the mine and every other mine is flagged: the face
    # changes, as it would on a win, and the board does not show which.
    sim, player, _ = _game(54)
    outcome = player.run()
    assert sim.game.status is Status.LOST
    assert not outcome.games
    assert outcome.stopped is not None and "cannot be told" in outcome.stopped


def test_the_band_is_kept_in_the_profile_and_moves_with_the_board() -> None:
    import numpy as np

    from msolver.vision.profile import Profile

    sim, _, _ = _game(3)
    strip = strip_above(sim.draw(), sim.grid.rect(), sim.grid.pitch[1], (0, 0))
    assert strip is not None and strip.pixels.shape == (60, 180, 3)
    tiles = {"unknown": (np.full((20, 20, 3), 128, dtype=np.uint8),)}
    prof = Profile(name="t", theme="custom", grid=sim.grid, mines=10, tiles=tiles, strip=strip)
    back = Profile.from_json(prof.to_json())
    assert back.strip is not None
    assert np.array_equal(back.strip.pixels, strip.pixels)
    moved = back.moved_to((140.0, 160.0))
    assert moved.strip is not None
    assert moved.strip.rect(moved.grid.rect()) == (140, 100, 180, 60)
    # No room above a board at the image's top edge: no band, the profile as before.
    top = Grid(origin=(40.0, 2.0), pitch=(20.0, 20.0), rows=9, cols=9)
    assert strip_above(sim.draw(), top.rect(), 20.0, (0, 0)) is None
    assert "strip" not in Profile(name="t", theme="custom", grid=top, mines=10).to_json()


# Seeds whose losing guess opens nothing else and whose mine, read as the
# count of the mines around it, still fits the board as a number.
READ_AS_NUMBER = [3, 43, 89, 157]


def _misnamed(seed: int, *, watch: bool = True) -> tuple[SimScreen, Player, SimReader, list[int]]:
    """`_game`, its mine that went off read as a number through an unproven look
    (as a learning reader's rules named pygame-minesweeper's red mine a 4)."""
    sim, player, _ = _game(seed, watch=watch)
    nbrs = neighbours_table(9, 9)
    reader = SimReader(
        sim.grid, 10, exploded_as=lambda i: sum(sim.game.is_mine(j) for j in nbrs[i])
    )
    player.reader = reader
    late: list[int] = []  # clicks sent once the game was over
    inner = sim.on_click

    def on_click(x: int, y: int, button: Button) -> None:
        if sim.game.status is not Status.PLAYING:
            late.append(x)
        inner(x, y, button)

    sim.on_click = on_click  # type: ignore[method-assign]
    sim.mouse()
    player.mouse = sim._mouse  # type: ignore[assignment]
    return sim, player, reader, late


@pytest.mark.parametrize("seed", READ_AS_NUMBER)
def test_a_mine_read_as_a_number_on_the_guessed_cell_is_a_loss_seen_on_the_face(
    seed: int,
) -> None:
    sim, player, reader, late = _misnamed(seed)
    said: list[str] = []
    player.say = said.append
    outcome = player.run()
    assert sim.game.status is Status.LOST
    assert outcome.stopped is None, outcome.stopped
    assert [g.result for g in outcome.games] == ["lost"]
    # Not one click on the dead board, and the unproven names are dropped.
    assert late == []
    assert reader.forgotten == 1
    assert any("read as a number" in m for m in said)


def _lost_on_the_guess(
    sim: SimScreen, player: Player, reader: SimReader, tmp_path: Path
) -> list[str]:
    """Play the game out; it must end lost on its guess (event "lost_on"), never
    on the clicks the dead game ignored after it, with the unproven names
    dropped. What the player said."""
    said: list[str] = []
    player.say = said.append
    log = EventLog(tmp_path / "log.jsonl")
    player.log = log
    outcome = player.run()
    log.close()
    assert sim.game.status is Status.LOST
    assert outcome.stopped is None, outcome.stopped
    assert [g.result for g in outcome.games] == ["lost"]
    assert not any("called certain" in m for m in said), said
    events = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    (verdict,) = [e for e in events if e["event"] == "lost_on"]
    assert sim.game.exploded == verdict["row"] * 9 + verdict["col"]
    assert verdict["p_mine"] > 0
    assert reader.forgotten == 1
    return said


@pytest.mark.parametrize("seed", READ_AS_NUMBER)
def test_without_the_band_a_mine_read_as_a_number_is_a_loss_once_clicks_change_nothing(
    seed: int, tmp_path: Path
) -> None:
    # No face or counters above the board (sgt-mines: its status bar is
    # below, and a lost game shows only the mine that went off): the next
    # click, ignored twice, is the evidence. It was a stop ("start the next
    # game by hand"); an unseen sgt palette met it on a guess's mine.
    sim, player, reader, late = _misnamed(seed, watch=False)
    said = _lost_on_the_guess(sim, player, reader, tmp_path)
    # One batch on the dead board, sent twice.
    half = len(late) // 2
    assert late and late[:half] == late[half:], late
    assert sim.game.exploded is not None
    r, c = divmod(sim.game.exploded, 9)
    assert any(f"after a guess at row {r}, col {c}" in m for m in said), said


@pytest.mark.parametrize("seed", range(10, 40))
def test_numbers_read_through_unproven_looks_play_on_while_the_timer_runs(seed: int) -> None:
    # Every number reads through an unproven look, so every guess that opens
    # one asks the band; the timer changes it but never holds still, and the
    # face changes only as the game ends, which the board shows itself here.
    sim, player, _ = _game(seed)
    sim.mines_on_loss = True
    reader = SimReader(sim.grid, 10, unproven_numbers=True)
    player.reader = reader
    outcome = player.run()
    assert outcome.stopped is None, outcome.stopped
    assert [g.result for g in outcome.games] == [sim.game.status.value]
    assert reader.forgotten == 0


@pytest.mark.parametrize("seed", READ_AS_NUMBER)
def test_flags_a_lost_game_still_takes_are_no_answer_that_it_goes_on(
    seed: int, tmp_path: Path
) -> None:
    # NiceGUI takes flags after a loss: the batch after the guess drew its
    # flags, and play took that for the game going on; its left clicks then
    # changed nothing twice and play stopped ("is the game window behind
    # another one?") instead of telling the loss.
    sim, player, reader, _late = _misnamed(seed, watch=False)
    sim.flags_after_loss = True
    _lost_on_the_guess(sim, player, reader, tmp_path)
