"""TransWar: edge cases of the text an outside checker would try, each a hand-written position played
through the public API, beside the clause tests in test_transwar_rules.py."""

from __future__ import annotations

from tests.test_transwar_rules import attack_to_cards, resolved
from tests.transwar_support import play, position, start


def test_discard_leaving_five_or_more_cards_draws_nothing():
    """"Discard two cards from your hand. If you're left with fewer than five cards, draw from the deck
    until you have five cards": seven cards less two leave five, so nothing is drawn."""
    hand = ["scream", "duck", "roar", "feint", "dodge", "evade", "leap"]
    st = start(position(["wolf", "sheep"], [hand, ["scream"]], deck=["1x-bite"] * 4))
    if ("done",) in st.legal_actions():  # Bookkeeping, when it offers a choice
        play(st, ("done",))
    play(st, ("discard",), ("discard", "duck"), ("discard", "roar"))
    assert sorted(st.hands[0]) == sorted(["scream", "feint", "dodge", "evade", "leap"])
    assert st.deck == ["1x-bite"] * 4


def test_a_form_brought_to_exactly_zero_hit_points_is_dying():
    """"When a player's Form has been reduced to zero or fewer hit points, that Form is dying": the
    Sheep (13 HP, 7 damage) takes Tiger's claw 4 + 5 = 9 against defense 3, i.e. 6 more: 0 HP left.
    It must Go Out (new Form, no overkill to pay) or give up; one HP more and it would fight on."""
    st = start(position(["tiger", "sheep"], [[], ["rat", "scream"]], damage=[0, 7]))
    attack_to_cards(st, 1, "claw")
    events = play(st, ("done",))
    assert resolved(events) == (9, 3)
    assert st.to_act() == (1,) and set(st.legal_actions()) == {("reform", "rat"), ("give_up",)}
    play(st, ("reform", "rat"))
    assert st.forms[1] == "rat" and st.damage[1] == 0 and st.hands[1] == ["scream"]

    st = start(position(["tiger", "sheep"], [[], ["rat", "scream"]], damage=[0, 6]))
    attack_to_cards(st, 1, "claw")
    play(st, ("done",))
    assert st.forms[1] == "sheep" and st.damage[1] == 12 and st.to_act() == (1,)
    assert ("reform", "rat") not in st.legal_actions()


def test_giving_up_puts_every_card_of_the_player_in_the_discard_pile():
    """"If the player did not manage to assume a new Form, he's out of the game; all his cards go to the
    discard pile" -- and with two players left the other is the winner."""
    st = start(position(["tiger", "sheep"], [[], ["rat", "scream"]], damage=[0, 7], discard=[]))
    attack_to_cards(st, 1, "claw")
    play(st, ("done",), ("give_up",))
    assert st.is_terminal() and st.outcome().winner == 0
    assert sorted(st.discard) == ["rat", "scream", "sheep"]
