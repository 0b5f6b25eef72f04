"""Work skipped when nothing it reads has changed, decided before anything heavy is imported.

A `Stamp` (a small JSON file under `output/.cache/`) records, after a command did its work:
- `key`: a digest of the command's options (and anything else that is not a file);
- the `roots` it read (folders and files) and a fingerprint of every file under them: path, size
  and modification time (the same signature the render cache uses for art and fonts);
- the outputs it left, each with its size and modification time;
- `data`: what the command needs to answer without working (messages, counts, paths).

`Stamp.fresh(key)` gives that data back only when the key matches, a new walk of the roots gives
the same fingerprint and every output is still as it was written; anything else (a stamp of an
older version, a file added, removed, touched or replaced, an output deleted) is a miss, and the
command does its work as usual. With caches off (`cardsmith.cache.off`) no stamp is read or written.
The fingerprint is taken *before* the work starts (`snapshot`), so
an edit made while a command runs is seen by the next run.

The roots of a set's commands (`set_roots`) cover the set folder, the project's and cardsmith's
layouts and fonts, every set a layout may borrow from, cardsmith's own code and the libraries that
draw and write (an upgrade replaces their files). `cardsmith.cache.setcache` keeps the validated set
itself, under a stamp of this kind.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from pathlib import Path

from cardsmith.base.errors import CardsmithError
from cardsmith.cache import off

from typing import Any, Iterable

STAMP_VERSION = "1"  # bump when what a stamp means changes
PACKAGE_DIR = Path(__file__).resolve().parent.parent
CACHE_DIR = ".cache"  # under the project's output/
LIBRARIES = ("PIL", "reportlab", "jinja2", "yaml", "jsonschema", "referencing", "click", "rich", "resvg_py")
SKIP_DIRS = frozenset({"__pycache__", ".git", ".hg", ".svn", ".mypy_cache", ".pytest_cache"})


def _stat_pair(path: str | Path) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _walk(root: str, skip: str, out: list[str], seen: set[tuple[int, int]] | None = None) -> None:
    """Append `path:size:mtime` for `root` (a file) or every file under it (a folder), `skip` excepted.
    A folder reached again through a link (a loop such as `loop/up -> ..`) is listed, not walked again."""
    try:
        st = os.stat(root)
    except OSError:
        out.append(f"{root}:missing")
        return
    if not stat.S_ISDIR(st.st_mode):
        out.append(f"{root}:{st.st_size}:{st.st_mtime_ns}")
        return
    seen = set() if seen is None else seen
    if (st.st_dev, st.st_ino) in seen:
        out.append(f"{root}/:again")
        return
    seen.add((st.st_dev, st.st_ino))
    out.append(f"{root}/")
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        out.append(f"{root}:unreadable")
        return
    for e in entries:
        if e.path == skip:
            continue
        try:
            folder = e.is_dir(follow_symlinks=True)
        except OSError:  # a link that cannot be followed (a loop of links, no permission)
            out.append(f"{e.path}:unreadable")
            continue
        if folder:
            if e.name not in SKIP_DIRS:
                _walk(e.path, skip, out, seen)
        else:
            try:
                s = e.stat(follow_symlinks=True)
                out.append(f"{e.path}:{s.st_size}:{s.st_mtime_ns}")
            except OSError:
                out.append(f"{e.path}:missing")


def fingerprint(roots: Iterable[str], skip: str = "") -> str:
    """A digest of every file under `roots` (paths, sizes, modification times), `skip` (a folder) aside."""
    lines: list[str] = []
    for r in roots:
        _walk(r, skip, lines)
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()


class Snapshot:
    """The inputs of a piece of work, fingerprinted before it starts: `roots`, `skip` and `digest`."""

    __slots__ = ("roots", "skip", "digest")

    def __init__(self, roots: tuple[str, ...], skip: str, digest: str):
        self.roots, self.skip, self.digest = roots, skip, digest


def snapshot(roots: Iterable[Path | str], skip: Path | str = "") -> Snapshot:
    unique = tuple(dict.fromkeys(os.path.abspath(r) for r in roots))
    skip = os.path.abspath(skip) if skip else ""
    return Snapshot(unique, skip, fingerprint(unique, skip))


def library_files() -> list[str]:
    """The `__init__` files of the libraries whose upgrade may change an output (found without importing them;
    where a library lives does not change while a process runs, its files do: the stamps stat them)."""
    global _LIBRARY_FILES
    if _LIBRARY_FILES is None:
        _LIBRARY_FILES = _find_library_files()
    return list(_LIBRARY_FILES)


_LIBRARY_FILES: list[str] | None = None


def _find_library_files() -> list[str]:
    from importlib.util import find_spec

    files = []
    for name in LIBRARIES:
        try:
            spec = find_spec(name)
        except (ImportError, ValueError):
            spec = None
        files.append(spec.origin if spec is not None and spec.origin else f"<no {name}>")
    return files


def key_of(*parts: Any) -> str:
    """A digest of plain data (options and the like), with cardsmith's and Python's versions."""
    from cardsmith import __version__

    blob = json.dumps([STAMP_VERSION, __version__, sys.version, sys.executable, parts], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


class Stamp:
    """One command's record of its inputs and outputs (see the module's docstring)."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def _read(self) -> dict[str, Any] | None:
        if off():  # caches off: no stamp is read, so nothing is skipped
            return None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("v") == STAMP_VERSION else None

    def fresh(self, key: str) -> dict[str, Any] | None:
        """The data recorded with `key`, if nothing read or written since has changed; else None."""
        entry = self._read()
        if entry is None or entry.get("key") != key:
            return None
        outputs = entry.get("outputs")
        if not isinstance(outputs, dict) or any(_stat_pair(p) != s for p, s in outputs.items()):
            return None
        roots = entry.get("roots")
        if not isinstance(roots, list) or fingerprint(roots, entry.get("skip") or "") != entry.get("fingerprint"):
            return None
        data = entry.get("data")
        return data if isinstance(data, dict) else None

    def record(self, key: str, inputs: Snapshot, outputs: Iterable[Path | str], data: dict[str, Any]) -> bool:
        """Keep `data` as the answer for `key` while `inputs` and `outputs` stay as they are now; whether
        it is kept (never with caches off)."""
        if off():
            return False
        entry = {"v": STAMP_VERSION, "key": key, "roots": list(inputs.roots), "skip": inputs.skip,
                 "fingerprint": inputs.digest, "data": data}
        outs = {}
        for p in outputs:
            pair = _stat_pair(p)
            if pair is None:  # an output that is not there cannot be vouched for
                self.forget()
                return False
            outs[os.path.abspath(p)] = pair
        entry["outputs"] = outs
        from cardsmith.base.atomic import write_text

        try:
            write_text(self.path, json.dumps(entry, sort_keys=True))
        except Exception:  # a stamp that cannot be written only costs time next run
            return False
        return True

    def forget(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass


# ---- the roots and stamps of a set ----------------------------------------------------------------

def stamp_for(project: Any, set_dir: Path | str, what: str) -> Stamp:
    """The stamp of `what` (render, pdf-<name>, set) for the set in `set_dir`, under output/.cache/."""
    tag = hashlib.sha1(os.path.abspath(set_dir).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in what)
    return Stamp(Path(project.output_dir) / CACHE_DIR / f"{tag}-{safe}.json")


def set_roots(project: Any, set_dir: Path | str, extra: Iterable[Path | str] = ()) -> list[str]:
    """Everything a set's images and PDFs can be made from (see the module's docstring)."""
    roots: list[Path | str] = [set_dir, *project.template_dirs, *project.set_roots, *project.font_dirs, PACKAGE_DIR]
    roots += [*extra, *library_files()]
    return [os.path.abspath(r) for r in roots]


def snapshot_set(project: Any, set_dir: Path | str, extra: Iterable[Path | str] = ()) -> Snapshot:
    return snapshot(set_roots(project, set_dir, extra), skip=project.output_dir)


def covered(inputs: Snapshot, paths: Iterable[Path | str]) -> bool:
    """Whether every path lies under one of the snapshot's roots (else a stamp could miss its changes)."""
    roots = [Path(r) for r in inputs.roots]
    for p in paths:
        ap = Path(os.path.abspath(p))
        if not any(ap == r or r in ap.parents for r in roots):
            return False
    return True


# ---- rendered images ------------------------------------------------------------------------------

def render_key(dpi: int, fmt: str, guides: bool) -> str:
    return key_of("render", int(dpi), str(fmt).lower().replace("jpeg", "jpg"), bool(guides))


def last_render(project: Any, set_dir: Path | str, dpi: int = 300, fmt: str = "png", guides: bool = False) -> dict[str, Any] | None:
    """What the last `render` of the set left (counts, out_dir, diagnostics as dicts), if nothing it was
    made from has changed and its images are as it wrote them; else None."""
    return stamp_for(project, set_dir, "render").fresh(render_key(dpi, fmt, guides))


def record_render(project: Any, inputs: Snapshot, cardset: Any, result: Any, *, dpi: int, fmt: str, guides: bool,
                  strict: bool, layout_dirs: Iterable[Path | str]) -> bool:
    """Keep the outcome of a whole-set `render_set` for `last_render` (not one with errors, and not one that
    read files outside the snapshot's roots, whose changes a stamp would not see); whether it is kept."""
    stamp = stamp_for(project, cardset.path, "render")
    read = [*layout_dirs, *(Path(cardset.path) / c.art for c in cardset.cards if c.art),
            *(Path(cardset.path) / p for p in cardset.icons.values())]
    if result.errors or not covered(inputs, read):
        stamp.forget()
        return False
    manifest = getattr(result, "manifest_data", None) or _read_json(Path(result.out_dir) / "cards" / "manifest.json")
    files = manifest_outputs(result.out_dir, manifest)
    if not files:
        stamp.forget()
        return False
    data = {"set_id": cardset.id, "out_dir": str(result.out_dir), "cards": len(result.rendered) + len(result.skipped),
            "backs": len(result.backs_rendered) + len(result.backs_skipped), "strict": bool(strict),
            "diagnostics": [diagnostic_dict(d) for d in result.diagnostics]}
    return stamp.record(render_key(dpi, fmt, guides), inputs, files, data)


def load_manifest(out_dir: Path | str) -> dict[str, Any]:
    """Read `output/<set>/cards/manifest.json` (file paths in it are relative to `out_dir`)."""
    path = Path(out_dir) / "cards" / "manifest.json"
    data = read_manifest(path, "the set has not been rendered", "cardsmith render", "cardsmith render --force")
    if not isinstance(data, dict) or "cards" not in data:
        raise CardsmithError(f"{path} is not a render manifest", hint="run `cardsmith render --force` to rewrite it")
    return data


def read_manifest(path: Path, missing: str, make: str, remake: str) -> Any:
    """A manifest a command wrote (JSON), or a CardsmithError saying which command makes it (`make`)
    or makes it again (`remake`)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CardsmithError(f"{path} does not exist: {missing}", hint=f"run `{make}` first") from None
    except (OSError, ValueError) as e:
        raise CardsmithError(f"{path} cannot be read ({e})", hint=f"run `{remake}` to rewrite it") from None


def manifest_outputs(out_dir: Path | str, manifest: Any = None) -> list[str]:
    """A render's manifest and every image it lists, as absolute paths ([] when the manifest cannot be
    read); `manifest`: its content, if the caller has read it. (Strings: a few hundred `Path`s cost more
    than the stat calls made on them.)"""
    base = os.path.abspath(out_dir)
    path = os.path.join(base, "cards", "manifest.json")
    try:
        manifest = _read_json(Path(path)) if manifest is None else manifest
        return [path, *(os.path.join(base, info["file"]) for section in ("cards", "backs")
                        for info in (manifest.get(section) or {}).values())]
    except (TypeError, KeyError, AttributeError):
        return []


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def diagnostic_dict(d: Any) -> dict[str, Any]:
    return {"severity": d.severity, "file": str(d.file) if d.file is not None else None, "line": d.line,
            "column": d.column, "message": d.message, "hint": d.hint, "path": d.path}


def diagnostics_from(items: Iterable[dict[str, Any]]) -> list[Any]:
    from cardsmith.base.diagnostics import Diagnostic

    return [Diagnostic(i["severity"], Path(i["file"]) if i.get("file") else None, i["line"], i["column"], i["message"],
                       i.get("hint"), i.get("path") or "") for i in items]
