"""The flag click: right by default, or a left click with a key held when the profile says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from msolver.core.board import FLAG
from msolver.core.clock import FakeClock
from msolver.core.game import Status
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import Button, RecordingMouse, parse_click
from msolver.play.loop import Player, PlayStop, Settings
from msolver.vision.profile import Profile, ProfileError
from tests.support.live import SimReader, SimScreen, expert_sim

FAST = dict(redraw_timeout=0.3, settle=0.0, confirm=0.05, new_game_timeout=1.0)


def _web_player(sim: SimScreen, flag: str) -> tuple[Player, RecordingMouse, list[tuple[int, int]]]:
    """A game that flags on ctrl+left; a right click only opens a (browser) menu."""
    menus: list[tuple[int, int]] = []

    def on_click(x: int, y: int, button: Button) -> None:
        mods = mouse.actions[-1].mods
        if button == "right":
            menus.append((x, y))
        elif button == "left" and mods == ("ctrl",):
            sim.on_click(x, y, "right")
        elif not mods:
            sim.on_click(x, y, button)

    mouse = RecordingMouse(on_click=on_click, on_key=sim.on_key)
    player = Player(
        SimReader(sim.grid, sim.game.mines),
        sim.capture(),
        mouse,
        FakeHotkeys(started=True),
        settings=Settings(flag=flag, **FAST),  # type: ignore[arg-type]
        say=lambda _msg: None,
        clock=FakeClock(),
    )
    return player, mouse, menus


def test_a_ctrl_left_profile_flags_with_ctrl_held_and_never_right_clicks() -> None:
    sim = expert_sim(3)
    player, mouse, menus = _web_player(sim, "ctrl+left")
    outcome = player.run()
    assert outcome.stopped is None
    assert sim.game.status in (Status.WON, Status.LOST)
    assert menus == []
    flags = [a for a in mouse.clicks if a.mods]
    assert flags, "an expert game flags at least once"
    assert all(a.button == "left" and a.mods == ("ctrl",) for a in flags)
    for a in flags:
        cell = sim.grid.cell_at(a.x, a.y)
        assert cell is not None
        if sim.game.status is Status.WON:
            assert sim.game.board.cells[cell] == FLAG
    assert all(sim.grid.inside(a.x, a.y) for a in mouse.clicks)


def test_the_default_flag_is_a_plain_right_click() -> None:
    sim = expert_sim(3)
    player, mouse, menus = _web_player(sim, "right")
    player.run()
    assert menus, "the default profile flags with the right button"
    assert all(a.mods == () for a in mouse.clicks)


def test_a_bad_flag_click_stops_before_any_click() -> None:
    sim = expert_sim(3)
    with pytest.raises(PlayStop, match="is not a mouse button"):
        _web_player(sim, "ctrl+nose")


def test_parse_click() -> None:
    assert parse_click("right") == ("right", ())
    assert parse_click("Ctrl+Left") == ("left", ("ctrl",))
    assert parse_click("alt+shift+left") == ("left", ("alt", "shift"))
    for bad in ("", "ctrl+", "super+left", "ctrl+f2"):
        with pytest.raises(ValueError):
            parse_click(bad)


def test_recording_mouse_refuses_an_unknown_modifier() -> None:
    mouse = RecordingMouse()
    with pytest.raises(ValueError, match="modifier"):
        mouse.click(1, 2, "left", ("hyper",))
    assert mouse.actions == []


def test_profile_keeps_the_flag_click_and_old_profiles_flag_with_right(tmp_path: Path) -> None:
    prof = Profile.from_json(_profile_json())
    assert prof.flag == "right"
    web = prof.with_changes(flag="ctrl+left")
    again = Profile.from_json(web.to_json())
    assert again.flag == "ctrl+left"
    old = web.to_json()
    del old["flag"]
    assert Profile.from_json(old).flag == "right"
    bad = web.to_json()
    bad["flag"] = "middle"
    with pytest.raises(ProfileError, match="flag click 'middle'"):
        Profile.from_json(bad)


def _profile_json() -> dict[str, object]:
    import numpy as np

    from msolver.vision.geometry import Grid

    tile = np.full((10, 10, 3), 128, np.uint8)
    prof = Profile(
        name="t",
        theme="custom",
        grid=Grid(origin=(0.0, 0.0), pitch=(10.0, 10.0), rows=4, cols=4),
        mines=3,
        tiles={"unknown": (tile,)},
    )
    return prof.to_json()
