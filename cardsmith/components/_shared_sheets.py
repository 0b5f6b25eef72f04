"""Small pieces sharing sheets: boards that fit on one page and tokens of every kind, packed together.

Printed one kind to a PDF, TransWar's 140 x 76 mm damage track took a whole A4 page and its six
markers another (two with their backs). Here the pieces are packed in shelves, largest first: each
keeps its full bleed (pieces stand two bleeds apart, and a bleed clear of the printable margin), a
thin cut guide runs just outside every trim, and duplex backs land behind their fronts through
`cardsmith.printing.imposition.back_rect`, the one mapping card and token backs use. A band at the
foot of each page is left for the footer. Pure geometry, like the imposition it builds on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from cardsmith.base.errors import CardsmithError
from cardsmith.components._token_sheets import EDGE, GUIDE_OUTSET, cut_guide
from cardsmith.printing.imposition import Line, Page, Placement, Rect, back_rect

FOOTER_BAND = 4.0  # mm above the bottom margin kept for the footer (6 pt and its clearance)


@dataclass(frozen=True)
class Piece:
    """One printed piece: its image key, its back's (or None), its trim in mm and its outline."""

    key: str
    back: str | None
    size: tuple[float, float]
    shape: str = "square"  # square (boards too), round or hex
    hex_orientation: str = "pointy"


def _shelves(pieces: Sequence[Piece], bleed: float, page: tuple[float, float], margin: float
             ) -> list[list[tuple[int, Rect]]] | None:
    """Trims per page (piece index, trim rect), filled in shelves from the top-left; None if a piece
    does not fit the page at all."""
    pw, ph = page
    left, right = margin + bleed, pw - margin - bleed
    top, bottom = ph - margin - bleed, margin + FOOTER_BAND + bleed
    gap = 2 * bleed
    pages: list[list[tuple[int, Rect]]] = [[]]
    x, y, shelf_h = left, top, 0.0
    for i, piece in enumerate(pieces):
        w, h = piece.size
        if w > right - left + 1e-9 or h > top - bottom + 1e-9:
            return None
        if x + w > right + 1e-9:  # next shelf
            x, y, shelf_h = left, y - shelf_h - gap, 0.0
        if y - h < bottom - 1e-9:  # next page
            pages.append([])
            x, y, shelf_h = left, top, 0.0
        pages[-1].append((i, Rect(x, y - h, w, h)))
        x += w + gap
        shelf_h = max(shelf_h, h)
    return pages


def fits_one_page(size: tuple[float, float], bleed: float, paper: tuple[float, float], margin: float = EDGE) -> bool:
    """Whether a piece fits whole on one page of `paper` (either way up) with its bleed and the footer band."""
    short, long_ = sorted(paper)
    return any(_shelves([Piece("", None, size)], bleed, page, margin) is not None for page in ((short, long_), (long_, short)))


def _guides(trim: Rect, piece: Piece) -> list[Line]:
    if piece.shape in ("round", "hex"):
        return cut_guide(trim, piece.shape, piece.hex_orientation)
    r = trim.grown(*(GUIDE_OUTSET,) * 4)
    return [Line(r.x, r.y, r.right, r.y, "cut"), Line(r.right, r.y, r.right, r.top, "cut"),
            Line(r.right, r.top, r.x, r.top, "cut"), Line(r.x, r.top, r.x, r.y, "cut")]


def shared_pages(pieces: Sequence[Piece], bleed: float, paper: tuple[float, float], orientation: str = "auto",
                 backs: str = "none", back_offset: tuple[float, float] = (0.0, 0.0), margin: float = EDGE) -> list[Page]:
    """Sheets holding `pieces` in order (put the largest first), fronts and duplex backs alternating.

    `orientation` auto takes the one needing fewer pages (portrait on a tie).
    """
    short, long_ = sorted(paper)
    options = {"portrait": [(short, long_)], "landscape": [(long_, short)]}.get(orientation, [(short, long_), (long_, short)])
    best: tuple[tuple[float, float], list[list[tuple[int, Rect]]]] | None = None
    for page in options:
        plan = _shelves(pieces, bleed, page, margin)
        if plan is not None and (best is None or len(plan) < len(best[1])):
            best = (page, plan)
    if best is None:
        big = max(pieces, key=lambda p: p.size[0] * p.size[1])
        raise CardsmithError(f"'{big.key}' ({big.size[0]:g} x {big.size[1]:g} mm) does not fit on "
                             f"{short:g} x {long_:g} mm paper with its bleed and {margin:g} mm margins",
                             hint="choose larger paper (--paper a3)")
    (pw, ph), plan = best
    dx, dy = back_offset
    out: list[Page] = []
    for sheet, slots in enumerate(plan, 1):
        fronts = tuple(Placement(pieces[i].key, "front", i, t, t.grown(*(bleed,) * 4), bleed) for i, t in slots)
        lines = tuple(g for i, t in slots for g in _guides(t, pieces[i]))
        out.append(Page(pw, ph, "front", sheet, fronts, lines))
        if backs == "none" or not any(pieces[i].back for i, _ in slots):
            continue
        placed = []
        for i, t in slots:
            back = pieces[i].back
            if back is None:
                continue
            trim, rotation = back_rect(t, pw, ph, backs)
            trim = trim.moved(dx, dy)
            if not trim.grown(*(bleed,) * 4).inside(pw, ph):
                raise CardsmithError(f"--back-offset {dx:g},{dy:g} pushes the back of '{pieces[i].key}' off the page",
                                     hint="printer drift is usually under 3 mm; print `cardsmith pdf SET --calibration` to measure it")
            placed.append(Placement(back, "back", i, trim, trim.grown(*(bleed,) * 4), bleed, rotation))
        out.append(Page(pw, ph, "back", sheet, tuple(placed)))
    return out
