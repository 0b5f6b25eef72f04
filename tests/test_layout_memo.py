"""A layout's layer reads and checks memoised in the process (`cardsmith.layout.memo`): cards drawn
after the first reuse the layers they share, and get exactly the trees they would have made afresh."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from cardsmith.base.project import Project
from cardsmith.layout import template
from cardsmith.layout.faces import card_layout
from cardsmith.render.draw import FaceRenderer
from cardsmith.render.plan import Face
from cardsmith.sets.validate import load_set

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mini-empires"
MEMOS = (template._CHUNKS, template._VALID, template._VALID_PROPS)


@pytest.fixture
def project(tmp_path: Path):
    shutil.copytree(FIXTURE, tmp_path / "cards" / "mini-empires")
    yield Project(tmp_path)
    for m in MEMOS:
        m.clear()


def trees(project: Project) -> dict[str, dict]:
    """Every card's layer tree, in card order."""
    cs = load_set(project.cards_dir / "mini-empires")
    r = FaceRenderer(str(project.root), cs, 60, "png", False)
    out = {}
    for c in cs.cards:
        face = Face("card", c.id, card_layout(cs, c, r.layouts), project.root / "x.png")
        out[c.id] = r.layouts.render(face.layout, template.card_context(cs, c, r.setctx), c.id)[0]
    return out


def test_shared_layers_are_read_once_and_make_the_same_trees(project, monkeypatch):
    for m in MEMOS:
        m.clear()
    parsed: list[str] = []
    real_load = yaml.load
    monkeypatch.setattr(template.yaml, "load", lambda text, Loader: parsed.append(text) or real_load(text, Loader=Loader))
    first = trees(project)
    fresh = len(parsed)
    parsed.clear()
    assert trees(project) == first
    assert len(parsed) < fresh  # the layers already read were not read again


def test_a_full_memo_is_emptied_and_the_trees_stay_the_same(project, monkeypatch):
    first = trees(project)
    for m in MEMOS:
        m.clear()
        monkeypatch.setattr(m, "limit", 2)
    assert trees(project) == first
    assert all(len(m.values) <= 2 for m in MEMOS)
