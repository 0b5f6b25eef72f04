"""Result events (issue 30, item 4): every resolution of a bundled game reports one event of kind
"result" whose data gives each side's total, the parts it is made of, and the winner (docs/engine.md,
"Result events"; the fields per game in docs/rules/<game>.md). Each test plays one resolution through
the public API (a position, scripted chance, `apply`) and checks the figures add up."""

from __future__ import annotations

from typing import Any

import pytest

from cardsmith.engine.contract import Event


def the_result(events: list[Event] | tuple[Event, ...], resolution: str) -> dict[str, Any]:
    """The one `result` event among `events`, checked for the shape every game shares."""
    results = [e for e in events if e.kind == "result"]
    assert len(results) == 1, f"one result event per resolution, got {[e.text for e in results]}"
    data = dict(results[0].data)
    assert data["resolution"] == resolution
    for side in data["sides"]:
        assert sum(side["parts"].values()) == side["total"], f"the parts of {side} do not add up"
        assert all(isinstance(v, int) for v in side["parts"].values())
    return data


def totals(data: dict[str, Any]) -> list[int]:
    return [side["total"] for side in data["sides"]]


def test_trf_fight_totals_are_combat_plus_a_die_and_the_higher_wins():
    """"each side rolls a die, and adds that. The higher number wins"."""
    from tests.trf_positions import char, player, position, state

    s = state(position(player("tessaly", "kethra-prime", seat=0, deck=["militia"] * 3),
                       player("mira", "calder", seat=1, deck=["militia"] * 3),
                       chars=[char(1, "heavy-cruiser-group", 0), char(5, "patrol-squadron", 1)]),
              rolls=[3, 1, 4])  # no bickering; 4 + 1 against 2 + 4
    for a in [("attack",), ("declare", 1), ("done",), ("block", 5, 1), ("done",)]:
        s.apply(a)
    data = the_result(s.apply(("fight",)), "fight")
    att, dfn = data["sides"]
    assert (att["seat"], att["role"], dfn["seat"], dfn["role"]) == (0, "attack", 1, "defend")
    assert att["parts"] == {"heavy-cruiser-group 1": 4, "cards": 0, "weakness": 0, "roll": 1}
    assert dfn["parts"]["roll"] == 4 and totals(data) == [5, 6]
    assert data["winner"] == 1, "the higher number wins"


def test_alien_empires_conflict_force_parts_and_a_tie_goes_to_the_defender():
    """"population tokens in stack + force card value + other race & card effects"; "The side with the
    highest force total wins" (a tie goes to the defender, docs/rules/alien-empires.md)."""
    from tests.alien_support import position, start

    st = start(position({"0,0": [3, 0], "1,0": [0, 2]}, hands=[["force-1"], ["force-2"]], deck=[]))
    # every later step has one way only (commit all, reveal the one Force card), so the game plays it
    events = st.apply(("attack", "1,0", 1))
    data = the_result(events, "conflict")
    att, dfn = data["sides"]
    assert att["parts"]["tokens"] == 3 and att["parts"]["force cards"] == 1
    assert dfn["parts"]["tokens"] == 2 and dfn["parts"]["force cards"] == 2
    assert totals(data) == [4, 4] and data["winner"] == dfn["seat"] == 1, "a tie goes to the defender"


def test_transwar_attack_parts_per_mode_and_the_attacker_wins_only_when_higher():
    """"if the attacker is doing a Combined Attack, his Base Attack value is added to each and every
    attack mode"; "If the defender's total was equal to or greater than the attacker's total: The
    defender won"."""
    from tests.transwar_support import play, position, start

    st = start(position(["tiger", "moose", "wolf"], [["1x-claw", "2x-bite", "1x-base-attack"], ["scream"], []]))
    if ("done",) in st.legal_actions():
        st.apply(("done",))
    st.apply(("attack", 1))
    while st.legal_actions()[-1] in (("ask_done",), ("ready",)):
        st.apply(st.legal_actions()[-1])
    play(st, ("mode", "claw+bite"), ("play", "1x-claw"), ("play", "2x-bite"), ("play", "1x-base-attack"))
    data = the_result(play(st, ("play", "scream")), "attack")
    att, dfn = data["sides"]
    assert att["parts"]["base (claw)"] == att["parts"]["base (bite)"] == 8  # base 4, doubled by the card
    assert (att["parts"]["claw"], att["parts"]["bite"]) == (10, 12)
    assert totals(data) == [38, 8] and dfn["parts"]["cards"] == 3  # Moose 5, Scream +3
    assert data["winner"] == att["seat"] == 0


def test_rm2k_challenge_parts_and_equal_totals_are_a_draw():
    """"The Attacker Bonus and Defender Bonus are added/subtracted for each User ... Any bonuses stated
    on other cards ... only once"; "If both player's scores are equal, the Challenge is a draw"."""
    from rm2k_positions import start, table, user

    s = start(table([user("flame-warden", attached=["op-status"]), user("bot-operator", syncing="pm-war", tokens=9)],
                    ["mod-hammer"], hands=(["flame-war"], ["flame-war"]), decision="challenge"))
    for a in [("challenge", 1), ("attacker", 0), ("defender", 0), ("instant", "flame-war", 0), ("pass",), ("pass",)]:
        s.apply(a)
    data = the_result(s.apply(("pass",)), "challenge")
    att, dfn = data["sides"]
    # Flame Warden 5, PM War's +1 per Attacker, Op Status +2 and the Warden's own +2 once each
    assert att["parts"] == {"flame-warden 0": 5, "challenge bonus": 1, "cards": 4, "events": 0}
    assert dfn["parts"] == {"mod-hammer 0": 6, "challenge bonus": 0, "cards": 1, "events": 3}  # Flame War +3
    assert totals(data) == [10, 10] and data["winner"] is None, "equal scores: a draw"


def test_rm2k_challenge_won_by_the_higher_total():
    from rm2k_positions import start, table, user

    s = start(table(["flame-warden", user("bot-operator", syncing="pm-war", tokens=2)], ["lurker-lord"],
                    decision="challenge"))
    for a in [("challenge", 1), ("attacker", 0), ("defender", 0), ("pass",)]:
        s.apply(a)
    data = the_result(s.apply(("pass",)), "challenge")
    att, dfn = totals(data)
    assert att != dfn and data["winner"] == (0 if att > dfn else 1)


def test_solar_empires_combat_won_by_the_fleet_left_standing():
    """The combat goes on until one fleet is destroyed or withdraws: its winner controls the planet."""
    from solar_positions import start, table

    s = start(table(stage="combat", ships=([("tcs-35-broadsword", 1), ("tcs-13-rapier", 1)], [("infected-shuttle", 1)]),
                    combat=[1]), rolls=[6, 6])
    assert s.decision().kind == "point_ship"
    s.apply(("point", 9, "tcs-35-broadsword"))
    data = the_result(s.apply(("damage", 9, "tcs-35-broadsword")), "combat")
    mine, theirs = data["sides"]
    assert mine["parts"] == {"tcs-35-broadsword": 1, "tcs-13-rapier": 1} and theirs["total"] == 0
    assert data["winner"] == 0 and data["position"] == 1 and data["shots"] == 2


@pytest.mark.parametrize("name", ["trf", "alien-empires", "transwar", "rm2k-anime", "solar-empires"])
def test_every_result_of_random_games_adds_up_and_names_the_larger_side(name):
    """Over whole games (several tables for TransWar, whose quick `totals` and its `parts` are kept
    apart): each result's parts sum to its totals, and a fight, attack or challenge is won by the side
    the rule names."""
    import random
    from pathlib import Path

    import cardsmith

    root = Path(__file__).resolve().parent.parent
    cs = cardsmith.load_set(root / "cards" / name)
    game = cardsmith.load_game(cs)
    decks = [cardsmith.load_deck(p, cs) for p in sorted((root / "cards" / name / "decks").glob("*.yaml"))]
    seen = 0
    for seed, seats in ((1, 2), (2, 3), (3, 4)) if name in ("transwar", "alien-empires") else ((1, 2), (2, 2)):
        state, rng = game.new_game((decks * seats)[:seats], seed), random.Random(seed)
        for _ in range(1500):
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            for e in state.apply(legal[rng.randrange(len(legal))], seat):
                if e.kind == "result":
                    data = the_result([e], e.data["resolution"])
                    _winner_by_the_rule(name, data)
                    seen += 1
    assert seen, f"{name}: random games resolve something"


def _winner_by_the_rule(name: str, data: dict[str, Any]) -> None:
    att, dfn = data["sides"]
    if name == "trf":  # "The higher number wins" (never a tie: a tie is rolled again)
        assert data["winner"] == max(data["sides"], key=lambda s: s["total"])["seat"] and att["total"] != dfn["total"]
    elif name == "transwar":  # "equal to or greater than the attacker's total: The defender won"
        assert data["winner"] == (att["seat"] if att["total"] > dfn["total"] else dfn["seat"])
        assert (data["attack"], data["defense"]) == (att["total"], dfn["total"])
    elif name == "rm2k-anime":  # higher wins; equal totals draw; both negative: All-Fail
        expected = None if att["total"] == dfn["total"] or (att["total"] < 0 and dfn["total"] < 0) else (
            att["seat"] if att["total"] > dfn["total"] else dfn["seat"])
        assert data["winner"] == expected
    elif name == "alien-empires" and data["decided_by"] == "total":  # higher wins, a tie to the defender
        assert data["winner"] == (att["seat"] if att["total"] > dfn["total"] else dfn["seat"])
    elif name == "alien-empires":  # Minimalist: the side with the lowest Force card (none: not lowest)
        low = [s["lowest force card"] for s in (att, dfn)]
        assert data["winner"] == (att["seat"] if low[1] is None or (low[0] is not None and low[0] < low[1]) else dfn["seat"])
    elif name == "solar-empires" and data["winner"] is not None:
        assert data["sides"][data["winner"]]["total"] > 0 and data["sides"][1 - data["winner"]]["total"] == 0
