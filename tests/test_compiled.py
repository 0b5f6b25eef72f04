"""The compiled build (cardsmith/compiled.py): used only while it matches its source, and it plays the
same games as the plain-Python modules."""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardsmith import compiled

ROOT = Path(__file__).resolve().parents[1]


def _fake_build(root: Path, names: tuple[str, ...], so_bytes: bytes = b"") -> None:
    """A package `fakepkg` under `root` whose modules look compiled: a .py, a file with this Python's
    extension suffix, and a manifest recording the .py's digest."""
    pkg = root / "fakepkg"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    sources = {}
    for name in names:
        (pkg / f"{name}.py").write_text(f"WHO = 'source of {name}'\n")
        (pkg / f"{name}{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(so_bytes)
        module = f"fakepkg.{name}"
        sources[module] = compiled.digest(compiled.source_files(root, module))
    (root / "cardsmith").mkdir(exist_ok=True)
    (root / "cardsmith" / compiled.MANIFEST).write_text(json.dumps({"sources": sources}))


def test_a_build_that_matches_its_sources_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    _fake_build(tmp_path, ("a", "b"))
    assert compiled.check(tmp_path, ("fakepkg.a", "fakepkg.b")) == (True, "compiled (Cython)")


def test_an_edited_source_turns_every_module_to_plain_python(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    _fake_build(tmp_path, ("a", "b"))
    (tmp_path / "fakepkg" / "b.py").write_text("WHO = 'edited'\n")
    ok, why = compiled.check(tmp_path, ("fakepkg.a", "fakepkg.b"))
    assert not ok and "b.py changed since it was compiled" in why and "install line" in why


def test_a_declarations_file_counts_as_source(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    _fake_build(tmp_path, ("a",))
    (tmp_path / "fakepkg" / "a.pxd").write_text("cdef class X:\n    cdef public object y\n")
    assert not compiled.check(tmp_path, ("fakepkg.a",))[0]


def test_a_missing_compiled_module_or_manifest_means_plain_python(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    _fake_build(tmp_path, ("a", "b"))
    (tmp_path / "fakepkg" / f"b{importlib.machinery.EXTENSION_SUFFIXES[0]}").unlink()
    ok, why = compiled.check(tmp_path, ("fakepkg.a", "fakepkg.b"))
    assert not ok and "fakepkg.b was not compiled" in why
    (tmp_path / "cardsmith" / compiled.MANIFEST).unlink()
    ok, why = compiled.check(tmp_path, ("fakepkg.a",))
    assert not ok and "no compiled build" in why
    (tmp_path / "cardsmith" / compiled.MANIFEST).write_text("{not json")
    assert not compiled.check(tmp_path, ("fakepkg.a",))[0]


def test_the_environment_variable_asks_for_plain_python(tmp_path, monkeypatch):
    _fake_build(tmp_path, ("a",))
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.check(tmp_path, ("fakepkg.a",)) == (False, f"pure Python ({compiled.PURE_ENV} is set)")
    monkeypatch.setenv(compiled.PURE_ENV, "0")
    assert compiled.check(tmp_path, ("fakepkg.a",))[0]


def test_a_stale_compiled_file_is_never_imported(tmp_path, monkeypatch):
    """Python prefers a compiled file to the .py beside it: the finder must step in. The compiled
    file here is not a loadable library at all, so importing it would fail."""
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    _fake_build(tmp_path, ("a",), so_bytes=b"not a shared library")
    (tmp_path / "fakepkg" / "a.py").write_text("WHO = 'edited source'\n")
    monkeypatch.setattr(compiled, "ROOT", str(tmp_path))
    monkeypatch.setattr(compiled, "MODULES", ("fakepkg.a",))
    monkeypatch.setattr(compiled, "_status", compiled.check(tmp_path, ("fakepkg.a",)))
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("fakepkg", "fakepkg.a"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    compiled.install()
    assert importlib.import_module("fakepkg.a").WHO == "edited source"
    # ...while a build that matches its sources is left to Python's own finders, which take the
    # compiled file (here unloadable, which proves it was chosen)
    monkeypatch.setattr(compiled, "_status", (True, "compiled (Cython)"))
    monkeypatch.delitem(sys.modules, "fakepkg.a")
    with pytest.raises(ImportError):
        importlib.import_module("fakepkg.a")
    monkeypatch.delitem(sys.modules, "fakepkg.a", raising=False)


_PLAY = """
import hashlib, sys
from pathlib import Path
from cardsmith import compiled
from cardsmith.engine.registry import load_game
from cardsmith.engine.runner import match_tasks, run_tasks
from cardsmith.simulation.sets import SetGameFactory, load_checked_deck, load_set_checked

path = Path(sys.argv[1]) / "cards" / "solar-empires"
cardset = load_set_checked(path)
decks = [load_checked_deck(cardset, path / "decks" / f"{d}.yaml") for d in ("chain", "terracorp")]
h = hashlib.sha256()
for agents, games in ((("random", "random"), 40), (("greedy", "random"), 2)):
    for r in run_tasks(SetGameFactory(path), decks, match_tasks(agents, games, 7), jobs=1, game=load_game(cardset)):
        h.update(repr((r.actions, r.ranks, r.end_reason, r.turns, r.first_actor)).encode())
print(compiled.status()[0], h.hexdigest())
"""


def _played(pure: bool) -> tuple[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(compiled.PURE_ENV, None)
    if pure:
        env[compiled.PURE_ENV] = "1"
    out = subprocess.run([sys.executable, "-c", _PLAY, str(ROOT)], env=env, capture_output=True, text=True,
                         timeout=300, check=True).stdout.split()
    return out[0], out[1]


@pytest.mark.skipif(not compiled.check(ROOT)[0], reason="this checkout has no up-to-date compiled build")
def test_the_compiled_modules_play_the_same_games_as_the_source():
    """Random and greedy games (legal sets, chance, clones, look-ahead) from the same seeds."""
    fast, pure = _played(pure=False), _played(pure=True)
    assert fast[0] == "True" and pure[0] == "False"
    assert fast[1] == pure[1]


def test_version_says_which_build_runs(monkeypatch):
    from click.testing import CliRunner

    from cardsmith import __version__
    from cardsmith.commands.group import cli

    monkeypatch.setattr(compiled, "_status", (False, "pure Python (CARDSMITH_PURE_PYTHON is set)"))
    out = CliRunner().invoke(cli, ["--version"])
    assert out.exit_code == 0
    assert out.output == f"cardsmith, version {__version__}\nsimulation modules: pure Python (CARDSMITH_PURE_PYTHON is set)\n"
