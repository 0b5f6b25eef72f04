"""Layouts belong to their set: `cards/<set>/layouts/` travels with the set folder, and nothing a designer
puts at the top of a checkout silently draws every other project's cards."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardsmith.layout.template import layouts_for
from cardsmith.project import BUNDLED_TEMPLATES, Project
from cardsmith.render import card_layout, render_set
from cardsmith.scaffold import scaffold_set
from cardsmith.validate import load_set

ROOT = Path(__file__).resolve().parent.parent
RED = 'layers:\n  - rect: {box: [0, 0, 100%, 100%], bleed: true, fill: "#ff0000"}\n'


def test_a_layout_in_the_sets_own_folder_draws_its_cards(tmp_path):
    set_dir = tmp_path / "cards" / "demo"
    scaffold_set(set_dir)
    (set_dir / "layouts").mkdir()
    (set_dir / "layouts" / "creature.yaml.j2").write_text(RED)
    project = Project(tmp_path)
    cardset = load_set(set_dir)
    result = render_set(project, cardset, dpi=40, only=["dawn-scout", "eclipse"], jobs=1)
    assert result.ok, [d.message for d in result.errors]
    from PIL import Image

    out = project.set_output("demo") / "cards"
    assert Image.open(out / "dawn-scout.png").convert("RGB").getpixel((20, 40)) == (255, 0, 0)  # a creature: the set's layout
    assert Image.open(out / "eclipse.png").convert("RGB").getpixel((20, 40)) != (255, 0, 0)  # a spell: the default


def test_the_bundled_set_is_self_contained(tmp_path):
    shutil.copytree(ROOT / "cards" / "solar-empires", tmp_path / "elsewhere" / "solar-empires")
    cardset = load_set(tmp_path / "elsewhere" / "solar-empires")
    project = Project(tmp_path / "a-project-without-templates")
    layouts = layouts_for(project, cardset)
    for card in cardset.cards[:5]:
        found = layouts.find(card_layout(cardset, card, layouts))
        assert found is not None and found.is_relative_to(tmp_path / "elsewhere" / "solar-empires" / "layouts")


def test_a_projects_layouts_apply_to_that_project_only(tmp_path):
    # cardsmith's own layouts are the generic `default/` ones only (templates/ of the checkout, inside
    # the wheel); a project's templates/ is searched for that project alone, and sets carry their own.
    assert sorted(p.name for p in BUNDLED_TEMPLATES.iterdir()) == ["default"]
    assert (BUNDLED_TEMPLATES / "default" / "card.yaml.j2").is_file()
    mine, other = Project(tmp_path / "mine"), Project(tmp_path / "other")
    assert tmp_path / "mine" / "templates" in mine.template_dirs
    assert tmp_path / "mine" / "templates" not in other.template_dirs
    assert other.template_dirs[-1] == BUNDLED_TEMPLATES
