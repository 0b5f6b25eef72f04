"""Issue 32: untrusted sets, caches and command lines. No code runs from data, nothing is read from
outside the set, nothing is written where it was not asked, nothing runs without a bound."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from pathlib import Path

import pytest

from cardsmith.base.project import Project
from cardsmith.cache import freshness, setcache


class _WritesAFile:
    """What an attacker plants: unpickling it would create `target`."""

    def __init__(self, target: Path):
        self.target = target

    def __reduce__(self):
        return (open, (str(self.target), "w"))


def _planted_json(payload) -> bytes:
    body = json.dumps(payload).encode()
    return b"cardsmith-cache-json 1\n" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body


# ---- 1. no code from data ---------------------------------------------------------------------------

def test_a_planted_pickle_in_the_set_cache_writes_nothing(demo_set, cli, tmp_path):
    project = demo_set.parent.parent
    assert cli("render", "demo", cwd=project).returncode == 0
    stamp = freshness.stamp_for(Project(project), demo_set, "set").path
    target = tmp_path / "pwned"
    evil = pickle.dumps(_WritesAFile(target))
    cache_files = [stamp.with_name(stamp.stem + "-model.json"), stamp.with_name(stamp.stem + "-items.json"),
                   stamp.with_suffix(".pickle"), stamp.with_name(stamp.stem + "-items.pickle")]
    assert cache_files[0].is_file() and cache_files[1].is_file()
    for f in cache_files:
        f.write_bytes(evil)
    for args in (("render", "demo"), ("build", "demo")):
        r = cli(*args, cwd=project)
        assert r.returncode == 0, r.stderr
    assert not target.exists()
    # and the caches were rewritten as JSON, readable again
    assert setcache.loads(cache_files[0].read_bytes())[0].id == "demo"


@pytest.mark.parametrize("cls", ["subprocess:Popen", "cardsmith.engine.runner:ProcessPoolExecutor",
                                 "cardsmith.base.project:Path", "builtins:open", "cardsmith.nothere:X"])
def test_a_cache_file_with_a_good_digest_builds_only_model_dataclasses(cls, tmp_path):
    import cardsmith.engine.runner  # noqa: F401  (a module that imports a class with side effects)

    data = _planted_json({"c": cls, "v": {"args": str(tmp_path / "pwned")}})
    with pytest.raises(ValueError):
        setcache.loads(data)
    assert not (tmp_path / "pwned").exists()


def test_a_damaged_cache_file_fails_its_digest():
    good = setcache.dumps({"code": "x", "items": {("a", 1): (1, 2)}})
    assert setcache.loads(good) == {"code": "x", "items": {("a", 1): (1, 2)}}
    with pytest.raises(ValueError, match="digest"):
        setcache.loads(good[:-3] + b"9}}")
