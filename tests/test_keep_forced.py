"""Single-legal-action decisions stay visible on request (issue 30, item 3): `keep_forced=True` in
`new_game` and `from_position` makes every decision wait for its action (docs/engine.md, "Forced
decisions"); without it Alien Empires, TransWar and Solar Empires apply such decisions themselves."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardsmith
from cardsmith import ScriptedChance

ROOT = Path(__file__).resolve().parent.parent


def _game(name: str):
    return cardsmith.load_game(cardsmith.load_set(ROOT / "cards" / name))


ALIEN_TIE = {"game": "alien_empires", "format": 1, "seats": 2, "worlds": {"0,0": "sirius", "1,0": "vega"},
             "tokens": {"0,0": [3, 0], "1,0": [0, 2]}, "hands": [["force-1"], ["force-2"]], "deck": [],
             "stack": [{"kind": "@end_turn"}, {"kind": "@strategy", "seat": 0}, {"kind": "attack", "seat": 0}]}


def test_alien_empires_keeps_the_commit_and_the_reveal_of_a_conflict_with_one_way_each():
    game = _game("alien-empires")
    skipping = game.from_position(ALIEN_TIE, chance=ScriptedChance())
    skipping.apply(("attack", "1,0", 1))
    assert skipping.is_terminal(), "without the option every later step was forced: the conflict is over"
    state = game.from_position(ALIEN_TIE, chance=ScriptedChance(), keep_forced=True)
    state.apply(("attack", "1,0", 1))
    seen = []
    while not state.is_terminal():
        d = state.decision()
        legal = state.legal_actions(d.seats[0])
        assert len(legal) == 1, f"{d.kind}: {legal}"
        seen.append(d.kind)
        state.apply(legal[0], d.seats[0])
    assert seen[:2] == ["commit", "commit"] and "reveal" in seen
    assert state.outcome().winner == 1, "the same conflict, played step by step: the defender holds the tie"


def test_transwar_keeps_a_bookkeeping_with_nothing_to_do():
    pos = {"game": "transwar", "format": 1, "seats": 2, "forms": ["tiger", "sheep"],
           "hands": [["scream"], ["duck"]], "deck": ["duck"] * 5,
           "stack": [{"kind": "@end_turn"}, {"kind": "bookkeeping", "seat": 0}]}
    game = _game("transwar")
    assert game.from_position(pos, chance=ScriptedChance()).decision().kind == "action"
    state = game.from_position(pos, chance=ScriptedChance(), keep_forced=True)
    assert state.decision().kind == "bookkeeping" and state.legal_actions() == (("done",),)
    twin = state.clone()  # clones keep the option
    twin.apply(("done",))
    assert twin.decision().kind == "action" and state.decision().kind == "bookkeeping"


def test_solar_empires_keeps_a_point_ship_that_is_the_fleets_only_ship():
    pos = {"game": "solar_empires", "format": 1, "seats": 2, "turn": 3, "stage": "combat",
           "planets": [{"card": "terra-like-world"}, {"card": "gas-giant", "controller": 1}], "combat": {"pending": [1]},
           "players": [{"deck": ["tcs-13-rapier"] * 3, "ships": [{"card": "tcs-35-broadsword", "at": 1}]},
                       {"deck": ["drone"] * 3, "ships": [{"card": "infected-shuttle", "at": 1}]}]}
    game = _game("solar-empires")
    skipping = game.from_position(pos, chance=ScriptedChance(rolls=[6, 6]))
    assert skipping.position()["planets"][0]["controller"] == 0, "without the option the whole combat played itself"
    state = game.from_position(pos, chance=ScriptedChance(rolls=[6, 6]), keep_forced=True)
    seen = []
    while state.position()["planets"][0]["controller"] is None:
        d = state.decision()
        assert len(state.legal_actions()) == 1, f"{d.kind}: {state.legal_actions()}"
        seen.append(d.kind)
        state.apply(state.legal_actions()[0], d.seats[0])
    assert seen[:3] == ["combat_order", "point_ship", "point_ship"] and "place_damage" in seen
    assert state.position()["planets"][0]["controller"] == 0, "the same combat, played step by step"


@pytest.mark.parametrize("name", ["trf", "rm2k-anime"])
def test_trf_and_rm2k_ask_every_decision_with_or_without_the_option(name):
    cs = cardsmith.load_set(ROOT / "cards" / name)
    game = cardsmith.load_game(cs)
    decks = [cardsmith.load_deck(p, cs) for p in sorted((ROOT / "cards" / name / "decks").glob("*.yaml"))][:2]
    for keep in (False, True):
        state = game.new_game(decks, 3, keep_forced=keep)
        singles = _singles(state, random.Random(3))
        assert singles, f"{name}: decisions with one legal action are asked (keep_forced={keep})"


def _singles(state, rng: random.Random, steps: int = 400) -> list[str]:
    """The kinds of the decisions with one legal action met in `steps` random actions."""
    out = []
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            out.append(state.decision().kind)
        state.apply(legal[rng.randrange(len(legal))], seat)
    return out


@pytest.mark.parametrize("name", ["alien-empires", "transwar", "solar-empires"])
def test_a_new_game_with_the_option_shows_forced_decisions_the_default_game_skips(name):
    cs = cardsmith.load_set(ROOT / "cards" / name)
    game = cardsmith.load_game(cs)
    decks = [cardsmith.load_deck(p, cs) for p in sorted((ROOT / "cards" / name / "decks").glob("*.yaml"))]
    decks = (decks * 2)[:2]
    assert not _singles(game.new_game(decks, 5), random.Random(5)), "by default a forced decision is applied"
    assert _singles(game.new_game(decks, 5, keep_forced=True), random.Random(5))


def test_solar_empires_look_ahead_keeps_forced_decisions_too():
    """`peek` (a greedy agent's look-ahead, which lists no construction choices) leads where `apply`
    does when forced decisions are kept."""
    from cardsmith.engine.contract import peek

    cs = cardsmith.load_set(ROOT / "cards" / "solar-empires")
    game = cardsmith.load_game(cs)
    decks = [cardsmith.load_deck(p, cs) for p in sorted((ROOT / "cards" / "solar-empires" / "decks").glob("*.yaml"))][:2]
    state, rng = game.new_game(decks, 8, keep_forced=True), random.Random(8)
    for _ in range(150):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        looked, played = state.clone(), state.clone()
        peek(looked, action, seat)
        played.apply(action, seat)
        assert looked.position() == played.position() and looked.legal_actions() == played.legal_actions()
        state.apply(action, seat)
