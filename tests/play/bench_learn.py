"""Benchmark: themes msolver has never seen, learned from a blank board and played.

For each random palette (a gradient behind the tiles, a vignette, textured
tiles, lighter edge cells, small digits in big cells; one palette draws every
digit in one colour), a custom profile is made from the blank board alone;
then expert games are played in simulation through the LearningReader, and
every read is checked against the game's true board. Printed per palette:
misread cells, clicks sent while the board acted on had a misread, losses on
a certain click, stops, wins; then whether the learned profile would be
saved and reads the next blank board as all unopened.

    python -m tests.play.bench_learn [--games 50] [--palettes 3]

(then one more palette, one ink, small digits in 48 px cells)
"""

from __future__ import annotations

import argparse
import itertools
import time
from dataclasses import replace

from msolver.core.board import UNKNOWN
from msolver.core.game import Game
from msolver.play.loop import Settings
from msolver.vision.learning_reader import LearningReader, blank_image
from msolver.vision.profile import Profile
from tests.support.themes import Tally, Theme, blank_profile, play_checked, themed_sim

SETTINGS = Settings(redraw_timeout=0.3, settle=0.0, confirm=0.6, new_game_timeout=1.0)


def run(
    palette: int, games: int, *, one_ink: bool = False, pitch: float = 36.0, scale: float = 0.4
) -> None:
    theme = replace(Theme.random(palette, one_ink=one_ink), digit_scale=scale)
    seeds = itertools.count(10_000 * palette)

    def next_game() -> Game:
        return Game(30, 16, 99, seed=next(seeds), first_click="opening")

    screen = themed_sim(next(seeds), theme, pitch=pitch)
    profile = blank_profile(screen)
    reader = LearningReader(profile)
    tally = Tally()
    wall = time.monotonic()
    cpu = time.process_time()
    play_checked(screen, reader, games, next_game, tally, SETTINGS)
    cpu = time.process_time() - cpu
    wall = time.monotonic() - wall
    learned = reader.learned_profile()
    blank_ok = "-"
    if learned is not None:
        again = Profile.from_json(learned.to_json())
        first = LearningReader(again).read(blank_image(again))
        blank_ok = str(not first.low_confidence and all(s == UNKNOWN for s in first.board.cells))
    kind = "one ink" if one_ink else "own inks"
    print(
        f"palette {palette} ({kind}, {pitch:.0f} px cells): {tally.games} games, {tally.wins} won, "
        f"{len(tally.stops)} stopped; reads {tally.reads}, misread cells {tally.misread}, "
        f"opened read as unopened {tally.missed}; clicks {tally.clicks}, from a misread "
        f"{tally.misread_clicks}; lost on a certain click {tally.certain_losses}; "
        f"read {1000 * tally.read_seconds / max(1, tally.reads):.1f} ms cpu; "
        f"{cpu:.0f} s cpu, {wall:.0f} s wall"
    )
    print(
        f"  learned {', '.join(reader.proven)}; saved profile: "
        f"{'refused' if learned is None else 'yes'}; its blank board reads all unopened: {blank_ok}"
    )
    for stop in tally.stops:
        print(f"  stop: {stop}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--palettes", type=int, default=3)
    args = ap.parse_args()
    for palette in range(1, args.palettes + 1):
        run(palette, args.games, one_ink=palette == args.palettes)
    # Small digits in big cells, one ink: only the glyphs' shapes tell them apart.
    run(args.palettes + 1, args.games, one_ink=True, pitch=48.0, scale=0.35)


if __name__ == "__main__":
    main()
