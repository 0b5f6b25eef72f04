"""Duplex registration on every paper, orientation and flip edge, checked on rasterised pages.

One PDF holds every combination (pages may differ in size), so poppler runs once for all of them.
Each sheet holds one row and one card more, so a back mirrored about the wrong axis lands on blank
paper and is found missing. The physical model here is written independently of cardsmith.sheets:
the printer turns the sheet about the paper's long or short edge, whichever way the page is set.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from PIL import Image

from cardsmith.pdf import PdfOptions, plan, select_items, sheet_spec, write_pdf
from cardsmith.sheets import PAPER_SIZES, grid
from tests.pdf_support import BLUE, RED, make_rendered, mark_centre

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="pdftoppm (Debian poppler-utils, in scripts/system-packages.txt) is missing")
DPI = 100  # 0.25 mm a pixel; the marks' centres are found to about half of that
COMBOS = [(paper, orientation, flip) for paper in PAPER_SIZES for orientation in ("portrait", "landscape")
          for flip in ("long", "short")]


@pytest.fixture(scope="module")
def rasterised(tmp_path_factory):
    """{combo: (front page plan, front image, back image)} for every combination, from one pdftoppm run."""
    tmp = tmp_path_factory.mktemp("duplex")
    out = tmp / "demo"
    manifest = make_rendered(out, n=12, dpi=DPI)
    every = select_items(None, manifest, out)
    pages, images, index = [], {}, {}
    for combo in COMBOS:
        paper, orientation, flip = combo
        options = PdfOptions(paper=paper, orientation=orientation, backs=flip)
        spec = sheet_spec(manifest, options)
        n = grid(spec).cols + 1  # a full first row and one card on the next: not symmetric
        combo_pages, combo_images = plan(every[:n], spec)
        index[combo] = (len(pages), combo_pages[0])
        pages += combo_pages[:2]
        images.update(combo_images)
    pdf = write_pdf(pages, images, tmp / "all.pdf")
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), str(pdf), str(tmp / "page")], check=True)
    shots = [Image.open(p).convert("RGB") for p in sorted(tmp.glob("page-*.png"))]
    assert len(shots) == len(pages)
    return {combo: (plan_, shots[i], shots[i + 1]) for combo, (i, plan_) in index.items()}


def turned_about_vertical_axis(width: float, height: float, flip: str) -> bool:
    """The physical turn: the long edges of a portrait page are its sides, of a landscape page its top and bottom."""
    long_edges_vertical = height >= width
    return long_edges_vertical if flip == "long" else not long_edges_vertical


@pytest.mark.parametrize("paper,orientation,flip", COMBOS)
def test_every_back_lands_behind_its_front_within_half_a_millimetre(rasterised, paper, orientation, flip):
    page, front_img, back_img = rasterised[(paper, orientation, flip)]
    H = page.height
    assert (page.width > page.height) == (orientation == "landscape")
    sideways = turned_about_vertical_axis(page.width, page.height, flip)
    # What lies behind the front, seen through the paper from the front side.
    behind = back_img.transpose(Image.Transpose.FLIP_LEFT_RIGHT if sideways else Image.Transpose.FLIP_TOP_BOTTOM)
    for p in page.placements:
        t = p.trim
        middle = (t.x + 10, t.y + 25, t.w - 20, t.h - 50)
        top = (t.x + 10, t.top - 15, t.w - 20, 15)
        f_centre = mark_centre(front_img, middle, RED, DPI, H)
        f_top = mark_centre(front_img, top, RED, DPI, H)
        assert f_centre and f_top and f_top[1] > f_centre[1]  # the front is there, upright
        b_centre = mark_centre(behind, middle, BLUE, DPI, H)
        b_top = mark_centre(behind, top, BLUE, DPI, H)
        assert b_centre is not None and b_top is not None, f"no back behind card {p.item}"
        assert abs(b_centre[0] - f_centre[0]) < 0.5 and abs(b_centre[1] - f_centre[1]) < 0.5
        # top to top: turned over sideways, the card's back reads upright
        assert abs(b_top[0] - f_top[0]) < 0.5 and abs(b_top[1] - f_top[1]) < 0.5
