"""Rebuilds that cost what changed: an unchanged PDF is not written again, and a rebuilt one shows
what a build without any cache makes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from cardsmith.printing.pdf import PdfOptions, build_pdf, print_pdf, select_items
from cardsmith.cache.pdfstamps import STREAMS_DIR
from cardsmith.base.project import Project
from cardsmith.cache.freshness import load_manifest
from cardsmith.sets.validate import load_set
from tests.pdf_support import make_rendered, raster, same_pages

HERE = Path(__file__).resolve().parent


@pytest.fixture
def project(tmp_path) -> Project:
    shutil.copytree(HERE / "fixtures" / "mini-empires", tmp_path / "cards" / "mini-empires")
    return Project(tmp_path)


def _uncached(project: Project, target: Path, options: PdfOptions) -> bytes:
    """The same PDF made from the same images, hashing every file and keeping no stamp."""
    cs = load_set(project.cards_dir / "mini-empires")
    out = project.set_output("mini-empires")
    manifest = load_manifest(out)
    items = select_items(cs, manifest, out)
    return print_pdf(items, manifest, options, target, title=f"{cs.name} {cs.version}",
                     footer=f"{cs.name} {cs.version}").read_bytes()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) not installed")
def test_an_unchanged_pdf_is_left_alone_and_a_changed_card_rewrites_it_as_a_build_without_cache_does(project, tmp_path):
    options = PdfOptions(backs="long")
    cs = load_set(project.cards_dir / "mini-empires")
    path, written = build_pdf(project, cs, options, jobs=1)
    assert written
    first = path.stat().st_mtime_ns
    assert path.read_bytes() == _uncached(project, tmp_path / "plain.pdf", options)

    path, written = build_pdf(project, load_set(project.cards_dir / "mini-empires"), options, jobs=1)
    assert not written and path.stat().st_mtime_ns == first

    cards = project.cards_dir / "mini-empires" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("attack: 2", "attack: 3", 1), encoding="utf-8")
    old = path.read_bytes()
    path, written = build_pdf(project, load_set(project.cards_dir / "mini-empires"), options, jobs=1)
    assert written and path.read_bytes() != old
    (tmp_path / "plain2.pdf").write_bytes(_uncached(project, tmp_path / "plain2.pdf", options))
    assert same_pages(raster(path, tmp_path / "a"), raster(tmp_path / "plain2.pdf", tmp_path / "b"))


def test_other_options_a_deleted_pdf_or_a_retouched_image_rebuild(project):
    cs = load_set(project.cards_dir / "mini-empires")
    path, _ = build_pdf(project, cs, PdfOptions(), jobs=1)
    assert build_pdf(project, cs, PdfOptions(crop_marks=False, name="grid-a4"), jobs=1)[1]  # same file, other marks
    assert not build_pdf(project, cs, PdfOptions(crop_marks=False, name="grid-a4"), jobs=1)[1]
    path.unlink()
    assert build_pdf(project, cs, PdfOptions(crop_marks=False, name="grid-a4"), jobs=1)[1]
    before = path.read_bytes()
    art = project.set_output("mini-empires") / "cards" / "rapier.png"
    with Image.open(art) as im:  # touched up by hand after rendering: the manifest's hash is stale
        im.convert("RGB").transpose(Image.Transpose.FLIP_TOP_BOTTOM).save(art)
    assert build_pdf(project, cs, PdfOptions(crop_marks=False, name="grid-a4"), jobs=1)[1]
    assert path.read_bytes() != before


def test_images_the_pdf_must_recompress_are_compressed_once(tmp_path, monkeypatch):
    from reportlab.pdfbase import pdfdoc

    out = tmp_path / "demo"
    manifest = make_rendered(out, n=3, types=("unit",))
    for info in manifest["cards"].values():  # translucent PNGs cannot go into the PDF as they are
        with Image.open(out / info["file"]) as im:
            im.convert("RGBA").save(out / info["file"])
    items = select_items(None, manifest, out)
    a = print_pdf(items, manifest, PdfOptions(), tmp_path / "a.pdf", out_dir=out).read_bytes()
    assert len(list((out / STREAMS_DIR).glob("*.bin"))) == 3

    decoded = []
    real_load = pdfdoc.PDFImageXObject.loadImageFromRaw
    monkeypatch.setattr(pdfdoc.PDFImageXObject, "loadImageFromRaw", lambda self, src: decoded.append(src) or real_load(self, src))
    b = print_pdf(items, manifest, PdfOptions(), tmp_path / "b.pdf", out_dir=out).read_bytes()
    assert decoded == []  # every card's stream came from the store
    assert a == b == print_pdf(items, manifest, PdfOptions(), tmp_path / "c.pdf").read_bytes()  # and equals no cache at all
    assert len(decoded) == 3
