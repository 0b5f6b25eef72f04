"""Print-and-play PDFs: structure (pypdf), reproducibility, and rasterised pages (pdftoppm)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.sets.model import Deck
from cardsmith.printing.imposition import mirrors_columns
from cardsmith.printing.pdf import PdfOptions, plan, print_pdf, select_items, sheet_spec, write_calibration
from tests.pdf_support import BLUE, RED, make_rendered, mark_centre

pypdf = pytest.importorskip("pypdf")
needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                   reason="pdftoppm (Debian poppler-utils, in scripts/system-packages.txt) is missing")
RASTER_DPI = 150


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "demo"
    manifest = make_rendered(out, n=11, types=("unit", "event"))
    return out, manifest


def write(rendered, tmp_path, name="x.pdf", **opts):
    out, manifest = rendered
    items = select_items(None, manifest, out)
    return print_pdf(items, manifest, PdfOptions(**opts), tmp_path / name, title="Demo", footer="Demo 1.0")


def test_grid_pdf_has_a_back_page_per_front_page_and_stores_each_image_once(rendered, tmp_path):
    path = write(rendered, tmp_path, backs="long")
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 4  # 11 cards, 8 a sheet: two sheets, each front + back
    w, h = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert (round(w / 72 * 25.4), round(h / 72 * 25.4)) == (297, 210)  # A4 landscape: 4 x 2 with full bleed
    images = set()
    placements = 0
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for name, ref in xobjects.items():
            images.add(ref.idnum)
        placements += page.get_contents().get_data().count(b" Do")
    assert len(images) == 12  # 11 fronts and one back, however many times the back is placed
    assert placements == 22


def test_fonts_are_embedded(rendered, tmp_path):
    reader = pypdf.PdfReader(write(rendered, tmp_path))
    fonts = {}
    for page in reader.pages:
        for name, ref in page["/Resources"]["/Font"].items():
            font = ref.get_object()
            descendant = font.get("/DescendantFonts")
            desc = (descendant[0].get_object() if descendant else font).get("/FontDescriptor")
            fonts[font["/BaseFont"]] = desc is not None and any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    assert fonts and all(fonts.values()), fonts


def test_same_input_gives_the_same_bytes(rendered, tmp_path):
    a = write(rendered, tmp_path, "a.pdf", backs="short", layout="grid", paper="letter")
    b = write(rendered, tmp_path, "b.pdf", backs="short", layout="grid", paper="letter")
    assert a.read_bytes() == b.read_bytes()


def test_one_card_per_page_sets_trim_and_bleed_boxes(rendered, tmp_path):
    reader = pypdf.PdfReader(write(rendered, tmp_path, layout="single", backs="long"))
    assert len(reader.pages) == 22
    page = reader.pages[0]
    mm = lambda v: float(v) / 72 * 25.4  # noqa: E731
    assert [mm(v) for v in page.mediabox] == pytest.approx([0, 0, 69.85, 95.25], abs=0.01)
    assert [mm(v) for v in page.trimbox] == pytest.approx([3.175, 3.175, 66.675, 92.075], abs=0.01)
    assert [mm(v) for v in page.bleedbox] == pytest.approx([0, 0, 69.85, 95.25], abs=0.01)


def test_selection_respects_copies_type_only_and_deck(rendered):
    out, manifest = rendered
    assert len(select_items(None, manifest, out, types=("event",))) == 5
    assert [i.card_id for i in select_items(None, manifest, out, only=("card-03", "card-01"))] == ["card-01", "card-03"]
    deck = Deck("mine", "demo", {"main": {"card-02": 3, "card-05": 1}, "side": {"card-00": 2}})
    assert [i.card_id for i in select_items(None, manifest, out, deck=deck)] == ["card-02"] * 3 + ["card-05"] + ["card-00"] * 2
    with pytest.raises(CardsmithError, match="card-99"):
        select_items(None, manifest, out, deck=Deck("bad", "demo", {"main": {"card-99": 1}}))
    with pytest.raises(UsageError, match="no card type"):
        select_items(None, manifest, out, types=("spaceship",))
    with pytest.raises(UsageError, match="did you mean .*card-01"):
        select_items(None, manifest, out, only=("card-1",))


def _raster(pdf: Path, tmp_path: Path) -> list[Image.Image]:
    prefix = tmp_path / "page"
    subprocess.run(["pdftoppm", "-r", str(RASTER_DPI), str(pdf), str(prefix)], check=True)  # PPM: no PNG compression
    return [Image.open(p).convert("RGB") for p in sorted(tmp_path.glob("page-*.ppm"))]


@needs_poppler
@pytest.mark.parametrize("paper,flip,offset", [("a4", "long", (0.0, 0.0)), ("letter", "short", (0.0, 0.0)),
                                               ("a4", "long", (1.5, -1.0))])
def test_rasterised_backs_land_within_half_a_millimetre_of_their_fronts(rendered, tmp_path, paper, flip, offset):
    out, manifest = rendered
    items = select_items(None, manifest, out)[:6]  # one sheet: A4 holds 8, Letter 6
    options = PdfOptions(paper=paper, backs=flip, back_offset=offset)
    pdf = print_pdf(items, manifest, options, tmp_path / "duplex.pdf")
    front_img, back_img = _raster(pdf, tmp_path)
    pages, _ = plan(items, sheet_spec(manifest, options))
    front_page = pages[0]
    H = front_page.height
    book = mirrors_columns(front_page.width, H, flip)  # landscape sheets turn about the other axis
    # What lies behind the front, seen through the paper from the front: the back page mirrored the way the sheet turns.
    behind = back_img.transpose(Image.Transpose.FLIP_LEFT_RIGHT if book else Image.Transpose.FLIP_TOP_BOTTOM)
    dx, dy = offset
    seen_dx = -dx if book else dx  # the offset is given as seen on the back
    seen_dy = dy if book else -dy
    for p in front_page.placements:
        t = p.trim
        centre = (t.x + t.w / 2, t.y + t.h / 2)
        middle = (t.x + 10, t.y + 25, t.w - 20, t.h - 50)
        top = (t.x + 10, t.top - 15, t.w - 20, 15)
        f_centre = mark_centre(front_img, middle, RED, RASTER_DPI, H)
        f_top = mark_centre(front_img, top, RED, RASTER_DPI, H)
        assert f_centre and abs(f_centre[0] - centre[0]) < 0.5 and abs(f_centre[1] - centre[1]) < 0.5
        assert f_top and f_top[1] > f_centre[1]  # the front is upright
        search_middle = (middle[0] + seen_dx, middle[1] + seen_dy, middle[2], middle[3])
        search_top = (top[0] + seen_dx, top[1] + seen_dy, top[2], top[3])
        b_centre = mark_centre(behind, search_middle, BLUE, RASTER_DPI, H)
        b_top = mark_centre(behind, search_top, BLUE, RASTER_DPI, H)
        assert b_centre is not None and b_top is not None, f"no back behind card {p.item}"
        assert abs(b_centre[0] - seen_dx - f_centre[0]) < 0.5 and abs(b_centre[1] - seen_dy - f_centre[1]) < 0.5
        # top to top: turned over sideways, the card's back reads upright
        assert abs(b_top[0] - f_top[0] - seen_dx) < 0.5 and abs(b_top[1] - f_top[1] - seen_dy) < 0.5


@needs_poppler
def test_rasterised_gutterfold_backs_meet_their_fronts_when_folded(rendered, tmp_path):
    out, manifest = rendered
    items = select_items(None, manifest, out)[:4]
    options = PdfOptions(layout="gutterfold", paper="a4")
    pdf = print_pdf(items, manifest, options, tmp_path / "fold.pdf")
    (img,) = _raster(pdf, tmp_path)
    pages, _ = plan(items, sheet_spec(manifest, options))
    page = pages[0]
    fold_y = page.height / 2
    folded = img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)  # the bottom half folded up behind the top half
    for p in page.placements:
        if p.side != "front":
            continue
        t = p.trim
        f = mark_centre(img, (t.x + 10, t.y + 25, t.w - 20, t.h - 50), RED, RASTER_DPI, page.height)
        f_top = mark_centre(img, (t.x + 10, t.top - 15, t.w - 20, 15), RED, RASTER_DPI, page.height)
        b = mark_centre(folded, (t.x + 10, t.y + 25, t.w - 20, t.h - 50), BLUE, RASTER_DPI, page.height)
        b_top = mark_centre(folded, (t.x + 10, t.top - 15, t.w - 20, 15), BLUE, RASTER_DPI, page.height)
        assert f and b and f_top and b_top
        assert abs(f[0] - b[0]) < 0.5 and abs(f[1] - b[1]) < 0.5
        assert abs(f_top[1] - b_top[1]) < 0.5 and t.y > fold_y


@needs_poppler
def test_crop_marks_and_footer_are_drawn_in_the_margin(rendered, tmp_path):
    pdf = write(rendered, tmp_path, paper="a4")
    img = _raster(pdf, tmp_path)[0].convert("L")
    # a crop mark below the first column's left edge: landscape A4, 4 cards 3 mm apart, (297 - 263) / 2 = 17 mm
    x = round(17.0 / 25.4 * RASTER_DPI)
    y_mark = img.height - round(7.0 / 25.4 * RASTER_DPI)
    column = [img.getpixel((x + dx, y_mark)) for dx in (-1, 0, 1)]
    assert min(column) < 100
    text = pypdf.PdfReader(pdf).pages[0].extract_text()
    assert "Demo 1.0" in text and "page 1/2" in text


def test_calibration_sheet_is_two_pages_with_rulers(tmp_path):
    path = write_calibration(tmp_path / "cal.pdf", "letter", "short", (0.5, 0))
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 2
    assert "back-offset 0.5,0" in reader.pages[1].extract_text()


def test_unwritable_output_is_a_clear_error_and_leaves_nothing(rendered, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    os.chmod(locked, 0o500)
    try:
        if os.access(locked, os.W_OK):  # root ignores permissions: use a path under a file instead
            target = tmp_path / "a-file" / "x.pdf"
            (tmp_path / "a-file").write_text("")
        else:
            target = locked / "x.pdf"
        with pytest.raises(CardsmithError, match="cannot write"):
            write(rendered, tmp_path, str(target.relative_to(tmp_path)))
        assert not target.exists()
    finally:
        os.chmod(locked, 0o700)


def test_a_failure_midway_leaves_no_partial_pdf(rendered, tmp_path):
    out, manifest = rendered
    broken = dict(manifest)
    bad_dir = tmp_path / "set"
    shutil.copytree(out, bad_dir)
    (bad_dir / "cards" / "card-07.png").write_bytes(b"not a png")
    items = select_items(None, broken, bad_dir)
    target = tmp_path / "partial.pdf"
    with pytest.raises(CardsmithError, match="card-07"):
        print_pdf(items, broken, PdfOptions(), target)
    assert not target.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".partial.pdf")]


def test_a_card_larger_than_the_paper_is_refused_before_writing(rendered, tmp_path):
    out, manifest = rendered
    huge = {**manifest, "trim_mm": [250, 350]}
    target = tmp_path / "huge.pdf"
    with pytest.raises(CardsmithError, match="does not fit"):
        print_pdf(select_items(None, huge, out), huge, PdfOptions(paper="a4"), target)
    assert not target.exists()


@needs_poppler
@pytest.mark.parametrize("mode", ["RGB", "L", "RGBA", "P", "I;16"])
def test_every_kind_of_png_comes_out_pixel_for_pixel(tmp_path, mode):
    from cardsmith.printing.imposition import Page, Placement, Rect
    from cardsmith.printing.pdf import write_pdf
    from cardsmith.printing._pdfstream import png_stream

    im = Image.new("RGB", (40, 30), (200, 40, 40))
    for x in range(40):
        im.putpixel((x, x % 30), (x * 6, 255 - x * 6, 90))
    src = tmp_path / "src.png"
    converted = im.convert(mode) if mode != "I;16" else im.convert("L").convert("I;16")
    converted.save(src)
    assert (png_stream(src.read_bytes()) is not None) == (mode in ("RGB", "L"))  # passed through as it is
    page = Page(20, 20, "front", 1, (Placement("a", "front", 0, Rect(5, 5, 10, 10), Rect(0, 0, 20, 20), 0),))
    pdf = write_pdf([page], {"a": src}, tmp_path / "one.pdf")
    subprocess.run(["pdfimages", "-png", str(pdf), str(tmp_path / "x")], check=True)
    (out,) = sorted(tmp_path.glob("x-*.png"))[:1]
    expected = converted.convert("RGB") if mode != "I;16" else im.convert("L").convert("RGB")
    got = Image.open(out).convert("RGB")
    assert got.size == expected.size
    assert got.tobytes() == expected.tobytes()


def test_the_same_cards_in_another_folder_give_the_same_bytes(rendered, tmp_path):
    out, manifest = rendered
    moved = tmp_path / "elsewhere" / "demo"
    shutil.copytree(out, moved)
    a = print_pdf(select_items(None, manifest, out), manifest, PdfOptions(backs="long"), tmp_path / "a.pdf")
    b = print_pdf(select_items(None, manifest, moved), manifest, PdfOptions(backs="long"), tmp_path / "b.pdf")
    assert a.read_bytes() == b.read_bytes()


def test_the_footer_keeps_inside_a_wider_printable_margin(rendered, tmp_path):
    path = write(rendered, tmp_path, paper="a3", margin=12.0)
    spots = []

    def visit(text, cm, tm, font, size):
        if "Demo 1.0" in text:
            spots.append(((cm[4] + tm[4]) / 72 * 25.4, (cm[5] + tm[5]) / 72 * 25.4))  # translated, then drawn at 0, 0

    pypdf.PdfReader(path).pages[0].extract_text(visitor_text=visit)
    assert spots and all(x >= 12 and y >= 12 for x, y in spots)
