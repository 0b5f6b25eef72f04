"""The TransWar common deck as deck-rule data: the text's mix is the legal default, other mixes
within the set's limits pass, and refusals say which limit and by how much."""

from __future__ import annotations

from collections import Counter

import pytest

from cardsmith.decks import check_deck, random_deck
from cardsmith.sets.model import Deck
from tests.transwar_support import cardset, game, standard_deck


def kinds(deck: Deck) -> Counter:
    by_id = cardset().by_id()
    return Counter(by_id[c].type for c in deck.cards("deck"))


def test_the_texts_mix_is_the_default_deck_and_legal():
    deck = standard_deck()
    assert kinds(deck) == {"form": 21, "attack": 42, "defense": 15, "special": 20}
    assert deck.count() == 98
    assert {c.id: c.copies for c in cardset().cards} == dict(deck.zones["deck"])
    assert check_deck(deck, cardset()) == []


def mix(**change: int) -> Deck:
    cards = dict(standard_deck().zones["deck"])
    for cid, n in change.items():
        cards[cid.replace("_", "-")] = n
    return Deck("mix", "transwar", {"deck": {c: n for c, n in cards.items() if n}})


def test_other_mixes_within_the_limits_are_accepted():
    # No Specials at all, and more defense: 78 cards, the text's "Complete deck" count.
    no_specials = mix(**{c.id.replace("-", "_"): 0 for c in cardset().of_type("special")})
    assert no_specials.count() == 78 and check_deck(no_specials, cardset()) == []
    assert check_deck(mix(duck=5, dodge=3, wolf=2), cardset()) == []


@pytest.mark.parametrize("change, rule, found", [
    ({"wolf": 3}, "copies", 3),                      # a Form at most twice
    ({"scream": 7}, "copies", 7),                    # any card at most six times
])
def test_copy_limits_are_explained(change, rule, found):
    problems = check_deck(mix(**change), cardset())
    assert [p.rule for p in problems] == [rule]
    assert problems[0].counts["found"] == found


def test_too_few_forms_is_refused_with_the_numbers():
    forms = [c.id for c in cardset().of_type("form")]
    deck = mix(**{f: 0 for f in forms[:12]})
    problems = check_deck(deck, cardset())
    assert [p.rule for p in problems] == ["forms"]
    assert dict(problems[0].counts) == {"found": 9, "min": 12, "max": 40}
    assert "Forms" in problems[0].message


def test_random_decks_are_legal_and_playable():
    for seed in range(5):
        deck = random_deck(cardset(), seed=seed)
        assert check_deck(deck, cardset()) == []
        k = kinds(deck)
        assert 12 <= k["form"] <= 40 and 20 <= k["attack"] <= 70 and 8 <= k["defense"] <= 30
        st = game().new_game([deck] * 4, seed)
        assert st.to_act()
