"""Alien Empires: every clause of the turn structure, through positions and scripted chance.
The readings are in docs/rules/alien-empires.md."""

from __future__ import annotations

import pytest

from cardsmith.engine.chance import ScriptedChance
from cardsmith.engine.contract import IllegalAction, Outcome
from tests.alien_support import fight, game, move, moves, play, position, standard_deck, start, tokens


def new(n: int, rolls: list[int], seed: int = 1):
    return game().new_game([standard_deck()] * n, seed, chance=ScriptedChance(rolls=rolls, fallback=seed))


# ---- setup -----------------------------------------------------------------------------------
def test_twenty_worlds_are_placed_never_two_in_a_hex():
    st = game().new_game([standard_deck()] * 3, 7)
    assert len(st.worlds) == 20 and len(set(st.worlds.values())) == 20
    assert all(0 <= h < len(st.map) for h in st.worlds)


def test_d10_order_rerolls_ties_and_play_goes_in_reverse():
    st = new(3, [5, 5, 2, 3, 7])  # P0 and P1 tie on 5 and reroll: P1 7 beats P0 3
    assert st.to_act() == (1,) and st.stack[-1]["kind"] == "homeworld"  # picks in roll order: P1, P0, P2
    assert st.order == [2, 0, 1]                                       # turns: the reverse order


def test_homeworlds_are_picked_in_order_with_ten_markers():
    st = new(2, [9, 4])
    first = st.legal_actions()[0]
    play(st, first)
    assert tokens(st, first[1])[0] == 10
    assert first not in st.legal_actions()  # P1 may not pick the same world
    assert st.to_act() == (1,)


def test_ten_cards_then_three_race_cards_then_discard_to_ten():
    st = game().new_game([standard_deck()] * 2, 3)
    st.apply(st.legal_actions()[0])
    st.apply(st.legal_actions()[0])
    assert sum(len(h) for h in st.hands) + sum(len(d) for d in st.destiny) >= 20  # ten each, and more drawn for Race cards
    while st.stack and st.stack[-1]["kind"] in ("destiny", "discard"):
        if st.stack[-1]["kind"] == "destiny":
            assert all(a[0] == "destiny" and st.table.kind(a[1]) == "race" for a in st.legal_actions())
        st.apply(st.legal_actions()[0])
    assert [len(d) for d in st.destiny] == [3, 3]
    assert all(len(h) <= 10 for h in st.hands)
    assert st.turn == 1 and st.stack[-1]["kind"] == "fate"


def test_a_player_short_of_race_cards_draws_until_three_and_conflicting_ones_are_discarded():
    deck = ["force-2", "doubler", "force-3", "tactician"]  # drawn from the end: tactician, force-3, doubler
    pos = position({"0,0": [3, 0], "1,0": [0, 3]}, worlds={"0,0": "sirius", "1,0": "vega"},
                   hands=[["minimalist", "force-1"], []], deck=deck)
    pos["stack"] = [{"kind": "@end_turn"}, {"kind": "destiny", "seat": 0}]
    st = start(pos)  # Minimalist, the only Race card in hand, is played at once (a forced choice)
    # no Race card left in hand: draws tactician (played at once, the only choice), then force-3 and
    # doubler (conflicts with Minimalist: discarded), then force-2; the deck is out
    assert st.destiny[0] == ["minimalist", "tactician"]
    assert "doubler" in st.discard and sorted(st.hands[0]) == ["force-1", "force-2", "force-3"]


def test_conflicting_race_cards_may_not_share_a_destiny():
    pos = position({"0,0": [3, 0], "1,0": [0, 3]}, worlds={"0,0": "sirius", "1,0": "vega"},
                   hands=[["minimalist", "doubler", "tactician"], []])
    pos["stack"] = [{"kind": "@end_turn"}, {"kind": "destiny", "seat": 0}]
    st = start(pos)
    st.apply(("destiny", "minimalist"))
    assert ("destiny", "doubler") not in st.legal_actions(0)


# ---- the turn --------------------------------------------------------------------------------
def test_fate_may_draw_five_or_not_and_discards_to_ten():
    hand = ["force-1", "force-2", "force-3", "force-4", "force-5", "force-6", "force-7", "force-8"]
    st = start(position({"0,0": [3, 0], "3,0": [0, 3]}, hands=[hand, []], phase="fate", deck=["supply-drop", "sabotage"] * 5))
    assert ("draw",) in st.legal_actions() and ("done",) in st.legal_actions()
    st.apply(("draw",))  # then "done" is the only choice left: taken at once
    assert len(st.hands[0]) == 13
    assert st.stack[-1]["kind"] == "discard" and st.stack[-1]["count"] == 3


def test_genesis_each_colonised_world_gains_a_token():
    st = start(position({"0,0": [3, 0], "2,0": [2, 0], "1,1": [1, 0], "-3,0": [0, 4]},
                        worlds={"0,0": "sirius", "2,0": "vega", "-3,0": "mira"}, phase="fate"))
    st.apply(("done",))
    assert tokens(st, "0,0")[0] == 4 and tokens(st, "2,0")[0] == 3
    assert tokens(st, "1,1")[0] == 1      # empty space is not a world
    assert tokens(st, "-3,0")[1] == 4     # only the active player's colonies grow


def test_migration_moves_each_token_once_up_to_two_spaces():
    st = start(position({"0,0": [4, 0], "-4,0": [0, 1]}, phase="migrate"))
    legal = moves(st, "0,0")
    assert ("move", "0,0", "2,0", 4) in legal and ("move", "0,0", "3,0", 4) not in legal
    move(st, "0,0", "1,0", 2)
    assert ("stack", "1,0") not in st.legal_actions()  # moved tokens stay put
    assert ("move", "0,0", "0,2", 2) in moves(st, "0,0")


def test_a_world_with_your_tokens_is_colonised():
    st = start(position({"0,0": [1, 0], "-4,0": [0, 1]}, worlds={"1,0": "vega", "-4,0": "mira"}, phase="migrate"))
    move(st, "0,0", "1,0", 1)
    assert st.colonised(0) == [st.map.index("1,0")]


def test_at_most_three_conflicts_one_per_space():
    toks = {"0,0": [5, 0], "1,0": [0, 1], "0,1": [0, 1], "-1,1": [0, 1], "-1,0": [0, 1]}
    st = start(position(toks, hands=[[], []]))
    for label in ("1,0", "0,1", "-1,1"):
        fight(st, label, 1, commits=("all", "here"))
        assert not any(a[:2] == ("attack", label) for a in st.legal_actions())
    assert st.to_act() == (1,)  # no fourth conflict: the turn passed on


def test_tokens_in_adjacent_spaces_may_take_part():
    st = start(position({"0,0": [2, 0], "1,0": [0, 3], "2,0": [2, 0]}, hands=[[], []]))
    st.apply(("attack", "1,0", 1))  # the attacker's only choice: all four tokens next to the space
    assert "force 4 (P0) against 3 (P1): P0 wins" in st.log
    assert tokens(st, "1,0")[1] == 0 and tokens(st, "0,0")[0] == 2 and tokens(st, "2,0")[0] == 2


def test_allies_join_only_if_the_primary_allows_and_the_winners_allies_draw():
    toks = {"0,0": [2, 0, 0], "1,0": [0, 2, 0], "2,0": [0, 0, 3]}
    st = start(position(toks, hands=[[], [], []], deck=["force-1"] * 10))
    st.apply(("attack", "1,0", 0 + 1))
    assert st.to_act() == (2,) and st.stack[-1]["kind"] == "ally"
    st.apply(("ally", "A"))
    assert st.to_act() == (0,) and st.stack[-1]["kind"] == "allow"
    st.apply(("allow",))
    while st.conflict is not None and st.stack[-1]["kind"] == "cards":
        st.apply(("pass",))
    assert tokens(st, "1,0")[1] == 0 and len(st.hands[2]) == 1  # 5 against 2; the ally drew


def test_a_refused_ally_stays_out():
    toks = {"0,0": [2, 0, 0], "1,0": [0, 2, 0], "2,0": [0, 0, 3]}
    st = start(position(toks, hands=[[], [], []]))
    play(st, ("attack", "1,0", 1), ("ally", "A"), ("refuse",))
    assert st.conflict is None and tokens(st, "0,0")[0] == 0 and tokens(st, "2,0")[2] == 3  # 2 v 2: defender wins


def test_the_defender_draws_one_card():
    st = start(position({"0,0": [2, 0], "1,0": [0, 1]}, hands=[["force-1"], ["force-2"]], deck=["flanking-manoeuvre"]))
    st.apply(("attack", "1,0", 1))
    assert "flanking-manoeuvre" in st.hands[1]


def test_primaries_take_turns_playing_event_cards_attacker_first():
    st = start(position({"0,0": [2, 0], "1,0": [0, 2]}, hands=[["ion-storm"], ["shield-grid"]], deck=["force-1"]))
    st.apply(("attack", "1,0", 1))
    assert st.to_act() == (0,) and ("play", "ion-storm") in st.legal_actions()
    st.apply(("play", "ion-storm"))
    assert st.to_act() == (1,) and ("play", "shield-grid") in st.legal_actions()


def test_force_cards_are_revealed_simultaneously_and_hidden_until_both_commit():
    st = start(position({"0,0": [2, 0], "1,0": [0, 2]}, hands=[["force-5", "force-2"], ["force-3"]], deck=["force-1"]))
    st.apply(("attack", "1,0", 1))  # no Event in hand: the card play passes by itself
    assert set(st.to_act()) == {0, 1}
    st.apply(("reveal", "force-5"), 0)
    assert st.to_act() == (1,)
    obs = st.observation(1)
    assert obs["conflict"]["reveal"][0] == ["?"]
    st.apply(("reveal", "force-3", "force-1"), 1)
    # 2 + 5 = 7 against 2 + 3 + 1 = 6: the attacker wins, the defender's tokens are destroyed
    assert tokens(st, "1,0") == [0, 0] and tokens(st, "0,0") == [2, 0]


def test_force_is_tokens_plus_cards_plus_effects_and_a_tie_goes_to_the_defender():
    st = start(position({"0,0": [3, 0], "1,0": [0, 2]}, hands=[["force-1"], ["force-2"]], deck=[]))
    fight(st, "1,0", 1, reveal=(("force-1",), ("force-2",)))
    assert tokens(st, "0,0") == [0, 0] and tokens(st, "1,0") == [0, 2]  # 4 against 4: the defender holds


def test_the_losers_tokens_taking_part_are_destroyed_and_played_cards_discarded():
    st = start(position({"0,0": [1, 0], "1,0": [0, 3], "2,0": [0, 2]}, hands=[["force-1"], []], deck=["force-2"]))
    fight(st, "1,0", 1, commits=("all", "here"), reveal=(("force-1",), ("force-2",)))
    assert tokens(st, "0,0") == [0, 0] and tokens(st, "2,0") == [0, 2]  # 2 against 5
    assert "force-1" in st.discard and "force-2" in st.discard


def test_an_action_not_offered_is_refused():
    st = start(position({"0,0": [1, 0], "3,0": [0, 3]}))
    with pytest.raises(IllegalAction):
        st.apply(("attack", "3,0", 1))


# ---- the end ---------------------------------------------------------------------------------
def test_controlling_every_world_wins():
    worlds = {"0,0": "sirius", "1,0": "vega"}
    st = start(position({"0,0": [3, 0], "1,0": [0, 1], "3,0": [0, 1]}, worlds=worlds, hands=[[], []]))
    pos = st.position()
    pos["worlds"] = worlds
    fight(st, "1,0", 1)
    assert tokens(st, "1,0") == [0, 0]
    st2 = start(position({"0,0": [3, 0], "2,0": [0, 1], "-4,0": [0, 1]}, worlds=worlds, hands=[[], []], phase="migrate"))
    move(st2, "0,0", "1,0", 1)
    assert st2.outcome() == Outcome.win(0, 2, "controls every world")


def test_a_player_without_tokens_is_out_and_the_last_race_standing_wins():
    st = start(position({"0,0": [3, 0], "1,0": [0, 1]}, hands=[[], []]))
    fight(st, "1,0", 1)
    assert st.outcome() == Outcome.win(0, 2, "last race standing")


def test_the_turn_cap_is_a_draw():
    pos = position({"0,0": [3, 0], "-4,0": [0, 1]}, phase="attack")
    pos["turn"] = 300
    st = start(pos)
    assert st.outcome() == Outcome.draw(2, "turn cap", capped=True)


def test_turn_order_passes_to_the_next_seat_of_the_order():
    pos = position({"0,0": [3, 0, 0], "-4,0": [0, 1, 0], "4,0": [0, 0, 1]}, order=[2, 0, 1], active=1, hands=[[], [], []])
    st = start(pos)
    st.apply(("done",))
    assert st.seat == 1 and st.to_act() == (1,)
