"""Print-and-play PDFs: rendered card images imposed by `cardsmith.printing.imposition`, drawn with ReportLab.

Each distinct image (by content) is stored once however often it is placed; fonts are embedded
(Bitstream Vera, shipped with ReportLab); the canvas is `invariant` so the same input gives the
same bytes. Files are written beside the target and renamed, so a failure leaves no partial PDF.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from cardsmith.base.atomic import atomic_path
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.sets.model import CardSet, Deck
from cardsmith.printing._calibration import calibration_pages
from cardsmith.printing.pdfappend import PNG_SIGNATURE, png_stream
from cardsmith.printing.pdfcache import ImageDigests, PdfStamp, StreamStore
from cardsmith.printing.imposition import (Label, Line, Page, SheetSpec, impose, parse_paper, sheet_notes,
                              with_footer)

MM = 72 / 25.4  # points per millimetre
FONT_NAME = "CardsmithVera"
LINE_STYLES = {  # kind: (width in pt, grey level, dash pattern)
    "crop": (0.5, 0.0, None),
    "cut": (0.3, 0.55, None),
    "fold": (0.5, 0.35, (3, 2)),
    "guide": (0.35, 0.0, None),
}


@dataclass(frozen=True)
class PrintItem:
    """One printed card: its id, and the image files of its front and back (None: no back)."""

    card_id: str
    front: Path
    back: Path | None


@dataclass
class PdfOptions:
    """What `cardsmith pdf` prints and how; sizes in mm."""

    layout: str = "grid"
    paper: str = "a4"
    orientation: str = "auto"
    backs: str = "none"
    back_offset: tuple[float, float] = (0.0, 0.0)
    gutter: float = 0.0
    margin: float = 5.0
    crop_marks: bool = True
    cut_lines: bool = False
    footer: bool = True
    types: tuple[str, ...] = ()
    only: tuple[str, ...] = ()
    deck: Path | None = None
    name: str | None = None  # file name under output/<set>/ (without .pdf)

    def default_name(self) -> str:
        parts = [self.deck.stem] if self.deck else []
        parts += [self.layout, Path(self.paper).name.lower().replace(".", "_")]
        if self.layout != "gutterfold" and self.backs != "none":
            parts.append(f"duplex-{self.backs}")
        return "-".join(parts)


# ---------------------------------------------------------------------------- rendered images

def load_images(out_dir: Path) -> dict[str, Any]:
    """The render manifest of `output/<set>/` (see the rendering contract), checked for what we need."""
    from cardsmith.cache.freshness import load_manifest

    manifest = load_manifest(out_dir)
    for key in ("trim_mm", "bleed_mm", "cards"):
        if key not in manifest:
            raise CardsmithError(f"{out_dir / 'cards' / 'manifest.json'} has no '{key}'",
                                 hint="render the set again: cardsmith render SET --force")
    return manifest


def ensure_rendered(project: Any, cardset: CardSet, dpi: int = 300, jobs: int | None = None,
                    inputs: Any = None) -> dict[str, Any]:
    """Render what is missing or out of date (render's cache makes this cheap), then read the manifest.

    A set whose last render is current (see `freshness.last_render`) is not hashed again. With
    `inputs` (a `freshness.Snapshot` taken before the set was read), this render is recorded so.
    """
    from cardsmith.cache import freshness
    from cardsmith.render.batch import render_set

    out_dir = project.set_output(cardset.id)
    if render_is_current(project, cardset, dpi):
        return load_images(out_dir)
    result = render_set(project, cardset, dpi=dpi, jobs=jobs)
    if result.errors:
        raise rendering_failed(project, result)
    if inputs is not None:
        freshness.record_render(project, inputs, cardset, result, dpi=dpi, fmt="png", guides=False, strict=False,
                                layout_dirs=result.layout_dirs)
    return load_images(out_dir)


def render_is_current(project: Any, cardset: CardSet, dpi: int = 300) -> bool:
    """Whether the set's images at `dpi` are as its last error-free render left them, from unchanged inputs."""
    from cardsmith.cache import freshness

    last = freshness.last_render(project, cardset.path, dpi)
    return last is not None and not any(d["severity"] == "error" for d in last["diagnostics"]) and \
        Path(last["out_dir"]) == project.set_output(cardset.id)


def rendering_failed(project: Any, result: Any) -> CardsmithError:
    """The error for a PDF that cannot be made because faces failed to render."""
    shown = "\n".join(d.format(project.root) for d in result.errors[:10])
    more = f"\n... and {len(result.errors) - 10} more" if len(result.errors) > 10 else ""
    return CardsmithError(f"{len(result.errors)} card face(s) could not be rendered, so nothing was printed:\n{shown}{more}",
                          hint="fix these, or run `cardsmith render SET` to see every problem")


def select_items(cardset: CardSet | None, manifest: Mapping[str, Any], out_dir: Path, *,
                 types: Sequence[str] = (), only: Sequence[str] = (), deck: Deck | None = None,
                 copies: bool = True) -> list[PrintItem]:
    """The cards to print, in set order (or deck order), each repeated as often as it is printed.

    A whole set repeats each card `copies` times; `deck` repeats each card as the deck holds it.
    """
    cards: Mapping[str, Any] = manifest["cards"]
    backs: Mapping[str, Any] = manifest.get("backs", {})
    order = [c.id for c in cardset.cards] if cardset is not None else list(cards)
    set_copies = {c.id: c.copies for c in cardset.cards} if cardset is not None else {}
    type_of = {c.id: c.type for c in cardset.cards} if cardset is not None else {
        cid: info.get("type") for cid, info in cards.items()}

    known_types = sorted({t for t in type_of.values() if t})
    for t in types:
        if t not in known_types:
            raise UsageError(f"no card type '{t}' in this set", hint=f"types here: {', '.join(known_types)}")
    for cid in only:
        if cid not in cards:
            raise UsageError(f"no card '{cid}' in this set", hint=_suggest(cid, cards))

    wanted: list[tuple[str, int]] = []
    if deck is not None:
        unknown = [cid for zone in deck.zones.values() for cid in zone if cid not in cards]
        if unknown:
            where = f"{deck.source}: " if deck.source else ""
            raise CardsmithError(f"{where}deck '{deck.name}' names cards this set has no image for: "
                                 f"{', '.join(unknown)}", hint=_suggest(unknown[0], cards))
        for zone in deck.zones.values():
            wanted += [(cid, n) for cid, n in zone.items()]
    else:
        wanted = [(cid, set_copies.get(cid, 1) if copies else 1) for cid in order]
    if types:
        wanted = [(cid, n) for cid, n in wanted if type_of.get(cid) in types]
    if only:
        wanted = [(cid, n) for cid, n in wanted if cid in only]

    from cardsmith.base.limits import check_total

    check_total(sum(n for _, n in wanted), "printing every copy", "print a deck (--deck), some types (--type) or "
                "cards (--only), or lower `copies:` in the card files")
    items = []
    for cid, n in wanted:
        info = cards.get(cid)
        if info is None:
            raise CardsmithError(f"card '{cid}' has no rendered image in {out_dir / 'cards' / 'manifest.json'}",
                                 hint="render the set again: cardsmith render SET")
        back = None
        if info.get("back"):
            if info["back"] not in backs:
                raise CardsmithError(f"card '{cid}' uses back '{info['back']}', which was not rendered",
                                     hint="render the set again: cardsmith render SET --force")
            back = out_dir / backs[info["back"]]["file"]
        items += [PrintItem(cid, out_dir / info["file"], back)] * n
    if not items and not order:
        raise UsageError(f"nothing to print: {f'set {cardset.id}' if cardset is not None else 'the set'} has no cards",
                         hint="add cards to a card file (`cards:` in a .yaml file beside set.yaml)")
    if not items:
        raise UsageError("nothing to print: the selection holds no cards",
                         hint="check --type, --only and --deck")
    return items


def _suggest(name: str, known: Mapping[str, Any]) -> str:
    from cardsmith.base.diagnostics import did_you_mean

    return did_you_mean(name, known, n=3) or "the card ids are in output/<set>/cards/manifest.json and `cardsmith export SET --csv`"


# ---------------------------------------------------------------------------- writing

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
            from cardsmith.printing.pdfappend import image_object

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


def write_pdf(pages: Sequence[Page], images: Mapping[str, Path], target: Path, *,
              title: str = "", subject: str = "", digests: ImageDigests | None = None,
              streams: StreamStore | None = None) -> Path:
    """Draw `pages` (image keys resolved through `images`) into `target`, atomically."""
    from cardsmith.printing._pdfstream import PdfWriter

    return PdfWriter(pages, images, Path(target), title=title, subject=subject, digests=digests, streams=streams).finish()


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


# ---------------------------------------------------------------------------- whole jobs

def sheet_spec(manifest: Mapping[str, Any], options: PdfOptions) -> SheetSpec:
    trim = manifest["trim_mm"]
    return SheetSpec(
        card=(float(trim[0]), float(trim[1])), bleed=float(manifest["bleed_mm"]), layout=options.layout,
        paper=parse_paper(options.paper), orientation=options.orientation, gutter=options.gutter,
        margin=options.margin, crop_marks=options.crop_marks, cut_lines=options.cut_lines,
        backs=options.backs, back_offset=options.back_offset,
    )


def notes_for(project: Any, cardset: CardSet, options: PdfOptions) -> tuple[str, ...]:
    """What to tell the person printing a PDF made with `options` (after `make_pdf` rendered the set)."""
    return sheet_notes(sheet_spec(load_images(project.set_output(cardset.id)), options))


def plan(items: Sequence[PrintItem], spec: SheetSpec) -> tuple[list[Page], dict[str, Path]]:
    """Pages for the items, and the image file behind each key the pages use."""
    images: dict[str, Path] = {}
    pairs = []
    for it in items:
        fk = str(it.front)
        images[fk] = it.front
        bk = None
        if it.back is not None:
            bk = str(it.back)
            images[bk] = it.back
        pairs.append((fk, bk))
    return impose(spec, pairs), images


def print_pdf(items: Sequence[PrintItem], manifest: Mapping[str, Any], options: PdfOptions, target: Path, *,
              title: str = "", footer: str = "", out_dir: Path | None = None, reuse: bool = False) -> Path:
    """Impose `items` with `options` and write the PDF to `target`.

    With `out_dir` (the folder the manifest's paths are relative to), image hashes come from the
    manifest and decoded streams are cached there. With `reuse`, a PDF whose inputs are those it was
    last written from is left as it is (see `pdf_is_current`).
    """
    return _print_pdf(items, manifest, options, Path(target), title, footer, out_dir, reuse)[0]


def _print_pdf(items: Sequence[PrintItem], manifest: Mapping[str, Any], options: PdfOptions, target: Path,
               title: str, footer: str, out_dir: Path | None, reuse: bool, writer: Any = None) -> tuple[Path, bool]:
    """Write the PDF (with `writer`, a `pdfstream.PdfWriter` that already drew it, if given) unless its stamp
    shows the file is current."""
    pages, images = _pages(items, manifest, options, footer)
    digests = ImageDigests(manifest, out_dir)
    try:
        shas = {k: digests.digest(p) for k, p in images.items()}
    except OSError:
        shas = None  # a missing image: the writer says which
    subject = f"{len(items)} cards"
    layout = PdfStamp.key({"pages": repr(pages), "title": title, "subject": subject})
    key = PdfStamp.key({"layout": layout, "images": shas})
    stamp = PdfStamp(out_dir) if reuse and out_dir is not None and shas is not None else None
    if stamp is not None and stamp.current(target, key):
        if writer is not None:
            writer.abort()
        return target, False
    if stamp is not None and shas is not None and writer is None and stamp.update(target, layout, key, images, shas):
        return target, True  # only images changed: appended to the file as it was
    if writer is None:
        from cardsmith.printing._pdfstream import PdfWriter

        writer = PdfWriter(pages, images, target, title=title, subject=subject, digests=digests,
                           streams=StreamStore(out_dir) if out_dir is not None else None)
    writer.finish()
    if stamp is not None:
        stamp.record(target, key, layout, writer.object_numbers(), shas)
    return target, True


def _pages(items: Sequence[PrintItem], manifest: Mapping[str, Any], options: PdfOptions,
           footer: str) -> tuple[list[Page], dict[str, Path]]:
    spec = sheet_spec(manifest, options)
    if options.backs != "none" and options.layout != "gutterfold" and not any(it.back for it in items):
        raise UsageError("none of these cards has a back to print",
                         hint="give the set or its types a back in set.yaml, or print with --backs none")
    pages, images = plan(items, spec)
    if options.footer and footer:
        pages = with_footer(pages, footer, options.margin)
    return pages, images


def pdf_target(name: str, out_dir: Path) -> Path:
    """Where `--name` puts a PDF: a bare name (with or without .pdf) in `out_dir`, a path with a folder as given."""
    given = Path(name)
    if given.parent == Path(".") and not given.is_absolute():
        return out_dir / (given.name if given.suffix.lower() == ".pdf" else f"{given.name}.pdf")
    return given if given.suffix.lower() == ".pdf" else given.with_name(f"{given.name}.pdf")


def make_pdf(project: Any, cardset: CardSet, options: PdfOptions, deck: Deck | None = None,
             jobs: int | None = None) -> Path:
    """`cardsmith pdf`: render what is needed, select, impose and write `output/<set>/<name>.pdf`."""
    return build_pdf(project, cardset, options, deck, jobs)[0]


def build_pdf(project: Any, cardset: CardSet, options: PdfOptions, deck: Deck | None = None,
              jobs: int | None = None, inputs: Any = None) -> tuple[Path, bool]:
    """`make_pdf`, and whether the PDF was written (False: its inputs had not changed). `inputs`: see
    `ensure_rendered`.

    When cards must be drawn, the PDF is drawn in the same pass: each image is embedded as soon as
    a worker finishes it (see `pdfstream`)."""
    out_dir = project.set_output(cardset.id)
    target = pdf_target(options.name or options.default_name(), out_dir)
    title = f"{cardset.name} {cardset.version}"
    footer = title + (f" - {deck.name}" if deck is not None else "")

    def select(manifest: Mapping[str, Any]) -> list[PrintItem]:
        return select_items(cardset, manifest, out_dir, types=options.types, only=options.only, deck=deck)

    def plan_for(manifest: Mapping[str, Any]) -> tuple[list[Page], dict[str, Path], dict[str, Any]]:
        items = select(manifest)
        pages, images = _pages(items, manifest, options, footer)
        return pages, images, {"target": target, "title": title, "subject": f"{len(items)} cards",
                               "streams": StreamStore(out_dir)}

    writer = None
    manifest: Mapping[str, Any]
    if render_is_current(project, cardset):
        manifest = load_images(out_dir)
    elif PdfStamp(out_dir).updatable(target):
        # a PDF that changed images may be brought up to date by appending them: render first, then see
        manifest = ensure_rendered(project, cardset, jobs=jobs, inputs=inputs)
    else:
        from cardsmith.printing._pdfstream import render_and_print

        manifest, writer = render_and_print(project, cardset, plan_for, jobs, inputs)
    try:
        return _print_pdf(select(manifest), manifest, options, target, title, footer, out_dir, True, writer)
    except BaseException:
        if writer is not None:
            writer.abort()
        raise


def write_calibration(target: Path, paper: str = "a4", flip: str = "long",
                      back_offset: tuple[float, float] = (0.0, 0.0), orientation: str = "portrait") -> Path:
    """A two-page duplex test sheet (see `sheets.calibration_pages`); `auto` orientation is portrait."""
    pages = calibration_pages(parse_paper(paper), flip, back_offset, orientation)
    return write_pdf(pages, {}, target, title="cardsmith duplex calibration")


def build_stage(ctx: Any) -> None:
    """`cardsmith build`: grid sheets on A4 and on Letter, duplex backs flipped on the long edge."""
    manifest = ensure_rendered(ctx.project, ctx.cardset)
    items = select_items(ctx.cardset, manifest, ctx.out)
    backs = "long" if any(it.back for it in items) else "none"
    for paper in ("a4", "letter"):
        options = PdfOptions(paper=paper, backs=backs)
        ctx.progress(f"pdf: {paper}")
        target = ctx.out / f"{options.default_name()}.pdf"
        print_pdf(items, manifest, options, target, title=f"{ctx.cardset.name} {ctx.cardset.version}",
                  footer=f"{ctx.cardset.name} {ctx.cardset.version}", out_dir=ctx.out, reuse=True)
        ctx.wrote(f"print-and-play PDF ({paper}, {'duplex backs' if backs != 'none' else 'no backs'})", target)
