"""The fast PNG writer: what it writes decodes to exactly the image drawn, and the PDF takes it as it is."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw

from cardsmith.printing._pdfstream import png_stream
from cardsmith.render._pngwrite import encode_png


def _card_like(mode: str) -> Image.Image:
    rng = random.Random(7)
    im = Image.new("RGB", (123, 77), (20, 60, 140))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((5, 5, 117, 71), radius=9, fill=(240, 235, 220), outline=(10, 10, 10), width=3)
    d.text((12, 20), "Rapier 3", fill=(200, 30, 30))
    for _ in range(300):  # noise, so no filter choice could hide a wrong byte
        im.putpixel((rng.randrange(123), rng.randrange(77)), (rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    if mode == "RGBA":
        out = im.convert("RGBA")
        out.putalpha(Image.linear_gradient("L").resize(im.size))
        return out
    return im.convert(mode)


@pytest.mark.parametrize("mode", ["RGB", "L", "RGBA", "P", "1"])
def test_every_pixel_comes_back_as_drawn(mode):
    im = _card_like(mode)
    back = Image.open(io.BytesIO(encode_png(im, dpi=300)))
    back.load()
    assert back.mode == im.mode and back.size == im.size
    assert back.tobytes() == im.tobytes()
    assert round(back.info["dpi"][0]) == 300


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_the_pdf_embeds_the_written_data_as_it_is(mode):
    im = _card_like(mode)
    stream = png_stream(encode_png(im, dpi=300))
    assert stream is not None
    assert stream[:3] == (im.width, im.height, 3 if mode == "RGB" else 1)
