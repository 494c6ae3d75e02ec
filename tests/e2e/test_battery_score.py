"""The live battery's scoring of a play log against a known mine layout (no display)."""

from __future__ import annotations

from typing import Any

from tests.e2e.bench_battery import score_log

COLS = 4  # a 4-column board: cell = row * 4 + col


def click(game: int, row: int, col: int, button: str, p: float) -> dict[str, Any]:
    return {"event": "click", "game": game, "row": row, "col": col, "button": button, "p_mine": p}


def over(game: int, result: str) -> dict[str, Any]:
    return {"event": "game_over", "game": game, "result": result, "seconds": 1.0, "clicks": 3}


def test_a_clean_game_scores_no_misread() -> None:
    mines = {5}  # r1 c1
    evs = [click(1, 0, 0, "left", 0.2), click(1, 1, 1, "right", 1.0), click(1, 0, 1, "chord", 0.0)]
    evs += [over(1, "won")]
    assert score_log(evs, {1: mines}, COLS) == (1, 1, 0, 0)


def test_flags_on_safe_cells_and_certain_opens_on_mines_are_misreads() -> None:
    mines = {5}
    notes: list[str] = []
    evs = [
        click(1, 0, 0, "right", 1.0),  # a flag on a safe cell
        click(1, 1, 1, "left", 0.0),  # a certain open on the mine
        over(1, "lost"),
    ]
    assert score_log(evs, {1: mines}, COLS, notes) == (1, 0, 1, 2)
    assert len(notes) == 2 and "right at r0 c0" in notes[0]


def test_clicks_after_a_guess_the_player_judged_lost_on_are_not_scored() -> None:
    # The guess at r1 c1 hit the mine, which read as a number; the batch
    # after it (a certain open beside it, on another mine) reached a game
    # already over and was sent twice; the player then logged "lost_on".
    mines = {5, 6}
    late = [click(1, 1, 2, "left", 0.0), click(1, 1, 2, "left", 0.0)]
    lost_on = {"event": "lost_on", "game": 1, "row": 1, "col": 1, "p_mine": 0.15}
    evs = [click(1, 0, 0, "left", 0.0), click(1, 1, 1, "left", 0.15), *late, lost_on]
    assert score_log([*evs, over(1, "lost")], {1: mines}, COLS) == (1, 0, 0, 0)
    # Without the player's verdict the same log is a certain loss on a misread.
    assert score_log([*evs[:-1], over(1, "lost")], {1: mines}, COLS) == (1, 0, 1, 2)


def test_a_chord_next_to_an_unflagged_mine_is_a_misread() -> None:
    mines = {5}
    evs = [click(1, 0, 0, "chord", 0.0), over(1, "lost")]
    assert score_log(evs, {1: mines}, COLS) == (1, 0, 1, 1)
    # with the mine flagged first, the same chord is sound
    evs = [click(1, 1, 1, "right", 1.0), click(1, 0, 0, "chord", 0.0), over(1, "won")]
    assert score_log(evs, {1: mines}, COLS) == (1, 1, 0, 0)


def test_a_guess_that_loses_is_not_a_certain_loss_and_unknown_layouts_say_so() -> None:
    evs = [
        click(1, 0, 0, "left", 0.3),
        over(1, "lost"),
        click(2, 0, 0, "left", 0.1),
        over(2, "won"),
    ]
    assert score_log(evs, {}, COLS) == (2, 1, 0, None)


def test_live_rate_agrees_when_the_solver_rate_lies_in_its_interval() -> None:
    from tests.e2e.bench_battery import Result

    # 8 of 10: Wilson 95% interval about [49%, 94%].
    r = Result(game="g", played=10, won=8, sim_games=400, sim_wins=312)  # 78%
    assert r.agrees() is True
    assert "agree" in r.line() and "80% [49%, 94%]" in r.line()
    r.sim_wins = 160  # 40%: outside
    assert r.agrees() is False and "DISAGREE" in r.line()
    r.sim_note = "deals boards solvable without guessing"
    assert r.agrees() is None and "not comparable" in r.line()
    assert Result(game="g", sim_games=400, sim_wins=300).agrees() is None


def test_solver_rate_plays_the_variants_board_once() -> None:
    from tests.e2e import bench_battery
    from tests.support import thirdparty as tp

    v = tp.BY_NAME["xbomb-8x8"]
    wins, games = bench_battery.solver_rate(v, 30)
    assert games == 30 and 15 <= wins <= 30  # beginner, safe first click: about 92%
    assert bench_battery.solver_rate(v, 30) == (wins, games)
    assert bench_battery.sim_note(tp.BY_NAME["sgt-default-t27"]) != ""
    assert bench_battery.sim_note(v) == ""


def test_a_recordings_last_frames_give_the_layouts_they_explain(tmp_path: Any) -> None:
    import json

    from tests.e2e.bench_battery import mines_shown

    def frame(game: int, board: str) -> str:
        return json.dumps({"game": game, "frame": 1, "png": None, "board": board, "mines": 2})

    lines = [
        frame(1, "....\n....\n...."),  # under way: replaced by its last frame below
        frame(1, "1*1.\n1221\n.1*1"),  # lost: every mine shown
        frame(2, "1F10\n1221\n01.1"),  # won: the mines are the cells left unopened
        frame(3, "1*1.\n1321\n.1*1"),  # a 3 the two mines shown do not explain: no layout
    ]
    (tmp_path / "frames.jsonl").write_text("\n".join(lines) + "\n")
    assert mines_shown(tmp_path) == {1: {1, 10}, 2: {1, 10}}
    assert mines_shown(tmp_path / "nothing") == {}
