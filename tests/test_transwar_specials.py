"""TransWar's Special cards (effects invented for cardsmith; see `invented:` in set.yaml), each
through the public API: positions, public actions and scripted chance."""

from __future__ import annotations

from tests.test_transwar_rules import attack_to_cards, resolved
from tests.transwar_support import play, position, start


def test_battle_rage_costs_a_discard_in_bookkeeping_and_doubles_base_attack_in_each_mode():
    st = start(position(["tiger", "sheep"], [["battle-rage", "scream", "duck"], []]))
    assert ("special", "battle-rage") in st.legal_actions()
    play(st, ("special", "battle-rage"), ("discard", "scream"), ("attack", 1))
    # Tiger claw+bite: (4 x 2 + 5) + (4 x 2 + 4) = 25 against the Sheep's 3.
    assert resolved(play(st, ("mode", "claw+bite"))) == (25, 3)


def test_berserkergang_adds_three_base_attacks_and_drops_base_defense_until_next_turn():
    st = start(position(["wolf", "moose"], [["berserkergang", "scream", "duck", "roar"], []]))
    play(st, ("special", "berserkergang"), ("discard", "scream"), ("discard", "duck"), ("attack", 1))
    assert resolved(play(st, ("mode", "bite"))) == (3 * 4 + 4, 5)
    # The Moose strikes back on its turn: the Wolf's base defense (4) counts 0.
    events = play(st, ("attack", 0), ("mode", "kick"), ("done",))   # the Wolf keeps its Roar card
    assert resolved(events) == (4 + 3, 0)
    assert st.status[0]["berserk"] is False   # gone once the Wolf's turn comes again


def test_perfect_shot_ignores_base_defense():
    st = start(position(["wolf", "sheep", "goat"], [["perfect-shot"], ["scream"], []]))
    attack_to_cards(st, 1, "bite")
    play(st, ("play", "perfect-shot"))
    assert resolved(play(st, ("play", "scream"))) == (3 + 4, 3)


def test_coordinate_adds_five_per_ally_on_its_side():
    st = start(position(["wolf", "sheep", "goat", "rat"], [["coordinate"], [], [], []]))
    play(st, ("attack", 1), ("ask", 2), ("ask", 3), ("join",), ("join",), ("mode", "bite"))
    assert resolved(play(st, ("play", "coordinate"))) == (3 + 4 + 2 * 5, 3)


def test_feign_injury_halves_the_damage():
    st = start(position(["tiger", "elephant"], [["3x-claw"], ["feign-injury"]]))
    attack_to_cards(st, 1, "claw")
    play(st, ("play", "3x-claw"))
    events = play(st, ("play", "feign-injury"))
    assert resolved(events) == (4 + 5 * 4, 5) and st.damage[1] == (24 - 5) // 2


def test_blinding_slash_stops_the_defenders_defense_cards_but_not_its_allies():
    st = start(position(["wolf", "sheep", "goat"], [["blinding-slash"], ["duck"], ["scream"]]))
    play(st, ("attack", 1), ("ask_done",), ("ask", 2), ("join",), ("mode", "bite"), ("play", "blinding-slash"))
    # The Sheep cannot play its Duck, so its "done" was taken at once; its ally plays Scream.
    assert st.to_act() == (2,) and ("play", "scream") in st.legal_actions()
    assert resolved(play(st, ("play", "scream"))) == (3 + 4, 3 + 3)


def test_broken_limb_zeroes_base_attack_until_transform():
    st = start(position(["tiger", "elephant"], [["broken-limb"], []]))
    attack_to_cards(st, 1, "claw")
    play(st, ("play", "broken-limb"))
    assert st.status[1]["broken"] is True
    # The Elephant's gore: base 0 + 4 (instead of 4 + 4).
    assert resolved(play(st, ("attack", 0), ("mode", "gore"))) == (4, 4)


def test_stroke_of_luck_adds_twice_a_die_roll():
    st = start(position(["wolf", "sheep"], [["stroke-of-luck"], []]), rolls=[5])
    attack_to_cards(st, 1, "bite")
    assert resolved(play(st, ("play", "stroke-of-luck"))) == (3 + 4 + 10, 3)


def test_heavy_bleeding_hurts_at_the_start_of_each_turn():
    st = start(position(["tiger", "elephant"], [["heavy-bleeding"], []]))
    attack_to_cards(st, 1, "claw")
    play(st, ("play", "heavy-bleeding"))
    assert st.damage[1] == 9 - 5 + 2 and st.status[1]["bleeding"] == 2


def test_abilities_are_not_used_by_allies():
    """"These abilities only apply when the Form that has them is an attacker or a defender; they
    cannot be used when the Form is 'merely' an ally" -- a Lion ally is only asked to join and play."""
    st = start(position(["wolf", "sheep", "lion"], [[], [], ["scream", "duck"]]))
    play(st, ("attack", 1), ("ask", 2))
    assert st.to_act() == (2,) and st.legal_actions() == (("join",), ("decline",))
    play(st, ("join",))
    assert st.to_act() != (2,) or all(a[0] in ("play", "done") for a in st.legal_actions())


def test_the_rules_refuse_cards_they_cannot_play():
    import dataclasses

    from cardsmith.games.transwar import RULES
    from cardsmith.sets.model import frozen_map
    from tests.transwar_support import cardset

    cs = cardset()
    assert list(RULES.validate(cs)) == []
    bad = [dataclasses.replace(cs.card("leap"), effects=()),
           dataclasses.replace(cs.card("wolf"), fields=frozen_map({**cs.card("wolf").fields, "combined": ["trample+gore"]}))]
    problems = list(RULES.validate(dataclasses.replace(cs, cards=tuple(bad) + cs.of_type("form"))))
    assert [(p.card, p.path) for p in problems] == [("leap", ()), ("wolf", ("combined",))]
    assert "effect" in problems[0].message and "trample" in problems[1].message
