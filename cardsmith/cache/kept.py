"""Results worth keeping between runs of a command, named by a hash of everything they are made from.

A render that draws one card still needs each font's character table and each icon drawn at its
size; in a new process both are read or drawn again (ReportLab's font parser, resvg). They are kept
here, under `output/.cache/kept/`, named by the content hash of their inputs (never by a path or a
modification time), so a kept result is used only for the very bytes it was made from. The folder
is set by whoever knows the project (`cardsmith.render.draw.FaceRenderer`); without it, or with caches
off (`cardsmith.cache.off`), nothing is read or kept.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cardsmith.cache import off

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FOLDER: Path | None = None


def keep_in(folder: Path | str | None) -> None:
    """Keep results in `folder` (None: keep nothing)."""
    global FOLDER
    FOLDER = Path(folder) if folder is not None else None


def active() -> bool:
    """Whether results are read and kept (a folder is set and caches are on)."""
    return FOLDER is not None and not off()


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
        # unbuffered, by a string path: a first card reads dozens of these, and Path.read_bytes took 3x as long
        with open(os.path.join(folder, filename), "rb", buffering=0) as f:
            return f.read()
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


# ---- plain data -----------------------------------------------------------------------------------
# Kept values that are plain data (dicts, lists, tuples, sets, strings, numbers, dates) are pickled:
# several times quicker to read than JSON, and they keep tuples, sets and non-string keys. A kept file
# is data in output/, which anyone who can write there could replace, so it is read back by an
# unpickler that builds those types and nothing else: a planted file cannot run code.

PLAIN = {("builtins", n) for n in ("set", "frozenset", "tuple", "list", "dict", "bytes", "bytearray", "complex",
                                    "int", "float", "str", "bool", "slice", "range")} | \
        {("datetime", n) for n in ("date", "datetime", "time", "timedelta", "timezone")}


def _plain_unpickler(data: bytes) -> "Any":
    import io
    import pickle

    class Plain(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> "Any":
            if (module, name) in PLAIN:
                return super().find_class(module, name)
            raise pickle.UnpicklingError(f"{module}.{name} is not plain data")

    return Plain(io.BytesIO(data))


def read_plain(filename: str) -> "Any":
    """A kept value written by `write_plain`, or None (nothing kept, caches off, damaged, or not plain data)."""
    data = read(filename)
    if data is None:
        return None
    try:
        return _plain_unpickler(data).load()
    except Exception:  # truncated, foreign, or holding anything but plain data: made again
        return None


def write_plain(filename: str, value: "Any") -> None:
    """Keep `value` (plain data only: anything else could not be read back by `read_plain`)."""
    import pickle

    if active():
        write(filename, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
