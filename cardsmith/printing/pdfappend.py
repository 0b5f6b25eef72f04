"""Changed card images written into an existing PDF as an incremental update (ISO 32000, 7.5.6).

When a PDF's pages are as they were and only some images changed, each new image is appended under
the object number of the image it replaces, followed by a cross-reference section for those
objects and a trailer that points back (`/Prev`) at the previous one; a reader takes the newest
version of every object. Nothing else is rewritten, so a one-card change costs one image's bytes
instead of formatting the whole document again.

The old file is copied beside the target, the update appended to the copy and the copy swapped with
the target (`atomic.spare_path`: the copy is written over the previous version's file, which costs
a third of making a new one): an interrupted write leaves the old PDF whole. The update is refused
(and the caller writes the whole PDF) when the file is not the one recorded, when a changed image
is shared with a placement that did not change, when a new image cannot go in as it is (only
8-bit RGB or grey PNGs can), or when the appended bytes would pass half the size of the last full
write (then the full rewrite also drops the replaced images).

The objects keep their names (`/Img<hash>` of the image first written there): names are only
resource keys, so pages show the new image; the next full write names it by its own hash.
"""

from __future__ import annotations

import os
import re
import struct
from pathlib import Path
TYPE_CHECKING = False  # typing is not imported at run time (on the path of a `pdf` answered by cardsmith.cli._quick)
if TYPE_CHECKING:
    from typing import IO, Any, Mapping

from cardsmith.base.atomic import atomic_open, spare_path
from cardsmith.base.errors import CardsmithError

GROWTH = 0.5  # appended bytes allowed, as a share of the file's size after its last full write
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_TRAILER = re.compile(rb"trailer\s*<<(.*?)>>\s*startxref\s*(\d+)\s*%%EOF\s*$", re.S)


def image_object(width: int, height: int, colours: int, data: bytes) -> bytes:
    """The dictionary and stream of an image XObject holding a PNG's own Flate data (PNG predictors)."""
    space = "DeviceRGB" if colours == 3 else "DeviceGray"
    head = (f"<<\n/BitsPerComponent 8 /ColorSpace /{space} /DecodeParms <<\n/BitsPerComponent 8 /Colors {colours} "
            f"/Columns {width} /Predictor 15\n>> /Filter /FlateDecode /Height {height} /Length {len(data)} \n"
            f"  /Subtype /Image /Type /XObject /Width {width}\n>>")
    return head.encode("ascii") + b"\nstream\n" + data + b"endstream\n"


def record(objects: Mapping[str, int], shas: Mapping[str, str], size: int) -> dict[str, Any]:
    """What a PDF stamp keeps to update the file later: each image key's object number (0: an image
    the pages do not draw, such as the back of a PDF without backs) and content hash, and the file's
    size after this full write."""
    return {"placed": {k: [int(objects.get(k, 0)), sha] for k, sha in shas.items()}, "base": int(size)}


def changes(entry: Mapping[str, Any], images: Mapping[str, Path | str], shas: Mapping[str, str]) -> dict[int, Path] | None:
    """The objects to replace (number -> new image file) to bring a PDF recorded as `entry` to `shas`;
    None when an incremental update cannot do it."""
    placed = entry.get("placed")
    if not isinstance(placed, dict) or set(placed) != set(shas):
        return None
    updates: dict[int, Path] = {}
    new_sha: dict[int, str] = {}
    users: dict[int, set[str]] = {}
    for key, (number, _) in placed.items():
        users.setdefault(int(number), set()).add(key)
    for key, sha in shas.items():
        number, old = placed[key]
        if sha == old or not number:
            continue
        number = int(number)
        # every placement of the object must change to the same new image, or some would show the wrong one
        if new_sha.setdefault(number, sha) != sha or any(shas[k] == placed[k][1] for k in users[number]):
            return None
        updates[number] = Path(images[key])
    return updates


def append_images(target: Path, updates: Mapping[int, Path | str], base: int,
                  spare_was: tuple[int, int] | None = None, keep_spare: bool = True) -> int | None:
    """Write `updates` into `target` as an incremental update; its new size, or None (nothing written)
    when the file does not end with a trailer we can follow, an image cannot be embedded as it is, or
    the file would grow past `GROWTH` of `base`.

    `spare_was`: the size and time of the file the target was appended to last time (what the last
    update's swap left as the spare, `atomic.spare_path`). While the spare is still that file, it
    holds the target's first bytes already, and only the rest is copied into it. `keep_spare` False:
    a new temporary file, renamed over the target, and no spare left beside it."""
    target = Path(target)
    size = target.stat().st_size
    with open(target, "rb") as f:
        f.seek(max(0, size - 2048))
        tail = f.read()
    last = tail.rfind(b"trailer")
    found = _TRAILER.match(tail, last) if last >= 0 else None
    if found is None:
        return None
    entries = _trailer_entries(found.group(1))
    if entries is None:
        return None
    bodies = {}
    for number, path in sorted(updates.items()):
        png = png_stream(Path(path).read_bytes())
        if png is None:
            return None
        bodies[number] = image_object(*png)
    added = sum(len(b) + 40 for b in bodies.values()) + 200
    if size + added - base > GROWTH * base:
        return None
    try:
        with (spare_path(target) if keep_spare else atomic_open(target, "wb")) as f:
            _copy(target, f, start=_kept_prefix(f, spare_was, size) if keep_spare else 0)
            offset = f.tell()
            xref = ["0 1\n0000000000 65535 f \n"]  # the free-list head first, as full tables have it (some readers expect it)
            for number, body in bodies.items():
                xref.append(f"{number} 1\n{offset:010d} 00000 n \n")
                obj = f"{number} 0 obj\n".encode("ascii") + body + b"endobj\n"
                f.write(obj)
                offset += len(obj)
            trailer = (f"xref\n{''.join(xref)}trailer\n<<\n/ID {entries['ID']}\n/Info {entries['Info']}\n"
                       f"/Prev {int(found.group(2))}\n/Root {entries['Root']}\n/Size {entries['Size']}\n>>\n"
                       f"startxref\n{offset}\n%%EOF\n")
            f.write(trailer.encode("ascii"))
            new_size = f.tell()
    except OSError as e:
        raise CardsmithError(f"cannot write {target}: {e.strerror or e}", hint="check the folder is writable and the disk has room") from e
    return new_size


def _kept_prefix(spare: IO[bytes], was: tuple[int, int] | None, size: int) -> int:
    """How many of the target's first bytes the open spare holds already: all of its own while it is
    the file the target was appended to (its size and time as recorded), else none."""
    if not was:
        return 0
    st = os.fstat(spare.fileno())
    return st.st_size if (st.st_size, st.st_mtime_ns) == tuple(was) and st.st_size <= size else 0


def _copy(source: Path, dst: IO[bytes], start: int = 0) -> None:
    """Write the file `source` into `dst` from byte `start` (which `dst` holds already), leaving `dst`
    positioned at its end (what was there before is overwritten; the caller cuts it to length):
    shutil.copyfile without importing shutil (with bz2, lzma and fnmatch: a twentieth of a quick
    `pdf`); the kernel copies where it can (sendfile), else a plain loop."""
    dst.seek(start)
    with open(source, "rb") as src:
        size, done = os.fstat(src.fileno()).st_size, start
        if hasattr(os, "sendfile"):
            dst.flush()
            try:
                while done < size and (sent := os.sendfile(dst.fileno(), src.fileno(), done, size - done)):
                    done += sent
            except OSError:  # not for these files: copy them the plain way
                done = start
            dst.seek(done)
        src.seek(done)
        while chunk := src.read(1 << 20):
            dst.write(chunk)


def _trailer_entries(body: bytes) -> dict[str, str] | None:
    """/Root, /Info, /ID and /Size of a trailer dictionary (comments aside), or None if one is missing."""
    text = re.sub(rb"%[^\r\n]*", b"", body).decode("latin-1")
    out = {}
    for key, pattern in (("Root", r"/Root\s+(\d+\s+\d+\s+R)"), ("Info", r"/Info\s+(\d+\s+\d+\s+R)"),
                         ("ID", r"/ID\s*(\[\s*<[0-9A-Fa-f]*>\s*<[0-9A-Fa-f]*>\s*\])"), ("Size", r"/Size\s+(\d+)")):
        m = re.search(pattern, text)
        if m is None:
            return None
        out[key] = m.group(1)
    return out


def png_stream(data: bytes) -> tuple[int, int, int, bytes] | None:
    """Width, height, colour count and zlib data of an 8-bit RGB or grey, non-interlaced PNG, else None.

    Such a PNG's compressed data is already a valid PDF Flate stream with PNG predictors, so it
    goes into the PDF as it is: no decoding and recompressing (most of ReportLab's time per card).
    Palette, alpha, 16-bit and interlaced files return None and are decoded the usual way.
    """
    if not data.startswith(PNG_SIGNATURE):
        return None
    pos, header, chunks = 8, None, []
    while pos + 8 <= len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind in (b"tRNS", b"PLTE"):
            return None
        elif kind == b"IEND":
            break
    if header is None or not chunks:
        return None
    width, height, depth, colour, compression, filtering, interlace = header
    if depth != 8 or colour not in (0, 2) or compression or filtering or interlace:
        return None
    return width, height, 3 if colour == 2 else 1, b"".join(chunks)
