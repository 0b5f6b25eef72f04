"""Alien Empires' layouts: every face renders without a print-rule warning, and each of the 65 race
powers draws an emblem of its own (generated from its id), not one shared picture."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from cardsmith.base.project import Project
from cardsmith.render.batch import render_set
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parent.parent
DPI = 60


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    root = tmp_path_factory.mktemp("alien-empires")
    shutil.copytree(ROOT / "cards" / "alien-empires", root / "cards" / "alien-empires")
    project = Project(root)
    cardset = load_set(root / "cards" / "alien-empires")
    result = render_set(project, cardset, dpi=DPI, jobs=1, strict=True)
    return cardset, result, project.set_output("alien-empires")


def test_every_face_renders_without_warnings(rendered):
    cardset, result, out = rendered
    assert [d.message for d in result.diagnostics] == []
    assert len(list((out / "cards").glob("*.png"))) == len(cardset.cards)


def test_every_race_has_an_emblem_of_its_own(rendered):
    """No two race cards' emblem areas look alike (mean difference of at least 4 levels in 255)."""
    cardset, _, out = rendered
    bleed = round(cardset.bleed / 25.4 * DPI)
    px = lambda mm: round(mm / 25.4 * DPI) + bleed  # noqa: E731
    races = [c for c in cardset.cards if c.type == "race"]
    assert len(races) == 65
    crops = {c.id: Image.open(out / "cards" / f"{c.id}.png").convert("RGB").crop((px(8), px(14), px(55.5), px(44)))
             for c in races}
    ids = sorted(crops)
    alike = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]
             if sum(ImageStat.Stat(ImageChops.difference(crops[a], crops[b])).mean) / 3 < 4]
    assert alike == []
