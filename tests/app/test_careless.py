"""Issue 12: each careless input a new user tried, answered in one sentence with exit 2.

Every test here runs the real command in process through `main`, as the
console script does, and checks the status and the one line it prints.
"""

from __future__ import annotations

import io
import json
import os
import stat
import sys
from pathlib import Path

import numpy as np
import pytest

from msolver.app.main import main

REPO = Path(__file__).resolve().parents[2]
BUILTIN = REPO / "calibration" / "sgt-mines.json"

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def refusal(capsys: Capture, *args: str) -> str:
    """The one line a refused command prints; fails unless it exits 2 with exactly one line."""
    rc, out, err = run(capsys, *args)
    lines = err.strip().splitlines()
    assert rc == 2, (rc, out, err)
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def stdin_bytes(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.fixture
def profile_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "profiles"
    folder.mkdir()
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(folder))
    return folder


@pytest.fixture
def no_display(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def wrong_shape_profile(folder: Path, name: str = "bad") -> None:
    data = json.loads(BUILTIN.read_text())
    data["tiles"] = [1, 2]
    data["name"] = name
    (folder / f"{name}.json").write_text(json.dumps(data))


# -- tracebacks --------------------------------------------------------------------------


def test_profiles_lists_a_wrong_shape_profile_as_broken_and_goes_on(
    capsys: Capture, profile_dir: Path
) -> None:
    wrong_shape_profile(profile_dir)
    rc, out, err = run(capsys, "profiles")
    assert rc == 0, err
    rows = {line.split()[0]: line for line in out.splitlines()}
    assert "broken" in rows["bad"] and "tiles" in rows["bad"]
    assert "30x16" in rows["sgt-mines"] and "xdemineur" in rows  # the list went on


@pytest.mark.parametrize("command", ["read", "dryrun", "play"])
def test_commands_with_a_wrong_shape_profile_say_one_sentence(
    capsys: Capture, profile_dir: Path, tmp_path: Path, no_display: None, command: str
) -> None:
    wrong_shape_profile(profile_dir)
    png = tmp_path / "x.png"
    from msolver.vision.image import write_png

    write_png(png, np.zeros((40, 40, 3), np.uint8))
    args = {
        "read": ("read", str(png), "--profile", "bad"),
        "dryrun": ("dryrun", "--profile", "bad", "--games", "1"),
        "play": ("play", "--profile", "bad", "--start-now"),
    }[command]
    assert "corrupt profile" in refusal(capsys, *args)


def test_dryrun_noise_the_reader_cannot_see_through(capsys: Capture) -> None:
    line = refusal(
        capsys, "dryrun", "--profile", "sgt-mines", "--level", "beginner", "--games", "2",
        "--noise", "60",
    )  # fmt: skip
    assert "--noise 60" in line


@pytest.mark.parametrize("opt", ["--plot", "--csv"])
@pytest.mark.parametrize("where", ["dir", "under_file", "missing_parent", "jpg"])
def test_bench_output_paths_checked_before_the_sweep(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opt: str, where: str
) -> None:
    import msolver.core.bench as bench

    def no_games(*_a: object, **_k: object) -> list[object]:
        raise AssertionError("the sweep ran before the path was checked")

    monkeypatch.setattr(bench, "run", no_games)
    (tmp_path / "f").write_text("")
    target = {
        "dir": tmp_path,
        "under_file": tmp_path / "f" / "x.png",
        "missing_parent": tmp_path / "no" / "x.png",
        "jpg": tmp_path / "x.jpg",
    }[where]
    if opt == "--csv" and where == "jpg":
        target = tmp_path / "f" / "x.csv"
    line = refusal(capsys, "bench", "--sweep-mines", "10:11", "--games", "3", opt, str(target))
    assert opt in line


def test_play_log_json_directory(capsys: Capture, tmp_path: Path, no_display: None) -> None:
    line = refusal(capsys, "play", "--profile", "sgt-mines", "--log-json", str(tmp_path))
    assert "directory" in line


@pytest.mark.parametrize("opt", ["--log-json", "--save-profile"])
def test_flood_play_output_directory(
    capsys: Capture, tmp_path: Path, no_display: None, opt: str
) -> None:
    line = refusal(capsys, "flood", "play", opt, str(tmp_path))
    assert opt in line and "directory" in line


@pytest.mark.parametrize("kind", ["file", "missing_parent"])
def test_profile_dir_env_a_file_or_missing_parent(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    (tmp_path / "f").write_text("")
    target = tmp_path / "f" if kind == "file" else tmp_path / "no" / "profiles"
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(target))
    rc, _, err = run(capsys, "profiles")
    assert rc == 2 and "MSOLVER_PROFILE_DIR" in err and len(err.strip().splitlines()) == 1


def test_read_bench_negative(capsys: Capture, tmp_path: Path) -> None:
    from msolver.vision.image import write_png

    png = tmp_path / "x.png"
    write_png(png, np.zeros((40, 40, 3), np.uint8))
    assert "--bench -1" in refusal(
        capsys, "read", str(png), "--profile", "sgt-mines", "--bench", "-1"
    )


def flood_boards(tmp_path: Path) -> Path:
    path = tmp_path / "boards.txt"
    path.write_text("1234\n4321\n1122\n")
    return path


def test_flood_bench_count_zero(capsys: Capture, tmp_path: Path) -> None:
    assert "--count 0" in refusal(
        capsys, "flood", "bench", "--boards", str(flood_boards(tmp_path)), "--count", "0"
    )


def test_bench_games_over_the_stated_limit_refused_at_once(capsys: Capture) -> None:
    assert "--games 10000000000" in refusal(capsys, "bench", "--games", "10000000000")


# Streaming (no job list built up front, bounded memory for any --games) is
# tested in tests/core/test_bench.py.


@pytest.mark.parametrize(
    "args",
    [
        ("--width", "100000", "--height", "100000"),
        ("--workers", "100000"),
        ("--sweep-mines", "0:0", "--width", "0", "--height", "0"),
    ],
)
def test_bench_board_and_worker_limits(capsys: Capture, args: tuple[str, ...]) -> None:
    refusal(capsys, "bench", "--games", "1", *args)


def test_read_of_a_huge_png_refused_by_size(capsys: Capture, tmp_path: Path) -> None:
    import cv2

    png = tmp_path / "huge.png"
    cv2.imwrite(str(png), np.zeros((9000, 9000, 3), np.uint8))
    assert "9000x9000" in refusal(capsys, "read", str(png), "--profile", "sgt-mines")


def test_solve_of_a_huge_board_refused_by_a_stated_limit(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin_bytes(monkeypatch, (("." * 3000 + "\n") * 3000).encode())
    assert "limit" in refusal(capsys, "solve", "--mines", "10")


def test_invalid_utf8_on_stdin(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_bytes(monkeypatch, b"..\xff.\n")
    assert "UTF-8" in refusal(capsys, "solve", "--mines", "1")


# -- wrong or surprising -----------------------------------------------------------------


def test_solve_batch_answers_every_good_line(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        '{"board": "..", "mines": 1}',
        "{not json",
        "",
        '{"board": "..x", "mines": 1}',
        '{"board": "1.", "mines": 1}',
    ]
    stdin_bytes(monkeypatch, ("\n".join(lines) + "\n").encode())
    rc, out, err = run(capsys, "solve", "--batch")
    results = [json.loads(x) for x in out.splitlines()]
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert [r["status"] for r in results] == ["ok", "error", "error", "ok"]
    assert results[1]["line"] == 2 and "not JSON" in results[1]["error"]
    assert results[2]["line"] == 4 and "row 0, col 2" in results[2]["error"]
    assert results[3]["mines"] == [[0, 1]]


def test_solve_batch_reads_a_file(capsys: Capture, tmp_path: Path) -> None:
    path = tmp_path / "batch.jsonl"
    path.write_text('{"board": "1.", "mines": 1}\n')
    rc, out, err = run(capsys, "solve", "--batch", str(path))
    assert rc == 0, err
    assert json.loads(out)["mines"] == [[0, 1]]


@pytest.mark.parametrize(
    "args",
    [
        ("--plot", "x.png"),
        ("--csv", "x.csv"),
        ("--level", "beginner", "--sweep-mines", "1:2"),
    ],
)
def test_bench_options_that_would_be_ignored_are_refused(
    capsys: Capture, args: tuple[str, ...]
) -> None:
    refusal(capsys, "bench", "--games", "1", *args)


def test_flood_bench_count_negative(capsys: Capture, tmp_path: Path) -> None:
    assert "--count -1" in refusal(
        capsys, "flood", "bench", "--boards", str(flood_boards(tmp_path)), "--count", "-1"
    )


def test_flood_bench_names_the_line_of_the_bad_row(capsys: Capture, tmp_path: Path) -> None:
    path = tmp_path / "boards.txt"
    path.write_text("12\n21\n\n123\n312\n2#1\n")
    line = refusal(capsys, "flood", "bench", "--boards", str(path))
    assert "line 6:" in line


def test_flood_solve_negative_colours(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_bytes(monkeypatch, b"12\n21\n")
    line = refusal(capsys, "flood", "solve", "--colours", "-5")
    assert "--colours -5 must be between 1 and" in line


def test_flood_budget_binds_the_beam_too() -> None:
    import random
    import time

    from msolver.flood.core import FloodBoard
    from msolver.flood.solver import solve

    rng = random.Random(5)
    text = "\n".join("".join(rng.choice("123456") for _ in range(40)) for _ in range(40))
    board = FloodBoard.parse(text, 6)
    t0 = time.process_time()
    sol = solve(board, budget_s=0.5)
    spent = time.process_time() - t0
    from msolver.flood.core import winning

    assert winning(board, list(sol.moves))
    # The beam alone at width 256 takes several CPU seconds on this board.
    assert spent < 2.0, spent


def test_play_unknown_hotkey_exits_2(capsys: Capture, no_display: None) -> None:
    assert "NOTAKEY" in refusal(capsys, "play", "--profile", "sgt-mines", "--hotkey", "NOTAKEY")


def test_play_unknown_profile_named_before_the_display(
    capsys: Capture, profile_dir: Path, no_display: None
) -> None:
    assert "no profile named 'nosuch'" in refusal(capsys, "play", "--profile", "nosuch")


def test_calibrate_new_game_click_on_the_board(
    capsys: Capture, tmp_path: Path, profile_dir: Path
) -> None:
    from msolver.vision.image import write_png
    from tests.vision.conftest import SHOTS, desktop, shot

    png = tmp_path / "screen.png"
    write_png(png, desktop(shot(SHOTS / "gnome-mines" / "w1200-g0-start.png"), (300, 200)))
    # The board's origin is (323, 308) with a 33 px pitch: (400, 400) is a cell.
    line = refusal(capsys, "calibrate", "--image", str(png), "--new-game", "click:400,400")
    assert "on the board" in line and "menu:400,400" in line
    assert not list(profile_dir.iterdir())
    rc, _, err = run(capsys, "calibrate", "--image", str(png), "--new-game", "click:310,250")
    assert rc == 0, err
    # A button the game shows there only on a menu once the board is gone
    # (minesweeper-mvc): said so, it is kept, and clicked only then.
    from msolver.vision.profile import load_profile

    args = ("--image", str(png), "--name", "m", "--new-game", "menu:400,400")
    rc, _, err = run(capsys, "calibrate", *args)
    assert rc == 0, err
    assert load_profile("m").new_game == "menu:400,400"
    assert "menu:4" in refusal(capsys, "calibrate", "--image", str(png), "--new-game", "menu:4")


def test_calibrate_new_game_not_a_key(capsys: Capture, tmp_path: Path, profile_dir: Path) -> None:
    from msolver.vision.image import write_png

    png = tmp_path / "x.png"
    write_png(png, np.zeros((40, 40, 3), np.uint8))
    line = refusal(capsys, "calibrate", "--image", str(png), "--new-game", "notakey")
    assert "notakey" in line
    assert not list(profile_dir.iterdir())


def test_log_json_refuses_to_overwrite(capsys: Capture, tmp_path: Path, no_display: None) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text('{"event": "old"}\n')
    line = refusal(capsys, "play", "--profile", "sgt-mines", "--log-json", str(log))
    assert "exists" in line
    assert log.read_text() == '{"event": "old"}\n'
    line = refusal(capsys, "flood", "play", "--log-json", str(log))
    assert "exists" in line


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_outputs_honour_the_umask(capsys: Capture, tmp_path: Path) -> None:
    from msolver.files import atomic_open

    old = os.umask(0o022)
    try:
        with atomic_open(tmp_path / "a.txt") as fh:
            fh.write("x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o644


def test_read_a_directory(capsys: Capture, tmp_path: Path) -> None:
    assert "is a directory" in refusal(capsys, "read", str(tmp_path), "--profile", "sgt-mines")


def test_truncated_png_no_opencv_warning(capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from msolver.vision.image import write_png

    png = tmp_path / "x.png"
    rng = np.random.default_rng(1)
    write_png(png, rng.integers(0, 255, (200, 200, 3), dtype=np.uint8))
    png.write_bytes(png.read_bytes()[:3000])
    rc = main(["read", str(png), "--profile", "sgt-mines"])
    _, err = capfd.readouterr()  # file descriptor 2: OpenCV writes there, not to sys.stderr
    assert rc == 2
    assert err.strip().splitlines() == [err.strip()] and "truncated" in err and "WARN" not in err


def test_profile_name_in_the_current_folder(
    capsys: Capture, tmp_path: Path, profile_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(BUILTIN.read_text())
    data["name"] = "mine"
    (tmp_path / "mine.json").write_text(json.dumps(data))
    monkeypatch.chdir(tmp_path)
    line = refusal(capsys, "profiles", "show", "mine")
    assert "./mine.json" in line
    rc, out, _ = run(capsys, "profiles", "show", "./mine.json")
    assert rc == 0 and "name      mine" in out


def test_board_with_a_byte_order_mark(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_bytes(monkeypatch, b"\xef\xbb\xbf1.\n")
    rc, out, err = run(capsys, "solve", "--mines", "1", "--json")
    assert rc == 0, err
    assert json.loads(out)["mines"] == [[0, 1]]


def test_blank_line_inside_a_board(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_bytes(monkeypatch, b"\n..\n\n..\n\n")
    assert "row 1 (line 3) is blank" in refusal(capsys, "solve", "--mines", "1")


def test_error_positions_count_from_0(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_bytes(monkeypatch, b"...\n.x.\n")
    assert "row 1, col 1: unknown character 'x'" in refusal(capsys, "solve", "--mines", "1")


@pytest.mark.parametrize(
    ("args", "opt"),
    [
        (("dryrun", "--profile", "sgt-mines", "--noise", "nan"), "--noise nan"),
        (("flood", "play", "--delay", "-5"), "--delay -5"),
        (("flood", "bench", "--boards", "BOARDS", "--limit", "-1"), "--limit -1"),
        (("read", "IMAGE", "--profile", "sgt-mines", "--mines", "-5"), "--mines -5"),
    ],
)
def test_bad_numbers_refused(
    capsys: Capture, tmp_path: Path, no_display: None, args: tuple[str, ...], opt: str
) -> None:
    from msolver.vision.image import write_png

    png = tmp_path / "x.png"
    write_png(png, np.zeros((40, 40, 3), np.uint8))
    subst = {"BOARDS": str(flood_boards(tmp_path)), "IMAGE": str(png)}
    assert opt in refusal(capsys, *(subst.get(a, a) for a in args))


def test_profiles_says_a_user_profile_hides_a_builtin(capsys: Capture, profile_dir: Path) -> None:
    (profile_dir / "sgt-mines.json").write_text(BUILTIN.read_text())
    rc, out, _ = run(capsys, "profiles")
    row = next(line for line in out.splitlines() if line.startswith("sgt-mines"))
    assert rc == 0 and "hides the built-in" in row


def test_python_m_msolver_and_version() -> None:
    import subprocess

    from msolver import __version__

    p = subprocess.run(
        [sys.executable, "-m", "msolver", "--version"], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0 and p.stdout.strip() == f"msolver {__version__}"


def test_an_internal_error_is_one_line_and_a_saved_report(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import msolver.app.solve as solve

    def boom(_board: object) -> dict[str, object]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(solve, "solve_json", boom)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path))
    stdin_bytes(monkeypatch, b"..\n")
    rc, _, err = run(capsys, "solve", "--mines", "1")
    lines = err.strip().splitlines()
    assert rc == 1 and len(lines) == 1 and "Traceback" not in err
    report = Path(lines[0].split("the details are in ")[1].split("; please")[0])
    assert report.is_file() and "RuntimeError: a bug" in report.read_text()
