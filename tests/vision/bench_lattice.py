"""Benchmark of the lattice board finder: cases found exactly, per source, and CPU time per image.

python -m tests.vision.bench_lattice [--synthetic N]

Sources: the recorded blank boards (sgt-mines, gnome-mines; xdemineur's
partly played start) at 100-200% on a 1920x1080 desktop; random synthetic
boards (tests/vision/synth_boards.py); the battery corpus of third-party
games when /work/wt-battery/screenshots/corpus is present. Exact: rows and
columns equal, origin within 0.25 px (for a game with gaps, anywhere in
[origin - gap, origin]), pitch within 0.05 px; refusals must be refused.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Iterator

import numpy as np

from msolver.vision.image import Image, read_png
from msolver.vision.lattice import Lattice, LatticeError, find_lattice
from msolver.vision.profile import load_profile
from tests.vision.conftest import SHOTS, desktop, scaled, shot
from tests.vision.synth_boards import Spec, render
from tests.vision.test_lattice import BATTERY

Case = tuple[str, str, Image, dict[str, object]]


def _recorded() -> Iterator[Case]:
    for game, stem in (
        ("sgt-mines", "t20-blank"),
        ("gnome-mines", "w1200-g0-start"),
        ("xdemineur", "x21-g0-start"),
    ):
        prof = load_profile(game)
        for s in (1.0, 1.25, 1.5, 1.75, 2.0):
            win = scaled(shot(SHOTS / game / f"{stem}.png"), s)
            at = (37, 21)
            size = (max(1920, at[0] + win.shape[1] + 5), max(1080, at[1] + win.shape[0] + 5))
            truth = {
                "rows": prof.rows,
                "cols": prof.cols,
                "origin": [at[i] + prof.origin[i] * s for i in (0, 1)],
                "pitch": [prof.pitch[i] * s for i in (0, 1)],
                "gap": [0.0, 0.0],
                "expect": "board",
            }
            yield "recorded", f"{game}@{s}", desktop(win, at, size), truth


def _synthetic(n: int) -> Iterator[Case]:
    rng = np.random.default_rng(2026)
    for i in range(n):
        style = str(rng.choice(["bevel", "flat", "rounded", "lines"]))
        cols = int(rng.choice([9, 16, 30]))
        scale = float(rng.choice([1.0, 1.25, 1.5, 1.75, 2.0]))
        tile = int(rng.integers(12, 49))
        tile = min(tile, int(1700 / cols / scale) - 3)
        spec = Spec(
            rows=int(rng.choice([9, 16])),
            cols=cols,
            tile=tile,
            gap=int(rng.choice([2, 3]))
            if style in ("flat", "rounded")
            else int(rng.choice([0, 2])),
            style=style,
            texture=bool(rng.integers(2)),
            gradient=bool(rng.integers(2)),
            toolbar=bool(rng.integers(2)),
            scale=scale,
            area=bool(rng.integers(2)),
            seed=i,
            at=(int(rng.integers(0, 200)), int(rng.integers(0, 100))),
        )
        img, t = render(spec)
        gap = 1 if style == "lines" else spec.gap
        truth = {
            "rows": t.rows,
            "cols": t.cols,
            "origin": list(t.origin),
            "pitch": list(t.pitch),
            "gap": [0.0, 0.0],
            "expect": "board",
            "what": f"{style} t{tile} gap{gap} x{scale} tex{int(spec.texture)} "
            f"grad{int(spec.gradient)} bar{int(spec.toolbar)}",
        }
        yield "synthetic", f"synth-{i}", img, truth


def _battery() -> Iterator[Case]:
    if not BATTERY.is_dir():
        return
    for j in sorted(BATTERY.glob("*.json")):
        t = json.loads(j.read_text())
        src = "battery:" + j.stem.split("-")[0]
        yield src, j.stem, read_png(j.with_suffix(".png")), t


def _exact(lat: Lattice, t: dict[str, object]) -> bool:
    origin, pitch, gap = t["origin"], t["pitch"], t["gap"]
    assert isinstance(origin, list) and isinstance(pitch, list) and isinstance(gap, list)
    if (lat.rows, lat.cols) != (t["rows"], t["cols"]) or lat.unlike:
        return False
    for a in (0, 1):
        if not origin[a] - gap[a] - 0.25 <= lat.origin[a] <= origin[a] + 0.25:
            return False
        if abs(lat.pitch[a] - pitch[a]) > 0.05:
            return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--synthetic", type=int, default=40)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    times: list[float] = []
    for src, name, img, truth in (*_recorded(), *_synthetic(args.synthetic), *_battery()):
        t0 = time.process_time()
        try:
            lat: Lattice | None = find_lattice(img)
            err = ""
        except LatticeError as exc:
            lat, err = None, str(exc)
        times.append(time.process_time() - t0)
        if truth.get("expect") == "refuse":
            ok = lat is None or bool(lat.unlike)  # refused here, or by calibrate as not blank
        elif name.startswith("xdemineur"):
            ok = lat is not None and (lat.rows, lat.cols) == (16, 30) and len(lat.unlike) == 20
        else:
            ok = lat is not None and _exact(lat, truth)
        found[src][0] += ok
        found[src][1] += 1
        if args.verbose and not ok:
            got = err or (lat and (lat.rows, lat.cols, lat.origin, lat.pitch, len(lat.unlike)))
            print(f"  miss {name} {truth.get('what', '')}: {got}")
    total = [sum(v[0] for v in found.values()), sum(v[1] for v in found.values())]
    for src, (ok, n) in sorted(found.items()):
        print(f"{src:22s} {ok:3d}/{n:3d}")
    print(f"{'all':22s} {total[0]:3d}/{total[1]:3d}")
    arr = np.array(times)
    print(
        f"CPU time per image: median {np.median(arr):.3f} s, max {arr.max():.3f} s "
        f"({len(arr)} images)"
    )


if __name__ == "__main__":
    main()
