"""Rasterised text runs, kept between cards.

A set's cards repeat most of their words: type lines, stat numbers, keyword reminders, labels. Of
the text draws in a 360-card render only about a fifth are distinct, and rasterising a run with
FreeType is most of what drawing text costs. `draw_text` does what `ImageDraw.text` does for one
line (the same mask, from the same `getmask2` call, blended with the same `draw_bitmap`), but
keeps each run's mask by (font file, face, size, text, anchor, sub-pixel start): the colour is
applied when blending, so a shadow and its text share one mask, and the result is pixel-identical.
Anything else (several lines, bitmap fonts, a 1-bit draw) goes to `ImageDraw.text` as it is.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any

from PIL import ImageDraw, ImageFont

MAX_PIXELS = 16_000_000  # about 16 MB of masks a process: the memory target counts every worker

_masks: OrderedDict[tuple, tuple[Any, tuple[int, int]]] = OrderedDict()
_pixels = 0
stats = {"hits": 0, "misses": 0}


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Any, fill: Any,
              anchor: str = "ls") -> None:
    """`draw.text(xy, text, font=font, fill=fill, anchor=anchor)`, with the run's mask cached."""
    global _pixels
    path = getattr(font, "path", None)
    if (not isinstance(font, ImageFont.FreeTypeFont) or not isinstance(path, str) or "\n" in text
            or draw.fontmode != "L" or not text):
        draw.text(xy, text, font=font, fill=fill, anchor=anchor)
        return
    ink, fill_ink = draw._getink(fill)
    ink = ink if ink is not None else fill_ink
    if ink is None:
        return
    start = (math.modf(xy[0])[0], math.modf(xy[1])[0])
    key = (path, font.index, font.size, font.layout_engine, text, anchor, start)
    hit = _masks.get(key)
    if hit is None:
        stats["misses"] += 1
        hit = font.getmask2(text, "L", anchor=anchor, start=start)
        _masks[key] = hit
        _pixels += hit[0].size[0] * hit[0].size[1]
        while _pixels > MAX_PIXELS and len(_masks) > 1:
            _, (old, _o) = _masks.popitem(last=False)
            _pixels -= old.size[0] * old.size[1]
    else:
        stats["hits"] += 1
        _masks.move_to_end(key)
    mask, offset = hit
    draw.draw.draw_bitmap((int(xy[0]) + offset[0], int(xy[1]) + offset[1]), mask, ink)
