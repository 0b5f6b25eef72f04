"""TRF: The Card Game, clause by clause through the public game API (positions + scripted dice).

Each test names the sentence of the text it checks; docs/rules/trf.md quotes the readings chosen
for the ambiguous ones and points back here.
"""

from __future__ import annotations

import random

import pytest

from cardsmith.engine.chance import ScriptedChance
from cardsmith.engine.contract import IllegalAction
from cardsmith.sets.model import Deck
from tests.trf_positions import char, play, player, position, state, trf_game

# Tessaly (Dominion, Member) against Mira (Drifters, Mod): no weakness touches their fights.
A, D = "tessaly", "mira"
LIVE_DECK = ["heavy-cruiser-group"] * 3 + ["militia"] * 5


def duel(chars: list[dict], phase: str = "roleplay", p0: dict | None = None, p1: dict | None = None,
         rolls: list[int] = (), **kw) -> object:
    # Heavy cruisers at the bottom of each deck keep both homeworlds within reach (a table where
    # neither can ever be taken ends as a dead position: test_a_dead_position_is_a_draw).
    p0 = p0 or player(A, "kethra-prime", deck=LIVE_DECK, seat=0)
    p1 = p1 or player(D, "calder", deck=LIVE_DECK, seat=1)
    return state(position(p0, p1, chars=chars, phase=phase, **kw), rolls=rolls)


def deck(account: str, home: str, assets: dict[str, int]) -> Deck:
    return Deck("t", "trf", {"account": {account: 1}, "homeworld": {home: 1}, "assets": assets})


# --- setup ----------------------------------------------------------------------------------------

def test_setup_homeworld_face_up_six_cards_first_player_by_die():
    """"each player places their homeworld face-up ... draw a starting hand of six ... determined by a die roll"."""
    g = trf_game()
    decks = [deck("tessaly", "calder", {"militia": 20}), deck("mira", "aurel", {"patrol-squadron": 20})]
    s = g.new_game(decks, 0, chance=ScriptedChance(rolls=[4, 4, 2, 5]))  # tie, then seat 1 rolls higher
    assert s.active == 1 and s.d["first"] == 1
    for seat, home in ((0, "calder"), (1, "aurel")):
        p = s.d["p"][seat]
        assert [(pl["card"], pl["home"]) for pl in p["planets"]] == [(home, True)]
        # Mira is Shy (starts with five) and a Lurker: her first turn began with one more card
        assert len(p["hand"]) == 6
        assert s.observation(1 - seat)["p"][seat]["planets"][0]["card"] == home  # face up: the opponent sees it
    assert s.d["p"][0]["account"] == "tessaly"


def test_weakness_starts_with_five_cards():
    s = trf_game().new_game([deck("omnae", "calder", {"militia": 20}), deck("tessaly", "aurel", {"militia": 20})], 0,
                            chance=ScriptedChance(rolls=[1, 6]))
    assert len(s.d["p"][0]["hand"]) == 5


# --- the turn -------------------------------------------------------------------------------------

def test_may_draw_is_a_choice():
    """"a player may draw a card": drawing and not drawing are both legal."""
    s = duel([], phase="draw")
    assert ("draw",) in s.legal_actions() and ("pass",) in s.legal_actions()
    play(s, ("draw",))
    assert len(s.d["p"][0]["hand"]) == 1 and s.d["phase"] == "planet"


def test_up_to_one_planet_a_turn():
    """"put down up to one planet": after one, the turn moves on to buying."""
    s = duel([], phase="planet", p0=player(A, "kethra-prime", hand=["calder", "aurel"], seat=0))
    assert ("planet", "calder") in s.legal_actions() and ("pass",) in s.legal_actions()
    play(s, ("planet", "calder"))
    assert s.d["phase"] == "buy" and not [a for a in s.legal_actions() if a[0] == "planet"]
    assert [pl["card"] for pl in s.d["p"][0]["planets"]] == ["kethra-prime", "calder"]


def test_meters_buy_characters_and_cannot_be_saved():
    """"the amount of meters ... is determined by their planets. This total refills every turn, but cannot be saved up"."""
    hand = ["heavy-cruiser-group", "patrol-squadron", "militia"]
    s = duel([], phase="buy", p0=player(A, "kethra-prime", hand=hand, seat=0))  # Kethra Prime: 500 meters
    assert s.meters(0) == 500
    play(s, ("buy", "patrol-squadron"))  # 200
    assert s.meters(0) == 300
    assert ("buy", "heavy-cruiser-group") not in s.legal_actions()  # 500 > 300
    play(s, ("buy", "militia"), ("pass",), ("no_attack",), ("pass",))  # 200 meters left unspent
    play(s, ("pass",), ("pass",), ("pass",), ("no_attack",), ("pass",))  # the opponent's turn
    assert s.active == 0 and s.meters(0) == 500  # refilled to 500, not 700


def test_activated_planet_gives_nothing_that_turn():
    """"if an ability must be activated, that planet cannot be used that turn to buy characters or OOC powers"."""
    p0 = player(A, "kethra-prime", planets=["nyx-station"], deck=["militia"], seat=0)
    s = duel([], phase="buy", p0=p0)
    assert s.meters(0) == 700 and s.words(0) == 1000 + 2000 - 500  # Tessaly: 500 fewer words
    play(s, ("activate", 11))
    assert s.meters(0) == 500 and s.words(0) == 500
    assert s.d["p"][0]["hand"] == ["militia"]  # Nyx Station: draw a card


def test_planet_cannot_be_activated_once_its_resources_are_spent():
    p0 = player(A, "calder", planets=["nyx-station"], hand=["patrol-squadron", "militia"], seat=0)
    s = duel([], phase="buy", p0=p0)
    play(s, ("buy", "patrol-squadron"), ("buy", "militia"))  # 300 of 400 meters spent
    assert not [a for a in s.legal_actions() if a[0] == "activate"]


# --- roleplay: fleets and individuals ---------------------------------------------------------------

def test_individual_joins_a_fleet_once_a_turn_one_per_fleet():
    """"Only one individual can be combined with a fleet ... individuals may only join/leave a fleet once a turn"."""
    chars = [char(1, "patrol-squadron", 0), char(2, "mercenary-captain", 0), char(3, "wayfarer", 0)]
    s = duel(chars)
    play(s, ("join", 2, 1))
    assert ("leave", 2) not in s.legal_actions()  # it moved this turn
    assert ("join", 3, 1) not in s.legal_actions()  # the fleet already has an individual
    play(s, ("attack",))
    assert [a for a in s.legal_actions() if a[0] == "declare"] == [("declare", 1), ("declare", 3)]


def test_an_individual_bought_this_turn_holds_its_fleet_back():
    """A character "cannot attack on the same turn they are bought"; joined to a fleet it fights with it
    ("faces their combined strength"), so that fleet cannot attack this turn either."""
    p0 = player(A, "kethra-prime", hand=["mercenary-captain"], deck=["militia"] * 5, seat=0)
    s = duel([char(1, "militia", 0), char(2, "patrol-squadron", 0)], phase="buy", p0=p0)
    play(s, ("buy", "mercenary-captain"), ("pass",))
    captain = next(c["uid"] for c in s.d["chars"] if c["card"] == "mercenary-captain")
    play(s, ("join", captain, 1), ("attack",))
    assert [a for a in s.legal_actions() if a[0] == "declare"] == [("declare", 2)]


def test_a_resting_individual_holds_its_fleet_back_in_attack_and_defence():
    """"Any characters who participated in the battle cannot be used on the next player's turn to attack
    or defend": an individual resting this turn cannot ride a fleet into battle, nor block with one."""
    chars = [char(1, "militia", 0), char(2, "mercenary-captain", 0, rest=5), char(3, "patrol-squadron", 0)]
    s = duel(chars)
    play(s, ("join", 2, 1), ("attack",))
    assert [a for a in s.legal_actions() if a[0] == "declare"] == [("declare", 3)]
    defending = [char(1, "heavy-cruiser-group", 0), char(4, "militia", 1), char(5, "mercenary-captain", 1, rest=5, fleet=4),
                 char(6, "patrol-squadron", 1)]
    s = duel(defending)
    play(s, ("attack",), ("declare", 1), ("done",))
    assert {a[1] for a in s.legal_actions() if a[0] == "block"} == {6}


def test_joining_happens_only_before_attacks_are_declared():
    s = duel([char(1, "patrol-squadron", 0), char(2, "mercenary-captain", 0)])
    play(s, ("attack",))
    assert not [a for a in s.legal_actions() if a[0] in ("join", "leave")]


def test_visionary_uses_the_fleets_turn_too():
    """Regrad's Visionary "uses the fleet's turn as well as his, so neither can attack that turn"; he cannot leave after."""
    p0 = player("dolash", "azguard", deck=["militia"] * 4, seat=0)
    chars = [char(1, "azguard-warfleet", 0), char(2, "regrad", 0, fleet=1)]
    s = duel(chars, p0=p0)
    play(s, ("ability", 2))
    assert len(s.d["p"][0]["hand"]) == 2  # Visionary: draw two
    assert ("attack",) not in s.legal_actions()
    assert ("leave", 2) not in s.legal_actions()
    # "They can defend if another player attacks on their next turn"
    play(s, ("no_attack",), ("pass",))
    assert s.can_block(s.char(1))


# --- roleplay: OOC cards --------------------------------------------------------------------------

def test_ooc_paid_with_words_at_its_timing():
    """"use OOC attacks by spending words"; "None-combat cards, such as 5000 Words, must be used BEFORE any combat"."""
    p0 = player(A, "aurel", hand=["5000-words", "afterglow"], deck=["militia"] * 3, seat=0)
    s = duel([], p0=p0)
    assert ("ooc", "afterglow") not in s.legal_actions()  # post-combat only
    words = s.words(0)
    play(s, ("ooc", "5000-words"))
    assert s.words(0) == words - 1000 and len(s.d["p"][0]["hand"]) == 3
    assert "5000-words" in s.d["p"][0]["discard"]
    play(s, ("no_attack",))
    assert ("ooc", "afterglow") in s.legal_actions()  # "AFTER the fight" and before the turn ends


def test_ooc_needs_enough_words():
    p0 = player(A, "calder", hand=["ban-hammer"], seat=0)  # 1000 - 500 words; Ban Hammer 3000 (x2: not an Admin)
    s = duel([char(5, "militia", 1)], p0=p0)
    assert not [a for a in s.legal_actions() if a[0] == "ooc"]


# --- attacks and blocks ---------------------------------------------------------------------------

def test_attackers_not_bought_this_turn_and_not_spent():
    """"can attack with any characters they have played, so long as they were NOT bought this turn"."""
    chars = [char(1, "militia", 0), char(2, "militia", 0, bought=5), char(3, "militia", 0, rest=5)]
    s = duel(chars)
    play(s, ("attack",))
    assert [a for a in s.legal_actions() if a[0] == "declare"] == [("declare", 1)]


def test_all_attacks_declared_at_once():
    """"All attacks must happen at once ... any characters not sent in during the initial attack cannot attack any more"."""
    chars = [char(1, "militia", 0), char(2, "patrol-squadron", 0)]
    s = duel(chars)
    play(s, ("attack",), ("declare", 1), ("done",))
    assert s.to_act() == (1,) and s.d["phase"] == "block"
    play(s, ("done",))  # no blocks
    assert not [a for a in s.legal_actions() if a[0] == "declare"]


def test_defender_gangs_up_or_leaves_unblocked():
    """"The defender chooses which characters will fight who, and can choose to not block attackers or to gang up"."""
    chars = [char(1, "heavy-cruiser-group", 0), char(2, "militia", 0),
             char(5, "patrol-squadron", 1), char(6, "mercenary-captain", 1)]
    s = duel(chars, rolls=[3, 6, 1])
    play(s, ("attack",), ("declare", 1), ("declare", 2), ("done",))
    assert ("block", 5, 1) in s.legal_actions() and ("block", 5, 2) in s.legal_actions()
    play(s, ("block", 5, 1), ("block", 6, 1))
    assert not [a for a in s.legal_actions() if a[0] == "block" and a[1] in (5, 6)]  # one fight each
    play(s, ("done",))
    [fight] = s.d["fights"]
    assert fight["att"] == [1] and sorted(fight["def"]) == [5, 6]
    # a 3 resolves the fight: 4 + 6 against (2 + 3) + 1 -> the attacker wins, both blockers are discarded
    play(s, ("fight",))
    assert {c["uid"] for c in s.d["chars"]} == {1, 2}
    assert sorted(s.d["p"][1]["discard"]) == ["mercenary-captain", "patrol-squadron"]
    assert s.d["phase"] == "capture"  # the militia was not blocked


def test_blocked_fleet_with_individual_fights_both():
    """"any attempt to block the fleet means fighting the individual as well"."""
    chars = [char(1, "patrol-squadron", 0), char(2, "mercenary-captain", 0, fleet=1), char(5, "heavy-cruiser-group", 1)]
    s = duel(chars, rolls=[6, 1, 6])  # no bickering; 5 + 1 against 4 + 6
    play(s, ("attack",), ("declare", 1), ("done",), ("block", 5, 1), ("done",), ("fight",))
    assert {c["uid"] for c in s.d["chars"]} == {5}
    assert sorted(s.d["p"][0]["discard"]) == ["mercenary-captain", "patrol-squadron"]


# --- fights -----------------------------------------------------------------------------------------

def blocked_fight(rolls: list[int], a: str = "heavy-cruiser-group", d: str = "patrol-squadron"):
    s = duel([char(1, a, 0), char(5, d, 1)], rolls=rolls)
    return play(s, ("attack",), ("declare", 1), ("done",), ("block", 5, 1), ("done",), ("fight",))


def test_higher_total_wins_losers_discarded():
    """"the total combat value ... each side rolls a die, and adds that. The higher number wins, and the defeated cards are discarded"."""
    s = blocked_fight([3, 1, 4])  # 4 + 1 = 5 against 2 + 4 = 6
    assert [c["uid"] for c in s.d["chars"]] == [5]
    assert s.d["p"][0]["discard"] == ["heavy-cruiser-group"]


def test_tied_fight_is_rolled_again():
    """Reading: a tie has no "higher number", so both sides roll again."""
    s = blocked_fight([3, 2, 4, 5, 1])  # 4+2 = 2+4 tie; then 4+5 against 2+1
    assert [c["uid"] for c in s.d["chars"]] == [1]
    assert [e for e in s.log if "tied" in e]


def test_bickering_fight_stays_and_is_rolled_next_turn():
    """"on a one or two, the cards stay committed, but the fight is not resolved this turn ... Next turn, they may roll again"."""
    s = blocked_fight([2, 5, 6, 1])
    assert len(s.d["fights"]) == 1 and s.d["fights"][0]["bicker"]
    assert {c["uid"] for c in s.d["chars"]} == {1, 5}
    play(s, ("pass",))  # end of turn; the opponent's turn
    assert not s.can_attack(s.char(5))  # committed to the fight: nothing else
    play(s, ("pass",), ("pass",), ("pass",))
    assert ("attack",) not in s.legal_actions()
    play(s, ("no_attack",), ("fight",))  # the bickering fight is rolled in this turn's fight step
    assert [c["uid"] for c in s.d["chars"]] == [1] and not s.d["fights"]


def test_nobody_new_joins_a_bickering_fight_unless_a_card_allows():
    """"no new combatants may join that particular fight unless an OOC card specifically allows it" (Pile On)."""
    fight = {"seats": [0, 1], "att": [1], "def": [5], "bicker": True, "bonus": [0, 0]}
    chars = [char(1, "heavy-cruiser-group", 0), char(5, "patrol-squadron", 1), char(7, "militia", 1)]
    p1 = player(D, "calder", hand=["pile-on"], seat=1)
    s = duel(chars, phase="combat", p1=p1, active=1, fights=[fight], declared=[7])
    assert not [a for a in s.legal_actions() if a[0] == "ooc"]  # the militia is attacking elsewhere
    s = duel(chars, phase="combat", p1=p1, active=1, fights=[fight], rolls=[5, 1, 6])
    assert s.legal_actions() == (("ooc", "pile-on", 7, 0), ("fight",))
    play(s, ("ooc", "pile-on", 7, 0))
    assert s.d["fights"][0]["def"] == [5, 7]
    play(s, ("fight",))  # 4 + 1 against 2 + 1 + 6
    assert sorted(c["uid"] for c in s.d["chars"]) == [5, 7]


def test_winners_do_nothing_else_and_cannot_defend_next_turn():
    """"The winner can do nothing else that turn, and can't defend during the opposing player's turn"."""
    s = blocked_fight([6, 6, 1])
    c = s.char(1)
    assert c["done"] == 5 and c["rest"] == 6
    play(s, ("pass",))
    assert not s.can_block(s.char(1))


def test_blockers_who_fought_cannot_attack_on_their_next_turn():
    """"Any characters who participated in the battle cannot be used on the next player's turn to attack or defend"."""
    s = blocked_fight([6, 1, 6])
    play(s, ("pass",), ("pass",), ("pass",), ("pass",))
    assert ("attack",) not in s.legal_actions()


# --- capture ------------------------------------------------------------------------------------------

def unblocked(chars, p1=None, rolls=(), declare=(1,)):
    s = duel(chars, p1=p1, rolls=list(rolls))
    play(s, ("attack",), *[("declare", u) for u in declare], ("done",), ("done",), ("fight",))
    return s


def test_planets_shield_the_homeworld():
    """"To get to a player's homeworld, they must first capture any other planets that player has played"."""
    p1 = player(D, "calder", planets=["aurel"], seat=1)
    s = unblocked([char(1, "heavy-cruiser-group", 0)], p1=p1)
    assert [a for a in s.legal_actions() if a[0] == "assign"] == [("assign", 1, 21)]


def test_capture_total_equal_or_more_takes_the_planet_to_the_discard_pile():
    """"if it equals or exceeds it, the planet is taken"; "captured planets are transferred to the ... discard pile"."""
    p1 = player(D, "calder", planets=["lantern"], seat=1)  # Lantern: capture 3
    s = unblocked([char(1, "militia", 0), char(2, "patrol-squadron", 0)], p1=p1, declare=(1, 2))
    play(s, ("assign", 1, 21), ("assign", 2, 21), ("done",))
    assert [pl["card"] for pl in s.d["p"][1]["planets"]] == ["calder"]
    assert s.d["p"][1]["discard"] == ["lantern"]


def test_any_and_all_unblocked_characters_are_assigned():
    """"any and all unblocked characters are assigned to a planet or planets of the attacker's choice":
    the capture is worked out only once every unblocked fleet has a planet."""
    p1 = player(D, "calder", planets=["lantern"], seat=1)
    s = unblocked([char(1, "militia", 0), char(2, "patrol-squadron", 0)], p1=p1, declare=(1, 2))
    assert ("done",) not in s.legal_actions()
    play(s, ("assign", 1, 21))
    assert ("done",) not in s.legal_actions() and ("assign", 2, 21) in s.legal_actions()
    play(s, ("assign", 2, 21))
    assert s.legal_actions() == (("done",),) or s.d["phase"] != "capture"


def test_capture_total_too_low_fails_without_a_die():
    """"the capture total of the characters is simply tallied up, and no die is rolled. If it is too low, the planet is not taken"."""
    p1 = player(D, "calder", planets=["aurel"], seat=1)  # Aurel: capture 5
    s = unblocked([char(1, "heavy-cruiser-group", 0)], p1=p1)  # capture 4
    play(s, ("assign", 1, 21), ("done",))
    assert len(s.d["p"][1]["planets"]) == 2 and not [x for x in s.chance.asked if x[0] == "roll"]


def test_homeworld_uses_its_homeworld_value_and_taking_it_wins():
    """"Homeworlds use the homeworld value for their capture value"; "Play continues until one player's homeworld is taken"."""
    chars = [char(1, "heavy-cruiser-group", 0), char(2, "azguard-warfleet", 0)]  # capture 4 + 5 = 9
    s = unblocked(chars, declare=(1,))  # Calder: capture 4, homeworld 9
    play(s, ("assign", 1, 20), ("done",))
    assert not s.is_terminal() and len(s.d["p"][1]["planets"]) == 1
    s = unblocked(chars, declare=(1, 2))
    play(s, ("assign", 1, 20), ("assign", 2, 20), ("done",))
    assert s.is_terminal() and s.outcome().winner == 0 and s.outcome().reason == "homeworld taken"
    assert s.returns() == (1.0, 0.0)


def test_individuals_cannot_capture():
    """"Individuals, however, cannot take planets, they can only fight characters"."""
    s = unblocked([char(1, "mercenary-captain", 0)])
    assert s.d["phase"] == "post"


# --- costs, factions, titles and revival --------------------------------------------------------------

def test_own_faction_normal_same_alignment_double_opposite_never():
    """Dolash "can play any other lightside card for twice the price ... but he cannot use Darkside cards"."""
    hand = ["coalition-vanguard", "sith-raiders", "gash", "jedi-sentinels", "nomad-fleet", "militia"]
    s = duel([], phase="buy", p0=player("kaelis", "voluun", hand=hand, seat=0))  # Jedi; Affinity (Coalition)
    g = s
    assert g.char_cost(0, "jedi-sentinels") == 300
    assert g.char_cost(0, "coalition-vanguard") == 400  # Affinity: normal cost
    assert g.char_cost(0, "sith-raiders") is None
    assert g.char_cost(0, "gash") == 300  # a darkside Jedi, but Kaelis is a Jedi account
    s = duel([], phase="buy", p0=player("dolash", "voluun", hand=hand, seat=0))
    assert s.char_cost(0, "nomad-fleet") is None  # neutral: only "some cards will let him use Neutrals"
    assert s.char_cost(0, "gash") is None  # "The Coalition can generally pay double to employ Jedi characters ... but not Gash"
    assert s.char_cost(0, "militia") == 100
    legal = s.legal_actions()
    assert ("buy", "sith-raiders") not in legal and ("buy", "gash") not in legal


def test_gash_only_for_jedi_and_universal_accounts():
    """"Gash is a Jedi, but can only be played by a Jedi account due to his Darkside alignment"."""
    for account, cost in (("kaelis", 300), ("omnae", 300), ("dolash", None), ("xarn", None)):
        s = duel([], phase="buy", p0=player(account, "voluun", seat=0))
        assert s.char_cost(0, "gash") == cost, account


def test_neutral_account_pays_double_for_other_neutrals_only():
    s = duel([], phase="buy", p0=player("sable", "voluun", seat=0))  # Trade Guild
    assert [s.char_cost(0, c) for c in ("merchant-convoy", "nomad-fleet", "jedi-sentinels", "sith-raiders")] == [300, 600, None, None]


def test_universal_account_plays_anything():
    """"A universal account can play any card"."""
    s = duel([], phase="buy", p0=player("omnae", "voluun", seat=0))
    assert [s.char_cost(0, c) for c in ("sith-raiders", "jedi-sentinels", "nomad-fleet")] == [300, 300, 300]


def test_title_cards_cost_double_without_the_title():
    """"Mod cards cost double for those whos accounts are not mods or admins, and admin cards cost double for anyone but admins"."""
    costs = {}
    for account in ("dolash", "omnae", "xarn", "tessaly"):
        s = duel([], p0=player(account, "voluun", seat=0))
        costs[account] = [s.ooc_cost(0, c) for c in ("staff-ruling", "ban-hammer", "flame-war")]
    assert costs["dolash"] == [1500, 6000, 2000]  # Mod
    assert costs["omnae"] == [1500, 3000, 2000]  # Admin
    assert costs["xarn"] == [3000, 6000, 1000]  # Troublemaker
    assert costs["tessaly"] == [3000, 6000, 2000]


def test_revive_unique_at_double_cost_and_four_times_across_factions():
    """Unique characters: "pay double what they originally payed ... same alignment but a different faction ... four times"."""
    p0 = player("dolash", "voluun", planets=["kethra-prime"], discard=["marshal-tenebrae", "azguard-warfleet"], seat=0)
    s = duel([], phase="buy", p0=p0)  # 1100 meters
    assert ("revive", "azguard-warfleet") not in s.legal_actions()  # not Unique
    play(s, ("revive", "marshal-tenebrae"))  # 400 x 2
    assert s.meters(0) == 300 and [c["card"] for c in s.d["chars"]] == ["marshal-tenebrae"]
    assert ("revive", "marshal-tenebrae") not in s.legal_actions()
    p0b = player("tessaly", "kethra-prime", planets=["voluun", "cinder", "ferrogate"], discard=["darth-vexis"], seat=0)
    s = duel([], phase="buy", p0=p0b)  # Dominion: Sith is darkside, other faction: 500 x 2 x 2 = 2000
    assert s.meters(0) == 2100 and ("revive", "darth-vexis") in s.legal_actions()
    play(s, ("revive", "darth-vexis"))
    assert s.meters(0) == 100


# --- accounts, planets and persistent cards ----------------------------------------------------------

def test_account_ability_once_a_turn_in_roleplay():
    """"If an account card has an ability that can be 'activated' ... this ability is activated during the Roleplay phase"."""
    s = duel([], p0=player("omnae", "voluun", seat=0))
    words = s.words(0)
    play(s, ("account",))
    assert s.words(0) == words + 1000 and ("account",) not in s.legal_actions()
    assert ("account",) not in duel([], phase="buy", p0=player("omnae", "voluun", seat=0)).legal_actions()


def test_kneels_before_zod_against_a_veteran():
    """"Dolash's special weakness, 'Kneels before Zod', comes into play because Omnae is a Veteran"."""
    chars = [char(1, "heavy-cruiser-group", 0), char(5, "patrol-squadron", 1)]
    p0 = player("dolash", "voluun", seat=0)
    for foe, expected in (("omnae", 3), ("xarn", 4)):
        s = duel(chars, p0=p0, p1=player(foe, "calder", seat=1))
        play(s, ("attack",), ("declare", 1), ("done",), ("block", 5, 1), ("done",))
        from cardsmith.games.trf.fights import side_total
        assert side_total(s, s.d["fights"][0], 0) == expected


def test_azguard_discount_and_dolash_revival_by_discarding_two():
    """Azguard "makes Azguard cards cheaper. If it is your homeworld, and you are playing Dolash, you can revive any Azguard card by discarding two cards"."""
    p0 = player("dolash", "azguard", hand=["militia", "calder", "azguard-warfleet"], discard=["regrad"], seat=0)
    s = duel([], phase="buy", p0=p0)
    assert s.char_cost(0, "azguard-warfleet") == 400
    assert ("activate", 10, "regrad", "calder", "militia") in s.legal_actions()
    play(s, ("activate", 10, "regrad", "calder", "militia"))
    assert [c["card"] for c in s.d["chars"]] == ["regrad"]
    assert s.d["p"][0]["hand"] == ["azguard-warfleet"] and s.meters(0) == 0
    s = duel([], phase="buy", p0=player("kaelis", "azguard", hand=["militia", "calder"], discard=["regrad"], seat=0))
    assert not [a for a in s.legal_actions() if a[0] == "activate"]  # not Dolash


def test_persistent_card_stays_until_its_condition():
    """"Cards which say 'Persistent' remain in play until a condition the card specifies is met, or until another OOC card is used to counter it"."""
    p1 = player(D, "calder", planets=["lantern", "solace"], seat=1,
                persistent=[{"card": "thread-lock", "until": "planet_lost", "rank": 1}])
    s = unblocked([char(1, "heavy-cruiser-group", 0), char(2, "azguard-warfleet", 0)], p1=p1, declare=(1, 2))
    play(s, ("assign", 1, 21), ("assign", 2, 22), ("done",))  # Lantern 3+3 against 4: holds; Solace 5+3 against 5: holds
    assert len(s.d["p"][1]["planets"]) == 3 and s.d["p"][1]["persistent"]
    s = unblocked([char(1, "heavy-cruiser-group", 0), char(2, "azguard-warfleet", 0)], p1=p1, declare=(1, 2))
    play(s, ("assign", 1, 21), ("assign", 2, 21), ("done",))  # 9 against 6: taken, Thread Lock ends
    assert not s.d["p"][1]["persistent"] and "thread-lock" in s.d["p"][1]["discard"]


def test_counter_discards_a_persistent_card():
    p1 = player(D, "calder", seat=1, persistent=[{"card": "lurk-moar", "until": "countered", "rank": 1}])
    s = duel([], p0=player(A, "aurel", hand=["rule-lawyer"], seat=0), p1=p1)
    play(s, ("ooc", "rule-lawyer", 0))
    assert not s.d["p"][1]["persistent"] and "lurk-moar" in s.d["p"][1]["discard"]


def test_staff_ruling_doubles_and_admin_overrides_mod():
    """"Omnae is an Admin, meaning his Staff Ruling cards override Dolash's"."""
    p0 = player("omnae", "aurel", planets=["lantern"], hand=["staff-ruling", "5000-words"], seat=0)
    p1 = player("dolash", "calder", seat=1, persistent=[{"card": "staff-ruling", "until": "next_turn", "rank": 1}])
    s = duel([], p0=p0, p1=p1)
    assert s.ooc_cost(0, "5000-words") == 2000  # Dolash's ruling doubles Omnae's OOC
    play(s, ("ooc", "staff-ruling"))
    assert not s.d["p"][1]["persistent"] and s.ooc_cost(0, "5000-words") == 1000
    assert s.ooc_cost(1, "5000-words") == 2000
    # Dolash's ruling cannot override Omnae's: equal or lower rank leaves it
    p0 = player("dolash", "aurel", planets=["lantern"], hand=["staff-ruling"], seat=0)
    p1 = player("omnae", "calder", seat=1, persistent=[{"card": "staff-ruling", "until": "next_turn", "rank": 2}])
    s = duel([], p0=p0, p1=p1)
    play(s, ("ooc", "staff-ruling"))
    assert s.d["p"][1]["persistent"]


def test_staff_ruling_ends_at_its_owners_next_turn():
    p0 = player("dolash", "aurel", hand=["staff-ruling"], deck=["militia"] * 3, seat=0)
    s = duel([], p0=p0)
    play(s, ("ooc", "staff-ruling"), ("no_attack",), ("pass",))
    assert s.d["p"][0]["persistent"]
    play(s, ("pass",), ("pass",), ("pass",), ("no_attack",), ("pass",))
    assert not s.d["p"][0]["persistent"] and "staff-ruling" in s.d["p"][0]["discard"]


def test_back_from_vacation_returns_a_character_spent():
    p0 = player(A, "aurel", planets=["lantern"], hand=["back-from-vacation"], discard=["heavy-cruiser-group"], seat=0)
    s = duel([], phase="post", p0=p0)
    play(s, ("ooc", "back-from-vacation", "heavy-cruiser-group"))
    [c] = s.d["chars"]
    assert c["card"] == "heavy-cruiser-group" and c["rest"] == 6


# --- the contract: positions, clones, illegal actions, random games ---------------------------------

def test_position_round_trip_and_clone_independence():
    s = duel([char(1, "militia", 0)], rolls=[6, 6, 6])
    again = trf_game().from_position(s.position())
    assert again.position() == s.position()
    twin = s.clone()
    play(twin, ("attack",))
    assert s.d["phase"] == "roleplay" and twin.d["phase"] == "declare"


@pytest.mark.parametrize("change, words", [
    (lambda d: d["p"][0]["planets"].append({"uid": 99, "card": "no-such-planet", "home": False}), "planets\\[1\\].card: 'no-such-planet' is not a card"),
    (lambda d: d.update(phase="teleport"), "phase is 'teleport'"),
    (lambda d: d.update(turn="banana"), "turn is 'banana': it should be a whole number"),
    (lambda d: d.update(active=7), "active is 7: it should be a seat"),
    (lambda d: d["chars"][0].update(owner=5), "owner is 5: it should be a seat"),
])
def test_a_hand_edited_position_with_impossible_values_is_refused_with_what_is_wrong(change, words):
    """`play --from FILE` crashed with KeyError/TypeError/IndexError on these; now each is a PositionError."""
    from cardsmith.engine.contract import PositionError
    position = duel([char(1, "militia", 0)]).position()
    change(position)
    with pytest.raises(PositionError, match=words):
        trf_game().from_position(position)


def test_illegal_action_is_refused():
    s = duel([char(1, "militia", 0, bought=5)])
    with pytest.raises(IllegalAction):
        s.apply(("attack",))
    with pytest.raises(IllegalAction):
        s.apply(("no_attack",), seat=1)


def test_random_games_end_without_a_crash():
    """A small in-process driver of random legal play (the 1,000-game run is in benchmarks)."""
    from cardsmith.decks import load_deck
    from tests.trf_positions import ROOT

    g = trf_game()
    decks = [load_deck(f, g.cardset) for f in sorted((ROOT / "cards/trf/decks").glob("*.yaml"))]
    assert len(decks) >= 4
    for i in range(6):
        rng = random.Random(i)
        s = g.new_game([decks[i % 4], decks[(i + 1) % 4]], seed=i)
        steps = 0
        while not s.is_terminal():
            seat = s.to_act()[0]
            if steps % 50 == 0:
                obs = s.observation(seat)
                assert obs["p"][1 - seat]["hand"] == len(s.d["p"][1 - seat]["hand"])
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
        assert s.outcome() is not None and sum(s.returns()) == 1.0


def test_observation_hides_the_opponents_hand_and_both_decks():
    p0 = player(A, "aurel", hand=["militia", "calder"], deck=["gash", "regrad"], seat=0)
    p1 = player(D, "calder", hand=["ban-hammer"], deck=["lantern", "solace", "aurel"], seat=1)
    s = duel([], p0=p0, p1=p1)
    poisoned = duel([], p0={**p0, "deck": ["regrad", "gash"]}, p1={**p1, "hand": ["pile-on"], "deck": ["aurel"] * 3})
    assert s.observation(0) == poisoned.observation(0)
    assert s.observation(0)["p"][0]["hand"] == ["militia", "calder"]


def test_sample_state_deals_unseen_cards_consistently():
    g = trf_game()
    s = g.new_game([deck("dolash", "azguard", {"militia": 10, "regrad": 1, "calder": 5}),
                    deck("xarn", "dusk-hollow", {"sith-raiders": 10, "grimmark": 6})], seed=3)
    sample = g.sample_state(s.observation(0), random.Random(1))
    assert sample.d["p"][0]["hand"] == s.d["p"][0]["hand"]
    assert sorted(sample.d["p"][1]["hand"] + sample.d["p"][1]["deck"]) == sorted(s.d["p"][1]["hand"] + s.d["p"][1]["deck"])
    assert sample.legal_actions() == s.legal_actions()
    assert g.heuristic(s, 0) == -g.heuristic(s, 1)
