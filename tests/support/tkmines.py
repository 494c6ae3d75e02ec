"""A tkinter Minesweeper in the look of the many hobby clones written with Tk.

Test-only: a battery game for the Tk toolkit (tests/support/thirdparty.py),
which none of the installed games uses. It is drawn the way those clones
draw theirs, with nothing made easy for a reader: a grid of stock raised
`Button`s (Tk's own grey, bevel and 1 px focus ring), opened cells sunken
and disabled with the digit as coloured text in the default font, flags as a
red "F", mines as "*" with the one hit on red; a "New" button and a mines
label above the board, F2 for a new game, the first click always safe
(`--first-click xp`: made safe as Windows XP did, its mine moved to the
top-left-most free cell).
`--style text` sizes the buttons in text units (cells taller than wide, as
`Button(width=2)` gives); `--style stock` as many clones do, 4 characters by
2 lines with Tk's own padding (cells about half as wide again as tall);
`--style checker` draws the look of Google's Minesweeper and its many web
clones instead: flat cells with no border at all, unopened ones in two
greens and opened ones in two tans, alternating as a checkerboard, bold
digits; `--dialog` shows a message box over the window when a game ends, as
many clones do.

The state file (--state) gets one JSON line per event, for the harness only:
{"game": N, "event": "start"|"laid"|"won"|"lost", "mines": [...]} and, once
drawn, {"event": "geometry", "first": [x, y, w, h], "last": [x, y, w, h]} of
the first and last cell buttons on the screen (their outer box, focus ring
included).

    python -m tests.support.tkmines --cols 9 --rows 9 --mines 10 --state F
"""

from __future__ import annotations

import argparse
import json
import random
import tkinter as tk
from pathlib import Path
from tkinter import messagebox

COLOURS = {
    1: "#0000ff",
    2: "#008000",
    3: "#ff0000",
    4: "#000080",
    5: "#800000",
    6: "#008080",
    7: "#000000",
    8: "#808080",
}

# Google's Minesweeper look: unopened greens, opened tans, alternating.
CHECKER_UNOPENED = ("#aad751", "#a2d149")
CHECKER_OPENED = ("#e5c29f", "#d7b899")
CHECKER_DIGITS = {
    1: "#1976d2",
    2: "#388e3c",
    3: "#d32f2f",
    4: "#7b1fa2",
    5: "#ff8f00",
    6: "#0097a7",
    7: "#424242",
    8: "#9e9e9e",
}


class TkMines:
    def __init__(self, root: tk.Tk, args: argparse.Namespace) -> None:
        self.root = root
        self.cols, self.rows, self.mines = args.cols, args.rows, args.mines
        self.first_click = args.first_click
        self.state_path: Path | None = args.state
        self.dialog = args.dialog
        self.checker = args.style == "checker"
        self.rng = random.Random(args.seed)
        self.game = 0
        root.title("Tk Mines")
        top = tk.Frame(root)
        top.pack(fill="x")
        tk.Button(top, text="New", command=self.new_game).pack(side="left", padx=4, pady=4)
        self.label = tk.Label(top, text="")
        self.label.pack(side="right", padx=8)
        board = tk.Frame(root, bd=3, relief="sunken")
        board.pack(padx=8, pady=(0, 8))
        self.pixel = tk.PhotoImage(width=1, height=1)
        self.buttons: list[tk.Button] = []
        for i in range(self.rows * self.cols):
            r, c = divmod(i, self.cols)
            if args.style == "text":
                b = tk.Button(board, width=2, height=1, padx=0, pady=0)
            elif args.style == "stock":
                b = tk.Button(board, width=4, height=2)
            elif args.style == "checker":
                b = tk.Button(
                    board,
                    image=self.pixel,
                    compound="center",
                    width=args.cell,
                    height=args.cell,
                    padx=0,
                    pady=0,
                    bd=0,
                    relief="flat",
                    highlightthickness=0,
                    font=("DejaVu Sans", max(8, args.cell // 2), "bold"),
                )
            else:
                # a 1 px image makes width/height count pixels: square cells
                size = args.cell
                b = tk.Button(
                    board,
                    image=self.pixel,
                    compound="center",
                    width=size,
                    height=size,
                    padx=0,
                    pady=0,
                )
            b.grid(row=r, column=c)
            b.bind("<Button-1>", lambda _e, i=i: self.open(i))
            b.bind("<Button-3>", lambda _e, i=i: self.flag(i))
            self.buttons.append(b)
        root.bind("<F2>", lambda _e: self.new_game())
        self.new_game()
        root.after(300, self._report_geometry)

    # -- the harness's view ---------------------------------------------------------

    def _write(self, **record: object) -> None:
        if self.state_path is not None:
            with self.state_path.open("a") as f:
                f.write(json.dumps(record) + "\n")

    def _report_geometry(self) -> None:
        def box(b: tk.Button) -> list[int]:
            return [b.winfo_rootx(), b.winfo_rooty(), b.winfo_width(), b.winfo_height()]

        self._write(event="geometry", first=box(self.buttons[0]), last=box(self.buttons[-1]))

    # -- the game -------------------------------------------------------------------

    def new_game(self) -> None:
        self.game += 1
        self.layout: set[int] = set()
        self.opened: set[int] = set()
        self.flags: set[int] = set()
        self.over = False
        for i, b in enumerate(self.buttons):
            if self.checker:
                shade = CHECKER_UNOPENED[sum(divmod(i, self.cols)) % 2]
                b.config(text="", state="normal", bg=shade, activebackground=shade, fg="black")
            else:
                b.config(text="", relief="raised", state="normal", bg="#d9d9d9", fg="black")
        self.label.config(text=f"Mines: {self.mines}")
        self._write(game=self.game, event="start", mines=[])

    def _nbrs(self, i: int) -> list[int]:
        r, c = divmod(i, self.cols)
        return [
            (r + dr) * self.cols + c + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < self.rows and 0 <= c + dc < self.cols
        ]

    def _lay(self, first: int) -> None:
        if self.first_click == "xp":
            # Windows XP's way: laid over every cell, then a mine under the
            # first click moves to the top-left-most free cell.
            cells = range(self.rows * self.cols)
            self.layout = set(self.rng.sample(cells, self.mines))
            if first in self.layout:
                self.layout.remove(first)
                self.layout.add(next(i for i in cells if i not in self.layout and i != first))
        else:
            cells = [i for i in range(self.rows * self.cols) if i != first]
            self.layout = set(self.rng.sample(cells, self.mines))
        self._write(game=self.game, event="laid", mines=sorted(self.layout))

    def flag(self, i: int) -> None:
        if self.over or i in self.opened:
            return
        if i in self.flags:
            self.flags.discard(i)
            self.buttons[i].config(text="")
        else:
            self.flags.add(i)
            self.buttons[i].config(text="F", fg="red")
        self.label.config(text=f"Mines: {self.mines - len(self.flags)}")

    def open(self, i: int) -> None:
        if self.over or i in self.opened or i in self.flags:
            return
        if not self.layout:
            self._lay(i)
        if i in self.layout:
            self._end(won=False, hit=i)
            return
        todo = [i]
        while todo:
            j = todo.pop()
            if j in self.opened or j in self.flags:
                continue
            self.opened.add(j)
            n = sum(k in self.layout for k in self._nbrs(j))
            if self.checker:
                shade = CHECKER_OPENED[sum(divmod(j, self.cols)) % 2]
                self.buttons[j].config(
                    text=str(n) if n else "",
                    state="disabled",
                    bg=shade,
                    activebackground=shade,
                    disabledforeground=CHECKER_DIGITS.get(n, "black"),
                )
            else:
                self.buttons[j].config(
                    text=str(n) if n else "",
                    relief="sunken",
                    state="disabled",
                    disabledforeground=COLOURS.get(n, "black"),
                )
            if n == 0:
                todo.extend(self._nbrs(j))
        if len(self.opened) == self.rows * self.cols - self.mines:
            self._end(won=True, hit=None)

    def _end(self, won: bool, hit: int | None) -> None:
        self.over = True
        for j in self.layout:
            if won:
                self.buttons[j].config(text="F", fg="red")
            elif j not in self.flags:
                self.buttons[j].config(text="*", fg="black", relief="sunken")
        if hit is not None:
            self.buttons[hit].config(bg="red", activebackground="red")
        self._write(game=self.game, event="won" if won else "lost", mines=sorted(self.layout))
        if self.dialog:
            self.root.after(
                50,
                lambda: messagebox.showinfo("Tk Mines", "You won!" if won else "Boom! You lost."),
            )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cols", type=int, default=9)
    ap.add_argument("--rows", type=int, default=9)
    ap.add_argument("--mines", type=int, default=10)
    ap.add_argument("--cell", type=int, default=22, help="button size in px (--style image)")
    ap.add_argument("--style", choices=("image", "text", "stock", "checker"), default="image")
    ap.add_argument("--dialog", action="store_true")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument(
        "--first-click",
        choices=("safe", "xp"),
        default="safe",
        help="safe: mines laid around the first click; xp: a mine under it moves to the top left",
    )
    ap.add_argument("--state", type=Path, default=None)
    args = ap.parse_args(argv)
    root = tk.Tk(className="tkmines")
    root.geometry("+0+0")
    TkMines(root, args)
    root.mainloop()


if __name__ == "__main__":
    main()
