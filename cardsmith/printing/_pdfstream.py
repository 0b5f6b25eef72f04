"""Drawing a PDF: `PdfWriter` draws pages, and embeds images, as soon as the images they place are known.

`PdfWriter` draws a page as soon as every image it places is known, and formats each image's PDF
object as soon as the image is drawn, so that when the last card is drawn little is left to do but
save. `cardsmith.printing.pdf.render_and_print` runs it beside `render_set`: the worker processes
draw cards and the parent, otherwise waiting for them, embeds each finished image. A PDF written
after rendering (`pdf.write_pdf`) uses the same writer with every image known from the start:
pages, names and bytes do not depend on the order images arrive.

Each distinct image (by content) is stored once however often it is placed; fonts are embedded
(Bitstream Vera, shipped with ReportLab); the canvas is `invariant` so the same input gives the
same bytes. The file is written beside the target and renamed, so a failure leaves no partial PDF.
"""

from __future__ import annotations

import contextlib
import os
import struct
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from cardsmith.base.atomic import atomic_path
from cardsmith.base.errors import CardsmithError
from cardsmith.printing.imposition import Label, Line, Page
from cardsmith.cache.pdfstamps import ImageDigests, StreamStore

MM = 72 / 25.4  # points per millimetre
FONT_NAME = "CardsmithVera"
LINE_STYLES = {  # kind: (width in pt, grey level, dash pattern)
    "crop": (0.5, 0.0, None),
    "cut": (0.3, 0.55, None),
    "fold": (0.5, 0.35, (3, 2)),
    "guide": (0.35, 0.0, None),
}


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PdfWriter:
    """A PDF being drawn into a temporary file beside `target`: `ready` each image, then `finish` (or `abort`)."""

    def __init__(self, pages: Sequence[Page], images: Mapping[str, Path], target: Path, *, title: str = "",
                 subject: str = "", digests: ImageDigests | None = None, streams: StreamStore | None = None):
        from reportlab.pdfgen.canvas import Canvas

        if not pages:
            raise CardsmithError("nothing to print: no pages", hint="check --type, --only and --deck")
        self.target, self.pages, self.images = Path(target), list(pages), images
        self.font = _font()
        self._stack = contextlib.ExitStack()
        tmp = self._stack.enter_context(atomic_path(self.target))
        self._stack.enter_context(_no_ascii85())
        c = Canvas(str(tmp), pagesize=(pages[0].width * MM, pages[0].height * MM), invariant=1,
                   pageCompression=1, initialFontName=self.font, initialFontSize=6)
        c.setTitle(title)
        c.setSubject(subject)
        c.setCreator("cardsmith")
        c.setProducer("cardsmith (ReportLab)")
        self.canvas = c
        self.registry = _Images(c, digests, streams)
        self.known: set[Path] = set()
        self.needs = [{Path(images[p.key]) for p in page.placements} for page in self.pages]
        self.drawn = 0

    def ready(self, path: Path, sha: str | None = None) -> None:
        """`path` is drawn (with content hash `sha`): draw the pages now complete and embed their images."""
        path = Path(path)
        if sha:
            self.registry.digests.cache[os.path.abspath(path)] = sha
        self.known.add(path)
        self._draw_complete_pages()

    def _draw_complete_pages(self) -> None:
        # Pages are drawn in order, and an image is registered where a page first places it, as
        # `write_pdf` does: the objects then take the same numbers, and the file the same bytes.
        while self.drawn < len(self.pages) and self.needs[self.drawn] <= self.known:
            _draw_page(self.canvas, self.registry, self.pages[self.drawn], self.images, self.font)
            self.canvas.showPage()
            for path in sorted(self.needs[self.drawn]):
                self.registry.prepare(path)
            self.drawn += 1

    def finish(self) -> Path:
        """Draw what is left (reading images not announced by `ready`) and write the file in place."""
        try:
            for page in self.pages[self.drawn:]:
                _draw_page(self.canvas, self.registry, page, self.images, self.font)
                self.canvas.showPage()
        except BaseException:
            self.abort()
            raise
        self.drawn = len(self.pages)
        with self._stack:
            try:
                self.canvas.save()
            except OSError as e:
                raise CardsmithError(f"cannot write {self.target}: {e.strerror}", hint="check the folder is writable") from e
        return self.target

    def abort(self) -> None:
        """Leave no file behind (the temporary one is removed; `target` is untouched)."""
        with contextlib.suppress(_Abort):
            self._stack.__exit__(_Abort, _Abort(), None)


class _Abort(Exception):
    pass


PNG_PASSTHROUGH = True  # False decodes every image the way ReportLab does (benchmarks/pdf.py compares both)


def png_header(path: Path) -> tuple[int, int, int] | None:
    """What `png_stream` would return but the data, reading only the chunks before the image data."""
    try:
        with open(path, "rb") as f:
            head = f.read(8192)
    except OSError:
        return None
    if not head.startswith(PNG_SIGNATURE):
        return None
    pos = 8
    while pos + 8 <= len(head):
        kind = head[pos + 4:pos + 8]
        if kind == b"IDAT":  # the header and any palette come first: end with an empty stream
            png = png_stream(head[:pos] + b"\x00\x00\x00\x00IDAT\x00\x00\x00\x00")
            return None if png is None else png[:3]
        pos += 12 + int.from_bytes(head[pos:pos + 4], "big")
    try:  # long text chunks before the data: read the whole file
        png = png_stream(path.read_bytes())
    except OSError:
        return None
    return None if png is None else png[:3]


def _png_xobject(name: str, path: Path, width: int, height: int, colours: int) -> Any:
    from reportlab.pdfbase import pdfdoc

    class PngXObject(pdfdoc.PDFImageXObject):
        """An image XObject whose data is a PNG's own Flate stream (PNG predictors declared).

        The data is read from the file when the PDF is written, or by `prepare` as soon as the image
        is drawn (`cardsmith pdf` then embeds it while other cards are drawn); the decoded pixels are
        never held.
        """

        def __init__(self) -> None:
            self.name, self.width, self.height = name, width, height
            self.bitsPerComponent, self.mask = 8, None
            self.colorSpace = "DeviceRGB" if colours == 3 else "DeviceGray"
            self._filters = ("FlateDecode",)
            self._formatted: bytes | None = None

        @property
        def streamContent(self) -> bytes:
            png = png_stream(path.read_bytes())
            if png is None or png[:3] != (width, height, colours):
                raise CardsmithError(f"card image {path} changed while the PDF was being written",
                                     hint="run the command again once rendering has finished")
            return png[3]

        def prepare(self, document: Any) -> None:
            """Format the object now (while other cards are still being drawn), for `format` to hand over."""
            if self._formatted is None:
                self._formatted = self._format(document)

        def format(self, document: Any) -> bytes:
            done, self._formatted = self._formatted, None
            return done if done is not None else self._format(document)

        def _format(self, document: Any) -> bytes:
            return image_object(self.width, self.height, colours, self.streamContent)

    return PngXObject()


_STREAM_FIELDS = ("width", "height", "bitsPerComponent", "colorSpace", "_filters", "mask", "_dotrans", "_decode")


def _decoded_xobject(name: str, path: Path, sha: str, streams: StreamStore | None) -> Any:
    """An image the PDF cannot take as it is (JPEG aside), decoded and compressed by ReportLab; the
    result is kept in `streams` by content hash, so an unchanged image is compressed once."""
    from reportlab.pdfbase import pdfdoc

    hit = streams.get(sha) if streams is not None else None
    if hit is not None:
        meta, data = hit
        obj = pdfdoc.PDFImageXObject(name)
        for k in _STREAM_FIELDS:
            if k in meta:
                setattr(obj, k, tuple(meta[k]) if k == "_filters" else meta[k])
        obj.streamContent = data
        return obj
    obj = pdfdoc.PDFImageXObject(name, str(path))
    if streams is not None:
        content = obj.streamContent
        data = content.encode("latin-1") if isinstance(content, str) else bytes(content)
        streams.put(sha, {k: getattr(obj, k) for k in _STREAM_FIELDS if hasattr(obj, k)}, data)
    return obj


class _Images:
    """One PDF image object per distinct image content, registered on first use.

    Named by a digest of the file's bytes, so copies of a card (and identical files) are stored once
    and the output does not depend on where the project lives. Only compressed data is kept, never
    decoded pixels (a reader per card holding 3 MB of pixels would break the memory target). The
    digests come from `digests` (the render manifest's, where the file is as rendering left it), so
    naming an image does not read it; a PNG's data is read only when the PDF is written.
    """

    def __init__(self, canvas: Any, digests: ImageDigests | None = None, streams: StreamStore | None = None):
        self.canvas = canvas
        self.names: dict[Path, str] = {}
        self.objects: dict[str, Any] = {}
        self.digests = digests or ImageDigests()
        self.streams = streams

    def prepare(self, path: Path) -> None:
        """Register the image at `path` and format its PDF object now, if it is one we pass through."""
        obj = self.objects.get(self.name_for(path))
        if obj is not None and hasattr(obj, "prepare"):
            obj.prepare(self.canvas._doc)

    def name_for(self, path: Path) -> str:
        name = self.names.get(path)
        if name is None:
            try:
                sha = self.digests.digest(path)
            except OSError as e:
                raise CardsmithError(f"cannot read card image {path}: {e.strerror}",
                                     hint="render the set again: cardsmith render SET") from e
            name = "Img" + sha[:20]
            self.names[path] = name
            doc = self.canvas._doc
            reg = doc.getXObjectName(name)
            if reg not in doc.idToObject:
                try:
                    png = png_header(path) if PNG_PASSTHROUGH else None
                    obj = _png_xobject(name, path, *png) if png else _decoded_xobject(name, path, sha, self.streams)
                except Exception as e:  # PIL raises many kinds for a damaged file
                    raise CardsmithError(f"cannot use card image {path}: {e}",
                                         hint="render the set again: cardsmith render SET --force") from e
                obj.name = name
                self.objects[name] = obj
                self.canvas._setXObjects(obj)
                doc.Reference(obj, reg)
                doc.addForm(name, obj)
        return name

    def draw(self, path: Path, x: float, y: float, w: float, h: float) -> None:
        """What `canvas.drawImage` does, with our content-based name."""
        c = self.canvas
        name = self.name_for(path)
        c._currentPageHasImages = 1
        c.saveState()
        c.translate(x, y)
        c.scale(w, h)
        c._code.append(f"/{c._doc.getXObjectName(name)} Do")
        c.restoreState()
        c._formsinuse.append(name)


_font_ready = False


def _font() -> str:
    global _font_ready
    if not _font_ready:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont

        pdfmetrics.registerFont(TTFont(FONT_NAME, "Vera.ttf"))  # ships with ReportLab; embedded as a subset
        _font_ready = True
    return FONT_NAME


@contextlib.contextmanager
def _no_ascii85() -> Iterator[None]:
    """Binary streams: ASCII85 costs a third of the embedding time in pure Python and 25% more bytes."""
    from reportlab import rl_config

    old = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = old


def _draw_page(c: Any, reg: _Images, page: Page, images: Mapping[str, Path], font: str) -> None:
    c.setPageSize((page.width * MM, page.height * MM))
    if page.trim_box is not None:
        t = page.trim_box
        c.setTrimBox((t.x * MM, t.y * MM, t.right * MM, t.top * MM))
    if page.bleed_box is not None:
        b = page.bleed_box
        c.setBleedBox((b.x * MM, b.y * MM, b.right * MM, b.top * MM))
    for p in page.placements:
        path = images[p.key]
        r = p.image_rect
        c.saveState()
        clip = c.beginPath()
        clip.rect(p.clip.x * MM, p.clip.y * MM, p.clip.w * MM, p.clip.h * MM)
        c.clipPath(clip, stroke=0, fill=0)
        if p.rotation:
            cx, cy = (p.trim.x + p.trim.w / 2) * MM, (p.trim.y + p.trim.h / 2) * MM
            c.translate(cx, cy)
            c.rotate(p.rotation)
            c.translate(-cx, -cy)
        reg.draw(path, r.x * MM, r.y * MM, r.w * MM, r.h * MM)
        c.restoreState()
    for line in page.lines:
        _draw_line(c, line)
    for label in page.labels:
        _draw_label(c, label, font)


def _draw_line(c: Any, line: Line) -> None:
    width, grey, dash = LINE_STYLES.get(line.kind, LINE_STYLES["crop"])
    c.saveState()
    c.setLineWidth(width)
    c.setStrokeGray(grey)
    if dash:
        c.setDash(*dash)
    c.line(line.x1 * MM, line.y1 * MM, line.x2 * MM, line.y2 * MM)
    c.restoreState()


def _draw_label(c: Any, label: Label, font: str) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    size = label.size
    if label.max_width:
        width = stringWidth(label.text, font, size)
        if width > label.max_width * MM:
            size = max(3.0, size * label.max_width * MM / width)
    c.saveState()
    c.setFont(font, size)
    c.setFillGray(0.25)
    c.translate(label.x * MM, label.y * MM)
    if label.angle:
        c.rotate(label.angle)
    {"left": c.drawString, "right": c.drawRightString}.get(label.anchor, c.drawCentredString)(0, 0, label.text)
    c.restoreState()


# ---------------------------------------------------------------------------- PNG data as PDF streams

def image_object(width: int, height: int, colours: int, data: bytes) -> bytes:
    """The dictionary and stream of an image XObject holding a PNG's own Flate data (PNG predictors)."""
    space = "DeviceRGB" if colours == 3 else "DeviceGray"
    head = (f"<<\n/BitsPerComponent 8 /ColorSpace /{space} /DecodeParms <<\n/BitsPerComponent 8 /Colors {colours} "
            f"/Columns {width} /Predictor 15\n>> /Filter /FlateDecode /Height {height} /Length {len(data)} \n"
            f"  /Subtype /Image /Type /XObject /Width {width}\n>>")
    return head.encode("ascii") + b"\nstream\n" + data + b"endstream\n"


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
