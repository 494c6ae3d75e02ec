"""`play --record DIR`: every frame the player grabbed, its read, the decision and the clicks.

A recording is a folder:

- `profile.json`: the profile the player read with (so a replay reads alike);
- `frames/gGGG-fFFFF.png`: each grabbed frame, the board region only, as PNG
  (flat tiles compress about 20x);
- `frames.jsonl`: a line per frame: game, frame, png, the board read (text
  form), the low-confidence cells, the decision (status, tier, certain,
  moves) and the clicks sent on it with their reasons; when play stops, the
  last frame read, with no decision and the reason (`stop`).

Bounded: once the PNGs reach `limit_bytes` (200 MB by default) frames stop
being kept and a line says so; the reads and decisions go on being logged.
`replay` (msolver replay DIR) reads every kept frame again with the current
code and lists the frames whose read differs.

`click_reasons` gives each click its sentence (for the play log too).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from msolver.core.board import Board
from msolver.core.solver import Decision
from msolver.core.solver.reason import explain_all, place
from msolver.play.plan import Click
from msolver.vision.image import Image, as_rgb, read_png, write_png
from msolver.vision.profile import Profile, write_json_atomic
from msolver.vision.reading import Reader, Reading

DEFAULT_LIMIT = 200 * 1024 * 1024
FRAMES = "frames.jsonl"
PROFILE = "profile.json"


class RecordError(ValueError):
    """A recording folder that cannot be written or read; one-line message."""


def click_reasons(
    board: Board, decision: Decision, clicks: Sequence[Click], unsure: Iterable[int] = ()
) -> list[str]:
    """A sentence per click: its move's reason (a chord: the reason of a cell it opens).

    `unsure`: cells whose reading is one of several (a tile not named yet).
    A sentence resting on one of them would name a number the board may not
    show (a 4 not named yet, shown as its first reading, a 3): such a move,
    certain on every reading, says so instead."""
    why = dict(zip((m.index for m in decision.moves), explain_all(board, decision), strict=True))
    doubted = [place(board, i) for i in sorted(set(unsure))]
    if doubted:
        for i, text in why.items():
            if any(p in text for p in doubted):
                kind = "mine" if text.startswith("mine") else "safe"
                why[i] = f"{kind} on every reading the tiles not named yet allow"
    out = []
    for c in clicks:
        cells = [c.index] if c.kind != "chord" else sorted(c.opens)
        out.append(next((why[i] for i in cells if i in why), ""))
    return out


def _decision_json(board: Board, decision: Decision) -> dict[str, Any]:
    w = board.width
    return {
        "status": decision.status,
        "tier": decision.tier,
        "certain": decision.certain,
        "moves": [[m.kind, *divmod(m.index, w), round(m.p_mine, 6)] for m in decision.moves],
    }


def check_folder(folder: str | Path) -> Path:
    """The folder to record into: new or empty (a recording is never mixed with another)."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise RecordError(f"{path}: exists and is not a folder")
    if path.is_dir() and any(path.iterdir()):
        raise RecordError(f"{path}: not empty; record into a new folder")
    if not path.parent.is_dir():
        raise RecordError(f"{path}: folder {path.parent} does not exist")
    return path


class Recorder:
    """Writes a recording; `frame` is called by the player once per frame it acts on."""

    def __init__(self, folder: str | Path, profile: Profile, limit_bytes: int = DEFAULT_LIMIT):
        self.folder = check_folder(folder)
        try:
            (self.folder / "frames").mkdir(parents=True, exist_ok=True)
            write_json_atomic(self.folder / PROFILE, profile.to_json())
            self._fh: IO[str] | None = open(  # noqa: SIM115 - lives with the recorder
                self.folder / FRAMES, "w", encoding="utf-8"
            )
        except OSError as exc:
            raise RecordError(f"{self.folder}: cannot record there ({exc})") from exc
        self.limit = limit_bytes
        self.bytes = 0
        self.frames = 0
        self.full = False

    def frame(
        self,
        game: int,
        image: Image,
        board: Board,
        low_confidence: Sequence[int],
        decision: Decision | None,
        clicks: Sequence[Click] = (),
        reasons: Sequence[str] = (),
        *,
        judged: bool = False,
        stop: str = "",
        unsure: Collection[int] = (),
    ) -> None:
        """Keep one frame. `judged`: its board is the player's verdict on the
        game's end (under a cover, or from cells the game drew as it ended),
        not what the reader read from the image. `stop`: why play stopped on
        this frame (the last one read). `unsure`: cells whose number differs
        between the readings the looks not named yet allow; `board` is one of
        those readings, so a person reading the recording must not take those
        cells' numbers for what the screen shows."""
        if self._fh is None:
            return
        self.frames += 1
        w = board.width
        line: dict[str, Any] = {"game": game, "frame": self.frames, "png": None}
        if not self.full:
            name = f"frames/g{game:03d}-f{self.frames:05d}.png"
            write_png(self.folder / name, as_rgb(image))
            self.bytes += (self.folder / name).stat().st_size
            line["png"] = name
            if self.bytes >= self.limit:
                self.full = True
                line["note"] = f"recording limit of {self.limit} bytes reached: no more frames kept"
        line["board"] = board.to_text()
        if judged:
            line["judged"] = True
        if stop:
            line["stop"] = stop
        line["mines"] = board.mines
        line["low_confidence"] = [list(divmod(i, w)) for i in low_confidence]
        if unsure:
            line["unsure"] = [list(divmod(i, w)) for i in sorted(unsure)]
        line["decision"] = None if decision is None else _decision_json(board, decision)
        line["clicks"] = [
            {
                "button": c.kind,
                "row": c.index // w,
                "col": c.index % w,
                "p_mine": round(c.p_mine, 6),
                "opens": sorted(c.opens),
                "reason": r,
            }
            for c, r in zip(clicks, [*reasons, *[""] * (len(clicks) - len(reasons))], strict=True)
        ]
        self._fh.write(json.dumps(line) + "\n")
        self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


# -- replay ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    frame: int
    png: str
    recorded: str
    now: str

    def cells(self) -> list[tuple[int, int]]:
        """(row, col) of every cell whose read changed."""
        a, b = self.recorded.splitlines(), self.now.splitlines()
        return [
            (r, c)
            for r, (x, y) in enumerate(zip(a, b, strict=False))
            for c, (p, q) in enumerate(zip(x, y, strict=False))
            if p != q
        ]


def frames(folder: str | Path) -> Iterator[dict[str, Any]]:
    path = Path(folder) / FRAMES
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{folder}: not a recording (cannot read {FRAMES}: {exc})") from exc
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} line {n}: not JSON ({exc.msg})") from exc
        if not isinstance(item, dict) or "board" not in item or "png" not in item:
            raise RecordError(f"{path} line {n}: not a frame line")
        yield item


# A kept frame read again at most this many times while it holds still.
_HOLD_READS = 3


def replay(
    folder: str | Path, reader: Reader, advance: Callable[[float], None] | None = None
) -> tuple[int, list[Difference]]:
    """Read every kept frame again, in order; (frames read, those whose read differs).

    See `reread` for how each frame is read.
    """
    read, diffs = 0, []
    for item, reading in reread(folder, reader, advance):
        read += 1
        now = reading.board.to_text()
        if not item.get("judged") and now != item["board"]:
            diffs.append(Difference(int(item["frame"]), item["png"], item["board"], now))
    return read, diffs


def reread(
    folder: str | Path, reader: Reader, advance: Callable[[float], None] | None = None
) -> Iterator[tuple[dict[str, Any], Reading]]:
    """Each kept frame with its reading by `reader`, in order.

    The reader is told of each frame's clicks as the player told it, so a
    reader that learns a theme learns it alike; a won board read as recorded
    is shown to it as the player shows it. `advance` moves the reader's
    clock: a learning reader names a new look only from a frame that held
    still, and the player read such a frame again until it had, so a kept
    frame that reads unsure at first is read again a second later (its
    clock's), at most `_HOLD_READS` times.
    """
    root = Path(folder)
    for item in frames(root):
        if item["png"] is not None:
            image = read_png(root / item["png"])
            reading = reader.read(image)
            for _ in range(_HOLD_READS):
                if advance is None or not reading.low_confidence:
                    break
                advance(1.0)
                reading = reader.read(image)
            yield item, reading
            if (
                not item.get("judged")
                and reading.board.to_text() == item["board"]
                and reading.board.outcome() == "won"
                and not reading.low_confidence
            ):
                reader.learn(image, reading.board)
        clicks = item.get("clicks") or []
        if clicks:
            # As the player tells it after a batch (loop.Player._send).
            width = len(item["board"].splitlines()[0])
            at = [(c, c["row"] * width + c["col"]) for c in clicks]
            reader.sent(
                frozenset(i for c, i in at if c["button"] == "right"),
                frozenset(i for c, i in at if c["button"] == "left" and c["p_mine"] > 0),
                frozenset(j for c, _ in at if c["button"] != "right" for j in c["opens"]),
            )
