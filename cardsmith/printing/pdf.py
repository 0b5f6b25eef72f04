"""Print-and-play PDFs: rendered card images imposed by `cardsmith.printing.imposition`, drawn by
`cardsmith.printing._pdfstream` (with ReportLab).

When cards must be drawn first, the PDF is drawn in the same pass (`render_and_print`). When any
card changed, the PDF is written again whole: beside the target, then renamed over it, so a failure
leaves no partial PDF. A PDF whose inputs have the same content hashes as when it was written is
left as it is (`cache.pdfstamps.PdfStamp`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.printing._calibration import calibration_pages
from cardsmith.printing._pdfstream import PdfWriter
from cardsmith.printing.imposition import Page, SheetSpec, impose, sheet_notes, with_footer
from cardsmith.printing.paper import DEFAULT_GUTTER, parse_paper
from cardsmith.cache.pdfstamps import ImageDigests, PdfStamp, StreamStore
from cardsmith.sets.model import CardSet, Deck


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
    gutter: float = DEFAULT_GUTTER
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
        if self.orientation in ("portrait", "landscape"):  # else a landscape sheet overwrites the portrait one
            parts.append(self.orientation)
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
def write_pdf(pages: Sequence[Page], images: Mapping[str, Path], target: Path, *,
              title: str = "", subject: str = "", digests: ImageDigests | None = None,
              streams: StreamStore | None = None) -> Path:
    """Draw `pages` (image keys resolved through `images`) into `target`, atomically."""
    return PdfWriter(pages, images, Path(target), title=title, subject=subject, digests=digests, streams=streams).finish()


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
    """What to tell the person printing a PDF made with `options` (after `build_pdf` rendered the set)."""
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
    """Write the PDF whole (with `writer`, a `PdfWriter` that already drew it, if given) unless its stamp
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
    if writer is None:
        writer = PdfWriter(pages, images, target, title=title, subject=subject, digests=digests,
                           streams=StreamStore(out_dir) if out_dir is not None else None)
    writer.finish()
    if stamp is not None:
        stamp.record(target, key)
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


def build_pdf(project: Any, cardset: CardSet, options: PdfOptions, deck: Deck | None = None,
              jobs: int | None = None, inputs: Any = None) -> tuple[Path, bool]:
    """`cardsmith pdf`: render what is needed, select, impose and write `output/<set>/<name>.pdf`; the
    path, and whether the PDF was written (False: its inputs had not changed). `inputs`: see
    `ensure_rendered`.

    When cards must be drawn, the PDF is drawn in the same pass: each image is embedded as soon as
    a worker finishes it (`render_and_print`)."""
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
    else:
        manifest, writer = render_and_print(project, cardset, plan_for, jobs, inputs)
    try:
        return _print_pdf(select(manifest), manifest, options, target, title, footer, out_dir, True, writer)
    except BaseException:
        if writer is not None:
            writer.abort()
        raise


def render_and_print(project: Any, cardset: Any, plan_pdf: Callable[[Mapping[str, Any]], tuple[Sequence[Page], Mapping[str, Path], dict[str, Any]]],
                     jobs: int | None, inputs: Any) -> tuple[Mapping[str, Any], PdfWriter | None]:
    """Render the set while a `PdfWriter` embeds what is drawn; (the manifest, the writer to finish).

    `plan_pdf(manifest)` gives the pages, their images and the writer's keyword arguments for a
    manifest; it is called first with the manifest rendering will write when every face is drawn,
    then again with the one it wrote, and the writer is returned only if both plans agree (else None:
    the caller writes the PDF the usual way).
    """
    from cardsmith.cache import freshness
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
    from cardsmith.layout.faces import back_specs, card_back

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
