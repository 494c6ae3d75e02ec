"""Record the rare tiles (6, 7, 8, wrong flags) of gnome-mines and xdemineur on crowded boards.

An expert board almost never shows a 7 or an 8, and these games take no
layout. So we start custom 30x16 games with several hundred mines (gnome-mines:
its custom mode; xdemineur: -m N), open a cell or two (most open cells then
touch six to eight mines), flag a few cells, and click on until a mine goes
off. The lost board shows every mine, so the truth comes from the game:

- known tile kinds are named by the exemplar key of record_live.py;
- an unseen kind must be a number: each of its cells must have the same
  count of mine neighbours on the lost board (shown, exploded or flagged
  mines), which names it; a kind that breaks this stops the recording;
- the whole board is then checked like record_live.py's frames.

    /work/venv/bin/python screenshots/record_dense.py gnome-mines 360 --games 6
    /work/venv/bin/python screenshots/record_dense.py xdemineur 360 --games 6
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from screenshots.record_live import keyfile, kinds, load_key, snap, tile_of  # noqa: E402
from screenshots.record_sgt import start_xvfb  # noqa: E402

from msolver.core.board import (  # noqa: E402
    EXPLODED,
    FLAG,
    MINE,
    UNKNOWN,
    WRONG_FLAG,
    Board,
    neighbours_table,
)
from msolver.vision.grid import find_grid  # noqa: E402
from msolver.vision.image import write_png  # noqa: E402
from msolver.vision.profile import STATE_OF_LABEL  # noqa: E402
from tests.support import xgames  # noqa: E402

W, H = 30, 16
TAGS = {"gnome-mines": "w1200", "xdemineur": "x21"}


def launch(game: str, display: str, mines: int) -> xgames.GameWindow:
    tmpdir = Path(tempfile.mkdtemp(prefix=f"msolver-dense-{game}-"))
    env = dict(os.environ, DISPLAY=display, HOME=str(tmpdir), XDG_CONFIG_HOME=str(tmpdir / "cfg"))
    (tmpdir / "cfg").mkdir()
    (tmpdir / "stderr.log").write_bytes(b"")  # the harness reads it when closing
    if game == "gnome-mines":
        env["GSETTINGS_BACKEND"] = "keyfile"
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        settings = {
            "window-width": "1200",
            "window-height": "640",
            "mode": "3",
            "xsize": str(W),
            "ysize": str(H),
            "nmines": str(mines),
        }
        for key, value in settings.items():
            subprocess.run(
                ["gsettings", "set", "org.gnome.Mines", key, value],
                env=env,
                check=True,
                capture_output=True,
            )
        cmd = [xgames.BINARIES[game]]
    else:
        cmd = [xgames.BINARIES[game], "-geometry", f"{W}x{H}+0+0", "-m", str(mines)]
    before = xgames._visible_by_class(display, game)
    proc = subprocess.Popen(
        cmd,
        env=env,
        cwd=tmpdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    proc._msolver_tmp = tmpdir  # type: ignore[attr-defined]
    win = xgames.GameWindow(game=game, display=display, proc=proc, wid=0, tmpdir=tmpdir)
    win.wid = xgames._find_window(display, proc, game, 20.0, before)
    if game == "gnome-mines":
        # it opens on its game chooser: "Custom", then "Play Game" (settings pre-filled)
        time.sleep(1.0)
        x, y, _, _ = win.geometry()
        win.click(x + 760, y + 525)
        time.sleep(0.8)
        win.click(x + 604, y + 416)
        time.sleep(1.5)
    win.park_pointer()
    win.wait_drawn(settle=0.8 if game == "gnome-mines" else 0.25, timeout=20)
    return win


def centre(win: xgames.GameWindow, grid: object, i: int) -> tuple[int, int]:
    r, c = divmod(i, W)
    x, y, _, _ = win.geometry()
    o, p = grid.origin, grid.pitch  # type: ignore[attr-defined]
    return int(x + o[0] + (c + 0.5) * p[0]), int(y + o[1] + (r + 0.5) * p[1])


def settle(win: xgames.GameWindow) -> np.ndarray:
    win.park_pointer()
    time.sleep(0.1)
    return win.wait_drawn(settle=0.3)


def name_new_kinds(ks: list[str], key: dict[str, str]) -> dict[str, str] | str:
    """Name unseen kinds as numbers by the lost board's mines, or say why not."""
    nb = neighbours_table(W, H)
    mines = {i for i, k in enumerate(ks) if key.get(k) in ("mine", "exploded", "flag")}
    found: dict[str, set[int]] = {}
    for i, k in enumerate(ks):
        if k not in key:
            found.setdefault(k, set()).add(sum(1 for j in nb[i] if j in mines))
    named = {}
    for k, counts in found.items():
        if len(counts) != 1:
            return f"unseen kind {k} has mine counts {sorted(counts)}"
        named[k] = str(counts.pop())
    return named


def check(cells: list[int], n: int) -> str | None:
    nb = neighbours_table(W, H)
    mines = {i for i, s in enumerate(cells) if s in (MINE, EXPLODED, FLAG)}
    if len(mines) != n:
        return f"board shows {len(mines)} mines, expected {n}"
    if cells.count(EXPLODED) != 1:
        return "not exactly one exploded mine"
    for i, s in enumerate(cells):
        if s >= 0 and s != sum(1 for j in nb[i] if j in mines):
            return f"cell {divmod(i, W)} shows {s}"
        if s == WRONG_FLAG and i in mines:
            return f"wrong flag on a mine at {divmod(i, W)}"
        if s == UNKNOWN and i in mines:
            return f"unopened mine at {divmod(i, W)} on a lost board"
    return None


def record(game: str, mines: int, games: int, seed: int, want: set[int]) -> None:
    tag = TAGS[game]
    key = load_key(game, tag)
    out_dir = ROOT / "screenshots" / game
    ex_dir = keyfile(game, tag).parent / f"exemplars-{tag}"
    rng = random.Random(seed)
    proc, display = start_xvfb()
    written = 0
    have: set[int] = set()
    try:
        for g in range(games * 4):
            if written >= games:
                break
            win = launch(game, display, mines)
            try:
                img = settle(win)
                grid = snap(find_grid(img))
                if (grid.rows, grid.cols) != (H, W):
                    print("unexpected grid", grid)
                    continue
                inner = [r * W + c for r in range(1, H - 1) for c in range(1, W - 1)]
                for i in rng.sample(inner, 6):
                    win.click(*centre(win, grid, i), button=3)
                img = settle(win)
                for i in rng.sample(inner, 40):
                    if "exploded" in {key.get(k) for k in kinds(img, grid)}:
                        break
                    win.click(*centre(win, grid, i), button=1)
                    img = settle(win)
                img = settle(win)
            finally:
                win.close()
            ks = kinds(img, grid)
            new = name_new_kinds(ks, key)
            if isinstance(new, str):
                print("skipped:", new)
                continue
            cells = [STATE_OF_LABEL[key.get(k) or new[k]] for k in ks]
            bad = check(cells, mines)
            if bad:
                print("skipped:", bad)
                continue
            rare = {s for s in cells if s in want} - have
            if not rare:
                print("nothing rare on this board")
                continue
            have |= rare
            for k, label in new.items():
                key[k] = label
                j = ks.index(k)
                write_png(ex_dir / f"{k}.png", tile_of(img, grid, j))
                print("new kind", k, "named", label, "by the mine count")
            keyfile(game, tag).write_text(json.dumps(key, indent=0) + "\n")
            name = f"{tag}-n{mines}-g{g}-lost"
            write_png(out_dir / f"{name}.png", img)
            (out_dir / f"{name}.txt").write_text(Board(W, H, mines, tuple(cells)).to_text() + "\n")
            digits = sorted({s for s in cells if s >= 0})
            print("wrote", name, "digits", digits)
            written += 1
    finally:
        proc.terminate()
        proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", choices=sorted(TAGS))
    ap.add_argument("mines", type=int)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--want", default="6,7,8,W", help="keep boards showing these (W: wrong flag)")
    a = ap.parse_args()
    want = {WRONG_FLAG if w == "W" else int(w) for w in a.want.split(",")}
    record(a.game, a.mines, a.games, a.seed, want)


if __name__ == "__main__":
    main()
