"""Layouts belong to their set: `cards/<set>/layouts/` travels with the set folder, and nothing a designer
puts at the top of a checkout silently draws every other project's cards."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardsmith.layout.template import layouts_for
from cardsmith.project import BUNDLED_TEMPLATES, PACKAGE_DIR, Project
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


def test_layouts_at_the_top_of_a_checkout_are_that_projects_only(tmp_path):
    # cardsmith's own layouts ship inside the package, so an editable install's checkout is just a project
    assert BUNDLED_TEMPLATES.is_relative_to(PACKAGE_DIR) and (BUNDLED_TEMPLATES / "default" / "card.yaml.j2").is_file()
    other = Project(tmp_path)
    assert ROOT / "templates" not in other.template_dirs
    checkout = Project(ROOT)
    assert ROOT / "templates" in checkout.template_dirs
