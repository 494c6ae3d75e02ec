"""The first-click rule learned from what the first clicks show, alone and in the live loop."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from msolver.core.board import EXPLODED, UNKNOWN, Board
from msolver.core.game import Game
from msolver.play.firstclick import RuleWatch, zero_chance
from msolver.play.loop import Settings
from msolver.play.target import NewGame
from msolver.shell.log import EventLog
from msolver.vision.image import Image
from msolver.vision.reading import Reading
from tests.play.test_loop import make_player
from tests.support.live import SimReader, expert_sim


def _shown(width: int, height: int, mines: int, index: int, value: int) -> Board:
    cells = [UNKNOWN] * (width * height)
    cells[index] = value
    return Board(width, height, mines, tuple(cells))


def test_the_chance_of_an_opening_under_safe_is_the_games_own() -> None:
    rng = random.Random(3)
    board = Board.blank(30, 16, 99)
    games = 20_000
    zeros = 0
    for _ in range(games):
        g = Game(30, 16, 99, seed=rng.random(), first_click="safe")
        g.open(0)
        zeros += g.board.cells[0] == 0
    assert zero_chance(board, 0) == pytest.approx(zeros / games, abs=0.015)
    assert 0.45 < zero_chance(board, 0) < 0.53


def test_a_number_under_opening_means_safe_for_good() -> None:
    watch = RuleWatch("opening")
    why = watch.seen(_shown(30, 16, 99, 3 * 30 + 3, 2), 3 * 30 + 3)
    assert why is not None and "row 3, col 3" in why and "showed a 2" in why
    assert watch.rule == "safe" and watch.changed
    # corner openings after that prove nothing: opening was ruled out
    for _ in range(20):
        assert watch.seen(_shown(30, 16, 99, 0, 0), 0) is None
    assert watch.rule == "safe"


def test_a_first_click_on_a_mine_means_none() -> None:
    for rule in ("safe", "opening", "xp"):
        watch = RuleWatch(rule)  # type: ignore[arg-type]
        why = watch.seen(_shown(9, 9, 10, 0, EXPLODED), 0)
        assert why is not None and "hit a mine" in why
        assert watch.rule == "none"
    none = RuleWatch("none")
    assert none.seen(_shown(9, 9, 10, 0, EXPLODED), 0) is None and not none.changed


def test_corner_openings_in_a_row_mean_opening_once_safe_could_hardly_give_them() -> None:
    corner = _shown(30, 16, 99, 0, 0)
    watch = RuleWatch("safe")
    # expert: a corner opens about half the time under safe; 0.49^4 > 5% > 0.49^5
    for _ in range(4):
        assert watch.seen(corner, 0) is None
    why = watch.seen(corner, 0)
    assert why is not None and "5 first clicks in a row" in why
    assert watch.rule == "opening"
    # a number in between starts the count again and rules opening out
    watch = RuleWatch("safe")
    for _ in range(3):
        watch.seen(corner, 0)
    watch.seen(_shown(30, 16, 99, 0, 1), 0)
    for _ in range(10):
        assert watch.seen(corner, 0) is None
    assert watch.rule == "safe" and not watch.changed
    # xp and none first clicks open areas as safe's do: left alone
    for rule in ("xp", "none"):
        other = RuleWatch(rule)  # type: ignore[arg-type]
        for _ in range(10):
            assert other.seen(corner, 0) is None
        assert other.rule == rule


def _first_clicks(log_path: Path) -> dict[int, tuple[int, int]]:
    """Each game's first click (row, col), from the play log."""
    firsts: dict[int, tuple[int, int]] = {}
    for e in map(json.loads, log_path.read_text().splitlines()):
        if e.get("event") == "click":
            firsts.setdefault(e["game"], (e["row"], e["col"]))
    return firsts


def test_the_player_learns_that_a_game_only_keeps_its_first_click_safe(tmp_path: Path) -> None:
    # Profile: opening; game: safe. Seeds whose (3, 3) shows a number.
    seeds = (s for s in count(300) if not _opens(s, 3 * 30 + 3))
    first = next(seeds)
    sim = expert_sim(first, first_click="safe")
    sim.new_game = lambda: Game(30, 16, 99, seed=next(seeds), first_click="safe")
    settings = Settings(
        games=2,
        redraw_timeout=0.3,
        settle=0.0,
        confirm=0.05,
        new_game_timeout=1.0,
        first_click="opening",
    )
    path = tmp_path / "log.jsonl"
    player, said = make_player(sim, settings, new_game=NewGame.parse("n"), log=EventLog(path))
    outcome = player.run()
    assert [g.game for g in outcome.games] == [1, 2], outcome.stopped
    assert any("not an opening" in m for m in said), said
    assert player.first_click_found == "safe"
    assert _first_clicks(path) == {1: (3, 3), 2: (0, 0)}


def _opens(seed: int, index: int) -> bool:
    g = Game(30, 16, 99, seed=seed, first_click="safe")
    g.open(index)
    return g.board.cells[index] == 0


def test_the_player_learns_that_a_game_opens_an_area_on_its_first_click(
    tmp_path: Path,
) -> None:
    # Profile: safe; game: opening. Five corner openings, then in from the corner.
    seeds = count(400)
    sim = expert_sim(next(seeds), first_click="opening")
    sim.new_game = lambda: Game(30, 16, 99, seed=next(seeds), first_click="opening")
    settings = Settings(
        games=6,
        redraw_timeout=0.3,
        settle=0.0,
        confirm=0.05,
        new_game_timeout=1.0,
        first_click="safe",
    )
    path = tmp_path / "log.jsonl"
    player, said = make_player(sim, settings, new_game=NewGame.parse("n"), log=EventLog(path))
    outcome = player.run()
    assert len(outcome.games) == 6, outcome.stopped
    assert any("5 first clicks in a row" in m for m in said), said
    assert player.first_click_found == "opening"
    firsts = _first_clicks(path)
    assert [firsts[g] for g in range(1, 7)] == [(0, 0)] * 5 + [(3, 3)]


class _LitFirstCell(SimReader):
    """Reads cell `first`, the first time it shows opened, through a look the
    reader has not named: one of the numbers 6, 7, 8 (gnome-mines starved of
    CPU kept its lit cell under the pointer, and a reader took it for a new
    look); then as it is."""

    def __init__(self, first: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first = first
        self.lit = 0

    def read(self, image: Image) -> Reading:
        reading = super().read(image)
        if self.lit or reading.board.cells[self.first] == UNKNOWN:
            return reading
        self.lit += 1
        # The game has drawn nothing else yet: only the lit cell.
        cells = [UNKNOWN] * reading.board.size
        alts = []
        for v in (6, 7, 8):
            cells[self.first] = v
            alts.append(replace(reading.board, cells=tuple(cells)))
        return Reading(alts[0], alternatives=tuple(alts), unsure=frozenset({self.first}))


def test_the_rule_is_not_changed_by_a_first_cell_read_through_a_look_not_proven(
    tmp_path: Path,
) -> None:
    sim = expert_sim(21, first_click="opening")
    settings = Settings(
        redraw_timeout=0.3, settle=0.0, confirm=0.05, new_game_timeout=1.0, first_click="opening"
    )
    reader = _LitFirstCell(3 * 30 + 3, sim.grid, sim.game.mines)  # (3, 3): the first click
    path = tmp_path / "log.jsonl"
    player, said = make_player(sim, settings, reader=reader, log=EventLog(path))
    outcome = player.run()
    assert len(outcome.games) == 1, outcome.stopped
    assert reader.lit == 1
    assert not any("first-click rule" in m for m in said), said
    assert player.first_click_found is None


class _UnprovenMine(SimReader):
    """Reads the mine that went off as it is, but through a look not proven."""

    def read(self, image: Image) -> Reading:
        reading = super().read(image)
        shown = frozenset(i for i, s in enumerate(reading.board.cells) if s == EXPLODED)
        return replace(reading, unproven=reading.unproven | shown)


def test_a_first_click_lost_on_the_profiles_word_is_no_certain_loss_through_any_look(
    tmp_path: Path,
) -> None:
    # The profile says the first click is safe; the game (first click "none")
    # has a mine in every corner, where that first click goes. The loss rests on
    # the profile's word whatever the reader thinks of the mine's look: not a
    # move the solver called certain.
    corners = frozenset({0, 29, 15 * 30, 16 * 30 - 1})
    rest = [i for i in range(16 * 30) if i not in corners]
    layout = corners | frozenset(random.Random(5).sample(rest, 99 - len(corners)))
    sim = expert_sim(0, first_click="none")
    sim.game = Game(30, 16, 99, first_click="none", layout=layout)
    settings = Settings(
        redraw_timeout=0.3, settle=0.0, confirm=0.05, new_game_timeout=1.0, first_click="safe"
    )
    reader = _UnprovenMine(sim.grid, sim.game.mines)
    player, said = make_player(sim, settings, reader=reader, log=EventLog(tmp_path / "log.jsonl"))
    outcome = player.run()
    assert [g.result for g in outcome.games] == ["lost"], outcome.stopped
    assert sim.game.exploded in corners
    assert not any("called certain" in m for m in said), said
