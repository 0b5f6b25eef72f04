"""Print-and-play PDFs of boards and tokens from rendered component images (see `components.sheets`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from cardsmith.components.drawing import components_dir, components_of, load_components_manifest, render_components
from cardsmith.components._shared_sheets import Piece, fits_one_page, shared_pages
from cardsmith.components._token_sheets import TokenSheetSpec, board_page, tiled_board, token_pages
from cardsmith.base.diagnostics import did_you_mean
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.sets.model import CardSet
from cardsmith.printing.imposition import Page, with_footer
from cardsmith.printing.paper import parse_paper

BOARD_MODES = ("tiled", "poster")


@dataclass
class ComponentPrintOptions:
    """What `cardsmith components pdf` prints; sizes in mm."""

    paper: str = "a4"
    orientation: str = "auto"
    overlap: float = 10.0
    backs: str = "none"  # token backs: none, long, short
    back_offset: tuple[float, float] = (0.0, 0.0)
    boards: tuple[str, ...] = ()  # only these boards (default: all)
    tokens: tuple[str, ...] = ()  # only these token kinds (default: all)
    guide: bool = True  # an assembly guide page before a tiled board
    dpi: int = 300  # of the images drawn for the PDF


def ensure_components(project: Any, cardset: CardSet, dpi: int = 300) -> dict[str, Any]:
    """Render what changed, then read the components manifest; refuse when a component failed."""
    if not components_of(cardset):
        raise UsageError(f"set '{cardset.id}' declares no boards or tokens",
                         hint="declare them under `boards:` and `tokens:` in set.yaml (see docs/components.md)")
    result = render_components(project, cardset, dpi=dpi)
    if result.errors:
        shown = "\n".join(d.format(project.root) for d in result.errors[:10])
        raise CardsmithError(f"{len(result.errors)} component image(s) could not be drawn, so nothing was printed:\n{shown}",
                             hint="fix these, or run `cardsmith components render SET` to see every problem")
    return load_components_manifest(components_dir(project, cardset))


def _pick(wanted: Sequence[str], known: Mapping[str, Any], what: str) -> list[str]:
    for name in wanted:
        if name not in known:
            raise UsageError(f"no {what} '{name}' in this set", hint=did_you_mean(name, known) or f"{what}s: {', '.join(known) or 'none'}")
    return list(wanted) if wanted else list(known)


def board_pages(manifest: Mapping[str, Any], out: Path, board_id: str, mode: str, options: ComponentPrintOptions
                ) -> tuple[list[Page], dict[str, Path]]:
    """The pages of one board, tiled on the paper or as one large page, and the image behind its key."""
    info = manifest["boards"][board_id]
    key = f"board:{board_id}"
    size = (float(info["trim_mm"][0]), float(info["trim_mm"][1]))
    bleed = float(manifest["bleed_mm"])
    if mode == "poster":
        pages = board_page(key, size, bleed)
    else:
        pages = tiled_board(key, info["name"], size, bleed, parse_paper(options.paper), options.overlap,
                            options.orientation, options.guide)
    return pages, {key: out / info["file"]}


def _token_items(info: Mapping[str, Any], out: Path, backs: str) -> tuple[list[tuple[str, str | None]], dict[str, Path]]:
    """(front key, back key or None) for every copy of every face of a token kind, and their images."""
    images: dict[str, Path] = {}
    items: list[tuple[str, str | None]] = []
    for face in info["faces"]:
        fk = f"front:{face['id']}"
        images[fk] = out / face["front"]
        bk = None
        if face.get("back") and backs != "none":
            bk = f"back:{face['back']}"
            images[bk] = out / face["back"]
        items += [(fk, bk)] * int(face["copies"])
    return items, images


def token_sheet_pages(manifest: Mapping[str, Any], out: Path, kind_id: str, options: ComponentPrintOptions
                      ) -> tuple[list[Page], dict[str, Path]]:
    """Every copy of every face of one token kind, on sheets, with duplex backs when asked."""
    info = manifest["tokens"][kind_id]
    items, images = _token_items(info, out, options.backs)
    spec = TokenSheetSpec(size=(float(info["trim_mm"][0]), float(info["trim_mm"][1])), shape=info["shape"],
                          bleed=float(manifest["bleed_mm"]), paper=parse_paper(options.paper),
                          orientation=options.orientation, hex_orientation=info.get("orientation", "pointy"),
                          backs=options.backs if any(b for _, b in items) else "none", back_offset=options.back_offset)
    try:
        return token_pages(spec, items), images
    except CardsmithError as e:
        raise CardsmithError(f"token '{kind_id}': {e.message}", hint=e.hint) from None


def write_board_pdf(project: Any, cardset: CardSet, board_id: str, mode: str, options: ComponentPrintOptions,
                    target: Path | None = None) -> Path:
    from cardsmith.printing.pdf import write_pdf

    manifest = ensure_components(project, cardset, options.dpi)
    out = components_dir(project, cardset)
    board_id = _pick([board_id], manifest["boards"], "board")[0]
    pages, images = board_pages(manifest, out, board_id, mode, options)
    suffix = "poster" if mode == "poster" else f"tiled-{Path(options.paper).name.lower()}"
    target = target or project.set_output(cardset.id) / f"board-{board_id}-{suffix}.pdf"
    return write_pdf(pages, images, target, title=f"{cardset.name} - {manifest['boards'][board_id]['name']}")


def write_tokens_pdf(project: Any, cardset: CardSet, options: ComponentPrintOptions, target: Path | None = None) -> Path:
    """Every token kind (or `options.tokens`) on sheets, one kind after another, with a footer."""
    from cardsmith.printing.pdf import write_pdf

    manifest = ensure_components(project, cardset, options.dpi)
    out = components_dir(project, cardset)
    kinds = _pick(options.tokens, manifest["tokens"], "token kind")
    if not kinds:
        raise UsageError(f"set '{cardset.id}' declares no tokens", hint="declare them under `tokens:` in set.yaml")
    pages: list[Page] = []
    images: dict[str, Path] = {}
    for kind in kinds:
        kp, ki = token_sheet_pages(manifest, out, kind, options)
        pages += with_footer(kp, f"{cardset.name} {cardset.version} - {manifest['tokens'][kind]['name']}")
        images.update(ki)
    name = f"tokens-{Path(options.paper).name.lower()}" + (f"-duplex-{options.backs}" if options.backs != "none" else "")
    target = target or project.set_output(cardset.id) / f"{name}.pdf"
    return write_pdf(pages, images, target, title=f"{cardset.name} - tokens")


def small_boards(manifest: Mapping[str, Any], board_ids: Sequence[str], paper: str) -> list[str]:
    """The boards among `board_ids` that fit whole on one page with their bleed: they share sheets with tokens."""
    bleed = float(manifest["bleed_mm"])
    sizes = {b: (float(manifest["boards"][b]["trim_mm"][0]), float(manifest["boards"][b]["trim_mm"][1])) for b in board_ids}
    return [b for b in board_ids if fits_one_page(sizes[b], bleed, parse_paper(paper))]


def shared_sheet_pages(manifest: Mapping[str, Any], out: Path, board_ids: Sequence[str], kinds: Sequence[str],
                       options: ComponentPrintOptions) -> tuple[list[Page], dict[str, Path]]:
    """Boards that fit on a page and every copy of the token kinds, packed onto shared sheets, largest first."""
    pieces: list[Piece] = []
    images: dict[str, Path] = {}
    for bid in board_ids:
        info = manifest["boards"][bid]
        pieces.append(Piece(f"board:{bid}", None, (float(info["trim_mm"][0]), float(info["trim_mm"][1]))))
        images[f"board:{bid}"] = out / info["file"]
    for kind in kinds:
        info = manifest["tokens"][kind]
        items, found = _token_items(info, out, options.backs)
        images.update(found)
        size = (float(info["trim_mm"][0]), float(info["trim_mm"][1]))
        pieces += [Piece(f, b, size, info["shape"], info.get("orientation", "pointy")) for f, b in items]
    pieces.sort(key=lambda p: -p.size[1])  # tallest first: shelves waste least (a stable sort keeps each kind together)
    backs = options.backs if any(p.back for p in pieces) else "none"
    pages = shared_pages(pieces, float(manifest["bleed_mm"]), parse_paper(options.paper), options.orientation,
                         backs, options.back_offset)
    return pages, images


def write_shared_pdf(project: Any, cardset: CardSet, board_ids: Sequence[str], options: ComponentPrintOptions,
                     target: Path | None = None) -> Path:
    """The boards that fit on a page and the token kinds (`options.tokens`, default all) on shared sheets."""
    from cardsmith.printing.pdf import write_pdf

    manifest = ensure_components(project, cardset, options.dpi)
    out = components_dir(project, cardset)
    kinds = _pick(options.tokens, manifest["tokens"], "token kind")
    pages, images = shared_sheet_pages(manifest, out, board_ids, kinds, options)
    pages = with_footer(pages, f"{cardset.name} {cardset.version} - boards and tokens")
    name = f"components-{Path(options.paper).name.lower()}" + (f"-duplex-{options.backs}" if options.backs != "none" else "")
    target = target or project.set_output(cardset.id) / f"{name}.pdf"
    return write_pdf(pages, images, target, title=f"{cardset.name} - boards and tokens")
