"""A layout's layer reads and checks kept between processes (`cardsmith.layout.memo`): a new process
starts from the layers earlier ones shared between cards, and gets exactly the trees it would
have made itself."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from cardsmith.cache import kept
from cardsmith.layout import memo, template
from cardsmith.base.project import Project
from cardsmith.render.batch import Face, FaceRenderer, card_layout
from cardsmith.sets.validate import load_set

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mini-empires"


@pytest.fixture
def project(tmp_path: Path):
    shutil.copytree(FIXTURE, tmp_path / "cards" / "mini-empires")
    yield Project(tmp_path)
    kept.keep_in(None)
    new_process()


def new_process() -> None:
    """What a new process starts with: empty memos, no kept file read."""
    for m in memo.MEMOS:
        m.clear()
    memo._SCOPE.name, memo._SCOPE.written = None, 0


def trees(project: Project) -> dict[str, dict]:
    """Every card's layer tree, as a renderer in a new process makes it."""
    new_process()
    cs = load_set(project.cards_dir / "mini-empires")
    r = FaceRenderer(str(project.root), cs, 60, "png", False)
    out = {}
    for c in cs.cards:
        face = Face("card", c.id, card_layout(cs, c, r.layouts), project.root / "x.png")
        out[c.id] = r.layouts.render(face.layout, template.card_context(cs, c, r.setctx), c.id)[0]
        memo.keep_if_grown()
    return out


def kept_memos(project: Project) -> list[Path]:
    return sorted((project.output_dir / ".cache" / "kept").glob("layout-memo-*.pickle"))


def test_a_new_process_starts_from_the_shared_layers_and_makes_the_same_trees(project, monkeypatch):
    first = trees(project)
    assert len(kept_memos(project)) == 1
    parsed: list[str] = []
    real_load = yaml.load
    monkeypatch.setattr(template.yaml, "load", lambda text, Loader: parsed.append(text) or real_load(text, Loader=Loader))
    again = trees(project)
    assert again == first
    fresh_parses = len(parsed)
    kept_memos(project)[0].unlink()
    parsed.clear()
    assert trees(project) == first
    assert fresh_parses < len(parsed)  # the kept layers were not read again


def test_a_damaged_kept_memo_is_drawn_without_and_written_again(project):
    first = trees(project)
    (path,) = kept_memos(project)
    path.write_bytes(b"\x80\x05not a pickle")
    assert trees(project) == first
    assert path.read_bytes()[:2] != b"\x80\x05n"  # rewritten as the run shared layers again


def test_a_changed_layout_schema_reads_none_of_the_old_checks(project, monkeypatch):
    trees(project)
    (before,) = kept_memos(project)
    template._schema_digest.cache_clear()
    monkeypatch.setattr(template, "_schema_digest", lambda: "another schema")
    trees(project)
    assert len(kept_memos(project)) == 2 and before in kept_memos(project)  # its own file, the old one untouched
