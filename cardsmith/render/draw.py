"""Drawing faces: the renderer each process builds once, the image writer, and the pool of workers.

Faces are drawn in worker processes that each write their own file atomically, so memory stays
flat however large the set; a render with one face to draw draws it in this process.
"""

from __future__ import annotations

import copyreg
import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable

from cardsmith.base.atomic import atomic_path
from cardsmith.base.errors import CardsmithError
from cardsmith.base.machine import available_cores
from cardsmith.base.project import Project
from cardsmith.cache import kept
from cardsmith.layout.faces import back_specs
from cardsmith.cache.pdfstamps import file_sha1, stat_pair
from cardsmith.render._pngwrite import write_png
from cardsmith.render.plan import Face
from cardsmith.sets.model import CardSet


def _mappingproxy(data: dict) -> MappingProxyType:
    return MappingProxyType(data)


# Frozen models hold read-only mappings; let them travel to worker processes (needed where workers
# are spawned, as on Windows and macOS; on Linux they are forked and inherit the set).
copyreg.pickle(MappingProxyType, lambda m: (_mappingproxy, (dict(m),)))


@dataclass
class Outcome:
    face: str
    notes: list[tuple[str, str, str, float]] = field(default_factory=list)  # kind, message, layer, amount
    layouts: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    error: str | None = None
    hint: str | None = None
    digest: str | None = None  # SHA-1 of the image file written (the PDF names images by it)
    stat: tuple[int, int] | None = None  # its size and mtime then, to tell whether it is still that file


class FaceRenderer:
    """Everything needed to draw faces of one set; built once per process."""

    def __init__(self, project_root: str, cardset: CardSet, dpi: int, fmt: str, guides: bool, layouts: Any = None):
        from cardsmith.cache.freshness import CACHE_DIR
        from cardsmith.layout.fonts import library_for
        from cardsmith.layout.paint import Page, Painter, forget_changed_icons
        from cardsmith.layout.template import layouts_for, set_context

        project = Project(Path(project_root))
        kept.keep_in(project.output_dir / CACHE_DIR / "kept")  # font character tables, by content
        forget_changed_icons()
        self.cardset = cardset
        self.fmt = fmt
        self.dpi = dpi
        self.layouts = layouts if layouts is not None else layouts_for(project, cardset)  # the batch's, in its process
        self.setctx = set_context(cardset)
        self.fonts = library_for(tuple(str(d) for d in project.font_dirs))
        icons = {k: (Path(v) if Path(v).is_absolute() else Path(cardset.path) / v) for k, v in cardset.icons.items()}
        self.painter = Painter(Page(dpi, (cardset.card_size[0], cardset.card_size[1]), cardset.bleed, cardset.safe), self.fonts, icons,
                               Path(cardset.path), guides)
        self.cards = cardset.by_id()
        self.backs = back_specs(cardset)

    def render(self, face: Face) -> Outcome:
        from cardsmith.layout.template import back_context, card_context

        out = Outcome(face.key)
        self.painter.used_files = set()
        what = f"card '{face.id}'" if face.kind == "card" else f"back '{face.id}'"
        try:
            if face.kind == "card":
                ctx = card_context(self.cardset, self.cards[face.id], self.setctx)
            else:
                ctx = back_context(self.cardset, face.id, self.backs.get(face.id, {}), self.setctx)
            tree, used = self.layouts.render(face.layout, ctx, what)
            out.layouts = sorted(used)
            image, notes = self.painter.paint(tree, what)
            out.notes = [(n.kind, n.message, n.layer, n.amount_mm) for n in notes]
            out.files = sorted(self.painter.used_files)
            out.digest = save_image(image, face.path, self.fmt, self.dpi)
            out.stat = stat_pair(face.path)
        except CardsmithError as e:
            out.error, out.hint = e.message, e.hint
        except Exception as e:  # a bug of ours: keep going with the other cards, and say so
            out.error = f"internal error while drawing {what}: {type(e).__name__}: {e}"
            import traceback  # (only for a bug: a render that draws cards never loads it)

            out.hint = "this is a bug in cardsmith; details: " + traceback.format_exc(limit=3).splitlines()[-1]
        if out.error:
            try:
                face.path.unlink()  # never leave an outdated picture of a card that now fails
            except OSError:
                pass
        return out


def save_image(image, path: Path, fmt: str, dpi: int) -> str:
    """Write atomically (a reader, or a crash, never sees half an image); return the file's SHA-1."""
    try:
        with atomic_path(path) as tmp:
            if fmt == "png":
                return hashlib.sha1(write_png(image, tmp, dpi)).hexdigest()
            elif fmt == "jpg":
                image.save(tmp, "JPEG", quality=95, subsampling=0, dpi=(dpi, dpi))
            else:
                image.save(tmp, "WEBP", quality=95, method=0)
            return file_sha1(tmp)
    except OSError as e:
        raise CardsmithError(f"cannot write {path}: {e.strerror or e}", hint="check the free disk space and that output/ is writable") from None


_WORKER: FaceRenderer | None = None
RendererArgs = tuple[str, CardSet, int, str, bool]  # FaceRenderer's: project root, set, dpi, format, guides


def _init_worker(*args: Any) -> None:
    global _WORKER
    _end_with_parent()
    _WORKER = FaceRenderer(*args)


def _end_with_parent() -> None:
    """Ask Linux to end this worker when the command that started it dies (killed by a timeout, say):
    otherwise it draws on for minutes with nobody to take its faces. Elsewhere the pool's own pipes
    end it at its next face."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the request took effect
        os._exit(1)


def _render_in_worker(face: Face) -> Outcome:
    assert _WORKER is not None
    return _WORKER.render(face)


def draw_faces(todo: list[Face], args: RendererArgs, jobs: int | None, layouts: Any, record: Callable[[Outcome], None]) -> None:
    """Draw `todo` (renderer `args`: project root, set, dpi, format, guides), handing each outcome to `record`
    in this process as soon as it is known."""
    if not todo:
        return
    workers = max(1, min(jobs or available_cores(), len(todo)))
    if workers <= 1:
        renderer = FaceRenderer(*args, layouts=layouts)
        for f in todo:
            record(renderer.render(f))
        return
    import multiprocessing  # only when several faces are drawn (a one-card change draws in this process)
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=args) as pool:
        # keep a bounded number of faces in flight so results stream back as they finish
        pending = set()
        for f in todo:
            pending.add(pool.submit(_render_in_worker, f))
            if len(pending) >= workers * 4:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    record(fut.result())
        for fut in pending:
            record(fut.result())
