"""The tutorial's game (docs/examples/tide_pool), installed as its own package with pip, is found
through its `cardsmith.games` entry point, validates, plays with every agent and gets a balance report."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import main_in_process

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "tide_pool"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """`pip install --no-deps --target` of a copy of the example (nothing is written in docs/). pip fetches
    the package's build backend (flit_core) from the configured index, as for any install."""
    work = tmp_path_factory.mktemp("tide")
    source = work / "src"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("cards", "build", "*.egg-info", "__pycache__"))
    target = work / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(source)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"pip could not install the tutorial package:\n{done.stderr[-2000:]}")
    assert list(target.glob("cardsmith_tide_pool-*.dist-info/entry_points.txt"))
    # Only the installed copy may answer: set aside a registration or import of the example's source
    # folder that another test module (the conformance suite) made in this process.
    from cardsmith.engine import registry

    kept = registry._EXTRA.pop("tide_pool", None)
    cached = {m: sys.modules.pop(m) for m in [m for m in sys.modules if m.startswith("cardsmith_tide_pool")]}
    sys.path.insert(0, str(target))
    try:
        yield target
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m.startswith("cardsmith_tide_pool")]:
            del sys.modules[name]
        sys.modules.update(cached)
        if kept is not None:
            registry._EXTRA["tide_pool"] = kept


@pytest.fixture
def project(installed, tmp_path, monkeypatch):
    root = tmp_path / "proj"
    shutil.copytree(EXAMPLE / "cards", root / "cards")
    monkeypatch.chdir(root)
    monkeypatch.delenv("CARDSMITH_PROJECT", raising=False)
    return root


cs = main_in_process


def test_the_installed_game_is_found_by_its_entry_point(installed):
    from cardsmith.engine.registry import get_rules, known_games

    assert "tide_pool" in known_games()
    rules = get_rules("tide-pool")
    assert rules.name == "tide_pool" and rules.players == (2, 4)
    assert Path(sys.modules[rules.make_game.__module__].__file__).is_relative_to(installed)


def test_the_example_set_validates_and_a_bad_effect_is_caught(project):
    code, out, err = cs("validate", "tide-pool")
    assert code == 0, err
    cards = project / "cards" / "tide-pool" / "cards.yaml"
    cards.write_text(cards.read_text().replace("{do: draw, cards: 2}", "{do: draw, cards: 5}"))
    code, out, err = cs("validate", "tide-pool")
    assert code == 1 and "cards.yaml:7:" in err and "cards must be at most 3" in " ".join(err.split())


@pytest.mark.parametrize("agents", ["random", "greedy", "mcts:iterations=30:time=0", "random,greedy,mcts:iterations=20:time=0"])
def test_it_plays_with_every_agent(project, agents):
    code, out, err = cs("play", "tide-pool", "--players", "3", "--agents", agents, "--games", "6", "--jobs", "1",
                        "--json", "--log", "game.log")
    assert code == 0, err
    figures = json.loads(out)
    assert figures["games"] == 6 and figures["seats"] == 3 and figures["deck_names"][0] == "tide"
    won = sum(r["wins"]["k"] for r in figures["seat_wins"])
    assert won + figures["draws"]["k"] >= 6  # a shared first place counts for each seat in it
    assert "Result:" in (project / "game.log").read_text()


def test_its_balance_report_is_written(project):
    code, out, err = cs("balance", "tide-pool", "--players", "2", "--agents", "random", "--games", "8", "--jobs", "1")
    assert code == 0, err
    out_dir = project / "output" / "tide-pool" / "balance"
    figures = json.loads((out_dir / "balance.json").read_text())
    assert figures["decks"] == ["calm", "tide"] and figures["games"] == 8 and figures["players"] == 2
    assert "Tide Pool: balance report" in (out_dir / "report.html").read_text()


def test_the_tutorials_code_is_the_packages_code_line_for_line():
    """The tutorial's Python blocks, in order, are the whole rules module after its docstring."""
    import ast
    import re

    doc = (EXAMPLE.parents[1] / "tutorial-game.md").read_text(encoding="utf-8")
    source = (EXAMPLE / "cardsmith_tide_pool" / "__init__.py").read_text(encoding="utf-8")
    body = source.splitlines()[ast.parse(source).body[0].end_lineno:]
    shown = [line for block in re.findall(r"```python\n(.*?)```", doc, re.S) for line in block.splitlines()]
    assert [line for line in shown if line.strip()] == [line for line in body if line.strip()]
    assert len([line for line in body if line.strip()]) <= 60, "the tutorial's game is a few dozen lines"
    for block in re.findall(r"```toml\n(.*?)```", doc, re.S):
        assert block in (EXAMPLE / "pyproject.toml").read_text(encoding="utf-8")


def test_the_tutorials_python_session_plays_through_the_public_api(project, capsys):
    """Section 8's script, run as written in the installed game's project: the package root's
    load_set, load_game, load_deck, ScriptedChance and IllegalAction are all a user needs."""
    import re

    doc = (EXAMPLE.parents[1] / "tutorial-game.md").read_text(encoding="utf-8")
    (script,) = re.findall(r"```py\n(.*?)```", doc, re.S)
    exec(compile(script, "tutorial-game.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Outcome(ranks=") and "capped=False" in out[0]
    assert out[1] == "the game is over: nothing is legal"
