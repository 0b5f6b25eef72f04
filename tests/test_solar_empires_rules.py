"""Solar Empires rules: one test per rule clause of the source text, plus replay and invariants.

Situations are positions (tests/solar_positions.py writes them as a designer would in YAML) read with
scripted dice; the rules then run through the public API (`legal_actions`, `apply`, `position`,
`log`, `outcome`). No test touches a private field.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from cardsmith.engine.chance import ScriptedChance, SeededChance
from cardsmith.engine.contract import IllegalAction, PositionError
from cardsmith.engine.kit import dump_position, parse_position
from cardsmith.base.errors import CardsmithError
from cardsmith.games import solar_empires as se
from cardsmith.sets.model import Card, frozen_map

from solar_fixture import CHAIN, SHADOW, TERRACORP, deck, solar_set
from solar_positions import (ARMOUR, DECK0, GAME, act, building, controller, decision, lines, point_card, rich, ship,
                             ship_cards, start, table, view)

# A "toolbox" fleet per seat holding every card a test may need.
TOOL0 = {cid: 4 for cid in ("tcs-13-rapier", "tcs-15-stilletto", "tcs-17-dagger", "tcs-19-mace", "tcs-21-scimitar",
                            "tcs-23-longsword", "tcs-25-longbow", "tcs-27-catapult", "tcs-35-broadsword",
                            "tcs-37-battleaxe", "tcs-39-defender", "tcs-391-trebuchet", "ion-storm", "fusion-burst",
                            "shielding-gaze", "teleport-jump", "solar-flare", "asteroid-swarm", "spy-network",
                            "battlefield-reclamation", "sabotage", "precision-bombing", "flack-load", "order-101",
                            "mass-conscription", "mines", "support-turrets", "missile-silos", "command-center",
                            "solaris-cannon", "pre-fab-base", "deep-core-mine")}
TOOL1 = {cid: 4 for cid in ("infected-rapier", "infected-shuttle", "infected-dagger", "infected-freighter",
                            "infested-scimitar", "infested-cruiser", "infested-derelict", "infested-cargoship",
                            "hive-ship", "defiler-of-worlds", "hulk", "infector", "hidden-infection",
                            "pillars-of-flesh", "greater-rift", "blackest-night", "sabotage", "order-101",
                            "precision-bombing", "flack-load", "asteroid-swarm", "mines", "biodome",
                            "support-turrets", "command-center", "missile-silos")}
PLAIN = se.make_game(solar_set(turn_cap=40))


def fight(ships0, ships1, rolls=(), **kw):
    """Both fleets deployed as given, at the start of the combat phase (combats where ships stand)."""
    at = sorted({x[1] for x in list(ships0) + list(ships1) if not isinstance(x, str) and x[1] is not None})
    return start(table(stage="combat", ships=(ships0, ships1), combat=kw.pop("combat", at), **kw), rolls=rolls)


# ---------------------------------------------------------------- set-up
def test_solar_system_six_positions_first_star_and_extra_cards_ignored():
    a = deck("a", TERRACORP, {"super-giant": 1, "dyson-sphere": 1, "gas-giant": 4, "starbase": 3})
    b = deck("b", SHADOW, {"white-dwarf": 1, "terra-like-world": 7})
    pile = a.cards("solar_bodies") + b.cards("solar_bodies")
    stars = {"super-giant", "dyson-sphere", "white-dwarf"}
    for seed in range(30):
        order = list(pile)
        random.Random(seed).shuffle(order)  # the order the pile is turned over
        s = PLAIN.new_game([a, b], chance=ScriptedChance(orders={"solar system": order}, fallback=seed))
        v = view(s)
        bodies = [c for c in order if c not in stars][:6]
        assert [p["card"] for p in v["planets"]] == bodies, "planets take positions one to six as turned over"
        assert v["star"] == next(c for c in order if c in stars), "the first star is the system's; later stars are ignored"
        assert sorted(v["removed"] + bodies + [v["star"]]) == sorted(pile), "every other card drawn is ignored"


def test_star_gives_its_bonus_to_the_planet_at_its_position():
    # Sol Like Star: "Third planet gains +1 Organics"; the asteroid belt (0, 1, 0) is third
    s = start(table(control={3: 0}))
    assert s.support(0) == (1, 2, 2)
    s = start(table(control={3: 0}, black_hole=True))  # Blackest Night: all star effects end
    assert s.support(0) == (1, 2, 1)


def test_fleet_deck_order_is_each_players_decision():
    s = PLAIN.new_game([deck("a", {"tcs-35-broadsword": 3, "tcs-13-rapier": 3, "ion-storm": 2}), deck("b", TOOL1)], 5)
    assert s.to_act() == (0,) and s.legal_actions() == tuple(("order", o) for o in se.ORDERINGS)
    s.apply(("order", "curve"))
    s.apply(("order", "listed"))
    v = view(s)
    # curve: cheapest first; six cards drawn from the top
    assert sorted(v["players"][0]["hand"]) == ["ion-storm"] * 2 + ["tcs-13-rapier"] * 3 + ["tcs-35-broadsword"]
    listed = deck("b", TOOL1).cards("fleet")
    assert v["players"][1]["hand"] == listed[:6], "listed: the deck file's order, top first"
    assert v["players"][1]["deck"] == listed[6:]


def test_a_text_decks_line_order_is_a_fleet_order(tmp_path):
    """"players place their fleet decks face down in any order they wish": `listed` stacks the fleet as the
    deck file lists it, line by line, so copies of a card may be interleaved with others."""
    from cardsmith.decks.files import load_deck
    from cardsmith.sets.validate import load_set

    cs = load_set(Path(__file__).resolve().parent.parent / "cards" / "solar-empires")
    game = se.RULES.make_game(cs)
    lines_ = ["[fleet]", "TCS-13 Rapier", "Mines", "TCS-13 Rapier", "2x TCS-21 Scimitar", "TCS-13 Rapier"] + [
        "4x TCS-17 Dagger", "[solar bodies]", "Sol-like Star", "Terra Like World", "Gas Giant", "Asteroid Belt",
        "Volcanic World", "Starbase", "Ringed Planet", "Liquid Dense World"]
    (tmp_path / "weave.txt").write_text("\n".join(lines_) + "\n")
    woven = load_deck(tmp_path / "weave.txt", cs)
    assert woven.zones["fleet"]["tcs-13-rapier"] == 3, "the counts still merge"
    top = ["tcs-13-rapier", "mines", "tcs-13-rapier", "tcs-21-scimitar", "tcs-21-scimitar", "tcs-13-rapier"]
    assert woven.in_order("fleet")[:6] == top
    s = game.new_game([woven, woven], 5)
    s.apply(("order", "listed"))
    s.apply(("order", "shuffled"))
    assert view(s)["players"][0]["hand"] == top


def test_coin_toss_winner_chooses_priority_and_priority_alternates():
    s = PLAIN.new_game([deck("a", TOOL0), deck("b", TOOL1)], chance=ScriptedChance(picks=[1], fallback=11))
    s.apply(("order", "listed"))
    s.apply(("order", "listed"))
    assert decision(s) == ("priority", 1), "the coin is tossed inside the rules; its winner chooses"
    assert lines(s, "P1 wins the coin toss")
    s.apply(("priority", "give"))
    assert view(s)["priority"] == 0 and s.to_act() == (0,)
    while view(s)["turn"] == 1:
        s.apply(("done",) if ("done",) in s.legal_actions() else s.legal_actions()[0])
    assert view(s)["priority"] == 1
    assert "== Turn 2: P1 has priority ==" in s.log


def test_draw_phase_refills_to_six_and_hands_have_no_maximum():
    s = start(table(stage="cleanup", hands=(["tcs-13-rapier"] * 2, ["hulk"] * 9)))
    v = view(s)
    assert v["turn"] == 2
    assert len(v["players"][0]["hand"]) == 6 and len(v["players"][1]["hand"]) == 9


# ---------------------------------------------------------------- construction and support
def test_support_points_are_fixed_not_spent():
    s = start(table(hands=(["tcs-13-rapier"] * 3 + ["tcs-21-scimitar"], [])))  # 1E 1M 1O each; base support 1
    assert s.support(0) == (1, 1, 1)
    assert ("play", "tcs-21-scimitar") not in s.legal_actions(), "1E 2M 2O is more than the support points"
    for _ in range(3):
        act(s, "play", "tcs-13-rapier")
    assert ship_cards(s, 0) == ["tcs-13-rapier"] * 3 and s.support(0) == (1, 1, 1)


@pytest.mark.parametrize("card,controlled,playable", [
    ("tcs-21-scimitar", (2, 5, 3, 6), False),  # support (3, 3, 1): organics short of 1E 2M 2O
    ("tcs-21-scimitar", (2, 5, 1), False),  # (3, 1, 2): minerals short
    ("tcs-23-longsword", (3, 6, 1), False),  # (1, 3, 2): energy short of 2E 2M 1O
    ("tcs-21-scimitar", (3, 1), True),  # (1, 2, 2): exactly enough
])
def test_every_resource_must_cover_the_cost(card, controlled, playable):
    s = start(table(star=None, control={k: 0 for k in controlled}, hands=([card], [])))
    assert (("play", card) in s.legal_actions()) is playable, s.support(0)


def test_support_counts_planets_and_buildings_under_control():
    # terra-like-world (0, 0, 1) with a Deep Core Mine (+2 minerals), gas giant (1, 0, 0)
    s = start(table(control={1: 0, 2: 0}, buildings={1: ("deep-core-mine", 0)}))
    assert s.support(0) == (2, 3, 2)
    s = start(table(control={1: 1, 2: 0}, buildings={1: ("deep-core-mine", 0)}))
    assert s.support(1) == (1, 3, 2), "the building's bonus goes to whoever controls the planet"


def test_buildings_need_a_controlled_planet_and_replace_the_old_one():
    s = start(table(hands=(["mines"], [])))
    assert not any(a[:2] == ("play", "mines") for a in s.legal_actions())
    s = start(table(hands=(["mines"], []), control={4: 0}, buildings={4: ("pre-fab-base", 0)}))
    assert ("play", "mines", 4) in s.legal_actions()
    s.apply(("play", "mines", 4))
    assert building(s, 4) == "mines" and "pre-fab-base" in view(s)["players"][0]["discard"]


def test_one_event_and_one_spell_per_turn():
    s = start(table(hands=(["sabotage", "order-101", "ion-storm", "ion-storm"], []), ships=([], ["infected-rapier"]),
                    **rich(0)))
    act(s, "play", "sabotage")
    assert ("play", "order-101") not in s.legal_actions(), "only one event a turn"
    act(s, "play", "ion-storm")
    act(s, "target", "infected-rapier")
    assert ("play", "ion-storm") not in s.legal_actions(), "only one spell a turn"
    p0 = view(s)["players"][0]
    assert p0["event_played"] and p0["spell_played"]


def test_every_non_neutral_event_is_a_spell():
    """The designer's later word: "Note all the non-neutral events are spells, and the chain are explicitly
    forbidden from using them" (Teleport Jump, Greater Rift and Blackest Night print no "Spell")."""
    s = start(table(hands=(["teleport-jump", "ion-storm", "sabotage"], []), decks=(DECK_WITH_TREBUCHET, []),
                    ships=([], ["infected-rapier"]), **rich(0)))
    act(s, "play", "teleport-jump")
    act(s, "take", "tcs-391-trebuchet")
    assert view(s)["players"][0]["spell_played"] and not view(s)["players"][0]["event_played"]
    assert "teleport-jump" in view(s)["players"][0]["discard"], "a spell resolves and is discarded at once"
    assert not [a for a in s.legal_actions() if a[:2] == ("play", "ion-storm")], "only one spell a turn"
    assert ("play", "sabotage") in s.legal_actions(), "one spell and one regular event"
    s = start(table(priority=1, hands=([], ["greater-rift", "blackest-night"]), **rich(1)))
    s.apply(("play", "greater-rift"))
    assert ("play", "blackest-night") not in s.legal_actions()


def test_chain_decks_cannot_cast_spells():
    for other, chain in (("drone", True), ("infected-rapier", False)):
        s = start(table(step=1, hands=(["tcs-13-rapier"], ["hidden-infection", other]), decks=(DECK0, [other] * 4),
                        ships=(["tcs-13-rapier"], []), control={1: 1}))
        assert s.to_act() == (1,)
        casts = any("hidden-infection" in a for a in s.legal_actions())
        assert casts is not chain, "a deck with a Chain card casts no spell (the same hand without one does)"


# ---------------------------------------------------------------- deployment
def test_deployment_priority_player_first_and_solar_flare_blocks_planets():
    s = start(table(priority=1, stage="deploy", hands=([], []), ships=(["tcs-13-rapier"], ["infected-rapier"]),
                    events=(["solar-flare"], []), flare=[1, 2]))
    assert decision(s) == ("deploy", 1), "the player with priority deploys first"
    targets = {a[2] for a in s.legal_actions() if a[0] == "deploy"}
    assert targets == {3, 4, 5, 6}, "no ships may be deployed to the flared planets"
    act(s, "deploy", "infected-rapier", 3)  # its last ship: "done" is then the only choice, taken at once
    assert decision(s) == ("deploy", 0)
    act(s, "deploy", "tcs-13-rapier", 3)


def test_solar_flare_is_played_on_two_planets():
    s = start(table(hands=(["solar-flare", "tcs-13-rapier"], [])))
    plays = [a for a in s.legal_actions() if a[:2] == ("play", "solar-flare")]
    assert len(plays) == 15  # two of six planets
    s.apply(("play", "solar-flare", 2, 5))
    assert view(s)["flare"] == [2, 5]


def test_spy_network_moves_one_ship_after_all_deployments():
    s = start(table(stage="spy", events=(["spy-network"], []),
                    ships=([("tcs-13-rapier", 1)], [("infected-rapier", 2), ("hive-ship", 2)])))
    assert decision(s) == ("spy_network", 0)
    assert ("spy-keep",) in s.legal_actions()
    act(s, "spy", "tcs-13-rapier", 2)
    assert ship(s, 0, "tcs-13-rapier")["at"] == 2 and decision(s) == ("point_ship", 1), \
        "now both fleets meet at position 2"


# ---------------------------------------------------------------- combat
def test_uncontested_deployment_wins_automatically_and_takes_control():
    s = fight([("tcs-13-rapier", 2)], [])
    assert controller(s, 2) == 0 and lines(s, "P0 is unopposed")
    assert view(s)["stage"] == "construct2"


def test_priority_player_chooses_combat_order():
    s = fight([("tcs-13-rapier", 2)], [("infected-rapier", 5)], priority=1)
    assert decision(s) == ("combat_order", 1)
    s.apply(("combat", 5))
    assert lines(s, "Combat at position")[0].startswith("Combat at position 5")


def test_point_ships_chosen_priority_first():
    s = fight([("tcs-13-rapier", 1), ("tcs-21-scimitar", 1)], [("infected-rapier", 1), ("hive-ship", 1)], priority=1)
    assert decision(s) == ("point_ship", 1)
    act(s, "point", "infected-rapier")
    assert decision(s) == ("point_ship", 0)


@pytest.mark.parametrize("fleet,expected", [
    # Battleships: +1 for further battleships, then +1 for each cruiser and fighter.
    (["tcs-35-broadsword", "tcs-37-battleaxe", "tcs-35-broadsword", "tcs-21-scimitar", "tcs-13-rapier"], 6 + 1 + 2),
    # Cruisers: +1 for another cruiser or battleship, +1 for each fighter.
    (["tcs-21-scimitar", "tcs-35-broadsword", "tcs-13-rapier", "tcs-15-stilletto"], 4 + 1 + 2),
    (["tcs-21-scimitar"], 4),
    # A fighter only ever gets +1.
    (["tcs-13-rapier", "tcs-15-stilletto", "tcs-21-scimitar", "tcs-35-broadsword"], 2 + 1),
])
def test_attack_bonus(fleet, expected):
    s = fight([(c, 1) for c in fleet], [("hive-ship", 1)], rolls=[3, 1])
    if decision(s) == ("point_ship", 0):
        act(s, "point", fleet[0])
    assert f"d6 3 + {expected} = " in lines(s, "P0 fires:")[0]


def test_attack_order_smaller_point_ship_fires_first_ties_to_priority():
    s = fight([("tcs-35-broadsword", 1)], [("infected-rapier", 1)], rolls=[1, 1])
    assert lines(s, "P1 fires first"), "the fighter strikes before the battleship"
    s = fight([("tcs-21-scimitar", 1)], [("infested-scimitar", 1)], rolls=[1, 1], priority=1)
    assert lines(s, "P1 fires first"), "equal sizes: the player with priority fires first"


def test_attack_order_does_not_change_when_point_ship_changes():
    # P1 fires (1 + 3 = 4 on the broadsword), P0 fires back 1 + 6 = 7 and kills the rapier point ship
    s = fight([("tcs-35-broadsword", 1)], [("infected-rapier", 1), ("infected-shuttle", 1)], rolls=[1, 1, 1, 1])
    act(s, "point", "infected-rapier")
    assert lines(s, "P1 fires first")
    act(s, "damage", "infected-rapier")
    assert point_card(s, 1) == "infected-shuttle" and decision(s) == ("fire_or_withdraw", 1)
    s.apply(("fire",))
    assert [line for line in s.log if " fires:" in line][-1].startswith("  P1 fires"), "P1 still fires first"


def test_defender_places_damage_whole_ship_first_then_the_rest():
    # the lone shuttle fires first (fighter against a battleship point): 6 + 3 = 9
    s = fight([("tcs-35-broadsword", 1), ("tcs-13-rapier", 1), ("tcs-21-scimitar", 1)], [("infected-shuttle", 1)],
              rolls=[6])
    act(s, "point", "tcs-35-broadsword")
    assert decision(s) == ("place_damage", 0) and view(s)["combat"]["damage_left"] == 9
    act(s, "damage", "tcs-13-rapier")  # armour 6
    assert "tcs-13-rapier" in view(s)["players"][0]["discard"], "the maximum possible (6) goes on the chosen ship"
    assert decision(s) == ("place_damage", 0) and view(s)["combat"]["damage_left"] == 3
    act(s, "damage", "tcs-21-scimitar")
    assert ship(s, 0, "tcs-21-scimitar")["damage"] == 3


def test_point_ship_destroyed_new_one_of_equal_or_smaller_size():
    # 1 + 3 = 4: one destroys the scimitar, three go on the broadsword; then P0's rapier fires 1 + 3 = 4
    s = fight([("tcs-21-scimitar", 1, 7), ("tcs-35-broadsword", 1), ("tcs-13-rapier", 1)], [("infected-shuttle", 1)],
              rolls=[1, 1])
    act(s, "point", "tcs-21-scimitar")
    act(s, "damage", "tcs-21-scimitar")
    act(s, "damage", "tcs-35-broadsword")
    # the broadsword is larger than the lost cruiser; only the rapier may take the point
    assert point_card(s, 0) == "tcs-13-rapier" and "tcs-35-broadsword" in ship_cards(s, 0)


def test_no_ship_of_equal_or_smaller_size_means_automatic_withdrawal():
    # P1 fires first (tied fighters, priority): 1 + 3 = 4, one kills the rapier, three on the broadsword
    s = fight([("tcs-13-rapier", 1, 5), ("tcs-35-broadsword", 1)], [("infected-shuttle", 1)], rolls=[1], priority=1)
    act(s, "point", "tcs-13-rapier")
    act(s, "damage", "tcs-13-rapier")
    assert lines(s, "P0 has no ship to take the point and withdraws")
    assert controller(s, 1) == 1
    assert ship(s, 0, "tcs-35-broadsword")["at"] is None, "withdrawn ships go back to reinforcements"


def test_fire_or_withdraw_and_withdrawing_concedes():
    # both shielded 3: every shot deals 1 + 6 - 3 = 4
    s = fight([("tcs-39-defender", 1)], [("hulk", 1)], rolls=[1, 1, 1], control={1: 0})
    # two forced shots (P0 first: tie goes to priority), then P0 may fire again or withdraw
    assert decision(s) == ("fire_or_withdraw", 0)
    assert set(s.legal_actions()) == {("fire",), ("withdraw",)}
    s.apply(("fire",))
    assert decision(s) == ("fire_or_withdraw", 1)
    s.apply(("withdraw",))
    assert controller(s, 1) == 0 and lines(s, "P1 withdraws") and lines(s, "P0 wins the combat")


def test_destruction_when_damage_equals_armour():
    s = fight([("tcs-13-rapier", 1)], [("infected-shuttle", 1, 1)], rolls=[2])  # 2 + 2 = 4: exactly armour 5
    assert "infected-shuttle" in view(s)["players"][1]["discard"] and controller(s, 1) == 0


def test_shield_reduces_enemy_damage_rolls():
    s = fight([("tcs-39-defender", 1)], [("infected-shuttle", 1)], rolls=[4])  # Shield 3 battleship
    assert lines(s, "P1 fires: d6 4 + 3 - shield 3 = 4")


def test_shielded_point_ship_is_supported_only_by_smaller_ships():
    # Shield 3, attack +6; a larger-or-equal ship adds nothing to a shielded point ship, a smaller one +1
    s = fight([("tcs-39-defender", 1), ("tcs-35-broadsword", 1), ("tcs-13-rapier", 1)], [("hive-ship", 1)], rolls=[2])
    act(s, "point", "tcs-39-defender")
    assert lines(s, "P0 fires: d6 2 + 7 = 9")


def test_accurate_rerolls_ones():
    s = fight([("tcs-27-catapult", 1)], [("hive-ship", 1)], rolls=[1, 5])  # Accurate cruiser +6
    assert lines(s, "P0 fires: d6 5 (accurate re-roll) + 6 = 11")
    s = fight([("tcs-21-scimitar", 1)], [("hive-ship", 1)], rolls=[1, 5])
    assert lines(s, "P0 fires: d6 1 + 4 = 5"), "no re-roll without Accurate"


def test_bomber_gets_plus_two_against_a_larger_point_ship():
    s = fight([("tcs-19-mace", 1)], [("hive-ship", 1)], rolls=[3])  # Bomber fighter +4
    assert lines(s, "P0 fires: d6 3 + 6 = 9")
    s = fight([("tcs-19-mace", 1)], [("infected-rapier", 1)], rolls=[3])
    assert lines(s, "P0 fires: d6 3 + 4 = 7"), "no bonus against an equal point ship"


def test_interceptor_forces_damage_onto_a_fighter_of_the_attackers_choice():
    # P0's Interceptor cruiser +4 fires first: 6 + 4 = 10
    s = fight([("tcs-25-longbow", 1)], [("hive-ship", 1), ("infected-rapier", 1), ("infested-scimitar", 1)], rolls=[6])
    act(s, "point", "hive-ship")
    assert decision(s) == ("intercept", 0)
    act(s, "intercept", "infected-rapier")
    assert "infected-rapier" in view(s)["players"][1]["discard"], "the fighter takes damage first and is destroyed"
    assert decision(s) == ("place_damage", 1) and view(s)["combat"]["damage_left"] == 4, "then the defender places freely"
    act(s, "damage", "infested-scimitar")
    assert ship(s, 1, "infested-scimitar")["damage"] == 4


def test_damage_never_exceeds_armour_and_leftover_is_lost_when_fleet_is_gone():
    s = fight([("tcs-37-battleaxe", 1)], [("infected-shuttle", 1)], rolls=[6], priority=1)  # 6 + 3 = 9 on armour 8
    assert controller(s, 1) == 1 and lines(s, "puts 8 damage")


def test_building_survival_roll_on_conquest_is_d6_at_least_save():
    for roll, survives in ((3, True), (2, False)):
        s = fight([("tcs-13-rapier", 1)], [], rolls=[roll], control={1: 1}, buildings={1: ("mines", 1)})  # 3+ save
        assert controller(s, 1) == 0
        assert (building(s, 1) == "mines") is survives
        if not survives:
            assert "mines" in view(s)["players"][1]["discard"], "a destroyed building goes to its owner's discard pile"


def test_sabotage_deducts_one_and_precision_bombing_rerolls():
    s = fight([("tcs-13-rapier", 1)], [], rolls=[3], control={1: 1}, buildings={1: ("mines", 1)},
              events=([], ["sabotage"]))
    assert building(s, 1) is None and "mines" in view(s)["players"][1]["discard"], "3 - 1 fails a 3+ save"
    s = fight([("tcs-13-rapier", 1)], [], rolls=[1, 4], control={1: 1}, buildings={1: ("mines", 1)},
              events=(["precision-bombing"], []))
    assert building(s, 1) == "mines" and lines(s, "Precision Bombing re-roll: 4")


def test_order_101_lets_the_loser_fail_the_save():
    s = fight([("tcs-13-rapier", 1)], [], control={1: 1}, buildings={1: ("mines", 1)}, events=([], ["order-101"]))
    assert decision(s) == ("order_101", 1)
    s.apply(("order-101", "self-destruct"))
    assert building(s, 1) is None and "mines" in view(s)["players"][1]["discard"]


def test_support_turrets_missile_silos_and_command_center():
    s = fight([("tcs-13-rapier", 1, 2), ("tcs-21-scimitar", 1)], [("infected-rapier", 1)], rolls=[1, 1, 1, 1],
              control={1: 1}, buildings={1: ("support-turrets", 1)})
    assert "tcs-13-rapier" in view(s)["players"][0]["discard"], "2 + 4 = 6 = armour"
    assert ship(s, 0, "tcs-21-scimitar")["damage"] >= 4
    s = fight([("tcs-35-broadsword", 1), ("tcs-13-rapier", 1)], [], control={1: 1}, buildings={1: ("missile-silos", 1)})
    assert decision(s) == ("effect_target", 1), "the silos' controller picks the target, ships there or not"
    act(s, "strike", "tcs-35-broadsword")
    assert "tcs-35-broadsword" in view(s)["players"][0]["discard"], "15 damage destroys the broadsword"
    s = fight([("tcs-21-scimitar", 1)], [("hive-ship", 1)], rolls=[2], control={1: 0},
              buildings={1: ("command-center", 0)})
    assert lines(s, "P0 fires: d6 2 + 7 = 9"), "+3 for fleets at a Command Center you control"


def test_flack_load_and_asteroid_swarm_hit_before_attacks():
    s = fight([("tcs-35-broadsword", 1)], [("infected-shuttle", 1, 1), ("infested-scimitar", 1)], rolls=[1, 1, 1, 1],
              events=(["flack-load"], []))
    assert "infected-shuttle" in view(s)["players"][1]["discard"], "1 + 4 = 5 = armour"
    assert lines(s, "Flack Load hits Infected Shuttle") and not lines(s, "Flack Load hits Infested Scimitar"), \
        "only fighters take the flak"
    s = start(table(hands=(["asteroid-swarm", "tcs-13-rapier"], []), **rich(0)))
    s.apply(("play", "asteroid-swarm", 1, 2))
    assert view(s)["swarm"] == [{"position": 1, "bonus": 3}, {"position": 2, "bonus": 3}]
    # P0's fleet takes 3 + 3, P1's 2 + 3
    s = fight([("tcs-13-rapier", 1)], [("infected-rapier", 1)], rolls=[3, 2], events=(["asteroid-swarm"], []),
              swarm=[{"position": 1, "bonus": 3}, {"position": 2, "bonus": 3}])
    assert "tcs-13-rapier" in view(s)["players"][0]["discard"] and ship(s, 1, "infected-rapier")["damage"] == 5
    assert controller(s, 1) == 1


def test_battlefield_reclamation_draws_on_capture():
    s = fight([("tcs-13-rapier", 1), ("tcs-13-rapier", 2)], [], events=(["battlefield-reclamation"], []))
    n = len(view(s)["players"][0]["hand"])
    s.apply(("combat", 1))
    assert len(view(s)["players"][0]["hand"]) == n + 2


def test_cleanup_ends_events_and_resets_damage():
    s = start(table(stage="cleanup", ships=([("tcs-21-scimitar", None, 5)], []), events=(["sabotage"], [])))
    v = view(s)
    assert ship(s, 0, "tcs-21-scimitar")["damage"] == 0 and "sabotage" in v["players"][0]["discard"]
    assert not v["players"][0]["events"] and v["turn"] == 2


# ---------------------------------------------------------------- spells and events
def test_ion_storm_fusion_burst_hidden_infection_pillars_shielding_gaze():
    s = start(table(hands=(["ion-storm", "tcs-13-rapier"], []), ships=([], [("infected-shuttle", None, 2), "infected-rapier"]), **rich(0)))
    s.apply(("play", "ion-storm"))
    act(s, "target", "infected-shuttle")
    act(s, "target", "infected-rapier")  # no fighter is left: the spell ends by itself
    assert "infected-shuttle" in view(s)["players"][1]["discard"] and ship(s, 1, "infected-rapier")["damage"] == 3
    assert decision(s) == ("construct", 0)
    s = start(table(hands=(["fusion-burst"], []), ships=([], ["infested-scimitar", "hive-ship"]), **rich(0)))
    assert not any("hive-ship" in a for a in s.legal_actions()), "cruiser or smaller only"
    act(s, "play", "fusion-burst", "infested-scimitar")
    assert "infested-scimitar" in view(s)["players"][1]["discard"]
    # shadow spells, cast by seat 1
    s = start(table(priority=1, hands=([], ["pillars-of-flesh"]), discards=([], ["infected-rapier"]),
                    ships=([("tcs-21-scimitar", None, 2)], []), **rich(1)))
    act(s, "play", "pillars-of-flesh", "tcs-21-scimitar")
    assert "tcs-21-scimitar" in view(s)["players"][0]["discard"]
    assert ship_cards(s, 1) == ["infected-rapier"], "the only ship of equal or smaller size in the discard comes back"
    s = start(table(priority=1, hands=([], ["hidden-infection"]), ships=(["tcs-35-broadsword"], []), **rich(1)))
    act(s, "play", "hidden-infection", "tcs-35-broadsword")
    assert ship(s, 0, "tcs-35-broadsword")["damage"] == 6
    s = start(table(hands=(["shielding-gaze"], []), ships=(["tcs-21-scimitar"], []), **rich(0)))
    act(s, "play", "shielding-gaze", "tcs-21-scimitar")
    assert ship(s, 0, "tcs-21-scimitar")["shield"] == 3


def test_mass_conscription_and_teleport_jump_put_ships_into_play():
    s = start(table(hands=(["mass-conscription", "tcs-13-rapier"], []),
                    discards=(["tcs-13-rapier", "tcs-35-broadsword"], []), **rich(0)))
    s.apply(("play", "mass-conscription"))
    s.apply(("take", "tcs-35-broadsword"))
    assert decision(s) == ("construct", 0), "the second pick is forced and taken automatically"
    assert sorted(ship_cards(s, 0)) == ["tcs-13-rapier", "tcs-35-broadsword"]
    s = start(table(hands=(["teleport-jump", "tcs-13-rapier"], []), decks=(DECK_WITH_TREBUCHET, []), **rich(0)))
    s.apply(("play", "teleport-jump"))
    assert ("take", "tcs-391-trebuchet") in s.legal_actions()
    n = len(view(s)["players"][0]["deck"])
    s.apply(("take", "tcs-391-trebuchet"))
    assert len(view(s)["players"][0]["deck"]) == n - 1 and ship_cards(s, 0) == ["tcs-391-trebuchet"]


DECK_WITH_TREBUCHET = ["tcs-13-rapier", "tcs-391-trebuchet", "tcs-35-broadsword", "mines"]


def test_greater_rift_rolls_saves_for_enemy_buildings():
    planets = ["terra-like-world", "gas-giant", "asteroid-belt", "test-eden", "starbase", "ringed-planet"]
    s = start(table(priority=1, hands=([], ["greater-rift"]), planets=planets,
                    control={1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 1},
                    buildings={1: ("mines", 0), 2: ("pre-fab-base", 0), 3: ("biodome", 1)}), rolls=[3, 4])
    # Mines (3+) survive a 3; the Pre-fab Base (5+) falls to a 4; the caster's own Biodome rolls nothing
    s.apply(("play", "greater-rift"))
    assert building(s, 1) == "mines" and building(s, 2) is None and building(s, 3) == "biodome"
    assert "pre-fab-base" in view(s)["players"][0]["discard"]



def test_precision_bombing_rerolls_greater_rift_saves():
    """Precision Bombing: "You may re-roll failed building saves this turn": Greater Rift's rolls ("Roll a
    building save for each building not under your control") are building saves of their controller."""
    planets = ["terra-like-world", "gas-giant", "asteroid-belt", "test-eden", "starbase", "ringed-planet"]
    s = start(table(priority=1, hands=([], ["greater-rift"]), planets=planets, control={1: 0, 4: 1},
                    buildings={1: ("pre-fab-base", 0)}, events=(["precision-bombing"], [])), rolls=[4, 5])
    s.apply(("play", "greater-rift"))
    assert building(s, 1) == "pre-fab-base" and lines(s, "Precision Bombing re-roll: 5")


# ---------------------------------------------------------------- legendary cards
def test_world_eater_destroys_the_planet_and_revives_three_ships():
    s = fight([], [("world-eater", 2)], priority=1, control={2: 0}, buildings={2: ("mines", 0)},
              discards=([], ["control-cruiser", "stripminer", "drone", "mothership"]), decks=(DECK0, ["drone"] * 8))
    assert decision(s) == ("world_eater", 1)
    s.apply(("world-eater", "destroy"))
    assert view(s)["planets"][1] is None and "mines" in view(s)["players"][0]["discard"]
    assert decision(s) == ("choose_cards", 1)
    for cid in ("stripminer", "mothership", "drone"):
        s.apply(("take", cid))
    assert sorted(ship_cards(s, 1)) == ["drone", "mothership", "stripminer", "world-eater"]
    assert decision(s)[0] != "choose_cards"


def test_world_eater_may_spare_the_planet():
    s = fight([], [("world-eater", 2)], priority=1)
    s.apply(("world-eater", "spare"))
    assert view(s)["planets"][1] is not None and controller(s, 2) == 1


def test_solaris_cannon_fires_once_per_turn_if_affordable():
    s = start(table(control={1: 0}, buildings={1: ("solaris-cannon", 0)}))
    assert not any(a[0] == "fire-cannon" for a in s.legal_actions()), "needs 3E 3M 3O of support"
    s = start(table(control={1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 1},
                    buildings={1: ("solaris-cannon", 0), 2: ("pre-fab-base", 0), 3: ("deep-core-mine", 0)}))
    assert all(x >= 3 for x in s.support(0)), s.support(0)
    s.apply(("fire-cannon", 6))
    assert view(s)["planets"][5] is None
    assert s.outcome() is not None and s.outcome().winner == 0 and s.outcome().reason == "conquest", \
        "player 0 now holds every remaining planet"


def test_solaris_cannon_fires_once_per_turn():
    s = start(table(control={1: 0, 2: 0, 3: 0, 4: 0}, hands=(["tcs-13-rapier"], []),
                    buildings={1: ("solaris-cannon", 0), 2: ("pre-fab-base", 0), 3: ("deep-core-mine", 0)}))
    s.apply(("fire-cannon", 6))
    assert not any(a[0] == "fire-cannon" for a in s.legal_actions())


def test_blackest_night_destroys_the_closest_planet_each_cleanup():
    s = start(table(priority=1, hands=([], ["blackest-night"]), planets=["terra-like-world", "test-eden"] + [
        "asteroid-belt", "volcanic-world", "starbase", "ringed-planet"], control={1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 0}))
    s.apply(("play", "blackest-night"))
    assert view(s)["black_hole"]
    s = start(table(stage="cleanup", black_hole=True))
    assert view(s)["planets"][0] is None and view(s)["planets"][1] is not None
    # the last planet: the player with the most ships wins
    s = start(table(stage="cleanup", black_hole=True, planets=[None] * 5 + ["ringed-planet"],
                    ships=(["tcs-13-rapier"], ["infected-rapier", "infected-rapier"])))
    assert s.outcome().reason == "black hole" and s.outcome().winner == 1


# ---------------------------------------------------------------- victory
def test_conquest_of_all_remaining_planets_wins():
    s = fight([("tcs-13-rapier", 1)], [], planets=PLANETS5 + [None], control={k: 0 for k in range(1, 6)})
    assert s.outcome().reason == "conquest" and s.outcome().winner == 0  # a destroyed planet does not count


PLANETS5 = ["terra-like-world", "gas-giant", "asteroid-belt", "volcanic-world", "starbase"]


def test_conquest_needs_every_planet_not_just_most():
    s = fight([("tcs-13-rapier", 1)], [], control={k: 0 for k in range(1, 6)})
    assert s.outcome() is None and not s.is_terminal()


def test_opponent_out_of_deck_hand_and_ships_loses():
    s = fight([("tcs-13-rapier", 1)], [], hands=(["tcs-13-rapier"], []), decks=(["tcs-13-rapier"], []),
              discards=([], ["infected-rapier"]))
    assert s.outcome().reason == "exhaustion" and s.outcome().winner == 0


def test_turn_cap_ends_the_game_as_a_draw():
    g = se.make_game(solar_set(turn_cap=3))
    s = g.new_game([deck("a", TOOL0), deck("b", TOOL1)], 3)
    while not s.is_terminal():
        s.apply(("done",) if ("done",) in s.legal_actions() else s.legal_actions()[0])
    out = s.outcome()
    assert out.reason == "turn cap" and out.winner is None and out.capped and view(s)["turn"] == 3
    assert s.returns() == (0.5, 0.5)


def test_a_position_that_can_only_repeat_ends_as_a_stalemate():
    # both hands: six cards nobody can play (buildings need a planet, these ships cost more than 1 of each)
    s = start(table(stage="cleanup", hands=(["tcs-35-broadsword", "mines"] * 3, ["hulk", "mines"] * 3)))
    assert s.outcome().reason == "stalemate" and s.outcome().winner is None and view(s)["turn"] == 1
    # one playable card is enough to go on
    hand0 = ["tcs-35-broadsword", "tcs-35-broadsword", "tcs-37-battleaxe", "mines", "mines", "tcs-13-rapier"]
    s = start(table(stage="cleanup", hands=(hand0, ["hulk", "mines"] * 3)))
    assert not s.is_terminal() and view(s)["turn"] == 2


def test_bad_turn_cap_and_unknown_event_are_clear_errors():
    with pytest.raises(CardsmithError, match="turn_cap"):
        se.make_game(solar_set(turn_cap=0))
    odd = Card(id="odd-event", name="Odd Event", type="event", fields=frozen_map({"energy": 1}))
    with pytest.raises(CardsmithError, match="Odd Event"):
        se.make_game(solar_set(extra=[odd]))
    with pytest.raises(CardsmithError, match="no solar system"):
        PLAIN.new_game([deck("a", TOOL0, {"sol-like-star": 1}), deck("b", TOOL1, {"white-dwarf": 1})], 1)
    with pytest.raises(CardsmithError, match="nope"):
        PLAIN.new_game([deck("a", {"nope": 1}), deck("b", TOOL1)], 1)


def test_illegal_actions_are_refused():
    s = start(table(hands=(["tcs-37-battleaxe", "tcs-13-rapier"], [])))
    legal = s.legal_actions()
    with pytest.raises(IllegalAction):
        s.apply(("play", "hulk"))
    with pytest.raises(IllegalAction):
        s.apply(("play", "tcs-37-battleaxe"))  # in hand, but 3/2/2 is more than 1/1/1 of support
    with pytest.raises(IllegalAction):
        s.apply(legal[0], seat=1)  # not seat 1's decision
    with pytest.raises((TypeError, AttributeError)):
        legal.append(("play", "tcs-37-battleaxe"))  # the legal actions cannot be widened
    assert s.legal_actions() == legal and s.to_act() == (0,)


# ---------------------------------------------------------------- effects are data
def test_effect_parameters_come_from_the_card_not_its_text():
    def with_flack(amount, text):
        flack = Card(id="flack-load", name="Flack Load", type="event", fields=frozen_map({"energy": 2}), text=text,
                     effects=(frozen_map({"do": "damage", "amount": amount, "target": "enemy_fighters",
                                          "when": "before_attacks"}),))
        cs = solar_set()
        cs = type(cs)(**{**cs.__dict__, "cards": tuple(c if c.id != "flack-load" else flack for c in cs.cards)})
        return se.make_game(cs)

    for amount, text, destroyed in ((4, "Each enemy fighter takes 6 damage.", False),
                                    (6, "Each enemy fighter takes 4 damage.", True)):
        g = with_flack(amount, text)
        pos = table(stage="combat", combat=[1], events=(["flack-load"], []),
                    ships=([("tcs-35-broadsword", 1)], [("infected-rapier", 1), ("hive-ship", 1)]))
        s = start(pos, rolls=[1, 1], game=g)
        assert ("infected-rapier" in view(s)["players"][1]["discard"]) is destroyed, (amount, text)


def test_unknown_effect_and_misfit_targets_are_set_problems():
    bad = Card(id="bad-silo", name="Bad Silo", type="building", fields=frozen_map({"save": 3}),
               effects=(frozen_map({"do": "damage", "amount": 3, "target": "ship", "when": "played"}),))
    odd = Card(id="odd", name="Odd", type="event", effects=(frozen_map({"do": "explode"}),))
    gun = Card(id="gun", name="Gun", type="event",
               effects=(frozen_map({"do": "damage", "amount": 3, "target": "ship", "when": "before_attacks"}),))
    problems = se.set_problems(solar_set(extra=[bad, odd, gun]))
    got = {(p.card, p.path) for p in problems}
    assert ("bad-silo", ("effect", 0, "when")) in got and ("gun", ("effect", 0, "target")) in got
    assert ("odd", ("effect", 0, "do")) in got
    assert se.set_problems(solar_set()) == []


# ---------------------------------------------------------------- positions and chance
def test_a_position_round_trips_through_yaml_and_plays_on_the_same():
    s = PLAIN.new_game([deck("t", TERRACORP), deck("s", SHADOW)], 42)
    rng = random.Random(4)
    for _ in range(90):
        if not s.is_terminal():
            s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    text = dump_position(s.position())
    assert "stage:" in text and "decision:" in text
    t = PLAIN.from_position(parse_position(text, "solar_empires"), chance=SeededChance(3))
    assert t.position() == s.position() and t.legal_actions() == s.legal_actions()
    u = PLAIN.from_position(text, chance=SeededChance(3))
    for _ in range(40):
        if t.is_terminal():
            break
        a = t.legal_actions()[0]
        t.apply(a)
        u.apply(a)
    assert t.position() == u.position() and t.log[-5:] == u.log[-5:]


# Every kind of decision a random Chain-Shadow game reaches (seeds 0-2 reach all of them).
DECISION_KINDS = {"priority", "order_deck", "construct", "deploy", "combat_order", "intercept", "fire_or_withdraw",
                  "point_ship", "place_damage", "choose_cards", "spy_network", "world_eater"}


def test_every_position_of_a_game_reads_back_as_the_same_game():
    kinds: set[str] = set()
    for seed in range(6):  # games until every kind of decision was read back (each position a game passes)
        s = PLAIN.new_game([deck("c", CHAIN), deck("s", SHADOW)], seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            pos = s.position()
            t = PLAIN.from_position(pos, chance=SeededChance(0))
            assert t.position() == pos and t.legal_actions() == s.legal_actions() and t.to_act() == s.to_act()
            kinds.add(pos["decision"]["kind"])
            s.apply(rng.choice(s.legal_actions()))
        if kinds >= DECISION_KINDS:
            break
    assert DECISION_KINDS <= kinds, DECISION_KINDS - kinds


def test_positions_name_bad_entries():
    with pytest.raises(PositionError, match="nope"):
        GAME.from_position(table(hands=(["nope"], [])))
    with pytest.raises(PositionError, match="stage"):
        GAME.from_position(table(stage="lunch"))
    with pytest.raises(PositionError, match="trf"):
        GAME.from_position({**table(), "game": "trf"})


class RecordingChance(SeededChance):
    """Seeded chance that notes the stream of every draw."""

    def __init__(self, seed):
        super().__init__(seed)
        self.streams: list[tuple[str, str]] = []

    def roll(self, sides, why="", stream="public"):
        self.streams.append((why, stream))
        return super().roll(sides, why, stream)

    def randrange(self, n, why="", stream="public"):
        self.streams.append((why, stream))
        return super().randrange(n, why, stream)

    def shuffle(self, items, why="", stream="public"):
        self.streams.append((why, stream))
        super().shuffle(items, why, stream)

    def fork(self):
        return self


def test_hidden_shuffles_draw_on_their_seats_stream_and_public_chance_on_public():
    chance = RecordingChance(5)
    s = PLAIN.new_game([deck("t", TERRACORP), deck("s", SHADOW)], chance=chance)
    s.apply(("order", "shuffled"))
    s.apply(("order", "shuffled"))
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    streams = dict(chance.streams)
    assert chance.streams[0] == ("solar system", "public")
    assert [x for x in chance.streams if x[0] == "fleet order"] == [("fleet order", "seat0"), ("fleet order", "seat1")]
    assert streams["coin toss"] == "public" and streams["attack"] == "public"
    assert {st for why, st in chance.streams if why != "fleet order"} == {"public"}


def test_a_seats_shuffle_takes_nothing_from_the_public_chance():
    # Seat 1's shuffled fleet comes from its own stream: the public chance (coin toss, dice) of a game
    # is the same whether seat 1 shuffles or not, so public events tell nothing of its deck order.
    shown = []
    for seed in range(12):
        games = []
        for how in ("shuffled", "listed"):
            s = PLAIN.new_game([deck("t", TERRACORP), deck("s", SHADOW)], seed)
            s.apply(("order", "shuffled"))
            s.apply(("order", how))
            games.append(s)
        a, b = games
        assert lines(a, "wins the coin toss") == lines(b, "wins the coin toss")
        assert view(a)["planets"] == view(b)["planets"] and view(a)["players"][0] == view(b)["players"][0]
        shown.append(view(a)["players"][1]["deck"] != view(b)["players"][1]["deck"])
    assert all(shown), "seat 1's order did change"


# ---------------------------------------------------------------- engine contract
def random_game(seed, decks=None, game=PLAIN):
    decks = decks or [deck("t", TERRACORP), deck("s", SHADOW)]
    s = game.new_game(decks, seed)
    r = random.Random(seed * 7 + 1)
    actions = []
    while not s.is_terminal():
        a = r.choice(s.legal_actions())
        actions.append(a)
        s.apply(a)
    return s, actions


def test_replay_from_seed_and_actions_is_exact():
    s, actions = random_game(42)
    t = PLAIN.new_game([deck("t", TERRACORP), deck("s", SHADOW)], 42)
    for a in actions:
        t.apply(a)
    assert t.log == s.log and t.outcome() == s.outcome()


def check_invariants(s, armour=ARMOUR):
    v = view(s)
    for p in (0, 1):
        pl = v["players"][p]
        zones = pl["hand"] + pl["deck"] + pl["discard"] + pl["events"] + [x["card"] for x in pl["ships"]]
        zones += [x["building"]["card"] for x in v["planets"] if x and x["building"] and x["building"]["owner"] == p]
        if v["stage"] != "setup":
            assert Counter(zones) == Counter(pl["fleet"]), "a card was duplicated or lost"
        assert all(x >= 1 for x in s.support(p)), "support never drops below the base 1"
        for x in pl["ships"]:
            assert 0 <= x["damage"] < armour[x["card"]], "damage stays below armour on a living ship"
    if not s.is_terminal():
        assert s.legal_actions() and s.to_act(), "a live game always offers an action"


def test_invariants_after_every_action_in_many_random_games():
    decks = [deck("t", TERRACORP), deck("c", CHAIN), deck("s", SHADOW)]
    ends = Counter()
    for seed in range(150):
        rng = random.Random(seed)
        pair = [decks[seed % 3], decks[(seed + 1 + seed // 3) % 3]]
        s = PLAIN.new_game(pair, seed)
        steps = 0
        while not s.is_terminal():
            check_invariants(s)
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
            assert steps < 20000, "the game always ends"
        check_invariants(s)
        out = s.outcome()
        assert out.reason in ("conquest", "exhaustion", "turn cap", "black hole", "no planets", "stalemate")
        assert sum(s.returns()) == 1.0
        assert view(s)["turn"] <= 40
        ends[out.reason] += 1
    assert ends["conquest"] > 0


def test_clone_is_independent():
    t = PLAIN.new_game([deck("t", TERRACORP), deck("s", SHADOW)], 9)
    for _ in range(30):
        t.apply(t.legal_actions()[-1])
    c = t.clone()
    before = (list(t.log), t.position(), t.legal_actions())
    r = random.Random(0)
    while not c.is_terminal():
        c.apply(r.choice(c.legal_actions()))
    assert before == (t.log, t.position(), t.legal_actions())
    # and the original plays on exactly as a twin that was never cloned
    twin = PLAIN.new_game([deck("t", TERRACORP), deck("s", SHADOW)], 9)
    for _ in range(30):
        twin.apply(twin.legal_actions()[-1])
    for _ in range(50):
        if t.is_terminal():
            break
        a = t.legal_actions()[0]
        t.apply(a)
        twin.apply(a)
    assert t.log == twin.log


def test_observation_hides_the_opponents_hand_and_deck_and_sampling_is_consistent():
    from cardsmith.engine.checks import observation_leaks

    s = PLAIN.new_game([deck("t", TERRACORP), deck("s", SHADOW)], 8)
    r = random.Random(1)
    for _ in range(60):
        s.apply(r.choice(s.legal_actions()))
    obs = s.observation(0)
    assert observation_leaks(s, obs, [s.t]) == []
    v = view(s)
    assert list(obs.hand) == v["players"][0]["hand"]
    assert list(obs.deck) == v["players"][0]["deck"], "own deck order is known"
    assert (obs.opp_hand, obs.opp_deck) == (len(v["players"][1]["hand"]), len(v["players"][1]["deck"]))
    table_ = obs.public()
    assert len(table_["planets"]) == 6 and table_["hand_counts"] == [len(v["players"][0]["hand"]), obs.opp_hand]
    assert table_["hand"] == list(obs.hand) and "deck" in table_
    seen_orders = set()
    for k in range(5):
        t = PLAIN.sample_state(obs, random.Random(k))
        w = view(t)
        assert w["players"][0]["deck"] == v["players"][0]["deck"] and w["players"][0]["hand"] == v["players"][0]["hand"]
        assert len(w["players"][1]["hand"]) == obs.opp_hand and len(w["players"][1]["deck"]) == obs.opp_deck
        assert Counter(w["players"][1]["hand"] + w["players"][1]["deck"]) == \
            Counter(v["players"][1]["hand"] + v["players"][1]["deck"])
        seen_orders.add(tuple(w["players"][1]["deck"]))
        while not t.is_terminal():  # a sampled state plays on
            t.apply(("done",) if ("done",) in t.legal_actions() else t.legal_actions()[0])
    assert len(seen_orders) > 1
    assert PLAIN.heuristic(s, 0) == -PLAIN.heuristic(s, 1)


def test_cards_played_records_cards_put_into_play():
    s, _ = random_game(12)
    played = s.cards_played(0) | s.cards_played(1)
    assert played and all(isinstance(c, str) for c in played)
    assert s.cards_played(0) == frozenset(view(s)["players"][0]["played"])


def test_a_combat_nobody_can_win_breaks_off_after_the_shot_cap():
    # two Test Bulwarks (attack 0, Shield 9): no shot can hurt either
    s = fight([("test-bulwark", 1)], [("test-bulwark", 1)])
    while decision(s)[0] == "fire_or_withdraw":
        s.apply(("fire",))
    assert lines(s, "both fleets break off") and controller(s, 1) is None
    assert ship_cards(s, 0) == ["test-bulwark"] and ship_cards(s, 1) == ["test-bulwark"]
    assert len(lines(s, " fires: ")) == se.SHOT_CAP


def test_last_planet_destroyed_by_the_solaris_cannon_most_ships_wins():
    s = start(table(planets=["test-eden"] + [None] * 5, control={1: 0}, buildings={1: ("solaris-cannon", 0)},
                    ships=([], ["infected-rapier"])))
    s.apply(("fire-cannon", 1))
    assert s.outcome().reason == "no planets" and s.outcome().winner == 1


# ---------------------------------------------------------------- the bundled set
SET_DIR = Path(__file__).resolve().parents[1] / "cards" / "solar-empires"


def bundled(set_dir=SET_DIR):
    from cardsmith.decks import load_deck
    from cardsmith.sets.validate import load_set

    cs = load_set(set_dir)
    return cs, [load_deck(SET_DIR / "decks" / f"{race}.yaml", cs) for race in ("terracorp", "chain", "shadow")]


def test_bundled_set_plays_every_matchup_by_the_rules():
    from cardsmith.engine.registry import load_game

    cs, decks = bundled()
    game = load_game(cs)
    assert game.turn_cap == cs.meta["play"]["turn_cap"]
    assert any(i["what"].startswith("turn cap") for i in cs.meta["invented"])
    armour = {c.id: int(c.fields.get("armour") or 0) for c in cs.cards}
    ends = Counter()
    for seed in range(18):
        s = game.new_game([decks[seed % 3], decks[(seed // 3) % 3]], seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            check_invariants(s, armour)
        ends[s.outcome().reason] += 1
    assert ends["conquest"] > 0


def test_flack_load_at_6_in_the_yaml_deals_6(tmp_path):
    """Effects are data: the number in the card's `effect:` is what play uses (its text is for people)."""
    copy = tmp_path / "solar-empires"
    shutil.copytree(SET_DIR, copy)
    events = copy / "events-neutral.yaml"
    text = events.read_text()
    old = "effect: {do: damage, amount: 4, target: enemy_fighters, when: before_attacks}"
    assert old in text
    results = {}
    for amount in (4, 6):
        events.write_text(text.replace(old, old.replace("amount: 4", f"amount: {amount}")))
        cs, _ = bundled(copy)
        pos = table(stage="combat", combat=[1], events=(["flack-load"], []),
                    ships=([("tcs-35-broadsword", 1)], [("drone", 1), ("mothership", 1)]))  # a Drone has armour 6
        s = start(pos, rolls=[1, 1], game=se.make_game(cs))
        results[amount] = "drone" in view(s)["players"][1]["discard"] or ship(s, 1, "drone")["damage"]
    assert results == {4: 4, 6: True}, "Flack Load at 4 leaves the drone at 4 damage; at 6 it destroys it"


def test_invariants_hold_for_random_legal_decks_of_the_bundled_set():
    hypothesis = pytest.importorskip("hypothesis")
    decks_mod = pytest.importorskip("cardsmith.decks")
    from hypothesis import strategies as st

    cs, _ = bundled()
    game = se.make_game(cs)
    armour = {c.id: int(c.fields.get("armour") or 0) for c in cs.cards}

    @hypothesis.settings(max_examples=25, deadline=None, database=None)
    @hypothesis.given(seed=st.integers(0, 10**6), a=st.integers(0, 10**6), b=st.integers(0, 10**6))
    def play(seed, a, b):
        s = game.new_game([decks_mod.random_deck(cs, seed=a), decks_mod.random_deck(cs, seed=b)], seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            check_invariants(s, armour)
        assert view(s)["turn"] <= game.turn_cap

    play()
