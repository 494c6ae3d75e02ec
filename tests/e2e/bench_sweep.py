"""Live sweep: the battery's real games at parameters no battery entry uses.

    python -m tests.e2e.bench_sweep OUT SEED N [--games G] [--family F ...]

Draws N variants from SEED, one family after another (sgt-mines in a random
palette kind, seed and tile size; minegauler in a random style and button
size; kmines in a random theme, level and Qt scale; gnome-mines at a random
window size, tile theme and GTK theme; the npm web game at a random zoom;
pygame-minesweeper in a random sheet; the Tk clone in a random look, cell
size, dialog and first-click rule) and runs each as `bench_battery.run_one`
does (calibrate from one whole-screen grab, then play G games, every frame
recorded). Each result is a JSON line in OUT/results.jsonl and on stdout;
what a variant kept (blank shot, frames, log) is under OUT/NAME. The last
line sums them: looks calibrated, games played and won, stops, clicks from
misreads and losses on a certain click. The same SEED draws the same
variants: a failure can be run again alone.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tests.e2e import bench_battery as bb
from tests.support import thirdparty as tp

FAMILIES = ("sgt", "mg", "kmines", "gnome", "web", "pygame", "tk")
SIZES = [(9, 9, 10), (16, 16, 40), (30, 16, 99), (12, 10, 20), (20, 14, 45), (24, 20, 80)]
WIDEST = 1800  # px a board may take on the 1920 px screen


def draw(rnd: random.Random, family: str) -> tp.Variant:
    """One variant of `family`, drawn from `rnd`."""
    if family == "sgt":
        kind = rnd.choice(["light", "dark", "low", "mono", "faint", "faintdark", "any"])
        seed = rnd.randint(100, 10**6)
        tile = rnd.randint(14, 40)
        cols, rows, mines = rnd.choice(SIZES)
        tile = min(tile, WIDEST // cols)
        return tp._sgt(f"sgt-{kind}-{seed}-t{tile}", kind, seed, tile, cols, rows, mines)
    if family == "mg":
        style = rnd.choice(["Standard", "Textured", "Dark", "Butterfly", "Christmas"])
        btn = rnd.randint(16, 36)
        cols, rows, mines = rnd.choice(SIZES[:3])
        btn = min(btn, WIDEST // cols)
        numbers = rnd.choice(["Standard", "Dark"]) if style == "Dark" else "Standard"
        return tp._mg(style, btn, cols, rows, mines, numbers=numbers)
    if family == "kmines":
        return tp._kmines(
            rnd.choice(["default", "classic", "graveyard-mayhem", "green"]),
            rnd.choice(list(tp.KMINES_LEVELS)),
            rnd.choice([1.0, 1.25, 1.5, 1.75, 2.0]),
        )
    if family == "gnome":
        size = (rnd.randint(800, 1850), rnd.randint(500, 1040))  # a window, in px
        theme = rnd.choice([None, None, "classic", "default"])
        gtk = rnd.choice([None, None, "Adwaita:dark", "HighContrast", "HighContrastInverse"])
        return tp._gnome(*size, theme, gtk)
    if family == "web":
        cols, rows, mines = rnd.choice([(9, 9, 10), (16, 16, 40), (16, 12, 30)])
        zoom = rnd.choice([0.67, 0.8, 0.9, 1.1, 1.25, 1.33, 1.5, 1.75, 2.0])
        return tp._web(zoom, cols, rows, mines)
    if family == "pygame":
        cols, rows, mines = rnd.choice(SIZES[:3])
        return tp._pygame(rnd.choice(["2000", "95", "fiorito-xp", "monochrome"]), cols, rows, mines)
    if family == "tk":
        style = rnd.choice(["image", "text", "stock", "checker"])
        cell = rnd.randint(16, 40) if style in ("image", "checker") else 0
        cols, rows, mines = rnd.choice(SIZES[:3])
        return tp._tk(
            style,
            cell,
            cols,
            rows,
            mines,
            dialog=rnd.random() < 0.3,
            first_click=rnd.choice(["safe", "safe", "xp"]),
        )
    raise ValueError(f"unknown family {family!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--family", action="append", choices=FAMILIES)
    args = ap.parse_args()
    families = args.family or list(FAMILIES)
    rnd = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    total: dict[str, int] = {
        "looks": 0,
        "calibrated": 0,
        "played": 0,
        "won": 0,
        "stopped": 0,
        "misread_clicks": 0,
        "certain_losses": 0,
        "harness_errors": 0,
    }
    for k in range(args.n):
        v = draw(rnd, families[k % len(families)])
        t0 = time.monotonic()
        row: dict[str, Any]
        try:
            row = asdict(
                bb.run_one(v, args.games, timeout=240, keep=args.out / v.name, record=True)
            )
        except Exception as exc:  # the harness failed (a game would not start), not msolver
            row = {"game": v.name, "harness_error": repr(exc)}
            total["harness_errors"] += 1
        row["params"] = repr(v.params)
        row["wall"] = round(time.monotonic() - t0, 1)
        print(json.dumps(row), flush=True)
        with open(args.out / "results.jsonl", "a") as f:
            f.write(json.dumps(row) + "\n")
        if "harness_error" in row or row.get("skipped"):
            continue
        total["looks"] += 1
        total["calibrated"] += bool(row["calibrated"])
        total["played"] += row["played"]
        total["won"] += row["won"]
        total["stopped"] += bool(row["stopped"])
        total["misread_clicks"] += row["misread_clicks"] or 0
        total["certain_losses"] += row["certain_losses"]
    print(json.dumps({"total": total}))


if __name__ == "__main__":
    main()
