"""Token sheets and the calibration page under the card rules (issue 31, item 5)."""

from __future__ import annotations

from cardsmith.components._token_sheets import TokenSheetSpec, token_pages
from cardsmith.printing._calibration import calibration_pages
from cardsmith.printing.imposition import with_footer

A4 = (210.0, 297.0)
PT = 25.4 / 72


def trf_counter_sheet():
    # TRF's damage counters: 55 squares of 15 mm (as in cards/trf/set.yaml)
    spec = TokenSheetSpec(size=(15.0, 15.0), shape="square", bleed=1.0, paper=A4)
    pages = token_pages(spec, [(f"d{i}", None) for i in range(55)])
    return with_footer(pages, "TRF 1.0 - Damage counter")


def test_the_token_footer_prints_at_6_pt_and_no_cut_line_runs_through_it():
    [page] = trf_counter_sheet()
    footer = page.labels[-1]
    text_mm = len(footer.text) * footer.size * PT * 0.55  # a generous width of the text at its size
    assert footer.size >= 6 and footer.max_width >= text_mm  # never shrunk below 6 pt to fit a column
    top, bottom = footer.y + 0.76 * footer.size * PT, footer.y - 0.24 * footer.size * PT
    for ln in page.lines:
        lo, hi = sorted((ln.y1, ln.y2))
        crosses_band = hi > bottom and lo < top
        crosses_text = max(ln.x1, ln.x2) > footer.x and min(ln.x1, ln.x2) < footer.x + footer.max_width
        assert not (crosses_band and crosses_text), ln


def test_marks_cover_only_the_rows_that_hold_counters():
    # The sheet now keeps its counters' bleed and crop marks in the margin (issue 31, item 9), so it
    # has crop marks, not cut lines: those of the row edges stop at the last row in use, and the
    # column marks sit just below it, not at the foot of 14 empty rows.
    [page] = trf_counter_sheet()
    used_bottom = min(p.trim.y for p in page.placements)
    crops = [ln for ln in page.lines if ln.kind == "crop"]
    assert crops and not [ln for ln in page.lines if ln.kind == "cut"]
    assert all(min(ln.y1, ln.y2) >= used_bottom - 3.175 - 1.0 - 6.0 - 1e-6 for ln in crops)
    assert all(ln.y1 >= used_bottom - 1e-6 for ln in crops if abs(ln.y1 - ln.y2) < 1e-9)
    # the last row shows its bottom bleed over the empty slots below it
    assert all(p.trim.y - p.clip.y >= 1.0 - 1e-6 for p in page.placements if p.trim.y < used_bottom + 1)  # its 1 mm bleed


def test_calibration_ruler_labels_are_6_pt_and_do_not_run_together():
    back = calibration_pages(A4, "long")[1]
    labels = [lb for lb in back.labels if lb.text.lstrip("-").isdigit()]
    assert labels and min(lb.size for lb in labels) >= 6
    rows: dict[float, list[float]] = {}
    for lb in labels:
        if lb.anchor != "left":  # the horizontal rulers: numbers side by side
            rows.setdefault(round(lb.y, 3), []).append(lb.x)
    for xs in rows.values():
        xs.sort()
        gaps = [b - a for a, b in zip(xs, xs[1:])]
        assert min(gaps) >= 2 * 6 * PT * 0.6 + 1.0  # two characters of 6 pt and a millimetre between numbers
