"""Paper sizes, sheet layouts and the `--paper` / `--back-offset` parsers: what the command line and
validation need to know about a sheet, without the imposition code of `cardsmith.printing.imposition`."""

from __future__ import annotations

import re

from cardsmith.base.errors import UsageError
from cardsmith.sets.lengths import MM_PER_UNIT

# Portrait width x height in mm.
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "legal": (215.9, 355.6),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}

LAYOUTS = ("grid", "gutterfold", "single")
# mm between cards on a sheet: each card shows 1.5 mm of its own bleed into it, so a cut drifting
# that far shows the card's colour, never its neighbour's (cards butted together share their cut)
DEFAULT_GUTTER = 3.0
BACK_MODES = ("none", "long", "short")


def parse_paper(text: str) -> tuple[float, float]:
    """A paper name (a4, letter, legal, a3, tabloid) or a custom size such as `200x280mm` or `8.5x11in`."""
    name = text.strip().lower()
    if name in PAPER_SIZES:
        return PAPER_SIZES[name]
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(mm|in|cm)?", name)
    if not m:
        raise UsageError(
            f"unknown paper '{text}'",
            hint=f"use one of {', '.join(PAPER_SIZES)} or a size such as 200x280mm or 8.5x11in",
        )
    scale = MM_PER_UNIT[m.group(3) or "mm"]
    w, h = float(m.group(1)) * scale, float(m.group(2)) * scale
    if w <= 0 or h <= 0:
        raise UsageError(f"paper '{text}' has no area", hint="give a width and height above zero")
    from cardsmith.base.limits import MAX_PAPER_MM

    if max(w, h) > MAX_PAPER_MM:
        raise UsageError(f"paper '{text}' is {w:g} x {h:g} mm, larger than a PDF page can be (at most {MAX_PAPER_MM:g} mm a side)",
                         hint="check the unit: a number alone is millimetres (200x280mm, 8.5x11in)")
    return (w, h)


def parse_offset(text: str) -> tuple[float, float]:
    """`X,Y` in mm (as in `--back-offset 0.5,-1`)."""
    m = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*(?:mm)?\s*,\s*(-?\d+(?:\.\d+)?)\s*(?:mm)?\s*", text)
    if not m:
        raise UsageError(f"bad offset '{text}'", hint="write it as X,Y in millimetres, e.g. 0.5,-1")
    return (float(m.group(1)), float(m.group(2)))
