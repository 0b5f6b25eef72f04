"""`cardsmith play --from FILE` with a hand-edited position: a clear error naming the file, never an
internal error (TransWar, #rm2k_anime and Alien Empires crashed with TypeError, ValueError, IndexError or
AssertionError on values a person could type)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def transwar_end(tmp_path_factory):
    from tests.conftest import run_in_process

    out = tmp_path_factory.mktemp("pos") / "end.yaml"
    r = run_in_process("play", "transwar", "--players", "2", "--games", "1", "--jobs", "1", "--log-position", str(out), cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return yaml.safe_load(out.read_text())


@pytest.mark.parametrize("edit, shows", [
    ({"turn": "banana"}, "turn is 'banana'"),
    ({"forms": ["skunk"]}, "forms"),
])
def test_a_position_the_game_cannot_continue_from_is_an_error_naming_the_file(transwar_end, tmp_path, cli, edit, shows):
    position = dict(transwar_end, turn_cap=10_000, **edit)
    path = tmp_path / "edited.yaml"
    path.write_text(yaml.safe_dump(position))
    r = cli("play", "transwar", "--from", str(path), "--games", "1", "--jobs", "1", cwd=ROOT)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert str(path) in r.stderr and shows in r.stderr
    assert "bug in cardsmith" not in r.stderr and "Traceback" not in r.stderr


def test_an_unedited_position_still_plays(transwar_end, tmp_path, cli):
    path = tmp_path / "end.yaml"
    # The game ended at its turn cap (turn 401); a cap of 500 has both games go on from it for up to 99
    # turns (a cap of 10 000 let them run to ~1000 turns: seconds spent on nothing this test checks).
    assert transwar_end["turn"] < 500
    path.write_text(yaml.safe_dump(dict(transwar_end, turn_cap=500)))
    r = cli("play", "transwar", "--from", str(path), "--games", "2", "--jobs", "1", "--json", cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["length"]["min"] > transwar_end["turn"]  # both games went on from the position
