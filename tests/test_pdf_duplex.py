"""Duplex registration on every paper, orientation and flip edge, checked on rasterised pages.

One PDF holds every combination (pages may differ in size), so poppler runs once for all of them.
Each sheet holds one row and one card more, so a back mirrored about the wrong axis lands on blank
paper and is found missing. The physical model here is written independently of cardsmith.printing.imposition:
the printer turns the sheet about the paper's long or short edge, whichever way the page is set.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from PIL import Image

from cardsmith.printing.pdf import PdfOptions, plan, select_items, sheet_spec, write_pdf
from cardsmith.printing.imposition import grid
from cardsmith.printing.paper import PAPER_SIZES
from tests.pdf_support import BLUE, RED, make_rendered

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="pdftoppm (Debian poppler-utils, in scripts/system-packages.txt) is missing")
DPI = 100  # a quarter millimetre a pixel; the marks' centres are weighted by colour, to a fraction of that
COMBOS = [(paper, orientation, flip) for paper in PAPER_SIZES for orientation in ("portrait", "landscape")
          for flip in ("long", "short")]


@pytest.fixture(scope="module")
def rasterised(tmp_path_factory):
    """{combo: (front page plan, front image, back image)} for every combination, from one pdftoppm run."""
    tmp = tmp_path_factory.mktemp("duplex")
    out = tmp / "demo"
    manifest = make_rendered(out, n=12, dpi=120)  # finer than the raster, so the marks sit where they should
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
    # PPM, not PNG: the same pixels, and pdftoppm spent more than half its time compressing PNGs
    subprocess.run(["pdftoppm", "-r", str(DPI), str(pdf), str(tmp / "page")], check=True)
    shots = [Image.open(p).convert("RGB") for p in sorted(tmp.glob("page-*.ppm"))]
    assert len(shots) == len(pages)
    return {combo: (plan_, shots[i], shots[i + 1]) for combo, (i, plan_) in index.items()}


def mark_centre(page: Image.Image, box_mm: tuple[float, float, float, float], colour: tuple[int, int, int],
                page_mm: tuple[float, float]) -> tuple[float, float] | None:
    """Centre (mm, PDF coordinates) of `colour` inside box (x, y, w, h in mm), each pixel weighted by how
    close it is to the colour, so an edge pixel half covered by the mark counts half. The scale is the
    raster's own (poppler makes a whole number of pixels span the page)."""
    import numpy as np

    W, H = page_mm
    sx, sy = page.width / W, page.height / H
    x, y, w, h = box_mm
    left, top = max(0, round(x * sx)), max(0, round((H - y - h) * sy))
    right, bottom = min(page.width, round((x + w) * sx)), min(page.height, round((H - y) * sy))
    a = np.asarray(page.crop((left, top, right, bottom)), dtype=float)
    distance = np.abs(a - np.array(colour, dtype=float)).max(axis=2)
    weight = np.clip(1 - distance / 160, 0, None)
    weight[weight < 0.2] = 0
    if weight.sum() < 4:
        return None
    rows, cols = np.indices(weight.shape)
    cx = left + (weight * (cols + 0.5)).sum() / weight.sum()
    cy = top + (weight * (rows + 0.5)).sum() / weight.sum()
    return cx / sx, H - cy / sy


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
    W = page.width

    def behind(box: tuple[float, float, float, float]) -> tuple[float, float] | None:
        """The blue mark on the back page behind `box` of the front, in front-page coordinates: the
        back page mirrored the way the sheet turns (in millimetres, not pixels, so no rounding)."""
        x, y, w, h = box
        found = mark_centre(back_img, (W - x - w, y, w, h) if sideways else (x, H - y - h, w, h), BLUE, (W, H))
        if found is None:
            return None
        return (W - found[0], found[1]) if sideways else (found[0], H - found[1])
    for p in page.placements:
        t = p.trim
        middle = (t.x + 10, t.y + 25, t.w - 20, t.h - 50)
        top = (t.x + 10, t.top - 15, t.w - 20, 15)
        f_centre = mark_centre(front_img, middle, RED, (W, H))
        f_top = mark_centre(front_img, top, RED, (W, H))
        assert f_centre and f_top and f_top[1] > f_centre[1]  # the front is there, upright
        b_centre, b_top = behind(middle), behind(top)
        assert b_centre is not None and b_top is not None, f"no back behind card {p.item}"
        assert abs(b_centre[0] - f_centre[0]) < 0.5 and abs(b_centre[1] - f_centre[1]) < 0.5
        # top to top: turned over sideways, the card's back reads upright
        assert abs(b_top[0] - f_top[0]) < 0.5 and abs(b_top[1] - f_top[1]) < 0.5
