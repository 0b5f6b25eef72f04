"""Marks and labels stay where desktop printers print: inside the printable margin, clear of cards and rulers."""

from __future__ import annotations

import itertools

import pytest

from cardsmith.printing._calibration import calibration_pages
from cardsmith.printing._pdfstream import FONT_NAME, _font
from cardsmith.printing.imposition import Label, Line, Page, Rect, SheetSpec, grid, impose, with_footer
from cardsmith.printing.paper import PAPER_SIZES

POKER = (63.5, 88.9)
MM = 72 / 25.4


def label_box(label: Label) -> Rect:
    """The box (mm) a label's glyphs can cover, as the PDF writer draws it (shrunk to max_width, turned by angle)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    _font()
    size = label.size
    width = stringWidth(label.text, FONT_NAME, size) / MM
    if label.max_width and width > label.max_width:
        size, width = max(3.0, size * label.max_width / width), label.max_width
    up, down = 0.76 * size / MM, 0.24 * size / MM
    start = {"left": 0.0, "right": -width}.get(label.anchor, -width / 2)
    if label.angle == 90:
        return Rect(label.x - up, label.y + start, up + down, width)
    assert label.angle == 0
    return Rect(label.x + start, label.y - down, width, up + down)


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def line_box(ln: Line) -> Rect:
    return Rect(min(ln.x1, ln.x2), min(ln.y1, ln.y2), abs(ln.x2 - ln.x1), abs(ln.y2 - ln.y1))


def assert_inside_margin(page: Page, margin: float) -> None:
    inner = Rect(margin, margin, page.width - 2 * margin, page.height - 2 * margin)
    for ln in page.lines:
        b = line_box(ln)
        assert b.x >= inner.x - 1e-6 and b.right <= inner.right + 1e-6, f"{ln} within {margin} mm of a side"
        assert b.y >= inner.y - 1e-6 and b.top <= inner.top + 1e-6, f"{ln} within {margin} mm of the top or bottom"
    for lb in page.labels:
        b = label_box(lb)
        assert b.x >= inner.x and b.right <= inner.right and b.y >= inner.y and b.top <= inner.top, \
            f"{lb.text!r} at {b} is within {margin} mm of the page edge"


def assert_labels_clear(page: Page) -> None:
    boxes = [label_box(lb) for lb in page.labels]
    for lb, b in zip(page.labels, boxes):
        for ln in page.lines:
            assert not overlaps(b, line_box(ln).grown(0.1, 0.1, 0.1, 0.1)), f"{lb.text!r} is overprinted by {ln}"
        for p in page.placements:
            assert not overlaps(b, p.clip), f"{lb.text!r} prints on card {p.item}"
    for a, b in itertools.combinations(boxes, 2):
        assert not overlaps(a, b), f"labels overlap at {a} and {b}"


def items(n: int) -> list[tuple[str, str | None]]:
    return [(f"f{i}", "b") for i in range(n)]


@pytest.mark.parametrize("paper", list(PAPER_SIZES))
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("layout,card", [("grid", POKER), ("grid", (88.9, 63.5)), ("grid", (57.0, 57.0)),
                                         ("gutterfold", POKER)])
def test_no_mark_or_label_within_the_printable_margin(paper, orientation, layout, card):
    spec = SheetSpec(card=card, paper=PAPER_SIZES[paper], orientation=orientation, layout=layout,
                     backs="long" if layout == "grid" else "none")
    pages = with_footer(impose(spec, items(12)), "Solar Empires 1.0.0 - a deck with a long name")
    for page in pages:
        assert_inside_margin(page, spec.margin)
        assert_labels_clear(page)
    assert any(page.labels for page in pages), "the footer found no room on any page"


def test_the_printable_margin_is_configurable():
    spec = SheetSpec(card=POKER, paper=PAPER_SIZES["a3"], margin=9.0)
    for page in with_footer(impose(spec, items(9)), "Demo 1.0", margin=9.0):
        assert_inside_margin(page, 9.0)


def test_where_crop_marks_cannot_fit_cut_lines_run_along_the_card_edges_and_the_sheet_says_so():
    # A 265 mm card fits Letter only if its bleed and marks give way: 7.2 mm above and below, too
    # little for a mark beyond 5 mm. (Poker cards keep their bleed and marks on every paper now.)
    g = grid(SheetSpec(card=(63.5, 265), paper=PAPER_SIZES["letter"]))
    cuts = [ln for ln in g.lines if ln.kind == "cut"]
    column_edges = sorted({round(v, 3) for s in g.slots for v in (s.x, s.right)})
    assert sorted({round(ln.x1, 3) for ln in cuts if ln.x1 == ln.x2}) == column_edges
    assert all(ln.y1 >= 5 and ln.y2 <= 279.4 - 5 for ln in cuts)
    # the row edges still get crop marks in the wide side margins
    assert {round(ln.y1, 3) for ln in g.lines if ln.kind == "crop"} == {round(v, 3) for s in g.slots for v in (s.y, s.top)}
    assert g.notes and "cut lines" in g.notes[0] and "above and below" in g.notes[0]
    # poker cards have room for both on A4 and Letter: no cut lines, nothing to say
    for paper in ("a4", "letter"):
        sheet = grid(SheetSpec(card=POKER, paper=PAPER_SIZES[paper]))
        assert not [ln for ln in sheet.lines if ln.kind == "cut"] and not sheet.notes


def test_crop_marks_are_long_enough_to_cut_by():
    for paper in PAPER_SIZES:
        g = grid(SheetSpec(card=POKER, paper=PAPER_SIZES[paper]))
        for ln in g.lines:
            if ln.kind == "crop":
                assert line_box(ln).w + line_box(ln).h >= 3.0 - 1e-6


@pytest.mark.parametrize("paper", list(PAPER_SIZES))
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_calibration_sheet_text_is_clear_of_rulers_and_page_edges(paper, flip, orientation):
    for page in calibration_pages(PAPER_SIZES[paper], flip, (1.0, -1.0), orientation):
        assert_inside_margin(page, 5.0)
        assert_labels_clear(page)
