"""#rm2k_anime rules: one test per clause of the rules text, through the public game API.

Situations are positions (tests/rm2k_positions.py) read with scripted chance; docs/rules/rm2k-anime.md
names the test of each reading.
"""

from __future__ import annotations

import random

import pytest

from cardsmith.engine.chance import ScriptedChance
from cardsmith.engine.contract import IllegalAction
from cardsmith.engine.kit import HIDDEN, dump_position, parse_position
from cardsmith.model import Deck, frozen_map

from rm2k_positions import GAME, play, seat, start, table, to_phase, user, users, verbs


def deck(name: str, cards: dict[str, int]) -> Deck:
    return Deck(name, "rm2k-anime", frozen_map({"deck": frozen_map(cards)}))


DECK_A = deck("a", {"night-owl": 1, "newbie-noob": 1, "chibi-sage": 1, "mod-hammer": 1, "all-nighter": 20})
DECK_B = deck("b", {"night-owl": 1, "tileset-thief": 1, "lurker-lord": 1, "cosplay-kai": 1, "all-nighter": 20})


# ---------------------------------------------------------------- 2.1 preparation
def test_starting_users_fit_the_agreed_budget_and_stay_hidden_until_both_chose():
    s = GAME.new_game([DECK_A, DECK_B], chance=ScriptedChance(fallback=1))
    assert s.to_act() == (0,)
    assert {a[1] for a in s.legal_actions()} == {"night-owl", "newbie-noob", "chibi-sage", "mod-hammer"}
    s.apply(("main", "chibi-sage"))  # Cost 3 of the budget of 8
    assert s.to_act() == (1,)
    assert seat(s, 0)["picks"] == ["chibi-sage"]
    assert s.observation(1).data["seats"][0]["picks"] == [HIDDEN], "the opponent does not see the face-down pick"
    s.apply(("main", "night-owl"))
    assert {a[1] for a in s.legal_actions() if a[0] == "start"} == {"night-owl", "newbie-noob", "mod-hammer"}
    s.apply(("start", "mod-hammer"))  # 3 + 5 = 8: nothing more fits
    assert s.legal_actions() == (("ready",),)
    play(s, ("ready",), ("ready",))
    assert [u["card"] for u in users(s, 0)] == ["chibi-sage", "mod-hammer"]
    assert users(s, 0)[0]["main"] and not users(s, 0)[1]["main"]


def test_same_main_user_sets_both_aside_and_both_choose_again():
    s = GAME.new_game([DECK_A, DECK_B], chance=ScriptedChance(fallback=1))
    play(s, ("main", "night-owl"), ("main", "night-owl"))
    assert seat(s, 0)["aside"] == ["night-owl"] and seat(s, 1)["aside"] == ["night-owl"]
    assert s.position()["decision"] == "main_user" and s.to_act() == (0,)
    assert ("main", "night-owl") not in s.legal_actions()


def test_other_users_shuffled_in_draw_five_lowest_cost_first_other_distributes_lag():
    s = GAME.new_game([DECK_A, DECK_B], chance=ScriptedChance(fallback=3))
    play(s, ("main", "chibi-sage"), ("main", "lurker-lord"), ("ready",), ("ready",))
    # totals 3 and 2: seat 1 goes first, seat 0 puts 1 Lag on its own Users
    assert s.position()["first_player"] == 1
    assert s.to_act() == (0,) and s.legal_actions() == (("lag", 0),)
    s.apply(("lag", 0))
    assert users(s, 0)[0]["lag"] == 1
    assert s.position()["decision"] == "main" and s.to_act() == (1,)
    for p in (0, 1):
        sp = seat(s, p)
        assert len(sp["hand"]) == 5 and len(sp["deck"]) == 23 - 5
        assert sum(c in ("night-owl", "newbie-noob", "mod-hammer", "tileset-thief", "cosplay-kai")
                   for c in sp["hand"] + sp["deck"]) == 3, "the Users not chosen are in the deck"


def test_equal_costs_a_public_coin_decides_who_goes_first():
    for pick in (0, 1):
        s = GAME.new_game([DECK_A, DECK_B], chance=ScriptedChance(picks=[pick], fallback=3))
        play(s, ("main", "night-owl"), ("main", "tileset-thief"), ("start", "newbie-noob"), ("ready",), ("ready",))
        assert s.position()["first_player"] == pick and s.to_act() == (pick,)


# ---------------------------------------------------------------- 2.2.1 Connect
def test_connect_removes_lag_equal_to_bandwidth_and_is_skipped_on_the_first_turn():
    s = start(table([user("nekopixel", lag=5)], [user("night-owl", lag=2)], turn=1))
    pos = s.position()
    pos["seats"][0]["had_turn"] = False
    pos["seats"][1]["had_turn"] = False
    s = GAME.from_position(pos, chance=ScriptedChance())
    to_phase(s, "main")
    play(s, ("end",), ("end",), ("end",), ("end",))  # seat 0: main, challenge, victory x2 -> seat 1's turn
    assert users(s, 1)[0]["lag"] == 2, "seat 1's first turn: no Connect Phase"
    play(s, ("end",), ("end",), ("end",), ("end",))  # back to seat 0, its second turn
    assert users(s, 0)[0]["lag"] == 2, "Bandwidth 3 clears 3 of 5 Lag"


def test_beginning_of_turn_effects_happen_before_lag_is_removed():
    # Night Owl (Bandwidth 1): "At the beginning of your turn, if Night Owl has no Lag, gain 1 VP"
    s = start(table([user("night-owl", lag=1)], ["nekopixel"], active=1, decision="victory", actor=0))
    s.apply(("end",))
    assert seat(s, 0)["vp"] == 0, "the Lag was still there when the beginning-of-turn effect looked"
    assert users(s, 0)[0]["lag"] == 0, "then Bandwidth cleared it"
    s = start(table([user("night-owl", lag=0)], ["nekopixel"], active=1, decision="victory", actor=0))
    s.apply(("end",))
    assert seat(s, 0)["vp"] == 1


# ---------------------------------------------------------------- 2.4 Syncing
def test_syncing_over_several_turns_then_activate_when_tokens_reach_cost():
    # Night Owl (Bandwidth 1) Syncs Netsplit (Cost 3) alone: one token a turn
    s = start(table(["night-owl"], ["nekopixel"], hands=(["netsplit"], [])))
    s.apply(("sync", "netsplit", 0))
    assert users(s, 0)[0]["syncing"] == "netsplit" and users(s, 0)[0]["tokens"] == 0
    s.apply(("pay", 0, 0))
    assert users(s, 0)[0]["lag"] == 1 and users(s, 0)[0]["tokens"] == 1
    assert not any(a[0] == "pay" for a in s.legal_actions()), "Free Bandwidth 0: no more Lag may be added"
    for turn in range(2):
        to_phase(s, "victory")
        play(s, ("end",), ("end",))  # seat 0's Victory Phase, both sides
        to_phase(s, "victory")
        play(s, ("end",), ("end",))  # seat 1's turn
        assert users(s, 0)[0]["lag"] == 0, "Connect: Bandwidth 1 cleared the Lag"
        assert not any(a[0] == "activate" for a in s.legal_actions())
        s.apply(("pay", 0, 0))
    assert users(s, 0)[0]["tokens"] == 3
    assert ("activate", 0, 0) in s.legal_actions(), "3 tokens match the Cost: it may be activated (on target User 0)"
    play(s, ("activate", 0, 0), ("pass",))
    assert users(s, 1)[0]["lag"] == 3 and users(s, 0)[0]["syncing"] is None
    assert "netsplit" in seat(s, 0)["discard"]


def test_any_user_you_control_may_take_the_lag_for_another_users_syncing_card():
    s = start(table(["nekopixel", "night-owl"], ["lurker-lord"], hands=(["pen-tablet"], [])))
    play(s, ("sync", "pen-tablet", 1), ("pay", 0, 1), ("pay", 0, 1))
    assert [u["lag"] for u in users(s, 0)] == [2, 0] and users(s, 0)[1]["tokens"] == 2
    s.apply(("activate", 1))
    assert users(s, 0)[1]["attached"] == ["pen-tablet"]


def test_one_syncing_card_per_user_and_none_begun_when_every_user_has_one():
    s = start(table(["nekopixel", "night-owl"], ["lurker-lord"], hands=(["netsplit", "pen-tablet", "ddos"], [])))
    s.apply(("sync", "netsplit", 0))
    assert all(a[2] == 1 for a in s.legal_actions() if a[0] == "sync"), "User 0 already holds a Syncing card"
    s.apply(("sync", "ddos", 1))
    assert "sync" not in verbs(s), "every User has a Syncing card"


def test_a_users_syncing_card_is_deleted_when_it_leaves_play():
    # Ban Vote (Duel, Argue, loser deleted): Mod Hammer (Argue 6) beats Night Owl (Argue 2)
    s = start(table([user("mod-hammer", syncing="ban-vote", tokens=4), "nekopixel"],
                    [user("chibi-sage"), user("night-owl", syncing="ddos", tokens=4)], decision="challenge"))
    play(s, ("challenge", 0), ("attacker", 0))
    assert s.to_act() == (1,), "Duel: the opponent chooses the Defender"
    play(s, ("defender", 1), ("pass",), ("pass",))
    assert [u["card"] for u in users(s, 1)] == ["chibi-sage"]
    assert "ddos" in seat(s, 1)["discard"] and "night-owl" in seat(s, 1)["discard"]


def test_nothing_can_be_paid_with_free_bandwidth_0():
    s = start(table([user("night-owl", lag=1), user("nekopixel", lag=3)], ["lurker-lord"],
                    hands=(["netsplit"], [])))
    s.apply(("sync", "netsplit", 0))
    assert "pay" not in verbs(s)


def test_instantaneous_syncing_needs_a_user_with_no_syncing_card_and_enough_free_bandwidth():
    s = start(table([user("nekopixel", lag=1), "night-owl"], ["lurker-lord"], hands=(["netsplit", "caffeine-rush"], [])))
    acts = s.legal_actions()
    assert ("instant", "netsplit", 0, 0) not in acts, "Free Bandwidth 2 cannot pay Cost 3"
    assert ("instant", "caffeine-rush", 0) in acts and ("instant", "caffeine-rush", 1) in acts
    s.apply(("sync", "netsplit", 1))
    assert ("instant", "caffeine-rush", 1) not in s.legal_actions(), "User 1 now has a Syncing card"
    play(s, ("instant", "caffeine-rush", 0), ("pass",))
    assert users(s, 0)[0]["lag"] == 0, "took 1 Lag to pay, then cleared 3"


def test_attach_and_challenge_cards_are_not_instantaneously_synced_in_the_main_phase():
    s = start(table(["nekopixel"], ["lurker-lord"], hands=(["pen-tablet", "pm-war"], [])))
    assert not any(a[0] == "instant" for a in s.legal_actions())


def test_skill_immunity_no_card_of_that_skill_on_the_user_and_it_counts_as_0():
    # Chibi Sage is immune to Gamer
    s = start(table(["chibi-sage", "night-owl"], ["lurker-lord"], hands=(["arcade-stick", "caffeine-rush"], [])))
    acts = s.legal_actions()
    assert ("sync", "arcade-stick", 0) not in acts and ("sync", "arcade-stick", 1) in acts
    assert ("instant", "caffeine-rush", 0) not in acts and ("instant", "caffeine-rush", 1) in acts
    # Beat the Final Boss (Gamer, Defense Value 6): Chibi Sage totals 0
    s = start(table(["chibi-sage", user("nekopixel", syncing="beat-the-final-boss", tokens=3)], ["lurker-lord"],
                    decision="challenge"))
    play(s, ("challenge", 1), ("attacker", 0), ("pass",), ("pass",))
    assert "0 to 6" in "\n".join(s.log)


# ---------------------------------------------------------------- 3.1.2 Limbo
def test_activated_users_spend_the_turn_in_limbo_then_come_into_play_in_the_draw_phase():
    s = start(table([user("nekopixel", syncing="night-owl", tokens=1)], ["lurker-lord"],
                    hands=(["netsplit", "pm-war"], [])))
    s.apply(("activate", 0))
    owl = users(s, 0)[1]
    assert owl["card"] == "night-owl" and owl["limbo"]
    assert not any(a[0] == "sync" and a[2] == 1 for a in s.legal_actions()), "no Syncing on a User in Limbo"
    assert not any(a[0] == "pay" and a[1] == 1 for a in s.legal_actions()), "a User in Limbo uses no Bandwidth"
    s.apply(("end",))
    s.apply(("instant", "pm-war", 0))
    assert ("attacker", 1) not in s.legal_actions(), "a User in Limbo does not take part in Challenges"
    # the opponent cannot target it either
    s = start(table(["lurker-lord"], ["nekopixel", user("night-owl", limbo=True)], hands=(["netsplit"], [])))
    assert not any(a[0] == "instant" and a[-1] == 1 for a in s.legal_actions())
    # Draw Phase: into play; its end-of-turn ability did not fire while in Limbo (Newbie Noob draws a card)
    s = start(table([user("nekopixel"), user("newbie-noob", limbo=True)], ["lurker-lord"], decision="victory",
                    actor=1))
    hand = len(seat(s, 0)["hand"])
    s.apply(("end",))
    assert not users(s, 0)[1]["limbo"] and len(seat(s, 0)["hand"]) == hand + 1, "only the Draw Phase's card"
