"""A fast, lossless PNG writer for card images.

Pillow's PNG encoder tries all five row filters on every row and keeps the best ("adaptive"
filtering); on a 300 dpi card that costs about 26 ms at zlib level 1. Card faces are mostly flat
colour, where the unfiltered rows compress as well or better, so this writer stores every row
with filter 0 and deflates at level 1: about 10 ms a card on one core, 8 ms with the two halves
of a card deflated at once (`threads=2`), and smaller files (`python benchmarks/png.py` measures all three). The pixels are the same bytes Pillow would store, so decoding gives back the
exact image, and the data stays a valid PDF Flate stream (see `cardsmith.printing._pdfstream.png_stream`).

Modes other than RGB, RGBA and L go through Pillow.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from PIL import Image

from cardsmith.layout.rawpixels import raw_bytes

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1
_COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}  # mode: (PNG colour type, bytes a pixel)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))


def idat_data(image: Image.Image, level: int = LEVEL, threads: int = 1) -> bytes:
    """The zlib stream of `image`'s rows, each prefixed with filter type 0 (None).

    With `threads` 2, a card-sized image is deflated in two halves at once, the top half on a second
    thread (zlib lets go of the interpreter while it works): for the one card a rebuild draws while
    the other core is idle (`render_set` asks for it then, never in its worker processes, where both
    cores already draw, nor under `--jobs 1`). The halves are raw deflate blocks, the first ended by a full flush (so the
    second starts on a byte of its own), joined under one zlib header and one Adler-32: a single
    stream, as PNG readers and PDF's Flate filter expect."""
    _, bpp = _COLOUR_TYPES[image.mode]
    w, h = image.size
    stride = w * bpp
    raw = memoryview(raw_bytes(image))
    if threads < 2 or h < 2 or stride * h < SPLIT_BYTES:
        return zlib.compress(_rows(raw, stride, 0, h), level)
    half = h // 2
    top, bottom = _rows(raw, stride, 0, half), _rows(raw, stride, half, h)
    done: list[bytes | BaseException] = []

    def deflate_top() -> None:
        try:
            z = zlib.compressobj(level, zlib.DEFLATED, -15)
            done.append(z.compress(top) + z.flush(zlib.Z_FULL_FLUSH))
        except BaseException as e:  # (MemoryError): raised again where the caller sees it
            done.append(e)

    import threading  # (imported already by the layouts; only drawing needs it)

    helper = threading.Thread(target=deflate_top, name="png-deflate-top")
    helper.start()
    z = zlib.compressobj(level, zlib.DEFLATED, -15)
    tail = z.compress(bottom) + z.flush()
    helper.join()
    if isinstance(done[0], BaseException):
        raise done[0]
    check = zlib.adler32(bottom, zlib.adler32(top))
    return zlib.compress(b"", level)[:2] + done[0] + tail + check.to_bytes(4, "big")


SPLIT_BYTES = 1 << 20  # below a megabyte of pixels (a small card, a low dpi) a second thread costs more than it saves


def _rows(raw: memoryview, stride: int, first: int, end: int) -> bytes:
    """Rows `first` to `end` of the pixels, each after its filter byte (0: None)."""
    none = b"\x00"
    return b"".join(none + raw[y * stride:(y + 1) * stride] for y in range(first, end))


def encode_png(image: Image.Image, dpi: int | None = None, level: int = LEVEL, threads: int = 1) -> bytes:
    """`image` as PNG file bytes (Pillow writes modes this writer does not handle); `threads`: see `idat_data`."""
    if image.mode not in _COLOUR_TYPES:
        import io

        buf = io.BytesIO()
        image.save(buf, "PNG", compress_level=level, **({"dpi": (dpi, dpi)} if dpi else {}))
        return buf.getvalue()
    colour, _ = _COLOUR_TYPES[image.mode]
    w, h = image.size
    parts = [SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0))]
    if dpi:
        ppm = int(dpi / 0.0254 + 0.5)  # pixels per metre, rounded as Pillow rounds it
        parts.append(_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)))
    parts += [_chunk(b"IDAT", idat_data(image, level, threads)), _chunk(b"IEND", b"")]
    return b"".join(parts)


def write_png(image: Image.Image, path: Path, dpi: int | None = None, level: int = LEVEL, threads: int = 1) -> bytes:
    """Write `image` as PNG to `path` (not atomically: callers pass a temporary path); returns the bytes."""
    data = encode_png(image, dpi, level, threads)
    with open(path, "wb") as f:
        f.write(data)
    return data
