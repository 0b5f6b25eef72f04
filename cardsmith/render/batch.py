"""Batch rendering of a set's card faces and backs into `output/<set>/cards/` and `backs/`.

`render_set` resolves each face's layout, computes a content hash of everything that goes into the
picture (card data, the layout files it used, art, icons, fonts, set declarations and options),
skips faces whose hash is unchanged, and renders the rest in worker processes that each write their
own file atomically, so memory stays flat however large the set. `manifest.json` lists what exists
(the contract read by the pdf and share stages); `.render-cache.json` keeps the hashes.
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import hashlib
import json
import operator
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable

from cardsmith.cache import kept
from cardsmith.base.atomic import atomic_path, write_text
from cardsmith.base.diagnostics import Diagnostic, did_you_mean
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.layout.printcheck import HINTS as PRINT_HINTS, PRINT_KINDS
from cardsmith.base.limits import MAX_FACE_PIXELS
from cardsmith.base.machine import available_cores
from cardsmith.sets.model import Card, CardSet
from cardsmith.cache.freshness import load_manifest  # noqa: F401  (read here by many callers)
from cardsmith.printing.pdfcache import file_sha1, stat_pair
from cardsmith.render._pngwrite import write_png
from cardsmith.base.project import Project

GUIDES_DIR = "guides"  # output/<set>/guides/: renders with --guides
RENDER_VERSION = "5"  # 3: print-rule notes (printcheck); 4: text past its panel; 5: face keys hash what faces share first. Bump when the painter draws differently, so caches are rebuilt
FORMATS = {"png": "png", "jpg": "jpg", "jpeg": "jpg", "webp": "webp"}
CACHE_NAME = ".render-cache.json"

def _mappingproxy(data: dict) -> MappingProxyType:
    return MappingProxyType(data)


# Frozen models hold read-only mappings; let them travel to worker processes (needed where workers
# are spawned, as on Windows and macOS; on Linux they are forked and inherit the set).
copyreg.pickle(MappingProxyType, lambda m: (_mappingproxy, (dict(m),)))


@dataclass
class RenderResult:
    """What `render_set` did: faces drawn and reused, problems found, and where the manifest is."""

    set_id: str
    out_dir: Path
    manifest: Path
    rendered: list[str] = field(default_factory=list)  # card ids drawn this run
    skipped: list[str] = field(default_factory=list)  # card ids whose image was up to date
    backs_rendered: list[str] = field(default_factory=list)
    backs_skipped: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0
    layout_dirs: list[Path] = field(default_factory=list)  # where its layouts were looked up
    manifest_data: dict[str, Any] | None = None  # what `manifest` holds, as written (spares reading it back)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class Face:
    """One image to make: a card's front or a back."""

    kind: str  # "card" or "back"
    id: str
    layout: str
    path: Path

    @functools.cached_property
    def key(self) -> str:  # asked thousands of times a run
        return f"{self.kind}:{self.id}"


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


# ---- which layout draws what ----------------------------------------------------------------------

def card_layout(cardset: CardSet, card: Card, layouts) -> str:
    """The layout of a card: set.yaml `layouts:` for its type, else a layout named after the type, else `card`."""
    name = cardset.layouts.get(card.type)
    if name:
        return str(name)
    return card.type if layouts.exists(card.type) else "card"


def back_specs(cardset: CardSet) -> dict[str, dict[str, Any]]:
    """Declared backs as maps (a bare string is a layout name); a set without backs gets `default`."""
    if not cardset.backs:
        return {"default": {"name": cardset.name}}
    out = {}
    for bid, spec in cardset.backs.items():
        if isinstance(spec, str):
            out[bid] = {"layout": spec}
        elif isinstance(spec, dict) or hasattr(spec, "items"):
            out[bid] = dict(spec)
        else:
            out[bid] = {}
    return out


def card_back(cardset: CardSet, card: Card) -> str | None:
    """The back a card prints with: its own `back:`, its type's, or `default` when the set declares none."""
    if card.back:
        return card.back
    ctype = cardset.types.get(card.type)
    if ctype and ctype.back:
        return ctype.back
    return "default" if not cardset.backs else None


def back_layout(back_id: str, spec: dict[str, Any], layouts) -> str:
    if spec.get("layout"):
        return str(spec["layout"])
    return f"back-{back_id}" if layouts.exists(f"back-{back_id}") else "back"


# ---- the renderer used inside each worker ---------------------------------------------------------

class FaceRenderer:
    """Everything needed to draw faces of one set; built once per process."""

    def __init__(self, project_root: str, cardset: CardSet, dpi: int, fmt: str, guides: bool, layouts: Any = None):
        from cardsmith.cache.freshness import CACHE_DIR
        from cardsmith.layout.fonts import library_for
        from cardsmith.layout.paint import Page, Painter, forget_changed_icons
        from cardsmith.layout.template import layouts_for, open_kept_memos, set_context

        project = Project(Path(project_root))
        kept.keep_in(project.output_dir / CACHE_DIR / "kept")  # font tables, icon rasters, layer reads, by content
        open_kept_memos(cardset.id)
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
        self.png_threads = 1  # 2 where this process draws alone with a core to spare (`render_set`)

    def render(self, face: Face) -> Outcome:
        from cardsmith.layout.memo import keep_if_grown
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
            out.digest = save_image(image, face.path, self.fmt, self.dpi, self.png_threads)
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
        keep_if_grown()
        return out


def save_image(image, path: Path, fmt: str, dpi: int, threads: int = 1) -> str:
    """Write atomically (a reader, or a crash, never sees half an image); return the file's SHA-1."""
    try:
        with atomic_path(path) as tmp:
            if fmt == "png":
                return hashlib.sha1(write_png(image, tmp, dpi, threads=threads)).hexdigest()
            elif fmt == "jpg":
                image.save(tmp, "JPEG", quality=95, subsampling=0, dpi=(dpi, dpi))
            else:
                image.save(tmp, "WEBP", quality=95, method=0)
            return file_sha1(tmp)
    except OSError as e:
        raise CardsmithError(f"cannot write {path}: {e.strerror or e}", hint="check the free disk space and that output/ is writable") from None


_WORKER: FaceRenderer | None = None


def _init_worker(*args) -> None:
    global _WORKER
    import gc

    _end_with_parent()
    gc.set_threshold(700, 10, 10)  # Python's defaults (the command line raises them for its own start-up)
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


# ---- hashing --------------------------------------------------------------------------------------

def _stat_sig(path: Path | str) -> str:
    try:
        st = os.stat(path)
        return f"{path}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        return f"{path}:missing"


_CARD_DATA: Callable[[Card], tuple[Any, ...]] | None = None


def card_data(card: Card) -> str:
    """What a card's face is drawn from besides the set (whose part, `set_context`, is in every face's
    key): every attribute of the card but where it was written, so moving a card in its file draws
    nothing again. Its repr, not the layout's context as JSON: four times faster on a long set, which
    every run hashes whole to find the one card that changed."""
    global _CARD_DATA
    if _CARD_DATA is None:
        _CARD_DATA = operator.attrgetter(*(f.name for f in dataclasses.fields(Card) if f.name != "source"))
    return repr(_CARD_DATA(card))  # (attrgetter: the tuple is built in C, a fifth of the time for 360 cards)


def _json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str, ensure_ascii=False)


def _digest(obj: Any) -> str:
    return hashlib.sha256(_json(obj).encode()).hexdigest()


def _files_in(*folders: Path) -> set[str]:
    """The paths of the files in `folders` (not below them), from one listing each."""
    found: set[str] = set()
    for folder in folders:
        try:
            with os.scandir(folder) as entries:
                found.update(e.path for e in entries if e.is_file())
        except OSError:
            pass
    return found


# ---- the batch ------------------------------------------------------------------------------------

STRICT_KINDS = ("overflow", "safe-area", *PRINT_KINDS)  # what --strict makes an error: the print rules


def render_set(project: Project, cardset: CardSet, *, dpi: int = 300, fmt: str = "png", only: Iterable[str] | None = None,
               force: bool = False, jobs: int | None = None, guides: bool = False, strict: bool = False,
               progress: Callable[[int, int, str], None] | None = None,
               on_face: Callable[[Face, Outcome, bool], None] | None = None) -> RenderResult:
    """Render every card (or the `only` ids) and the backs they use into `output/<set>/`.

    `on_face(face, outcome, drawn)` is called in this process for each face as soon as its image is
    known (the unchanged ones first, with `drawn` False): `cardsmith pdf` embeds images while the
    rest are drawn.

    Unchanged faces are skipped unless `force`. Returns what was done and the problems found:
    warnings for text overflow (errors with `strict`), safe-area crossings and missing art; errors
    for faces that could not be drawn (their image is not written).
    """
    from cardsmith.layout.fonts import library_for
    from cardsmith.layout.template import layouts_for, set_context

    started = time.perf_counter()
    fmt_key = str(fmt).lower()
    if fmt_key not in FORMATS:
        raise UsageError(f"unknown image format '{fmt}'", hint="use png, jpg or webp")
    ext = FORMATS[fmt_key]
    if not isinstance(dpi, int) or not 30 <= dpi <= 1200:
        raise UsageError(f"dpi {dpi} is out of range", hint="use a dpi between 30 and 1200 (300 for print)")
    w, h = (side + 2 * cardset.bleed for side in cardset.card_size)
    pixels = w / 25.4 * dpi * h / 25.4 * dpi
    if pixels > MAX_FACE_PIXELS:
        raise CardsmithError(f"a {w:.0f} x {h:.0f} mm card face (bleed included) at {dpi} dpi is {pixels / 1e6:.0f} million "
                             f"pixels; cardsmith draws at most {MAX_FACE_PIXELS / 1e6:.0f} million a face",
                             hint=f"render at a lower dpi (--dpi {max(30, int(dpi * (MAX_FACE_PIXELS / pixels) ** 0.5))})")
    out_dir = project.set_output(cardset.id)
    if guides:  # proofs with guide lines never replace the print images that pdf and the shops use
        out_dir = out_dir / GUIDES_DIR
    cards_dir, backs_dir = out_dir / "cards", out_dir / "backs"
    layouts = layouts_for(project, cardset)
    fonts = library_for(tuple(str(d) for d in project.font_dirs))
    cards = list(cardset.cards)
    if only:
        wanted = list(dict.fromkeys(only))
        ids = cardset.by_id()
        for cid in wanted:
            if cid not in ids:
                raise UsageError(f"set '{cardset.id}' has no card '{cid}'",
                                 hint=did_you_mean(cid, ids) or "card ids are the `id:` of each card (`cardsmith list SET` shows them)")
        cards = [c for c in cards if c.id in set(wanted)]
    specs = back_specs(cardset)

    faces: list[Face] = []
    diags: list[Diagnostic] = []
    set_file = Path(cardset.source.file) if cardset.source else Path(cardset.path) / "set.yaml"
    needed_backs: dict[str, None] = {}
    for c in cards:
        faces.append(Face("card", c.id, card_layout(cardset, c, layouts), cards_dir / f"{c.id}.{ext}"))
        b = card_back(cardset, c)
        if b:
            needed_backs[b] = None
    for b in needed_backs:
        if b not in specs:
            diags.append(Diagnostic("error", set_file, 1, 1, f"back '{b}' is used by a card but not declared under backs:",
                                    did_you_mean(b, specs) or "declare it under `backs:` in set.yaml"))
            continue
        faces.append(Face("back", b, back_layout(b, specs[b], layouts), backs_dir / f"{b}.{ext}"))

    # content hashes; a file is stat'ed once per run however many faces use it (fonts: all of them)
    stat_sig = functools.lru_cache(maxsize=None)(_stat_sig)
    setctx = set_context(cardset)
    icon_sigs = sorted(stat_sig(Path(cardset.path) / p if not Path(p).is_absolute() else p) for p in cardset.icons.values())
    base = _digest({"v": RENDER_VERSION, "dpi": dpi, "fmt": ext, "guides": guides, "set": setctx,
                    "geometry": [list(cardset.card_size), cardset.bleed, cardset.safe],
                    "dimensions": list(cardset.dimensions),  # their order picks a card's main group (`faction`)
                    "fonts": [stat_sig(p) for p in fonts.files()], "icons": icon_sigs,
                    "backs": specs, "layouts": dict(cardset.layouts)})
    cache_path = out_dir / CACHE_NAME
    cache = _read_cache(cache_path)
    by_id = cardset.by_id()
    keys: dict[str, str] = {}
    todo: list[Face] = []
    reused: list[Face] = []
    face_data = {f.key: card_data(by_id[f.id]) if f.kind == "card" else specs.get(f.id) for f in faces}

    drawn_with: dict[tuple[str, frozenset[str], frozenset[str]], str] = {}

    def face_key(f: Face, deps: Iterable[str], files: Iterable[str]) -> str:
        """The hash of everything that went into a face: `deps` are the layouts it used, `files` the fonts
        and assets. What faces share (the set, a layout and what it includes, the fonts) is hashed
        once per combination, then with each face's own data: a run hashes every face to find the
        one that changed."""
        layout_names, file_names = frozenset(deps) | {f.layout}, frozenset(files)
        shared = drawn_with.get((f.layout, layout_names, file_names))
        if shared is None:
            shared = drawn_with[(f.layout, layout_names, file_names)] = kept.digest(
                base, f.layout, layouts.digest(layout_names), *[stat_sig(p) for p in sorted(file_names)])
        art = by_id[f.id].art if f.kind == "card" else None
        art_file = os.path.join(cardset.path, art) if art else None  # (os.path: a Path a face is a tenth of a run's keys)
        data = face_data[f.key]
        return kept.digest(shared, f.key, data if isinstance(data, str) else _json(data),
                           stat_sig(art_file) if art_file and art_file not in file_names else "")

    images = _files_in(cards_dir, backs_dir)  # one listing, not a stat per face
    for f in faces:
        entry = cache.get(f.key) or {}
        keys[f.key] = face_key(f, entry.get("layouts") or [], entry.get("files") or [])
        if not force and entry.get("key") == keys[f.key] and str(f.path) in images and not entry.get("error"):
            reused.append(f)
        else:
            todo.append(f)

    todo.sort(key=lambda f: f.kind != "back")  # backs first: a duplex PDF's second page needs one (see pdfstream)
    outcomes: dict[str, Outcome] = {}
    for f in reused:
        e = cache[f.key]
        outcomes[f.key] = Outcome(f.key, [tuple(n) for n in e.get("notes", [])], e.get("layouts", []), e.get("files", []),
                                  digest=e.get("digest"), stat=tuple(e["stat"]) if e.get("stat") else None)
    total = len(faces)
    done = len(reused)
    if progress:
        progress(done, total, "")
    if on_face:
        for f in reused:
            on_face(f, outcomes[f.key], False)
    args = (str(project.root), cardset, dpi, ext, guides)
    workers = max(1, min(jobs or available_cores(), len(todo)))
    in_set = {f"card:{c.id}" for c in cardset.cards} | {f"back:{b}" for b in specs}
    new_cache = {k: v for k, v in cache.items() if k in in_set}  # --only keeps the other cards' entries
    face_by_key = {f.key: f for f in faces}

    def record(o: Outcome) -> None:
        nonlocal done
        outcomes[o.face] = o
        new_cache[o.face] = {"key": face_key(face_by_key[o.face], o.layouts, o.files) if not o.error else None,
                             "layouts": o.layouts, "files": o.files,
                             "notes": o.notes, "error": bool(o.error), "digest": o.digest,
                             "stat": list(o.stat) if o.stat else None}
        done += 1
        if progress:
            progress(done, total, o.face.split(":", 1)[1])
        if on_face:
            on_face(face_by_key[o.face], o, True)

    try:
        if workers <= 1:
            renderer = FaceRenderer(*args, layouts=layouts)
            if jobs != 1 and available_cores() >= 2:  # one face to draw: its PNG is deflated on both cores
                renderer.png_threads = 2
            for f in todo:
                record(renderer.render(f))
        elif todo:
            import multiprocessing  # only when several faces are drawn (a one-card change draws in this process)
            from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

            ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
            with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=args) as pool:
                # keep a bounded number of faces in flight so results stream back as they finish
                pending = set()
                it = iter(todo)
                for f in it:
                    pending.add(pool.submit(_render_in_worker, f))
                    if len(pending) >= workers * 4:
                        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for fut in finished:
                            record(fut.result())
                for fut in pending:
                    record(fut.result())
    finally:
        if new_cache != cache:  # an unchanged set writes nothing
            write_text(cache_path, _cache_text(new_cache))

    # diagnostics, in set order
    for f in faces:
        o = outcomes.get(f.key)
        if o is None or not (o.error or o.notes):
            continue
        src = by_id[f.id].source if f.kind == "card" else None
        file = Path(src.file) if src else set_file
        line, col = (src.line, src.column) if src else (1, 1)
        who = f"card '{f.id}'" if f.kind == "card" else f"back '{f.id}'"
        if o.error:
            diags.append(Diagnostic("error", file, line, col, f"{who}: {o.error}", o.hint, f.id))
            continue
        for kind, message, layer, amount in o.notes:
            sev = "error" if strict and kind in STRICT_KINDS else "warning"
            hint = {"overflow": "shorten the text, enlarge the box, or lower min_size in the layout",
                    "safe-area": "move it inside the safe area (the dashed line of --guides) or give the layer `safe: false`",
                    "missing-art": "add the file, or fix the card's art: path", **PRINT_HINTS}.get(kind)
            diags.append(Diagnostic(sev, file, line, col, f"{who}: {message} ({layer}, layout '{f.layout}')", hint, f.id))

    manifest, manifest_data = _write_manifest(out_dir, cardset, faces, outcomes, dpi, ext, prune=not only)
    result = RenderResult(cardset.id, out_dir, manifest, diagnostics=diags, seconds=time.perf_counter() - started,
                          layout_dirs=list(layouts.dirs), manifest_data=manifest_data)
    reused_keys = {f.key for f in reused}
    for f in faces:
        o = outcomes.get(f.key)
        if o is None or o.error:
            continue
        fresh = f.key not in reused_keys
        if f.kind == "card":
            (result.rendered if fresh else result.skipped).append(f.id)
        else:
            (result.backs_rendered if fresh else result.backs_skipped).append(f.id)
    return result


def _read_cache(path: Path) -> dict[str, Any]:
    """Each face's entry of the render cache (`_cache_text`'s shared lists of files put back in place)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    faces, shared = data.get("faces"), data.get("file_lists")
    if not isinstance(faces, dict) or not isinstance(shared, list):
        return data  # written before the lists were shared: one entry per face, as they are
    for entry in faces.values():
        i = entry.get("files") if isinstance(entry, dict) else None
        if isinstance(i, int):
            entry["files"] = shared[i] if 0 <= i < len(shared) else None  # (None: a damaged entry, drawn again)
    return faces


def _cache_text(faces: dict[str, Any]) -> str:
    """The render cache as JSON, each list of files written once and named by its place: faces drawn
    with the same fonts and icons share one (three quarters of the file was those lists, read and
    written again on every run that draws a card)."""
    lists: dict[tuple[str, ...], int] = {}
    out = {}
    for key, entry in faces.items():
        files = tuple(entry.get("files") or ())
        out[key] = {**entry, "files": lists.setdefault(files, len(lists))}
    return json.dumps({"faces": out, "file_lists": [list(f) for f in lists]}, sort_keys=True, separators=(",", ":"))


def _write_manifest(out_dir: Path, cardset: CardSet, faces: list[Face], outcomes: dict[str, Outcome],
                    dpi: int, ext: str, prune: bool) -> tuple[Path, dict[str, Any]]:
    """Write `cards/manifest.json`: every card and back whose image exists (the pdf/share contract); its
    path and content."""
    path = out_dir / "cards" / "manifest.json"
    old = {}
    try:
        old = load_manifest(out_dir)
    except CardsmithError:
        pass
    same_kind = old.get("dpi") == dpi and old.get("format") == ext
    cards: dict[str, Any] = {}
    backs: dict[str, Any] = {}
    images = _files_in(out_dir / "cards", out_dir / "backs")
    rendered = {f.key for f in faces if f.key in outcomes and not outcomes[f.key].error}
    failed = {f.key for f in faces if f.key in outcomes and outcomes[f.key].error}
    for c in cardset.cards:
        key = f"card:{c.id}"
        rel = f"cards/{c.id}.{ext}"
        keep_old = same_kind and key not in failed and c.id in (old.get("cards") or {}) and f"{out_dir}/{rel}" in images
        if key in rendered or keep_old:
            cards[c.id] = {"file": rel, "back": card_back(cardset, c), "name": c.name, "type": c.type, "copies": c.copies,
                           **_content(outcomes.get(key), (old.get("cards") or {}).get(c.id))}
    for bid in back_specs(cardset):
        key = f"back:{bid}"
        rel = f"backs/{bid}.{ext}"
        keep_old = same_kind and key not in failed and bid in (old.get("backs") or {}) and f"{out_dir}/{rel}" in images
        if key in rendered or keep_old:
            backs[bid] = {"file": rel, **_content(outcomes.get(key), (old.get("backs") or {}).get(bid))}
    if prune:  # images of cards that left the set
        for section in ("cards", "backs"):
            for oid, entry in (old.get(section) or {}).items():
                current = cards if section == "cards" else backs
                replaced = oid in current and current[oid]["file"] != (entry or {}).get("file")  # e.g. png -> jpg
                if (oid not in current or replaced) and isinstance(entry, dict) and entry.get("file"):
                    stale = out_dir / entry["file"]
                    if stale.parent.name == section:
                        stale.unlink(missing_ok=True)
    w, h = cardset.card_size
    manifest = {"set": cardset.id, "dpi": dpi, "format": ext, "trim_mm": [w, h], "bleed_mm": cardset.bleed,
                "safe_mm": cardset.safe, "cards": cards, "backs": backs}
    if manifest != old:
        write_text(path, manifest_text(manifest))
    return path, manifest


_JSON = json.JSONEncoder(ensure_ascii=False)


def manifest_text(manifest: dict[str, Any]) -> str:
    """The manifest as JSON, each card and back on a line of its own (readable, and a third of the time of
    json's `indent`, which formats in Python: a one-card render of a large set writes it again)."""
    dump = _JSON.encode

    def section(entries: Any) -> str:
        if not isinstance(entries, dict) or not entries:
            return dump(entries)
        return "{\n" + ",\n".join(f"    {dump(k)}: {dump(v)}" for k, v in entries.items()) + "\n  }"

    return "{\n" + ",\n".join(f"  {dump(k)}: {section(v) if k in ('cards', 'backs') else dump(v)}"
                               for k, v in manifest.items()) + "\n}\n"


def _content(outcome: Outcome | None, old: Any) -> dict[str, Any]:
    """`sha1`, `bytes` and `mtime_ns` of an image as it was written, for the PDF to name it without
    reading it (see pdfcache, which hashes the file instead when its size or mtime no longer match)."""
    if outcome is not None and not outcome.error and outcome.digest and outcome.stat:
        return {"sha1": outcome.digest, "bytes": outcome.stat[0], "mtime_ns": outcome.stat[1]}
    if isinstance(old, dict) and old.get("sha1"):
        return {k: old[k] for k in ("sha1", "bytes", "mtime_ns") if k in old}
    return {}


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
