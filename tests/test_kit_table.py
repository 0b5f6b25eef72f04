"""The kit's base for small games (`kit/table.py`), through the tutorial's Tide Pool built on it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from cardsmith.engine.contract import Outcome, PositionError
from cardsmith.engine.kit import HIDDEN, OWNER, PUBLIC, SECRET, Zones, ranked

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "tide_pool"


@pytest.fixture(scope="module")
def tide():
    from cardsmith.simulation.sets import deck_files, load_checked_deck, load_set_checked

    sys.path.insert(0, str(EXAMPLE))
    import cardsmith_tide_pool
    from cardsmith.engine.registry import canonical, known_games, register

    if canonical("tide_pool") not in known_games():
        register(cardsmith_tide_pool.RULES)
    cardset = load_set_checked(EXAMPLE / "cards" / "tide-pool")
    decks = {d.name: d for d in (load_checked_deck(cardset, p) for p in deck_files(cardset.path))}
    return cardsmith_tide_pool.RULES.make_game(cardset), decks


def test_ranked_places_seats_by_score_and_ties_share_a_place():
    assert ranked([3, 7, 3, 1], "points") == Outcome((1, 0, 1, 2), "points")
    assert ranked([5, 5], "points").returns() == (0.5, 0.5)


def test_zones_for_seats_gives_each_seat_its_own_zones():
    zones = Zones.for_seats(2, {"deck": SECRET}, {"hand": OWNER, "played": PUBLIC})
    assert sorted(z.name for z in zones) == ["deck", "hand:0", "hand:1", "played:0", "played:1"]
    assert zones.of(1, "hand").owner == 1 and zones.of(1, "hand").visibility == OWNER
    assert zones["deck"].owner is None and zones["deck"].visibility == SECRET


def test_a_seat_sees_its_hand_and_counts_of_the_rest(tide):
    game, decks = tide
    state = game.new_game([decks["tide"]] * 3, 4)
    seat = state.to_act()[0]
    zones = state.observation(seat)["position"]["zones"]
    assert zones[f"hand:{seat}"]["cards"] == state.zones.of(seat, "hand").cards
    other = (seat + 1) % 3
    assert zones[f"hand:{other}"]["cards"] == [HIDDEN] * 3 and set(zones["deck"]["cards"]) == {HIDDEN}


def test_a_determinization_deals_only_unseen_cards_and_keeps_the_observation(tide):
    game, decks = tide
    state = game.new_game([decks["tide"]] * 2, 9)
    seat = state.to_act()[0]
    obs = state.observation(seat)
    sample = game.sample_state(obs, random.Random(1))
    assert sample.observation(seat) == obs
    assert sorted(c for z in sample.zones for c in z.cards) == state.cards


def test_a_position_naming_a_card_the_set_lacks_is_refused(tide):
    game, decks = tide
    data = game.new_game([decks["calm"]] * 2, 1).position()
    data["zones"]["deck"]["cards"].append("kraken")
    with pytest.raises(PositionError, match="kraken"):
        game.from_position(data)


def test_the_game_is_over_when_the_seat_to_act_has_no_card(tide):
    game, decks = tide
    state = game.new_game([decks["calm"]] * 2, 3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.outcome().reason == "hands empty" and state.to_act() == () and state.legal_actions() == ()
    assert state.outcome() == ranked(state.score, "hands empty")
    assert len(state.cards_played(0)) >= 1 and "Game over (hands empty)" in state.log[-1]
