"""`cardsmith render` after an edit validates the set in a second process while it sets up drawing:
the same result as validating in one, and never a stale one."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mini-empires"

# Count the validations each process runs: the parent must read the set the child validated.
SCRIPT = """
import json, os, sys
from pathlib import Path
from cardsmith.sets import validate
from cardsmith.cli import aside
from cardsmith.base.project import Project
calls = {"parent": 0}
real = validate.check_set
def counted(*a, **k):
    if os.getpid() == PARENT:
        calls["parent"] += 1
    return real(*a, **k)
validate.check_set = counted
PARENT = os.getpid()
cardset, diags = aside.validated_set(Project(Path(".")), Path("cards/mini-empires").resolve(), None)
errors = [d.message for d in diags if d.is_error]
print(json.dumps({"parent_validations": calls["parent"], "attack": cardset.by_id()["longbow"]["attack"] if cardset else None,
                  "errors": errors}))
"""


def _run(project: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=project, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_set_validated_aside_is_the_set_as_edited(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "cards" / "mini-empires")
    first = _run(tmp_path)
    assert first == {"parent_validations": 0, "attack": 5, "errors": []}
    f = tmp_path / "cards" / "mini-empires" / "cards.yaml"
    f.write_text(f.read_text().replace("attack: 5", "attack: 6"))
    assert _run(tmp_path) == {"parent_validations": 0, "attack": 6, "errors": []}
    f.write_text(f.read_text().replace("attack: 6", "attack: lots"))
    broken = _run(tmp_path)  # errors are not cached: the child sends them, so they are not looked for twice
    assert broken["parent_validations"] == 0 and broken["attack"] is None and any("attack" in e for e in broken["errors"])
    assert _run(tmp_path) == broken  # and again, the same words
