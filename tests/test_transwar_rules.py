"""TransWar's rules, clause by clause, through the public API: positions, public actions and
scripted chance. Each test names the sentence of the text it checks (docs/rules/transwar.md)."""

from __future__ import annotations

import pytest

from cardsmith import ScriptedChance
from cardsmith import IllegalAction
from cardsmith.games.transwar.fight import totals
from tests.transwar_support import game, kinds, play, position, standard_deck, start, status

FORMS = ("bat buck cheetah cougar coyote dragon eagle falcon elephant goat gryphon horse lion moose rabbit "
         "raccoon rat sheep skunk tiger wolf").split()


def resolved(events) -> tuple[int, int]:
    """(attack total, defense total) of the attack these events resolved."""
    data = kinds(events, "result")[0].data
    return data["attack"], data["defense"]


def build(st) -> None:
    """End the bookkeeping (when there is a choice) and take the Build action."""
    if ("done",) in st.legal_actions():
        st.apply(("done",))
    st.apply(("build",))


def attack_to_cards(st, target, mode=None):
    """Bookkeeping done (if asked), attack `target`, nobody asks for help, pick `mode`."""
    if ("done",) in st.legal_actions():
        st.apply(("done",))
    st.apply(("attack", target))
    while st.legal_actions() and st.legal_actions()[-1] in (("ask_done",), ("ready",)):
        st.apply(st.legal_actions()[-1])
    if mode is not None:
        st.apply(("mode", mode))


# ---- setup ------------------------------------------------------------------------------------
def test_dealer_is_dealt_the_highest_hp_form_and_the_player_to_the_left_starts():
    """"the player who got the highest-HP Form is the dealer" / "the player to the left of the dealer
    has the first turn"."""
    deck = standard_deck()
    cards = deck.cards("deck")
    forms = [c for c in cards if c in FORMS]
    order = ["rat", "dragon", "bat"] + [f for f in forms if f not in ("rat", "dragon", "bat")]
    # The deck's order reversed: its first cards (the Forms, in file order) are on top.
    chance = ScriptedChance(orders={"dealer draw": order, "deck": list(reversed(cards))})
    st = game().new_game([deck] * 3, 0, chance=chance)
    assert st.dealer == 1                      # the Dragon (30 HP) was dealt to P1
    # Five each, dealt from the left of the dealer: P2, then P0, then P1.
    assert st.hands == [["dragon", "eagle", "falcon", "elephant", "goat"],
                        ["gryphon", "horse", "lion", "moose", "rabbit"],
                        ["bat", "buck", "cheetah", "cougar", "coyote"]]
    assert len(st.deck) == 98 - 15
    # "The player to the left of the dealer has the first turn", and must Transform.
    assert st.to_act() == (2,)
    assert st.legal_actions() == (("transform", "bat"), ("transform", "buck"), ("transform", "cheetah"),
                                  ("transform", "cougar"), ("transform", "coyote"))


def test_tied_players_are_dealt_again():
    deck = standard_deck()
    table = game().table
    # Two copies of the Dragon (a mix the deck rules allow): P0 and P1 tie, then P1 wins the redraw.
    from cardsmith.sets.model import Deck
    cards = dict(deck.zones["deck"])
    cards["dragon"] = 2
    deck2 = Deck("two dragons", "transwar", {"deck": cards})
    forms = [c for c in deck2.cards("deck") if table.is_form(c)]
    rest = [f for f in forms if f not in ("dragon", "rat", "bat")]
    first = ["dragon", "dragon", "rat"] + rest + ["bat"]
    second = ["bat", "dragon"] + rest + ["dragon", "rat"]
    chance = ScriptedChance(orders={"dealer draw": first, "dealer redraw 1": second})
    st = game().new_game([deck2] * 3, 0, chance=chance)
    assert st.dealer == 1


# ---- the first turn ---------------------------------------------------------------------------
def test_first_turn_draws_one_card_at_a_time_until_a_valid_form():
    """"Get cards from the dealer, one card at a time, until your hand contains at least one valid
    Form card" -- the Dragon (cost 4) is not valid with two other cards in hand."""
    pos = position([None, "wolf"], [["dragon", "scream", "duck"], ["scream"] * 5], started=[False, True],
                   deck=["roar", "feint", "dodge"])
    st = start(pos)
    # Drew Dodge (3 other cards: still not valid), then Feint (4 others: valid); Roar stays in the deck.
    assert st.deck == ["roar"]
    assert st.to_act() == (0,) and st.stack[-1]["kind"] == "pay" and st.stack[-1]["n"] == 4
    play(st, ("discard", "scream"), ("discard", "duck"), ("discard", "dodge"))  # Feint: the only one left
    assert st.forms[0] == "dragon" and st.hands[0] == [] and st.to_act() == (1,)


def test_first_turn_must_transform_and_chooses_among_valid_forms():
    pos = position([None, "wolf"], [["rat", "bat", "scream"], ["scream"] * 5], started=[False, True])
    st = start(pos)
    assert st.legal_actions() == (("transform", "bat"), ("transform", "rat"))
    play(st, ("transform", "rat"))
    assert st.forms[0] == "rat" and st.hands[0] == ["bat", "scream"]
    assert st.tally["first_form"] == ["rat", None]
    assert st.to_act() == (1,)


# ---- actions ----------------------------------------------------------------------------------
def test_transform_discards_the_cost_and_clears_damage_and_effects():
    """"When you Transform, you lose all the damage, and all other effects, your previous Form may
    have had."""
    pos = position(["wolf", "sheep"], [["elephant", "scream", "duck", "roar", "feint"], ["scream"]],
                   damage=[9, 0], statuses=[status(broken=True, bleeding=2), status()])
    st = start(pos)
    # Heavy Bleeding hits at the start of the turn.
    assert st.damage[0] == 11
    play(st, ("transform", "elephant"), ("discard", "scream"), ("discard", "duck"), ("discard", "roar"))
    assert st.forms[0] == "elephant" and st.damage[0] == 0
    assert st.status[0]["broken"] is False and st.status[0]["bleeding"] == 0
    assert st.hands[0] == ["feint"] and "wolf" in st.discard


def test_transform_needs_enough_other_cards():
    pos = position(["wolf", "sheep"], [["dragon", "scream", "duck"], ["scream"]])
    st = start(pos)
    assert ("transform", "dragon") not in st.legal_actions()


def test_discard_action_discards_two_and_refills_to_five():
    pos = position(["wolf", "sheep"], [["scream", "duck", "roar"], ["scream"]], deck=["a1", "a2", "a3", "a4"])
    pos["deck"] = ["1x-bite", "2x-bite", "3x-bite", "1x-claw"]
    st = start(pos)
    play(st, ("discard",), ("discard", "duck"), ("discard", "roar"))
    assert sorted(st.hands[0]) == sorted(["scream", "1x-claw", "3x-bite", "2x-bite", "1x-bite"])
    assert st.deck == []


def test_discard_needs_two_cards():
    st = start(position(["wolf", "sheep"], [["scream"], ["scream"]]))
    assert ("discard",) not in st.legal_actions()


def test_build_draws_two():
    st = start(position(["wolf", "sheep"], [["scream"], ["scream"]], deck=["duck", "roar", "feint"]))
    play(st, ("build",))
    assert st.hands[0] == ["scream", "feint", "roar"] and st.to_act() == (1,)


def test_an_exhausted_deck_is_reshuffled_from_the_discards():
    """"Whenever the deck is exhausted, the dealer shuffles the discard pile and makes it the new deck."""
    pos = position(["wolf", "sheep"], [[], ["scream"]], deck=["duck"], discard=["roar", "feint", "dodge"])
    st = start(pos, orders={"reshuffle": ["feint", "dodge", "roar"]})
    events = play(st, ("build",))
    assert kinds(events, "reshuffle")
    assert st.hands[0] == ["duck", "roar"] and st.deck == ["feint", "dodge"] and st.discard == []


# ---- the attack -------------------------------------------------------------------------------
def test_combined_attack_adds_base_attack_to_each_mode_and_cards_to_each():
    """"if the attacker is doing a Combined Attack, his Base Attack value is added to each and every
    attack mode"; "+Nx Mode" adds N times the Form's value for that mode."""
    pos = position(["tiger", "moose", "wolf"], [["1x-claw", "2x-bite", "1x-base-attack", "3x-kick"], ["scream"], []])
    st = start(pos)
    attack_to_cards(st, 1)
    assert st.legal_actions() == (("mode", "swat"), ("mode", "bite"), ("mode", "claw"), ("mode", "claw+bite"))
    st.apply(("mode", "claw+bite"))
    # Kick cards do not fit the chosen modes.
    assert ("play", "3x-kick") not in st.legal_actions()
    play(st, ("play", "1x-claw"), ("play", "2x-bite"), ("play", "1x-base-attack"))
    # Tiger: base 4, claw 5, bite 4. Base card doubles base in each mode: (8 + 5*2) + (8 + 4*3) = 38.
    # (The Kick card cannot be played, so the attacker's "done" is taken at once.)
    assert totals(st) == (38, 5) and st.to_act() == (1,)
    events = play(st, ("play", "scream"))
    res = kinds(events, "result")[0].data
    assert (res["attack"], res["defense"], res["winner"]) == (38, 8, 0)
    assert st.damage[1] == 30 and 1 in st.out  # Moose 26 HP, no Form in hand: out


def test_single_mode_attack_and_defender_wins_ties_and_takes_cards():
    """"If the defender's total was equal to or greater than the attacker's total: The defender won
    ... may take up to two cards from the attacker's hand."""
    pos = position(["wolf", "goat"], [["2x-claw", "duck", "feint"], ["scream", "roar"]])
    st = start(pos, picks=[1, 0])
    attack_to_cards(st, 1, "claw")
    play(st, ("play", "2x-claw"))
    assert totals(st) == (3 + 3 * 3, 4)  # Wolf base 3, claw 3 x (1 + 2) = 12 against Goat 4
    play(st, ("play", "roar"))
    assert totals(st) == (12, 9)
    play(st, ("play", "scream"))   # a tie: 12 against 12
    assert st.to_act() == (1,) and st.legal_actions() == (("take", 0), ("take", 1), ("take", 2))
    play(st, ("take", 2))
    assert sorted(st.hands[1]) == ["duck", "feint"] and st.hands[0] == [] and st.damage[1] == 0


def test_allies_on_both_sides_play_cards_and_the_winners_allies_draw():
    """Solicit Offensive Allies, Solicit Defensive Allies (not those helping the attacker), allies
    play onto their side, and the winning side's allies draw up to two cards per card played."""
    pos = position(["wolf", "goat", "tiger", "cougar"],
                   [["1x-bite"], ["scream"], ["2x-bite", "1x-base-attack"], ["duck"]],
                   deck=["dodge"] * 4 + ["feint"] * 6)
    st = start(pos)
    play(st, ("attack", 1))
    assert st.legal_actions() == (("ask", 2), ("ask", 3), ("ask_done",))
    play(st, ("ask", 2), ("ask", 3))    # nobody else to ask: "ask_done" is taken at once
    assert st.to_act() == (2,) and st.legal_actions() == (("join",), ("decline",))
    play(st, ("join",))
    assert st.to_act() == (3,)
    play(st, ("decline",))
    # The defender may ask P3 (who declined the attacker), not P2 (who helps the attacker).
    assert st.to_act() == (1,) and st.legal_actions() == (("ask", 3), ("ask_done",))
    play(st, ("ask", 3), ("join",))
    assert st.attack["allies"] == {"att": [2], "def": [3]}
    assert st.tally["asks"] == [2, 1, 0, 0] and st.tally["asked"] == [0, 0, 1, 2]
    assert st.tally["joined"] == [0, 0, 1, 1]
    # Each player's "done" is taken at once when it has no card left to play.
    play(st, ("mode", "bite"), ("play", "1x-bite"))
    play(st, ("play", "scream"))
    # P2 plays onto the attacker: its cards use the attacker's (Wolf's) numbers.
    play(st, ("play", "2x-bite"), ("play", "1x-base-attack"))
    play(st, ("play", "duck"))
    # Wolf: base 3 x 2 = 6, bite 4 x (1 + 1 + 2) = 16 -> 22; Goat 4 + 3 + 10 = 17.
    assert st.to_act() == (2,)
    assert st.legal_actions() == tuple(("draw", k) for k in range(5))
    play(st, ("draw", 3))
    assert len(st.hands[2]) == 3 and st.damage[1] == 5
    assert st.tally["ally_won"] == [0, 0, 1, 0] and st.tally["ally_lost"] == [0, 0, 0, 1]
    assert st.tally["reward_cards"] == [0, 0, 3, 0]
    assert st.to_act() == (1,)   # the attack is over; the next player's turn


def test_defenders_allies_draw_when_the_defender_wins():
    pos = position(["rat", "moose", "goat"], [[], [], ["feint"]], deck=["scream"] * 5)
    st = start(pos)
    play(st, ("attack", 1), ("ask_done",))
    play(st, ("ask", 2), ("join",))
    # Rat has one mode (bite): chosen at once. P2 plays Feint for the Moose.
    play(st, ("play", "feint"))
    assert st.to_act() == (2,) and st.legal_actions()[-1] == ("draw", 2)
    play(st, ("draw", 1))
    assert len(st.hands[2]) == 1


# ---- flying -----------------------------------------------------------------------------------
def test_ground_attack_against_a_flyer_totals_zero_without_leap():
    """"If the defending Form is airborne, and the attacking Form does not employ any kind of attack
    mode that can affect a flying opponent, play out the attack with an attack total of zero."""
    st = start(position(["wolf", "bat"], [["3x-bite"], []]))
    attack_to_cards(st, 1, "bite")
    assert resolved(play(st, ("play", "3x-bite"))) == (0, 5)


def test_leap_lets_a_ground_form_attack_a_flyer_normally():
    """"The Leap Special Card allows a ground-based form to attack in the air."""
    st = start(position(["wolf", "bat"], [["3x-bite", "leap"], []]))
    attack_to_cards(st, 1, "bite")
    play(st, ("play", "3x-bite"))
    assert resolved(play(st, ("play", "leap"))) == (3 + 4 * 4, 5)


def test_two_flyers_fight_normally_and_fuel_is_paid_in_bookkeeping():
    """"A Flying attacker must 'fuel' their Flight by discarding during the Bookkeeping phase"; "If
    both Forms are airborne, the attack plays out normally."""
    st = start(position(["gryphon", "bat"], [["scream", "1x-bite"], []]))
    assert st.legal_actions() == (("fly",), ("done",))
    play(st, ("fly",), ("discard", "scream"))
    events = play(st, ("attack", 1), ("mode", "claw"))
    assert resolved(events) == (4 + 4, 5)


def test_a_flying_defender_chooses_to_fuel_before_asking_for_help():
    """"a Flying defender must choose whether or not to 'fuel' their Flight before they ask other
    players to assist them" -- the Gryphon (fuel 1) against a ground Wolf."""
    st = start(position(["wolf", "gryphon", "sheep"], [[], ["scream", "duck"], []]))
    play(st, ("attack", 1), ("ask_done",))
    assert st.to_act() == (1,) and st.legal_actions() == (("fly",), ("ready",))
    play(st, ("fly",), ("discard", "scream"))
    assert st.legal_actions() == (("ask", 2), ("ask_done",))
    play(st, ("ask_done",))
    assert resolved(play(st, ("mode", "bite"), ("play", "duck"))) == (0, 5 + 10)


def test_an_airborne_attacker_fights_a_ground_defender_normally():
    """"If the attacking Form is airborne ... play out the attack normally."""
    st = start(position(["eagle", "sheep"], [[], []]))
    assert resolved(play(st, ("attack", 1), ("mode", "claw"))) == (3 + 4, 3)


# ---- the abilities ----------------------------------------------------------------------------
def test_skunk_spray_costs_turns_and_blocks_attack_and_defense_cards():
    """Skunk Spray: "his opponent is affected for that many turns"; "Until he gets another turn, he
    cannot play Attack or Defense cards, but can play Special cards"; it reaches flyers."""
    pos = position(["skunk", "bat", "sheep"], [["scream", "duck", "roar"], ["feint", "evade"], ["scream"]])
    st = start(pos, picks=[0])
    play(st, ("spray", 2), ("discard", "duck"), ("discard", "roar"), ("attack", 1), ("ask_done",))
    play(st, ("ask_done",), ("mode", "claw"))
    # The sprayed Bat may play Evade (a Special), not Feint (a Defense card).
    assert st.to_act() == (1,) and st.legal_actions() == (("play", "evade"), ("done",))
    play(st, ("done",))
    # The Bat (defense 5) beat the Skunk's claw (2 + 2) and takes the Skunk's last card.
    play(st, ("take", 1))
    assert st.hands[1] == ["feint", "evade", "scream"]
    # P1's next two turns are lost: its first was skipped as P0's turn ended, then P2, P0, (skip), P2.
    assert st.to_act() == (2,) and st.status[1]["lost"] == 1 and st.status[1]["sprayed"]
    build(st)
    assert st.to_act() == (0,)
    build(st)
    assert st.to_act() == (2,) and st.status[1]["lost"] == 0
    build(st)
    build(st)
    assert st.to_act() == (1,) and not st.status[1]["sprayed"]


def test_a_defending_skunk_sprays_its_attacker():
    st = start(position(["wolf", "skunk"], [["1x-bite"], ["scream"]]))
    play(st, ("attack", 1))
    assert st.legal_actions() == (("spray", 1), ("ready",))
    play(st, ("spray", 1))
    # The sprayed Wolf may not play its Bite card: its "done" is taken at once.
    events = play(st, ("mode", "bite"))
    assert resolved(events) == (3 + 4, 3) and st.status[0]["lost"] == 1


def test_breath_weapon_combines_with_a_mode_and_reaches_flyers():
    """Breath Weapon: "discards one card from his hand ... considered to be a Combined Attack ...
    can hit flying opponents" -- only the breath part reaches the Bat while the Dragon is grounded."""
    st = start(position(["dragon", "bat"], [["scream", "2x-claw"], []]))
    play(st, ("breath", "claw"), ("discard", "scream"), ("attack", 1))
    assert st.attack["modes"] == ["breath", "claw"]
    assert resolved(play(st, ("play", "2x-claw"))) == (4 + 8, 5)


def test_breath_weapon_with_flight_counts_both_parts():
    st = start(position(["dragon", "bat"], [["scream", "duck", "roar", "2x-claw"], []]))
    play(st, ("fly",), ("discard", "scream"), ("discard", "duck"), ("breath", "claw"), ("discard", "roar"))
    events = play(st, ("attack", 1), ("play", "2x-claw"))
    assert resolved(events) == ((4 + 8) + (4 + 5 * 3), 5)


def test_roar_stops_everyone_else_playing_attack_and_defense_cards():
    """Roar: "All other players are affected by the Roar for the duration of this attack ...
    cannot play Attack or Defense cards, but can play Special cards."""
    pos = position(["lion", "sheep", "wolf"], [["scream", "duck", "1x-claw"], ["feint", "evade"], ["2x-claw"]])
    st = start(pos)
    play(st, ("roar",), ("discard", "scream"), ("discard", "duck"), ("attack", 1), ("ask", 2), ("join",))
    play(st, ("mode", "claw"))
    # The Lion itself still plays attack cards.
    play(st, ("play", "1x-claw"))
    assert st.to_act() == (1,) and st.legal_actions() == (("play", "evade"), ("done",))
    # The Lion's ally holds only an attack card: it may play nothing, so the attack resolves.
    assert resolved(play(st, ("done",))) == (4 + 4 * 2, 3)


def test_hide_calls_the_attack_off():
    st = start(position(["wolf", "sheep"], [["1x-bite"], ["hide", "scream"]]))
    play(st, ("attack", 1))
    assert ("special", "hide") in st.legal_actions()
    play(st, ("special", "hide"))
    assert st.attack is None and st.to_act() == (1,) and st.hands[0] == ["1x-bite"]


def test_evade_special_is_doubled_for_evade_forms():
    """"Evade-capable Forms get better use out of the Special card Evade."""
    st = start(position(["wolf", "rabbit", "sheep"], [[], ["evade"], []]))
    attack_to_cards(st, 1, "bite")
    assert resolved(play(st, ("play", "evade"))) == (3 + 4, 6 + 10)


# ---- Going Out --------------------------------------------------------------------------------
def test_going_out_with_help_from_others():
    """"If the player's hand is not large enough ... the player may ask other players to make up the
    difference ... it doesn't matter who discarded them."""
    pos = position(["tiger", "sheep", "moose"], [["2x-claw"], ["lion", "scream"], ["duck", "roar", "feint", "dodge"]],
                   damage=[0, 10, 0])
    st = start(pos)
    attack_to_cards(st, 1, "claw")
    play(st, ("done",), ("done",))
    # Tiger claw 4 + 5 = 9 against Sheep 3: 6 damage, the Sheep is at 13 - 16 = -3.
    assert st.to_act() == (1,) and st.legal_actions() == (("reform", "lion"), ("give_up",))
    play(st, ("reform", "lion"))
    # Needs 2 (Lion's cost) + 3 (below zero) = 5; holds 1 other card: 4 short.
    assert st.legal_actions() == (("ask", 0), ("ask", 2), ("ask_done",))
    play(st, ("ask", 2), ("ask_done",))
    assert st.to_act() == (2,) and st.legal_actions()[-1] == ("pledge", 4)
    play(st, ("pledge", 4))
    play(st, ("discard", "duck"), ("discard", "roar"), ("discard", "feint"))
    assert st.forms[1] == "lion" and st.damage[1] == 0 and st.hands[1] == [] and st.hands[2] == []


def test_going_out_without_enough_help_puts_the_player_out():
    pos = position(["tiger", "sheep", "moose"], [[], ["wolf"], ["duck"]], damage=[0, 10, 0])
    st = start(pos)
    attack_to_cards(st, 1, "claw")
    play(st, ("reform", "wolf"), ("ask", 2), ("pledge", 1))
    assert 1 in st.out and "wolf" in st.discard and "sheep" in st.discard
    assert st.hands[2] == ["duck"]   # a pledge that cannot save the player is not paid


def test_going_out_from_own_hand_pays_cost_plus_overkill():
    pos = position(["tiger", "sheep"], [[], ["rat", "scream", "duck", "roar", "feint"]], damage=[0, 10])
    st = start(pos)
    attack_to_cards(st, 1, "claw")
    play(st, ("done",), ("reform", "rat"))
    assert st.stack[-1]["kind"] == "pay" and st.stack[-1]["n"] == 3   # Rat 0 + 3 below zero
    play(st, ("discard", "scream"), ("discard", "duck"), ("discard", "roar"))
    assert st.forms[1] == "rat" and st.hands[1] == ["feint"]


# ---- the end ----------------------------------------------------------------------------------
def test_last_player_standing_wins_and_the_others_rank_by_elimination():
    pos = position(["tiger", "sheep", "rat"], [["3x-claw"], [], []], out=[2], damage=[0, 0, 0])
    pos["forms"][2] = None
    st = start(pos)
    attack_to_cards(st, 1, "claw")
    play(st, ("play", "3x-claw"))
    assert st.is_terminal()
    assert st.outcome().ranks == (0, 1, 2) and st.outcome().winner == 0
    assert st.returns() == (1.0, 0.5, 0.0)


def test_turn_cap_ends_with_the_survivors_tied():
    st = start(position(["wolf", "sheep"], [[], []], turn=5, turn_cap=5))
    play(st, ("build",))
    assert st.is_terminal() and st.outcome().capped and st.outcome().ranks == (0, 0)


# ---- the contract -----------------------------------------------------------------------------
def test_illegal_actions_and_wrong_seats_are_refused():
    st = start(position(["wolf", "sheep"], [["scream"], ["duck"]]))
    with pytest.raises(IllegalAction):
        st.apply(("attack", 0))
    with pytest.raises(IllegalAction):
        st.apply(("done",), seat=1)


def test_observation_hides_other_hands_and_the_deck_order():
    pos = position(["wolf", "sheep"], [["scream"], ["duck", "feint"]], deck=["dodge", "roar"])
    a, b = start(pos), start(dict(pos, hands=[["scream"], ["roar", "dodge"]], deck=["feint", "duck"]))
    assert a.observation(0) == b.observation(0)
    assert a.observation(0)["hands"][1] == ["?", "?"] and a.observation(0)["hands"][0] == ["scream"]


def test_position_round_trip_and_clone_independence():
    st = start(position(["wolf", "sheep", "tiger"], [["scream", "1x-bite"], ["duck"], ["feint"]]))
    play(st, ("attack", 1), ("ask", 2))
    again = game().from_position(st.position(), chance=ScriptedChance())
    assert again.position() == st.position() and again.legal_actions() == st.legal_actions()
    twin = st.clone()
    before = st.position()
    twin.apply(("join",))
    assert st.position() == before and twin.position() != before


def test_sample_state_deals_unseen_cards_consistently():
    import random
    st = game().new_game([standard_deck()] * 4, 3)
    obs = st.observation(1)
    sample = game().sample_state(obs, random.Random(5))
    assert sample.hands[1] == st.hands[1]
    assert [len(h) for h in sample.hands] == [len(h) for h in st.hands]
    assert sorted(c for h in sample.hands for c in h) + sorted(sample.deck) != [] and \
        sorted([c for h in sample.hands for c in h] + sample.deck) == sorted([c for h in st.hands for c in h] + st.deck)


def test_a_defending_lion_roars_before_anyone_plays_a_card():
    st = start(position(["wolf", "lion", "sheep"], [["2x-bite"], ["scream", "duck", "feint"], ["1x-bite"]]))
    play(st, ("attack", 1), ("ask", 2), ("join",))
    assert st.to_act() == (1,) and ("roar",) in st.legal_actions()
    play(st, ("roar",), ("discard", "scream"), ("discard", "duck"))
    # The Lion plays its Feint; the Wolf and its ally may play no Attack card.
    events = play(st, ("mode", "bite"), ("play", "feint"))
    assert resolved(events) == (3 + 4, 4 + 15)


def test_going_out_is_settled_before_the_winning_allies_draw():
    pos = position(["tiger", "sheep", "wolf"], [[], ["rat"], ["1x-claw"]], damage=[0, 12, 0], deck=["duck"] * 6)
    st = start(pos)
    play(st, ("attack", 1), ("ask", 2), ("join",), ("mode", "claw"), ("play", "1x-claw"))
    # The Sheep is dying (it must answer first); P2's reward waits under it.
    assert st.to_act() == (1,) and st.stack[-1]["kind"] == "going_out" and st.stack[-2]["kind"] == "draw"
    play(st, ("give_up",))
    assert 1 in st.out and st.to_act() == (2,) and st.legal_actions()[-1] == ("draw", 2)


def test_a_dying_player_may_ask_its_attacker_for_help():
    pos = position(["tiger", "sheep"], [["duck", "roar"], ["rat"]], damage=[0, 12])
    st = start(pos)
    attack_to_cards(st, 1, "claw")
    play(st, ("reform", "rat"))
    assert st.legal_actions() == (("ask", 0), ("ask_done",))
    play(st, ("ask", 0))
    assert st.to_act() == (0,) and st.legal_actions() == (("pledge", 0), ("pledge", 1), ("pledge", 2))
    play(st, ("pledge", 0))
    assert st.is_terminal() and st.outcome().winner == 0
