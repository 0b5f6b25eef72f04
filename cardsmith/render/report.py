"""What a render reports: its result, each face's problems as diagnostics in set order, and the
manifest (`cards/manifest.json`, the contract read by the pdf and share stages)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsmith.base.atomic import write_text
from cardsmith.base.diagnostics import Diagnostic
from cardsmith.base.errors import CardsmithError
from cardsmith.cache.freshness import load_manifest
from cardsmith.layout.faces import back_specs, card_back
from cardsmith.layout.printcheck import HINTS as PRINT_HINTS, PRINT_KINDS
from cardsmith.render.draw import Outcome
from cardsmith.render.plan import Face, set_file
from cardsmith.sets.model import CardSet

STRICT_KINDS = ("overflow", "safe-area", *PRINT_KINDS)  # what --strict makes an error: the print rules
NOTE_HINTS = {"overflow": "shorten the text, enlarge the box, or lower min_size in the layout",
              "safe-area": "move it inside the safe area (the dashed line of --guides) or give the layer `safe: false`",
              "missing-art": "add the file, or fix the card's art: path", **PRINT_HINTS}


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

    def count(self, faces: list[Face], outcomes: dict[str, Outcome], reused: set[str]) -> None:
        """Sort the faces drawn without error into drawn (`rendered`) and unchanged (`skipped`)."""
        for f in faces:
            o = outcomes.get(f.key)
            if o is None or o.error:
                continue
            fresh = f.key not in reused
            if f.kind == "card":
                (self.rendered if fresh else self.skipped).append(f.id)
            else:
                (self.backs_rendered if fresh else self.backs_skipped).append(f.id)


def face_diagnostics(cardset: CardSet, faces: list[Face], outcomes: dict[str, Outcome], strict: bool) -> list[Diagnostic]:
    """Each face's error or notes (print rules, overflow, missing art), in set order, at the card's place."""
    diags: list[Diagnostic] = []
    by_id = cardset.by_id()
    for f in faces:
        o = outcomes.get(f.key)
        if o is None or not (o.error or o.notes):
            continue
        src = by_id[f.id].source if f.kind == "card" else None
        file = Path(src.file) if src else set_file(cardset)
        line, col = (src.line, src.column) if src else (1, 1)
        who = f"card '{f.id}'" if f.kind == "card" else f"back '{f.id}'"
        if o.error:
            diags.append(Diagnostic("error", file, line, col, f"{who}: {o.error}", o.hint, f.id))
            continue
        for kind, message, layer, amount in o.notes:
            sev = "error" if strict and kind in STRICT_KINDS else "warning"
            diags.append(Diagnostic(sev, file, line, col, f"{who}: {message} ({layer}, layout '{f.layout}')",
                                    NOTE_HINTS.get(kind), f.id))
    return diags


def files_in(*folders: Path) -> set[str]:
    """The paths of the files in `folders` (not below them), from one listing each."""
    found: set[str] = set()
    for folder in folders:
        try:
            with os.scandir(folder) as entries:
                found.update(e.path for e in entries if e.is_file())
        except OSError:
            pass
    return found


def write_manifest(out_dir: Path, cardset: CardSet, faces: list[Face], outcomes: dict[str, Outcome],
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
    images = files_in(out_dir / "cards", out_dir / "backs")
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
    reading it (see cache.pdfstamps, which hashes the file instead when its size or mtime no longer match)."""
    if outcome is not None and not outcome.error and outcome.digest and outcome.stat:
        return {"sha1": outcome.digest, "bytes": outcome.stat[0], "mtime_ns": outcome.stat[1]}
    if isinstance(old, dict) and old.get("sha1"):
        return {k: old[k] for k in ("sha1", "bytes", "mtime_ns") if k in old}
    return {}


