"""New looks are counted by kind: looks that may be one tile drawn again are one.

The learning reader refuses a frame with more kinds of new look than a game
has kinds of tiles (`MAX_NEW_LOOKS`); under a fractional display scale over a
gradient one number shows in many looks (kmines Medium at Qt's 125%: a first
opening of 19 looks, the 1s in eight of them), and counting looks refused it.
"""

from __future__ import annotations

from msolver.vision.learning_reader import MAX_NEW_LOOKS, _joined


def _kinds(alike: dict[int, frozenset[int]]) -> int:
    """How many kinds the looks make: groups of looks joined by `alike`."""
    return len(set(_joined(alike).values()))


def _within(groups: list[list[int]]) -> dict[int, frozenset[int]]:
    alike: dict[int, frozenset[int]] = {}
    for g in groups:
        for k in g:
            alike[k] = frozenset(j for j in g if j != k)
    return alike


def test_looks_joined_by_alike_are_one_kind() -> None:
    # the first opening's 19 looks: eight of 1, five of 2, two of 0, two of 3, a 3, a 4
    groups = [[0, 3, 4, 7, 9, 11, 12, 13], [2, 6, 14, 15, 16], [1, 10], [5, 8], [17], [18]]
    alike = _within(groups)
    assert len(alike) == 19 > MAX_NEW_LOOKS
    assert _kinds(alike) == 6 <= MAX_NEW_LOOKS


def test_a_chain_of_alike_looks_is_one_kind_and_lone_looks_count_alone() -> None:
    chain = {0: frozenset({1}), 1: frozenset({0, 2}), 2: frozenset({1})}
    assert _kinds(chain) == 1
    lone = {k: frozenset[int]() for k in range(MAX_NEW_LOOKS + 1)}
    assert _kinds(lone) == MAX_NEW_LOOKS + 1
