"""Compare a set with an earlier build of it: which cards were added, removed or changed.

The earlier build is either a folder (a copy of `output/<set>/` from before, or an output folder that
holds it) or a git revision; for a revision the set, its layouts and fonts are taken from git into a
scratch folder and rendered with today's cardsmith, so the difference is in the cards, not in the tool.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from PIL import ImageChops, ImageStat

from cardsmith.base.errors import CardsmithError
from cardsmith.share.data import card_record
from cardsmith.share.images import MANIFEST, RenderedSet, fit_width, read_manifest, rendered, trimmed
from cardsmith.share.gallery import GALLERY_JSON, Change, Comparison
from cardsmith.sets.model import CardSet
from cardsmith.base.project import Project

IGNORED = {"type_name", "group_name", "art"}  # derived or path-only keys; the art shows in the image


@dataclass
class EarlierBuild:
    label: str
    rendered: RenderedSet
    records: dict[str, dict[str, Any]] | None  # card records, when the earlier build kept them


def _records_in(out_dir: Path) -> dict[str, dict[str, Any]] | None:
    try:
        records = json.loads((out_dir / "gallery" / GALLERY_JSON).read_text(encoding="utf-8"))["records"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    # an earlier build handed over by someone else: records of any other shape are as good as none
    ok = isinstance(records, dict) and all(isinstance(r, dict) for r in records.values())
    return records if ok else None


def _git(root: Path, *args: str, binary: bool = False) -> Any:
    try:
        proc = subprocess.run(["git", *args], cwd=root, capture_output=True, check=False, timeout=120)
    except FileNotFoundError:
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout if binary else proc.stdout.decode("utf-8", "replace").strip()


@contextlib.contextmanager
def set_at_revision(project: Project, cardset: CardSet, spec: str) -> Iterator[tuple[str, Project, CardSet]]:
    """The set (with the project's templates and fonts) as it was at git revision `spec`, exported
    into a scratch folder that lives until the block ends: (label, that project, the old set)."""
    top = _git(project.root, "rev-parse", "--show-toplevel")
    commit = _git(project.root, "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}") if top else None
    if not commit:
        raise CardsmithError(f"'{spec}' is neither a folder nor a git revision" + ("" if top else " (this project is not in a git repository)"),
                             hint="give a folder of an earlier build (a copy of output/<set>/) or a revision such as HEAD~1 or v1.0")
    top_path = Path(top).resolve()
    set_dir = Path(cardset.path).resolve()
    try:
        set_rel = set_dir.relative_to(top_path)
    except ValueError:
        raise CardsmithError(f"the set folder {set_dir} is not inside the git repository {top_path}") from None
    wanted = [set_rel]
    for folder in (project.root / "templates", project.root / "fonts"):
        with contextlib.suppress(ValueError):
            wanted.append(folder.resolve().relative_to(top_path))
    present = [p for p in wanted if _git(top_path, "cat-file", "-e", f"{commit}:{p.as_posix()}") is not None]
    if set_rel not in present:
        raise CardsmithError(f"the set {cardset.id} does not exist at {spec} ({set_rel.as_posix()} is not in that revision)",
                             hint="pick a later revision, or compare with a folder of an earlier build")
    archive = _git(top_path, "archive", "--format=tar", commit, "--", *[p.as_posix() for p in present], binary=True)
    if archive is None:
        raise CardsmithError(f"git could not export {set_rel.as_posix()} at {spec}")
    with tempfile.TemporaryDirectory(prefix="cardsmith-compare-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        root = Path(tmp) / project.root.resolve().relative_to(top_path) if project.root.resolve() != top_path else Path(tmp)
        from cardsmith.sets.validate import SetInvalid, load_set

        try:
            old_set = load_set(Path(tmp) / set_rel)
        except SetInvalid as e:
            first = "; ".join(d.message for d in getattr(e, "diagnostics", [])[:3])
            raise CardsmithError(f"the set at {spec} does not validate, so it cannot be compared: {first}",
                                 hint="compare with another revision") from None
        yield f"git {spec} ({commit[:10]})", Project(root), old_set


@contextlib.contextmanager
def earlier_build(project: Project, cardset: CardSet, spec: str) -> Iterator[EarlierBuild]:
    """The earlier build named by `spec` (a folder or a git revision); scratch files live until the block ends."""
    given = Path(spec).expanduser()
    if given.is_dir():
        for folder in (given, given / cardset.id, given / "output" / cardset.id):
            if (folder / MANIFEST).is_file():
                yield EarlierBuild(str(spec), read_manifest(folder), _records_in(folder))
                return
        raise CardsmithError(f"{given} holds no earlier build of {cardset.id} (no cards/manifest.json in it, in "
                             f"{given / cardset.id} or in {given / 'output' / cardset.id})",
                             hint="give a copy of output/<set>/ from an earlier build, or a git revision such as HEAD~1")
    with set_at_revision(project, cardset, spec) as (label, old_project, old_set):
        try:
            rs = rendered(old_project, old_set)
        except CardsmithError as e:
            raise CardsmithError(f"the set as it was at {spec} cannot be drawn with today's layouts: {e.message}",
                                 hint="compare with a later revision, or with a folder of a build made back then") from None
        yield EarlierBuild(label, rs, {c.id: card_record(c, old_set) for c in old_set.cards})


def _flat(record: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in record.items() if k not in IGNORED and k != "fields"}
    out.update(record.get("fields") or {})
    return out


def _short(value: Any) -> str:
    text = ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else "-" if value in (None, "") else str(value)
    return text if len(text) <= 30 else text[:28] + "..."


def record_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two card records, for people ("attack 2 -> 3", "text")."""
    a, b = _flat(old), _flat(new)
    out = []
    for key in list(dict.fromkeys([*a, *b])):
        if a.get(key) != b.get(key):
            if key in ("text", "flavor"):
                out.append(f"{key} changed")
            else:
                out.append(f"{key}: {_short(a.get(key))} -> {_short(b.get(key))}")
    return out


def images_differ(a: Path, rs_a: RenderedSet, b: Path, rs_b: RenderedSet) -> bool:
    """True when two card images look different (compared small, so a changed dpi alone is no change)."""
    x, y = fit_width(trimmed(a, rs_a), 200), fit_width(trimmed(b, rs_b), 200)
    if x.size != y.size:
        return True
    diff = ImageChops.difference(x, y)
    # trimmed() gives RGB images, so getextrema() is one (min, max) pair per band.
    return max(ImageStat.Stat(diff).mean) > 0.5 or (
        diff.getbbox() is not None and max(band[1] for band in diff.getextrema() if isinstance(band, tuple)) > 64)


def compare(cardset: CardSet, rs: RenderedSet, old: EarlierBuild) -> Comparison:
    """Each card of the set and of the earlier build, marked added, removed, changed or same."""
    result = Comparison(old.label, old_rendered=old.rendered)
    current = {c.id for c in cardset.cards}
    for card in cardset.cards:
        before = old.rendered.cards.get(card.id)
        if before is None or not before.file.is_file():
            result.changes[card.id] = Change("added")
            continue
        what = []
        if old.records is not None and card.id in old.records:
            what = record_changes(old.records[card.id], card_record(card, cardset))
        if images_differ(before.file, old.rendered, rs.cards[card.id].file, rs):
            what.append("image")
        result.changes[card.id] = Change("changed" if what else "same", before.file, None, what)
    for cid, before in old.rendered.cards.items():
        if cid in current or not before.file.is_file():
            continue
        record = (old.records or {}).get(cid) or {
            "id": cid, "name": before.name, "type": before.type, "race": None, "faction": None, "copies": 1,
            "keywords": [], "text": "", "flavor": "", "tags": [], "fields": {}}
        result.changes[cid] = Change("removed", before.file, record)
    return result
