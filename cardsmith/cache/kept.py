"""Results worth keeping between runs of a command, named by a hash of everything they are made from.

A render that draws one card still needs each font's character table and each icon drawn at its
size; in a new process both are read or drawn again (ReportLab's font parser, resvg). They are kept
here, under `output/.cache/kept/`, named by the content hash of their inputs (never by a path or a
modification time), so a kept result is used only for the very bytes it was made from. The folder
is set by whoever knows the project (`cardsmith.render.batch.FaceRenderer`); without it nothing is kept.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

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
    """A kept result, or None (nothing kept, no folder, or unreadable)."""
    if FOLDER is None:
        return None
    try:
        # unbuffered, by a string path: a first card reads dozens of these, and Path.read_bytes took 3x as long
        with open(os.path.join(FOLDER, filename), "rb", buffering=0) as f:
            return f.readall()
    except OSError:
        return None


def write(filename: str, data: bytes) -> None:
    """Keep `data` (atomically; a result that cannot be kept only costs time next run)."""
    if FOLDER is None:
        return
    from cardsmith.base.atomic import write_bytes

    try:
        write_bytes(FOLDER / filename, data)
    except OSError:
        pass
