"""TRF's shortcut listings (`phases.FOLLOW_UPS`) stay equal to a fresh listing.

After a declare, a block or an assign the state keeps the last listing less the choices used up,
instead of listing again. That is only right while those actions change nothing else the listing
reads; a rule added later that breaks it must fail here, not silently change play."""

from __future__ import annotations

import random

from cardsmith.simulation.sets import load_checked_deck
from cardsmith.games.trf.phases import FOLLOW_UPS, LISTINGS
from tests.trf_positions import ROOT, trf_game


def test_follow_up_listings_equal_a_fresh_listing_through_random_games():
    game = trf_game()
    decks = [load_checked_deck(game.cardset, p) for p in sorted((ROOT / "cards" / "trf" / "decks").glob("*.yaml"))]
    rng = random.Random(5)
    followed = 0
    for i in range(24):
        pair = [decks[i % len(decks)], decks[(i + 1 + i // len(decks)) % len(decks)]]
        state = game.new_game(pair, 100 + i)
        state.mute()
        last = None
        for _ in range(3000):
            seat = state.to_act()
            if not seat:
                break
            if last in FOLLOW_UPS and state._legal is not None:
                followed += 1
                assert state._legal == tuple(LISTINGS[state.d["phase"]](state)), (i, last)
            action = rng.choice(state.legal_actions(seat[0]))
            last = action[0]
            state.apply(action, seat[0])
    assert followed > 200  # the shortcut was really taken, in many attacks
