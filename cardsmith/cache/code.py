"""A digest of the code that draws, for the keys of drawn faces.

An edit to the painter (say `layout/_fit.py`) must draw every card again: a hand-bumped version
number is forgotten. The digest covers the source of every module of `cardsmith.layout` (the layout
language, the painter and its internals, fonts, print rules), the PNG writer and the face drawer in
`cardsmith.render`, and the version of Pillow. It is read once per process (a few dozen small files).
"""

from __future__ import annotations

import hashlib
import os

from cardsmith.cache.freshness import PACKAGE_DIR

DRAWING_FOLDERS = ("layout",)  # every module in these
DRAWING_FILES = ("render/_pngwrite.py", "render/draw.py")  # and these

_DIGEST: str | None = None


def drawing_files() -> list[str]:
    """The source files of the code that draws, sorted (paths relative to the package)."""
    found = list(DRAWING_FILES)
    for folder in DRAWING_FOLDERS:
        try:
            found += [f"{folder}/{n}" for n in os.listdir(PACKAGE_DIR / folder) if n.endswith(".py")]
        except OSError:
            pass
    return sorted(set(found))


def drawing_code() -> str:
    """The SHA-256 (hex) of the drawing code's source and Pillow's version; computed once per process."""
    global _DIGEST
    if _DIGEST is None:
        from PIL import __version__ as pillow

        h = hashlib.sha256(f"Pillow {pillow}".encode())
        for rel in drawing_files():
            try:
                data = (PACKAGE_DIR / rel).read_bytes()
            except OSError:
                data = b"<missing>"
            h.update(f"\0{rel}\0{len(data)}\0".encode() + data)
        _DIGEST = h.hexdigest()
    return _DIGEST
