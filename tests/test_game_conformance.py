"""Every registered game keeps the game contract (KIT item 12).

The games: every bundled package and installed entry point, plus the engine's test game (Skirmish)
and the tutorial's game (Tide Pool), registered here. Each plays with decks of a set that names it:
the bundled sets under cards/, the test fixtures and the tutorial's example set. For each game and
for its smallest and largest table: random games end; clones are independent; (seed, actions)
replays the game; an action not offered, an offered action edited, or an action for a seat not to
act is refused and changes nothing; observations share nothing with the state, and a
determinization (the hidden cards dealt otherwise) shows the seat the same observation; positions
read back; returns sum to N/2; `play.turn_cap` ends a game as a capped draw; every optional hook a
game offers (contract.StateHooks, GameHooks) keeps its promise; a determinization gives no seat a
card it could not hold (per-seat decks); random play from determinizations (decks in turn, and a
mirror) never meets a seat to act with no legal action. The checks are
`cardsmith.simulation.conformance`'s, which `cardsmith check-game SET` runs on any set. A game installed in this environment that has no set
here is skipped (run `cardsmith check-game` on your own set).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cardsmith.engine.checks import deck_problems, hook_problems, playout_problems, protocol_problems
from cardsmith.engine.contract import Outcome, RulesModule
from cardsmith.engine.kit import dump_position, parse_position
from cardsmith.engine.registry import canonical, get_rules, known_games, register
from cardsmith.simulation.conformance import LARGEST_TABLE_TURN_CAP, PLAYOUT_SEEDS, capped_game, tables

ROOT = Path(__file__).resolve().parents[1]
SET_FOLDERS = [ROOT / "cards", ROOT / "tests" / "fixtures", ROOT / "docs" / "examples"]


def _register_extra_games() -> None:
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "docs" / "examples" / "tide_pool"), str(ROOT / "docs" / "examples" / "orchard")]
    import cardsmith_orchard
    import cardsmith_tide_pool
    import engine_testgame

    for rules in (engine_testgame.RULES, cardsmith_tide_pool.RULES, cardsmith_orchard.RULES):
        if canonical(rules.name) not in known_games():
            register(rules)


_register_extra_games()
GAMES = known_games()


def sets_of(name: str) -> list[Path]:
    """Set folders (with at least one deck file) whose set.yaml names the game `name`."""
    import yaml

    found = []
    for top in SET_FOLDERS:
        for set_yaml in sorted(top.rglob("set.yaml")):
            try:
                rules = (yaml.safe_load(set_yaml.read_text(encoding="utf-8")) or {}).get("rules")
            except yaml.YAMLError:
                continue
            if rules and canonical(str(rules)) == name and list((set_yaml.parent / "decks").glob("*.y*ml")):
                found.append(set_yaml.parent)
    return found


@pytest.fixture(scope="module", params=GAMES)
def played(request):
    """(rules, game, decks, cardset) for one registered game, from the first set that names it."""
    from cardsmith.simulation.sets import deck_files, load_checked_deck, load_set_checked

    name = request.param
    rules = get_rules(name)
    assert isinstance(rules, RulesModule)
    folders = sets_of(name)
    if not folders and _installed_from_elsewhere(name):
        pytest.skip(f"the installed game {name} has no set here: run `cardsmith check-game YOUR-SET` on its own set")
    assert folders, f"no set with decks names the game {name}: every game needs one for the conformance suite"
    cardset = load_set_checked(folders[0])
    decks = [load_checked_deck(cardset, p) for p in deck_files(cardset.path)]
    return rules, rules.make_game(cardset), decks, cardset


def _installed_from_elsewhere(name: str) -> bool:
    """A game found through an entry point of a package installed here, not one cardsmith ships or
    this suite registers (a designer's game in the same environment)."""
    from cardsmith.engine import registry

    return name in registry._entry_points() and name not in registry._bundled() and name not in registry._EXTRA


def test_rules_declare_what_the_contract_asks(played):
    rules, game, _, _ = played
    assert rules.name == canonical(rules.name) and game.rules is rules
    assert 2 <= rules.players[0] <= rules.players[1] <= 6
    assert "turn_cap" in rules.play_schema.get("properties", {}), "every game supports play.turn_cap"
    for name, spec in rules.effects.items():
        assert spec.name == name and all(isinstance(s, dict) for s in spec.params.values())


def test_random_games_keep_the_contract(played):
    rules, game, decks, cardset = played
    for i, table in enumerate(tables(rules, decks)):
        # Two games at the smallest table, one at the largest; positions read back all game long. The
        # second game at the smallest table seats the decks one along, so a third deck plays too.
        cap = LARGEST_TABLE_TURN_CAP.get(rules.name) if i else None
        at = capped_game(rules, cardset, cap) if cap else game
        for seed in range(2) if i == 0 else range(1):
            seated = [decks[(j + seed) % len(decks)] for j in range(len(table))]
            assert protocol_problems(at, seated, seeds=[seed], position_every=5) == [], f"{len(table)} seats, seed {seed}"


def test_a_finished_game_leaves_no_reference_cycle(played):
    """A game's state is freed as soon as the runner drops it. A cycle (say, a rules closure that
    calls itself over the state) would keep every finished game alive until the garbage collector
    came by: a balance run's thousands of games would each cost a collection's walk."""
    import gc

    from cardsmith.engine.runner import play_game

    rules, game, decks, _ = played
    table = tables(rules, decks)[0]
    play_game(game, table, ["random"] * len(table), seed=1)  # (first-use caches are not the game's)
    gc.collect()
    gc.disable()
    try:
        for seed in range(2, 4):
            play_game(game, table, ["random"] * len(table), seed=seed)
            left = gc.collect()
            assert left == 0, f"seed {seed}: {left} objects of a finished game were freed only by the collector"
    finally:
        gc.enable()


def test_the_optional_hooks_a_game_offers_keep_their_promise(played):
    """peek leads where apply leads, mute changes no play, first_player is a seat that stays put,
    cards_dealt names the seat's own cards, scores_as_now never guesses, balance figures are data."""
    rules, game, decks, cardset = played
    table = tables(rules, decks)[0]
    assert hook_problems(game, table, seeds=range(2)) == []


def test_positions_read_back_from_yaml_text(played):
    import random

    rules, game, decks, _ = played
    for table in tables(rules, decks):
        state = game.new_game(table, 5)
        rng = random.Random(5)
        for _ in range(12):
            if state.is_terminal():
                break
            text = dump_position(state.position())
            back = game.from_position(parse_position(text, rules.name))
            assert back.position() == state.position()
            assert back.to_act() == state.to_act() and back.legal_actions() == state.legal_actions()
            state.apply(rng.choice(state.legal_actions()))


def test_the_turn_cap_ends_a_game_as_a_capped_draw(played):
    import random

    rules, _, decks, cardset = played
    capped = capped_game(rules, cardset, 2)
    table = tables(rules, decks)[0]
    ends = []
    for seed in range(4):
        state = capped.new_game(table, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        ends.append(state.outcome())
        assert state.turn <= 3
    assert Outcome.draw(len(table), "turn cap", capped=True) in ends


def test_a_determinization_gives_no_seat_a_card_it_could_not_hold(played):
    """Issue 29: the kit's shared-deck determinization filled a per-seat game's hidden deck with the
    rival's cards, and everything passed. Seats take different decks where the set has several."""
    rules, game, decks, _ = played
    small = tables(rules, decks)[0]
    assert deck_problems(game, [decks[i % len(decks)] for i in range(len(small))], seeds=range(2)) == []


def test_random_play_from_determinizations_always_has_a_legal_action(played):
    """Agents that plan play on from `sample_state`: #rm2k_anime's mirror decks could clash Main Users
    until a seat had none to choose, a decision with no legal action (found from determinizations)."""
    rules, game, decks, _ = played
    small = tables(rules, decks)[0]
    for table in (small, [decks[0]] * len(small)):
        assert playout_problems(game, table, seeds=range(PLAYOUT_SEEDS)) == []


def test_the_playout_check_catches_a_determinization_that_strands_play():
    """A sample_state that builds a state whose seat to act is offered nothing, and one whose states
    make an offered action raise, are each reported with the seed, the action and the seat."""
    import engine_testgame as sk

    class Stranded(sk.Skirmish):  # the sampled state offers nothing from turn 3 on
        def sample_state(self, obs, rng):
            s = super().sample_state(obs, rng)
            real = s.legal_actions
            s.legal_actions = lambda seat=None: () if s.turn >= 3 else real(seat)
            return s

    class Crashing(sk.Skirmish):  # the sampled state's apply fails
        def sample_state(self, obs, rng):
            s = super().sample_state(obs, rng)
            s.apply = lambda action, seat=None: {}["no such card"]
            return s

    decks = [sk.AGGRO, sk.TURTLE]
    assert playout_problems(sk.make_game(), decks, seeds=range(2)) == []
    stranded = playout_problems(Stranded(), decks, seeds=range(2))
    assert stranded and "is to act with no legal action" in stranded[0] and stranded[0].startswith("seed 0, action 0:")
    assert any("raised KeyError" in p for p in playout_problems(Crashing(), decks, seeds=[0]))
