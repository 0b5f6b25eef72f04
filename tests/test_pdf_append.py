"""A PDF whose pages are unchanged and only some card images changed is brought up to date by
appending those images (an incremental update): the pages then show the new card and nothing else
changes, as a full rewrite would show them; anything an update cannot do is a full rewrite, and an
interrupted update leaves the old PDF whole."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from cardsmith.base import atomic
from cardsmith.printing import pdfappend
from cardsmith.base.errors import CardsmithError
from cardsmith.printing.pdf import PdfOptions, print_pdf, select_items
from tests.pdf_support import make_rendered, raster, same_pages

pypdf = pytest.importorskip("pypdf")
pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) not installed")


def repaint(path: Path, colour: tuple[int, int, int], mode: str = "RGB") -> None:
    """Draw a large block over a card image (a visible change of that card only)."""
    with Image.open(path) as im:
        im = im.convert("RGB")
    ImageDraw.Draw(im).rectangle([20, 20, im.width - 20, im.height // 2], fill=colour)
    im.convert(mode).save(path)


@pytest.fixture
def rendered(tmp_path):
    out = tmp_path / "out" / "demo"
    manifest = make_rendered(out, n=12)
    return out, manifest


def write(out: Path, manifest: dict, target: Path) -> Path:
    """The PDF as `cardsmith pdf` keeps it: stamped in `out`, reusing what it can."""
    items = select_items(None, manifest, out)
    return print_pdf(items, manifest, PdfOptions(backs="long"), target, title="Demo", footer="Demo", out_dir=out, reuse=True)


def full(out: Path, manifest: dict, target: Path) -> Path:
    """The same PDF written from scratch, with no stamp."""
    items = select_items(None, manifest, out)
    return print_pdf(items, manifest, PdfOptions(backs="long"), target, title="Demo", footer="Demo")


def test_a_changed_card_is_appended_and_the_pages_show_it_as_a_full_rewrite_does(rendered, tmp_path, caplog):
    out, manifest = rendered
    target = write(out, manifest, tmp_path / "demo.pdf")
    before_bytes = target.read_bytes()
    before = raster(target, tmp_path / "r0")
    repaint(out / "cards" / "card-04.png", (0, 0, 0))
    write(out, manifest, target)
    after_bytes = target.read_bytes()
    assert after_bytes.startswith(before_bytes) and len(after_bytes) > len(before_bytes)  # appended, not rewritten
    assert b"/Prev " in after_bytes[len(before_bytes):]
    after = raster(target, tmp_path / "r1")
    assert same_pages(after, raster(full(out, manifest, tmp_path / "full.pdf"), tmp_path / "r2"))
    changed = [i for i, (x, y) in enumerate(zip(before, after)) if not same_pages([x], [y])]
    assert changed == [0]  # card-04 is on the first front page; its back page and every other page are as they were
    with caplog.at_level(logging.WARNING):
        assert len(pypdf.PdfReader(target, strict=True).pages) == len(before)
    assert not caplog.records  # read strictly, without a complaint about the update's cross-references

    mtime = target.stat().st_mtime_ns
    write(out, manifest, target)
    assert target.stat().st_mtime_ns == mtime  # updated PDFs are recognised as current
    repaint(out / "cards" / "card-11.png", (0, 120, 255))  # a second update follows the first
    write(out, manifest, target)
    assert target.read_bytes().startswith(after_bytes)
    assert same_pages(raster(target, tmp_path / "r3"), raster(full(out, manifest, tmp_path / "full2.pdf"), tmp_path / "r4"))


def test_an_image_shared_with_an_unchanged_card_means_a_full_rewrite(tmp_path):
    out = tmp_path / "out" / "demo"
    manifest = make_rendered(out, n=4)
    shutil.copy(out / "cards" / "card-01.png", out / "cards" / "card-02.png")  # one image object, placed twice
    target = write(out, manifest, tmp_path / "demo.pdf")
    before = target.read_bytes()
    repaint(out / "cards" / "card-02.png", (0, 0, 0))
    write(out, manifest, target)
    assert not target.read_bytes().startswith(before)
    assert same_pages(raster(target, tmp_path / "a"), raster(full(out, manifest, tmp_path / "full.pdf"), tmp_path / "b"))


def test_an_image_that_cannot_go_in_as_it_is_or_too_much_growth_means_a_full_rewrite(rendered, tmp_path, monkeypatch):
    out, manifest = rendered
    target = write(out, manifest, tmp_path / "demo.pdf")
    before = target.read_bytes()
    repaint(out / "cards" / "card-03.png", (0, 0, 0), mode="RGBA")  # alpha: recompressed by ReportLab
    write(out, manifest, target)
    assert not target.read_bytes().startswith(before)
    assert same_pages(raster(target, tmp_path / "a"), raster(full(out, manifest, tmp_path / "full.pdf"), tmp_path / "b"))

    monkeypatch.setattr(pdfappend, "GROWTH", 0.0)
    before = target.read_bytes()
    repaint(out / "cards" / "card-05.png", (90, 0, 0))
    write(out, manifest, target)
    assert not target.read_bytes().startswith(before)
    assert target.read_bytes() == full(out, manifest, tmp_path / "full2.pdf").read_bytes()  # compacted: as new


@pytest.mark.parametrize("failure", [OSError, KeyboardInterrupt])
def test_an_interrupted_update_leaves_the_old_pdf_whole(rendered, tmp_path, monkeypatch, failure):
    out, manifest = rendered
    target = write(out, manifest, tmp_path / "demo.pdf")
    before = target.read_bytes()
    repaint(out / "cards" / "card-04.png", (0, 0, 0))
    real_copy = pdfappend._copy

    def copy_then_fail(src, dst, start=0):
        real_copy(src, dst, start)
        raise failure("disk full" if failure is OSError else None)

    monkeypatch.setattr(pdfappend, "_copy", copy_then_fail)
    with pytest.raises(CardsmithError if failure is OSError else KeyboardInterrupt):  # a message, not a traceback
        write(out, manifest, target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".pdf") == ["demo.pdf"]  # no temporary file left
    monkeypatch.undo()
    write(out, manifest, target)  # the next run still brings it up to date
    assert same_pages(raster(target, tmp_path / "a"), raster(full(out, manifest, tmp_path / "full.pdf"), tmp_path / "b"))


@pytest.mark.parametrize("sendfile", ["kernel", "refused"])
def test_the_copy_an_update_starts_from_is_the_whole_file(tmp_path, monkeypatch, sendfile):
    source = tmp_path / "big.pdf"
    source.write_bytes(os.urandom(3_000_001))
    if sendfile == "refused":
        def refuse(*a):
            raise OSError(22, "Invalid argument")
        monkeypatch.setattr(pdfappend.os, "sendfile", refuse)
    copy = tmp_path / "copy.pdf"
    copy.write_bytes(b"x" * 5_000_000)  # a longer spare: overwritten from its start
    with open(copy, "r+b") as dst:
        pdfappend._copy(source, dst)
        dst.truncate()
    assert copy.read_bytes() == source.read_bytes()


def test_updates_after_the_first_copy_only_what_the_spare_lacks(rendered, tmp_path, monkeypatch):
    """The spare an update leaves is the PDF before it, so the next update copies only the bytes that
    came after; a spare touched since is copied whole, and the PDF is right either way."""
    out, manifest = rendered
    elsewhere = write(out, manifest, tmp_path / "elsewhere.pdf")  # written outside the set's output folder (--name)
    repaint(out / "cards" / "card-07.png", (9, 9, 9))
    write(out, manifest, elsewhere)
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == ["elsewhere.pdf"]  # appended, and no spare beside it
    target = write(out, manifest, out / "demo.pdf")
    starts: list[int] = []
    real_copy = pdfappend._copy
    monkeypatch.setattr(pdfappend, "_copy", lambda src, dst, start=0: starts.append(start) or real_copy(src, dst, start))
    spare = out / ".demo.pdf.spare"
    for n, (card, colour) in enumerate([("card-04", (0, 0, 0)), ("card-11", (0, 120, 255)), ("card-02", (200, 0, 0))]):
        before = target.read_bytes()
        repaint(out / "cards" / f"{card}.png", colour)
        write(out, manifest, target)
        assert target.read_bytes().startswith(before) and len(target.read_bytes()) > len(before)
    assert same_pages(raster(target, tmp_path / "a"), raster(full(out, manifest, tmp_path / "full.pdf"), tmp_path / "b"))
    probe_a, probe_b = out / "probe-a", out / "probe-b"
    probe_a.write_text("a"), probe_b.write_text("b")
    if atomic.exchange(probe_a, probe_b):  # this file system swaps (ext4, btrfs, xfs, tmpfs do): the spare is kept
        assert spare.exists()
    if not spare.exists():  # no swap on this system: every update copies the whole file
        assert starts == [0, 0, 0]
        return
    assert starts[0] == 0 and starts[1] > 0 and starts[2] > starts[1], starts
    with open(spare, "r+b") as f:  # someone writes into the spare: the next update does not trust it
        f.write(b"%PDF-garbage")
    before = target.read_bytes()
    repaint(out / "cards" / "card-05.png", (10, 200, 10))
    write(out, manifest, target)
    assert starts[-1] == 0 and target.read_bytes().startswith(before)
    assert same_pages(raster(target, tmp_path / "c"), raster(full(out, manifest, tmp_path / "full2.pdf"), tmp_path / "d"))
