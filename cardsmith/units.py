"""Physical lengths written by designers (`3mm`, `0.125in`, `9pt`, `40px`) and named card sizes."""

from __future__ import annotations

import re

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "px": 25.4 / 300}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt|px)?\s*$")

# Trim sizes in mm (width, height), portrait. See shared/reference/print-and-export.md.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (69.85, 120.65),
    "mini-euro": (44.0, 67.0),
    "mini-american": (41.275, 63.5),
    "square": (63.5, 63.5),
    "square-large": (88.9, 88.9),
    "business": (50.8, 88.9),
}


class LengthError(ValueError):
    """A length that cannot be read; the message says what is accepted."""


def parse_length_mm(value: object, *, px_dpi: float = 300) -> float:
    """`'3mm'`, `'0.125in'`, `'9pt'`, `'40px'` (at `px_dpi`) or a bare number (mm) -> millimetres."""
    if isinstance(value, bool):
        raise LengthError(f"{value!r} is not a length")
    if isinstance(value, (int, float)):
        return float(value)
    m = _LENGTH.match(str(value))
    if not m:
        raise LengthError(f"'{value}' is not a length: write a number with a unit, like 3mm, 0.125in, 9pt or 40px")
    number, unit = float(m.group(1)), m.group(2) or "mm"
    if unit == "px":
        return number * 25.4 / px_dpi
    return number * MM_PER[unit]


def mm_to_px(mm: float, dpi: float) -> int:
    """Millimetres to whole pixels at `dpi` (rounded to nearest)."""
    return int(round(mm * dpi / 25.4))
