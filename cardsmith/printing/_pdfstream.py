"""One pass from card data to PDF: pages are drawn, and images embedded, as rendering finishes them.

`PdfWriter` draws a page as soon as every image it places is known, and formats each image's PDF
object as soon as the image is drawn, so that when the last card is drawn little is left to do but
save. `render_and_print` runs it beside `render_set`: the worker processes draw cards and the
parent, otherwise waiting for them, embeds each finished image (`render_set(on_face=...)`). The
set is loaded and hashed once, by the one command.

The PDF is the same file as one written after rendering (`write_pdf` uses the same writer with
every image known from the start): pages, names and bytes do not depend on the order images arrive.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardsmith.base.atomic import atomic_path
from cardsmith.base.errors import CardsmithError
from cardsmith.printing.pdf import MM, _draw_page, _font, _Images, _no_ascii85
from cardsmith.printing.pdfcache import ImageDigests, StreamStore
from cardsmith.printing.imposition import Page


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

    def object_numbers(self) -> dict[str, int]:
        """After `finish`: the PDF object number of each image key's image (for incremental updates)."""
        doc = self.canvas._doc
        numbers = {}
        for key, path in self.images.items():
            name = self.registry.names.get(Path(path))
            found = doc.idToObjectNumberAndVersion.get(doc.getXObjectName(name)) if name else None
            if found is not None:
                numbers[key] = found[0]
        return numbers

    def abort(self) -> None:
        """Leave no file behind (the temporary one is removed; `target` is untouched)."""
        with contextlib.suppress(_Abort):
            self._stack.__exit__(_Abort, _Abort(), None)


class _Abort(Exception):
    pass


def render_and_print(project: Any, cardset: Any, plan_pdf: Callable[[Mapping[str, Any]], tuple[Sequence[Page], Mapping[str, Path], dict[str, Any]]],
                     jobs: int | None, inputs: Any) -> tuple[Mapping[str, Any], PdfWriter | None]:
    """Render the set while a `PdfWriter` embeds what is drawn; (the manifest, the writer to finish).

    `plan_pdf(manifest)` gives the pages, their images and the writer's keyword arguments for a
    manifest; it is called first with the manifest rendering will write when every face is drawn,
    then again with the one it wrote, and the writer is returned only if both plans agree (else None:
    the caller writes the PDF the usual way).
    """
    from cardsmith.cache import freshness
    from cardsmith.printing.pdf import load_images
    from cardsmith.render.batch import render_set

    out_dir = project.set_output(cardset.id)
    pages, images, kwargs = plan_pdf(planned_manifest(cardset))  # raises now for a selection that prints nothing
    writer: PdfWriter | None = None
    known: list[tuple[Path, str | None]] = []

    def on_face(face: Any, outcome: Any, drawn: bool) -> None:
        # the writer starts with the first card drawn: a set with nothing to draw may have a current PDF
        nonlocal writer
        if outcome.error:
            return
        known.append((face.path, outcome.digest))
        if drawn and writer is None:
            writer = PdfWriter(pages, images, kwargs["target"], **{k: v for k, v in kwargs.items() if k != "target"})
            for path, sha in known:
                writer.ready(path, sha)
        elif writer is not None:
            writer.ready(face.path, outcome.digest)

    try:
        result = render_set(project, cardset, jobs=jobs, on_face=on_face)
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    if result.errors:
        if writer is not None:
            writer.abort()
        from cardsmith.printing.pdf import rendering_failed

        raise rendering_failed(project, result)
    if inputs is not None:
        freshness.record_render(project, inputs, cardset, result, dpi=300, fmt="png", guides=False, strict=False,
                                layout_dirs=result.layout_dirs)
    manifest = load_images(out_dir)
    if writer is None:
        return manifest, None
    again, images_again, _ = plan_pdf(manifest)
    if repr(list(again)) != repr(list(pages)) or dict(images_again) != dict(images):
        writer.abort()  # rendering left other images than planned: write the PDF from what it left
        return manifest, None
    return manifest, writer


def planned_manifest(cardset: Any) -> dict[str, Any]:
    """The manifest `render_set` writes for `cardset` at 300 dpi PNG when every face is drawn."""
    from cardsmith.render.batch import back_specs, card_back

    cards, backs = {}, {}
    specs = back_specs(cardset)
    for c in cardset.cards:
        b = card_back(cardset, c)
        cards[c.id] = {"file": f"cards/{c.id}.png", "back": b, "name": c.name, "type": c.type, "copies": c.copies}
        if b and b in specs:
            backs[b] = {"file": f"backs/{b}.png"}
    w, h = cardset.card_size
    return {"set": cardset.id, "dpi": 300, "format": "png", "trim_mm": [w, h], "bleed_mm": cardset.bleed,
            "safe_mm": cardset.safe, "cards": cards, "backs": backs}
