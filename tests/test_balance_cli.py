"""`cardsmith balance` with card tests, --compare DIR and --agents A,B, on the Skirmish fixture set
(a few hundred fast games; the Solar Empires acceptance runs are in benchmarks/balance_plants.py)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import main_in_process as cs

pytest.importorskip("cardsmith.decks")

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "engine"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """The Skirmish set in a project, its rules registered with a filler (a strike of power 0)."""
    from cardsmith.engine.registry import register
    from tests.engine_testgame import RULES, make_game

    def filler(card, cardset):
        return replace(card, id=card.id + "~filler", effects=({"do": "strike", "power": 0},))

    def make(cardset):
        game = make_game(cardset)
        game.rules = rules
        return game

    rules = replace(RULES, filler=filler, make_game=make)
    forget = register(rules)
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root)
    monkeypatch.chdir(root)
    monkeypatch.delenv("CARDSMITH_PROJECT", raising=False)
    yield root
    forget()


def _plant_guard(set_dir: Path, amount: int) -> None:
    cards = set_dir / "cards.yaml"
    text = cards.read_text()
    assert "{do: guard, amount: 2}" in text
    cards.write_text(text.replace("{do: guard, amount: 2}", f"{{do: guard, amount: {amount}}}"))


def test_balance_verdict_is_the_same_in_terminal_and_json(project):
    args = ("balance", "skirmish", "--games", "10", "--budget", "300", "--jobs", "1")
    code, out, err = cs(*args)
    assert code == 0, err
    figures = json.loads((project / "output" / "skirmish" / "balance" / "balance.json").read_text())
    assert out.index("Verdict:") < out.index("Evidence:")
    for sentence in figures["verdict"]["sentences"]:
        assert sentence in out
    assert figures["card_tests"] and all(r["method"] == "intervention" for r in figures["card_tests"])
    assert {r["deck"] for r in figures["card_tests"] if r["card"] == "heal"} == {"aggro", "turtle"}  # per-deck rows
    page = (project / "output" / "skirmish" / "balance" / "report.html").read_text()
    assert "<h2>Verdict</h2>" in page and "Card tests" in page and page.index("Verdict") < page.index("Matchups")


def test_compare_with_an_earlier_copy_names_the_edited_card(project, tmp_path):
    old = tmp_path / "old" / "skirmish"
    shutil.copytree(project / "cards" / "skirmish", old)
    _plant_guard(project / "cards" / "skirmish", 9)
    code, out, err = cs("balance", "skirmish", "--games", "40", "--budget", "600", "--jobs", "1",
                        "--compare", str(old), "--json")
    assert code == 0, err
    cmp = json.loads(out)["comparison"]
    assert list(cmp["edited_cards"]) == ["guard"]
    turtle = next(m for m in cmp["matchups"] if m["deck"] == "turtle")
    assert turtle["effect"] > 0 and turtle["games"] == 40
    assert any(s.startswith("Likely cause: Guard") for s in cmp["sentences"])


def test_two_agents_compare_the_card_ranking(project):
    code, out, err = cs("balance", "skirmish", "--games", "4", "--budget", "80", "--jobs", "1",
                        "--agents", "random,greedy:samples=1", "--json")
    assert code == 0, err
    cmp = json.loads(out)["agent_comparison"]
    assert cmp["agents"] == ["random", "greedy:samples=1"] and cmp["sentence"] in json.loads(out)["verdict"]["sentences"]


def test_bad_budget_is_refused(project):
    code, _, err = cs("balance", "skirmish", "--budget", "-1")
    assert code == 2 and "--budget" in err


def test_common_deck_options_are_refused_for_owned_decks(project):
    """--time-budget and --all-sizes size a common-deck study; on a game of owned decks they were
    silently ignored (a negative time budget included)."""
    code, _, err = cs("balance", "skirmish", "--time-budget", "-1")
    assert code == 2 and "--time-budget must be 0 or more" in err
    code, _, err = cs("balance", "skirmish", "--all-sizes")
    assert code == 2 and "common-deck game" in err and "Traceback" not in err
