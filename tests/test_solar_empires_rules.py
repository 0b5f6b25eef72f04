"""Solar Empires rules: one test per rule clause of the source text, plus replay and invariants.

Positions are set up by moving card instances between zones of a real game, then the rules run
through `apply`. Dice are scripted by replacing the state's `_d6` with a fixed sequence.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import yaml

from cardsmith.engine.contract import IllegalAction
from cardsmith.errors import CardsmithError
from cardsmith.games import solar_empires as se
from cardsmith.model import Card, Deck, frozen_map

from solar_fixture import CHAIN, SHADOW, TERRACORP, deck, solar_set

CS = solar_set(turn_cap=40)
GAME = se.make_game(CS)

# A "toolbox" fleet per seat holding every card the tests move into play.
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


def fresh(fleet0=None, fleet1=None, seed=1, order=("listed", "listed"), priority=0):
    """A new game past setup, at turn 1's first construction decision, with `priority` holding priority."""
    s = GAME.new_game([deck("a", fleet0 or TOOL0), deck("b", fleet1 or TOOL1)], seed)
    s.apply(("order", order[0]))
    s.apply(("order", order[1]))
    chooser = s.current_player
    s.apply(("priority", "take" if chooser == priority else "give"))
    assert s.priority == priority
    return s


def inst_of(s, p, cid, zones=("deck", "hand", "disc")):
    for z in zones:
        for i in getattr(s, z)[p]:
            if s.g.info[i].id == cid:
                return i, getattr(s, z)[p]
    raise AssertionError(f"no {cid} for P{p}")


def ship(s, p, cid, pos=None, dmg=0):
    """Put a copy of ship `cid` into play for p (deployed at position `pos`, 1-based)."""
    i, zone = inst_of(s, p, cid)
    zone.remove(i)
    s.ships[p].append(i)
    s.at[i] = -1 if pos is None else pos - 1
    s.dmg[i] = dmg
    s._legal = None
    return i


def to_hand(s, p, cid):
    i, zone = inst_of(s, p, cid, ("deck", "disc"))
    zone.remove(i)
    s.hand[p].append(i)
    s._legal = None
    return i


def clear_hand(s, p):
    """Put p's hand at the bottom of their deck (so the test chooses the hand)."""
    s.deck[p][:0] = s.hand[p]
    s.hand[p] = []
    s._legal = None


def rich(s):
    """Plenty of support for both players: these tests are about a card's effect, not its cost."""
    s.support = lambda p: (9, 9, 9)
    s._legal = None


def own(s, p, *positions):
    for pos in positions:
        s.ctrl[pos - 1] = p
    s._legal = None


def building(s, p, cid, pos):
    i, zone = inst_of(s, p, cid)
    zone.remove(i)
    s.bldg[pos - 1] = i
    s._legal = None
    return i


def dice(s, *rolls):
    it = iter(rolls)
    s._d6 = lambda: next(it, None) or int(s.rng.random() * 6) + 1  # then ordinary dice


def combat(s, *positions):
    """Jump to the combat phase with ships as placed; returns once the first decision is pending."""
    s.stage = se._COMBAT
    s.cpending = [p - 1 for p in positions]
    s.cpos = -1
    s.dec = se.D_NONE
    s._legal = None
    s._settle()


def act(s, *a):
    s.apply(tuple(a))


def pick(s, verb, inst):
    act(s, verb, inst, s.g.info[inst].id)


def lines(s, text):
    return [line for line in s.log if text in line]


# ---------------------------------------------------------------- set-up
def test_solar_system_six_positions_first_star_and_extra_cards_ignored():
    for seed in range(30):
        s = GAME.new_game([deck("a", TERRACORP, {"super-giant": 1, "dyson-sphere": 1, "gas-giant": 4, "starbase": 3}),
                           deck("b", SHADOW, {"white-dwarf": 1, "terra-like-world": 7})], seed)
        pile = list(s.g.solar[0] + s.g.solar[1])
        random.Random(seed).shuffle(pile)  # the first chance drawn is the shuffle of both solar decks
        bodies = [i for i in pile if s.g.info[i].type == se.BODY][:6]
        stars = [i for i in pile if s.g.info[i].type == se.STAR]
        assert s.planet == bodies, "planets take positions one to six in the order they are turned over"
        assert s.star == stars[0], "the first star turned over is the system's star; later stars are ignored"
        assert sorted(s.removed + s.planet + [s.star]) == sorted(pile), "every other card drawn is ignored"


def test_star_gives_its_bonus_to_the_planet_at_its_position():
    s = fresh()
    star = s.g.info[s.star]
    assert star.id == "sol-like-star" and star.star_pos == 2  # third planet gains +1 organics
    planet3 = s.g.info[s.planet[2]].plus
    own(s, 0, 3)
    assert s.support(0) == (1 + planet3[0], 1 + planet3[1], 1 + planet3[2] + 1)
    s.black_hole = True  # Blackest Night: all star effects end
    assert s.support(0) == (1 + planet3[0], 1 + planet3[1], 1 + planet3[2])


def test_fleet_deck_order_is_each_players_decision():
    s = GAME.new_game([deck("a", {"tcs-35-broadsword": 3, "tcs-13-rapier": 3, "ion-storm": 2}),
                       deck("b", TOOL1)], 5)
    assert s.current_player == 0 and s.legal_actions() == [("order", o) for o in se.ORDERINGS]
    act(s, "order", "curve")
    act(s, "order", "listed")
    # curve: cheapest first; six cards drawn from the top
    assert sorted(s.g.info[i].id for i in s.hand[0]) == ["ion-storm"] * 2 + ["tcs-13-rapier"] * 3 + ["tcs-35-broadsword"]
    listed = [s.g.info[i].id for i in s.g.fleet[1]]
    assert [s.g.info[i].id for i in s.hand[1]] == listed[:6], "listed: the deck file's order, top first"
    assert [s.g.info[i].id for i in reversed(s.deck[1])] == listed[6:]


def test_coin_toss_winner_chooses_priority_and_priority_alternates():
    s = GAME.new_game([deck("a", TOOL0), deck("b", TOOL1)], 11)
    act(s, "order", "listed")
    act(s, "order", "listed")
    assert s.dec == se.D_PRIORITY
    chooser = s.current_player
    act(s, "priority", "give")
    assert s.priority == 1 - chooser and s.current_player == 1 - chooser
    first = s.priority
    while s.turn == 1:
        s.apply(("done",) if ("done",) in s.legal_actions() else s.legal_actions()[0])
    assert s.priority == 1 - first
    assert "== Turn 2: P%d has priority ==" % (1 - first) in s.log


def test_draw_phase_refills_to_six_and_hands_have_no_maximum():
    s = fresh()
    for _ in range(3):
        to_hand(s, 1, "hulk")
    assert len(s.hand[1]) == 9
    s.hand[0] = s.hand[0][:2]
    s.stage = se._CLEANUP
    s.dec = se.D_NONE
    s._settle()
    assert len(s.hand[0]) == 6 and len(s.hand[1]) == 9


# ---------------------------------------------------------------- construction and support
def test_support_points_are_fixed_not_spent():
    s = fresh()
    clear_hand(s, 0)
    for _ in range(3):
        to_hand(s, 0, "tcs-13-rapier")  # 1E 1M 1O each; base support is 1 of each
    assert s.support(0) == (1, 1, 1)
    for _ in range(3):
        act(s, "play", "tcs-13-rapier")
    assert len(s.ships[0]) == 3 and s.support(0) == (1, 1, 1)
    to_hand(s, 0, "tcs-21-scimitar")  # 1E 2M 2O: more than the support points
    assert ("play", "tcs-21-scimitar") not in s.legal_actions()


@pytest.mark.parametrize("support,playable", [((3, 3, 1), False), ((3, 1, 3), False), ((0, 3, 3), False),
                                              ((1, 2, 2), True)])
def test_every_resource_must_cover_the_cost(support, playable):
    s = fresh()
    clear_hand(s, 0)
    to_hand(s, 0, "tcs-21-scimitar")  # 1E 2M 2O
    s.support = lambda p: support
    assert (("play", "tcs-21-scimitar") in s.legal_actions()) is playable


def test_support_counts_planets_and_buildings_under_control():
    s = fresh()
    own(s, 0, 1, 2)
    building(s, 0, "deep-core-mine", 1)
    pl = [s.g.info[s.planet[i]].plus for i in (0, 1)]
    assert s.support(0) == (1 + pl[0][0] + pl[1][0], 1 + pl[0][1] + pl[1][1] + 2, 1 + pl[0][2] + pl[1][2])
    own(s, 1, 1)  # the building's bonus goes to whoever controls the planet
    assert s.support(1)[1] >= 3


def test_buildings_need_a_controlled_planet_and_replace_the_old_one():
    s = fresh()
    clear_hand(s, 0)
    to_hand(s, 0, "mines")
    assert not any(a[:2] == ("play", "mines") for a in s.legal_actions())
    own(s, 0, 4)
    assert ("play", "mines", 4) in s.legal_actions()
    old = building(s, 0, "pre-fab-base", 4)
    act(s, "play", "mines", 4)
    assert s.g.info[s.bldg[3]].id == "mines" and old in s.disc[0]


def test_one_event_and_one_spell_per_turn():
    s = fresh()
    clear_hand(s, 0)
    for cid in ("sabotage", "order-101", "ion-storm", "ion-storm"):
        to_hand(s, 0, cid)
    own(s, 0, 1, 2, 3, 4, 5)
    f = ship(s, 1, "infected-rapier")
    act(s, "play", "sabotage")
    legal = s.legal_actions()
    assert ("play", "order-101") not in legal, "only one event a turn"
    act(s, "play", "ion-storm")
    pick(s, "target", f)
    assert ("play", "ion-storm") not in s.legal_actions(), "only one spell a turn"
    assert s.ev_done[0] and s.sp_done[0]


def test_chain_decks_cannot_cast_spells():
    s = fresh(fleet1={**CHAIN, "hidden-infection": 2})
    assert s.g.chain[1] and not s.g.chain[0]
    s.stage_i = 1
    s.current_player = 1
    clear_hand(s, 1)
    to_hand(s, 1, "hidden-infection")
    ship(s, 0, "tcs-13-rapier")
    s._legal = None
    assert not any(a[1] == "hidden-infection" for a in s.legal_actions() if len(a) > 1)


# ---------------------------------------------------------------- deployment
def test_deployment_priority_player_first_and_solar_flare_blocks_planets():
    s = fresh(priority=1)
    a = ship(s, 0, "tcs-13-rapier")
    b = ship(s, 1, "infected-rapier")
    s.current_player = 1
    clear_hand(s, 1)
    s.events[0].append(inst_of(s, 0, "solar-flare")[0])
    s.flare = [0, 1]
    s.stage, s.stage_i, s.dec = se._DEPLOY, 0, se.D_NONE
    s._legal = None
    s._settle()
    assert s.current_player == 1, "the player with priority deploys first"
    targets = {x[2] for x in s.legal_actions() if x[0] == "deploy"}
    assert targets == {3, 4, 5, 6}, "no ships may be deployed to the flared planets"
    act(s, "deploy", "infected-rapier", 3, b)  # its last ship: "done" is then the only choice, taken at once
    assert s.current_player == 0 and s.dec == se.D_DEPLOY
    act(s, "deploy", "tcs-13-rapier", 3, a)


def test_solar_flare_is_played_on_two_planets():
    s = fresh()
    clear_hand(s, 0)
    to_hand(s, 0, "solar-flare")
    plays = [x for x in s.legal_actions() if x[:2] == ("play", "solar-flare")]
    assert len(plays) == 15  # two of six planets
    act(s, "play", "solar-flare", 2, 5)
    assert sorted(s.flare) == [1, 4]


def test_spy_network_moves_one_ship_after_all_deployments():
    s = fresh()
    a = ship(s, 0, "tcs-13-rapier", pos=1)
    ship(s, 1, "infected-rapier", pos=2)
    ship(s, 1, "hive-ship", pos=2)
    s.events[0].append(inst_of(s, 0, "spy-network")[0])
    s.stage, s.stage_i, s.dec = se._SPY, 0, se.D_NONE
    s._legal = None
    s._settle()
    assert s.dec == se.D_SPY and s.current_player == 0
    assert ("spy-keep",) in s.legal_actions()
    act(s, "spy", a, "tcs-13-rapier", 2)
    assert s.at[a] == 1 and s.dec == se.D_POINT  # now both fleets meet at position 2


# ---------------------------------------------------------------- combat
def test_uncontested_deployment_wins_automatically_and_takes_control():
    s = fresh()
    ship(s, 0, "tcs-13-rapier", pos=2)
    combat(s, 2)
    assert s.ctrl[1] == 0 and lines(s, "P0 is unopposed")
    assert s.stage == se._CON2


def test_priority_player_chooses_combat_order():
    s = fresh(priority=1)
    ship(s, 0, "tcs-13-rapier", pos=2)
    ship(s, 1, "infected-rapier", pos=5)
    combat(s, 2, 5)
    assert s.dec == se.D_COMBAT and s.current_player == 1
    act(s, "combat", 5)
    assert lines(s, "Combat at position")[0].startswith("Combat at position 5")


def test_point_ships_chosen_priority_first():
    s = fresh(priority=1)
    ship(s, 0, "tcs-13-rapier", pos=1)
    ship(s, 0, "tcs-21-scimitar", pos=1)
    b1 = ship(s, 1, "infected-rapier", pos=1)
    ship(s, 1, "hive-ship", pos=1)
    combat(s, 1)
    assert s.dec == se.D_POINT and s.current_player == 1
    pick(s, "point", b1)
    assert s.dec == se.D_POINT and s.current_player == 0


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
    s = fresh()
    insts = [ship(s, 0, cid, pos=1) for cid in fleet]
    ship(s, 1, "hive-ship", pos=1)
    dice(s, 3, 1)
    combat(s, 1)
    if s.dec == se.D_POINT:
        pick(s, "point", insts[0])
    assert s.point[0] == insts[0]
    assert f"d6 3 + {expected} = " in lines(s, "P0 fires:")[0]


def test_attack_order_smaller_point_ship_fires_first_ties_to_priority():
    s = fresh(priority=0)
    ship(s, 0, "tcs-35-broadsword", pos=1)
    ship(s, 1, "infected-rapier", pos=1)
    dice(s, 1, 1)
    combat(s, 1)
    assert lines(s, "P1 fires first"), "the fighter strikes before the battleship"
    s2 = fresh(priority=1)
    ship(s2, 0, "tcs-21-scimitar", pos=1)
    ship(s2, 1, "infested-scimitar", pos=1)
    dice(s2, 1, 1)
    combat(s2, 1)
    assert lines(s2, "P1 fires first"), "equal sizes: the player with priority fires first"


def test_attack_order_does_not_change_when_point_ship_changes():
    s = fresh(priority=0)
    p0 = ship(s, 0, "tcs-35-broadsword", pos=1)
    f1 = ship(s, 1, "infected-rapier", pos=1)
    ship(s, 1, "infected-shuttle", pos=1)
    # P1 fires (1 + 3 = 4 on the broadsword), P0 fires back 1 + 6 = 7 and kills the rapier point ship
    dice(s, 1, 1, 1, 1)
    combat(s, 1)
    pick(s, "point", f1)
    assert lines(s, "P1 fires first")
    pick(s, "damage", f1)
    assert s.point[1] != f1 and s.dec == se.D_FIRE and s.current_player == 1
    act(s, "fire")
    assert [line for line in s.log if " fires:" in line][-1].startswith("  P1 fires"), "P1 still fires first"
    del p0


def test_defender_places_damage_whole_ship_first_then_the_rest():
    s = fresh()
    pt = ship(s, 0, "tcs-35-broadsword", pos=1)  # P0 point, P1 fires first with a fighter
    a = ship(s, 0, "tcs-13-rapier", pos=1)  # armour 6
    b = ship(s, 0, "tcs-21-scimitar", pos=1)  # armour 8
    ship(s, 1, "infected-shuttle", pos=1)
    dice(s, 6)  # the lone shuttle fires first: 6 + 3 = 9
    combat(s, 1)
    pick(s, "point", pt)
    assert s.dec == se.D_DAMAGE and s.current_player == 0 and s.pd_amt == 9
    pick(s, "damage", a)
    assert a in s.disc[0], "the maximum possible (6) goes on the chosen ship, destroying it"
    assert s.dec == se.D_DAMAGE and s.pd_amt == 3
    pick(s, "damage", b)
    assert s.dmg[b] == 3


def test_point_ship_destroyed_new_one_of_equal_or_smaller_size():
    s = fresh()
    pt = ship(s, 0, "tcs-21-scimitar", pos=1, dmg=7)
    big = ship(s, 0, "tcs-35-broadsword", pos=1)
    small = ship(s, 0, "tcs-13-rapier", pos=1)
    ship(s, 1, "infected-shuttle", pos=1)
    dice(s, 1)  # 1 + 3 = 4: one destroys the scimitar, three go on the broadsword
    combat(s, 1)
    pick(s, "point", pt)
    pick(s, "damage", pt)
    pick(s, "damage", big)
    # the broadsword is larger than the lost cruiser; only the rapier may take the point
    assert s.point[0] == small and big in s.ships[0]


def test_no_ship_of_equal_or_smaller_size_means_automatic_withdrawal():
    s = fresh(priority=1)
    pt = ship(s, 0, "tcs-13-rapier", pos=1, dmg=5)
    big = ship(s, 0, "tcs-35-broadsword", pos=1)
    ship(s, 1, "infected-shuttle", pos=1)
    dice(s, 1)  # P1 fires first (tied fighters, priority): 1 + 3 = 4, one kills the rapier, three on the broadsword
    combat(s, 1)
    pick(s, "point", pt)
    pick(s, "damage", pt)
    assert lines(s, "P0 has no ship to take the point and withdraws")
    assert s.ctrl[0] == 1 and s.at[big] == -1 and big in s.ships[0], "withdrawn ships go back to reinforcements"


def test_fire_or_withdraw_and_withdrawing_concedes():
    s = fresh()
    ship(s, 0, "tcs-39-defender", pos=1)  # both shielded 3: every shot deals 1 + 6 - 3 = 4
    ship(s, 1, "hulk", pos=1)
    own(s, 0, 1)
    dice(s, 1, 1)
    combat(s, 1)
    # two forced shots (P0 first: tie goes to priority), then P0 may fire again or withdraw
    assert s.dec == se.D_FIRE and s.current_player == 0
    assert set(s.legal_actions()) == {("fire",), ("withdraw",)}
    dice(s, 1)
    act(s, "fire")
    assert s.dec == se.D_FIRE and s.current_player == 1
    act(s, "withdraw")
    assert s.ctrl[0] == 0 and lines(s, "P1 withdraws") and lines(s, "P0 wins the combat")


def test_destruction_when_damage_equals_armour():
    s = fresh()
    ship(s, 0, "tcs-13-rapier", pos=1)
    b = ship(s, 1, "infected-shuttle", pos=1, dmg=1)  # armour 5
    dice(s, 2)  # 2 + 2 = 4: exactly armour
    s.priority = 0
    combat(s, 1)
    assert b in s.disc[1] and s.ctrl[0] == 0


def test_shield_reduces_enemy_damage_rolls():
    s = fresh()
    ship(s, 0, "tcs-39-defender", pos=1)  # Shield 3 battleship
    ship(s, 1, "infected-shuttle", pos=1)
    dice(s, 4)
    combat(s, 1)
    assert lines(s, "P1 fires: d6 4 + 3 - shield 3 = 4")


def test_shielded_point_ship_is_supported_only_by_smaller_ships():
    s = fresh()
    d = ship(s, 0, "tcs-39-defender", pos=1)  # Shield 3, attack +6
    ship(s, 0, "tcs-35-broadsword", pos=1)  # larger-or-equal: no bonus for a shielded point ship
    ship(s, 0, "tcs-13-rapier", pos=1)  # smaller: +1
    ship(s, 1, "hive-ship", pos=1)
    dice(s, 2)
    combat(s, 1)
    pick(s, "point", d)
    assert lines(s, "P0 fires: d6 2 + 7 = 9")


def test_accurate_rerolls_ones():
    s = fresh()
    ship(s, 0, "tcs-27-catapult", pos=1)  # Accurate cruiser +6
    ship(s, 1, "hive-ship", pos=1)
    dice(s, 1, 5)
    combat(s, 1)
    assert lines(s, "P0 fires: d6 5 (accurate re-roll) + 6 = 11")
    s2 = fresh()
    ship(s2, 0, "tcs-21-scimitar", pos=1)
    ship(s2, 1, "hive-ship", pos=1)
    dice(s2, 1, 5)
    combat(s2, 1)
    assert lines(s2, "P0 fires: d6 1 + 4 = 5"), "no re-roll without Accurate"


def test_bomber_gets_plus_two_against_a_larger_point_ship():
    s = fresh()
    ship(s, 0, "tcs-19-mace", pos=1)  # Bomber fighter +4
    ship(s, 1, "hive-ship", pos=1)
    dice(s, 3)
    combat(s, 1)
    assert lines(s, "P0 fires: d6 3 + 6 = 9")
    s2 = fresh()
    ship(s2, 0, "tcs-19-mace", pos=1)
    ship(s2, 1, "infected-rapier", pos=1)
    dice(s2, 3)
    combat(s2, 1)
    assert lines(s2, "P0 fires: d6 3 + 4 = 7"), "no bonus against an equal point ship"


def test_interceptor_forces_damage_onto_a_fighter_of_the_attackers_choice():
    s = fresh()
    ship(s, 0, "tcs-25-longbow", pos=1)  # Interceptor cruiser +4
    pt = ship(s, 1, "hive-ship", pos=1)
    f = ship(s, 1, "infected-rapier", pos=1)  # armour 6
    other = ship(s, 1, "infested-scimitar", pos=1)
    dice(s, 6)  # P0 (cruiser) fires first: 6 + 4 = 10
    combat(s, 1)
    pick(s, "point", pt)
    assert s.dec == se.D_INTERCEPT and s.current_player == 0
    pick(s, "intercept", f)
    assert f in s.disc[1], "the fighter takes damage first and is destroyed"
    assert s.dec == se.D_DAMAGE and s.current_player == 1 and s.pd_amt == 4, "then the defender places freely"
    pick(s, "damage", other)
    assert s.dmg[other] == 4


def test_damage_never_exceeds_armour_and_leftover_is_lost_when_fleet_is_gone():
    s = fresh()
    ship(s, 0, "tcs-37-battleaxe", pos=1)
    b = ship(s, 1, "infected-shuttle", pos=1)
    dice(s, 6)
    s.priority = 1
    combat(s, 1)  # fighter fires first: 6 + 3 = 9 on a battleaxe (armour 8)
    assert s.ctrl[0] == 1 and lines(s, "puts 8 damage")
    del b


def test_building_survival_roll_on_conquest_is_d6_at_least_save():
    for roll, survives in ((3, True), (2, False)):
        s = fresh()
        own(s, 1, 1)
        m = building(s, 1, "mines", 1)  # 3+ save
        ship(s, 0, "tcs-13-rapier", pos=1)
        dice(s, roll)
        combat(s, 1)
        assert s.ctrl[0] == 0
        assert (s.bldg[0] == m) is survives
        if not survives:
            assert m in s.disc[1], "a destroyed building goes to its owner's discard pile"


def test_sabotage_deducts_one_and_precision_bombing_rerolls():
    s = fresh()
    own(s, 1, 1)
    m = building(s, 1, "mines", 1)
    s.events[1].append(inst_of(s, 1, "sabotage")[0])
    ship(s, 0, "tcs-13-rapier", pos=1)
    dice(s, 3)
    combat(s, 1)
    assert s.bldg[0] == -1 and m in s.disc[1], "3 - 1 fails a 3+ save"
    s = fresh()
    own(s, 1, 1)
    m = building(s, 1, "mines", 1)
    s.events[0].append(inst_of(s, 0, "precision-bombing")[0])
    ship(s, 0, "tcs-13-rapier", pos=1)
    dice(s, 1, 4)
    combat(s, 1)
    assert s.bldg[0] == m and lines(s, "Precision Bombing re-roll: 4")


def test_order_101_lets_the_loser_fail_the_save():
    s = fresh()
    own(s, 1, 1)
    m = building(s, 1, "mines", 1)
    s.events[1].append(inst_of(s, 1, "order-101")[0])
    ship(s, 0, "tcs-13-rapier", pos=1)
    combat(s, 1)
    assert s.dec == se.D_ORDER101 and s.current_player == 1
    act(s, "order-101", "self-destruct")
    assert s.bldg[0] == -1 and m in s.disc[1]


def test_support_turrets_missile_silos_and_command_center():
    s = fresh()
    own(s, 1, 1)
    building(s, 1, "support-turrets", 1)
    a = ship(s, 0, "tcs-13-rapier", pos=1, dmg=2)  # 2 + 4 = 6 = armour
    b = ship(s, 0, "tcs-21-scimitar", pos=1)
    ship(s, 1, "infected-rapier", pos=1)
    dice(s, 1, 1, 1, 1)
    combat(s, 1)
    assert a in s.disc[0] and s.dmg[b] >= 4
    s = fresh()
    own(s, 1, 1)
    building(s, 1, "missile-silos", 1)
    a = ship(s, 0, "tcs-35-broadsword", pos=1)
    ship(s, 0, "tcs-13-rapier", pos=1)
    combat(s, 1)
    assert s.dec == se.D_MISSILE and s.current_player == 1
    pick(s, "missile", a)
    assert a in s.disc[0], "15 damage destroys the broadsword"
    s = fresh()
    own(s, 0, 1)
    building(s, 0, "command-center", 1)
    ship(s, 0, "tcs-21-scimitar", pos=1)
    ship(s, 1, "hive-ship", pos=1)
    dice(s, 2)
    combat(s, 1)
    assert lines(s, "P0 fires: d6 2 + 7 = 9"), "+3 for fleets at a Command Center you control"


def test_flack_load_and_asteroid_swarm_hit_before_attacks():
    s = fresh()
    s.events[0].append(inst_of(s, 0, "flack-load")[0])
    ship(s, 0, "tcs-35-broadsword", pos=1)
    f = ship(s, 1, "infected-shuttle", pos=1, dmg=1)  # 1 + 4 = 5 = armour
    ship(s, 1, "infested-scimitar", pos=1)
    dice(s, 1, 1, 1, 1)
    combat(s, 1)
    assert f in s.disc[1]
    s = fresh()
    clear_hand(s, 0)
    rich(s)
    to_hand(s, 0, "asteroid-swarm")
    act(s, "play", "asteroid-swarm", 1, 2)
    a = ship(s, 0, "tcs-13-rapier", pos=1)
    b = ship(s, 1, "infected-rapier", pos=1)
    dice(s, 3, 2)  # P0's fleet takes 3 + 3, P1's 2 + 3
    combat(s, 1)
    assert a in s.disc[0] and s.dmg[b] == 5 and s.ctrl[0] == 1


def test_battlefield_reclamation_draws_on_capture():
    s = fresh()
    s.events[0].append(inst_of(s, 0, "battlefield-reclamation")[0])
    ship(s, 0, "tcs-13-rapier", pos=1)
    ship(s, 0, "tcs-13-rapier", pos=2)
    n = len(s.hand[0])
    combat(s, 1, 2)
    act(s, "combat", 1)
    assert len(s.hand[0]) == n + 2


def test_cleanup_ends_events_and_resets_damage():
    s = fresh()
    a = ship(s, 0, "tcs-21-scimitar", dmg=5)
    ev = inst_of(s, 0, "sabotage")[0]
    s.deck[0].remove(ev)
    s.events[0].append(ev)
    s.stage, s.dec = se._CLEANUP, se.D_NONE
    s._settle()
    assert s.dmg[a] == 0 and ev in s.disc[0] and not s.events[0] and s.turn == 2


# ---------------------------------------------------------------- spells and events
def test_ion_storm_fusion_burst_hidden_infection_pillars_shielding_gaze():
    s = fresh()
    clear_hand(s, 0)
    rich(s)
    to_hand(s, 0, "ion-storm")
    fs = [ship(s, 1, "infected-shuttle", dmg=2), ship(s, 1, "infected-rapier")]
    act(s, "play", "ion-storm")
    pick(s, "target", fs[0])
    pick(s, "target", fs[1])  # no fighter is left: the spell ends by itself
    assert fs[0] in s.disc[1] and s.dmg[fs[1]] == 3
    s = fresh()
    clear_hand(s, 0)
    rich(s)
    to_hand(s, 0, "fusion-burst")
    c = ship(s, 1, "infested-scimitar")
    bs = ship(s, 1, "hive-ship")
    assert not any(x[:3] == ("play", "fusion-burst", bs) for x in s.legal_actions()), "cruiser or smaller only"
    act(s, "play", "fusion-burst", c, "infested-scimitar")
    assert c in s.disc[1]
    # shadow spells, cast by seat 1
    s = fresh(priority=1)
    clear_hand(s, 1)
    rich(s)
    to_hand(s, 1, "pillars-of-flesh")
    mine = ship(s, 1, "infected-rapier")
    s._destroy_ship(mine)
    t = ship(s, 0, "tcs-21-scimitar", dmg=2)
    act(s, "play", "pillars-of-flesh", t, "tcs-21-scimitar")
    assert t in s.disc[0]
    assert mine in s.ships[1], "the only ship of equal or smaller size in the discard comes back"
    s = fresh(priority=1)
    clear_hand(s, 1)
    rich(s)
    to_hand(s, 1, "hidden-infection")
    t = ship(s, 0, "tcs-35-broadsword")
    act(s, "play", "hidden-infection", t, "tcs-35-broadsword")
    assert s.dmg[t] == 6
    s = fresh()
    clear_hand(s, 0)
    rich(s)
    to_hand(s, 0, "shielding-gaze")
    r = ship(s, 0, "tcs-21-scimitar")
    act(s, "play", "shielding-gaze", r, "tcs-21-scimitar")
    assert s._shield(r) == 3


def test_mass_conscription_and_teleport_jump_put_ships_into_play():
    s = fresh()
    clear_hand(s, 0)
    rich(s)
    to_hand(s, 0, "mass-conscription")
    to_hand(s, 0, "teleport-jump")
    to_hand(s, 0, "tcs-13-rapier")
    for cid in ("tcs-13-rapier", "tcs-35-broadsword"):
        i, z = inst_of(s, 0, cid)
        z.remove(i)
        s.disc[0].append(i)
    act(s, "play", "mass-conscription")
    act(s, "take", "tcs-35-broadsword")
    assert s.dec == se.D_CONSTRUCT, "the second pick is forced and taken automatically"
    assert {s.g.info[i].id for i in s.ships[0]} == {"tcs-13-rapier", "tcs-35-broadsword"}
    s.ev_done[0] = False  # a second event only to test Teleport Jump here
    s._legal = None
    act(s, "play", "teleport-jump")
    assert ("take", "tcs-391-trebuchet") in s.legal_actions()
    n = len(s.deck[0])
    act(s, "take", "tcs-391-trebuchet")
    assert len(s.deck[0]) == n - 1 and "tcs-391-trebuchet" in {s.g.info[i].id for i in s.ships[0]}


def test_greater_rift_rolls_saves_for_enemy_buildings():
    s = fresh(priority=1)
    clear_hand(s, 1)
    rich(s)
    to_hand(s, 1, "greater-rift")
    own(s, 0, 1, 2)
    own(s, 1, 3, 4, 5, 6)
    a = building(s, 0, "mines", 1)
    b = building(s, 0, "pre-fab-base", 2)
    mine = building(s, 1, "biodome", 3)
    dice(s, 3, 4)  # Mines (3+) survive a 3; the Pre-fab Base (5+) falls to a 4
    act(s, "play", "greater-rift")
    assert s.bldg[0] == a and b in s.disc[0] and s.bldg[2] == mine


# ---------------------------------------------------------------- legendary cards
def test_world_eater_destroys_the_planet_and_revives_three_ships():
    s = fresh(fleet1=CHAIN, priority=1)
    we = ship(s, 1, "world-eater", pos=2)
    for cid in ("control-cruiser", "stripminer", "drone", "mothership"):
        i, z = inst_of(s, 1, cid)
        z.remove(i)
        s.disc[1].append(i)
    own(s, 0, 2)
    building(s, 0, "mines", 2)
    combat(s, 2)
    assert s.dec == se.D_WORLD_EATER and s.current_player == 1
    act(s, "world-eater", "destroy")
    assert s.planet[1] == -1 and s.bldg[1] == -1 and s.dec == se.D_PICK
    act(s, "take", "stripminer")
    act(s, "take", "mothership")
    act(s, "take", "drone")
    assert {s.g.info[i].id for i in s.ships[1]} == {"world-eater", "stripminer", "mothership", "drone"}
    assert s.dec != se.D_PICK and we in s.ships[1]


def test_world_eater_may_spare_the_planet():
    s = fresh(fleet1=CHAIN, priority=1)
    ship(s, 1, "world-eater", pos=2)
    combat(s, 2)
    act(s, "world-eater", "spare")
    assert s.planet[1] >= 0 and s.ctrl[1] == 1


def test_solaris_cannon_fires_once_per_turn_if_affordable():
    s = fresh()
    own(s, 0, 1)
    building(s, 0, "solaris-cannon", 1)
    assert not any(a[0] == "fire-cannon" for a in s.legal_actions()), "needs 3E 3M 3O of support"
    own(s, 0, 2, 3, 4, 5)
    building(s, 0, "pre-fab-base", 2)
    building(s, 0, "deep-core-mine", 3)
    assert all(x >= 3 for x in s.support(0)), s.support(0)
    own(s, 1, 6)
    act(s, "fire-cannon", 6)
    assert s.planet[5] == -1
    assert not any(a[0] == "fire-cannon" for a in s.legal_actions())
    assert s.end_reason == "conquest" and s.winner == 0, "player 0 now holds every remaining planet"


def test_blackest_night_destroys_the_closest_planet_each_cleanup():
    s = fresh(priority=1)
    clear_hand(s, 1)
    rich(s)
    to_hand(s, 1, "blackest-night")
    own(s, 1, 1, 2, 3, 4, 5, 6)
    s.ctrl[5] = 0
    act(s, "play", "blackest-night")
    assert s.black_hole
    s.stage, s.dec = se._CLEANUP, se.D_NONE
    s._settle()
    assert s.planet[0] == -1 and s.planet[1] >= 0
    # the last planet: the player with the most ships wins
    s = fresh()
    s.black_hole = True
    for i in range(5):
        s.planet[i] = -1
    ship(s, 0, "tcs-13-rapier")
    ship(s, 1, "infected-rapier")
    ship(s, 1, "infected-rapier")
    s.stage, s.dec = se._CLEANUP, se.D_NONE
    s._settle()
    assert s.end_reason == "black hole" and s.winner == 1


# ---------------------------------------------------------------- victory
def test_conquest_of_all_remaining_planets_wins():
    s = fresh()
    own(s, 0, 1, 2, 3, 4, 5)
    s.planet[5] = -1  # a destroyed planet does not count
    ship(s, 0, "tcs-13-rapier", pos=1)
    combat(s, 1)
    assert s.end_reason == "conquest" and s.winner == 0


def test_conquest_needs_every_planet_not_just_most():
    s = fresh()
    own(s, 0, 1, 2, 3, 4, 5)
    ship(s, 0, "tcs-13-rapier", pos=1)
    combat(s, 1)
    assert not s.end_reason


def test_opponent_out_of_deck_hand_and_ships_loses():
    s = fresh()
    s.disc[1].extend(s.deck[1] + s.hand[1])
    s.deck[1], s.hand[1] = [], []
    ship(s, 0, "tcs-13-rapier", pos=1)
    combat(s, 1)
    assert s.end_reason == "exhaustion" and s.winner == 0


def test_turn_cap_ends_the_game_as_a_draw():
    g = se.make_game(solar_set(turn_cap=3))
    s = g.new_game([deck("a", TOOL0), deck("b", TOOL1)], 3)
    while not s.is_terminal():
        s.apply(("done",) if ("done",) in s.legal_actions() else s.legal_actions()[0])
    assert s.end_reason == "turn cap" and s.winner is None and s.turn == 3


def test_a_position_that_can_only_repeat_ends_as_a_stalemate():
    # both hands: six cards nobody can play (buildings need a planet, these ships cost more than 1 of each)
    s = fresh()
    for p, cid in ((0, "tcs-35-broadsword"), (1, "hulk")):
        clear_hand(s, p)
        for _ in range(3):
            to_hand(s, p, cid)
            to_hand(s, p, "mines")
    s.stage, s.dec = se._CLEANUP, se.D_NONE
    s._settle()
    assert s.end_reason == "stalemate" and s.winner is None and s.turn == 1
    # one playable card is enough to go on
    s = fresh()
    clear_hand(s, 0)
    for cid in ("tcs-35-broadsword", "tcs-35-broadsword", "tcs-37-battleaxe", "mines", "mines", "tcs-13-rapier"):
        to_hand(s, 0, cid)
    s.stage, s.dec = se._CLEANUP, se.D_NONE
    s._settle()
    assert not s.end_reason and s.turn == 2


def test_bad_turn_cap_and_unknown_event_are_clear_errors():
    with pytest.raises(CardsmithError, match="turn_cap"):
        se.make_game(solar_set(turn_cap=0))
    odd = Card(id="odd-event", name="Odd Event", type="event", fields=frozen_map({"energy": 1}))
    with pytest.raises(CardsmithError, match="Odd Event"):
        se.make_game(solar_set(extra=[odd]))
    with pytest.raises(CardsmithError, match="no solar system"):
        GAME.new_game([deck("a", TOOL0, {"sol-like-star": 1}), deck("b", TOOL1, {"white-dwarf": 1})], 1)
    with pytest.raises(CardsmithError, match="nope"):
        GAME.new_game([deck("a", {"nope": 1}), deck("b", TOOL1)], 1)


def test_illegal_actions_are_refused():
    s = fresh()
    with pytest.raises(IllegalAction):
        s.apply(("play", "hulk"))


# ---------------------------------------------------------------- engine contract
def random_game(seed, decks=None, cap=None):
    g = GAME if cap is None else se.make_game(solar_set(turn_cap=cap))
    decks = decks or [deck("t", TERRACORP), deck("s", SHADOW)]
    s = g.new_game(decks, seed)
    r = random.Random(seed * 7 + 1)
    actions = []
    while not s.is_terminal():
        a = r.choice(s.legal_actions())
        actions.append(a)
        s.apply(a)
    return s, actions


def test_replay_from_seed_and_actions_is_exact():
    s, actions = random_game(42)
    t = GAME.new_game([deck("t", TERRACORP), deck("s", SHADOW)], 42)
    for a in actions:
        t.apply(a)
    assert t.log == s.log and t.winner == s.winner and t.end_reason == s.end_reason


def check_invariants(s, fleet_sizes):
    g = s.g
    for p in (0, 1):
        zones = s.deck[p] + s.hand[p] + s.disc[p] + s.ships[p] + s.events[p] + \
            [b for b in s.bldg if b >= 0 and g.owner[b] == p]
        assert len(zones) == len(set(zones)) == fleet_sizes[p], "a card was duplicated or lost"
        assert Counter(zones) == Counter(g.fleet[p]) or not s.deck[p] and s.turn == 1 and s.dec == se.D_ORDER
        assert all(x >= 1 for x in s.support(p)), "support never drops below the base 1"
        for i in s.ships[p]:
            assert 0 <= s.dmg[i] < g.info[i].armour, "damage stays below armour on a living ship"
            assert g.info[i].type == se.SHIP and g.owner[i] == p
    if not s.is_terminal():
        assert s.legal_actions(), "a live game always offers an action"


def test_invariants_after_every_action_in_many_random_games():
    decks = [deck("t", TERRACORP), deck("c", CHAIN), deck("s", SHADOW)]
    ends = Counter()
    for seed in range(150):
        rng = random.Random(seed)
        pair = [decks[seed % 3], decks[(seed + 1 + seed // 3) % 3]]
        s = GAME.new_game(pair, seed)
        sizes = [len(s.g.fleet[0]), len(s.g.fleet[1])]
        steps = 0
        while not s.is_terminal():
            if s.dec != se.D_ORDER:
                check_invariants(s, sizes)
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
            assert steps < 20000, "the game always ends"
        check_invariants(s, sizes)
        assert s.end_reason in ("conquest", "exhaustion", "turn cap", "black hole", "no planets", "stalemate")
        assert s.turn <= 40
        ends[s.end_reason] += 1
    assert ends["conquest"] > 0


def test_clone_is_independent():
    s, _ = random_game(5, cap=40)
    t = GAME.new_game([deck("t", TERRACORP), deck("s", SHADOW)], 9)
    for _ in range(30):
        t.apply(t.legal_actions()[-1])
    c = t.clone()
    before = (list(t.log), [list(x) for x in t.hand], list(t.dmg), t.rng.getstate())
    r = random.Random(0)
    while not c.is_terminal():
        c.apply(r.choice(c.legal_actions()))
    assert before == (t.log, [list(x) for x in t.hand], t.dmg, t.rng.getstate())


def test_observation_hides_the_opponents_hand_and_deck_and_sampling_is_consistent():
    s = GAME.new_game([deck("t", TERRACORP), deck("s", SHADOW)], 8)
    r = random.Random(1)
    for _ in range(60):
        s.apply(r.choice(s.legal_actions()))
    obs = s.observation(0)
    m = obs._masked
    assert m.rng is None and not m.hand[1] and not m.deck[1] and m.log == []
    assert obs.hand == tuple(s.g.info[i].id for i in s.hand[0])
    assert obs.deck == tuple(s.g.info[i].id for i in reversed(s.deck[0])), "own deck order is known"
    assert (obs.opp_hand, obs.opp_deck) == (len(s.hand[1]), len(s.deck[1]))
    table = obs.public()
    assert len(table["planets"]) == 6 and table["hand_counts"] == [len(s.hand[0]), len(s.hand[1])]
    assert table["hand"] == list(obs.hand) and "deck" in table
    seen_orders = set()
    for k in range(5):
        t = GAME.sample_state(obs, random.Random(k))
        assert t.deck[0] == s.deck[0] and t.hand[0] == s.hand[0]
        assert len(t.hand[1]) == len(s.hand[1]) and len(t.deck[1]) == len(s.deck[1])
        assert Counter(t.hand[1] + t.deck[1]) == Counter(s.hand[1] + s.deck[1])
        seen_orders.add(tuple(t.deck[1]))
        while not t.is_terminal():  # a sampled state plays on
            t.apply(t.legal_actions()[0] if t.dec != se.D_CONSTRUCT else ("done",))
    assert len(seen_orders) > 1
    assert GAME.heuristic(s, 0) == -GAME.heuristic(s, 1)


def test_cards_played_records_cards_put_into_play():
    s, _ = random_game(12)
    played = s.cards_played(0) | s.cards_played(1)
    assert played and all(isinstance(c, str) for c in played)


def test_a_combat_nobody_can_win_breaks_off_after_the_shot_cap():
    s = fresh()
    a = ship(s, 0, "tcs-39-defender", pos=1)
    b = ship(s, 1, "hulk", pos=1)
    s._roll_attack = lambda: setattr(s, "pd_amt", 0)  # as if shields absorbed every shot
    combat(s, 1)
    while s.dec == se.D_FIRE:
        act(s, "fire")
    assert lines(s, "both fleets break off") and s.ctrl[0] == -1
    assert a in s.ships[0] and b in s.ships[1] and s.cshots == se.SHOT_CAP


def test_last_planet_destroyed_by_the_solaris_cannon_most_ships_wins():
    s = fresh()
    rich(s)
    for i in range(1, 6):
        s.planet[i] = -1
    own(s, 0, 1)
    building(s, 0, "solaris-cannon", 1)
    ship(s, 1, "infected-rapier")
    act(s, "fire-cannon", 1)
    assert s.end_reason == "no planets" and s.winner == 1


# ---------------------------------------------------------------- the bundled set
SET_DIR = Path(__file__).resolve().parents[1] / "cards" / "solar-empires"


def bundled_decks(cs):
    """The sample decks (card names -> counts), read with the deck loader when it is available."""
    try:
        from cardsmith.decks import load_deck
        return [load_deck(SET_DIR / "decks" / f"{race}.yaml", cs) for race in ("terracorp", "chain", "shadow")]
    except ImportError:
        by_name = {c.name: c.id for c in cs.cards}
        out = []
        for race in ("terracorp", "chain", "shadow"):
            data = yaml.safe_load((SET_DIR / "decks" / f"{race}.yaml").read_text(encoding="utf-8"))
            out.append(Deck(name=data["name"], set_id=cs.id, zones=frozen_map(
                {z: {by_name[n]: k for n, k in data[z].items()} for z in ("fleet", "solar_bodies")})))
        return out


@pytest.mark.skipif(not (SET_DIR / "set.yaml").exists(), reason="the bundled set is not in this checkout")
def test_bundled_set_plays_every_matchup_by_the_rules():
    from cardsmith.engine.registry import load_game
    from cardsmith.validate import load_set
    cs = load_set(SET_DIR)
    assert load_game(cs).name == "Solar Empires"
    game = se.make_game(cs)
    assert game.turn_cap == cs.meta["play"]["turn_cap"]
    assert any(i["what"].startswith("turn cap") for i in cs.meta["invented"])
    decks = bundled_decks(cs)
    ends = Counter()
    for seed in range(18):
        pair = [decks[seed % 3], decks[(seed // 3) % 3]]
        s = game.new_game(pair, seed)
        sizes = [len(s.g.fleet[0]), len(s.g.fleet[1])]
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            if s.dec != se.D_ORDER:
                check_invariants(s, sizes)
        ends[s.end_reason] += 1
    assert ends["conquest"] > 0


def test_engine_contract_conformance():
    """The engine's own conformance check (legal actions, clones, leaks, determinization, replay)."""
    checks = pytest.importorskip("cardsmith.engine.checks")
    from cardsmith.engine.legacy import LegacyGame, legacy_rules
    game = LegacyGame(GAME, legacy_rules("solar_empires", se))
    problems = checks.protocol_problems(game, [deck("t", TERRACORP), deck("s", SHADOW)], seeds=range(2),
                                        same_observation=False)
    assert problems == []


def test_effect_numbers_come_from_the_card_text():
    def info(cid, text):
        return se._Info.of(Card(id=cid, name=cid, type="event", fields=frozen_map({}), text=text)).p

    assert info("ion-storm", "Deal 4 damage to up to two fighters.") == {"damage": 4, "count": 2}
    assert info("hidden-infection", "Deal seven damage to target ship.") == {"damage": 7}
    assert info("asteroid-swarm", "Choose three planets. Any fleet deployed there takes d6+5 dmg.") == \
        {"planets": 3, "damage": 5}
    assert info("ion-storm", "Something else entirely.") == {"damage": 3, "count": 3}, "the source's numbers"


@pytest.mark.skipif(not (SET_DIR / "set.yaml").exists(), reason="the bundled set is not in this checkout")
def test_invariants_hold_for_random_legal_decks_of_the_bundled_set():
    hypothesis = pytest.importorskip("hypothesis")
    decks_mod = pytest.importorskip("cardsmith.decks")
    from hypothesis import strategies as st
    from cardsmith.validate import load_set
    cs = load_set(SET_DIR)
    game = se.make_game(cs)

    @hypothesis.settings(max_examples=25, deadline=None, database=None)
    @hypothesis.given(seed=st.integers(0, 10**6), a=st.integers(0, 10**6), b=st.integers(0, 10**6))
    def play(seed, a, b):
        s = game.new_game([decks_mod.random_deck(cs, seed=a), decks_mod.random_deck(cs, seed=b)], seed)
        sizes = [len(s.g.fleet[0]), len(s.g.fleet[1])]
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            if s.dec != se.D_ORDER:
                check_invariants(s, sizes)
        assert s.turn <= game.turn_cap

    play()
