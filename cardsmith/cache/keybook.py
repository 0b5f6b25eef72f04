"""The key each drawn image was made with, kept beside the images (`.render-cache.json`,
`.components-cache.json`): an image whose key is unchanged is not drawn again.

One JSON file per folder of images: `{"faces": {image key: entry}, "file_lists": [[file, ...], ...]}`,
each entry's `files` (the fonts and assets it used) written once and named by its place, since faces
drawn with the same fonts and icons share one (three quarters of the file was those lists, read and
written again on every run that draws a card). With caches off (`cardsmith.cache.off`) nothing is
read (every image is drawn) or written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardsmith.base.atomic import write_text
from cardsmith.cache import off


def read_keys(path: Path) -> dict[str, Any]:
    """Each image's entry (its `files` lists put back in place); {} when there is none or caches are off."""
    if off():
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    faces, shared = data.get("faces"), data.get("file_lists")
    if not isinstance(faces, dict) or not isinstance(shared, list):
        return data  # written before the lists were shared: one entry per face, as they are
    for entry in faces.values():
        i = entry.get("files") if isinstance(entry, dict) else None
        if isinstance(i, int):
            entry["files"] = shared[i] if 0 <= i < len(shared) else None  # (None: a damaged entry, drawn again)
    return faces


def keys_text(faces: dict[str, Any]) -> str:
    """The entries as the file holds them (see the module's docstring)."""
    lists: dict[tuple[str, ...], int] = {}
    out = {}
    for key, entry in faces.items():
        files = tuple(entry.get("files") or ())
        out[key] = {**entry, "files": lists.setdefault(files, len(lists))}
    return json.dumps({"faces": out, "file_lists": [list(f) for f in lists]}, sort_keys=True, separators=(",", ":"))


def write_keys(path: Path, faces: dict[str, Any], old: dict[str, Any] | None = None) -> None:
    """Keep the entries (not when they equal `old`, what was read: an unchanged set writes nothing;
    nothing with caches off)."""
    if off() or faces == old:
        return
    write_text(path, keys_text(faces))
