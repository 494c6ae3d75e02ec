"""Record gnome-mines and xdemineur screenshots with a truth that comes from the game.

These games have no game IDs, so the truth is built in two independent steps:

1. Exact tile key. The games draw every tile of a kind pixel-identically, so
   each cell box (found by msolver.vision.grid on the blank board) is hashed.
   `discover` plays random clicks and dumps every distinct kind; a person
   names each kind once by looking at it (tilekey-<tag>.json).
2. Rules check. Frames are labelled by exact hash only (an unseen kind stops
   the recording), then checked against the finished game: on a loss the game
   shows every mine, on a win every unopened cell is a mine; every number in
   every frame must equal its mine neighbours, no opened cell may be a mine,
   and every flag on a won board is a mine. A frame that fails is not written.

So the truth never comes from the classifier under test.

    /work/venv/bin/python screenshots/record_live.py discover gnome-mines w1200
    /work/venv/bin/python screenshots/record_live.py record gnome-mines w1200 --games 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

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
from msolver.core.solver import Solver  # noqa: E402
from msolver.vision.grid import Grid, find_grid  # noqa: E402
from msolver.vision.image import px, write_png  # noqa: E402
from msolver.vision.profile import STATE_OF_LABEL  # noqa: E402
from tests.support import xgames  # noqa: E402

W, H, N = 30, 16, 99
SIZES = {"w1200": (1200, 640), "w1500": (1500, 800), "w1000": (1000, 560)}


def launch(game: str, display: str, tag: str) -> xgames.GameWindow:
    if game == "gnome-mines":
        return xgames.launch(game, display, size=SIZES[tag])
    return xgames.launch(game, display)


def snap(grid: Grid) -> Grid:
    """Whole-pixel pitch and origin (these games draw on whole pixels)."""
    p = (float(round(grid.pitch[0])), float(round(grid.pitch[1])))
    o = (float(px(grid.origin[0])), float(px(grid.origin[1])))
    return Grid(origin=o, pitch=p, rows=grid.rows, cols=grid.cols)


# gnome-mines draws tiles at fractional positions, so equal tiles differ by
# anti-aliasing; kinds are exemplars matched with a tight tolerance instead of
# exact hashes (mean |RGB difference| per pixel; different kinds differ by tens)
_TIGHT = 6.0
EXEMPLARS: dict[str, np.ndarray] = {}


def kinds(img: np.ndarray, grid: Grid) -> list[str]:
    """An exemplar id per cell; a tile unlike every exemplar becomes a new one."""
    out = []
    for i in range(grid.rows * grid.cols):
        tile = tile_of(img, grid, i).astype(np.float32)
        best, best_d = None, 1e9
        for k, ex in EXEMPLARS.items():
            d = float(np.abs(ex - tile).mean())
            if d < best_d:
                best, best_d = k, d
        if best is None or best_d > _TIGHT:
            best = hashlib.sha1(tile.astype(np.uint8).tobytes()).hexdigest()[:12]
            EXEMPLARS[best] = tile
        out.append(best)
    return out


def tile_of(img: np.ndarray, grid: Grid, i: int) -> np.ndarray:
    w, h = int(grid.pitch[0]), int(grid.pitch[1])
    r, c = divmod(i, grid.cols)
    x = int(grid.origin[0] + c * grid.pitch[0])
    y = int(grid.origin[1] + r * grid.pitch[1])
    return img[y : y + h, x : x + w]


def keyfile(game: str, tag: str) -> Path:
    return ROOT / "screenshots" / game / f"tilekey-{tag}.json"


def center(win: xgames.GameWindow, grid: Grid, i: int) -> tuple[int, int]:
    r, c = divmod(i, W)
    x, y, _, _ = win.geometry()
    return (
        int(x + grid.origin[0] + (c + 0.5) * grid.pitch[0]),
        int(y + grid.origin[1] + (r + 0.5) * grid.pitch[1]),
    )


def settle(win: xgames.GameWindow) -> np.ndarray:
    win.park_pointer()
    time.sleep(0.05)
    return win.wait_drawn(settle=0.2)


def discover(game: str, tag: str, games: int) -> None:
    proc, display = start_xvfb()
    seen: dict[str, tuple[int, np.ndarray]] = {}
    known = load_key(game, tag)
    rng = random.Random(5)
    try:
        for _ in range(games):
            win = launch(game, display, tag)
            img = settle(win)
            grid = snap(find_grid(img))
            for step in range(60):
                i = rng.randrange(W * H)
                win.click(*center(win, grid, i), button=3 if step % 4 == 3 else 1)
                img = settle(win)
                for j, k in enumerate(kinds(img, grid)):
                    n, t = seen.get(k, (0, tile_of(img, grid, j)))
                    seen[k] = (n + 1, t)
            # a hovered cell
            x, y = center(win, grid, rng.randrange(W * H))
            xgames._xdotool(display, "mousemove", str(x), str(y))
            time.sleep(0.2)
            img = win.wait_drawn()
            for j, k in enumerate(kinds(img, grid)):
                n, t = seen.get(k, (0, tile_of(img, grid, j)))
                seen[k] = (n + 1, t)
            win.close()
    finally:
        proc.terminate()
        proc.wait()
    out = Path(f"/tmp/v3_kinds/{game}-{tag}")
    out.mkdir(parents=True, exist_ok=True)
    import cv2

    tiles = []
    ex_dir = keyfile(game, tag).parent / f"exemplars-{tag}"
    ex_dir.mkdir(parents=True, exist_ok=True)
    for k, (n, t) in sorted(seen.items(), key=lambda kv: -kv[1][0]):
        if k in known:
            continue
        write_png(out / f"{k}.png", t)
        write_png(ex_dir / f"{k}.png", t)
        tiles.append((k, n, t))
    if tiles:
        big = [
            cv2.resize(t, (t.shape[1] * 3, t.shape[0] * 3), interpolation=0) for _, _, t in tiles
        ]
        h = max(b.shape[0] for b in big)
        strip = np.concatenate(
            [np.pad(b, ((0, h - b.shape[0]), (0, 6), (0, 0)), constant_values=255) for b in big],
            axis=1,
        )
        write_png(out / "montage.png", strip)
    print(json.dumps([(k, n) for k, n, _ in tiles]))


def load_key(game: str, tag: str) -> dict[str, str]:
    """Exemplar id -> label; loads the exemplar tiles saved beside the key."""
    from msolver.vision.image import read_png

    p = keyfile(game, tag)
    key: dict[str, str] = json.loads(p.read_text()) if p.exists() else {}
    folder = p.parent / f"exemplars-{tag}"
    for k in key:
        EXEMPLARS[k] = read_png(folder / f"{k}.png").astype(np.float32)
    return key


def check_truth(frames: list[list[int]], final: list[int], lost: bool) -> str | None:
    """None when every frame agrees with the mine layout the finished game shows."""
    nb = neighbours_table(W, H)
    if lost:
        mines = {i for i, s in enumerate(final) if s in (MINE, EXPLODED, FLAG)}
    else:
        mines = {i for i, s in enumerate(final) if s < 0}
    if len(mines) != N:
        return f"finished board shows {len(mines)} mines, expected {N}"
    for f, cells in enumerate([*frames, final]):
        for i, s in enumerate(cells):
            if s >= 0:
                if i in mines:
                    return f"frame {f}: opened cell {divmod(i, W)} is a mine"
                if s != sum(1 for j in nb[i] if j in mines):
                    return f"frame {f}: cell {divmod(i, W)} shows {s}, has other count"
            if s == WRONG_FLAG and i in mines:
                return f"frame {f}: wrong flag on a mine at {divmod(i, W)}"
    return None


def record(game: str, tag: str, games: int, seed: int) -> None:
    key = load_key(game, tag)
    out_dir = ROOT / "screenshots" / game
    proc, display = start_xvfb()
    rng = random.Random(seed)
    try:
        g = 0
        attempts = 0
        while g < games and attempts < games * 6:
            attempts += 1
            win = launch(game, display, tag)
            img = settle(win)
            grid = snap(find_grid(img))
            solver = Solver(first_click="safe")
            shots: list[tuple[np.ndarray, list[int]]] = []
            stopped = None
            step = 0
            hover_done = False
            last_open: set[int] = set()
            won_by_dialog = False
            while True:
                ks = kinds(img, grid)
                miss = [k for k in ks if k not in key]
                if miss and game == "gnome-mines" and shots and last_open:
                    # a win pops up a "best times" dialog over the board: the
                    # mines are then whatever the winning moves left unopened
                    prev = shots[-1][1]
                    mines = {i for i, v in enumerate(prev) if v < 0} - last_open
                    if len(mines) == N:
                        nbt = neighbours_table(W, H)
                        virtual = [
                            FLAG if i in mines else sum(1 for j in nbt[i] if j in mines)
                            for i in range(W * H)
                        ]
                        shots.append((img, virtual))
                        won_by_dialog = True
                        break
                if miss:
                    stopped = f"unseen tile kind {miss[0]}"
                    dump = Path(f"/tmp/v3_kinds/{game}-{tag}")
                    dump.mkdir(parents=True, exist_ok=True)
                    ex_dir = keyfile(game, tag).parent / f"exemplars-{tag}"
                    for j, k in enumerate(ks):
                        if k not in key:
                            write_png(dump / f"new-{k}.png", tile_of(img, grid, j))
                            write_png(ex_dir / f"{k}.png", tile_of(img, grid, j))
                    break
                cells = [STATE_OF_LABEL[key[k]] for k in ks]
                board = Board(W, H, N, tuple(cells))
                done = EXPLODED in cells or sum(1 for s in cells if s >= 0) == W * H - N
                shots.append((img, cells))
                if done:
                    break
                if step == 2 and game == "gnome-mines" and not hover_done:
                    # the pointer over an unopened cell lightens it
                    j = next(i for i, s in enumerate(cells) if s == UNKNOWN)
                    x, y = center(win, grid, j)
                    xgames._xdotool(display, "mousemove", str(x), str(y))
                    time.sleep(0.2)
                    himg = win.wait_drawn(settle=0.2)
                    shots.append((himg, cells))
                    hover_done = True
                dec = solver.decide(board)
                if dec.status != "ok" or not dec.moves:
                    stopped = f"solver {dec.status}: {dec.reason}"
                    break
                last_open = {mv.index for mv in dec.moves if mv.kind == "open"}
                for mv in dec.moves:
                    win.click(*center(win, grid, mv.index), button=1 if mv.kind == "open" else 3)
                step += 1
                img = settle(win)
            win.close()
            if stopped:
                print("stopped:", stopped)
                if "unseen" in stopped:
                    return
                continue
            final = shots[-1][1]
            lost = EXPLODED in final
            bad = check_truth([c for _, c in shots[:-1]], final, lost)
            if bad:
                print("truth check failed:", bad)
                continue
            # keep a few frames: early, middle, late (most digits), final
            idx = sorted({1, len(shots) // 3, (2 * len(shots)) // 3, len(shots) - 2})
            picks = [(f"{tag}-g{g}-f{i}", shots[i]) for i in idx if 0 < i < len(shots) - 1]
            if won_by_dialog:
                picks.append((f"{tag}-g{g}-f{len(shots) - 2}", shots[-2]))
            else:
                picks.append((f"{tag}-g{g}-{'lost' if lost else 'won'}", shots[-1]))
            if g == 0:
                picks.insert(0, (f"{tag}-g{g}-start", shots[0]))
            for name, (im, cells) in picks:
                write_png(out_dir / f"{name}.png", im)
                (out_dir / f"{name}.txt").write_text(
                    Board(W, H, N, tuple(cells)).to_text() + "\n"
                )
                print("wrote", name)
            g += 1
            del rng
            rng = random.Random(seed + g)
    finally:
        proc.terminate()
        proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("discover", "record"))
    ap.add_argument("game", choices=("gnome-mines", "xdemineur"))
    ap.add_argument("tag")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.mode == "discover":
        discover(a.game, a.tag, a.games)
    else:
        record(a.game, a.tag, a.games, a.seed)


if __name__ == "__main__":
    main()
