"""The battery's calibration corpus: `msolver calibrate` on every recorded blank board.

Each `screenshots/corpus/NAME.png` has a `NAME.json` of truth measured by the
harness (tests/support/thirdparty.py, screenshots/record_battery.py), never by
msolver. A board must come out with rows and columns exact, the origin within
1 px (anywhere from origin - gap to origin where a game draws lines or gaps
between cells: those cut every cell the same way), the pitch within 0.05 px,
and no theme msolver never saw named as a built-in one. Refusal cases must end
with exit status 2 and nothing saved.

Cases that fail with today's reader are listed in XFAIL (strict: a case that
starts passing fails the run until it is struck from the list).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "screenshots" / "corpus"
ORIGIN_TOL = 1.0
PITCH_TOL = 0.05
# how much the box-to-face distance may differ between cells of one board
CUT_SPREAD = 0.5

# the calibrate --json keys of a grid's own line edges, by the truth's key of cell starts
EDGE_KEYS = {"col_starts": "col_edges", "row_starts": "row_edges"}

# case -> why it fails today (measured on this branch's main code, 2026-11-25).
# gnome-mines-1000x560 (GTK lays 10 columns 27 px apart and 20 at 26 px) passes
# since the Grid carries each line's own edges (branch unevengrid).
XFAIL: dict[str, str] = {
    # kmines (KDE), recorded at its first window size on a 1920x1080 screen:
    # a translucent board over a background picture (measured on branch kmines, 2026-11-25).
    "kmines-graveyard-mayhem-hard": "refused: 6 cells under the moon's glow unlike the rest",
}
# Cases that fail only in the window alone.
XFAIL_IN_WINDOW: dict[str, str] = {}
# Cases that fail only pasted on the dark screen.
XFAIL_ON_SCREEN: dict[str, str] = {
    # web-own's big look at 150% (recorded 2026-11-27, fifteenth session): the
    # window alone is exact; on the dark screen the first line is found 0.5 px
    # late and the pitch 0.06 px (x) and 0.13 px (y) short, the last line right.
    "web-own-big-z150-9x9": "pitch 67.445 x 67.374 against 67.5 on a dark screen",
}


def cases() -> list[str]:
    return sorted(p.stem for p in CORPUS.glob("*.json"))


def calibrate(image: Path, name: str, mines: int | None) -> tuple[int, str, str]:
    """Run `msolver calibrate --image ... --json` in process; (exit code, stdout, stderr)."""
    from msolver.cli import main

    args = ["calibrate", "--image", str(image), "--name", name, "--json"]
    if mines is not None:
        args += ["--mines", str(mines)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(args)
        except SystemExit as exc:  # argparse errors
            rc = int(exc.code) if isinstance(exc.code, int) else 2
    return rc, out.getvalue(), err.getvalue()


def check(truth: dict[str, Any], rc: int, out: str, err: str, saved: list[Path]) -> list[str]:
    """Everything wrong with one calibration, as sentences (empty: right)."""
    if truth["expect"] == "refuse":
        problems = []
        if rc != 2:
            problems.append(f"not refused: exit {rc} ({out.strip() or err.strip()})")
        if saved:
            problems.append(f"saved {[p.name for p in saved]} on a refused picture")
        return problems
    if rc != 0:
        return [f"exit {rc}: {err.strip()}"]
    got = json.loads(out)
    problems = []
    if (got["rows"], got["cols"]) != (truth["rows"], truth["cols"]):
        problems.append(f"size {got['cols']}x{got['rows']}, true {truth['cols']}x{truth['rows']}")
    gap = truth.get("gap", [0.0, 0.0])
    for axis, label, key in ((0, "x", "col_starts"), (1, "y", "row_starts")):
        o, t, g = got["origin"][axis], truth["origin"][axis], gap[axis]
        p, tp = got["pitch"][axis], truth["pitch"][axis]
        starts = truth.get(key) or []
        if starts:
            # Unevenly spaced cells: every cell's box must start where its
            # face does, within the same tolerance as an origin; a grid with
            # each line's own edges says where, an even one origin + k*pitch.
            edges = got.get(EDGE_KEYS[key]) or [o + k * p for k in range(len(starts) + 1)]
            if len(edges) != len(starts) + 1:
                problems.append(f"{len(edges)} {label} edges for {len(starts)} cells")
                continue
            off = [
                (k, s)
                for k, s in enumerate(starts)
                if not (s - g - ORIGIN_TOL <= edges[k] <= s + ORIGIN_TOL)
            ]
            if off:
                k, s = off[0]
                problems.append(
                    f"{len(off)} {label} cell edges off (origin {o}, pitch {p}): "
                    f"cell {k} at {edges[k]:.2f}, true {s}"
                )
            if got["theme"] == "custom":
                problems += _cut_alike(label, edges, starts)
            continue
        if not (t - g - ORIGIN_TOL <= o <= t + ORIGIN_TOL):
            problems.append(f"origin {label} {o}, true {t} (gap {g})")
        if abs(p - tp) > PITCH_TOL:
            problems.append(f"pitch {label} {p}, true {tp}")
        n = truth["cols"] if axis == 0 else truth["rows"]
        if got["theme"] == "custom":
            problems += _cut_alike(
                label, [o + k * p for k in range(n)], [t + k * tp for k in range(n)]
            )
    builtin = truth["builtin"]
    # A blank board drawn pixel for pixel as a built-in's may be named so: no
    # picture of a blank board can tell the two apart (the reader finds out at
    # the first numbers it cannot read surely, test_unsure_builtin).
    if builtin is None and got["theme"] not in ("custom", truth.get("blank_builtin")):
        problems.append(f"an unseen theme named as built-in {got['theme']!r}")
    if builtin is not None and got["theme"] not in (builtin, "custom"):
        problems.append(f"built-in {builtin} named {got['theme']!r}")
    return problems


def _cut_alike(label: str, edges: list[float], starts: list[float]) -> list[str]:
    """Whether every cell's box starts the same distance from its face (within
    CUT_SPREAD): a box a pixel later on some cells than on others takes in a
    pixel of the next cell's gap, which sharp dark gaps make a different tile.
    Asked of a board whose looks are learned (theme "custom"), where cells are
    compared with each other; a built-in theme's tiles are fitted to each
    cell to a fraction of a pixel and read a pixel's drift."""
    d = [e - s for e, s in zip(edges, starts, strict=False)]
    if max(d) - min(d) <= CUT_SPREAD:
        return []
    hi, lo = d.index(max(d)), d.index(min(d))
    return [
        f"{label} cells cut unevenly: cell {hi} {d[hi]:+.2f} px from its face, "
        f"cell {lo} {d[lo]:+.2f}"
    ]


def run_case(name: str, profile_dir: Path) -> list[str]:
    truth = json.loads((CORPUS / f"{name}.json").read_text())
    before = set(profile_dir.iterdir())
    rc, out, err = calibrate(CORPUS / f"{name}.png", "battery", truth.get("mines"))
    saved = sorted(set(profile_dir.iterdir()) - before)
    return check(truth, rc, out, err, saved)


def _param(name: str, more: dict[str, str] | None = None) -> Any:
    why = XFAIL.get(name) or (more or {}).get(name)
    if why is not None:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=why))
    return name


@pytest.fixture
def profile_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "profiles"
    d.mkdir()
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(d))
    return d


def test_corpus_is_big_enough() -> None:
    names = cases()
    truths = [json.loads((CORPUS / f"{n}.json").read_text()) for n in names]
    boards = [t for t in truths if t["expect"] == "board"]
    assert len(boards) >= 30, len(boards)
    assert len({t["theme"] for t in boards}) >= 8
    assert {t["why"].split(":")[0] for t in truths if t["expect"] == "refuse"} >= {
        "a partly played board",
        "a dialog covers the board",
        "no board in the picture",
        "two boards in the picture",
    }
    for n in names:
        assert (CORPUS / f"{n}.png").stat().st_size < 400_000, n


@pytest.mark.parametrize("name", [_param(n, XFAIL_IN_WINDOW) for n in cases()])
def test_calibrate_corpus(name: str, profile_dir: Path) -> None:
    problems = run_case(name, profile_dir)
    assert not problems, f"{name}: " + "; ".join(problems)


# Where a window sits on a desktop: the screen around it is dark and its
# edges are strong. A board must come out the same as in the window alone.
ON_SCREEN_AT = (37, 23)
ON_SCREEN_MARGIN = (240, 160)


def run_on_screen(name: str, profile_dir: Path) -> list[str]:
    """`run_case` with the window pasted into a black screen at ON_SCREEN_AT."""
    import numpy as np

    from msolver.vision.image import read_png, write_png

    truth = json.loads((CORPUS / f"{name}.json").read_text())
    dx, dy = ON_SCREEN_AT
    img = read_png(CORPUS / f"{name}.png")[:, :, :3]
    h, w = img.shape[:2]
    screen = np.zeros((h + ON_SCREEN_MARGIN[1], w + ON_SCREEN_MARGIN[0], 3), np.uint8)
    screen[dy : dy + h, dx : dx + w] = img
    shot = profile_dir.parent / f"{name}-on-screen.png"
    write_png(shot, screen)
    moved = dict(truth, origin=[truth["origin"][0] + dx, truth["origin"][1] + dy])
    moved["col_starts"] = [v + dx for v in truth.get("col_starts") or []]
    moved["row_starts"] = [v + dy for v in truth.get("row_starts") or []]
    before = set(profile_dir.iterdir())
    rc, out, err = calibrate(shot, "battery", truth.get("mines"))
    saved = sorted(set(profile_dir.iterdir()) - before)
    return check(moved, rc, out, err, saved)


def _board_cases() -> list[str]:
    return [
        n for n in cases() if json.loads((CORPUS / f"{n}.json").read_text())["expect"] == "board"
    ]


@pytest.mark.parametrize("name", [_param(n, XFAIL_ON_SCREEN) for n in _board_cases()])
def test_calibrate_corpus_on_a_dark_screen(name: str, profile_dir: Path) -> None:
    """Each window on a black screen (before: the Tk boards were found at three
    times their pitch or as two boards, minegauler's 9x9 grass with its last
    column cut across)."""
    problems = run_on_screen(name, profile_dir)
    assert not problems, f"{name} on a screen: " + "; ".join(problems)


def summary() -> int:
    """Print one line a case (`python -m tests.vision.test_battery_corpus`)."""
    import os
    import tempfile

    bad = total = 0
    boards = set(_board_cases())
    with tempfile.TemporaryDirectory() as tmp:
        profiles = Path(tmp) / "profiles"
        profiles.mkdir()
        os.environ["MSOLVER_PROFILE_DIR"] = str(profiles)
        for name in cases():
            for run, label in ((run_case, ""), (run_on_screen, " on a dark screen")):
                if label and name not in boards:
                    continue
                problems = run(name, profiles)
                for p in profiles.iterdir():
                    p.unlink()
                total += 1
                bad += bool(problems)
                mark = "ok  " if not problems else "FAIL"
                listed = " (listed xfail)" if name in XFAIL else ""
                print(f"{mark} {name}{label}{listed}: {'; '.join(problems) or 'exact'}")
    print(f"{total - bad} passed, {bad} failed")
    return 0


if __name__ == "__main__":
    raise SystemExit(summary())
