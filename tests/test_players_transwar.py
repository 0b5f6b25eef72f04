"""TransWar's own players: the ladder's order on fixed seeds, and the brawler's choices in scripted
positions (it reads only its seat's observation)."""

from __future__ import annotations

import random

import pytest

from cardsmith.engine.agents import make_agent
from tests.players_support import wins as shared_wins
from tests.transwar_support import game, position, standard_deck, start


def wins(first: str, other: str, games: int, seats: int = 2) -> int:
    return shared_wins(game(), standard_deck(), first, other, games, seats=seats, no_caps=True)


def test_the_ladder_is_declared_weakest_first():
    rules = game().rules
    assert rules.ladder == ("random", "scrapper", "brawler")
    assert rules.competent_player() == "brawler"


@pytest.mark.parametrize("first, other, least", [
    ("scrapper", "random", 26),     # measured 35 of 40 on these seeds
    ("brawler", "scrapper", 24),    # 31 of 40
    ("brawler", "random", 32),      # 39 of 40
])
def test_each_rung_beats_the_one_below_on_fixed_seeds(first, other, least):
    assert wins(first, other, 40) >= least


def test_the_brawler_wins_well_above_its_share_at_three_seats():
    assert wins("brawler", "random", 30, seats=3) >= 18  # a fair share is 10; measured 27 of 30


def _choose(st):
    seat = st.to_act()[0]
    agent = make_agent("brawler", game())
    return agent.act(st.observation(seat), st.legal_actions(seat), random.Random(0), seat)


def _turn(forms, hands, **kw):
    """Seat 0's turn, past Bookkeeping: its action is next."""
    st = start(position(forms, hands, **kw))
    if st.stack[-1]["kind"] == "bookkeeping":
        st.apply(("done",))
    assert st.stack[-1]["kind"] == "action"
    return st


def test_it_attacks_with_its_best_mode_and_every_card_of_it():
    st = _turn(["wolf", "goat"], [["3x-bite", "1x-claw", "scream"], ["scream"]])
    assert _choose(st) == ("attack", 1)
    st.apply(("attack", 1))
    while st.stack[-1]["kind"] != "mode":
        st.apply(_choose(st))
    assert _choose(st) == ("mode", "claw+bite")
    st.apply(("mode", "claw+bite"))
    played = []
    while st.stack[-1]["kind"] == "cards" and st.stack[-1]["seat"] == 0:
        choice = _choose(st)
        st.apply(choice)
        played += choice[1:]
    assert sorted(played) == ["1x-claw", "3x-bite"]


def test_it_builds_rather_than_attack_a_flyer_it_cannot_reach():
    st = _turn(["wolf", "eagle"], [["3x-bite", "1x-claw"], ["scream"]])
    assert ("attack", 1) in st.legal_actions()
    assert _choose(st) == ("build",)


def test_a_defender_blocks_with_the_smallest_card_that_suffices():
    st = _turn(["wolf", "goat"], [["1x-bite"], ["duck", "feint", "dodge", "scream"]])
    st.apply(("attack", 1))
    while not (st.stack[-1]["kind"] == "cards" and st.stack[-1]["seat"] == 1):
        st.apply(_choose(st))
    # claw+bite: (3 + 3) + (3 + 4 x 2) = 17 against the Goat's 4: Duck (10) falls short, Feint (15)
    # and Dodge (20) suffice.
    assert _choose(st) == ("play", "feint")
