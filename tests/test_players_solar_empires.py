"""Solar Empires' own players: the ladder is declared, each rung beats the one below on fixed seeds,
and the expert decides from its observation alone. (The figures over hundreds of games are in
docs/rules/solar-empires.md, "Players"; the test only pins the order.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardsmith.engine.agents import make_agent, parse_agent_spec
from cardsmith.engine.registry import load_game
from tests.players_support import wins as shared_wins
from cardsmith.games.solar_empires import RULES
from cardsmith.games.solar_empires.names import DEPLOY
from cardsmith.games.solar_empires.players import deployment
from cardsmith.sets.validate import load_set
from cardsmith.simulation.sets import load_checked_deck

SET = Path(__file__).resolve().parents[1] / "cards" / "solar-empires"


@pytest.fixture(scope="module")
def se():
    cardset = load_set(SET)
    game = load_game(cardset)
    decks = {n: load_checked_deck(cardset, SET / "decks" / f"{n}.yaml") for n in ("terracorp", "chain", "shadow")}
    return game, decks


def wins(game, deck, a: str, b: str, games: int, seed: int = 100) -> int:
    """Games `a` wins against `b` on mirror decks, seats alternating."""
    return shared_wins(game, deck, a, b, games, seed=seed)


def test_the_ladder_is_declared_and_every_rung_resolves(se):
    game, _ = se
    assert RULES.ladder == ("random", "greedy", "expert")
    assert RULES.competent_player() == "expert"
    for spec in RULES.ladder:
        name, opts = parse_agent_spec(spec, RULES)
        assert make_agent(name, game, **opts) is not None


@pytest.mark.parametrize("a, b, games, least", [
    ("expert", "random", 10, 9),   # 201 of 201 over the three sample decks
    ("expert", "greedy", 16, 11),  # 89% of 201
    ("greedy", "random", 16, 9),   # 71% of 201
])
def test_each_rung_beats_the_one_below(se, a, b, games, least):
    game, decks = se
    won = sum(wins(game, decks[d], a, b, games // 2, seed=300 + k) for k, d in enumerate(("terracorp", "shadow")))
    assert won >= least, f"{a} won {won} of {games} against {b}"


def _deploy_state(game, decks, seed):
    state = game.new_game([decks["terracorp"], decks["chain"]], seed)
    rng = random.Random(seed)
    while state.dec != DEPLOY or state.turn < 2 or len(state.legal_actions()) < 4:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_deployment_plan_sends_a_ship_to_each_free_planet_and_outweighs_the_defence(se):
    game, decks = se
    state = _deploy_state(game, decks, 7)
    me = state.to_act()[0]
    plan = deployment(state, me)
    reserve = [i for i in state.ships[me] if state.at[i] < 0]
    assert plan and {i for i, _ in plan} <= set(reserve)
    assert len({i for i, _ in plan}) == len(plan)  # no ship twice
    targets = {pos for _, pos in plan}
    assert all(state.planet[pos] >= 0 and pos not in state.flare for pos in targets)


def test_the_expert_decides_from_its_observation_alone(se):
    game, decks = se
    state = _deploy_state(game, decks, 11)
    me = state.to_act()[0]
    obs = state.observation(me)
    other = game.sample_state(obs, random.Random(99))  # another truth behind the same observation
    assert other.legal_actions() == state.legal_actions()
    a = make_agent("expert", game).act(obs, state.legal_actions(me), random.Random(1), me)
    b = make_agent("expert", game).act(other.observation(me), other.legal_actions(me), random.Random(1), me)
    assert a == b and a in state.legal_actions()
