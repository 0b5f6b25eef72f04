"""#rm2k_anime rules: one test per clause of the rules text, through the public game API.

Situations are positions (tests/rm2k_positions.py) read with scripted chance; docs/rules/rm2k-anime.md
names the test of each reading.
"""

from __future__ import annotations

import random

import pytest

from cardsmith import ScriptedChance
from cardsmith import IllegalAction
from cardsmith.engine.kit import HIDDEN, dump_position, parse_position
from cardsmith.sets.model import Deck, frozen_map

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


def test_a_clash_that_would_leave_a_player_no_user_keeps_the_main_users():
    """Mirror decks: clash after clash set every User aside and left seat 0 a Main User decision with
    no legal action (the bundled Flame War mirror, seed 13, random play). The last clash keeps them."""
    two = deck("two", {"night-owl": 1, "newbie-noob": 1, "all-nighter": 20})
    s = GAME.new_game([two, two], chance=ScriptedChance(fallback=1))
    play(s, ("main", "night-owl"), ("main", "night-owl"))  # both still have newbie-noob: set aside
    assert seat(s, 0)["aside"] == ["night-owl"] and s.position()["decision"] == "main_user"
    play(s, ("main", "newbie-noob"), ("main", "newbie-noob"))  # no other User: both keep it
    assert seat(s, 0)["aside"] == ["night-owl"] and seat(s, 1)["aside"] == ["night-owl"]
    assert s.position()["decision"] == "starting" and s.legal_actions() == (("ready",),)
    play(s, ("ready",), ("ready",))
    assert [u["card"] for u in users(s, 0)] == [u["card"] for u in users(s, 1)] == ["newbie-noob"]
    # one seat out of Users is enough: the other may not leave it without a choice
    s = GAME.new_game([two, DECK_A], chance=ScriptedChance(fallback=1))
    play(s, ("main", "night-owl"), ("main", "night-owl"), ("main", "newbie-noob"), ("main", "newbie-noob"))
    assert seat(s, 1)["aside"] == ["night-owl"] and s.position()["decision"] == "starting"


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


# ---------------------------------------------------------------- 3.4.1 Challenges
def _challenge(card: str, users0: list, users1: list, **kw):
    """Seat 0's Challenge Phase with `card` Synced on an extra User (Bot Operator) at the end."""
    host = user("bot-operator", syncing=card, tokens=9)
    s = start(table(users0 + [host], users1, decision="challenge", **kw))
    s.apply(("challenge", len(users0)))
    return s


def test_attack_the_player_chooses_one_attacker_and_one_defender():
    s = _challenge("pm-war", ["flame-warden", "night-owl"], ["lurker-lord", "mod-hammer"])
    assert s.to_act() == (0,) and ("done",) not in s.legal_actions()
    s.apply(("attacker", 0))
    assert s.to_act() == (0,) and s.legal_actions() == (("defender", 0), ("defender", 1)), "the player picks the Defender"
    play(s, ("defender", 0), ("pass",), ("pass",))
    # Flame Warden: Argue 5 + 1 bonus + 2 (its ability, attacking) = 8; Lurker Lord immune: 0 + 0 + 2 = 2
    assert "8 to 2: player 0 wins" in "\n".join(s.log)
    assert seat(s, 0)["vp"] == 1 and users(s, 1)[0]["lag"] == 2


def test_multi_tech_any_number_of_attackers_one_defender_chosen_by_the_player():
    s = _challenge("gang-up", ["flame-warden", "night-owl", "newbie-noob"], ["mod-hammer", "lurker-lord"])
    play(s, ("attacker", 0), ("attacker", 1))
    assert ("done",) in s.legal_actions() and ("attacker", 2) in s.legal_actions()
    play(s, ("done",))
    assert s.to_act() == (0,)
    play(s, ("defender", 0), ("pass",), ("pass",))
    # 5 + 2 (Argue) + 0 x 2 (Attacker Bonus) + 2 (Flame Warden, once) = 9; Mod Hammer 6 + 2 + 1 = 9: a draw
    assert "9 to 9: a draw, discarded without effect" in "\n".join(s.log)
    assert seat(s, 0)["vp"] == 0 and seat(s, 1)["vp"] == 0 and users(s, 1)[0]["lag"] == 0
    assert "gang-up" in seat(s, 0)["discard"]


def test_duel_one_attacker_then_the_opponent_chooses_the_defender():
    s = _challenge("fighting-game-duel", ["speedrun-sam"], ["lurker-lord", "flame-warden"])
    s.apply(("attacker", 0))
    assert s.to_act() == (1,) and s.position()["decision"] == "defender"
    play(s, ("defender", 1), ("pass",), ("pass",))
    # Speedrun Sam Gamer 6 + 1 = 7; Flame Warden Gamer 4 + 1 = 5
    assert "7 to 5: player 0 wins" in "\n".join(s.log) and seat(s, 0)["vp"] == 2


def test_team_any_attackers_then_the_opponent_chooses_any_defenders_bonus_per_user():
    s = _challenge("lan-party", ["speedrun-sam", "night-owl"], ["lurker-lord", "flame-warden", "tileset-thief"])
    play(s, ("attacker", 0), ("attacker", 1), ("done",))
    assert s.to_act() == (1,) and ("done",) not in s.legal_actions()
    play(s, ("defender", 1), ("defender", 2), ("done",), ("pass",), ("pass",))
    # attackers 6 + 2 + 1 x 2 = 10; defenders 4 + 3 + 1 x 2 = 9
    assert "10 to 9: player 0 wins" in "\n".join(s.log) and seat(s, 0)["vp"] == 3


def test_personal_no_defender_the_attacker_against_the_defense_value():
    s = _challenge("finish-the-game", ["script-kiddo"], ["lurker-lord"])
    s.apply(("attacker", 0))
    assert s.position()["decision"] == "window", "no Defender is chosen"
    play(s, ("pass",), ("pass",))
    # Script 6 + 1 + 1 (Script Kiddo attacking) = 8 against 7
    assert "8 to 7" in "\n".join(s.log) and seat(s, 0)["vp"] == 3
    s = _challenge("finish-the-game", ["night-owl"], ["lurker-lord"])
    play(s, ("attacker", 0), ("pass",), ("pass",))
    assert "3 to 7: the Defense Value holds" in "\n".join(s.log)
    assert users(s, 0)[0]["lag"] == 3 and seat(s, 1)["vp"] == 0, "the loser suffers; nobody scores"


def test_all_fail_both_negative_totals_both_sides_lose():
    # Collab Project (Script, -2 per Attacker and per Defender): Chibi Sage 1 - 2 = -1; Cosplay Kai immune 0 - 2 = -2
    s = _challenge("collab-project", ["chibi-sage"], ["cosplay-kai"])
    play(s, ("attacker", 0), ("done",), ("defender", 0), ("pass",), ("pass",))
    assert "-1 to -2: All-Fail" in "\n".join(s.log)
    assert users(s, 0)[0]["lag"] == 2 and users(s, 1)[0]["lag"] == 2, "both sides suffer the loser's effects"
    assert seat(s, 0)["vp"] == 0 and seat(s, 1)["vp"] == 0, "nobody wins"


def test_bonuses_on_other_cards_are_added_once_and_window_events_add_to_a_side():
    # Op Status (+2 attacking) on Flame Warden; Flame War (+3) played in the window
    s = _challenge("pm-war", [user("flame-warden", attached=["op-status"])], ["mod-hammer"],
                   hands=(["flame-war"], ["flame-war"]))
    play(s, ("attacker", 0), ("defender", 0))
    assert s.to_act() == (1,), "the defending player may play first"
    s.apply(("instant", "flame-war", 0))
    play(s, ("pass",))  # seat 0 does not React
    play(s, ("pass",), ("pass",))
    # 5 + 1 + 2 + 2 = 10 against 6 + 0 + 1 + 3 = 10
    assert "10 to 10" in "\n".join(s.log)


def test_each_user_attacks_in_at_most_one_challenge_a_turn():
    s = start(table(["flame-warden", user("bot-operator", syncing="pm-war", tokens=2),
                     user("nekopixel", syncing="spoiler-bomb", tokens=3)], ["lurker-lord"], decision="challenge"))
    play(s, ("challenge", 1), ("attacker", 0), ("defender", 0), ("pass",), ("pass",))
    s.apply(("challenge", 2))
    assert ("attacker", 0) not in s.legal_actions()
    assert ("attacker", 1) in s.legal_actions() and ("attacker", 2) in s.legal_actions()


# ---------------------------------------------------------------- 3.3.1 Reacts, 2.2.3 Events in the Challenge
def test_a_react_cancels_an_event_before_it_takes_effect():
    s = start(table(["nekopixel"], [user("mod-hammer")], hands=(["netsplit"], ["logs-or-it-didnt-happen"])))
    s.apply(("instant", "netsplit", 0, 0))
    assert s.to_act() == (1,) and ("instant", "logs-or-it-didnt-happen", 0) in s.legal_actions()
    s.apply(("instant", "logs-or-it-didnt-happen", 0))
    assert s.to_act() == (0,) and s.position()["decision"] == "react", "a React is an Event: it may be answered"
    s.apply(("pass",))
    assert users(s, 1)[0]["lag"] == 2, "Netsplit was cancelled; Mod Hammer only paid for the React"
    assert "netsplit" in seat(s, 0)["discard"] and s.to_act() == (0,)


def test_reacts_chain_and_resolve_last_in_first_out():
    """"Reacts are a special type of Event. ... Reacts are the only Events that can be played after a player
    has played an Event, but before that Event has taken effect": a React may answer a React."""
    s = start(table(["nekopixel", "flame-warden"], [user("mod-hammer")],
                    hands=(["netsplit", "ctrl-z"], ["logs-or-it-didnt-happen"])))
    s.apply(("instant", "netsplit", 0, 0))
    s.apply(("instant", "logs-or-it-didnt-happen", 0))
    assert s.to_act() == (0,) and ("instant", "ctrl-z", 1) in s.legal_actions()
    s.apply(("instant", "ctrl-z", 1))
    assert s.to_act() == (1,) and s.legal_actions() == (("pass",),), "P1 may answer in turn (with nothing left)"
    s.apply(("pass",))
    # last in, first out: Ctrl+Z cancels Logs, so Netsplit takes effect after all
    assert users(s, 1)[0]["lag"] == 2 + 3
    log = "\n".join(s.log)
    assert log.index("Logs or It Didn't Happen is cancelled") < log.index("Netsplit takes effect")


def test_an_event_played_during_a_challenge_may_be_reacted_to():
    """The React rule has no exception for a Challenge: an Event played in its window may be answered."""
    s = _challenge("pm-war", ["flame-warden"], ["speedrun-sam"], hands=(["ctrl-z"], ["flame-war"]))
    play(s, ("attacker", 0), ("defender", 0), ("instant", "flame-war", 0))
    assert s.to_act() == (0,) and s.position()["decision"] == "react"
    play(s, ("instant", "ctrl-z", 0), ("pass",))
    assert "Flame War is cancelled" in "\n".join(s.log) and s.position()["challenge"]["bonus"] == [0, 0]
    assert s.position()["decision"] == "window"


def test_reacts_are_only_played_in_answer_and_challenge_events_only_in_a_challenge():
    s = start(table(["nekopixel"], ["mod-hammer"], hands=(["ctrl-z", "flame-war", "walkthrough"], [])))
    assert not any(a[0] == "instant" for a in s.legal_actions()), "no React or Challenge Event in the Main Phase"


def test_rage_quit_discards_the_challenge_without_effect():
    s = _challenge("pm-war", ["flame-warden"], ["speedrun-sam"], hands=([], ["rage-quit"]))
    play(s, ("attacker", 0), ("defender", 0), ("instant", "rage-quit", 0), ("pass",))
    assert "cancelled by a React" in "\n".join(s.log)
    assert seat(s, 0)["vp"] == 0 and users(s, 1)[0]["lag"] == 3, "only Rage Quit's own cost"
    assert s.position()["decision"] == "challenge" and s.to_act() == (0,)


# ---------------------------------------------------------------- 2.2.4 Victory, 2.2.5 Draw
def test_victory_conditions_are_activated_in_the_victory_phase_when_fulfilled():
    s = start(table([user("nekopixel", syncing="full-channel", tokens=2), "night-owl"], ["lurker-lord"],
                    decision="victory"))
    assert "claim" not in verbs(s), "2 Users in play: Full Channel needs 3"
    s = start(table([user("nekopixel", syncing="full-channel", tokens=2), "night-owl", "newbie-noob"],
                    ["lurker-lord"], decision="victory"))
    s.apply(("claim", 0))
    assert seat(s, 0)["vp"] == 2 and seat(s, 0)["scored"] == ["full-channel"]
    s = start(table([user("nekopixel", syncing="full-channel", tokens=1), "night-owl", "newbie-noob"],
                    ["lurker-lord"], decision="victory"))
    assert "claim" not in verbs(s), "not yet Synced"


def test_both_players_may_activate_victory_conditions_in_the_victory_phase():
    s = start(table(["nekopixel"], [user("lurker-lord", syncing="clean-connection", tokens=1), "night-owl"],
                    decision="victory"))
    s.apply(("end",))
    assert s.to_act() == (1,) and ("claim", 0) in s.legal_actions()


def test_ten_victory_points_at_the_end_of_a_victory_phase_win():
    s = start(table(["nekopixel"], ["lurker-lord"], decision="victory", vp=(10, 3)))
    assert not s.is_terminal(), "checked at the end of the phase"
    play(s, ("end",), ("end",))
    assert s.outcome().winner == 0 and s.outcome().reason == "accomplishment"


def test_end_of_turn_effects_happen_before_the_draw():
    # Fansubber Rin clears 1 Lag at the end of the turn; Tileset Thief draws a card
    s = start(table([user("fansubber-rin", lag=2), "tileset-thief"], ["lurker-lord"], decision="victory",
                    decks=(["all-nighter", "ddos"], ["all-nighter"] * 5)))
    play(s, ("end",), ("end",))
    assert users(s, 0)[0]["lag"] == 1
    assert sorted(seat(s, 0)["hand"]) == ["all-nighter", "ddos"]
    assert s.log.index("  P0 draws 1") < len(s.log) - 1 and s.position()["active"] == 1


# ---------------------------------------------------------------- 2.3 winning and losing
def test_domination_the_opponent_has_no_users():
    s = _challenge("ban-vote", ["mod-hammer"], ["night-owl"])
    play(s, ("attacker", 0), ("defender", 0), ("pass",), ("pass",))
    assert s.outcome().winner == 0 and s.outcome().reason == "domination"


def test_pingout_every_opposing_user_has_bandwidth_0_for_good():
    s = start(table([user("nekopixel", syncing="ddos", tokens=5)], [user("night-owl"),
                    user("lurker-lord", ping=1, attached=["idle-script"])]))
    play(s, ("activate", 0, 0), ("pass",))
    assert s.outcome().winner == 0 and s.outcome().reason == "pingout", "an Attach's Bandwidth is not permanent"


def test_the_main_users_goal_wins_and_another_users_goal_does_not():
    # Tileset Thief's Goal: 11 cards in hand
    s = start(table(["tileset-thief"], ["lurker-lord"], hands=(["all-nighter"] * 10, []),
                    decks=(["all-nighter"] * 5, ["all-nighter"] * 5)))
    play(s, ("instant", "all-nighter", 0), ("pass",))
    assert not s.is_terminal(), "10 - 1 + 1 = 10 cards"
    s = start(table(["tileset-thief"], ["lurker-lord"], hands=(["download-complete"] + ["all-nighter"] * 9, [])))
    play(s, ("instant", "download-complete", 0), ("pass",))
    assert s.outcome().winner == 0 and s.outcome().reason == "goal"
    s = start(table(["lurker-lord", "tileset-thief"], ["lurker-lord"],
                    hands=(["download-complete"] + ["all-nighter"] * 9, [])))
    play(s, ("instant", "download-complete", 1), ("pass",))
    assert not s.is_terminal(), "Tileset Thief is not the Main User"


def test_simultaneous_victory_is_a_draw_decided_on_victory_points():
    # both reach 10 Victory Points in one Victory Phase
    s = start(table(["nekopixel"], ["lurker-lord"], decision="victory", vp=(11, 10)))
    play(s, ("end",), ("end",))
    assert s.outcome().winner == 0 and s.outcome().reason == "simultaneous"
    s = start(table(["nekopixel"], ["lurker-lord"], decision="victory", vp=(10, 10)))
    play(s, ("end",), ("end",))
    assert s.outcome().winner is None and s.outcome().reason == "simultaneous"


def test_both_goals_attained_by_one_all_fail_is_a_draw_decided_on_victory_points():
    # Mod Hammer's Goal: 14 Lag on opposing Users; Forum Troll's: 12. Collab Project's All-Fail puts 2 Lag on
    # each side at once: 10 -> 12 on seat 0's Users, 12 -> 14 on seat 1's
    for vp, winner in (((3, 1), 0), ((2, 2), None)):
        s = _challenge("collab-project", [user("mod-hammer", lag=5), user("chibi-sage", lag=5)],
                       [user("forum-troll", lag=6), user("cosplay-kai", lag=6)], vp=vp)
        play(s, ("attacker", 1), ("done",), ("defender", 1), ("pass",), ("pass",))
        assert "All-Fail" in "\n".join(s.log)
        assert s.outcome().reason == "simultaneous" and s.outcome().winner == winner


def test_both_decks_empty_compare_victory_points():
    s = start(table(["nekopixel"], ["lurker-lord"], decision="victory", decks=([], []), vp=(4, 6)))
    play(s, ("end",), ("end",))
    assert s.outcome().winner == 1 and s.outcome().reason == "decks empty"
    s = start(table(["nekopixel"], ["lurker-lord"], decision="victory", decks=([], []), vp=(4, 4)))
    play(s, ("end",), ("end",))
    assert s.outcome().winner is None and not s.outcome().capped


def test_turn_cap_is_a_capped_draw():
    s = start(table(["nekopixel"], ["lurker-lord"], decision="victory", turn=60))
    play(s, ("end",), ("end",))
    assert s.outcome().reason == "turn cap" and s.outcome().capped


# ---------------------------------------------------------------- hidden cards, positions, random play
def _random_game(seed: int, stop: int | None = None):

    from cardsmith.simulation.sets import load_checked_deck

    from rm2k_positions import CS, ROOT
    decks = [load_checked_deck(CS, p) for p in sorted((ROOT / "cards" / "rm2k-anime" / "decks").glob("*.yaml"))]
    rng = random.Random(seed)
    s = GAME.new_game(rng.sample(decks, 2), seed=seed)
    n = 0
    while not s.is_terminal() and (stop is None or n < stop):
        s.apply(rng.choice(s.legal_actions()))
        n += 1
    return s


def test_face_down_syncing_cards_and_hands_are_hidden_from_the_opponent():
    s = start(table([user("nekopixel", syncing="ddos", tokens=2)], ["lurker-lord"], hands=(["netsplit"], ["ctrl-z"])))
    mine, theirs = s.observation(0).data, s.observation(1).data
    assert mine["seats"][0]["users"][0]["syncing"] == "ddos" and mine["seats"][0]["hand"] == ["netsplit"]
    assert theirs["seats"][0]["users"][0]["syncing"] == HIDDEN and theirs["seats"][0]["users"][0]["tokens"] == 2
    assert theirs["seats"][0]["hand"] == [HIDDEN] and mine["seats"][1]["hand"] == [HIDDEN]


def test_sample_state_deals_hidden_cards_consistently_with_the_observation():
    for seed in range(6):
        s = _random_game(seed, stop=60 + 7 * seed)
        if s.is_terminal():
            continue
        for p in (0, 1):
            obs = s.observation(p)
            t = GAME.sample_state(obs, random.Random(seed))
            assert t.observation(p).data == obs.data
            assert sorted(t.observation(p).deck_lists[1 - p]) == sorted(obs.deck_lists[1 - p])


def test_sample_state_deals_face_down_starting_users_the_opponent_could_have_chosen():
    """The opponent's face-down picks were dealt from any of its Users: often over the budget, or the
    observer's own Main User, which a clash would have set aside (states the game never reaches)."""
    cost = lambda c: GAME.infos[c].cost  # noqa: E731
    s = GAME.new_game([DECK_A, DECK_B], chance=ScriptedChance(fallback=1))
    play(s, ("main", "night-owl"), ("main", "tileset-thief"))
    for k in range(40):  # seat 0 sees one face-down pick: any of seat 1's Users but its own night-owl
        t = GAME.sample_state(s.observation(0), random.Random(k))
        assert seat(t, 1)["picks"][0] != "night-owl"
        assert t.observation(0).data == s.observation(0).data
    s = GAME.new_game([DECK_A, DECK_B], chance=ScriptedChance(fallback=1))
    play(s, ("main", "chibi-sage"), ("main", "lurker-lord"), ("start", "night-owl"), ("start", "newbie-noob"), ("ready",))
    for k in range(40):  # three face-down picks of seat 0 within the budget of 8 (any three could cost 9)
        t = GAME.sample_state(s.observation(1), random.Random(k))
        picks = seat(t, 0)["picks"]
        assert len(picks) == 3 and sum(map(cost, picks)) <= 8
        assert sorted(picks + seat(t, 0)["deck"]) == sorted(seat(s, 0)["picks"] + seat(s, 0)["deck"])


def test_positions_read_back_through_yaml_and_play_on_alike():
    for seed in range(5):
        s = _random_game(seed, stop=40 + 11 * seed)
        text = dump_position(s.position())
        t = GAME.from_position(parse_position(text, "rm2k_anime"), chance=ScriptedChance(fallback=seed))
        assert t.position() == s.position() and t.legal_actions() == s.legal_actions()


def test_illegal_actions_are_refused():
    s = start(table(["nekopixel"], ["lurker-lord"], hands=(["netsplit"], [])))
    with pytest.raises(IllegalAction):
        s.apply(("pay", 0, 0))
    with pytest.raises(IllegalAction):
        s.apply(("end",), seat=1)


def test_random_games_end_without_error():
    reasons = set()
    for seed in range(25):
        s = _random_game(seed)
        assert s.is_terminal() and s.outcome() is not None
        reasons.add(s.outcome().reason)
    assert reasons <= {"goal", "accomplishment", "domination", "pingout", "decks empty", "simultaneous", "turn cap"}
