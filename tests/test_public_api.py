"""The package root's public API (docs/engine.md, "Public API"): each name imports from `cardsmith`
and works, the documented example runs, and `import cardsmith` loads none of the heavy modules."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardsmith

ROOT = Path(__file__).resolve().parents[1]
SOLAR = ROOT / "cards" / "solar-empires"


def test_each_public_name_imports_from_the_root_and_works(tmp_path):
    from cardsmith import (CardsmithError, DeckFileError, IllegalAction, ScriptedChance, SetInvalid, load_deck,
                           load_game, load_set)

    cardset = load_set(SOLAR)
    assert cardset.id == "solar-empires"
    game = load_game(cardset)
    assert game.rules.name == "solar_empires"
    decks = [load_deck(SOLAR / "decks" / f"{name}.yaml", cardset) for name in ("chain", "shadow")]
    assert [(d.name, d.count()) for d in decks] == [("Chain Swarm", 56), ("Shadow Bloom", 56)]
    chance = ScriptedChance(rolls=[6, 1])
    assert (chance.roll(6), chance.roll(6)) == (6, 1)
    with pytest.raises(Exception, match="ran out|no more|script"):
        chance.roll(6)
    state = game.new_game(decks, seed=3)
    with pytest.raises(IllegalAction):
        state.apply(("no such action",))
    bad = tmp_path / "bad.txt"
    bad.write_text("3x No Such Card\n", encoding="utf-8")
    with pytest.raises(DeckFileError) as caught:
        load_deck(bad, cardset)
    assert isinstance(caught.value, CardsmithError)
    with pytest.raises(SetInvalid):
        load_set(tmp_path)
    with pytest.raises(AttributeError, match="no attribute 'load_sett'"):
        cardsmith.load_sett  # noqa: B018
    assert set(cardsmith.__all__) <= set(dir(cardsmith))


def test_the_documented_example_runs(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    doc = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Public API"):doc.index("## Layers")]
    (example,) = re.findall(r"```python\n(.*?)```", section, re.S)
    exec(compile(example, "docs/engine.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Outcome(ranks=") and out[1].startswith("refused:")


def test_import_cardsmith_stays_light_and_the_engine_draws_no_progress_bar():
    """`import cardsmith` loads no subpackage; the whole engine loads without rich (the one progress
    bar is the simulation layer's)."""
    code = ("import sys, pkgutil, importlib, cardsmith\n"
            "light = sorted(m for m in sys.modules if m.startswith('cardsmith.'))\n"
            "import cardsmith.engine\n"
            "for m in pkgutil.walk_packages(cardsmith.engine.__path__, 'cardsmith.engine.'):\n"
            "    importlib.import_module(m.name)\n"
            "print(light, 'rich' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "False"]
