"""TransWar played by random legal choices for two to six players: games end, cards are never lost
or made, clones and positions play on exactly like the original, observations hide hands."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardsmith import IllegalAction
from cardsmith.games.transwar.game import all_cards
from tests.transwar_support import game, standard_deck


def random_game(seats: int, seed: int, check_every: int = 0):
    deck = standard_deck()
    pool = Counter(deck.cards("deck"))
    st = game().new_game([deck] * seats, seed)
    rng = random.Random(seed)
    steps = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        st.apply(rng.choice(legal))
        steps += 1
        if check_every and steps % check_every == 0:
            assert Counter(all_cards(st)) == pool
    return st, steps


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_random_games_end_and_keep_every_card(seats):
    for seed in range(6):
        st, _ = random_game(seats, seed, check_every=7)
        out = st.outcome()
        assert out is not None and len(out.ranks) == seats
        assert abs(sum(st.returns()) - seats / 2) < 1e-9
        if not out.capped:
            assert len(st.alive()) == 1 and out.winner == st.alive()[0]
            # Ranks by elimination order: the last out is second.
            assert [out.ranks[s] for s in reversed(st.out)] == list(range(1, seats))


def test_clone_and_position_replay_the_same_game():
    st = game().new_game([standard_deck()] * 4, 11)
    rng = random.Random(2)
    for _ in range(60):
        st.apply(rng.choice(st.legal_actions()))
    twin = st.clone()
    again = game().from_position(st.position(), chance=st.chance.fork())
    rng_a, rng_b, rng_c = random.Random(9), random.Random(9), random.Random(9)
    for _ in range(200):
        if st.is_terminal():
            break
        a = rng_a.choice(st.legal_actions())
        assert twin.legal_actions() == st.legal_actions() == again.legal_actions()
        assert rng_b.choice(twin.legal_actions()) == a == rng_c.choice(again.legal_actions())
        st.apply(a), twin.apply(a), again.apply(a)
    assert st.position() == twin.position() == again.position()


def test_actions_are_checked_against_a_fresh_legal_set():
    st = game().new_game([standard_deck()] * 3, 4)
    legal = st.legal_actions()
    with pytest.raises((IllegalAction, TypeError, AttributeError)):
        legal.append(("attack", 99))  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction):
        st.apply(("attack", 99))
    with pytest.raises(IllegalAction):
        st.apply(legal[0], seat=(st.to_act()[0] + 1) % 3)


def test_observations_never_show_another_players_hand():
    deck = standard_deck()
    st = game().new_game([deck] * 3, 5)
    rng = random.Random(5)
    for _ in range(150):
        if st.is_terminal():
            break
        for seat in range(3):
            obs = st.observation(seat)
            for other, hand in enumerate(obs["hands"]):
                assert hand == (st.hands[other] if other == seat else ["?"] * len(st.hands[other]))
            assert set(obs["deck"]) <= {"?"}
        st.apply(rng.choice(st.legal_actions()))


def test_sample_state_is_a_legal_state_that_plays_on():
    st = game().new_game([standard_deck()] * 5, 8)
    rng = random.Random(1)
    for _ in range(80):
        st.apply(rng.choice(st.legal_actions()))
    seat = st.to_act()[0]
    sample = game().sample_state(st.observation(seat), random.Random(3))
    assert sample.hands[seat] == st.hands[seat] and sample.legal_actions() == st.legal_actions()
    assert Counter(all_cards(sample)) == Counter(all_cards(st))
    for _ in range(100):
        if sample.is_terminal():
            break
        sample.apply(rng.choice(sample.legal_actions()))


def test_positions_survive_yaml_and_bad_ones_are_refused():
    from cardsmith.engine.contract import PositionError
    from cardsmith.engine.kit import dump_position, parse_position

    st = game().new_game([standard_deck()] * 3, 21)
    rng = random.Random(4)
    for _ in range(40):
        st.apply(rng.choice(st.legal_actions()))
    for fmt in ("yaml", "json"):
        again = game().from_position(parse_position(dump_position(st.position(), fmt), "transwar"))
        assert again.position() == st.position() and again.legal_actions() == st.legal_actions()
    bad = st.position()
    bad["hands"] = bad["hands"][:2]
    with pytest.raises(PositionError, match="hands"):
        game().from_position(bad)
    bad = st.position()
    bad["discard"] = bad["discard"] + ["no-such-card"]
    with pytest.raises(PositionError, match="no-such-card"):
        game().from_position(bad)


def test_heuristic_sees_the_damage_an_attack_in_progress_would_deal():
    from tests.transwar_support import position, start

    st = start(position(["wolf", "moose", "sheep"], [["3x-bite", "1x-bite"], [], []]))
    st.apply(("attack", 1))
    st.apply(("ask_done",))
    st.apply(("ask_done",))
    st.apply(("mode", "bite"))
    before = game().heuristic(st, 0), game().heuristic(st, 1)
    st.apply(("play", "3x-bite"))     # 3 + 4 x 4 = 19 against 5: 14 damage to come
    after = game().heuristic(st, 0), game().heuristic(st, 1)
    assert after[0] > before[0] and after[1] < before[1]
    assert all(0.0 <= v <= 1.0 for v in before + after)
