"""A fast, lossless PNG writer for card images.

Pillow's PNG encoder tries all five row filters on every row and keeps the best ("adaptive"
filtering), which Pillow offers no option to turn off. Card faces are mostly flat colour, where the
unfiltered rows compress as well or better, so this writer stores every row with filter 0 and
deflates at level 1: less than half of Pillow's time a card at level 1, and smaller files (`python
benchmarks/png.py` measures both). The pixels are the same bytes Pillow would store, so decoding
gives back the exact image, and the data stays a valid PDF Flate stream (see
`cardsmith.printing._pdfstream.png_stream`).

Modes other than RGB, RGBA and L go through Pillow.
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1
_COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}  # mode: (PNG colour type, bytes a pixel)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))


def idat_data(image: Image.Image, level: int = LEVEL) -> bytes:
    """The zlib stream of `image`'s rows, each prefixed with filter type 0 (None)."""
    _, bpp = _COLOUR_TYPES[image.mode]
    stride = image.size[0] * bpp
    raw = memoryview(image.tobytes())
    none = b"\x00"
    return zlib.compress(b"".join(none + raw[y * stride:(y + 1) * stride] for y in range(image.size[1])), level)


def encode_png(image: Image.Image, dpi: int | None = None, level: int = LEVEL) -> bytes:
    """`image` as PNG file bytes (Pillow writes modes this writer does not handle)."""
    if image.mode not in _COLOUR_TYPES:
        buf = io.BytesIO()
        image.save(buf, "PNG", compress_level=level, **({"dpi": (dpi, dpi)} if dpi else {}))
        return buf.getvalue()
    colour, _ = _COLOUR_TYPES[image.mode]
    w, h = image.size
    parts = [SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0))]
    if dpi:
        ppm = int(dpi / 0.0254 + 0.5)  # pixels per metre, rounded as Pillow rounds it
        parts.append(_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)))
    parts += [_chunk(b"IDAT", idat_data(image, level)), _chunk(b"IEND", b"")]
    return b"".join(parts)


def write_png(image: Image.Image, path: Path, dpi: int | None = None, level: int = LEVEL) -> bytes:
    """Write `image` as PNG to `path` (not atomically: callers pass a temporary path); returns the bytes."""
    data = encode_png(image, dpi, level)
    with open(path, "wb") as f:
        f.write(data)
    return data
