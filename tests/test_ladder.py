"""The ladder of players (`cardsmith agents`), the trust rule of `balance`, and the skill comparison,
on the Skirmish fixture game (a few hundred fast games; no timings: the figures are in benchmarks/)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import main_in_process as cs

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "engine"


class FirstAction:
    """A deliberately weak player: always the first legal action it is offered."""

    needs_observation = False

    def __init__(self, game):
        pass

    def act(self, observation, legal, rng, seat):
        return legal[0]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """The Skirmish set in a project; its rules offer a weak player of their own, "first"."""
    from cardsmith.engine.contract import PlayerSpec
    from cardsmith.engine.registry import register
    from tests.engine_testgame import RULES, make_game

    def make(cardset):
        game = make_game(cardset)
        game.rules = rules
        return game

    def filler(card, cardset):
        return replace(card, id=card.id + "~filler", effects=({"do": "strike", "power": 0},))

    rules = replace(RULES, make_game=make, filler=filler, agents={"first": PlayerSpec(make=FirstAction, doc="weak")})
    forget = register(rules)
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root)
    monkeypatch.chdir(root)
    monkeypatch.delenv("CARDSMITH_PROJECT", raising=False)
    yield root, rules
    forget()


def _skirmish():
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation.sets import deck_files, load_checked_deck, load_set_checked

    cardset = load_set_checked(FIXTURE / "cards" / "skirmish")
    game = load_game(cardset)
    return game, [load_checked_deck(cardset, p) for p in deck_files(cardset.path)]


def test_greedy_beats_random_on_fixed_seeds(skirmish_rules):
    from cardsmith.engine.runner import run_tasks
    from cardsmith.simulation.ladder import measure_ladder

    game, decks = _skirmish()
    figures = measure_ladder(lambda tasks, _: run_tasks(None, decks, tasks, jobs=1, game=game), ("random", "greedy"),
                             len(decks), games=60, seed=3)
    greedy = figures["rungs"][1]
    assert greedy["below"]["games"] == 60 and greedy["below"]["opponent"] == "random"
    assert greedy["below"]["low"] > 0.55  # mirror matches on both decks, seats alternating
    assert figures["rules"][0]["passed"] and "greedy" in figures["rules"][0]["detail"]
    # random's own row is its mirror: the cost and the capped share, no win rate against anyone
    assert figures["rungs"][0]["below"] is None and figures["rungs"][0]["own"]["games"] == 60


def test_pairings_are_mirror_matches_on_every_deck_with_seats_rotating():
    from cardsmith.simulation.ladder import pairing_tasks

    tasks = pairing_tasks("greedy", "random", n_decks=2, games=12, seed=1, seats=3)
    assert len(tasks) == 12 and len({t.seed for t in tasks}) == 12
    for t in tasks:
        assert len(set(t.deck_ids)) == 1 and t.agents.count("greedy") == 1
    assert {t.agents.index("greedy") for t in tasks} == {0, 1, 2}
    assert [t.deck_ids[0] for t in tasks] == [0] * 6 + [1] * 6


def test_agents_command_prints_a_table_and_json(project):
    code, out, err = cs("agents", "skirmish", "--games", "8", "--jobs", "1", "--ladder", "random,first,greedy")
    assert code == 0, err
    assert "rung" in out and "vs below" in out and "CPU s/game" in out
    lines = out.splitlines()
    assert any(line.split()[:2] == ["2", "greedy"] for line in lines)
    rules = [line for line in lines if line.strip().startswith(("PASS", "FAIL"))]
    assert len(rules) == 4
    code, out, err = cs("agents", "skirmish", "--games", "8", "--jobs", "1", "--players", "3", "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert figures["seats"] == 3 and figures["ladder"] == ["random", "greedy"]
    top = figures["rungs"][1]
    assert top["below"]["fair"] == pytest.approx(1 / 3) and top["vs_random"] == top["below"]  # rung 1: random is below
    for key in ("share", "low", "high", "capped_share", "cpu_per_game", "cpu_per_decision", "decisions_per_game"):
        assert key in top["below"]
    # Greedy's thinking is timed; random's is not (it costs less than the clock), so it has no figure.
    assert top["below"]["cpu_per_decision"] > 0
    assert figures["rungs"][0]["own"]["cpu_per_decision"] is None and figures["rungs"][0]["own"]["decisions_per_game"] > 0
    assert [r["passed"] for r in figures["rules"]].count(None) == 0


def test_a_ladder_must_start_with_random(project):
    code, _, err = cs("agents", "skirmish", "--ladder", "greedy,random", "--games", "4", "--jobs", "1")
    assert code != 0 and "must start with random" in err


def test_a_weak_player_makes_the_verdict_untrusted(project):
    root, _ = project
    code, out, err = cs("balance", "skirmish", "--agents", "first", "--games", "10", "--budget", "0", "--jobs", "1")
    assert code == 0, err
    figures = json.loads((root / "output" / "skirmish" / "balance" / "balance.json").read_text())
    player = figures["player"]
    assert player["spec"] == "first" and player["rung"] is None and not player["trusted"]
    assert player["vs_random"]["share"] < 0.85 and "beats random only" in player["reason"]
    assert not figures["verdict"]["trusted"] and figures["verdict"]["sentences"][0].startswith("UNTRUSTED")
    assert figures["verdict"]["sentences"][0] in out
    page = (root / "output" / "skirmish" / "balance" / "report.html").read_text()
    assert "verdict untrusted" in page and "Players and games" in page


def test_trust_rule():
    from cardsmith.simulation._players import trust

    strong = {"player": "planner", "seats": 2, "share": 0.93, "low": 0.89, "high": 0.95, "capped_share": 0.0}
    assert trust(strong, 0.01)[0]
    assert not trust(strong, 0.05)[0] and "cap" in trust(strong, 0.05)[1]
    assert not trust({**strong, "share": 0.80}, 0.0)[0]
    assert not trust({**strong, "player": "random"}, 0.0)[0]


def test_default_balance_uses_the_competent_player_and_compares_the_rung_below(project):
    root, _ = project
    code, out, err = cs("balance", "skirmish", "--games", "10", "--budget", "200", "--jobs", "1", "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert figures["agent"] == "greedy" and figures["player"]["rung"] == 1
    cmp = figures["agent_comparison"]
    assert cmp["agents"] == ["greedy", "random"] and cmp["sentence"] in figures["verdict"]["sentences"]
    assert cmp["deck_agreement"]["tau"] is None  # two decks: no ranking to compare, and it says so
    assert all(r["holds"] == "holds at both" or r["holds"].startswith("only at ") for r in cmp["conclusions"])
    assert figures["sizing"]["games_why"] == "greedy: 10 games per table, as given by --games"
    assert figures["sizing"]["budget"] == 200 and figures["sizing"]["second_budget"] == 100  # half for the rung below


def test_kendall_tau_on_known_orderings():
    from cardsmith.simulation._skill import kendall_tau

    assert kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1
    assert kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == -1
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)  # one swapped pair of six
    assert kendall_tau([1, 1, 1], [1, 2, 3]) is None


def test_conclusions_are_marked_held_at_both_or_at_one():
    from cardsmith.simulation._skill import conclusions_at_both

    def run(agent, strong, flags):
        tests = [{"deck": d, "card": c, "name": c.title(), "flag": f} for d, c, f in flags]
        return {"agent": agent, "verdict": {"strong_decks": strong, "weak_decks": []}, "card_tests": tests}

    a = run("planner", ["Omnae"], [("Omnae", "mace", "too strong"), ("Xarn", "ram", "too weak")])
    b = run("greedy", ["Omnae", "Xarn"], [("Omnae", "mace", "too strong")])
    rows = {r["conclusion"]: r["holds"] for r in conclusions_at_both(a, b)}
    assert rows == {"Omnae is too strong": "holds at both", "Mace (Omnae) is too strong": "holds at both",
                    "Ram (Xarn) is too weak": "only at planner (not tested at greedy)",
                    "Xarn is too strong": "only at greedy"}


def test_a_default_run_is_sized_from_the_measured_cost():
    from cardsmith.simulation._players import MAX_GAMES, MIN_BUDGET, Clock, budget_for, games_for

    clock = Clock(workers=2)  # 600 s x 0.6 x 2 workers = 720 CPU s planned
    assert games_for(clock, "round_robin", 0.001, tables=6, seats=2, given=None)[0] == MAX_GAMES
    games, why = games_for(clock, "round_robin", 1.0, tables=6, seats=2, given=None)
    assert games == 30 and "1 CPU s" in why  # 180 CPU s for the round robin, 6 tables
    assert games_for(clock, "round_robin", 1.0, tables=6, seats=2, given=7)[0] == 7
    budget, why = budget_for(clock, 288.0, 0.5, None, 24_000)
    assert budget == 576 and "288 CPU s" in why
    budget, why = budget_for(clock, 288.0, 10.0, None, 24_000)
    assert budget == 0 and f"fewer than the {MIN_BUDGET}" in why
