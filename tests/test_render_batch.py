"""`cardsmith render` as a user runs it: images, manifest, incremental rebuilds, bad input."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardsmith.cli._stages import BuildContext
from cardsmith.base.project import Project
from cardsmith.render.batch import render_set
from cardsmith.cache.freshness import load_manifest
from cardsmith.sets.validate import load_set
from tests.conftest import run_cli, run_in_process

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mini-empires"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    shutil.copytree(FIXTURE, tmp_path / "cards" / "mini-empires")
    return Project(tmp_path)


def load(project: Project):
    return load_set(project.cards_dir / "mini-empires")


def test_renders_every_card_and_back_with_a_manifest(project):
    cs = load(project)
    result = render_set(project, cs, dpi=100, jobs=1)
    assert result.ok and sorted(result.rendered) == sorted(c.id for c in cs.cards)
    assert sorted(result.backs_rendered) == ["fleet", "solar-bodies"]
    out = project.set_output("mini-empires")
    m = load_manifest(out)
    assert m["set"] == "mini-empires" and m["dpi"] == 100 and m["format"] == "png"
    assert m["trim_mm"] == [63.5, 88.9] and m["bleed_mm"] == pytest.approx(3.175) and m["safe_mm"] == pytest.approx(3.175)
    content = ("sha1", "bytes", "mtime_ns")  # what the PDF names each image by without reading it
    rapier = m["cards"]["rapier"]
    assert {k: v for k, v in rapier.items() if k not in content} == {
        "file": "cards/rapier.png", "back": "fleet", "name": "TCS-13 Rapier", "type": "ship", "copies": 1}
    assert m["cards"]["sol-like-star"]["back"] == "solar-bodies"
    assert {b: info["file"] for b, info in m["backs"].items()} == {"fleet": "backs/fleet.png", "solar-bodies": "backs/solar-bodies.png"}
    for info in [*m["cards"].values(), *m["backs"].values()]:
        data = (out / info["file"]).read_bytes()
        assert info["sha1"] == hashlib.sha1(data).hexdigest() and info["bytes"] == len(data)
    with Image.open(out / m["cards"]["rapier"]["file"]) as im:  # trim + bleed on every side, at the dpi asked
        assert im.size == (round((63.5 + 2 * 3.175) / 25.4 * 100), round((88.9 + 2 * 3.175) / 25.4 * 100))
    leftovers = [p for p in out.rglob(".*") if p.name != ".render-cache.json"]
    assert leftovers == []  # no temporary files


def test_changing_one_card_redraws_one_card(project):
    cs = load(project)
    render_set(project, cs, dpi=100, jobs=1)
    again = render_set(project, cs, dpi=100, jobs=1)
    assert again.rendered == [] and again.backs_rendered == [] and len(again.skipped) == len(cs.cards)
    f = project.cards_dir / "mini-empires" / "cards.yaml"
    f.write_text(f.read_text().replace("attack: 5", "attack: 6"))
    changed = render_set(project, load(project), dpi=100, jobs=1)
    assert changed.rendered == ["longbow"]
    forced = render_set(project, load(project), dpi=100, jobs=1, force=True)
    assert len(forced.rendered) == len(cs.cards)
    other_dpi = render_set(project, load(project), dpi=90, jobs=1)
    assert len(other_dpi.rendered) == len(cs.cards)  # options are part of the hash


def test_a_card_moved_in_its_file_is_not_drawn_again_but_what_the_set_says_of_it_is(project):
    """A face's key holds the card's own data (not where it was written) and what the set says of it."""
    render_set(project, load(project), dpi=60, jobs=1)
    f = project.cards_dir / "mini-empires" / "cards.yaml"
    f.write_text("# moved down three lines\n\n\n" + f.read_text())
    assert render_set(project, load(project), dpi=60, jobs=1).rendered == []
    s = project.cards_dir / "mini-empires" / "set.yaml"
    s.write_text(s.read_text().replace("reduce every enemy damage roll by X", "lower every enemy damage roll by X"))
    assert "longbow" in render_set(project, load(project), dpi=60, jobs=1).rendered  # it has Shield
    s.write_text(s.read_text().replace("{name: Terracorp,", "{name: Terra Corp,"))
    assert {c.id for c in load(project).cards if c.race == "terracorp"} <= set(
        render_set(project, load(project), dpi=60, jobs=1).rendered)


def test_changing_a_layout_or_an_icon_redraws_the_cards_that_use_it(project):
    cs = load(project)
    render_set(project, cs, dpi=60, jobs=1)
    tdir = project.root / "templates" / "mini-empires"
    tdir.mkdir(parents=True)
    (tdir / "relic.yaml.j2").write_text("extends: card\nlayers:\n  - text: {name: title, size: 10pt}\n")
    r = render_set(project, cs, dpi=60, jobs=1)
    assert r.rendered == ["old-relic"]
    (tdir / "relic.yaml.j2").write_text("extends: card\nlayers:\n  - text: {name: title, size: 9pt}\n")
    assert render_set(project, cs, dpi=60, jobs=1).rendered == ["old-relic"]
    icon = project.cards_dir / "mini-empires" / "icons" / "energy.svg"
    icon.write_text(icon.read_text().replace("#f4b400", "#f4b401"))
    assert len(render_set(project, cs, dpi=60, jobs=1).rendered) == len(cs.cards)


def test_replacing_a_card_art_file_redraws_that_card_only(project):
    cs = load(project)
    render_set(project, cs, dpi=60, jobs=1)
    art = project.cards_dir / "mini-empires" / "art" / "nebula.png"
    user = next(c.id for c in cs.cards if c.art)
    with Image.open(art) as im:
        im.convert("RGB").transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(art)
    assert render_set(project, cs, dpi=60, jobs=1).rendered == [user]
    assert render_set(project, cs, dpi=60, jobs=1).rendered == []


def test_the_render_cache_names_each_list_of_files_once_and_reads_older_caches(project):
    cs = load(project)
    render_set(project, cs, dpi=60, jobs=1)
    path = project.set_output("mini-empires") / ".render-cache.json"
    data = json.loads(path.read_text())
    faces, lists = data["faces"], data["file_lists"]
    assert len(faces) == len(cs.cards) + 2
    assert len({tuple(x) for x in lists}) == len(lists)  # each list once: faces drawn with the same files share one
    assert all(isinstance(e["files"], int) and lists[e["files"]] for e in faces.values())
    assert render_set(project, cs, dpi=60, jobs=1).rendered == []
    # a cache written before the lists were shared (each face's files in its entry) is read as it is
    path.write_text(json.dumps({k: {**e, "files": lists[e["files"]]} for k, e in faces.items()}))
    assert render_set(project, cs, dpi=60, jobs=1).rendered == []
    data["faces"]["card:rapier"]["files"] = 999  # a damaged entry: that face is drawn again, the others are not
    path.write_text(json.dumps(data))
    assert render_set(project, cs, dpi=60, jobs=1).rendered == ["rapier"]


def test_only_renders_the_named_cards(project):
    r = render_set(project, load(project), dpi=60, jobs=1, only=["mines"])
    assert r.rendered == ["mines"] and r.backs_rendered == ["fleet"]
    assert list(load_manifest(project.set_output("mini-empires"))["cards"]) == ["mines"]
    full = render_set(project, load(project), dpi=60, jobs=1)
    assert "mines" not in full.rendered and len(full.rendered) == len(load(project).cards) - 1
    render_set(project, load(project), dpi=60, jobs=1, only=["rapier"], force=True)
    assert render_set(project, load(project), dpi=60, jobs=1).rendered == []  # --only kept the others' hashes


def test_cli_render_in_two_processes_and_incremental(project):
    p = run_cli("render", "mini-empires", "--dpi", "60", "--jobs", "2", cwd=project.root)
    assert p.returncode == 0, p.stderr
    assert "7 card(s) (7 drawn, 0 unchanged), 2 back(s)" in p.stderr
    p = run_in_process("render", "--dpi", "60", cwd=project.root)
    assert p.returncode == 0 and "(0 drawn, 7 unchanged)" in p.stderr
    p = run_in_process("render", "--only", "rapir", cwd=project.root)
    assert p.returncode == 2 and "rapier" in p.stderr


def test_a_new_set_renders_with_the_default_layouts(tmp_path):
    assert run_in_process("new", "cards/demo", cwd=tmp_path).returncode == 0
    p = run_in_process("render", "--dpi", "80", "--format", "jpg", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    m = load_manifest(tmp_path / "output" / "demo")
    assert m["format"] == "jpg" and len(m["cards"]) == 4 and list(m["backs"]) == ["default"]
    assert m["backs"]["default"]["file"] == "backs/default.jpg"
    with Image.open(tmp_path / "output" / "demo" / "cards" / "dawn-scout.jpg") as im:
        assert im.format == "JPEG"


def broken_layout(project: Project, text: str) -> None:
    tdir = project.root / "templates" / "mini-empires"
    tdir.mkdir(parents=True, exist_ok=True)
    (tdir / "relic.yaml.j2").write_text(text)


@pytest.mark.parametrize("layout, expected", [
    ("layers:\n  - text: {box: [0, 0, 1, 1], value: \"{{ card.name \"}\n", r"relic\.yaml\.j2:2: layout syntax error"),
    ("layers:\n  - text: {box: [0, 0, 1, 1], value: \"{{ card.nope }}\"}\n", r"relic\.yaml\.j2:2: .*nope"),
    ("layers:\n  - circle: {box: [0, 0, 1, 1]}\n", r"unknown kind 'circle'"),
    ("layers:\n  - rect: {box: [10mm, 0, 5mm, 1], fill: red}\n", r"negative size"),
    ("layers:\n  - text: {box: [0, 0, 1, 1], value: x, font: comic-sans}\n", r"font 'comic-sans' is not installed"),
])
def test_bad_layouts_are_clear_errors_and_leave_no_image(project, layout, expected):
    run_in_process("render", "--dpi", "40", cwd=project.root)
    image = project.set_output("mini-empires") / "cards" / "old-relic.png"
    assert image.is_file()
    broken_layout(project, layout)
    p = run_in_process("render", "--dpi", "40", cwd=project.root)
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    assert "card 'old-relic'" in p.stderr and "cards.yaml:" in p.stderr
    import re
    assert re.search(expected, p.stderr), p.stderr
    assert not image.exists()  # the outdated picture is gone, and no half-written one is left
    assert "old-relic" not in load_manifest(project.set_output("mini-empires"))["cards"]
    assert (project.set_output("mini-empires") / "cards" / "rapier.png").is_file()


@pytest.mark.parametrize("content, expected", [(b"not an image at all", "not an image"), (None, "truncated|damaged")])
def test_bad_art_is_a_clear_error(project, content, expected):
    art = project.cards_dir / "mini-empires" / "art" / "nebula.png"
    art.write_bytes(content if content is not None else art.read_bytes()[:400])
    p = run_in_process("render", "--dpi", "40", cwd=project.root)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    import re
    assert "card 'ringed-planet'" in p.stderr and "nebula.png" in p.stderr and re.search(expected, p.stderr)
    assert not (project.set_output("mini-empires") / "cards" / "ringed-planet.png").exists()


def test_overflow_warns_and_strict_makes_it_an_error(project):
    broken_layout(project, "extends: card\nlayers:\n  - text: {name: rules, box: [5mm, 70mm, 20mm, 72mm], min_size: 6pt}\n")
    p = run_in_process("render", "--dpi", "40", "--only", "old-relic", cwd=project.root)
    assert p.returncode == 0
    assert "warning: card 'old-relic': text 'text' does not fit its box" in p.stderr and "mm too tall" in p.stderr
    p = run_in_process("render", "--dpi", "40", "--only", "old-relic", "--strict", cwd=project.root)
    assert p.returncode == 1 and "error: card 'old-relic': text 'text' does not fit" in p.stderr


def test_build_stage_renders_the_set(project):
    ctx = BuildContext(project, load(project), {"jobs": 1})
    from cardsmith.render.batch import build_stage
    build_stage(ctx)
    assert not [d for d in ctx.diagnostics if d.is_error]
    assert any("7 card images" in what for what, _ in ctx.outputs)


def test_switching_format_replaces_the_old_images(project):
    cs = load(project)
    render_set(project, cs, dpi=40, jobs=1)
    render_set(project, cs, dpi=40, jobs=1, fmt="webp")
    cards = project.set_output("mini-empires") / "cards"
    assert sorted(p.suffix for p in cards.iterdir() if p.suffix in (".png", ".webp")) == [".webp"] * len(cs.cards)
    assert load_manifest(project.set_output("mini-empires"))["cards"]["rapier"]["file"] == "cards/rapier.webp"


def test_spawned_workers_get_the_set_too(project, monkeypatch):
    """Windows and macOS start workers by spawning, which pickles the set (read-only maps included)."""
    import multiprocessing  # imported by render_set when it starts workers

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    r = render_set(project, load(project), dpi=40, jobs=2)
    assert r.ok and len(r.rendered) == 7


def test_guides_go_to_their_own_folder_and_leave_the_print_images_alone(project):
    cs = load(project)
    render_set(project, cs, dpi=60, only=["rapier"], jobs=1)
    out = project.set_output("mini-empires")
    print_image = (out / "cards" / "rapier.png").read_bytes()
    proofs = render_set(project, cs, dpi=60, only=["rapier"], guides=True, jobs=1)
    assert proofs.out_dir == out / "guides" and (out / "guides" / "cards" / "rapier.png").is_file()
    assert (out / "cards" / "rapier.png").read_bytes() == print_image
    assert (out / "guides" / "cards" / "rapier.png").read_bytes() != print_image
