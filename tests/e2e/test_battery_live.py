"""The third-party game battery played live (tests/e2e/bench_battery.py), 5 games each.

Display and slow: each game gets its own Xvfb, a blank-board calibration and
`msolver play --games 5`. Every game must calibrate with the true size, end
its 5 games in `game_over` without stopping, lose no game on a certain click
and send no click resting on a misread. Games that cannot pass with today's
reader are listed in XFAIL (strict). Outside CI a game that cannot be
installed is skipped with the reason.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_DISPLAY
from tests.e2e import bench_battery
from tests.support import thirdparty as tp

pytestmark = [pytest.mark.display, pytest.mark.slow]

GAMES = 5

# game -> why it fails today. Empty since 2026-11-25: every live game of the
# battery calibrates and plays (a case that stops fails the run).
XFAIL: dict[str, str] = {}

# Games msolver reads and plays to the end, but not yet all 5 games every
# time. They are held to what does not depend on that: calibrated, at least
# one game played to its end, no loss on a certain click, no click from a
# misread. minegauler-standard-b24-16x16 was here (its learning reader
# sometimes stopped in a later game on a frame caught mid-repaint); since
# the player acts after a surprise only on a read two consecutive grabs agree
# on, it played 5/5 in each of 6 bench runs and of the pytest runs measured
# on 2026-11-25 (branch faceend; see docs/play.md).
NEW_GAME_UNRELIABLE: dict[str, str] = {}


def _param(name: str) -> object:
    if name in XFAIL:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=XFAIL[name]))
    return name


@pytest.mark.parametrize("name", [_param(n) for n in tp.LIVE])
def test_battery_game(name: str, tmp_path: Path) -> None:
    if shutil.which("Xvfb") is None:
        if REQUIRE_DISPLAY:
            pytest.fail("MSOLVER_REQUIRE_DISPLAY=1 but Xvfb is not installed")
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    variant = tp.BY_NAME[name]
    why = tp.available(variant)
    if why is not None:
        if REQUIRE_DISPLAY:
            pytest.fail(f"MSOLVER_REQUIRE_DISPLAY=1 but {why}")
        pytest.skip(why)
    # gnome-mines tells the harness no mine layout: its games are recorded, and
    # every click checked against the layout each game's last frame shows.
    keep = tmp_path if variant.game == "gnome-mines" else None
    res = bench_battery.run_one(variant, GAMES, keep=keep, record=keep is not None)
    print(res.line())
    assert res.calibrated, res.line()
    assert res.certain_losses == 0, res.line()
    assert res.misread_clicks in (0, None), res.line()
    if name in NEW_GAME_UNRELIABLE:
        assert res.played >= 1, res.line()
        return
    assert not res.stopped and res.played == GAMES, res.line()
    assert not res.misread_clicks, res.line() + " " + "; ".join(res.notes)
