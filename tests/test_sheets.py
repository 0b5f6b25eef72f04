"""Imposition geometry: where cards, marks and backs go (no PDF involved)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.printing._calibration import calibration_pages
from cardsmith.printing.imposition import Rect, SheetSpec, back_rect, back_slot, grid, gutterfold_grid, impose, with_footer
from cardsmith.printing.paper import PAPER_SIZES, parse_offset, parse_paper

POKER = (63.5, 88.9)
METRIC_POKER = (63.0, 88.0)


def items(n: int, back: str | None = "b") -> list[tuple[str, str | None]]:
    return [(f"f{i}", back) for i in range(n)]


def outer_bleed(g) -> float:
    """The least bleed shown past any outer card edge of a grid."""
    shown = []
    for s, c in zip(g.slots, g.clips):
        if s.x == min(t.x for t in g.slots):
            shown.append(s.x - c.x)
        if s.right == max(t.right for t in g.slots):
            shown.append(c.right - s.right)
        if s.y == min(t.y for t in g.slots):
            shown.append(s.y - c.y)
        if s.top == max(t.top for t in g.slots):
            shown.append(c.top - s.top)
    return min(shown)


def test_a4_keeps_every_cards_full_bleed_and_a_gutter_between_cards():
    # Issue 31: 3 x 3 on portrait A4 showed only 0.75 mm of bleed past the outer columns (a cut
    # drifting outwards showed white paper) and butted differently coloured cards together. The
    # sheet now holds 4 x 2 on landscape A4, 3 mm apart, with the whole 1/8 in bleed all round.
    g = grid(SheetSpec(card=POKER, paper=PAPER_SIZES["a4"]))
    assert (g.cols, g.rows, g.width, g.height) == (4, 2, 297.0, 210.0)
    assert outer_bleed(g) == pytest.approx(3.175)
    assert g.slots[1].x - g.slots[0].right == pytest.approx(3.0)
    assert g.slots[0].x == pytest.approx((297 - 4 * 63.5 - 3 * 3) / 2)  # centred: 17 mm from the edge
    # each card shows 1.5 mm of its own bleed into the gutter: 1 mm of drift never shows its neighbour
    assert g.slots[1].x - g.clips[1].x == pytest.approx(1.5)
    crops = [ln for ln in g.lines if ln.kind == "crop"]
    assert crops and not [ln for ln in g.lines if ln.kind == "cut"] and not g.notes
    assert all(5 <= min(ln.x1, ln.x2) and max(ln.x1, ln.x2) <= 297 - 5 for ln in crops)


def test_a4_metric_cards_butted_keep_their_bleed_too():
    g = grid(SheetSpec(card=METRIC_POKER, paper=PAPER_SIZES["a4"], gutter=0))
    assert (g.cols, g.rows) == (4, 2)
    assert outer_bleed(g) == pytest.approx(3.175)
    assert g.slots[1].x == pytest.approx(g.slots[0].right)  # butted: one cut between neighbours


def test_letter_keeps_full_bleed_with_six_cards_or_eight_butted():
    g = grid(SheetSpec(card=POKER, paper=PAPER_SIZES["letter"]))
    assert (g.cols, g.rows, g.width) == (3, 2, 279.4)
    assert outer_bleed(g) == pytest.approx(3.175) and not g.notes
    butted = grid(SheetSpec(card=POKER, paper=PAPER_SIZES["letter"], gutter=0))
    assert (butted.cols, butted.rows, butted.width) == (4, 2, 279.4)
    assert outer_bleed(butted) == pytest.approx(3.175) and not butted.notes


def test_a_card_that_only_fits_without_its_outer_bleed_still_prints():
    # 265 mm tall: Letter holds it only if the bleed and marks give way to the 5 mm margin
    g = grid(SheetSpec(card=(63.5, 265), paper=PAPER_SIZES["letter"]))
    assert g.cols * g.rows == 3 and outer_bleed(g) < 3.175


def test_orientation_is_chosen_to_fit_the_most_cards():
    # with full bleed and marks, a landscape card fits 2 x 4 on portrait A4 but 2 x 2 on landscape
    g = grid(SheetSpec(card=(88.9, 63.5), paper=PAPER_SIZES["a4"]))
    assert (g.width, g.height, g.cols * g.rows) == (210.0, 297.0, 8)
    # a forced orientation is respected
    g = grid(SheetSpec(card=(88.9, 63.5), paper=PAPER_SIZES["a4"], orientation="landscape"))
    assert (g.width, g.cols * g.rows) == (297.0, 4)


def test_crop_marks_extend_every_card_edge_without_touching_any_card():
    spec = SheetSpec(card=POKER, paper=PAPER_SIZES["a4"])
    g = grid(spec)
    crops = [ln for ln in g.lines if ln.kind == "crop"]
    edges_x = {round(v, 3) for s in g.slots for v in (s.x, s.right)}
    edges_y = {round(v, 3) for s in g.slots for v in (s.y, s.top)}
    vertical = {round(ln.x1, 3) for ln in crops if ln.x1 == ln.x2}
    horizontal = {round(ln.y1, 3) for ln in crops if ln.y1 == ln.y2}
    assert vertical == edges_x and horizontal == edges_y
    for ln in crops:
        seg = Rect(min(ln.x1, ln.x2), min(ln.y1, ln.y2), abs(ln.x2 - ln.x1), abs(ln.y2 - ln.y1))
        for clip in g.clips:
            overlap_x = seg.x < clip.right and seg.right > clip.x
            overlap_y = seg.y < clip.top and seg.top > clip.y
            assert not (overlap_x and overlap_y), f"crop mark {ln} runs over a card at {clip}"
        assert 0 <= min(ln.x1, ln.x2) and max(ln.x1, ln.x2) <= g.width


def test_bleed_shows_between_cards_only_when_the_gutter_leaves_room():
    butted = grid(SheetSpec(card=POKER, paper=PAPER_SIZES["a3"], gutter=0))
    middle = butted.clips[butted.cols + 1]
    assert middle == butted.slots[butted.cols + 1]  # no bleed inside a butted grid: it would print over the neighbours
    spaced = grid(SheetSpec(card=POKER, paper=PAPER_SIZES["a3"], gutter=4))
    m = spaced.clips[spaced.cols + 1]
    s = spaced.slots[spaced.cols + 1]
    assert s.x - m.x == pytest.approx(2.0)  # half the gutter, less than the 3.175 mm bleed
    wide = grid(SheetSpec(card=POKER, paper=PAPER_SIZES["a3"], gutter=10))
    assert wide.slots[wide.cols + 1].x - wide.clips[wide.cols + 1].x == pytest.approx(3.175)


def test_back_slot_long_edge_mirrors_columns_short_edge_mirrors_rows_on_portrait_pages():
    assert [back_slot(i, 3, 3, "long") for i in range(9)] == [2, 1, 0, 5, 4, 3, 8, 7, 6]
    assert [back_slot(i, 3, 3, "short") for i in range(9)] == [6, 7, 8, 3, 4, 5, 0, 1, 2]


def test_on_landscape_pages_the_long_edge_is_the_top_so_rows_mirror_and_backs_turn():
    # A3 landscape: 5 x 2. Turned about its long (top) edge, the rows swap.
    g = grid(SheetSpec(card=POKER, paper=PAPER_SIZES["a3"], orientation="landscape"))
    assert g.width > g.height
    assert back_slot(0, g.cols, g.rows, "long", g.width, g.height) == (g.rows - 1) * g.cols
    assert back_slot(0, g.cols, g.rows, "short", g.width, g.height) == g.cols - 1
    assert back_rect(g.slots[0], g.width, g.height, "long")[1] == 180
    assert back_rect(g.slots[0], g.width, g.height, "short")[1] == 0
    # a partial sheet: every back lands on the paper behind its own front, none on blank paper
    pages = impose(SheetSpec(card=POKER, paper=PAPER_SIZES["a3"], orientation="landscape", backs="long"),
                   items(g.cols + 2))
    for p in pages[1].placements:
        slot = g.slots[back_slot(p.item, g.cols, g.rows, "long", g.width, g.height)]
        assert (p.trim.x, p.trim.y) == pytest.approx((slot.x, slot.y))


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_duplex_backs_land_behind_their_fronts(paper, flip, orientation):
    spec = SheetSpec(card=POKER, paper=PAPER_SIZES[paper], backs=flip, orientation=orientation)
    pages = impose(spec, items(9))
    front, back = pages[:2]
    assert (front.side, back.side) == ("front", "back")
    g = grid(spec)
    book_turn = (flip == "long") == (orientation == "portrait")  # turned about a vertical edge
    for p in back.placements:
        expected = g.slots[back_slot(p.item, g.cols, g.rows, flip, g.width, g.height)]
        assert p.trim.x == pytest.approx(expected.x) and p.trim.y == pytest.approx(expected.y)
        assert p.rotation == (0 if book_turn else 180)
        # physically behind the front: mirror the back page the way the sheet turns
        f = front.placements[p.item].trim
        if book_turn:
            assert g.width - p.trim.right == pytest.approx(f.x) and p.trim.y == pytest.approx(f.y)
        else:
            assert g.height - p.trim.top == pytest.approx(f.y) and p.trim.x == pytest.approx(f.x)


def test_back_offset_moves_only_the_backs():
    plain = impose(SheetSpec(card=POKER, backs="long"), items(3))
    moved = impose(SheetSpec(card=POKER, backs="long", back_offset=(1.5, -0.75)), items(3))
    assert plain[0] == moved[0]
    for a, b in zip(plain[1].placements, moved[1].placements):
        assert b.trim.x - a.trim.x == pytest.approx(1.5)
        assert b.trim.y - a.trim.y == pytest.approx(-0.75)


def test_an_offset_that_pushes_cards_off_the_page_is_refused():
    with pytest.raises(CardsmithError, match="off the page"):
        impose(SheetSpec(card=POKER, paper=PAPER_SIZES["letter"], backs="long", back_offset=(0, 20)), items(9))
    with pytest.raises(CardsmithError, match="larger than"):
        impose(SheetSpec(card=POKER, layout="single", backs="long", back_offset=(4, 0)), items(1))


def test_a_card_larger_than_the_paper_is_refused_with_a_hint():
    with pytest.raises(CardsmithError, match="does not fit") as e:
        grid(SheetSpec(card=(300, 400), paper=PAPER_SIZES["a4"]))
    assert "a3" in (e.value.hint or "")
    with pytest.raises(CardsmithError, match="gutterfold"):
        gutterfold_grid(SheetSpec(card=(120, 150), paper=PAPER_SIZES["a4"], layout="gutterfold"))


def test_gutterfold_puts_backs_below_turned_so_they_meet_their_fronts_at_the_fold():
    spec = SheetSpec(card=POKER, paper=PAPER_SIZES["letter"], layout="gutterfold", gutter=0)
    g, fold_y = gutterfold_grid(spec)
    assert (g.width, g.height, g.cols, g.rows) == (279.4, 215.9, 4, 2)  # landscape, 4 x 2 butted
    (page,) = impose(spec, items(4))
    fronts = [p for p in page.placements if p.side == "front"]
    backs = [p for p in page.placements if p.side == "back"]
    assert len(fronts) == len(backs) == 4
    for f, b in zip(fronts, backs):
        assert (f.rotation, b.rotation) == (0, 180)
        assert b.trim.x == pytest.approx(f.trim.x)
        # mirror images across the fold: folding puts each back exactly behind its front
        assert fold_y - b.trim.top == pytest.approx(f.trim.y - fold_y)
        assert f.trim.y > fold_y > b.trim.top
    folds = [ln for ln in page.lines if ln.kind == "fold"]
    assert len(folds) == 1 and folds[0].y1 == folds[0].y2 == pytest.approx(fold_y)


def test_one_card_per_page_is_card_plus_bleed_with_trim_and_bleed_boxes():
    pages = impose(SheetSpec(card=POKER, bleed=3.175, layout="single", backs="long"), items(2))
    assert [p.side for p in pages] == ["front", "back", "front", "back"]
    p = pages[0]
    assert (p.width, p.height) == pytest.approx((69.85, 95.25))  # 2.75 x 3.75 in
    assert p.trim_box == Rect(3.175, 3.175, 63.5, 88.9)
    assert p.bleed_box == Rect(0, 0, p.width, p.height)


def test_cards_without_a_back_leave_their_back_slot_empty():
    pages = impose(SheetSpec(card=POKER, backs="long"), [("a", "b"), ("c", None)])
    assert [p.item for p in pages[1].placements] == [0]


def test_pages_follow_the_item_count():
    assert len(impose(SheetSpec(card=POKER), items(19))) == 3
    assert len(impose(SheetSpec(card=POKER, backs="short"), items(19))) == 6
    assert len(impose(SheetSpec(card=POKER, layout="gutterfold"), items(9))) == 3


def test_footer_sits_in_a_margin_band_clear_of_cards():
    tall = SheetSpec(card=(63.5, 265), paper=PAPER_SIZES["letter"], backs="long")  # fits only past its bleed
    pages = with_footer(impose(tall, items(9)), "Demo 1.0")
    for page in pages:
        (label,) = page.labels
        assert "Demo 1.0" in label.text and f"/{len(pages)}" in label.text
        # Letter leaves 7.2 mm above and below these cards: the footer turns into the side margin
        cap_height = label.size * 0.75 * 25.4 / 72
        assert label.angle == 90
        assert 5 <= label.x - cap_height and label.x < min(p.clip.x for p in page.placements)
        row = min(page.placements, key=lambda p: p.trim.y).trim
        assert row.y < label.y and label.y + label.max_width < row.top  # no crop mark runs through it
    a4 = with_footer(impose(SheetSpec(card=POKER, paper=PAPER_SIZES["a4"]), items(9)), "Demo 1.0")
    (label,) = a4[0].labels
    assert label.angle == 0 and 5 <= label.y and label.y < min(p.clip.y for p in a4[0].placements)


def test_paper_and_offset_parsing():
    assert parse_paper("A4") == (210.0, 297.0)
    assert parse_paper("8.5x11in") == pytest.approx((215.9, 279.4))
    assert parse_paper("200x280mm") == (200.0, 280.0)
    assert parse_offset("0.5,-1") == (0.5, -1.0)
    with pytest.raises(UsageError, match="unknown paper"):
        parse_paper("b7-ish")
    with pytest.raises(UsageError, match="bad offset"):
        parse_offset("1;2")


@pytest.mark.parametrize("flip", ["long", "short"])
def test_calibration_rulers_read_the_offset_to_add(flip):
    front, back = calibration_pages(PAPER_SIZES["a4"], flip, back_offset=(1.0, -0.5))
    centre_x = 105.0
    # the X ruler's "0" label sits where the front's centre line would be, moved by the offset in use;
    # the front line therefore crosses that ruler at -1 (add -1 to the offset of 1: printer was right)
    zero_labels = [lb for lb in back.labels if lb.text == "0" and lb.anchor == "centre"]
    assert zero_labels and any(lb.x == pytest.approx(centre_x + 1.0) for lb in zero_labels)
    minus_one_tick = centre_x + 1.0 - 1.0
    assert any(ln.x1 == pytest.approx(minus_one_tick) for ln in back.lines if ln.x1 == ln.x2)
    assert any(ln.x1 == pytest.approx(centre_x) for ln in front.lines if ln.x1 == ln.x2)


@settings(max_examples=60, deadline=None)
@given(
    w=st.floats(30, 130), h=st.floats(30, 130), gutter=st.floats(0, 8),
    paper=st.sampled_from(list(PAPER_SIZES)), flip=st.sampled_from(["long", "short"]),
)
def test_any_grid_stays_on_the_page_without_overlaps_and_its_backs_mirror_onto_slots(w, h, gutter, paper, flip):
    spec = SheetSpec(card=(w, h), paper=PAPER_SIZES[paper], gutter=gutter)
    g = grid(spec)
    for s in g.slots:
        assert s.x >= spec.margin - 1e-6 and s.right <= g.width - spec.margin + 1e-6
        assert s.y >= spec.margin - 1e-6 and s.top <= g.height - spec.margin + 1e-6
    for i, a in enumerate(g.clips):
        for b in g.clips[i + 1:]:
            assert a.right <= b.x + 1e-6 or b.right <= a.x + 1e-6 or a.top <= b.y + 1e-6 or b.top <= a.y + 1e-6
    for i, s in enumerate(g.slots):
        r, _ = back_rect(s, g.width, g.height, flip)
        target = g.slots[back_slot(i, g.cols, g.rows, flip, g.width, g.height)]
        assert r.x == pytest.approx(target.x) and r.y == pytest.approx(target.y)


def test_each_card_gets_its_own_back_behind_it():
    spec = SheetSpec(card=POKER, backs="long")
    _, back = impose(spec, [("ship", "fleet"), ("planet", "bodies"), ("ship2", "fleet")])
    g = grid(spec)
    by_item = {p.item: p for p in back.placements}
    assert by_item[1].key == "bodies" and by_item[0].key == by_item[2].key == "fleet"
    assert by_item[1].trim == back_rect(g.slots[1], g.width, g.height, "long")[0]


@settings(max_examples=40, deadline=None)
@given(w=st.floats(30, 100), h=st.floats(30, 100), paper=st.sampled_from(list(PAPER_SIZES)), n=st.integers(1, 12))
def test_any_gutterfold_folds_each_back_onto_its_front(w, h, paper, n):
    spec = SheetSpec(card=(w, h), paper=PAPER_SIZES[paper], layout="gutterfold")
    try:
        g, fold_y = gutterfold_grid(spec)
    except CardsmithError:
        return  # too big for this paper: refused, which another test checks
    pages = impose(spec, items(n))
    assert len(pages) == -(-n // g.cols)
    for page in pages:
        fronts = {p.item: p for p in page.placements if p.side == "front"}
        backs = {p.item: p for p in page.placements if p.side == "back"}
        assert fronts.keys() == backs.keys()
        for i, f in fronts.items():
            b = backs[i]
            assert b.trim.x == pytest.approx(f.trim.x) and b.rotation == 180 and f.rotation == 0
            assert fold_y - b.trim.top == pytest.approx(f.trim.y - fold_y)
            assert b.trim.inside(page.width, page.height) and f.trim.inside(page.width, page.height)


@pytest.mark.parametrize("paper", list(PAPER_SIZES))
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_calibration_rulers_sit_behind_the_front_lines_for_every_page_shape(paper, orientation, flip):
    front, back = calibration_pages(PAPER_SIZES[paper], flip, orientation=orientation)
    w, h = front.width, front.height
    assert (w > h) == (orientation == "landscape")
    book_turn = (flip == "long") == (h >= w)  # the sheet turns about a vertical edge
    vertical = sorted(ln.x1 for ln in front.lines if ln.x1 == ln.x2)
    horizontal = sorted(ln.y1 for ln in front.lines if ln.y1 == ln.y2)
    zero_x = sorted({round(lb.x, 6) for lb in back.labels if lb.text == "0" and lb.anchor == "centre"})
    zero_y = sorted({round(lb.y + 0.6, 6) for lb in back.labels if lb.text == "0" and lb.anchor == "left"})
    seen_x = sorted(w - x if book_turn else x for x in vertical)
    seen_y = sorted(y if book_turn else h - y for y in horizontal)
    assert zero_x == pytest.approx(seen_x) and zero_y == pytest.approx(seen_y)
    # each X ruler stands where its line shows through, not at some other line's mirror image
    x_rulers = {(round(lb.x, 3), round(lb.y + 3.5, 3)) for lb in back.labels if lb.text == "X"}
    assert all(round(x, 3) in {round(v, 3) for v in seen_x} for x, _ in x_rulers)


def test_on_a_part_filled_sheet_a_card_with_an_empty_slot_below_shows_its_whole_bleed_there():
    # A4: 4 x 2; five cards fill the top row and one of the bottom row
    spec = SheetSpec(card=POKER, paper=PAPER_SIZES["a4"], backs="long")
    front, back = impose(spec, items(5))
    shown = {p.item: p.trim.y - p.clip.y for p in front.placements}
    assert shown[0] == pytest.approx(1.5)  # a card below it: half the gutter
    assert [shown[i] for i in (1, 2, 3, 4)] == pytest.approx([3.175] * 4)  # empty paper (or the page edge) below
    crops = [ln for ln in front.lines if ln.kind == "crop" and ln.y1 != ln.y2]
    lowest = min(p.clip.y for p in front.placements)
    assert all(max(ln.y1, ln.y2) <= lowest - 1.0 + 1e-6 or min(ln.y1, ln.y2) >= max(p.clip.top for p in front.placements)
               for ln in crops)  # column marks clear of every printed bleed
    assert {p.item: p.clip.h for p in back.placements} == {p.item: p.clip.h for p in front.placements}
