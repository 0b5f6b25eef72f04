"""TRF: clauses an outside checker would try, each built as a position and played through the
public API (`legal_actions`, `apply`, `outcome`), beside the clause-by-clause tests in
test_trf_rules.py. Each test quotes its sentence of the text."""

from __future__ import annotations

from tests.test_trf_rules import D, duel
from tests.trf_positions import char, play, player


def test_choosing_to_attack_moves_at_least_one_character_forward():
    """"If a player does choose to attack, they move their chosen attacking characters forwards":
    once `attack` is chosen the turn cannot go on until a character is declared (attacking with
    nobody would be `no_attack` by another name, and the log read "attacks with 0")."""
    s = duel([char(1, "militia", 0)])
    play(s, ("attack",))
    assert s.legal_actions() == (("declare", 1),)
    play(s, ("declare", 1))
    assert s.legal_actions() == (("done",),)


def test_a_blocked_attacker_that_wins_its_fight_takes_no_planet():
    """"Any attackers that were not blocked may attack planets": the Heavy Cruiser Group beats its
    blocker (a 6 resolves the fight, then 4 + 6 against 2 + 1), but only the unblocked Militia may be
    sent against a planet."""
    chars = [char(1, "heavy-cruiser-group", 0), char(2, "militia", 0), char(5, "patrol-squadron", 1)]
    s = duel(chars, p1=player(D, "calder", planets=["lantern"], seat=1), rolls=[6, 6, 1])
    play(s, ("attack",), ("declare", 1), ("declare", 2), ("done",), ("block", 5, 1), ("done",), ("fight",))
    assert [c["uid"] for c in s.d["chars"]] == [1, 2]  # the blocker is discarded
    assert [a for a in s.legal_actions() if a[0] == "assign"] == [("assign", 2, 21)]


def test_a_die_of_one_or_two_bickers_and_three_resolves():
    """"on a one or two, the cards stay committed, but the fight is not resolved this turn"."""
    for roll, bickers in ((1, True), (2, True), (3, False)):
        chars = [char(1, "heavy-cruiser-group", 0), char(5, "patrol-squadron", 1)]
        s = duel(chars, rolls=[roll] if bickers else [roll, 6, 1])
        play(s, ("attack",), ("declare", 1), ("done",), ("block", 5, 1), ("done",), ("fight",))
        assert bool(s.d["fights"]) is bickers, roll
        assert len(s.d["chars"]) == (2 if bickers else 1), roll


def test_the_homeworld_falls_to_a_capture_total_equal_to_its_homeworld_value():
    """"if it equals or exceeds it, the planet is taken" also holds for the homeworld value: Calder
    (homeworld 9) falls to exactly 9 (Heavy Cruiser Group 4 + Azguard Warfleet 5), and the game ends
    with the attacker's win."""
    chars = [char(1, "heavy-cruiser-group", 0), char(2, "azguard-warfleet", 0)]
    s = duel(chars)
    play(s, ("attack",), ("declare", 1), ("declare", 2), ("done",), ("done",), ("fight",))
    play(s, ("assign", 1, 20), ("assign", 2, 20), ("done",))
    assert s.is_terminal() and s.outcome().winner == 0 and s.to_act() == ()
