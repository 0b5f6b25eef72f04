"""#rm2k_anime's own players: the ladder is declared, each rung beats the one below on fixed seeds,
the expert's Main User comes from its observation alone. (Figures over hundreds of games:
docs/rules/rm2k-anime.md, "Players"; the test only pins the order.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardsmith.games.rm2k_anime.players as players
from cardsmith.engine.agents import make_agent, parse_agent_spec
from cardsmith.engine.registry import load_game
from tests.players_support import wins as shared_wins
from cardsmith.games.rm2k_anime import RULES
from cardsmith.sets.validate import load_set
from cardsmith.simulation.sets import load_checked_deck

SET = Path(__file__).resolve().parents[1] / "cards" / "rm2k-anime"
DECKS = ("flame-war", "otaku-convention", "script-gamers")


@pytest.fixture(scope="module")
def rm():
    cardset = load_set(SET)
    game = load_game(cardset)
    return game, {n: load_checked_deck(cardset, SET / "decks" / f"{n}.yaml") for n in DECKS}


def wins(game, deck, a: str, b: str, games: int, seed: int) -> int:
    """Games `a` wins against `b` on mirror decks, seats alternating."""
    return shared_wins(game, deck, a, b, games, seed=seed)


def test_the_ladder_is_declared_and_every_rung_resolves(rm):
    game, _ = rm
    assert RULES.ladder == ("random", "greedy", "expert")
    assert RULES.competent_player() == "expert"
    for spec in RULES.ladder:
        name, opts = parse_agent_spec(spec, RULES)
        assert make_agent(name, game, **opts) is not None


@pytest.mark.parametrize("a, b, games, least", [
    ("greedy", "random", 18, 10),             # 75% of 201 over the three sample decks
    ("expert", "random", 12, 10),             # 96% of 201
    ("expert", "greedy", 18, 11),             # 76% of 201
])
def test_each_rung_beats_the_one_below(rm, a, b, games, least):
    game, decks = rm
    won = sum(wins(game, decks[d], a, b, games // 3, seed=500 + 100 * k) for k, d in enumerate(DECKS))
    assert won >= least, f"{a} won {won} of {games} against {b}"


def test_the_expert_chooses_the_main_user_that_wins_most_playouts(rm):
    game, decks = rm
    state = game.new_game([decks["script-gamers"], decks["script-gamers"]], 3)
    obs, legal = state.observation(0), state.legal_actions(0)
    players._OPENINGS.clear()
    first = players.choose_main_user(game, obs, legal, 0, 8)
    players._OPENINGS.clear()
    assert players.choose_main_user(game, obs, legal, 0, 8) == first  # a function of the decision alone
    # Tileset Thief (Goal: hold 11 cards; draws a card at the end of every turn) wins most games here.
    assert first == ("main", "tileset-thief")


def test_the_expert_decides_from_its_observation_alone(rm):
    game, decks = rm
    state = game.new_game([decks["flame-war"], decks["otaku-convention"]], 5)
    state.apply(state.legal_actions(0)[0], 0)  # seat 0 chooses a Main User face down
    obs = state.observation(1)
    other = game.sample_state(obs, random.Random(99))  # another Main User behind the same observation
    assert other.legal_actions(1) == state.legal_actions(1)
    a = make_agent("expert", game).act(obs, state.legal_actions(1), random.Random(1), 1)
    b = make_agent("expert", game).act(other.observation(1), other.legal_actions(1), random.Random(1), 1)
    assert a == b and a in state.legal_actions(1)
