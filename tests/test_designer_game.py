"""Issue 29: a designer's own game, end to end, with nothing quietly wrong. The second tutorial game
(docs/examples/orchard: two players, one deck each) is registered from its source folder."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from conftest import main_in_process as cs

ROOT = Path(__file__).resolve().parents[1]
ORCHARD = ROOT / "docs" / "examples" / "orchard"


@pytest.fixture
def orchard(tmp_path, monkeypatch):
    """The Orchard rules registered in-process and a project holding a copy of its set."""
    from cardsmith.engine.registry import register

    monkeypatch.syspath_prepend(str(ORCHARD))
    import cardsmith_orchard

    forget = register(cardsmith_orchard.RULES)
    shutil.copytree(ORCHARD / "cards", tmp_path / "cards")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDSMITH_PROJECT", raising=False)
    yield cardsmith_orchard
    forget()


def _game(folder: str = "cards/orchard"):
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation.sets import deck_files, load_checked_deck, open_set

    cardset = open_set(folder)
    return cardset, load_game(cardset), [load_checked_deck(cardset, p) for p in deck_files(cardset.path)]


def test_a_per_seat_determinization_keeps_every_hidden_card_in_its_owners_zones(orchard):
    _, game, decks = _game()
    own = [set(d.cards()) for d in decks]
    state = game.new_game(decks, seed=3)
    for step in range(12):
        seat = state.to_act()[0]
        sample = game.sample_state(state.observation(seat), random.Random(step))
        for s in range(2):
            held = [c for z in sample.zones if z.owner == s for c in z.cards]
            assert set(held) <= own[s], f"seat {s} was imagined holding {set(held) - own[s]}"
            assert sorted(held) == sorted(c for z in state.zones if z.owner == s for c in z.cards)
        state.apply(state.legal_actions()[0])


def test_the_conformance_check_fails_a_game_whose_hidden_cards_leak_across_decks(orchard):
    """The kit's shared-deck determinization in a game of per-seat decks (the issue's bug) is caught;
    the declared PER_SEAT mode passes; a common-deck game (Tide Pool) is not held to its seats' decks."""
    from cardsmith.engine.checks import deck_problems
    from cardsmith.engine.kit import COMMON

    _, game, decks = _game()
    assert deck_problems(game, decks, seeds=range(2)) == []
    game.deck_mode = COMMON
    problems = deck_problems(game, decks, seeds=range(2))
    assert problems and "hidden cards leak across decks" in problems[0] and "of seat 1's deck" in " ".join(problems)


def test_an_error_in_a_designers_package_names_its_file_and_line_and_writes_a_position(orchard, tmp_path, monkeypatch):
    source = tmp_path / "pkg" / "buggy_orchard"
    source.mkdir(parents=True)
    text = (ORCHARD / "cardsmith_orchard" / "__init__.py").read_text()
    broken = text.replace('"orchard"', '"buggy_orchard"').replace(
        '            self.water[seat] -= self.game.cost[card]\n', '            self.water[seat] -= self.game.cost[card]\n'
        '            self.score[seat] += self.game.effects["frost"]\n')
    assert broken.count("buggy_orchard") == 2 and 'effects["frost"]' in broken
    (source / "__init__.py").write_text(broken)
    monkeypatch.syspath_prepend(str(source.parent))
    from cardsmith.engine.registry import register

    import buggy_orchard

    forget = register(buggy_orchard.RULES)
    try:
        set_yaml = tmp_path / "cards" / "orchard" / "set.yaml"
        set_yaml.write_text(set_yaml.read_text().replace("rules: orchard", "rules: buggy_orchard"))
        code, out, err = cs("play", "orchard", "--deck", "blossom", "--deck", "harvest", "--games", "20", "--jobs", "1")
    finally:
        forget()
    line = next(i for i, t in enumerate(broken.splitlines(), 1) if 'effects["frost"]' in t)
    assert code == 1, err
    assert f"error in game package buggy_orchard ({source / '__init__.py'}:{line}): KeyError: 'frost'" in err
    assert "bug in cardsmith" not in err
    position = tmp_path / "buggy_orchard-error-position.yaml"
    assert position.exists() and "--from buggy_orchard-error-position.yaml" in err
    # The file is a position the game reads back, from just before the planting that failed.
    from cardsmith.engine.kit import parse_position

    data = parse_position(position.read_text(), "buggy_orchard")
    assert data["game"] == "buggy_orchard" and data["seats"] == 2


def test_check_game_runs_the_conformance_suite_on_a_set_outside_the_checkout(orchard, monkeypatch):
    code, out, err = cs("check-game", "orchard")
    assert code == 0, err
    assert "ok   a determinization gives no seat a card it could not hold" in out and "every check passed" in out
    # The same game with the shared-deck determinization (the bug): plain words, exit 1.
    from cardsmith.engine.kit import COMMON

    monkeypatch.setattr(orchard.OrchardGame, "deck_mode", COMMON)
    code, out, err = cs("check-game", "orchard")
    assert code == 1 and "1 check(s) failed" in err
    assert "FAIL a determinization gives no seat a card it could not hold" in out
    assert "hidden cards leak across decks" in out and "deck_mode = PER_SEAT" in out


def test_the_projects_suite_skips_an_installed_game_with_no_set_here(monkeypatch):
    from cardsmith.engine import registry
    from test_game_conformance import _installed_from_elsewhere

    class EntryPoint:
        value = "their_game:RULES"

    monkeypatch.setattr(registry, "_entry_points", lambda: {"their_game": EntryPoint()})
    assert _installed_from_elsewhere("their_game")
    assert not _installed_from_elsewhere("solar_empires")  # shipped: it must have its set, never skipped


def test_cards_come_before_rules_a_game_not_installed_warns_until_play(tmp_path, monkeypatch):
    """No game registered: validate, render, pdf and gallery go on with a warning; play refuses,
    saying how to install the game."""
    from cardsmith.engine import registry

    monkeypatch.delitem(registry._EXTRA, "orchard", raising=False)  # (the conformance suite registers it)
    shutil.copytree(ORCHARD / "cards", tmp_path / "cards")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDSMITH_PROJECT", raising=False)
    code, out, err = cs("validate", "orchard")
    assert code == 0 and "warning: rules 'orchard': no game of that name is installed" in err
    assert "pip install -e" in err and "docs/tutorial-game.md" in err
    code, out, err = cs("render", "orchard", "--only", "oak")
    assert code == 0 and "no game of that name is installed" in err and (tmp_path / "output" / "orchard" / "cards").is_dir()
    code, out, err = cs("play", "orchard", "--deck", "blossom", "--deck", "harvest", "--games", "2")
    assert code == 1 and "a game that is not installed, so it cannot be played yet" in err and "pip install -e" in err


def test_validate_lists_card_rules_and_layout_problems_at_once(orchard, tmp_path):
    set_yaml = tmp_path / "cards" / "orchard" / "set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("play: {turn_cap: 40}", "play: {turn_cp: 40}") + "layouts: {tree: tree}\n")
    cards = tmp_path / "cards" / "orchard" / "cards.yaml"
    cards.write_text(cards.read_text().replace("season: spring, text: Grow 1.", "season: sprng, text: Grow 1.", 1))
    code, out, err = cs("validate", "orchard")
    flat = " ".join(err.split())
    assert code == 1
    assert "cards.yaml:4:" in err and "unknown season 'sprng'" in err  # the card's own error
    assert "'turn_cp' is not a setting of orchard" in flat and "did you mean 'turn_cap'?" in flat  # beside it, the rules'
    # and the missing layout, at its line in set.yaml, pointing at the set's own layouts/ folder
    assert "error: layouts: tree: no layout named 'tree'" in err and "cards/orchard/layouts/tree.yaml.j2" in err
    cards.write_text(cards.read_text().replace("sprng", "spring"))
    set_yaml.write_text(set_yaml.read_text().replace("turn_cp", "turn_cap"))
    code, out, err = cs("validate", "orchard")
    assert code == 1 and err.count("no layout named 'tree'") == 1
    code, out, err = cs("render", "orchard")
    assert code == 1 and err.count("no layout named 'tree'") == 1 and "nothing drawn" in err


def test_a_keyword_reminder_puts_the_value_wherever_x_stands_as_a_word_or_number():
    from cardsmith.sets.model import Keyword

    glow = Keyword("glow", "Glow", "Score +X (X glow, then X+1 next turn). Xenon stays; X-ray too.", param="int")
    assert glow.reminder_for(3) == "Score +3 (3 glow, then 3+1 next turn). Xenon stays; 3-ray too."
    assert glow.reminder_for(None) == glow.reminder


def test_a_card_layout_sees_the_reminder_with_its_value(orchard, tmp_path):
    from cardsmith.layout.template import card_context
    from cardsmith.sets.validate import load_set

    set_yaml = tmp_path / "cards" / "orchard" / "set.yaml"
    set_yaml.write_text(set_yaml.read_text() + 'keywords:\n  glow: {name: Glow, param: int, reminder: "Grow +X (X glow)."}\n')
    cards = tmp_path / "cards" / "orchard" / "cards.yaml"
    cards.write_text(cards.read_text().replace("text: Grow 6.,", "text: Grow 6., keywords: [Glow 2],"))
    cardset = load_set(tmp_path / "cards" / "orchard")
    [kw] = card_context(cardset, cardset.card("oak"))["card"]["keywords"]
    assert kw["reminder"] == "Grow +2 (2 glow)." and kw["label"] == "Glow 2"


def test_a_comma_in_a_one_line_card_gets_a_hint_to_quote_the_value(tmp_path, monkeypatch):
    shutil.copytree(ORCHARD / "cards", tmp_path / "cards")
    monkeypatch.chdir(tmp_path)
    cards = tmp_path / "cards" / "orchard" / "cards.yaml"
    cards.write_text(cards.read_text().replace("text: Grow 6.,", "text: Grow 6., flavor: Small tree, big ambitions.,"))
    code, out, err = cs("validate", "orchard")
    flat = " ".join(err.split())
    assert code == 1 and "field 'big ambitions.' is not declared" in flat
    assert "YAML read 'big ambitions.' as a new key" in flat and 'flavor: "Small tree, big ambitions."' in flat


def test_build_keeps_a_richer_up_to_date_balance_report_and_says_when_it_replaces_one(orchard, tmp_path):
    import json
    import os

    code, out, err = cs("balance", "orchard", "--games", "10", "--agents", "greedy", "--budget", "80", "--jobs", "1")
    assert code == 0, err
    figures = tmp_path / "output" / "orchard" / "balance" / "balance.json"
    before = json.loads(figures.read_text())
    assert before["agent"] == "greedy"
    code, out, err = cs("build", "orchard", "--skip", "render", "--skip", "pdf", "--jobs", "1")
    assert json.loads(figures.read_text()) == before, "build replaced a richer report"
    assert "balance report kept" in " ".join(out.split())
    # The set changed since: the build's run replaces the report, and says what it replaced.
    cards = tmp_path / "cards" / "orchard" / "cards.yaml"
    later = figures.stat().st_mtime + 5
    os.utime(cards, (later, later))
    code, out, err = cs("build", "orchard", "--skip", "render", "--skip", "pdf", "--jobs", "1")
    replaced = json.loads(figures.read_text())
    assert replaced["verdict"]["sentences"][0].startswith("A short build run") and not replaced.get("card_tests")
    assert "balance report replaced (balance --agents greedy" in " ".join(out.split())


def test_a_game_without_filler_is_told_why_it_has_no_card_tests(orchard, tmp_path, monkeypatch):
    import dataclasses
    import json

    from cardsmith.engine import registry

    plain = dataclasses.replace(orchard.RULES, filler=None)
    monkeypatch.setattr(orchard, "RULES", plain)  # (make_game binds the module's RULES)
    monkeypatch.setitem(registry._EXTRA, "orchard", plain)
    code, out, err = cs("balance", "orchard", "--games", "10", "--budget", "40", "--jobs", "1")
    assert code == 0, err
    said = "No card tests: the rules of orchard define no `filler`"
    assert said in " ".join(out.split())  # in the verdict the terminal prints
    figures = json.loads((tmp_path / "output" / "orchard" / "balance" / "balance.json").read_text())
    assert figures["card_tests"] == [] and any(said in s for s in figures["verdict"]["sentences"])
    page = (tmp_path / "output" / "orchard" / "balance" / "report.html").read_text()
    assert said in page and "the card tests above are" not in page and "this run has no card tests" in page


def test_the_orchard_tutorials_code_is_the_packages_code_line_for_line():
    """docs/tutorial-orchard.md's Python blocks, in order, are the rules module after its docstring and
    then the filler module after its docstring; its YAML and TOML blocks are the set's and package's."""
    import ast
    import re

    doc = (ROOT / "docs" / "tutorial-orchard.md").read_text(encoding="utf-8")
    body = []
    for module in ("__init__.py", "filler.py"):
        source = (ORCHARD / "cardsmith_orchard" / module).read_text(encoding="utf-8")
        body += source.splitlines()[ast.parse(source).body[0].end_lineno:]
    shown = [line for block in re.findall(r"```python\n(.*?)```", doc, re.S) for line in block.splitlines()]
    assert [line for line in shown if line.strip()] == [line for line in body if line.strip()]
    for block in re.findall(r"```toml\n(.*?)```", doc, re.S):
        assert block in (ORCHARD / "pyproject.toml").read_text(encoding="utf-8")
    set_text = "".join(p.read_text(encoding="utf-8") for p in (ORCHARD / "cards" / "orchard").glob("*.yaml"))
    for block in re.findall(r"```yaml\n(.*?)```", doc, re.S):
        assert all(line in set_text for line in block.splitlines()), block


def test_the_orchard_verdict_names_the_planted_pear_and_no_cause_for_the_mirror(orchard, tmp_path):
    """The tutorial's claim, on a small budget: harvest (three Pears) is too strong, the Pear is the
    cause, and the Pear's filler is a summer tree of the median growth of the other summer trees."""
    import json

    from cardsmith.simulation._intervention import fillers

    cardset, game, decks = _game()
    made = fillers(cardset, game.rules, ["pear", "oak"])
    assert made["pear"].effects == ({"do": "grow", "points": 2},) and cardset.attribute(made["pear"], "cost") == 2
    assert "typical tree: fewer than 3 alike" in made["oak"].name
    code, out, err = cs("balance", "orchard", "--agents", "greedy", "--games", "30", "--budget", "200", "--jobs", "1")
    assert code == 0, err
    verdict = json.loads((tmp_path / "output" / "orchard" / "balance" / "balance.json").read_text())["verdict"]
    assert verdict["strong_decks"] == ["harvest"] and verdict["causes"] == [{"deck": "harvest", "card": "pear", "flag": "too strong"}]
