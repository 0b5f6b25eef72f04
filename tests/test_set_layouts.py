"""Layouts belong to their set: `cards/<set>/layouts/` travels with the set folder, and nothing a designer
puts at the top of a checkout silently draws every other project's cards."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardsmith.layout.template import layouts_for
from cardsmith.base.project import BUNDLED_TEMPLATES, Project
from cardsmith.render.batch import render_set
from cardsmith.layout.faces import card_layout
from cardsmith.sets.scaffold import scaffold_set
from cardsmith.sets.validate import load_set

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


GREEN = 'layers:\n  - rect: {box: [0, 0, 100%, 100%], bleed: true, fill: "#00ff00"}\n'


def _set_with_folders(tmp_path: Path, declared: str) -> Path:
    set_dir = tmp_path / "cards" / "demo"
    scaffold_set(set_dir)
    with (set_dir / "set.yaml").open("a", encoding="utf-8") as f:
        f.write(f"layout_folders: {declared}\n")
    return set_dir


def _pixel(project: Project, set_dir: Path, card: str) -> tuple:
    from PIL import Image

    result = render_set(project, load_set(set_dir), dpi=40, only=[card], jobs=1)
    assert result.ok, [d.message for d in result.errors]
    return Image.open(project.set_output("demo") / "cards" / f"{card}.png").convert("RGB").getpixel((20, 40))


def test_set_yaml_names_the_sets_layout_folders_searched_in_order(tmp_path):
    set_dir = _set_with_folders(tmp_path, "[design/faces, design/shared]")
    for folder, layout in (("faces", GREEN), ("shared", RED), ("../layouts", RED)):
        (set_dir / "design" / folder).mkdir(parents=True, exist_ok=True)
        (set_dir / "design" / folder / "creature.yaml.j2").write_text(layout)
    (set_dir / "design" / "shared" / "spell.yaml.j2").write_text(RED)
    project = Project(tmp_path)
    assert _pixel(project, set_dir, "dawn-scout") == (0, 255, 0)  # the first folder wins; layouts/ is not searched
    assert _pixel(project, set_dir, "eclipse") == (255, 0, 0)  # found in the second folder
    (set_dir / "design" / "faces" / "creature.yaml.j2").unlink()
    assert _pixel(project, set_dir, "dawn-scout") == (255, 0, 0)  # redrawn: the layout it used is gone


def test_a_layout_folder_that_is_missing_or_outside_the_set_is_a_located_error(tmp_path):
    from cardsmith.sets.validate import check_set

    set_dir = _set_with_folders(tmp_path, "[layouts, desing]")
    (set_dir / "layouts").mkdir()
    (set_dir / "design").mkdir()
    cardset, diags = check_set(set_dir)
    line = (set_dir / "set.yaml").read_text().splitlines().index("layout_folders: [layouts, desing]") + 1
    assert cardset is None
    [d] = [d for d in diags if d.is_error]
    assert (d.file.name, d.line, d.column) == ("set.yaml", line, 27)
    assert d.message == "layout folder 'desing' does not exist" and "did you mean 'design'?" in d.hint
    (set_dir / "set.yaml").write_text((set_dir / "set.yaml").read_text().replace("[layouts, desing]", "../../templates"))
    cardset, diags = check_set(set_dir)
    assert cardset is None and [d.message for d in diags if d.is_error] == ["layout folder '../../templates' is outside the set folder"]


def test_borrowing_another_sets_layout_follows_its_layout_folders(tmp_path):
    other = _set_with_folders(tmp_path, "faces")
    (other / "faces").mkdir()
    (other / "faces" / "creature.yaml.j2").write_text(GREEN)
    mine = tmp_path / "cards" / "mine"
    scaffold_set(mine)
    text = (mine / "set.yaml").read_text().replace("id: demo", "id: mine")
    (mine / "set.yaml").write_text(text + "layouts: {creature: demo/creature}\n")
    project = Project(tmp_path)
    cardset = load_set(mine)
    found = layouts_for(project, cardset).find("demo/creature")
    assert found == other / "faces" / "creature.yaml.j2"
