"""What lets a PDF rebuild skip what did not change: image content hashes known without reading the
images, a stamp that skips a PDF whose inputs are unchanged, and a store of embedded streams.

- Rendering records each image's SHA-1 with its size and mtime in the manifest (`sha1`, `bytes`,
  `mtime_ns`). `ImageDigests` trusts that hash while the file's size and mtime still match, and
  hashes the file itself otherwise (an image changed by hand, or a manifest from an older version).
- `PdfStamp` keeps, in `output/<set>/.pdf-cache.json`, a digest of everything a PDF was made from
  (options, pages, title, the content hash of every image) and the PDF's own size and mtime. The
  same digest and an untouched file mean the PDF is current and is not written again.
- `StreamStore` keeps the compressed stream of images the PDF cannot take as they are (palette or
  alpha PNGs, WebP), keyed by content hash, in `.pdf-streams/`: decoding and recompressing such an
  image is most of the cost of a PDF, and a one-card change then recompresses one card.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping

from cardsmith.base.atomic import write_bytes, write_text

STAMP_NAME = ".pdf-cache.json"
STREAMS_DIR = ".pdf-streams"
PDF_VERSION = "1"  # bump when the PDF writer draws differently, so stamps no longer match


def file_sha1(path: Path) -> str:
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def stat_pair(path: Path | str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


class ImageDigests:
    """Content hashes of rendered images: from the manifest while a file is as rendering left it.
    (Files are named by absolute path strings: a `Path` per image costs more than its stat call.)"""

    def __init__(self, manifest: Mapping[str, Any] | None = None, out_dir: Path | None = None, verified: bool = False):
        """`verified`: the caller has checked that every image the manifest lists is as rendering left it
        (render's stamp, `freshness.last_render`), so the manifest's hashes hold without a stat each."""
        self.verified = verified
        self.known: dict[str, tuple[str, int, int]] = {}
        if manifest is not None and out_dir is not None:
            base = os.path.abspath(out_dir)
            for section in ("cards", "backs"):
                for info in (manifest.get(section) or {}).values():
                    if isinstance(info, dict) and info.get("sha1") and info.get("file"):
                        self.known[os.path.abspath(os.path.join(base, info["file"]))] = (
                            str(info["sha1"]), int(info.get("bytes", -1)), int(info.get("mtime_ns", -1)))
        self.cache: dict[str, str] = {}

    def digest(self, path: Path | str) -> str:
        """The SHA-1 of `path`'s bytes (OSError if it cannot be read)."""
        key = os.path.abspath(path)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        known = self.known.get(key)
        if known is not None and (self.verified or stat_pair(key) == known[1:]):
            sha = known[0]
        else:
            sha = file_sha1(Path(key))
        self.cache[key] = sha
        return sha


class PdfStamp:
    """The inputs each PDF in one folder was made from (see the module's docstring)."""

    def __init__(self, folder: Path):
        from cardsmith.cache import off

        self.path = Path(folder) / STAMP_NAME
        self.off = off()  # caches off: no record is read or written, every PDF is written whole
        try:
            if self.off:
                raise OSError
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.entries: dict[str, Any] = data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            self.entries = {}

    @staticmethod
    def key(inputs: Any) -> str:
        blob = json.dumps({"v": PDF_VERSION, "inputs": inputs}, sort_keys=True, default=str, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()

    def current(self, target: Path, key: str) -> bool:
        """Whether `target` exists as it was written from inputs with this `key`."""
        entry = self.entry(target)
        return entry is not None and entry.get("key") == key

    def entry(self, target: Path) -> dict[str, Any] | None:
        """The record of `target` while the file is as it was written, else None."""
        entry = self.entries.get(str(Path(target).resolve()))
        if not isinstance(entry, dict) or list(stat_pair(target) or ()) != entry.get("stat"):
            return None
        return entry

    def record(self, target: Path, key: str) -> None:
        """Keep `target` as written from `key`."""
        self.entries[str(Path(target).resolve())] = {"key": key, "stat": list(stat_pair(target) or ())}
        self._write()

    def _write(self) -> None:
        if self.off:
            return
        # a few hundred images per PDF: compact, through json's C encoder (`indent` formats in Python)
        write_text(self.path, json.dumps(self.entries, sort_keys=True, separators=(",", ":")))


class StreamStore:
    """Compressed image streams by content hash: `<sha1>.json` (the image dictionary) and `<sha1>.bin`."""

    def __init__(self, folder: Path):
        self.folder = Path(folder) / STREAMS_DIR

    def get(self, sha: str) -> tuple[dict[str, Any], bytes] | None:
        from cardsmith.cache import off

        if off():
            return None
        try:
            meta = json.loads((self.folder / f"{sha}.json").read_text(encoding="utf-8"))
            data = (self.folder / f"{sha}.bin").read_bytes()
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or meta.get("length") != len(data):
            return None
        return meta, data

    def put(self, sha: str, meta: dict[str, Any], data: bytes) -> None:
        from cardsmith.cache import off

        if off():
            return
        try:
            write_bytes(self.folder / f"{sha}.bin", data)
            write_text(self.folder / f"{sha}.json", json.dumps({**meta, "length": len(data)}))
        except Exception:  # a cache that cannot be written only costs time next run
            pass

