"""The fast PNG writer: what it writes decodes to exactly the image drawn, and the PDF takes it as it is."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image, ImageDraw

from cardsmith.printing.pdf import png_stream
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



def test_writing_a_card_loads_no_image_file_machinery():
    """A one-card rebuild writes one PNG: Pillow's file reader and logging (which tobytes imports)
    are left unloaded, while the bytes stay exactly tobytes' (the round trip above)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys\nfrom PIL import Image\nfrom cardsmith.render._pngwrite import encode_png\n"
            "encode_png(Image.new('RGBA', (300, 40), (1, 2, 3, 4)))\n"
            "print(*(m for m in ('PIL.ImageFile', 'logging') if m in sys.modules))")
    root = Path(__file__).resolve().parent.parent
    p = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(root)},
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == []


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_a_card_sized_image_deflated_in_two_halves_is_one_stream_that_decodes_exactly(mode):
    from cardsmith.render import _pngwrite as pngwrite

    rng = random.Random(11)
    im = Image.new("RGB", (1125, 1500), (30, 90, 160))  # a large card (an L one too must pass the threshold)
    d = ImageDraw.Draw(im)
    for _ in range(400):  # shapes and noise on both halves and across the cut
        x, y = rng.randrange(1100), rng.randrange(1480)
        d.rectangle((x, y, x + rng.randrange(80), y + rng.randrange(80)), fill=(rng.randrange(256), rng.randrange(256), 9))
    im = im.convert(mode)
    assert im.width * im.height * len(im.getbands()) >= pngwrite.SPLIT_BYTES  # the two-half path
    data = encode_png(im, dpi=300, threads=2)
    assert data != encode_png(im, dpi=300)  # (one stream in two deflated halves: not the one-piece bytes)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.tobytes() == im.tobytes()
    if mode != "RGBA":
        stream = png_stream(data)
        assert stream is not None and len(zlib.decompress(stream[3])) == im.height * (1 + im.width * len(im.getbands()))
