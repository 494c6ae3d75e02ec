"""Live benchmark: msolver on the third-party game battery, as a user runs it.

    python -m tests.e2e.bench_battery [--games N] [--game NAME ...] [--sim-games M] [--json]

For each game (tests/support/thirdparty.LIVE, or --game names from BATTERY):
a private Xvfb, the game on a blank board, one screenshot, `msolver
calibrate --image ... --new-game KEY`, then `msolver play --start-now
--games N --log-json FILE` in its own process. From the log and the game's
truth it counts: games that ended in `game_over`, won, stopped short; losses
on a click the solver called certain (p_mine 0); and, where the harness knows
the mine layout (the web games' title hooks, tk-mines' state file; with
--record, the layout each game's last frame shows: `mines_shown`), clicks
resting on a misread (a certain open on a mine, a flag on a safe cell), with
the games so checked.

Each game's live win rate (with its 95% Wilson interval) is printed beside
the solver's own win rate on simulated boards of the same size, mine count
and first-click rule (msolver.core.bench, --sim-games games), and whether
they agree: the solver's rate lies inside the live interval. sgt-mines deals
boards solvable without guessing, which the simulator does not: its line says
so instead of comparing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from msolver.core import bench
from msolver.core.game import FIRST_CLICK_RULES, FirstClick
from msolver.core.stats import wilson_interval
from tests.support import thirdparty as tp
from tests.support.xgames import HarnessError
from tests.support.xvfb import private_display

MSOLVER = [sys.executable, "-m", "msolver.cli"]


@dataclass
class Result:
    game: str
    calibrated: bool = False
    calibrate_error: str = ""
    played: int = 0
    won: int = 0
    stopped: bool = False
    stop_reason: str = ""
    misread_clicks: int | None = None  # None: the harness does not know the layout
    layouts_known: int = 0  # games whose clicks were checked against their layout
    certain_losses: int = 0
    # first clicks logged as certain (p_mine 0) in a game that lays its mines
    # before the first click (first_click "none"): not honest under its rule
    first_clicks_called_safe: int | None = None
    seconds: float = 0.0
    skipped: str = ""
    # the solver on simulated boards of the same size, mines and first-click rule
    sim_games: int = 0
    sim_wins: int = 0
    sim_note: str = ""  # why the simulator's rate is no yardstick for this game
    notes: list[str] = field(default_factory=list)

    def line(self) -> str:
        if self.skipped:
            return f"{self.game}: skipped ({self.skipped})"
        mis = (
            "n/a"
            if self.misread_clicks is None
            else f"{self.misread_clicks} (in {self.layouts_known} games checked)"
        )
        cal = "yes" if self.calibrated else f"no ({self.calibrate_error})"
        stop = f", stopped: {self.stop_reason}" if self.stopped else ""
        return (
            f"{self.game}: calibrated {cal}; played {self.played}, won {self.won}{stop}; "
            f"clicks from misreads {mis}; losses on certain clicks {self.certain_losses}; "
            f"{self.seconds:.1f} s"
            + (
                f"; first clicks logged p_mine 0 under rule 'none': {self.first_clicks_called_safe}"
                if self.first_clicks_called_safe
                else ""
            )
            + self.rate_line()
        )

    def agrees(self) -> bool | None:
        """The solver's simulated rate inside the live 95% interval (None: nothing to compare)."""
        if self.played == 0 or self.sim_games == 0 or self.sim_note:
            return None
        lo, hi = wilson_interval(self.won, self.played)
        return lo <= self.sim_wins / self.sim_games <= hi

    def rate_line(self) -> str:
        if self.played == 0:
            return ""
        lo, hi = wilson_interval(self.won, self.played)
        out = f"; live win rate {self.won / self.played:.0%} [{lo:.0%}, {hi:.0%}]"
        if self.sim_note:
            return out + f"; solver: not comparable ({self.sim_note})"
        if self.sim_games == 0:
            return out
        slo, shi = wilson_interval(self.sim_wins, self.sim_games)
        verdict = "agree" if self.agrees() else "DISAGREE"
        return out + (
            f"; solver {self.sim_wins / self.sim_games:.1%} [{slo:.1%}, {shi:.1%}] on "
            f"{self.sim_games} simulated games: {verdict}"
        )


# (cols, rows, mines, first click, games) -> (wins, games): one run per board kind.
_SIM_CACHE: dict[tuple[int, int, int, str, int], tuple[int, int]] = {}


def solver_rate(variant: tp.Variant, games: int, seed: int = 1) -> tuple[int, int]:
    """(wins, games) of msolver's solver on simulated boards like `variant`'s."""
    key = (variant.cols, variant.rows, variant.mines, variant.first_click, games)
    if key not in _SIM_CACHE:
        if variant.first_click not in FIRST_CLICK_RULES:
            raise ValueError(f"{variant.name}: unknown first-click rule {variant.first_click!r}")
        rule: FirstClick = variant.first_click  # narrowed by the check above
        t = bench.tally(variant.cols, variant.rows, variant.mines, rule, games, seed)
        _SIM_CACHE[key] = (t.summary().wins, games)
    return _SIM_CACHE[key]


def sim_note(variant: tp.Variant) -> str:
    """Why the simulator's rate does not apply to `variant` ("" when it does)."""
    if variant.game == "sgt-mines":
        return "sgt-mines deals boards solvable without guessing"
    return ""


class PlayTimeout(Exception):
    """msolver did not exit in time; `stderr` holds what it printed, ending
    with every thread's stack (Python's fault handler, on SIGABRT)."""

    def __init__(self, timeout: float, stderr: str) -> None:
        super().__init__(f"timed out after {timeout:.0f} s")
        self.stderr = stderr

    def where(self) -> str:
        """The innermost msolver frame of the main thread: where it hung."""
        main = self.stderr.split("Current thread", 1)[-1]
        frames = [ln.strip() for ln in main.splitlines() if "msolver" in ln and "File" in ln]
        return frames[0] if frames else "no stack dumped"


def _msolver(
    args: list[str], env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    # A run that hangs is killed with SIGABRT: the fault handler then prints
    # where every thread was, so a hang on another machine can be read.
    proc = subprocess.Popen(
        [*MSOLVER, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(env, PYTHONFAULTHANDLER="1"),
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        raise PlayTimeout(timeout, err) from None
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def score_log(
    evs: list[dict[str, Any]],
    mines_by_game: dict[int, set[int]],
    cols: int,
    notes: list[str] | None = None,
) -> tuple[int, int, int, int | None]:
    """(played, won, losses on certain clicks, clicks from misreads or None).

    notes, if given, gets one line per misread click.
    """
    over = [e for e in evs if e.get("event") == "game_over"]
    last_open: dict[int, float] = {}
    misreads: int | None = 0 if mines_by_game else None
    flagged: dict[int, set[int]] = {}
    # Games the player judged lost on a guess whose mine read as a number
    # (event "lost_on"): the clicks after that guess reached a game already
    # over, which never answered them; they are neither the losing click nor
    # clicks on the board.
    lost_on = {
        int(e["game"]): (int(e["row"]), int(e["col"])) for e in evs if e.get("event") == "lost_on"
    }
    dead: set[int] = set()
    for e in evs:
        if e.get("event") != "click":
            continue
        g = int(e["game"])
        if g in dead:
            continue
        if lost_on.get(g) == (int(e["row"]), int(e["col"])) and e["button"] == "left":
            dead.add(g)
        if e["button"] != "right":
            last_open[g] = float(e["p_mine"])
        mines = mines_by_game.get(g)
        if mines is None or misreads is None:
            continue
        r, c = int(e["row"]), int(e["col"])
        cell = r * cols + c
        if e["button"] == "right":
            flagged.setdefault(g, set()).symmetric_difference_update({cell})
            wrong = cell not in mines
        elif e["button"] == "chord":
            # a chord opens every unflagged neighbour: wrong if one is a mine
            hood = {
                (r + dr) * cols + (c + dc)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= c + dc < cols and (dr, dc) != (0, 0)
            }
            wrong = bool((hood & mines) - flagged.get(g, set()))
        else:
            wrong = float(e["p_mine"]) == 0.0 and cell in mines
        if wrong:
            misreads += 1
            if notes is not None:
                notes.append(
                    f"game {g}: {e['button']} at r{e['row']} c{e['col']} p_mine {e['p_mine']}"
                )
    certain = sum(
        1 for e in over if e["result"] == "lost" and last_open.get(int(e["game"]), 1.0) == 0.0
    )
    return len(over), sum(e["result"] == "won" for e in over), certain, misreads


def mines_shown(folder: Path) -> dict[int, set[int]]:
    """Each recorded game's mine layout, as its last recorded frame shows it.

    For a game whose layout the harness cannot ask (gnome-mines): a lost
    game shows every mine (with the flags), a won one leaves exactly the
    mines unopened. A game counts only when that layout explains every
    number of its last frame (`explained`), so a misread last frame gives
    no layout at all rather than a wrong one. Needs `play --record`.
    """
    from msolver.core.board import EXPLODED, FLAG, MINE, Board
    from msolver.vision.learning_reader import explained

    last: dict[int, dict[str, Any]] = {}
    path = folder / "frames.jsonl"
    if not path.exists():
        return {}
    for line in path.read_text().splitlines():
        if line.strip():
            item = json.loads(line)
            last[int(item["game"])] = item
    out: dict[int, set[int]] = {}
    for g, item in last.items():
        board = Board.parse(item["board"], mines=int(item["mines"]))
        if not explained(board):
            continue
        shown = {i for i, s in enumerate(board.cells) if s in (MINE, EXPLODED)}
        if shown:
            out[g] = shown | {i for i, s in enumerate(board.cells) if s == FLAG}
        else:
            out[g] = {i for i, s in enumerate(board.cells) if s < 0}
    return out


def run_one(
    variant: tp.Variant,
    games: int,
    timeout: float = 150.0,
    keep: Path | None = None,
    sim_games: int = 0,
    record: bool = False,
) -> Result:
    """Calibrate and play one variant. keep: a folder for the blank shot, the
    final screen, the log and msolver's stderr (NAME-*.png/.jsonl/.txt).
    sim_games: simulated games for the solver's own win rate (0: none)."""
    res = Result(game=variant.name)
    res.sim_note = sim_note(variant)
    if sim_games and not res.sim_note:
        res.sim_wins, res.sim_games = solver_rate(variant, sim_games)
    why = tp.available(variant)
    if why is not None:
        res.skipped = why
        return res
    t0 = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="msolver-battery-") as tmp,
        private_display() as display,
    ):
        tmpdir = Path(tmp)
        env = dict(os.environ, DISPLAY=display, MSOLVER_PROFILE_DIR=str(tmpdir / "profiles"))
        try:
            win, truth = tp.launch(variant, display)
        except HarnessError:
            # a browser or game slow to start on a busy machine: one more try
            try:
                win, truth = tp.launch(variant, display)
            except HarnessError as exc:
                res.calibrate_error = f"harness: {exc}"
                res.seconds = time.monotonic() - t0
                return res
        try:
            shot = tmpdir / "blank.png"
            from msolver.vision.image import write_png

            write_png(shot, win.screenshot(whole_screen=True))
            name = "battery"
            cal = _msolver(
                [
                    "calibrate",
                    "--image",
                    str(shot),
                    "--name",
                    name,
                    "--mines",
                    str(variant.mines),
                    "--new-game",
                    win.new_game,
                    # The game's own first-click rule: the first click's p_mine is honest.
                    "--first-click",
                    variant.first_click,
                    "--flag",
                    variant.flag,
                    "--json",
                ],
                env,
                60,
            )
            got = json.loads(cal.stdout) if cal.returncode == 0 else None
            if got is None:
                res.calibrate_error = (
                    cal.stderr.strip().splitlines()[-1]
                    if cal.stderr.strip()
                    else f"exit {cal.returncode}"
                )
            elif (got["rows"], got["cols"]) != (truth.rows, truth.cols):
                res.calibrate_error = (
                    f"found {got['cols']}x{got['rows']}, true {truth.cols}x{truth.rows}"
                )
            res.calibrated = not res.calibrate_error
            if not res.calibrated:
                if keep is not None:
                    # the shot calibration failed on, to look at and to replay
                    keep.mkdir(parents=True, exist_ok=True)
                    shutil.copy(shot, keep / f"{variant.name}-blank.png")
                res.seconds = time.monotonic() - t0
                return res
            mines_by_game: dict[int, set[int]] = {}
            if variant.game == "web-mfw":
                # The layout of game 1 is laid before the first click: known now.
                mines_by_game[1] = set(tp.web_state(win)["mines"])
                if len(mines_by_game[1]) != variant.mines:
                    raise HarnessError(
                        f"the page reports {len(mines_by_game[1])} mines, not {variant.mines}"
                    )
            log = tmpdir / "play.jsonl"
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
            try:
                play = _msolver(
                    [
                        "play",
                        "--profile",
                        name,
                        "--games",
                        str(games),
                        "--start-now",
                        "--log-json",
                        str(log),
                        "--quiet",
                    ]
                    + (
                        # every frame and every read, to replay a stop later
                        ["--log-reads", "--record", str(keep / f"{variant.name}-frames")]
                        if record and keep is not None
                        else []
                    ),
                    env,
                    timeout,
                )
                rc, err = play.returncode, play.stderr
            except PlayTimeout as exc:
                rc, err = -1, f"{exc.stderr}\n{exc} in {exc.where()}"
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, keep / f"{variant.name}-blank.png")
                write_png(keep / f"{variant.name}-final.png", win.screenshot(whole_screen=True))
                if log.exists():
                    shutil.copy(log, keep / f"{variant.name}-play.jsonl")
                (keep / f"{variant.name}-stderr.txt").write_text(err)
            if variant.game == "tk-mines":
                # laid at each game's first click: known once the games are over
                mines_by_game = tp.tk_layouts(win)
            elif variant.game == "web-own":
                # laid at each game's first click; the page's title keeps every
                # game's layout (`laid`): known once the games are over
                mines_by_game = tp.webown_layouts(win)
            evs = _events(log)
            if not mines_by_game and record and keep is not None:
                mines_by_game = mines_shown(keep / f"{variant.name}-frames")
            res.layouts_known = len(mines_by_game)
            res.played, res.won, res.certain_losses, res.misread_clicks = score_log(
                evs, mines_by_game, truth.cols, res.notes
            )
            if variant.first_click == "none":
                firsts: dict[int, float] = {}
                for e in evs:
                    if e.get("event") == "click" and e["button"] == "left":
                        firsts.setdefault(int(e["game"]), float(e["p_mine"]))
                res.first_clicks_called_safe = sum(p == 0.0 for p in firsts.values())
            if rc != 0 or res.played < games:
                res.stopped = True
                lines = [ln for ln in err.strip().splitlines() if ln.strip()]
                res.stop_reason = lines[-1] if lines else f"exit {rc}"
        finally:
            win.close()
    res.seconds = time.monotonic() - t0
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--game", action="append", default=[], help="a variant name (repeatable)")
    ap.add_argument(
        "--sim-games",
        type=int,
        default=400,
        help="simulated games for the solver's win rate on each board kind (0: skip)",
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--keep", type=Path, default=None, help="keep shots, logs and stderr here")
    ap.add_argument(
        "--record", action="store_true", help="with --keep: keep every frame and read too"
    )
    args = ap.parse_args(argv)
    names = args.game or list(tp.LIVE)
    unknown = [n for n in names if n not in tp.BY_NAME]
    if unknown:
        print(
            f"unknown game(s): {', '.join(unknown)}; known: {', '.join(tp.BY_NAME)}",
            file=sys.stderr,
        )
        return 2
    results = []
    for n in names:
        r = run_one(
            tp.BY_NAME[n], args.games, keep=args.keep, sim_games=args.sim_games, record=args.record
        )
        results.append(r)
        print(r.line(), flush=True)
        for note in r.notes[:5]:
            print(f"    misread click: {note}", flush=True)
    if args.json:
        print(json.dumps([asdict(r) for r in results]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
