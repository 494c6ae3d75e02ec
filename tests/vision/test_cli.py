"""The CLI contract: msolver calibrate / read / dryrun, their JSON keys and their refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from msolver.cli import main
from msolver.vision.image import write_png
from tests.vision.conftest import SHOTS, desktop, shot, truth

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("msolver: ")
    return lines[0]


def test_calibrate_saves_a_profile_from_a_screenshot(
    capsys: Capture, tmp_path: Path, profile_dir: Path
) -> None:
    png = tmp_path / "screen.png"
    write_png(png, desktop(shot(SHOTS / "gnome-mines" / "w1200-g0-start.png"), (300, 200)))
    rc, out, err = run(capsys, "calibrate", "--image", str(png), "--name", "g", "--mines", "99")
    assert rc == 0, err
    assert "saved" in out and (profile_dir / "g.json").is_file()
    rc, out, _ = run(capsys, "calibrate", "--image", str(png), "--json")
    assert rc == 0
    summary = json.loads(out)
    assert summary["name"] == "gnome-mines" and summary["theme"] == "gnome-mines"
    assert (summary["rows"], summary["cols"], summary["mines"]) == (16, 30, 99)
    assert summary["origin"] == [323.0, 308.0] and summary["pitch"] == [33.0, 33.0]


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (None, "no such file"),
        (b"", "file is empty"),
        (b"this is not a picture", "not an image"),
    ],
)
def test_calibrate_and_read_refuse_a_file_that_is_no_image(
    capsys: Capture, tmp_path: Path, profile_dir: Path, content: bytes | None, what: str
) -> None:
    path = tmp_path / "bad.png"
    if content is not None:
        path.write_bytes(content)
    for args in (("calibrate", "--image", str(path)), ("read", str(path), "--auto")):
        rc, out, err = run(capsys, *args)
        assert rc == 2 and out == ""
        line = one_line_error(err)
        assert what in line and "bad.png" in line
    assert not profile_dir.exists() or not list(profile_dir.iterdir())


def test_calibrate_refuses_a_screen_without_a_board_or_with_two(
    capsys: Capture, tmp_path: Path
) -> None:
    empty = tmp_path / "desk.png"
    write_png(empty, desktop(np.zeros((0, 0, 3), np.uint8), (0, 0)))
    rc, _out, err = run(capsys, "calibrate", "--image", str(empty))
    assert rc == 2 and "no board found" in one_line_error(err)
    two = tmp_path / "two.png"
    a = shot(SHOTS / "xdemineur" / "x21-g0-start.png")
    img = desktop(a, (0, 0))
    img[500 : 500 + a.shape[0], 1000 : 1000 + a.shape[1]] = a
    write_png(two, img)
    rc, _out, err = run(capsys, "calibrate", "--image", str(two))
    assert rc == 2 and "boards found" in one_line_error(err)


@pytest.mark.parametrize(
    "path",
    [
        SHOTS / "sgt-mines" / "t20-lost.png",
        SHOTS / "gnome-mines" / "w1200-g1-f52.png",
        SHOTS / "xdemineur" / "x21-g2-lost.png",
    ],
    ids=lambda p: p.parent.name,
)
def test_read_prints_the_board_as_text_and_json(capsys: Capture, path: Path) -> None:
    game = path.parent.name
    rc, out, err = run(capsys, "read", str(path), "--profile", game)
    assert rc == 0, err
    assert out == truth(path).to_text() + "\n"
    rc, out, _ = run(capsys, "read", str(path), "--auto", "--json")
    assert rc == 0
    data = json.loads(out)
    assert set(data) == {"board", "rows", "cols", "low_confidence"}
    assert (data["board"], data["rows"], data["cols"]) == (truth(path).to_text(), 16, 30)
    assert data["low_confidence"] == []


def test_read_reports_unclear_cells_in_json(capsys: Capture, tmp_path: Path) -> None:
    img = shot(SHOTS / "sgt-mines" / "t20-mid1.png").copy()
    img[55 + 3 * 20 : 55 + 4 * 20, 30 + 7 * 20 : 30 + 8 * 20] = (255, 0, 255)
    png = tmp_path / "covered.png"
    write_png(png, img)
    rc, out, err = run(capsys, "read", str(png), "--profile", "sgt-mines", "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["low_confidence"] == [[3, 7]]
    assert data["board"].splitlines()[3][7] == "."


def test_read_refuses_a_profile_of_another_game(capsys: Capture) -> None:
    path = SHOTS / "xdemineur" / "x21-g1-f45.png"
    rc, out, err = run(capsys, "read", str(path), "--profile", "sgt-mines")
    assert rc == 2 and out == ""
    assert "match no tile of profile 'sgt-mines'" in one_line_error(err)
    rc, out, err = run(capsys, "read", str(path), "--profile", "no-such-profile")
    assert rc == 2 and "no profile named 'no-such-profile'" in one_line_error(err)


def test_dryrun_plays_through_the_reader_with_zero_misreads(capsys: Capture) -> None:
    args = ["dryrun", "--profile", "sgt-mines", "--level", "expert", "--first-click"]
    args += ["opening", "--games", "3", "--seed", "5", "--json"]
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    data = json.loads(out)
    assert {"games", "wins", "win_rate", "ci95", "misreads", "frames", "ms_per_frame"} <= set(data)
    assert data["games"] == 3 and data["misreads"] == 0
    assert data["win_rate"] == data["wins"] / 3
    assert 0 <= data["ci95"][0] <= data["win_rate"] <= data["ci95"][1] <= 1
    assert data["frames"] >= 3 and data["ms_per_frame"] > 0
    # the same seeds give the same games
    rc, again, _ = run(capsys, *args)
    assert json.loads(again)["wins"] == data["wins"]
    assert json.loads(again)["frames"] == data["frames"]


def test_dryrun_with_noise_and_recoloured_digits(capsys: Capture) -> None:
    args = ["dryrun", "--profile", "xdemineur", "--level", "intermediate", "--games", "2"]
    args += ["--seed", "2", "--noise", "10", "--recolour", "--json"]
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    data = json.loads(out)
    assert data["misreads"] == 0 and data["low_confidence_cells"] == 0


def test_dryrun_text_output_and_bad_arguments(capsys: Capture) -> None:
    rc, out, err = run(capsys, "dryrun", "--profile", "sgt-mines", "--games", "1", "--seed", "3")
    assert rc == 0, err
    assert "win rate" in out and "misread cells 0" in out and "solver alone" in out
    for bad, what in (
        (["--level", "huge"], "unknown level"),
        (["--games", "0"], "--games 0"),
        (["--noise", "-1"], "--noise"),
        (["--profile", "nope"], "no profile named"),
    ):
        argv = ["dryrun", "--profile", "sgt-mines", "--games", "1", *bad]
        rc, _out, err = run(capsys, *argv)
        assert rc == 2 and what in one_line_error(err)
