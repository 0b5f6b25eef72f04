"""Cached text runs: the same pixels as Pillow's own text drawing, wherever and however often drawn."""

from __future__ import annotations

import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from cardsmith.layout import _textcache as textcache

FONTS = Path(__file__).resolve().parent.parent / "fonts"


def test_cached_runs_draw_exactly_what_pillow_draws():
    fonts = [ImageFont.truetype(str(FONTS / "lato" / "Lato-Bold.ttf"), s) for s in (20, 48)]
    fonts.append(ImageFont.truetype(str(FONTS / "liberation" / "LiberationSans-Regular.ttf"), 34))
    rng = random.Random(3)
    pillow = Image.new("RGB", (600, 400), (30, 60, 90))
    ours = pillow.copy()
    dp, do = ImageDraw.Draw(pillow, "RGBA"), ImageDraw.Draw(ours, "RGBA")
    before = dict(textcache.stats)
    for _ in range(300):
        font = rng.choice(fonts)
        text = rng.choice(["Rapier", "+3", "Fleet · Terracorp", "Ions (may move)", "Wq", "é€"])
        fill = rng.choice([(255, 255, 255, 255), (0, 0, 0, 136), "#1b1b22", (200, 30, 30, 90)])
        for xy in ((rng.uniform(-20, 560), rng.uniform(0, 420)), (rng.randrange(560), rng.randrange(420))):
            dp.text(xy, text, font=font, fill=fill, anchor="ls")
            textcache.draw_text(do, xy, text, font, fill)
    assert ours.tobytes() == pillow.tobytes()
    assert textcache.stats["hits"] > before["hits"]  # whole-pixel positions repeat: those came from the cache
