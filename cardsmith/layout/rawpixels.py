"""An image's pixels as bytes, as `Image.tobytes()` gives them, for the code a one-card rebuild runs."""

from __future__ import annotations

from PIL import Image


def raw_bytes(image: Image.Image) -> bytes:
    """`image.tobytes()`, without the import of PIL.ImageFile (and logging) that tobytes makes for one
    constant: a tenth of writing the one card a rebuild draws. Pillow's raw encoder, as tobytes
    drives it; tobytes itself where Pillow's internals differ."""
    encoder = getattr(Image.core, "raw_encoder", None)
    if encoder is None:
        return image.tobytes()
    image.load()
    try:
        e = encoder(image.mode, image.mode)
        e.setimage(image.im, (0, 0, *image.size))
        out = []
        while True:
            _, status, data = e.encode(max(65536, image.size[0] * 4))
            out.append(data)
            if status:
                break
        e.cleanup()
    except (TypeError, ValueError, AttributeError):
        return image.tobytes()
    if status < 0:
        return image.tobytes()
    return b"".join(out)
