"""Painted pixels kept between processes (`cardsmith.cache.kept`): masks, outline bands and icons ready to paste.

Each `render` after an edit is a new process whose in-memory caches start empty, and drawing a
card's oversampled masks and icons again cost more than the rest of painting it. A result is kept as
a few integers and its images' raw pixels (zlib level 1 when that halves them: masks are mostly 0
and 255), named by a hash of the painter's version and every input. A file that cannot be read or
decoded is drawn again and written anew; without a kept folder, or with caches off, nothing is read or
written. A name also holds the digest of the drawing code (`cardsmith.cache.code`): an edit to the
painter never reads pixels drawn by the old one.
"""

from __future__ import annotations

import functools
import struct
import zlib
from typing import Any, Callable, Sequence, TypeVar

from PIL import Image

from cardsmith.cache import kept
from cardsmith.cache.code import drawing_code
from cardsmith.layout.rawpixels import raw_bytes

MODES = ("L", "RGB", "RGBA")
_HEAD = struct.Struct("<4sBHH")  # magic, flags (1: zlib body), integers, images
_IMAGE = struct.Struct("<BII")  # mode, width, height
_MAGIC = b"ckp1"
_ZLIB = 1

R = TypeVar("R")
Parts = tuple[Sequence[int], Sequence[Image.Image]]


def pack(ints: Sequence[int], images: Sequence[Image.Image]) -> bytes:
    """Integers and images (L, RGB or RGBA) as one file's bytes."""
    body = b"".join(raw_bytes(im) for im in images)
    packed = zlib.compress(body, 1)
    flags = _ZLIB if len(packed) * 2 <= len(body) else 0
    head = _HEAD.pack(_MAGIC, flags, len(ints), len(images)) + struct.pack(f"<{len(ints)}i", *ints)
    return b"".join([head, *(_IMAGE.pack(MODES.index(im.mode), *im.size) for im in images), packed if flags else body])


def unpack(data: bytes) -> tuple[list[int], list[Image.Image]] | None:
    """What `pack` wrote, or None for anything else (a truncated or damaged file)."""
    try:
        magic, flags, n_ints, n_images = _HEAD.unpack_from(data)
        if magic != _MAGIC:
            return None
        at = _HEAD.size
        ints = list(struct.unpack_from(f"<{n_ints}i", data, at))
        at += 4 * n_ints
        shapes = [_IMAGE.unpack_from(data, at + _IMAGE.size * k) for k in range(n_images)]
        at += _IMAGE.size * n_images
        body = memoryview(zlib.decompress(memoryview(data)[at:]) if flags & _ZLIB else memoryview(data)[at:])
        sizes = [w * h * len(MODES[m]) for m, w, h in shapes]
        if len(body) != sum(sizes):
            return None
        images, at = [], 0
        for (m, w, h), size in zip(shapes, sizes):
            mode = MODES[m]
            # L and RGBA images are laid out as Pillow holds them: used in place (they are never
            # modified), without a decoder; RGB is held with a fourth byte, so it is decoded
            pixels = body[at:at + size]  # any buffer will do; Pillow's hints name only bytes
            images.append(Image.frombuffer(mode, (w, h), pixels, "raw", mode, 0, 1) if mode != "RGB"  # type: ignore[arg-type]
                          else Image.frombytes(mode, (w, h), pixels))
            at += size
        return ints, images
    except (struct.error, zlib.error, IndexError, ValueError):
        return None


def one_image(image: Image.Image) -> Parts:
    """`encode` for a result that is one image."""
    return (), [image]


def the_image(ints: list[int], images: list[Image.Image]) -> Image.Image:
    """`decode` for a result that is one image."""
    if ints or len(images) != 1:
        raise ValueError("not one image")
    return images[0]


def keep_pixels(kind: str, version: str, encode: Callable[[Any], Parts], decode: Callable[[list[int], list[Image.Image]], Any],
                worth: Callable[..., bool] = lambda *args: True,
                inputs: Callable[..., Sequence[bytes | str] | None] | None = None) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Keep a pure painting function's results between processes, by `kind`, `version` and its inputs.

    `inputs(*args)` names what the result is made from (default: the arguments' repr; None: not
    keepable, e.g. an icon that draws other files); `worth(*args)` is False for results cheaper to
    compute than to read. `encode` turns a result into integers and images, `decode` back; a
    `decode` that raises ValueError or IndexError on what it is given counts as a damaged file."""

    def wrap(fn: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> R:
            if not kept.active() or not worth(*args, **kwargs):
                return fn(*args, **kwargs)
            parts = inputs(*args, **kwargs) if inputs is not None else (repr((args, sorted(kwargs.items()))),)
            if parts is None:
                return fn(*args, **kwargs)
            name = kept.name(kind, version, drawing_code(), *parts) + ".pix"
            data = kept.read(name)
            got = unpack(data) if data is not None else None
            if got is not None:
                try:
                    return decode(*got)
                except (ValueError, IndexError):
                    pass
            out = fn(*args, **kwargs)
            try:
                packed = pack(*encode(out))
            except ValueError:  # an image mode this file does not hold: drawn each time, as before
                return out
            kept.write(name, packed)
            return out

        return run

    return wrap
