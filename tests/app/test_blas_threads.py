"""The commands that read pixels run numpy's BLAS on one thread (see
`msolver.app.main._one_blas_thread`); the solver's commands never load numpy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "screenshots" / "corpus"

_PROBE = """
import json, sys
from msolver.app.main import main
rc = main(sys.argv[1:])
loaded = "numpy" in sys.modules
threads = []
if loaded:
    from threadpoolctl import threadpool_info
    threads = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
print(json.dumps({"rc": rc, "numpy": loaded, "blas_threads": threads}))
"""


def _probe(*args: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_reading_a_screenshot_runs_blas_on_one_thread() -> None:
    shot = CORPUS / "sgt-default-t27.png"
    mines = json.loads(shot.with_suffix(".json").read_text())["mines"]
    got = _probe("read", str(shot), "--auto", "--mines", str(mines))
    # numpy's OpenBLAS and the one OpenCV's wheel bundles
    assert got["rc"] == 0 and got["numpy"] is True
    threads = got["blas_threads"]
    assert isinstance(threads, list) and threads and set(threads) == {1}, threads


def test_the_solver_commands_load_no_numpy() -> None:
    got = _probe("bench", "--level", "beginner", "--games", "2", "--seed", "1")
    assert got == {"rc": 0, "numpy": False, "blas_threads": []}
