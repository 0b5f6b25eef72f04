"""TRF's players: the ladder's order on small fixed seeds, the planner's plans on hand-built deals,
its honesty, and the search primitives (copies, determinization) it and the engine's players use.

Win counts are over fixed seeds (the games are the same every run); the thresholds sit well below
what 200-game runs measure (docs/rules/trf.md, "Players"), so a change of play shows only when a
player really gets weaker. No timings here: benchmarks/sim.py prints them.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from cardsmith.engine.runner import match_tasks, run_tasks
from cardsmith.games.trf import RULES
from cardsmith.games.trf.board import copy_table, plain_copy
from cardsmith.games.trf.players import PlannerAgent
from cardsmith.simulation.sets import SetGameFactory, load_checked_deck, load_set_checked
from tests.trf_positions import char, player, position, state, trf_game

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "cards" / "trf"
A, D = "tessaly", "mira"


@pytest.fixture(scope="module")
def table():
    cardset = load_set_checked(SET)
    decks = {p.stem: load_checked_deck(cardset, p) for p in sorted((SET / "decks").glob("*.yaml"))}
    return RULES.make_game(cardset), SetGameFactory(SET), decks


def wins(table, a: str, b: str, games: int, seed: int) -> tuple[int, int, int]:
    """(wins of `a`, games, capped games) over mirror matches of every sample deck, seats rotating."""
    game, factory, decks = table
    won = total = capped = 0
    for deck in decks.values():
        records = run_tasks(factory, [deck, deck], match_tasks((a, b), games, seed), jobs=1, game=game)
        total += len(records)
        capped += sum(r.capped for r in records)
        won += sum(r.winner is not None and r.agents[r.winner] == a for r in records)
    return won, total, capped


def test_the_ladder_is_declared_with_the_planner_on_top_and_competent():
    assert RULES.ladder == ("random", "greedy", "planner")
    assert RULES.competent_player() == "planner"
    assert "planner" in RULES.agents


def test_planner_beats_random_on_fixed_seeds(table):
    won, total, capped = wins(table, "planner", "random", 4, seed=3)
    assert won >= 15 and capped <= 1, (won, total, capped)  # 16 games; 200-game runs: 99%


def test_greedy_beats_random_on_fixed_seeds(table):
    won, total, _ = wins(table, "greedy", "random", 3, seed=3)
    assert won >= 9, (won, total)  # 12 games; 200-game runs: 92%


def test_planner_beats_greedy_on_fixed_seeds(table):
    won, total, capped = wins(table, "planner", "greedy", 6, seed=5)
    lost = total - won - capped
    assert won >= 12 and won >= 2 * lost, (won, lost, capped)  # 24 games; 200-game runs: 70%, 5% capped


# --- the planner's plans on hand-built deals ----------------------------------------------------------
def planner_choice(s) -> tuple:
    seat = s.to_act()[0]
    return PlannerAgent(trf_game()).act(s.observation(seat), s.legal_actions(seat), random.Random(0), seat)


def test_planner_sends_its_fleets_to_take_the_homeworld_when_it_can():
    """Three unblocked fleets (4 + 4 + 1 capture) and a bare homeworld of value 9: all go there."""
    p1 = player(D, "calder", seat=1)
    s = state(position(player(A, "kethra-prime"), p1, phase="capture", declared=[1, 2, 3],
                       chars=[char(1, "heavy-cruiser-group", 0), char(2, "heavy-cruiser-group", 0), char(3, "militia", 0)]))
    while s.d["phase"] == "capture" and not s.is_terminal():
        s.apply(planner_choice(s))
    assert s.d["winner"] == 0


def test_planner_splits_its_fleets_to_take_two_planets():
    """Fleets of capture 4, 4 and 1 against Aurel (5) and Lantern (3): 4 + 1 on Aurel and 4 on
    Lantern take both (any pile-up takes one)."""
    p1 = player(D, "calder", planets=["aurel", "lantern"], seat=1)
    s = state(position(player(A, "kethra-prime"), p1, phase="capture", declared=[1, 2, 3],
                       chars=[char(1, "heavy-cruiser-group", 0), char(2, "heavy-cruiser-group", 0), char(3, "militia", 0)]))
    while s.d["phase"] == "capture":
        s.apply(planner_choice(s))
    assert [pl["card"] for pl in s.d["p"][1]["planets"]] == ["calder"]


def test_planner_blocks_the_fleet_that_would_take_its_bare_homeworld():
    """Two attacking fleets of capture 4 + 4 against a bare homeworld of 8: one block saves the game."""
    p1 = player(D, "lantern", seat=1)
    s = state(position(player(A, "kethra-prime"), p1, phase="block", declared=[1, 2],
                       chars=[char(1, "heavy-cruiser-group", 0), char(2, "heavy-cruiser-group", 0),
                              char(5, "militia", 1)]))
    assert planner_choice(s)[0] == "block"


def test_planner_holds_back_when_blockers_cover_its_fleets_and_attacks_when_they_cannot():
    """Two fleets of capture 4 against Lantern (3): two blockers cover both, one leaves a fleet free."""
    mine = [char(1, "heavy-cruiser-group", 0), char(2, "heavy-cruiser-group", 0)]
    p1 = player(D, "calder", planets=["lantern"], seat=1)
    covered = state(position(player(A, "kethra-prime"), p1, chars=mine + [char(5, "militia", 1), char(6, "militia", 1)]))
    assert planner_choice(covered) == ("no_attack",)
    open_ = state(position(player(A, "kethra-prime"), p1, chars=mine + [char(5, "militia", 1)]))
    assert planner_choice(open_) == ("attack",)


def test_planner_buys_the_strongest_force_its_meters_pay_for():
    """500 meters (Kethra Prime): a Heavy Cruiser Group (4/4) beats Militia + Patrol Squadron (3/3 for 300)."""
    p0 = player(A, "kethra-prime", hand=["militia", "patrol-squadron", "heavy-cruiser-group"])
    s = state(position(p0, player(D, "calder", seat=1), phase="buy"))
    assert planner_choice(s) == ("buy", "heavy-cruiser-group")


def test_planner_reads_only_its_observation_and_leaves_it_as_it_was(table):
    game, _, decks = table
    s = game.new_game([decks["xarn"], decks["dolash"]], 4)
    agent, rng = PlannerAgent(game), random.Random(1)
    for _ in range(300):
        if s.is_terminal():
            break
        seat = s.to_act()[0]
        seen = s.observation(seat)
        kept = copy.deepcopy(seen)
        action = agent.act(seen, s.legal_actions(seat), rng, seat)
        assert seen == kept
        s.apply(action, seat)


# --- search primitives ----------------------------------------------------------------------------
def test_copy_table_is_a_deep_copy_like_plain_copy(table):
    game, _, decks = table
    s = game.new_game([decks["omnae"], decks["sable"]], 2)
    rng = random.Random(2)
    checked = 0
    while not s.is_terminal():
        if s.d["fights"] or s.d["blocks"] or s.d["assign"] or checked % 40 == 0:
            twin = copy_table(s.d)
            assert twin == plain_copy(s.d)
            originals = {id(x) for x in _containers(s.d)}
            assert not originals & {id(x) for x in _containers(twin)}
        checked += 1
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])


def _containers(data):
    if isinstance(data, (list, dict)):
        yield data
        for v in (data.values() if isinstance(data, dict) else data):
            yield from _containers(v)


def test_a_clone_plays_on_as_the_original_and_stays_muted(table):
    game, _, decks = table
    s = game.new_game([decks["dolash"], decks["omnae"]], 6)
    s.mute()
    twin = s.clone()
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not s.is_terminal():
        la, lb = s.legal_actions(), twin.legal_actions()
        assert la == lb
        s.apply(la[rng_a.randrange(len(la))])
        assert twin.apply(lb[rng_b.randrange(len(lb))]) == ()
    assert twin.position() == s.position() and twin.log == s.log  # (the lines of the setup, before mute)
