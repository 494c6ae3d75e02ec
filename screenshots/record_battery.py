"""Record the calibration corpus of the game battery (screenshots/corpus/).

    python screenshots/record_battery.py [--only NAME ...] [--overlays DIR]

Starts every variant of tests/support/thirdparty.BATTERY on a private Xvfb,
grabs its window on a blank board (pointer parked off the board), and writes
`<name>.png` with a `<name>.json` sidecar of truth measured by the harness's
per-game rule. `--overlays DIR` also writes each shot with the true grid drawn
over it, for a person to check. Then it records the refusal cases (a board
after one click, a board under a dialog, no board, two boards side by side).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from msolver.vision.image import write_png
from tests.support import thirdparty as tp
from tests.support import xgames
from tests.support.xvfb import private_display

OUT = Path(__file__).resolve().parent / "corpus"


def sidecar(v: tp.Variant, t: tp.Truth) -> dict[str, object]:
    return {
        "game": v.game,
        "theme": v.theme,
        "toolkit": v.toolkit,
        "rows": t.rows,
        "cols": t.cols,
        "mines": t.mines,
        "origin": [round(t.origin[0], 3), round(t.origin[1], 3)],
        "pitch": [round(t.pitch[0], 4), round(t.pitch[1], 4)],
        "gap": [round(t.gap[0], 3), round(t.gap[1], 3)],
        "col_starts": list(t.col_starts),
        "row_starts": list(t.row_starts),
        "builtin": v.builtin,
        "blank_builtin": v.blank_builtin,
        "first_click": v.first_click,
        "new_game": v.new_game,
        "expect": "board",
    }


def save(name: str, img: np.ndarray, meta: dict[str, object]) -> None:
    write_png(OUT / f"{name}.png", img)
    (OUT / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"  wrote {name}.png {img.shape[1]}x{img.shape[0]}", flush=True)


def record_variants(names: list[str], overlays: Path | None) -> None:
    """Each variant on its own fresh Xvfb (a long-lived one died twice mid-run here)."""
    for v in tp.BATTERY:
        if names and v.name not in names:
            continue
        if not names and (OUT / f"{v.name}.png").exists():
            continue  # resume: an earlier run recorded it
        print(v.name, flush=True)
        why = tp.available(v)
        if why is not None:
            print(f"  skipped: {why}")
            continue
        with private_display() as display:
            record_one(v, display, overlays)


def record_one(v: tp.Variant, display: str, overlays: Path | None) -> None:
    win, truth = tp.launch(v, display)
    try:
        img = win.screenshot()
        save(v.name, img, sidecar(v, truth))
        if overlays is not None:
            overlays.mkdir(parents=True, exist_ok=True)
            write_png(overlays / f"{v.name}.png", tp.draw_grid(img, truth))
    finally:
        win.close()


def record_refusals(display: str) -> None:
    v = tp.BY_NAME["sgt-light-2-t23"]
    # A board after one click.
    win, truth = tp.launch(v, display)
    try:
        x, y, _, _ = win.geometry()
        cx = int(x + truth.origin[0] + 7.5 * truth.pitch[0])
        cy = int(y + truth.origin[1] + 7.5 * truth.pitch[1])
        win.click(cx, cy)
        win.park_pointer()
        img = win.wait_drawn()
        save(
            "refuse-partly-played",
            img,
            refusal(v, "a partly played board: show a new, unplayed board"),
        )
    finally:
        win.close()
    # A board under a dialog (xmessage, x11-utils) placed over its middle.
    win, truth = tp.launch(v, display)
    msg = subprocess.Popen(
        ["xmessage", "-geometry", "+120+160", "-buttons", "OK", "Game over. You lost! Play again?"],
        env={"DISPLAY": display, "PATH": "/usr/bin:/bin"},
    )
    try:
        time.sleep(1.0)
        win.park_pointer()
        img = win.wait_drawn()
        save("refuse-dialog", img, refusal(v, "a dialog covers the board"))
        # No board: the dialog alone.
        out = xgames._xdotool(display, "search", "--onlyvisible", "--name", "xmessage")
        wid = out.split()[0] if out.split() else None
        if wid is not None:
            geo = xgames._xdotool(display, "getwindowgeometry", "--shell", wid)
            vals = dict(line.split("=", 1) for line in geo.split() if "=" in line)
            region = (int(vals["X"]), int(vals["Y"]), int(vals["WIDTH"]), int(vals["HEIGHT"]))
            # pad it with the desktop around it so it is a plausible screenshot
            pad = (max(0, region[0] - 60), max(0, region[1] - 40), region[2] + 120, region[3] + 80)
            save(
                "refuse-no-board", xgames.grab(display, pad), refusal(v, "no board in the picture")
            )
    finally:
        msg.kill()
        msg.wait()
        win.close()
    # Two boards side by side.
    w1, _ = tp.launch(v, display)
    w2, _ = tp.launch(tp.BY_NAME["sgt-dark-2-t26"], display)
    try:
        _, _, ww, wh = w1.geometry()
        w2.move(ww + 10, 0)
        _, _, w2w, w2h = w2.geometry()
        w1.park_pointer()
        time.sleep(0.5)
        img = xgames.grab(display, (0, 0, ww + 10 + w2w, max(wh, w2h)))
        save("refuse-two-boards", img, refusal(v, "two boards in the picture"))
    finally:
        w1.close()
        w2.close()


def refusal(v: tp.Variant, why: str) -> dict[str, object]:
    return {"game": v.game, "theme": v.theme, "mines": v.mines, "expect": "refuse", "why": why}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--overlays", type=Path, default=None)
    ap.add_argument("--no-refusals", action="store_true")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    record_variants(args.only, args.overlays)
    if not args.no_refusals and not args.only:
        with private_display() as display:
            record_refusals(display)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
