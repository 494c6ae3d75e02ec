"""The community's figures in `msolver bench --json` and `msolver dryrun --json`."""

from __future__ import annotations

import json

import pytest

from msolver.app.main import main
from msolver.core import bench
from msolver.core.gamestats import bench_stats


def test_bench_json_adds_mean_bbbv_and_guess_share(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "--level", "intermediate", "--games", "6", "--seed", "7", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    results = bench.run(16, 16, 40, "safe", 6, 7, 1)
    stats = [r.stats for r in results if r.stats is not None]
    assert len(stats) == 6
    assert out["mean_bbbv"] == pytest.approx(sum(s.bbbv for s in stats) / 6)
    assert out["guess_share"] == pytest.approx(sum(s.guesses > 0 for s in stats) / 6)
    assert out["mean_efficiency"] == bench_stats(stats).mean_efficiency
    assert 0 < out["mean_bbbv"] < 16 * 16 - 40


def test_dryrun_json_reports_3bv_and_guess_share(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["dryrun", "--profile", "sgt-mines", "--level", "beginner", "--games", "3", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert 0 < out["mean_bbbv"] <= 9 * 9 - 10
    assert 0.0 <= out["guess_share"] <= 1.0
    assert out["mean_efficiency"] is not None and out["mean_efficiency"] > 0
