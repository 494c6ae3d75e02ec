"""`play --record` and `msolver replay`: a recorded simulated game replays with no
differing frame; a frame edited by hand shows up; the recording stays within its bound."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from msolver.app.main import main
from msolver.core.board import UNKNOWN, Board
from msolver.core.clock import FakeClock
from msolver.core.game import Game
from msolver.io.capture import RecordedCapture
from msolver.io.hotkeys import FakeHotkeys
from msolver.play.loop import GameResult, Player, Settings
from msolver.play.readers import reader_for
from msolver.play.record import FRAMES, Recorder, RecordError, replay
from msolver.shell.session import Outcome
from msolver.vision.dryrun import Renderer
from msolver.vision.geometry import Grid
from msolver.vision.image import Image, read_png, write_png
from msolver.vision.profile import Profile, load_profile
from tests.support.live import SimScreen

FAST = Settings(redraw_timeout=0.3, settle=0.0, confirm=0.05, new_game_timeout=1.0)


@dataclass
class RenderedScreen(SimScreen):
    """A SimScreen drawn with a built-in theme's recorded tiles (as the dry run draws)."""

    renderer: Renderer | None = None
    _unused: list[int] = field(default_factory=list)

    def draw(self) -> Image:
        assert self.renderer is not None
        return self.renderer.render(self.game.board)


def _setup(seed: int) -> tuple[RenderedScreen, Profile, RecordedCapture]:
    renderer = Renderer(load_profile("sgt-mines"), 16, 16)
    prof = renderer.profile.with_changes(mines=40)
    game = Game(16, 16, 40, seed=seed, first_click="opening")
    screen = RenderedScreen(game=game, grid=prof.grid, renderer=renderer)
    return screen, prof, RecordedCapture(screen.grab, origin=(renderer.left, renderer.top))


def _play(
    screen: RenderedScreen, prof: Profile, capture: RecordedCapture, recorder: Recorder
) -> Outcome[GameResult]:
    player = Player(
        reader_for(prof),
        capture,
        screen.mouse(),
        FakeHotkeys(started=True),
        settings=FAST,
        clock=FakeClock(),
        recorder=recorder,
    )
    outcome = player.run()
    recorder.close()
    return outcome


def _record(folder: Path, seed: int = 5, limit: int = 10**9) -> tuple[int, Profile]:
    screen, prof, capture = _setup(seed)
    recorder = Recorder(folder, prof, limit_bytes=limit)
    outcome = _play(screen, prof, capture, recorder)
    assert outcome.stopped is None and len(outcome.games) == 1
    return recorder.frames, prof


def _lines(folder: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in (folder / FRAMES).read_text().splitlines()]


def test_a_recorded_game_replays_with_no_differing_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = tmp_path / "rec"
    frames, prof = _record(rec)
    lines = _lines(rec)
    assert frames == len(lines) > 3
    # Every frame kept as the board region only, with its read, decision and clicks.
    _left, _top, w, h = prof.grid.rect()
    for item in lines:
        png = rec / str(item["png"])
        assert read_png(png).shape[:2] == (h, w)
        assert isinstance(item["decision"], dict)
    assert all(c["reason"] for item in lines for c in item["clicks"])  # type: ignore[attr-defined]
    read, diffs = replay(rec, reader_for(load_profile(rec / "profile.json")))
    assert (read, diffs) == (frames, [])
    assert main(["replay", str(rec)]) == 0
    assert f"{frames} frames re-read, 0 differ" in capsys.readouterr().out


def test_a_frame_edited_by_hand_shows_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = tmp_path / "rec"
    _record(rec)
    lines = _lines(rec)
    prof = load_profile(rec / "profile.json")
    left, top, _w, _h = prof.grid.rect()
    local = Grid((prof.origin[0] - left, prof.origin[1] - top), prof.pitch, prof.rows, prof.cols)
    # A frame half way: copy an unopened cell's pixels over an opened one.
    item = lines[len(lines) // 2]
    parsed = Board.parse(str(item["board"]), prof.mines)
    hidden = next(i for i, s in enumerate(parsed.cells) if s == UNKNOWN)
    opened = next(i for i, s in enumerate(parsed.cells) if s >= 0)
    png = rec / str(item["png"])
    img = read_png(png)

    def box(i: int) -> tuple[slice, slice]:
        r, c = divmod(i, prof.cols)
        x0, y0, pw, ph = local.cell_box(r, c)
        return slice(round(y0), round(y0 + ph)), slice(round(x0), round(x0 + pw))

    img[box(opened)] = np.array(img[box(hidden)])
    write_png(png, img)
    _read, diffs = replay(rec, reader_for(prof))
    assert [d.frame for d in diffs] == [item["frame"]]
    assert divmod(opened, prof.cols) in diffs[0].cells()
    assert main(["replay", str(rec)]) == 1
    out = capsys.readouterr().out
    assert f"frame {item['frame']}" in out and "1 differ" in out


def test_the_recording_is_bounded(tmp_path: Path) -> None:
    rec = tmp_path / "rec"
    frames, _ = _record(rec, limit=20_000)
    lines = _lines(rec)
    kept = [x for x in lines if x["png"] is not None]
    size = sum(p.stat().st_size for p in (rec / "frames").iterdir())
    assert 0 < len(kept) < frames == len(lines)
    # The frame that crossed the bound is the last one kept.
    assert size < 20_000 + max(p.stat().st_size for p in (rec / "frames").iterdir())
    assert "recording limit" in str(kept[-1]["note"])


def test_bad_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("x")
    with pytest.raises(RecordError, match="not empty"):
        Recorder(full, load_profile("sgt-mines"))
    assert main(["replay", str(tmp_path / "none")]) == 2
    assert main(["replay", str(full)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2


def _record_learning(
    folder: Path, screen: SimScreen, prof: Profile
) -> tuple[Outcome[GameResult], int]:
    """One game on `screen` read by a learning reader on its own clock, recorded."""
    recorder = Recorder(folder, prof)
    clock = FakeClock()
    player = Player(
        reader_for(prof, clock=clock),
        screen.capture(),
        screen.mouse(),
        FakeHotkeys(started=True),
        settings=Settings(redraw_timeout=0.3, settle=0.0, confirm=0.4, first_click="opening"),
        clock=clock,
        recorder=recorder,
    )
    outcome = player.run()
    recorder.close()
    return outcome, recorder.frames


def test_a_game_in_a_learned_theme_replays_with_no_differing_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A theme no built-in knows: the reader names every look from the rules
    # while it plays, and only from a frame that held still. The replay reads
    # each kept frame as the player did (held, told of the clicks after it).
    from tests.support.themes import Theme, blank_profile, themed_sim

    screen = themed_sim(8, Theme.random(8), pitch=24.0)
    prof = blank_profile(screen)
    rec = tmp_path / "rec"
    outcome, frames = _record_learning(rec, screen, prof)
    assert outcome.stopped is None, outcome.stopped
    assert main(["replay", str(rec)]) == 0
    assert f"{frames} frames re-read, 0 differ" in capsys.readouterr().out


def test_a_verdict_on_the_end_is_kept_as_judged_and_not_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 693 is won under a scores dialog over the board: the last frame's
    # board is the player's verdict (cells under the dialog taken from before),
    # which no read of that image gives.
    from tests.play.test_learn import blank_profile
    from tests.support.live import expert_sim

    sim = expert_sim(693, win_dialog=(190, 60, 490, 370))
    prof = blank_profile(sim.grid.origin, sim.grid.pitch[0], 16, 30)
    rec = tmp_path / "rec"
    outcome, _frames = _record_learning(rec, sim, prof)
    assert [g.result for g in outcome.games] == ["won"], outcome.stopped
    lines = _lines(rec)
    assert lines[-1].get("judged") is True
    assert not any(x.get("judged") for x in lines[:-1])
    assert main(["replay", str(rec)]) == 0
    assert f"{len(lines)} frames re-read, 0 differ" in capsys.readouterr().out


def test_the_frame_play_stops_on_is_kept_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The frame a stop rests on is the one to look at (a passing look or a real
    # change?): it is kept last, with the reason and no decision, and replays.
    screen, prof, capture = _setup(5)
    # (from the fifth grab: the first batch is read, checked still and sent)
    screen.cover = lambda grab: grab >= 5
    rec = tmp_path / "rec"
    outcome = _play(screen, prof, capture, Recorder(rec, prof))
    assert outcome.stopped is not None and not outcome.user_stop
    lines = _lines(rec)
    assert len(lines) >= 2 and not any("stop" in x for x in lines[:-1])
    last = lines[-1]
    assert last["stop"] and last["stop"] in outcome.stopped and last["decision"] is None
    png = read_png(rec / str(last["png"]))
    assert int(png.max()) == 0  # the black cover, as grabbed
    assert main(["replay", str(rec)]) == 0
    assert f"{len(lines)} frames re-read, 0 differ" in capsys.readouterr().out


def test_a_reason_resting_on_a_tile_not_named_yet_says_every_reading_instead() -> None:
    # Seen live (a NiceGUI game, white digits on green): a 4 not named yet,
    # shown as its first reading, a 3, gave "safe: the 3 at (1,13) already
    # touches its mines" for a cell another number made safe on every
    # reading. A sentence never names a number the board may not show.
    from msolver.core.solver import Solver
    from msolver.play.plan import plan
    from msolver.play.record import click_reasons

    board = Board.parse("F1..\n....\n....\n", mines=3)
    decision = Solver().decide(board)
    clicks = plan(board, decision.moves, chord=False)
    (plain,) = click_reasons(board, decision, clicks[:1])
    assert "the 1 at (0,1)" in plain
    (doubted,) = click_reasons(board, decision, clicks[:1], unsure=[1])
    assert doubted.startswith(plain.split(":")[0])
    assert "(0,1)" not in doubted and "every reading" in doubted
    # a reason that names no unsure cell is kept
    assert click_reasons(board, decision, clicks[:1], unsure=[4]) == [plain]


def test_cells_read_several_ways_are_marked_unsure_in_the_recording(tmp_path: Path) -> None:
    # A frame's board is one of the readings a look not named yet allows; a
    # person checking a recording took its numbers for what the screen showed
    # (minesweeper-mvc: a 6 "recorded as 4, then 5, for 12 frames").
    screen, prof, _capture = _setup(5)
    rec = tmp_path / "rec"
    recorder = Recorder(rec, prof)
    board = Board.parse("12..\n....", mines=2)
    image = screen.grab()
    recorder.frame(1, image, board, (), None, unsure=frozenset({1, 0}))
    recorder.frame(1, image, board, (), None)
    recorder.close()
    first, second = _lines(rec)
    assert first["unsure"] == [[0, 0], [0, 1]]
    assert "unsure" not in second
