"""Alien Empires' own players: the ladder's order on fixed seeds, and the conqueror's choices in
scripted positions (it reads only its seat's observation)."""

from __future__ import annotations

import random

import pytest

from cardsmith.engine.agents import make_agent
from tests.players_support import wins as shared_wins
from tests.alien_support import game, position, standard_deck, start


def wins(first: str, other: str, games: int, seats: int = 2) -> int:
    return shared_wins(game(), standard_deck(), first, other, games, seats=seats, no_caps=True)


def test_the_ladder_is_declared_weakest_first():
    rules = game().rules
    assert rules.ladder == ("random", "raider", "conqueror")
    assert rules.competent_player() == "conqueror"


@pytest.mark.parametrize("first, other, least", [
    ("raider", "random", 8),        # measured 15 of 16 on these seeds
    ("conqueror", "raider", 9),     # 16 of 16
    ("conqueror", "random", 10),    # 16 of 16
])
def test_each_rung_beats_the_one_below_on_fixed_seeds(first, other, least):
    assert wins(first, other, 12) >= least


def test_the_conqueror_wins_well_above_its_share_at_three_seats():
    assert wins("conqueror", "random", 6, seats=3) >= 4  # a fair share is 2; measured 8 of 9


def _choose(st, seat: int):
    agent = make_agent("conqueror", game())
    return agent.act(st.observation(seat), st.legal_actions(seat), random.Random(0), seat)


def test_it_attacks_the_stack_it_can_beat_and_not_the_one_that_beats_it():
    st = start(position({"0,0": [9, 0], "1,0": [0, 2], "3,-3": [1, 0], "4,-4": [0, 14]},
                        hands=[["force-5"], ["force-1"]], phase="attack"))
    assert {a[1] for a in st.legal_actions(0) if a[0] == "attack"} == {"1,0", "4,-4"}
    assert _choose(st, 0) == ("attack", "1,0", 1)


def test_it_declines_every_attack_when_each_would_lose():
    st = start(position({"0,0": [2, 0], "1,0": [0, 9]}, hands=[[], ["force-1"]], phase="attack"))
    assert _choose(st, 0) == ("done",)


def test_it_sends_one_token_to_colonise_a_free_world_in_reach():
    st = start(position({"0,0": [6, 0], "4,-4": [0, 3]}, worlds={"0,0": "sirius", "2,0": "vega", "4,-4": "altair"},
                        phase="migrate"))
    assert _choose(st, 0) == ("stack", "0,0")
    st.apply(("stack", "0,0"), 0)
    assert _choose(st, 0) == ("move", "0,0", "2,0", 1)
