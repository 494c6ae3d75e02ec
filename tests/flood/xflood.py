"""Test-side harness for the real sgt-flood on an X display (xdotool, subprocess).

Product code never imports this. The window object is the shared harness's
`GameWindow` (tests/support/xgames.py): geometry, screenshots, keys, close.

    win = launch(xvfb, "14x14c6m0#7")    # params and seed, as sgt-flood takes them
    ...
    win.close()

Game IDs: "12x12c6m5" (the default: 12x12, 6 colours, 5 spare moves),
"14x14c6m0#seed" (a reproducible game), "12x12:<cells>,<limit>" (an exact board).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.support.xgames import GameWindow, HarnessError

BINARY = "/usr/games/sgt-flood"


def available() -> bool:
    return shutil.which("xdotool") is not None and Path(BINARY).exists()


def _xdotool(display: str, *args: str) -> str:
    env = dict(os.environ, DISPLAY=display)
    try:
        out = subprocess.run(
            ["xdotool", *args], env=env, capture_output=True, text=True, timeout=5, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise HarnessError(f"xdotool {' '.join(args)} timed out") from exc
    return out.stdout


def generate(params: str, count: int = 1) -> list[tuple[str, int]]:
    """Game IDs sgt-flood makes for `params` ("14x14c6m0#7"), with their move limits."""
    out = subprocess.run(
        [BINARY, "--generate", str(count), params],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "DISPLAY"},
    ).stdout
    ids = [line.strip() for line in out.splitlines() if ":" in line]
    return [(i, int(i.rsplit(",", 1)[1])) for i in ids]


def launch(display: str, game_id: str | None = None, *, timeout: float = 20.0) -> GameWindow:
    """Start sgt-flood (default settings without `game_id`); return once it is drawn."""
    if not available():
        raise HarnessError("sgt-flood or xdotool is not installed")
    tmpdir = Path(tempfile.mkdtemp(prefix="msolver-sgt-flood-"))
    env = dict(os.environ, DISPLAY=display, HOME=str(tmpdir), XDG_CONFIG_HOME=str(tmpdir / "cfg"))
    env.pop("WAYLAND_DISPLAY", None)
    # sgt reads FLOOD_DEFAULT etc. from the environment: keep the launch's own settings.
    for key in [k for k in env if k.startswith("FLOOD_")]:
        env.pop(key)
    cmd = [BINARY] + ([game_id] if game_id else [])
    proc = subprocess.Popen(
        cmd,
        env=env,
        cwd=tmpdir,
        stdout=subprocess.DEVNULL,
        stderr=open(tmpdir / "stderr.log", "wb"),  # noqa: SIM115 - closed with the process
        start_new_session=True,
    )
    win = GameWindow(game="sgt-flood", display=display, proc=proc, wid=0, tmpdir=tmpdir)
    try:
        deadline = time.monotonic() + timeout
        while not win.wid:
            if proc.poll() is not None:
                err = (tmpdir / "stderr.log").read_text(errors="replace").strip()
                raise HarnessError(f"sgt-flood exited with {proc.returncode}: {err}")
            ids = _xdotool(display, "search", "--onlyvisible", "--pid", str(proc.pid)).split()
            if ids:
                win.wid = int(ids[-1])
            elif time.monotonic() > deadline:
                raise HarnessError(f"sgt-flood: no window within {timeout:.0f} s")
            else:
                time.sleep(0.05)
        win.park_pointer()
        win.wait_drawn(timeout=timeout)
    except BaseException:
        win.close()
        raise
    return win
