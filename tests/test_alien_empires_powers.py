"""Alien Empires: each Race power the rules play, through positions and scripted chance (one test
or more per power; docs/rules/alien-empires.md gives the reading each checks)."""

from __future__ import annotations

import re

from cardsmith.games.alien_empires.powers import hand_limit, move_range
from tests.alien_support import fight, move, moves, position, start, tokens

WORLDS = {"1,0": "vega", "4,-4": "mira"}  # the contested space 1,0 is a world; nobody holds 4,-4


def battle(da=(), dd=(), att=2, dfn=2, world=True, hands=([], []), reveal=((), ()), deck=None, **chance):
    """P0 (destiny da, tokens at 0,0) attacks P1 (destiny dd, tokens at 1,0); returns the state and
    the two force totals from the log."""
    worlds = WORLDS if world else {"2,-2": "vega", "4,-4": "mira"}
    st = start(position({"0,0": [att, 0], "1,0": [0, dfn]}, worlds=worlds, hands=[list(h) for h in hands],
                        destiny=[list(da), list(dd)], deck=deck), **chance)
    fight(st, "1,0", 1, reveal=reveal)
    return st, totals(st)


def totals(st) -> tuple[int, int]:
    for line in reversed(st.log):
        m = re.match(r"force (\d+) \(P\d\) against (\d+)", line)
        if m:
            return int(m.group(1)), int(m.group(2))
    raise AssertionError("no conflict result in the log")


# ---- numbers -----------------------------------------------------------------------------------
def test_fanaticism_attacking_on_worlds_only():
    assert battle(da=["fanaticism"], dfn=9)[1] == (6, 9)
    assert battle(da=["fanaticism"], dfn=9, world=False)[1] == (2, 9)


def test_spacer_attacking_in_space_only():
    assert battle(da=["spacer"], dfn=9, world=False)[1] == (6, 9)
    assert battle(da=["spacer"], dfn=9)[1] == (2, 9)


def test_carapace_defending_on_worlds():
    assert battle(dd=["carapace"], att=9)[1] == (9, 6)
    assert battle(da=["carapace"], dfn=9)[1] == (2, 9)  # not when attacking


def test_symbiotic_each_two_tokens_plus_one():
    assert battle(da=["symbiotic"], att=5, dfn=9)[1] == (7, 9)


def test_mass_plus_one_force_and_one_less_space():
    assert battle(da=["mass"], dfn=9)[1] == (4, 9)
    st = start(position({"0,0": [2, 0], "-4,0": [0, 1]}, destiny=[["mass"], []], phase="migrate"))
    assert move_range(st, 0) == 1


def test_jinx_one_opposing_token_is_worth_nothing():
    """Jinx: "One of opponents tokens is Force = 0 during Conflict": the whole token, whatever it is worth."""
    assert battle(da=["jinx"], att=9, dfn=3)[1] == (9, 2)
    # a Fanaticism attacker's token on a world is worth 3: two of them make 3, not 5, against a Jinx
    assert battle(da=["fanaticism"], dd=["jinx"], att=2, dfn=4)[1] == (3, 4)
    # Mass (+1 a token): 2 + 2 = 4 less one token of 2
    assert battle(da=["mass"], dd=["jinx"], att=2, dfn=9)[1] == (2, 9)


def test_doubler_doubles_the_highest_force_card():
    assert battle(da=["doubler"], dfn=20, hands=(["force-3", "force-5"], []), reveal=(("force-5", "force-3"), ()))[1] == (15, 20)


def test_traveler_and_tachyonic_travel_move_farther():
    st = start(position({"0,0": [2, 0], "-4,0": [0, 1]}, destiny=[["traveler"], []], phase="migrate"))
    assert ("move", "0,0", "4,0", 2) in moves(st, "0,0")
    st = start(position({"0,0": [2, 0], "-4,0": [0, 1]}, destiny=[["tachyonic-travel"], []], phase="migrate"))
    assert move_range(st, 0) == 4 and ("move", "0,0", "4,0", 2) in moves(st, "0,0")


def test_hive_society_worlds_produce_two():
    st = start(position({"1,0": [2, 0], "-4,0": [0, 1]}, worlds=WORLDS, destiny=[["hive-society"], []], phase="fate"))
    st.apply(("done",))
    assert tokens(st, "1,0")[0] == 4


def test_contraceptives_opponents_on_a_shared_world_do_not_breed():
    st = start(position({"1,0": [2, 1], "-4,0": [0, 1]}, worlds=WORLDS, destiny=[[], ["contraceptives"]], phase="fate"))
    st.apply(("done",))
    assert tokens(st, "1,0")[0] == 2


def test_memory_and_scourge_change_hand_sizes():
    st = start(position({"0,0": [2, 0], "-4,0": [0, 1]}, destiny=[["memory"], ["scourge"]]))
    assert hand_limit(st, 0) == 11 and hand_limit(st, 1) == 10


def test_thinker_and_collectors_draw_more_in_fate():
    for power in ("thinker", "collectors"):
        st = start(position({"0,0": [2, 0], "-4,0": [0, 1]}, destiny=[[power], []], phase="fate"))
        st.apply(("draw",))
        assert len(st.hands[0]) == 6 or st.stack[-1]["kind"] != "fate"
        assert "P0 draws 6 (Fate)" in st.log


def test_aggressive_any_number_of_conflicts():
    toks = {"0,0": [9, 0], "1,0": [0, 1], "-1,0": [0, 1], "0,1": [0, 1], "0,-1": [0, 1]}
    st = start(position(toks, destiny=[["aggressive"], []]))
    for label in ("1,0", "-1,0", "0,1"):
        fight(st, label, 1, commits=("all", "here"))
    assert ("attack", "0,-1", 1) in st.legal_actions()


def test_reductionism_opponent_reveals_one_force_card():
    st = start(position({"0,0": [2, 0], "1,0": [0, 2]}, worlds=WORLDS, hands=[["force-1", "force-2"], []],
                        destiny=[[], ["reductionism"]]))
    st.apply(("attack", "1,0", 1))
    assert all(len(a) == 2 for a in st.legal_actions(0))


def test_tactician_draws_at_the_start_of_conflict():
    st, _ = battle(da=["tactician"], dfn=9, deck=["windfall", "supply-drop"])
    assert "P0 draws 1 (Tactician)" in st.log


def test_vampirism_and_scavenger_reward_the_winner():
    st, _ = battle(da=["vampirism", "scavenger"], att=5, dfn=1)
    assert tokens(st, "1,0")[0] == 1 and "P0 draws 1 (won the conflict)" in st.log


def test_minimalist_lowest_force_card_wins():
    st, _ = battle(da=["minimalist"], att=1, dfn=9, hands=(["force-1"], ["force-2"]), reveal=(("force-1",), ("force-2",)))
    assert tokens(st, "1,0")[1] == 0


# ---- conflict rules --------------------------------------------------------------------------
def test_berserking_discards_a_card_for_four():
    st = start(position({"0,0": [2, 0], "1,0": [0, 9]}, worlds=WORLDS, hands=[["windfall"], []], destiny=[["berserking"], []]))
    st.apply(("attack", "1,0", 1))
    st.apply(("berserk", "windfall"))
    assert totals(st) == (6, 9)


def test_martyr_sacrifices_for_plus_one_each():
    st = start(position({"0,0": [4, 0], "-3,0": [1, 0], "1,0": [0, 20]}, worlds=WORLDS, destiny=[["martyr"], []]))
    st.apply(("attack", "1,0", 1))
    st.apply(("martyr",))  # the token at -3,0 (not taking part) is sacrificed
    assert tokens(st, "-3,0")[0] == 0 and totals(st) == (8, 20)


def test_burnout_sacrifices_to_draw():
    st = start(position({"0,0": [4, 0], "-3,0": [1, 0], "1,0": [0, 20]}, worlds=WORLDS, destiny=[["burnout"], []]))
    st.apply(("attack", "1,0", 1))
    st.apply(("burnout",))
    assert "P0 draws 1 (Burnout)" in st.log and tokens(st, "-3,0")[0] == 0


def test_eliminate_makes_the_opponent_discard():
    st = start(position({"0,0": [4, 0], "-3,0": [1, 0], "1,0": [0, 20]}, worlds=WORLDS, hands=[[], ["force-9"]],
                        destiny=[["eliminate"], []]), picks=[0, 0])
    st.apply(("attack", "1,0", 1))
    st.apply(("eliminate",))
    assert "force-9" in st.discard


def test_limit_opponent_discards_at_the_start():
    st = start(position({"0,0": [2, 0], "1,0": [0, 2]}, worlds=WORLDS, hands=[[], ["force-9", "force-1"]],
                        destiny=[["limit"], []]))
    st.apply(("attack", "1,0", 1))
    assert st.to_act() == (1,) and st.stack[-1]["kind"] == "discard"


def test_neutralize_cancels_an_opponent_power():
    st = start(position({"0,0": [9, 0], "1,0": [0, 3]}, worlds=WORLDS, destiny=[["neutralize"], ["carapace", "jinx"]]))
    st.apply(("attack", "1,0", 1))
    st.apply(("neutralize", "carapace"))
    assert totals(st) == (8, 3)


def test_spies_see_the_opponents_hand():
    st = start(position({"0,0": [2, 0], "1,0": [0, 2]}, worlds=WORLDS, hands=[["ion-storm"], ["force-3", "force-1"]],
                        destiny=[["spies"], []]))
    assert st.observation(0)["hands"][1] == ["?", "?"]
    st.apply(("attack", "1,0", 1))
    assert sorted(st.observation(0)["hands"][1]) == ["force-1", "force-3", "windfall"]


def test_spies_see_the_hand_but_not_the_force_cards_it_committed():
    """A determinization for a Spies holder deals the opponent's hidden reveal from the hand it sees."""
    import random

    from tests.alien_support import game

    st = start(position({"0,0": [2, 0], "1,0": [0, 2]}, worlds=WORLDS, hands=[["force-3", "force-5"], ["force-1", "force-2"]],
                        destiny=[[], ["spies"]]))
    st.apply(("attack", "1,0", 1))  # neither has an Event: the card play passes at once
    st.apply(("reveal", "force-5"), 0)
    assert set(st.to_act()) == {1} and st.stack[-1]["kind"] == "reveal"
    obs = st.observation(1)
    assert obs["conflict"]["reveal"][0] == ["?"] and sorted(obs["hands"][0]) == ["force-3", "force-5"]
    for seed in range(6):
        twin = game().sample_state(obs, random.Random(seed))
        assert twin.conflict["reveal"][0][0] in ("force-3", "force-5")
        assert twin.observation(1) == obs and twin.legal_actions(1) == st.legal_actions(1)


def test_emulate_copies_a_power_of_a_player_not_in_combat():
    toks = {"0,0": [2, 0, 0], "1,0": [0, 9, 0], "-4,0": [0, 0, 1]}
    st = start(position(toks, worlds=WORLDS, hands=[[], [], []], destiny=[["emulate"], [], ["fanaticism"]]))
    st.apply(("attack", "1,0", 1))
    st.apply(("borrow", "fanaticism"))
    assert totals(st) == (6, 9)


def test_copycat_copies_the_opponent_on_the_same_world():
    st = start(position({"1,0": [2, 9]}, worlds=WORLDS, destiny=[["copycat"], ["fanaticism"]]))
    st.apply(("attack", "1,0", 1))
    st.apply(("borrow", "fanaticism"))
    assert totals(st) == (6, 9)


def test_booby_trap_kills_half_the_winners_tokens():
    st, _ = battle(dd=["booby-trap"], att=6, dfn=2)
    assert tokens(st, "0,0")[0] == 3


def test_escape_artist_saves_one_token():
    st, _ = battle(dd=["escape-artist"], att=6, dfn=2)
    assert sum(tokens(st, lab)[1] for lab in st.map.labels) == 1


def test_rearguard_retreats_all_but_one():
    st = start(position({"0,0": [2, 0], "1,0": [0, 5]}, worlds=WORLDS, destiny=[[], ["rearguard"]]))
    st.apply(("attack", "1,0", 1))
    st.apply(("rearguard", "2,0"))
    assert tokens(st, "2,0")[1] == 4 and tokens(st, "1,0")[1] == 0  # the one left behind lost 2 against 1


def test_mind_control_takes_an_opposing_token():
    st, _ = battle(da=["mind-control"], att=2, dfn=3)
    assert "P0 (Mind Control) takes control of one of P1's tokens at 1,0" in st.log and totals(st) == (3, 2)


def test_opportunists_steal_a_card():
    st = start(position({"0,0": [2, 0], "1,0": [0, 9]}, worlds=WORLDS, hands=[[], ["force-7"]],
                        destiny=[["opportunists"], []]), picks=[0])
    st.apply(("attack", "1,0", 1))
    assert "force-7" in st.hands[0] or "force-7" in st.discard


def test_reinforcement_brings_a_token_from_three_away():
    st, t = battle(da=["reinforcement"], dfn=9, att=2)
    st2 = start(position({"0,0": [2, 0], "-2,0": [1, 0], "1,0": [0, 9]}, worlds=WORLDS, destiny=[["reinforcement"], []]))
    fight(st2, "1,0", 1)
    assert totals(st2) == (3, 9) and t == (2, 9)


def test_precognition_chooses_after_the_opponent():
    st = start(position({"0,0": [2, 0], "1,0": [0, 2]}, worlds=WORLDS, hands=[["force-1", "force-2"], ["force-3", "force-4"]],
                        destiny=[[], ["precognition"]]))
    st.apply(("attack", "1,0", 1))
    assert st.to_act() == (0,)
    st.apply(("reveal", "force-2"), 0)
    assert st.to_act() == (1,) and st.observation(1)["conflict"]["reveal"][0] == ["force-2"]


def test_precognition_determinizations_keep_the_shown_cards_in_the_opponents_hand():
    import random

    from tests.alien_support import game

    st = start(position({"0,0": [2, 0], "1,0": [0, 2]}, worlds=WORLDS, hands=[["force-1", "force-2"], ["force-3", "force-4"]],
                        destiny=[[], ["precognition"]], deck=["force-9", "force-8", "windfall"] * 4))
    st.apply(("attack", "1,0", 1))
    st.apply(("reveal", "force-2"), 0)
    obs = st.observation(1)
    assert obs["hands"][0] == ["?", "?"]
    for seed in range(6):
        twin = game().sample_state(obs, random.Random(seed))
        assert "force-2" in twin.hands[0] and twin.observation(1) == obs
        for action in twin.legal_actions(1):  # the conflict resolves from every sample
            twin.clone().apply(action, 1)


def test_anarchy_exchanges_hands():
    st = start(position({"0,0": [2, 0], "1,0": [0, 9]}, worlds=WORLDS, hands=[["windfall"], ["force-9"]], destiny=[["anarchy"], []]))
    st.apply(("attack", "1,0", 1))
    st.apply(("swap",))
    assert "P0 (Anarchy) exchanges hands with P1" in st.log and "P0 reveals Force 9" in st.log


def test_pacifist_prevents_the_conflict():
    st = start(position({"0,0": [9, 0], "1,0": [0, 1]}, worlds=WORLDS, hands=[[], ["force-8"]], destiny=[[], ["pacifist"]]))
    st.apply(("attack", "1,0", 1))
    st.apply(("pacify", "force-8"))
    assert tokens(st, "1,0")[1] == 1 and "force-8" in st.discard


def test_second_chances_fight_again():
    st, _ = battle(dd=["second-chances"], att=3, dfn=2, hands=([], ["force-5"]))
    # first fight 3 against 2: lost; second chance; the defender reveals Force 5: 3 against 7
    assert tokens(st, "1,0")[1] == 2 and tokens(st, "0,0")[0] == 0


def test_clean_slate_discards_and_redraws():
    st = start(position({"0,0": [2, 0], "1,0": [0, 9]}, worlds=WORLDS, hands=[["tactician", "force-1"], []],
                        destiny=[["clean-slate"], []]))
    st.apply(("attack", "1,0", 1))
    st.apply(("clean", 1))
    assert "tactician" in st.discard and "P0 draws 1 (Clean Slate)" in st.log


def test_repatriations_steal_when_losing():
    st, _ = battle(dd=["repatriations"], att=6, dfn=1, hands=(["force-9", "windfall"], []), picks=[0])
    assert "P1 (Repatriations) steals a card from P0" in st.log


def test_diplomat_costs_the_attacker_two_cards():
    st = start(position({"0,0": [9, 0], "1,0": [0, 1]}, worlds=WORLDS, hands=[["windfall"], []], destiny=[[], ["diplomat"]]))
    assert ("attack", "1,0", 1) not in st.legal_actions()
    st = start(position({"0,0": [9, 0], "1,0": [0, 1]}, worlds=WORLDS, hands=[["windfall", "sabotage"], []], destiny=[[], ["diplomat"]]))
    st.apply(("attack", "1,0", 1))
    st.apply(("discard", "sabotage"))
    assert st.hands[0] == [] or "windfall" in st.discard


def test_inconspicuous_lone_token_cannot_be_attacked():
    st = start(position({"0,0": [9, 0], "1,0": [0, 1], "-1,0": [0, 2]}, worlds=WORLDS, destiny=[[], ["inconspicuous"]]))
    assert ("attack", "1,0", 1) not in st.legal_actions() and ("attack", "-1,0", 1) in st.legal_actions()


def test_mercenary_allies_from_three_away():
    toks = {"0,0": [2, 0, 0], "1,0": [0, 2, 0], "4,0": [0, 0, 3]}
    st = start(position(toks, worlds=WORLDS, hands=[[], [], []], destiny=[[], [], ["mercenary"]]))
    st.apply(("attack", "1,0", 1))
    assert st.to_act() == (2,) and st.stack[-1]["kind"] == "ally"


def test_distress_call_others_may_give_a_card():
    toks = {"0,0": [2, 0, 0], "1,0": [0, 2, 0], "-4,4": [0, 0, 3]}
    st = start(position(toks, worlds=WORLDS, hands=[[], [], ["force-9"]], destiny=[["distress-call"], [], []]))
    st.apply(("attack", "1,0", 1))
    assert st.to_act() == (2,)
    st.apply(("give", "force-9"))
    assert "force-9" in st.hands[0] or "force-9" in st.discard


def test_plea_maker_forces_tokens_to_ally():
    toks = {"0,0": [2, 0, 0], "1,0": [0, 4, 0], "2,0": [0, 0, 3]}
    st = start(position(toks, worlds=WORLDS, hands=[[], [], []], destiny=[["plea-maker"], [], []]))
    st.apply(("attack", "1,0", 1))
    st.apply(("ally", "none"))
    assert totals(st) == (5, 4)


# ---- other phases ------------------------------------------------------------------------------
def test_assassination_kills_a_token_anywhere():
    st = start(position({"0,0": [2, 0], "-4,0": [0, 3]}, destiny=[["assassination"], []], phase="migrate"))
    st.apply(("assassinate", "-4,0", 1))
    assert tokens(st, "-4,0")[1] == 2 and not any(a[0] == "assassinate" for a in st.legal_actions())


def test_gatherer_three_more_spaces_to_one_world():
    st = start(position({"0,0": [2, 0], "-4,0": [0, 1]}, worlds={"4,0": "vega", "0,4": "mira"},
                        destiny=[["gatherer"], []], phase="migrate"))
    assert ("move", "0,0", "4,0", 1) in moves(st, "0,0") and ("move", "0,0", "3,0", 1) not in moves(st, "0,0")
    move(st, "0,0", "4,0", 1)
    assert ("move", "0,0", "0,4", 1) not in moves(st, "0,0")  # one target world a turn


def test_breeder_discards_for_two_tokens():
    st = start(position({"1,0": [2, 0], "-4,0": [0, 1]}, worlds=WORLDS, hands=[["windfall"], []], destiny=[["breeder"], []],
                        phase="fate"))
    st.apply(("done",))
    st.apply(("breed", "windfall", "1,0"))
    assert tokens(st, "1,0")[0] == 5  # 2 + 1 (Genesis) + 2


def test_projection_two_tokens_for_one_on_any_world():
    st = start(position({"0,0": [4, 0], "-4,0": [0, 1]}, worlds=WORLDS, destiny=[["projection"], []], phase="migrate"))
    st.apply(("project", "4,-4"))
    assert tokens(st, "4,-4")[0] == 1 and tokens(st, "0,0")[0] == 2


def test_psychic_sees_the_top_seven():
    deck = [f"force-{i}" for i in range(1, 11)] + ["windfall"] * 5
    st = start(position({"0,0": [4, 0], "-4,0": [0, 1]}, destiny=[["psychic"], []], phase="fate", deck=deck))
    st.apply(("draw",))
    assert st.observation(0)["deck"][-7:] == st.deck[-7:] and st.observation(1)["deck"][-1] == "?"


def test_worldships_move_a_controlled_world():
    st = start(position({"1,0": [3, 0], "-4,0": [0, 1]}, worlds=WORLDS, destiny=[["worldships"], []], phase="migrate"))
    st.apply(("worldship", "1,0", "2,0"))
    assert st.worlds.get(st.map.index("2,0")) == "vega" and tokens(st, "2,0")[0] == 3


def test_repulsion_moves_opposing_tokens():
    st = start(position({"0,0": [3, 0], "-3,0": [0, 2]}, destiny=[["repulsion"], []], phase="migrate"))
    st.apply(("repulse", "-3,0", 1, "-4,0"))
    assert tokens(st, "-4,0")[1] == 1


def test_deporter_two_enemy_tokens_retreat():
    st = start(position({"1,0": [1, 3], "-4,0": [0, 1]}, worlds=WORLDS, destiny=[["deporter"], []], phase="migrate"))
    st.apply(("deport", "1,0", 1, "2,0"))
    assert tokens(st, "1,0")[1] == 1 and tokens(st, "2,0")[1] == 2


def test_propagandist_takes_over_a_token_on_a_shared_world():
    st = start(position({"1,0": [1, 3], "-4,0": [0, 1]}, worlds=WORLDS, destiny=[["propagandist"], []], phase="migrate"))
    st.apply(("convert", "1,0", 1))
    assert tokens(st, "1,0") == [2, 2]


def test_toll_keeper_opponents_on_a_shared_world_cannot_move():
    st = start(position({"1,0": [3, 1], "-4,0": [0, 1]}, worlds=WORLDS, destiny=[[], ["toll-keeper"]], phase="migrate"))
    assert ("stack", "1,0") not in st.legal_actions()


def test_resurrection_takes_the_top_discard():
    st = start(position({"0,0": [3, 0], "-4,0": [0, 1]}, destiny=[["resurrection"], []], phase="fate", discard=["force-9"]))
    st.apply(("resurrect",))
    assert "force-9" in st.hands[0] and tokens(st, "0,0")[0] == 2
    assert ("resurrect",) not in st.legal_actions()


def test_trader_switches_a_card():
    st = start(position({"0,0": [3, 0], "-4,0": [0, 1]}, hands=[["windfall"], ["force-9"]], destiny=[["trader"], []],
                        phase="fate"), picks=[0])
    st.apply(("trade", "windfall", 1))
    assert st.hands[0] == ["force-9"] and st.hands[1] == ["windfall"]


def test_foundation_gives_a_card():
    st = start(position({"0,0": [3, 0], "-4,0": [0, 1]}, hands=[["windfall"], []], destiny=[["foundation"], []], phase="fate"))
    st.apply(("give", "windfall", 1))
    assert st.hands[1] == ["windfall"]


def test_time_control_changes_the_turn_order_at_a_round_start():
    pos = position({"0,0": [3, 0, 0], "-4,0": [0, 1, 0], "4,0": [0, 0, 1]}, hands=[[], [], []], active=2,
                   destiny=[["time-control"], [], []])
    st = start(pos)  # P2 has nothing to attack: its turn ends; a new round: P0 (Time Control) picks who starts it
    assert st.stack[-1]["kind"] == "time_control" and st.to_act() == (0,)
    st.apply(("first", 2))
    assert st.order == [2, 0, 1] and st.seat == 2


def test_feedback_sacrifices_to_duplicate_an_event_the_opponent_played():
    st = start(position({"0,0": [4, 0], "1,0": [0, 3], "4,-4": [0, 2]}, worlds=WORLDS,
                        hands=[["flanking-manoeuvre", "supply-drop"], []], destiny=[[], ["feedback"]]))
    st.apply(("attack", "1,0", 1))
    assert not any(a[0] == "feedback" for a in st.legal_actions(0))
    st.apply(("play", "flanking-manoeuvre"))
    assert st.to_act() == (1,) and ("feedback", "flanking-manoeuvre") in st.legal_actions()
    st.apply(("feedback", "flanking-manoeuvre"))  # a token at 4,-4 (not taking part) is sacrificed
    assert tokens(st, "4,-4")[1] == 1
    st.apply(("play", "supply-drop"))
    assert ("feedback", "supply-drop") in st.legal_actions() and ("feedback", "flanking-manoeuvre") not in st.legal_actions()
    st.apply(("pass",))  # P0 has no card left: its pass is taken at once and the card play ends
    assert totals(st) == (6, 5)


def test_feedback_needs_a_token_to_spare():
    st = start(position({"0,0": [4, 0], "1,0": [0, 1]}, worlds=WORLDS, hands=[["flanking-manoeuvre"], []],
                        destiny=[[], ["feedback"]]))
    st.apply(("attack", "1,0", 1))
    st.apply(("play", "flanking-manoeuvre"))
    assert not any(a[0] == "feedback" for a in st.legal_actions())


def test_strategy_gives_one_stack_a_second_migration_and_attack():
    toks = {"0,0": [3, 0], "3,-1": [1, 0], "3,0": [0, 1], "-4,4": [0, 2]}
    st = start(position(toks, destiny=[["strategy"], []]))
    st.apply(("done",))  # the first Conflict phase ends
    assert st.legal_actions() == (("pass",), ("strategy", "0,0"), ("strategy", "3,-1"))
    st.apply(("strategy", "0,0"))
    st.apply(("move", "0,0", "2,0"))  # the whole stack moves again
    assert tokens(st, "2,0")[0] == 3 and tokens(st, "0,0")[0] == 0
    legal = st.legal_actions()
    assert ("attack", "3,0", 1) in legal and ("attack", "-4,4", 1) not in legal
    fight(st, "3,0", 1)
    assert totals(st) == (3, 1)  # the stack alone: the token at 3,-1, next to 3,0, takes no part
    assert tokens(st, "3,0")[1] == 0 and tokens(st, "3,-1")[0] == 1


def test_contagion_tokens_move_with_an_opponents_moving_tokens():
    st = start(position({"0,0": [2, 4], "-4,4": [1, 0]}, destiny=[["contagion"], []], phase="migrate", active=1))
    move(st, "0,0", "2,0", 2)
    assert st.to_act() == (0,) and st.legal_actions() == (("stay",), ("follow", 1), ("follow", 2))
    st.apply(("follow", 2))
    assert tokens(st, "2,0") == [2, 2] and tokens(st, "0,0") == [0, 2]
    assert st.to_act() == (1,) and st.stack[-1]["kind"] == "migrate"
    move(st, "0,0", "-1,0", 1)  # none of P0's tokens left there: nothing to follow
    assert st.to_act() == (1,)


def test_teaser_forces_an_enemy_stack_on_a_shared_world_to_attack_at_minus_two():
    st = start(position({"1,0": [2, 3], "2,0": [0, 4]}, worlds=WORLDS, destiny=[["teaser"], []]))
    assert ("tease", "1,0", 1) in st.legal_actions() and ("tease", "2,0", 1) not in st.legal_actions()
    fight(st, "1,0", 1)  # a plain attack for comparison is below
    assert totals(st) == (2, 7)
    st = start(position({"1,0": [2, 3], "2,0": [0, 4]}, worlds=WORLDS, destiny=[["teaser"], []]))
    st.apply(("tease", "1,0", 1))
    assert any("P0 (Teaser) forces P1's stack at 1,0" in line for line in st.log)
    while st.to_act() and st.stack[-1]["kind"] == "cards":
        st.apply(("pass",))
    assert totals(st) == (1, 2)  # P1 attacks with its stack on the world only: 3 - 2 against P0's 2
    assert tokens(st, "1,0") == [2, 0] and tokens(st, "2,0") == [0, 4] and st.turnstate["attacks"] == 1


def test_all_65_race_powers_are_played_and_each_names_a_test_that_exists():
    from pathlib import Path

    from tests.alien_support import cardset, game, standard_deck
    from cardsmith.games.alien_empires.checks import validate

    races = [c for c in cardset().cards if c.type == "race"]
    assert len(races) == 65
    assert [p for p in validate(cardset()) if p.severity == "warning"] == []
    assert game().new_game([standard_deck()] * 2, 1).neutral == []
    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "alien-empires.md").read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if re.match(r"\| \d+ \| ", line)]
    assert len(rows) == 65
    here = globals()
    for row in rows:
        named = re.findall(r"`(test_\w+)`", row)
        assert named and all(n in here for n in named), row


def test_hyperspace_lane_mid_migration_reaches_farther_on_the_next_move():
    # "Play in your Migration phase: your tokens move 2 more spaces this turn" -- also after a first
    # move, whose range the Migration's memo keeps (the Event must renew it).
    st = start(position({"0,0": [2, 0], "-1,0": [1, 0], "-4,0": [0, 1]}, hands=[["hyperspace-lane"], []], phase="migrate"))
    assert ("move", "0,0", "2,0", 2) in moves(st, "0,0") and ("move", "0,0", "4,0", 2) not in moves(st, "0,0")
    move(st, "-1,0", "-2,0", 1)
    st.apply(("play", "hyperspace-lane"))
    st.apply(("stack", "0,0"))  # (on the state itself, not a clone: a clone starts without the memo)
    assert ("move", "0,0", "4,0", 2) in st.legal_actions()
