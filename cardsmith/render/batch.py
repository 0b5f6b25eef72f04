"""Batch rendering of a set's card faces and backs into `output/<set>/cards/` and `backs/`.

`render_set` plans the faces (`plan`: each face's layout and file), keys them (`keys`: a content hash
of everything that goes into the picture, the drawing code included), skips faces whose key is
unchanged, draws the rest (`draw`: worker processes that each write their own file atomically, so
memory stays flat however large the set) and reports (`report`: diagnostics and `manifest.json`, the
contract read by the pdf and share stages). `.render-cache.json` keeps the keys (`cardsmith.cache.keybook`).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable

from cardsmith.base.project import Project
from cardsmith.cache.keybook import read_keys, write_keys
from cardsmith.layout.faces import back_specs
from cardsmith.render.draw import Outcome, draw_faces
from cardsmith.render.keys import FaceKeys
from cardsmith.render.plan import GUIDES_DIR, Face, check_size, image_format, plan_faces
from cardsmith.render.report import RenderResult, face_diagnostics, files_in, write_manifest
from cardsmith.sets.model import CardSet

CACHE_NAME = ".render-cache.json"


def render_set(project: Project, cardset: CardSet, *, dpi: int = 300, fmt: str = "png", only: Iterable[str] | None = None,
               force: bool = False, jobs: int | None = None, guides: bool = False, strict: bool = False,
               progress: Callable[[int, int, str], None] | None = None,
               on_face: Callable[[Face, Outcome, bool], None] | None = None) -> RenderResult:
    """Render every card (or the `only` ids) and the backs they use into `output/<set>/`.

    `on_face(face, outcome, drawn)` is called in this process for each face as soon as its image is
    known (the unchanged ones first, with `drawn` False): `cardsmith pdf` embeds images while the
    rest are drawn.

    Unchanged faces are skipped unless `force` (or caches are off: `cardsmith.cache.off`). Returns what
    was done and the problems found: warnings for text overflow (errors with `strict`), safe-area
    crossings and missing art; errors for faces that could not be drawn (their image is not written).
    """
    from cardsmith.layout.fonts import library_for
    from cardsmith.layout.template import layouts_for

    started = time.perf_counter()
    ext = image_format(fmt)
    check_size(cardset, dpi)
    out_dir = project.set_output(cardset.id)
    if guides:  # proofs with guide lines never replace the print images that pdf and the shops use
        out_dir = out_dir / GUIDES_DIR
    layouts = layouts_for(project, cardset)
    faces, diags = plan_faces(cardset, layouts, out_dir, ext, only)
    keys = FaceKeys(cardset, layouts, library_for(tuple(str(d) for d in project.font_dirs)), faces,
                    dpi=dpi, ext=ext, guides=guides)
    cache = read_keys(out_dir / CACHE_NAME)
    todo, reused = _unchanged(faces, cache, keys, force, files_in(out_dir / "cards", out_dir / "backs"))
    outcomes: dict[str, Outcome] = {}
    for f in reused:
        e = cache[f.key]
        outcomes[f.key] = Outcome(f.key, [tuple(n) for n in e.get("notes", [])], e.get("layouts", []), e.get("files", []),
                                  digest=e.get("digest"), stat=tuple(e["stat"]) if e.get("stat") else None)
    if progress:
        progress(len(reused), len(faces), "")
    if on_face:
        for f in reused:
            on_face(f, outcomes[f.key], False)
    in_set = {f"card:{c.id}" for c in cardset.cards} | {f"back:{b}" for b in back_specs(cardset)}
    new_cache = {k: v for k, v in cache.items() if k in in_set}  # --only keeps the other cards' entries
    face_by_key = {f.key: f for f in faces}

    def record(o: Outcome) -> None:
        outcomes[o.face] = o
        new_cache[o.face] = _entry(o, keys.key(face_by_key[o.face], o.layouts, o.files) if not o.error else None)
        if progress:
            progress(len(outcomes), len(faces), o.face.split(":", 1)[1])
        if on_face:
            on_face(face_by_key[o.face], o, True)

    try:
        draw_faces(todo, (str(project.root), cardset, dpi, ext, guides), jobs, layouts, record)
    finally:
        write_keys(out_dir / CACHE_NAME, new_cache, cache)  # (an unchanged set writes nothing)
    diags += face_diagnostics(cardset, faces, outcomes, strict)
    manifest, manifest_data = write_manifest(out_dir, cardset, faces, outcomes, dpi, ext, prune=not only)
    result = RenderResult(cardset.id, out_dir, manifest, diagnostics=diags, seconds=time.perf_counter() - started,
                          layout_dirs=list(layouts.dirs), manifest_data=manifest_data)
    result.count(faces, outcomes, {f.key for f in reused})
    return result


def _unchanged(faces: list[Face], cache: dict[str, Any], keys: FaceKeys, force: bool,
               images: set[str]) -> tuple[list[Face], list[Face]]:
    """The faces to draw (backs first: a duplex PDF's second page needs one, see pdfstream) and those
    whose image is still as its key says (none with `force`)."""
    todo: list[Face] = []
    reused: list[Face] = []
    for f in faces:
        entry = cache.get(f.key) or {}
        key = keys.key(f, entry.get("layouts") or [], entry.get("files") or [])
        if not force and entry.get("key") == key and str(f.path) in images and not entry.get("error"):
            reused.append(f)
        else:
            todo.append(f)
    todo.sort(key=lambda f: f.kind != "back")
    return todo, reused


def _entry(o: Outcome, key: str | None) -> dict[str, Any]:
    """A face's entry in `.render-cache.json` (no key for a face that failed: it is drawn again)."""
    return {"key": key, "layouts": o.layouts, "files": o.files, "notes": o.notes, "error": bool(o.error),
            "digest": o.digest, "stat": list(o.stat) if o.stat else None}


def build_stage(ctx) -> None:
    """`cardsmith build` stage: render the set's cards and backs."""
    opts = ctx.options
    result = render_set(ctx.project, ctx.cardset, jobs=opts.get("jobs"), force=bool(opts.get("force")),
                        strict=bool(opts.get("strict")),
                        progress=lambda done, total, what: ctx.progress(f"{done}/{total} {what}"))
    ctx.diagnostics.extend(result.diagnostics)
    if opts.get("inputs") is not None:  # the pdf stage then reads the manifest without hashing the set again
        from cardsmith.cache.freshness import record_render

        record_render(ctx.project, opts["inputs"], ctx.cardset, result, dpi=300, fmt="png", guides=False,
                      strict=bool(opts.get("strict")), layout_dirs=result.layout_dirs)
    n = len(result.rendered) + len(result.skipped)
    ctx.wrote(f"{n} card images ({len(result.rendered)} drawn, {len(result.skipped)} unchanged)", result.out_dir / "cards")
    if result.backs_rendered or result.backs_skipped:
        ctx.wrote(f"{len(result.backs_rendered) + len(result.backs_skipped)} card backs", result.out_dir / "backs")
