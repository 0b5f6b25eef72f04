"""Results worth keeping between runs of a command, named by a hash of everything they are made from.

A render that draws one card still needs the character table of each font it uses (to warn of
missing glyphs); reading one takes ReportLab's font parser about a tenth of a second a process. The
tables are kept here, under `output/.cache/kept/` (`cardsmith.layout.fonts`), named by the content
hash of the font (never by a path or a modification time), so a kept table is used only for the very
bytes it was read from. The folder is set by whoever knows the project
(`cardsmith.render.draw.FaceRenderer`); without it, or with caches off (`cardsmith.cache.off`),
nothing is read or kept.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from cardsmith.cache import off

FOLDER: Path | None = None


def keep_in(folder: Path | str | None) -> None:
    """Keep results in `folder` (None: keep nothing)."""
    global FOLDER
    FOLDER = Path(folder) if folder is not None else None


def digest(*parts: bytes | str) -> str:
    """The SHA-256 of `parts` in order, each framed by its length (no two lists of parts share one)."""
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8", "surrogateescape") if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "big") + b)
    return h.hexdigest()


def name(kind: str, *parts: bytes | str) -> str:
    """A file name for a result of `kind` made from `parts` (their bytes, in order)."""
    return f"{kind}-{digest(*parts)[:40]}"


def read(filename: str) -> bytes | None:
    """A kept result, or None (nothing kept, no folder, caches off, or unreadable)."""
    folder = FOLDER
    if folder is None or off():
        return None
    try:
        return (folder / filename).read_bytes()
    except OSError:
        return None


def write(filename: str, data: bytes) -> None:
    """Keep `data` (atomically; a result that cannot be kept only costs time next run)."""
    folder = FOLDER
    if folder is None or off():
        return
    from cardsmith.base.atomic import write_bytes

    try:
        write_bytes(folder / filename, data)
    except OSError:
        pass

