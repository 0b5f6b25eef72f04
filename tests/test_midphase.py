"""Positions start at any decision a game has (issue 30, item 5): each game's docs/rules page,
"Starting mid-phase", gives the entries per decision and an example; these tests enter them through
`Game.from_position` and check the decision the game then waits for, by `state.decision().kind`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardsmith
from cardsmith import ScriptedChance
from cardsmith.engine.kit import parse_position

ROOT = Path(__file__).resolve().parent.parent


def _game(name: str):
    return cardsmith.load_game(cardsmith.load_set(ROOT / "cards" / name))


@pytest.mark.parametrize("name,kind,seats", [
    ("trf", "block", (1,)), ("alien-empires", "reveal", (0,)), ("transwar", "cards", (0,)),
    ("solar-empires", "place_damage", (1,)), ("rm2k-anime", "window", (1,)),
])
def test_the_documented_mid_phase_example_starts_at_its_decision(name, kind, seats):
    page = (ROOT / "docs" / "rules" / f"{name}.md").read_text()
    section = page[page.index("### Starting mid-phase"):]
    example = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert example, f"docs/rules/{name}.md, Starting mid-phase, has no example"
    state = _game(name).from_position(parse_position(example.group(1)), chance=ScriptedChance(fallback=1))
    d = state.decision()
    assert (d.kind, d.seats) == (kind, seats)
    state.apply(state.legal_actions(seats[0])[0], seats[0])  # and it plays on


TRF_BASE = {
    "game": "trf", "format": 1, "seats": 2, "turn": 5, "active": 0,
    "p": [{"account": "tessaly", "homeworld": "kethra-prime", "planets": [{"uid": 10, "card": "kethra-prime", "home": True}],
           "deck": ["militia"] * 3},
          {"account": "mira", "homeworld": "calder", "planets": [{"uid": 20, "card": "calder", "home": True}],
           "deck": ["militia"] * 3}],
    "chars": [{"uid": 1, "card": "heavy-cruiser-group", "owner": 0, "bought": 1},
              {"uid": 5, "card": "patrol-squadron", "owner": 1, "bought": 1}]}
FIGHT = {"seats": [0, 1], "att": [1], "def": [5], "bicker": False, "bonus": [0, 0]}


@pytest.mark.parametrize("phase,extra,first", [
    ("draw", {}, ("draw",)), ("planet", {}, ("pass",)), ("buy", {}, ("pass",)), ("roleplay", {}, ("attack",)),
    ("declare", {"declared": []}, ("declare", 1)), ("block", {"declared": [1]}, ("block", 5, 1)),
    ("combat", {"declared": [1], "blocks": [[5, 1]], "fights": [FIGHT]}, ("fight",)),
    ("capture", {"declared": [1]}, ("assign", 1, 20)), ("post", {}, ("pass",)),
])
def test_trf_every_step_of_the_turn_is_entered_by_its_phase(phase, extra, first):
    state = _game("trf").from_position({**TRF_BASE, "phase": phase, **extra}, chance=ScriptedChance())
    assert state.decision().kind == phase and state.legal_actions()[0] == first


def _alien(stack: list, conflict: dict | None = None, hands=(["force-1", "force-3"], ["force-2"]), here: int = 0):
    pos = {"game": "alien_empires", "format": 1, "seats": 2, "worlds": {"0,0": "sirius", "1,0": "vega"},
           "tokens": {"0,0": [3, 0], "1,0": [here, 2]}, "hands": [list(h) for h in hands], "deck": ["windfall"] * 5,
           "stack": stack, "conflict": conflict}
    return _game("alien-empires").from_position(pos, chance=ScriptedChance())


TURN = [{"kind": "@end_turn"}, {"kind": "@strategy", "seat": 0}, {"kind": "attack", "seat": 0}]


def test_alien_empires_phases_and_a_conflict_are_entered_from_the_stack():
    assert _alien(TURN).decision().kind == "attack"
    assert _alien(TURN + [{"kind": "migrate", "seat": 0}]).decision().kind == "migrate"
    conflict = {"hex": "1,0", "attacker": 0, "defender": 1}
    begun = TURN + [{"kind": k} for k in ("@resolve", "@reveal")] + [{"kind": "cards", "seat": 0}] + [
        {"kind": k} for k in ("@start_late", "@start_autos", "@start_early", "@defender_draws", "@allies")] + [
        {"kind": "commit", "seat": 1}, {"kind": "commit", "seat": 0}]
    st = _alien(begun, conflict, here=1)  # a token in the contested space too: "all" or "here" is a choice
    assert st.decision().kind == "commit" and st.decision().seats == (0,)
    # only hex, attacker and defender were written: the conflict's other entries took their defaults
    c = st.position()["conflict"]
    assert c["side"] == ["A", "D"] and c["bonus"] == {"A": 0, "D": 0} and c["base"] == len(TURN)
    st = _alien(TURN + [{"kind": "@resolve"}, {"kind": "@reveal"}], {**conflict, "commit": [{"0,0": 3}, {"1,0": 2}]})
    assert st.decision().kind == "reveal"
    events = st.apply(("reveal", "force-3"), 0)
    assert [e.data["winner"] for e in events if e.kind == "result"] == [0]  # 3 + 3 against 2 + 2


def test_a_conflict_entry_without_its_seats_is_an_error_naming_them():
    with pytest.raises(cardsmith.engine.contract.PositionError, match="attacker, defender"):
        _alien(TURN, {"hex": "1,0"})


TW_BASE = {"game": "transwar", "format": 1, "seats": 2, "active": 0, "forms": ["tiger", "sheep"], "damage": [0, 7],
           "hands": [["1x-claw", "2x-bite", "scream"], ["rat", "rabbit", "duck"]], "deck": ["duck"] * 5}
END = {"kind": "@end_turn"}


@pytest.mark.parametrize("extra,kind", [
    ({"stack": [END, {"kind": "action", "seat": 0}]}, "action"),
    ({"stack": [END, {"kind": "@attack", "seat": 0, "target": 1}]}, "mode"),
    ({"stack": [END, {"kind": "going_out", "seat": 1}], "damage": [0, 13]}, "going_out"),
    ({"stack": [END, {"kind": "take", "seat": 1, "victim": 0}]}, "take"),
    ({"stack": [END, {"kind": "pay", "seat": 0, "n": 1, "why": "a test"}]}, "pay"),
    ({"stack": [END, {"kind": "first_form", "seat": 1}], "forms": ["tiger", None], "started": [True, False]},
     "first_form"),
])
def test_transwar_decisions_are_entered_from_the_stack(extra, kind):
    state = _game("transwar").from_position({**TW_BASE, **extra}, chance=ScriptedChance())
    assert state.decision().kind == kind


SOLAR_BASE = {"game": "solar_empires", "format": 1, "turn": 3, "stage": "combat",
              "planets": [{"card": "terra-like-world"}, {"card": "gas-giant"}],
              "players": [{"deck": ["tcs-13-rapier"] * 3,
                           "ships": [{"card": "tcs-35-broadsword", "at": 1}, {"card": "tcs-13-rapier", "at": 1}]},
                          {"deck": ["drone"] * 3,
                           "ships": [{"card": "infected-shuttle", "at": 1}, {"card": "drone", "at": 1}]}]}
POINTS = [[0, "ships", 0], [1, "ships", 0]]


@pytest.mark.parametrize("kind,seat,combat", [
    ("point_ship", 0, {"position": 1, "step": "point"}),
    ("fire_or_withdraw", 0, {"position": 1, "step": "choice", "point": POINTS, "shots": 2, "first": 0}),
    ("place_damage", 1, {"position": 1, "step": "place", "point": POINTS, "attacker": 0, "damage_left": 3}),
])
def test_solar_empires_combat_decisions_are_entered_at_their_step(kind, seat, combat):
    pos = {**SOLAR_BASE, "decision": {"kind": kind, "seat": seat}, "combat": combat}
    state = _game("solar-empires").from_position(pos, chance=ScriptedChance())
    assert state.decision().kind == kind and state.decision().seats == (seat,)


def test_solar_empires_combat_order_is_entered_with_the_pending_combats():
    players = [{"deck": ["tcs-13-rapier"] * 3, "ships": [{"card": "tcs-35-broadsword", "at": 1}, {"card": "tcs-13-rapier", "at": 2}]},
               {"deck": ["drone"] * 3, "ships": [{"card": "infected-shuttle", "at": 1}, {"card": "drone", "at": 2}]}]
    pos = {**SOLAR_BASE, "players": players, "decision": {"kind": "combat_order", "seat": 0}, "combat": {"pending": [1, 2]}}
    state = _game("solar-empires").from_position(pos, chance=ScriptedChance())
    assert state.decision().kind == "combat_order" and state.legal_actions() == (("combat", 1), ("combat", 2))


RM_BASE = {"game": "rm2k_anime", "format": 1, "turn": 3, "active": 0,
           "seats": [{"deck": ["all-nighter"] * 3, "users": [{"card": "flame-warden"}]},
                     {"deck": ["all-nighter"] * 3, "users": [{"card": "lurker-lord"}]}]}


@pytest.mark.parametrize("extra,kind,seat", [
    ({"stage": "challenge", "decision": "attackers", "challenge": {"card": "pm-war", "seat": 0}}, "attackers", 0),
    ({"stage": "challenge", "decision": "defender", "actor": 1, "challenge": {"card": "pm-war", "seat": 0, "att": [0]}},
     "defender", 1),
    ({"stage": "main", "decision": "react", "actor": 1, "pending": {"seat": 0, "card": "netsplit", "target": 0}},
     "react", 1),
    ({"stage": "lag", "decision": "distribute_lag", "lag_left": 2}, "distribute_lag", 0),
    ({"stage": "victory", "decision": "victory"}, "victory", 0),
])
def test_rm2k_decisions_are_entered_with_their_entries(extra, kind, seat):
    state = _game("rm2k-anime").from_position({**RM_BASE, **extra}, chance=ScriptedChance(fallback=1))
    assert state.decision().kind == kind and state.decision().seats == (seat,)


def test_rm2k_a_react_entered_by_hand_resolves_back_to_the_main_phase():
    pos = {**RM_BASE, "stage": "main", "decision": "react", "actor": 1, "pending": {"seat": 0, "card": "netsplit", "target": 0}}
    state = _game("rm2k-anime").from_position(pos, chance=ScriptedChance(fallback=1))
    state.apply(("pass",))  # `resume` was left out: the Event takes effect and seat 0's Main Phase goes on
    assert state.decision().kind == "main" and state.decision().seats == (0,)
