"""Draw a set's boards and token faces through the layout engine, into `output/<set>/components/`.

Each image is the trim plus the set's bleed at the chosen dpi. Boards use the layout `board`
(or the board's `layout:`), tokens `token-front` and `token-back` (or the kind's `front:`/`back:`).
Like card rendering, each image has a content hash of what went into it (its data, the layout
files it used, fonts and art) and is drawn again only when that changes. `manifest.json` lists
what exists; the printing, sharing and export stages read it.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from PIL import Image, ImageDraw

from cardsmith.base.atomic import write_text
from cardsmith.components._context import board_context, player_context, shape_mask_points, token_context
from cardsmith.components.base import Components
from cardsmith.components.model import TokenKind
from cardsmith.base.diagnostics import Diagnostic
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.base.limits import MAX_FACE_PIXELS
from cardsmith.sets.model import CardSet, SourceRef
from cardsmith.base.project import Project

COMPONENTS_VERSION = "2"  # what a key holds (the drawing code since 2: `cardsmith.cache.code`)
CACHE_NAME = ".components-cache.json"
TOKEN_SAFE = 1.0  # mm: a token's safe area (its shape is cut, not a card's rounded corner)


@dataclass(frozen=True)
class Job:
    """One image to draw: a board, a token front or a token back."""

    key: str  # board:<id>, front:<face id>, back:<kind>[-<player>]
    layout: str
    context: dict[str, Any]
    size: tuple[float, float]  # trim mm
    path: Path
    source: SourceRef | None
    kind: TokenKind | None = None  # tokens: cut to their shape (plus bleed)


@dataclass
class ComponentsResult:
    """What `render_components` did."""

    out_dir: Path
    manifest: Path | None = None
    rendered: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]


def components_of(cardset: CardSet) -> Components:
    return cardset.components if isinstance(cardset.components, Components) else Components()


def components_dir(project: Project, cardset: CardSet) -> Path:
    return project.set_output(cardset.id) / "components"


def back_id(kind: str, player: str | None) -> str:
    return f"{kind}-{player}" if player else kind


def jobs_for(cardset: CardSet, out: Path, ext: str) -> Iterator[Job]:
    """Every image the set's components need, boards first, then each token kind's fronts and backs."""
    comps = components_of(cardset)
    for board in comps.boards.values():
        yield Job(f"board:{board.id}", board.layout, {"board": board_context(board)}, board.size,
                  out / "boards" / f"{board.id}.{ext}", board.source)
    for kind in comps.tokens.values():
        backs: dict[str, Job] = {}
        for face in kind.faces:
            player = comps.players.get(face.player) if face.player else None
            ctx = {"token": token_context(kind, face, player, "front"), "player": player_context(player)}
            yield Job(f"front:{face.id}", kind.front, ctx, kind.size, out / "tokens" / f"{face.id}.{ext}", kind.source, kind)
            bid = back_id(kind.id, face.player)
            if kind.back and bid not in backs:
                ctx = {"token": token_context(kind, face, player, "back"), "player": player_context(player)}
                backs[bid] = Job(f"back:{bid}", kind.back, ctx, kind.size, out / "tokens" / f"back-{bid}.{ext}", kind.source, kind)
        yield from backs.values()


class _Drawer:
    """Layouts, fonts and icons of one set, and a painter per image geometry."""

    def __init__(self, project: Project, cardset: CardSet, dpi: int):
        from cardsmith.layout.fonts import library_for
        from cardsmith.layout.template import layouts_for, set_context

        self.cardset, self.dpi = cardset, dpi
        self.layouts = layouts_for(project, cardset)
        self.setctx = set_context(cardset)
        self.fonts = library_for(tuple(str(d) for d in project.font_dirs))
        self.icons = {k: (Path(v) if Path(v).is_absolute() else Path(cardset.path) / v) for k, v in cardset.icons.items()}
        self.players = {p.id: player_context(p) for p in components_of(cardset).players.values()}

    def draw(self, job: Job, bleed: float) -> tuple[Image.Image, list[str], list[str], list[Any]]:
        """The image, the layout names and files it used, and the painter's notes."""
        from cardsmith.layout.paint import Page, Painter

        w, h = job.size
        px = (w + 2 * bleed) / 25.4 * self.dpi * (h + 2 * bleed) / 25.4 * self.dpi
        if px > MAX_FACE_PIXELS:
            raise CardsmithError(f"{job.key.split(':', 1)[1]} is {w:.0f} x {h:.0f} mm: at {self.dpi} dpi that is "
                                 f"{px / 1e6:.0f} million pixels", hint="render at a lower dpi (--dpi 150)")
        safe = TOKEN_SAFE if job.kind is not None else min(self.cardset.safe, 5.0)
        painter = Painter(Page(self.dpi, (w, h), bleed, safe), self.fonts, self.icons, Path(self.cardset.path))
        what = job.key.replace(":", " ", 1).replace("front ", "token ").replace("back ", "token back ")
        ctx = {**job.context, "set": self.setctx, "players": self.players}
        tree, used = self.layouts.render(job.layout, ctx, what)
        image, notes = painter.paint(tree, what)
        if job.kind is not None and job.kind.shape != "square":
            image = cut_to_shape(image, job.kind, bleed, self.dpi)
        return image, sorted(used), sorted(painter.used_files), notes


def cut_to_shape(image: Image.Image, kind: TokenKind, bleed: float, dpi: int, outside: Any = (255, 255, 255)) -> Image.Image:
    """The token image with everything beyond its shape plus bleed set to `outside` (paper white,
    or transparent for Tabletop Simulator), so a sheet shows discs and hexes, not squares."""
    s = 4
    scale = dpi / 25.4 * s
    mask = Image.new("L", (image.width * s, image.height * s), 0)
    ImageDraw.Draw(mask).polygon([(x * scale, y * scale) for x, y in shape_mask_points(kind, bleed)], fill=255)
    mask = mask.resize(image.size, Image.Resampling.BOX)
    mode = "RGBA" if len(outside) == 4 else "RGB"
    base = Image.new(mode, image.size, tuple(outside))
    base.paste(image.convert(mode), (0, 0), mask)
    return base


def render_components(project: Project, cardset: CardSet, *, dpi: int = 300, fmt: str = "png", force: bool = False,
                      progress: Callable[[int, int, str], None] | None = None) -> ComponentsResult:
    """Draw the set's boards and token faces that changed (all of them with `force`)."""
    from cardsmith.layout.template import LayoutError
    from cardsmith.cache.code import drawing_code
    from cardsmith.cache.keybook import read_keys, write_keys
    from cardsmith.render.draw import save_image
    from cardsmith.render.keys import _digest, _stat_sig
    from cardsmith.render.plan import FORMATS

    started = time.perf_counter()
    ext = FORMATS.get(str(fmt).lower())
    if ext is None:
        raise UsageError(f"unknown image format '{fmt}'", hint="use png, jpg or webp")
    if not isinstance(dpi, int) or not 30 <= dpi <= 1200:
        raise UsageError(f"dpi {dpi} is out of range", hint="use a dpi between 30 and 1200 (300 for print)")
    comps = components_of(cardset)
    out = components_dir(project, cardset)
    result = ComponentsResult(out)
    if not comps:
        return result
    drawer = _Drawer(project, cardset, dpi)
    stat_sig = functools.lru_cache(maxsize=None)(_stat_sig)
    base = _digest({"v": COMPONENTS_VERSION, "code": drawing_code(), "dpi": dpi, "fmt": ext, "bleed": comps.bleed, "set": drawer.setctx,
                    "players": drawer.players, "fonts": [stat_sig(p) for p in drawer.fonts.files()]})
    cache_path = out / CACHE_NAME
    cache = read_keys(cache_path)
    jobs = list(jobs_for(cardset, out, ext))
    new_cache: dict[str, Any] = {}
    failed: set[str] = set()

    def key_of(job: Job, layouts: list[str], files: list[str]) -> str:
        return _digest({"base": base, "job": job.key, "layout": job.layout, "data": job.context,
                        "layouts": drawer.layouts.digest(set(layouts) | {job.layout}),
                        "files": [stat_sig(f) for f in sorted(files)]})

    for n, job in enumerate(jobs, 1):
        entry = cache.get(job.key) or {}
        if not force and entry.get("key") == key_of(job, entry.get("layouts", []), entry.get("files", [])) and job.path.is_file():
            new_cache[job.key] = entry
            result.skipped.append(job.key)
        else:
            try:
                image, layouts, files, notes = drawer.draw(job, comps.bleed)
                save_image(image, job.path, ext, dpi)
            except (CardsmithError, LayoutError) as e:
                src = job.source
                result.diagnostics.append(Diagnostic("error", src.file if src else None, src.line if src else 1,
                                                     src.column if src else 1, f"{job.key}: {e.message}", e.hint))
                job.path.unlink(missing_ok=True)
                failed.add(job.key)
                continue
            for note in notes:
                src = job.source
                result.diagnostics.append(Diagnostic("warning", src.file if src else None, src.line if src else 1,
                                                     src.column if src else 1, f"{job.key}: {note.message} ({note.layer})"))
            new_cache[job.key] = {"key": key_of(job, layouts, files), "layouts": layouts, "files": files}
            result.rendered.append(job.key)
        if progress:
            progress(n, len(jobs), job.key)
    write_keys(cache_path, new_cache, cache)
    result.manifest = write_manifest(out, comps, jobs, dpi, ext, failed)
    result.seconds = time.perf_counter() - started
    return result


def write_manifest(out: Path, comps: Components, jobs: list[Job], dpi: int, ext: str, failed: set[str]) -> Path:
    """`components/manifest.json`: each board and token kind with its image files (relative to `out`)."""
    made = {j.key: str(j.path.relative_to(out)) for j in jobs if j.key not in failed and j.path.is_file()}
    boards = {b.id: {"name": b.name, "grid": b.grid, "file": made[f"board:{b.id}"], "trim_mm": list(b.size),
                     "cells": len(b.cells)} for b in comps.boards.values() if f"board:{b.id}" in made}
    tokens = {}
    for k in comps.tokens.values():
        faces = []
        for f in k.faces:
            if f"front:{f.id}" not in made:
                continue
            back = made.get(f"back:{back_id(k.id, f.player)}") if k.back else None
            faces.append({"id": f.id, "item": f.item, "player": f.player, "copies": f.copies,
                          "name": str(f.data.get("name") or k.name), "front": made[f"front:{f.id}"], "back": back})
        tokens[k.id] = {"name": k.name, "shape": k.shape, "trim_mm": list(k.size),
                        "orientation": str(k.options.get("orientation") or "pointy"), "faces": faces}
    manifest = {"dpi": dpi, "format": ext, "bleed_mm": comps.bleed,
                "players": {p.id: {"name": p.name, "color": p.color} for p in comps.players.values()},
                "boards": boards, "tokens": tokens}
    path = out / "manifest.json"
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    try:
        same = path.read_text(encoding="utf-8") == text
    except OSError:
        same = False
    if not same:  # an unchanged manifest keeps its time: the stages after it see nothing new (`cache.stages`)
        write_text(path, text)
    return path


def load_components_manifest(out: Path) -> dict[str, Any]:
    """Read `output/<set>/components/manifest.json` (paths in it are relative to that folder)."""
    from cardsmith.cache.freshness import read_manifest

    return read_manifest(Path(out) / "manifest.json", "the set's components have not been rendered",
                         "cardsmith components render SET", "cardsmith components render SET --force")
