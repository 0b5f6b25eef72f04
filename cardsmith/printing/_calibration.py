"""The duplex calibration sheet: lines on the front, rulers behind them on the back.

Like card backs, the rulers sit where `sheets.back_rect` puts the back of each front line, so the
sheet measures the same turn of the paper the cards will make, on portrait or landscape pages.
"""

from __future__ import annotations

from cardsmith.base.errors import UsageError
from cardsmith.printing.imposition import Label, Line, Page, Rect, back_rect


def calibration_pages(paper: tuple[float, float], flip: str, back_offset: tuple[float, float] = (0.0, 0.0),
                      orientation: str = "portrait") -> list[Page]:
    """A duplex test sheet: lines on the front, rulers on the back.

    Hold the printed sheet against a light and look at the back: where each front line crosses its
    ruler is the `--back-offset` to use (X from the horizontal rulers, Y from the vertical ones,
    both as seen on the back). Printed with an offset, the rulers read what is still off (0 when right).
    Rulers sit where `back_rect` puts the back of each line, as for cards; text keeps to bands at
    the top and bottom, clear of every line and 5 mm or more from the page edges.
    """
    if flip not in ("long", "short"):
        raise UsageError("a calibration sheet is for duplex printing", hint="use --backs long or --backs short")
    pw, ph = sorted(paper)
    if orientation == "landscape":
        pw, ph = ph, pw
    dx, dy = back_offset
    vx = (30.0, pw / 2, pw - 30.0)  # front vertical lines (measure X)
    hy = (45.0, ph / 2, ph - 45.0)  # front horizontal lines (measure Y); symmetric, so any flip keeps them clear of the text
    front_lines = [Line(x, 20, x, ph - 20, "guide") for x in vx] + [Line(8, y, pw - 8, y, "guide") for y in hy]
    front_labels = [
        Label(pw / 2, ph - 12, "cardsmith calibration sheet - front", 9),
        Label(pw / 2, 12, f"print duplex, flip on the {flip} edge, at 100% scale (no 'fit to page')", 7),
    ]
    back_lines: list[Line] = []
    back_labels: list[Label] = []

    def behind(x: float, y: float) -> tuple[float, float]:
        r, _ = back_rect(Rect(x, y, 0.0, 0.0), pw, ph, flip)
        return r.x + dx, r.y + dy

    for x in vx:
        for y in (ph * 0.3, ph * 0.7):
            bx, by = behind(x, y)
            back_lines.append(Line(bx - 5, by, bx + 5, by, "guide"))
            for k in range(-10, 11):
                u = k / 2
                tall = 3.0 if k % 2 == 0 else 1.5
                back_lines.append(Line(bx + u, by, bx + u, by + tall, "guide"))
                if k % 8 == 0:  # every 4 mm at 6 pt: "-4 0 4" stay apart (at every 2 mm, 5 pt ran together)
                    back_labels.append(Label(bx + u, by + 4.2, f"{u:g}", 6))
            back_labels.append(Label(bx, by - 3.5, "X", 6))
    for y in hy:
        for x in (pw * 0.3, pw * 0.7):
            bx, by = behind(x, y)
            back_lines.append(Line(bx, by - 5, bx, by + 5, "guide"))
            for k in range(-10, 11):
                u = k / 2
                tall = 3.0 if k % 2 == 0 else 1.5
                back_lines.append(Line(bx, by + u, bx + tall, by + u, "guide"))
                if k % 8 == 0:
                    back_labels.append(Label(bx + 5.5, by + u - 0.6, f"{u:g}", 6, "left"))
            back_labels.append(Label(bx - 3, by - 0.6, "Y", 6))
    back_labels += [
        Label(pw / 2, ph - 12, "cardsmith calibration sheet - back", 9),
        Label(pw / 2, ph - 17,
              "hold against a light; where a front line crosses a ruler is the value to add to --back-offset X,Y", 6.5,
              max_width=pw - 20),
        Label(pw / 2, ph - 21,
              f"(X to the right, Y up, as seen on this side; this sheet was printed with --back-offset {dx:g},{dy:g})", 6.5,
              max_width=pw - 20),
    ]
    return [
        Page(pw, ph, "front", 1, lines=tuple(front_lines), labels=tuple(front_labels)),
        Page(pw, ph, "back", 1, lines=tuple(back_lines), labels=tuple(back_labels)),
    ]
