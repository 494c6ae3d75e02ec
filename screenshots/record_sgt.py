"""Record sgt-mines screenshots whose truth is known from the game ID.

sgt-mines accepts a game ID with an explicit, unmasked mine bitmap
("30x16:u<hex>"), so the layout is ours. We click cells with xdotool and
replay the same clicks in msolver's simulator (same rules: a zero floods its
neighbours) to get the true board of every frame, independently of the
classifier. sgt-specific drawing rules added on top: on a win every covered
cell becomes a flag; on a loss only the mine that killed you is shown.

Run: DISPLAY-free; it starts its own Xvfb.
    /work/venv/bin/python screenshots/record_sgt.py
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from msolver.core.board import EXPLODED, FLAG, UNKNOWN, Board, neighbours_table  # noqa: E402
from msolver.core.game import Game  # noqa: E402
from msolver.vision.image import write_png  # noqa: E402
from tests.support import xgames  # noqa: E402

W, H, N = 30, 16, 99
OUT = ROOT / "screenshots" / "sgt-mines"


def make_layout(seed: int) -> tuple[frozenset[int], int, int]:
    """99 mines, with one cell that will show 8 and one that shows 7; start corner clear."""
    rng = random.Random(seed)
    nb = neighbours_table(W, H)
    eight = 8 * W + 20
    seven = 3 * W + 25
    mines = set(nb[eight])
    mines |= set(list(nb[seven])[:7])
    six = 12 * W + 8
    mines |= set(list(nb[six])[:6])
    banned = {r * W + c for r in range(4) for c in range(4)} | {eight, seven, six}
    free = [i for i in range(W * H) if i not in mines and i not in banned]
    mines |= set(rng.sample(free, N - len(mines)))
    return frozenset(mines), eight, seven


class Session:
    def __init__(self, display: str, layout: frozenset[int], tilesize: int) -> None:
        self.win = xgames.launch("sgt-mines", display, layout=set(layout), tilesize=tilesize)
        self.game = Game(W, H, N, layout=layout, first_click="none")
        self.layout = layout
        img = self.win.wait_drawn()
        from msolver.vision.grid import find_grid

        self.grid = find_grid(img)
        assert (self.grid.rows, self.grid.cols) == (H, W), self.grid

    def center(self, i: int) -> tuple[int, int]:
        r, c = divmod(i, W)
        x, y, _, _ = self.win.geometry()
        ox, oy = self.grid.origin
        px, py = self.grid.pitch
        return int(x + ox + (c + 0.5) * px), int(y + oy + (r + 0.5) * py)

    def open(self, i: int) -> None:
        self.win.click(*self.center(i), button=1)
        self.game.open(i)

    def flag(self, i: int) -> None:
        self.win.click(*self.center(i), button=3)
        self.game.flag(i)

    def shot(self, name: str, truth: Board) -> None:
        self.win.park_pointer()
        time.sleep(0.3)  # sgt flashes briefly on win/loss
        img = self.win.wait_drawn()
        OUT.mkdir(parents=True, exist_ok=True)
        write_png(OUT / f"{name}.png", img)
        (OUT / f"{name}.txt").write_text(truth.to_text() + "\n")
        print("wrote", name)


def record(display: str, tilesize: int, seed: int) -> None:
    layout, eight, seven = make_layout(seed)
    rng = random.Random(seed + 1)
    safe = [i for i in range(W * H) if i not in layout]
    tag = f"t{tilesize}"

    s = Session(display, layout, tilesize)
    s.shot(f"{tag}-blank", s.game.board)
    s.open(1 * W + 1)
    picks = rng.sample(safe, 25)
    for i in picks[:10]:
        s.open(i)
    s.shot(f"{tag}-mid1", s.game.board)
    for i in [*picks[10:], eight, seven]:
        s.open(i)
    for i in rng.sample(sorted(layout), 12):
        s.flag(i)
    s.shot(f"{tag}-mid2", s.game.board)
    for i in safe:
        if s.game.board.cells[i] == UNKNOWN:
            s.open(i)
    won = Board(W, H, N, tuple(FLAG if v == UNKNOWN else v for v in s.game.board.cells))
    s.shot(f"{tag}-won", won)
    s.win.close()

    s = Session(display, layout, tilesize)
    s.open(1 * W + 1)
    for i in rng.sample(safe, 30):
        s.open(i)
    mine_flags = rng.sample(sorted(layout), 5)
    for i in mine_flags:
        s.flag(i)
    wrong = next(i for i in rng.sample(safe, 50) if s.game.board.cells[i] == UNKNOWN)
    s.flag(wrong)
    before = s.game.board
    boom = next(i for i in sorted(layout) if before.cells[i] == UNKNOWN)
    s.win.click(*s.center(boom))
    cells = list(before.cells)
    cells[boom] = EXPLODED
    s.shot(f"{tag}-lost", Board(W, H, N, tuple(cells)))
    s.win.close()


def main() -> None:
    proc, display = start_xvfb()
    try:
        for tilesize, seed in ((20, 11), (30, 12), (16, 13)):
            record(display, tilesize, seed)
    finally:
        proc.terminate()
        proc.wait()


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    for n in range(150, 250):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            break
    proc = subprocess.Popen(
        ["Xvfb", f":{n}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while not Path(f"/tmp/.X11-unix/X{n}").exists():
        if proc.poll() is not None:
            raise RuntimeError(f"Xvfb :{n} did not start")
        time.sleep(0.05)
    for _ in range(100):
        ok = subprocess.run(["xdpyinfo", "-display", f":{n}"], capture_output=True).returncode
        if ok == 0:
            break
        if proc.poll() is not None:
            raise RuntimeError(f"Xvfb :{n} exited (display taken?)")
        time.sleep(0.1)
    return proc, f":{n}"


if __name__ == "__main__":
    main()
