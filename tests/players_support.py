"""The pinned-ladder tests' one measure: outright wins of a player against another on one deck."""

from __future__ import annotations

from typing import Any

from cardsmith.engine.runner import play_game


def wins(game: Any, deck: Any, first: str, other: str, games: int, *, seats: int = 2, seed: int = 1000,
         no_caps: bool = False) -> int:
    """Games `first` wins outright, sitting in every seat in turn, against `other` in the other seats
    (every seat plays `deck`; game i uses seed + i). `no_caps`: a capped game fails the test."""
    won = 0
    for i in range(games):
        agents = [other] * seats
        agents[i % seats] = first
        record = play_game(game, [deck] * seats, agents, seed + i)
        if no_caps:
            assert not record.capped, f"game {i} was capped"
        won += record.winners == (i % seats,)
    return won
