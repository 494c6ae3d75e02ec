"""End to end: the real games on a virtual screen, calibrated from a screenshot, played by
`msolver play` in its own process with the real capture, reader, solver, mouse and hotkeys.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import xgames

pytestmark = pytest.mark.display

MSOLVER = [sys.executable, "-m", "msolver.cli"]


@pytest.fixture
def profile_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "profiles"
    d.mkdir()
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(d))
    return d


def need(game: str) -> None:
    if not xgames.available(game):
        if os.environ.get("MSOLVER_REQUIRE_DISPLAY") == "1":
            pytest.fail(f"{game} is not installed")
        pytest.skip(f"{game} is not installed")


@pytest.fixture
def launched() -> Iterator[list[xgames.GameWindow]]:
    wins: list[xgames.GameWindow] = []
    yield wins
    for w in wins:
        w.close()


def launch(wins: list[xgames.GameWindow], game: str, display: str, **kw: Any) -> xgames.GameWindow:
    need(game)
    win = xgames.launch(game, display, **kw)
    wins.append(win)
    return win


def run(
    *args: str, timeout: float = 90, check_rc: int | None = None
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [*MSOLVER, *args], capture_output=True, text=True, timeout=timeout, env=dict(os.environ)
    )
    if check_rc is not None:
        assert proc.returncode == check_rc, (proc.returncode, proc.stdout, proc.stderr)
    return proc


def calibrate(win: xgames.GameWindow, tmp_path: Path, name: str, new_game: str) -> None:
    from msolver.vision.image import write_png

    shot = tmp_path / f"{name}.png"
    write_png(shot, win.screenshot(whole_screen=True))
    args = ["calibrate", "--image", str(shot), "--name", name, "--mines", "99"]
    args += ["--new-game", new_game]
    theme = os.environ.get("MSOLVER_E2E_THEME")
    if theme:
        args += ["--theme", theme]
    run(*args, check_rc=0)


def find_board(win: xgames.GameWindow) -> tuple[int, int, int, int]:
    """The board's screen rectangle, found the way calibration finds it."""
    from msolver.vision.grid import find_grid

    g = find_grid(win.screenshot(whole_screen=True))
    return (
        int(g.origin[0]),
        int(g.origin[1]),
        int(g.cols * g.pitch[0]),
        int(g.rows * g.pitch[1]),
    )


def events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def check_log(evs: list[dict[str, Any]], games: int) -> list[dict[str, Any]]:
    """The log's shape, and that no game was lost on a certain click; the game_over events."""
    over = [e for e in evs if e["event"] == "game_over"]
    assert [e["game"] for e in over] == list(range(1, games + 1))
    summary = evs[-1]
    assert {k: summary.get(k) for k in ("event", "games", "wins")} == {
        "event": "summary",
        "games": games,
        "wins": sum(e["result"] == "won" for e in over),
    }
    # The session's figures are the games' sums (3BV of the games whose end showed the mines).
    with_stats = [e for e in over if "bbbv" in e]
    if with_stats:
        assert summary["bbbv"] == sum(e["bbbv"] for e in with_stats)
        assert summary["clicks"] == sum(e["clicks"] for e in with_stats)
    last_open: dict[int, float] = {}
    for e in evs:
        if e["event"] == "click":
            assert set(e) == {"event", "game", "row", "col", "button", "p_mine", "reason"}
            assert e["reason"]
            assert 0 <= e["row"] < 16 and 0 <= e["col"] < 30
            assert e["button"] in ("left", "right", "chord")
            if e["button"] != "right":
                last_open[e["game"]] = e["p_mine"]
        elif e["event"] == "game_over":
            assert e["result"] in ("won", "lost")
            assert e["clicks"] > 0 and e["seconds"] >= 0
            if "bbbv" in e:
                assert sum(e["clicks_by_button"].values()) == e["clicks"]
                assert 0 < e["solved_bbbv"] <= e["bbbv"]
                # The community's live figure, printed for the record (pytest -s).
                print(
                    f"game {e['game']}: {e['result']}, 3BV {e['bbbv']}, "
                    f"3BV/s {e['bbbv_per_s']:.1f}, efficiency {e['efficiency']:.2f}"
                )
            if e["result"] == "lost":
                assert last_open[e["game"]] > 0, "lost on a click the solver called certain"
    return over


def test_sgt_mines_wins_every_game(
    xvfb: str, tmp_path: Path, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    # No seed: sgt-mines starts its next games from a seeded ID with another
    # mine count (measured: "30x16n99#seed" then n gives 48 mines).
    win = launch(launched, "sgt-mines", xvfb)
    calibrate(win, tmp_path, "sgt", "n")
    # The window moved since calibration: the player finds the same board again.
    win.move(250, 150)
    log = tmp_path / "play.jsonl"
    proc = run(
        "play",
        "--profile",
        "sgt",
        "--games",
        "3",
        "--start-now",
        "--log-json",
        str(log),
        check_rc=0,
    )
    over = check_log(events(log), 3)
    # sgt-mines boards need no guess: every game must be won.
    assert [e["result"] for e in over] == ["won"] * 3, proc.stdout
    assert "3 won" in proc.stdout
    assert "moved by (+250, +150)" in proc.stdout


def test_auto_finds_a_built_in_board_anywhere_on_the_screen(
    xvfb: str, tmp_path: Path, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    launch(launched, "sgt-mines", xvfb, position=(400, 300))
    log = tmp_path / "play.jsonl"
    proc = run("play", "--auto", "--start-now", "--log-json", str(log), check_rc=0)
    assert "found a 30x16 board (sgt-mines)" in proc.stdout
    over = check_log(events(log), 1)
    assert [e["result"] for e in over] == ["won"], proc.stdout


def test_a_theme_never_seen_is_learned_while_playing(
    xvfb: str, tmp_path: Path, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    # All the player gets: the blank board's unopened tile, the grid and the mine
    # count; sgt-mines' built-in tiles are not used.
    from msolver.vision.grid import calibrate as find_profile
    from msolver.vision.profile import load_profile, save_profile

    win = launch(launched, "sgt-mines", xvfb, seed="e2e-learn")
    found = find_profile(win.screenshot(whole_screen=True), mines=99, name="fresh", new_game="n")
    blank = found.with_changes(theme="custom", tiles={"unknown": found.tiles["unknown"][:1]})
    save_profile(blank, "fresh")
    log = tmp_path / "play.jsonl"
    proc = run("play", "--profile", "fresh", "--start-now", "--log-json", str(log), check_rc=0)
    over = check_log(events(log), 1)
    assert [e["result"] for e in over] == ["won"], proc.stdout
    assert "learned tiles" in proc.stdout, proc.stdout
    # What it learned is kept for the next session.
    kept = load_profile("fresh")
    assert {"unknown", "0", "1", "2", "flag"} <= set(kept.tiles)


def test_gnome_mines_plays_a_game_to_its_end(
    xvfb: str, tmp_path: Path, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    win = launch(launched, "gnome-mines", xvfb)
    calibrate(win, tmp_path, "gnome", "ctrl+n")
    log = tmp_path / "play.jsonl"
    run("play", "--profile", "gnome", "--start-now", "--log-json", str(log), check_rc=0)
    check_log(events(log), 1)


def test_xdemineur_starts_from_its_partly_open_board(
    xvfb: str, tmp_path: Path, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    from msolver.app.wizard import find_face
    from msolver.vision.classify import read_board
    from msolver.vision.profile import load_profile

    win = launch(launched, "xdemineur", xvfb)
    shot = win.screenshot(whole_screen=True)
    # Calibrate on a moment's board first, to find the face button for new games.
    calibrate(win, tmp_path, "xdem", "n")
    prof = load_profile("xdem")
    face = find_face(shot, prof.grid.rect(), (0, 0))
    assert face is not None
    calibrate(win, tmp_path, "xdem", f"click:{face[0]},{face[1]}")
    start = read_board(win.screenshot(whole_screen=True), prof).board
    assert any(s >= 0 for s in start.cells), "xdemineur opens an area at launch"
    log = tmp_path / "play.jsonl"
    run(
        "play",
        "--profile",
        "xdem",
        "--games",
        "2",
        "--start-now",
        "--log-json",
        str(log),
        check_rc=0,
    )
    check_log(events(log), 2)


def test_start_and_stop_hotkeys(
    xvfb: str, tmp_path: Path, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    win = launch(launched, "sgt-mines", xvfb)
    calibrate(win, tmp_path, "sgt", "n")
    log = tmp_path / "play.jsonl"
    proc = subprocess.Popen(
        [*MSOLVER, "play", "--profile", "sgt", "--games", "20", "--log-json", str(log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "press F9 to start" in line
        time.sleep(0.3)
        assert not log.exists() or not log.read_text()  # nothing before the start key
        subprocess.run(["xdotool", "key", "F9"], check=True, env=dict(os.environ))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if log.exists() and log.read_text().count('"game_over"') >= 1:
                break
            time.sleep(0.02)
        subprocess.run(["xdotool", "key", "F10"], check=True, env=dict(os.environ))
        _out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopped by the stop key" in err
    evs = events(log)
    games = [e for e in evs if e["event"] == "game_over"]
    assert 1 <= len(games) < 20
    assert evs[-1]["event"] == "summary"


def test_hint_prints_the_best_move_and_never_clicks(
    xvfb: str, tmp_path: Path, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    win = launch(launched, "sgt-mines", xvfb, seed="e2e-hint")
    calibrate(win, tmp_path, "sgt", "n")
    cx, cy = win.cell_center_hint(8, 15)
    win.click(cx, cy)
    win.park_pointer()
    before = win.wait_drawn()
    proc = subprocess.Popen(
        [*MSOLVER, "play", "--profile", "sgt", "--hint", "--text"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")))  # type: ignore[union-attr]
    reader.daemon = True
    reader.start()
    try:
        deadline = time.monotonic() + 20
        # The first hint: the best move, then the header and 16 rows of the grid.
        while time.monotonic() < deadline and not any(" 16 " in ln[:5] for ln in lines):
            time.sleep(0.05)
        # Off the game first: focus follows the pointer, and F10 opens a GTK menu.
        subprocess.run(["xdotool", "mousemove", "1800", "1000"], check=True, env=dict(os.environ))
        subprocess.run(["xdotool", "key", "F10"], check=True, env=dict(os.environ))
        _out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(timeout=5)
    text = "".join(lines)
    assert "best move: " in text and "(certain)" in text and "why: " in text
    assert proc.returncode == 0, err
    # Nothing was clicked: the board is as it was (the window's status line may tick).
    from msolver.vision.profile import load_profile

    left, top, width, height = load_profile("sgt").grid.rect()
    wx, wy, _, _ = win.geometry()
    after = win.screenshot()
    box = (slice(top - wy, top - wy + height), slice(left - wx, left - wx + width))
    assert (after[box] == before[box]).all()


def test_bad_input_stops_cleanly_and_clicks_nothing(
    xvfb: str, tmp_path: Path, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    # No display at all.
    env = dict(os.environ, DISPLAY=":1999")
    proc = subprocess.run(
        [*MSOLVER, "play", "--start-now"], capture_output=True, text=True, env=env, timeout=30
    )
    assert proc.returncode == 1 and "no display" in proc.stderr
    # A profile, but nothing on screen.
    win = launch(launched, "sgt-mines", xvfb, seed="e2e-bad")
    calibrate(win, tmp_path, "sgt", "n")
    win.close()
    time.sleep(0.3)
    proc = run("play", "--profile", "sgt", "--start-now")
    assert proc.returncode == 1 and "does not match the screen" in proc.stderr, proc.stderr
    proc = run("play", "--start-now")
    assert proc.returncode == 1 and "no board on screen" in proc.stderr, proc.stderr
    # A profile for another game's board, and for the same game at another tile size:
    # refused, and the board on screen is left as it was.
    for game, kw in (("xdemineur", {}), ("sgt-mines", {"tilesize": 24, "seed": "e2e-bad"})):
        other = launch(launched, game, xvfb, **kw)
        left, top, width, height = find_board(other)
        before = xgames.grab(xvfb, (left, top, width, height))
        proc = run("play", "--profile", "sgt", "--start-now")
        assert proc.returncode == 1 and "does not match" in proc.stderr, proc.stderr
        assert (xgames.grab(xvfb, (left, top, width, height)) == before).all(), game
        other.close()
    # The game window closed in the middle of a game.
    win = launch(launched, "gnome-mines", xvfb)
    calibrate(win, tmp_path, "gnome", "ctrl+n")
    log = tmp_path / "closed.jsonl"
    proc2 = subprocess.Popen(
        [
            *MSOLVER,
            "play",
            "--profile",
            "gnome",
            "--games",
            "5",
            "--start-now",
            "--log-json",
            str(log),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (log.exists() and '"click"' in log.read_text()):
            time.sleep(0.01)
        win.close()
        out, err = proc2.communicate(timeout=20)
    finally:
        if proc2.poll() is None:
            proc2.kill()
    assert proc2.returncode == 1, (out, err)
    assert "cannot read the board" in err or "low confidence" in err or "changed" in err, err
    assert events(log)[-1]["event"] == "summary"


def test_calibrate_from_the_screen_without_a_terminal(
    xvfb: str, profile_dir: Path, launched: list[xgames.GameWindow]
) -> None:
    # No --image and no terminal to ask on: one grab of the whole screen.
    launch(launched, "sgt-mines", xvfb, position=(300, 200))
    proc = subprocess.run(
        [*MSOLVER, "calibrate", "--name", "grabbed", "--mines", "99", "--new-game", "n"],
        capture_output=True,
        text=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    saved = json.loads((profile_dir / "grabbed.json").read_text())
    text = json.dumps(saved)
    assert '"rows": 16' in text and '"cols": 30' in text, proc.stdout
    # The wizard needs a terminal; without one nothing waits on stdin.
    assert "press Enter" not in proc.stdout
