"""The real sgt-flood on a virtual screen, played by `msolver flood play` in its own process.

Ten games at sgt-flood's default settings and ten at 14x14c6m0 (no spare
moves: the limit is sgt-flood's own solver's count), as the issue asks; each
set takes about ten seconds here. `python -m tests.flood.bench_live` runs more.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from msolver.flood.solver import solve
from tests.flood import live, xflood
from tests.flood.render import sgt_board
from tests.support.xgames import GameWindow

pytestmark = pytest.mark.display

GAMES = int(os.environ.get("MSOLVER_FLOOD_LIVE_GAMES", "10"))


@pytest.fixture
def windows() -> Iterator[list[GameWindow]]:
    wins: list[GameWindow] = []
    yield wins
    for w in wins:
        w.close()


def start(wins: list[GameWindow], display: str, game_id: str | None = None) -> GameWindow:
    if not xflood.available():
        if os.environ.get("MSOLVER_REQUIRE_DISPLAY") == "1":
            pytest.fail("sgt-flood or xdotool is not installed")
        pytest.skip("sgt-flood or xdotool is not installed")
    win = xflood.launch(display, game_id)
    wins.append(win)
    return win


def test_default_settings_all_games_won(
    xvfb: str, tmp_path: Path, windows: list[GameWindow]
) -> None:
    start(windows, xvfb)  # no arguments: 12x12, 6 colours, 5 spare moves
    run = live.play(xvfb, tmp_path / "log.jsonl", GAMES)
    assert run.returncode == 0, run.stderr
    over = live.games_of(run)
    assert len(over) == GAMES
    assert [g["result"] for g in over] == ["won"] * GAMES, run.stderr
    assert all(g["moves"] == g["planned"] for g in over)
    assert f"played {GAMES} games: {GAMES} won, 0 lost" in run.stdout


def test_no_spare_moves_all_games_won_within_the_limit(
    xvfb: str, tmp_path: Path, windows: list[GameWindow]
) -> None:
    params = "14x14c6m0#2026"
    ((first_id, first_limit),) = xflood.generate(params)
    start(windows, xvfb, params)
    run = live.play(xvfb, tmp_path / "log.jsonl", GAMES)
    assert run.returncode == 0, run.stderr
    over = live.games_of(run)
    assert [g["result"] for g in over] == ["won"] * GAMES, run.stderr
    # The first game is the one the seed gives, whose limit we know: the player
    # played its optimum, which is within sgt-flood's own solver's count.
    board, _ = sgt_board(first_id)
    best = solve(board, budget_s=10.0)
    assert best.optimal
    assert over[0]["moves"] == len(best.moves) <= first_limit
    assert over[0]["optimal"]
    # sgt-flood marks a game over its limit with a black flash, which the player
    # reports as lost (test_over_the_limit_is_reported_lost): none here. The
    # later games are sgt-flood's own random draws: whether A* proves one
    # optimal within the player's CPU budget depends on the board (of 1,000
    # sgt draws at these settings one was not proven within the 5 s; CI once
    # met such a one), so that is bench_live's figure; here each must still be
    # won, with no move beyond its plan.
    assert all(g["moves"] == g["planned"] for g in over)


def test_over_the_limit_is_reported_lost(
    xvfb: str, tmp_path: Path, windows: list[GameWindow]
) -> None:
    game_id, _ = xflood.generate("14x14c6m0#11")[0]
    board, _ = sgt_board(game_id)
    need = len(solve(board, budget_s=10.0).moves)
    short = need - 3
    start(windows, xvfb, f"{game_id.rsplit(',', 1)[0]},{short}")
    run = live.play(xvfb, tmp_path / "log.jsonl", 1)
    assert run.returncode == 0, run.stderr
    (g,) = live.games_of(run)
    assert g["result"] == "lost"
    # The flash may show a frame after the move that reached the limit.
    assert short <= g["moves"] < g["planned"] == need


def pointer(display: str) -> str:
    out = subprocess.run(
        ["xdotool", "getmouselocation"],
        capture_output=True,
        text=True,
        timeout=5,
        env=dict(os.environ, DISPLAY=display),
    ).stdout
    return " ".join(out.split()[:2])


def test_refuses_a_screen_without_a_flood_it_board(
    xvfb: str, tmp_path: Path, windows: list[GameWindow]
) -> None:
    from tests.support import xgames

    # First an empty screen, then one showing Minesweeper instead.
    for game in (None, "sgt-mines"):
        if game is not None:
            windows.append(xgames.launch(game, xvfb))
        before = pointer(xvfb)
        log = tmp_path / f"log-{game}.jsonl"
        run = live.play(xvfb, log, 1, timeout=60)
        assert run.returncode == 2
        assert run.stderr.count("\n") == 1 and "no Flood-It board" in run.stderr
        assert not log.exists() and run.stdout == ""  # nothing started, nothing logged
        assert pointer(xvfb) == before  # nothing clicked
