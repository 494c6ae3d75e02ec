"""`msolver play --hint`: the hint window under a private Xvfb.

A person plays a simulated game (drawn with sgt-mines' recorded tiles) while
the command watches it through a fake capture: the window appears (xdotool
finds it by name, xwininfo gives its size), its pixels on the X screen change
each time the board does, every redraw lands within 100 ms of the change,
and the recording mouse handed to the command sees no action at all.
"""

from __future__ import annotations

import itertools
import multiprocessing
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from msolver.core.board import UNKNOWN
from msolver.core.game import Game, Status
from msolver.io.capture import RecordedCapture
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import RecordingMouse
from msolver.play.hintwindow import HintWindow, hint_for
from msolver.vision.dryrun import Renderer
from msolver.vision.image import Image
from msolver.vision.profile import load_profile
from tests.play.test_record import RenderedScreen
from tests.support.xvfb import private_display

pytestmark = pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool") and shutil.which("xwininfo")),
    reason="needs Xvfb, xdotool and xwininfo",
)
pytest.importorskip("tkinter")

TITLE = HintWindow.TITLE


def _window_id() -> str:
    out = subprocess.run(
        ["xdotool", "search", "--name", f"^{TITLE}$"], capture_output=True, text=True, timeout=5
    )
    return out.stdout.split()[0] if out.stdout.split() else ""


def _window_pixels(wid: str) -> Image:
    from msolver.io.capture import open_capture

    info = subprocess.run(
        ["xwininfo", "-id", wid], capture_output=True, text=True, timeout=5
    ).stdout
    field = {
        k.strip(): v.strip() for k, v in (ln.split(":", 1) for ln in info.splitlines() if ":" in ln)
    }
    x, y = int(field["Absolute upper-left X"]), int(field["Absolute upper-left Y"])
    w, h = int(field["Width"]), int(field["Height"])
    cap = open_capture()
    try:
        return cap.grab((x, y, w, h))
    finally:
        cap.close()


def _in_child(body: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `body` in a forked child on a private Xvfb; its results come back by pipe.

    Tk keeps its X connection until the process exits, and the next Tk event
    on a display whose server has gone kills the process: each window lives
    and dies in its own process while its Xvfb is still up.
    """
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)

    def run() -> None:
        try:
            send.send(body())
        except BaseException as exc:  # the parent reports it
            send.send({"error": f"{type(exc).__name__}: {exc}"})
        send.close()

    with private_display():
        child = ctx.Process(target=run)
        child.start()
        ready = recv.poll(120)
        result: dict[str, Any] = recv.recv() if ready else {"error": "no answer in 120 s"}
        child.join(10)
    assert "error" not in result, result["error"]
    return result


def test_the_hint_window_follows_the_board_and_never_clicks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import msolver.app.play as play_app
    import msolver.io.backends as backends
    from msolver.app.main import main

    renderer = Renderer(load_profile("sgt-mines"), 9, 9)
    prof = renderer.profile.with_changes(mines=10)
    game = Game(9, 9, 10, seed=3, first_click="opening")
    screen = RenderedScreen(game=game, grid=prof.grid, renderer=renderer)
    mouse = RecordingMouse(on_click=screen.on_click)
    changed_at: list[float] = []
    shown_at: list[float] = []
    looks: list[Image] = []
    found: list[str] = []
    grabs = 0

    def person_plays() -> Image:
        """Each third grab, after it is taken, the person opens a safe cell."""
        nonlocal grabs
        grabs += 1
        image = screen.draw()
        if grabs == 2:
            found.append(_window_id())
        if grabs % 3 == 0 and game.status is Status.PLAYING:
            if len(looks) < 3 and found and found[0]:
                looks.append(_window_pixels(found[0]))
            safe = [
                i
                for i, s in enumerate(game.board.cells)
                if s == UNKNOWN and (not game.layout or not game.is_mine(i))
            ]
            game.open(safe[len(safe) // 2])
            changed_at.append(time.perf_counter())
        return image

    original_show = HintWindow.show

    def timed_show(self: HintWindow, picture: Image) -> None:
        original_show(self, picture)
        shown_at.append(time.perf_counter())

    capture = RecordedCapture(person_plays, origin=(renderer.left, renderer.top))
    monkeypatch.setattr(HintWindow, "show", timed_show)
    monkeypatch.setattr(play_app, "_open_capture", lambda: capture)
    monkeypatch.setattr(play_app, "_locate", lambda *_a: prof)
    monkeypatch.setattr(play_app, "_hotkeys", lambda *_a: FakeHotkeys(started=True))
    monkeypatch.setattr(backends, "open_mouse", lambda *_a, **_k: mouse)

    def body() -> dict[str, Any]:
        code = main(["play", "--hint", "--profile", "sgt-mines", "--quiet"])
        return {
            "code": code,
            "out": capsys.readouterr().out,
            "found": found,
            "changed_at": changed_at,
            "shown_at": shown_at,
            "looks": looks,
            "actions": len(mouse.actions) + len(screen.clicks),
        }

    got = _in_child(body)
    found, changed_at, shown_at, looks = (
        got["found"],
        got["changed_at"],
        got["shown_at"],
        got["looks"],
    )
    assert got["code"] == 0
    assert "game won" in got["out"]
    assert found and found[0], "no window named msolver hint"
    # Every change of the board was shown, in a later redraw.
    lag = []
    for t in changed_at:
        after = [s for s in shown_at if s > t]
        assert after, "a change of the board was never shown"
        lag.append(after[0] - t)
    print(
        f"hint window: {len(changed_at)} changes, redraw after median "
        f"{statistics.median(lag) * 1000:.0f} ms, max {max(lag) * 1000:.0f} ms"
    )
    assert statistics.median(lag) < 0.1
    # What the X screen showed in the window changed with the board.
    assert len(looks) >= 2
    assert any(not np.array_equal(a, b) for a, b in itertools.pairwise(looks))
    assert got["actions"] == 0  # the recording mouse saw no move and no click


def test_the_window_shows_the_hint_picture() -> None:
    renderer = Renderer(load_profile("sgt-mines"), 9, 9)
    game = Game(9, 9, 10, seed=4, first_click="opening")
    game.open(40)
    board = game.board
    image = renderer.render(board)
    grid = renderer.profile.grid
    left, top = renderer.left, renderer.top
    from msolver.vision.geometry import Grid

    local = Grid((grid.origin[0] - left, grid.origin[1] - top), grid.pitch, 9, 9)
    picture = hint_for(board).picture(image, local, board)

    def body() -> dict[str, Any]:
        window = HintWindow()
        try:
            window.show(picture)
            for _ in range(20):
                window.pump()
                time.sleep(0.02)
            return {"shot": _window_pixels(_window_id())}
        finally:
            window.close()

    shot = _in_child(body)["shot"]
    h, w = picture.shape[:2]
    assert shot.shape[0] >= h and shot.shape[1] >= w
    # The label centres the picture: find it by its top-left corner.
    ys, xs = np.nonzero(np.all(shot == picture[0, 0], axis=-1))
    hits: list[Any] = [
        (y, x)
        for y, x in zip(ys, xs, strict=True)
        if y + h <= shot.shape[0]
        and x + w <= shot.shape[1]
        and np.array_equal(shot[y : y + h, x : x + w], picture)
    ]
    assert hits, "the window does not show the hint picture pixel for pixel"
