"""Build the built-in profiles (calibration/<theme>.json) from the recorded corpus.

Every tile comes from a real screenshot in screenshots/<game>/ whose true
board is the .txt beside it (see screenshots/record_*.py for where the truth
comes from), so the profiles are the games' own pixels, never drawn by us.
A game recorded at several tile sizes keeps the tiles of every size; the
geometry is that of its default size, with the window at the screen's
top-left corner (as the games map under Xvfb with no window manager).

    /work/venv/bin/python scripts/build_profiles.py
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from msolver.core.board import Board  # noqa: E402
from msolver.vision.image import read_png  # noqa: E402
from msolver.vision.learn import profile_from_examples  # noqa: E402
from msolver.vision.profile import Profile, write_json_atomic  # noqa: E402

# game -> (default size tag, new-game action at that size)
GAMES = {
    "sgt-mines": ("t20", "n"),
    # ctrl+r: "Play Again" at the same size (ctrl+n opens the size chooser)
    "gnome-mines": ("w1200", "ctrl+r"),
    # the smiley above the board (FIELD_NOTES: (330, 41) in the window)
    "xdemineur": ("x21", "click:330,41"),
}


def examples(game: str) -> dict[str, list[tuple[object, Board]]]:
    """Recorded (image, true board) pairs per size tag (the file name's first part)."""
    out: dict[str, list[tuple[object, Board]]] = defaultdict(list)
    for png in sorted((ROOT / "screenshots" / game).glob("*.png")):
        truth = png.with_suffix(".txt")
        if not truth.is_file():
            continue
        mines = next(
            (int(p[1:]) for p in png.stem.split("-") if p[:1] == "n" and p[1:].isdigit()), 99
        )
        board = Board.parse(truth.read_text(), mines)
        out[png.stem.split("-")[0]].append((read_png(png), board))
    return out


def build(game: str) -> Profile:
    default_tag, new_game = GAMES[game]
    groups = examples(game)
    per_tag = {
        tag: profile_from_examples(game, game, ex, new_game=new_game)  # type: ignore[arg-type]
        for tag, ex in groups.items()
    }
    base = per_tag[default_tag].with_changes(mines=99)
    tiles: dict[str, list[object]] = defaultdict(list)
    for tag in [default_tag, *sorted(t for t in per_tag if t != default_tag)]:
        for label, variants in per_tag[tag].tiles.items():
            tiles[label].extend(variants)
    return base.with_changes(tiles={k: tuple(v) for k, v in tiles.items()})


def main() -> None:
    for game in GAMES:
        prof = build(game)
        path = ROOT / "calibration" / f"{game}.json"
        write_json_atomic(path, prof.to_json())
        kinds = {label: len(v) for label, v in prof.tiles.items()}
        print(f"{path.name}: origin {prof.origin} pitch {prof.pitch} sizes {prof.tile_sizes()}")
        print(f"  tiles {kinds}")


if __name__ == "__main__":
    main()
