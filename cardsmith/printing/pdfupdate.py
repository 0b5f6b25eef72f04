"""`cardsmith pdf` after `cardsmith render` changed some card images: the PDF brought up to date by
appending them, without loading the set or laying out pages, and without click where `cardsmith.cli._quick`
answers the command line (the record of its last run names the stamp to check).

It holds when the last render is current and error-free (its stamp vouches that the images were
drawn from the files as they are now), what the pages are laid out from (`freshness.print_digest`)
is what it was when this command line last wrote the PDF, and the PDF is still that file, with those
pages (`pdfcache.PdfStamp`). Anything else is the usual path of the command.
"""

from __future__ import annotations

from pathlib import Path

TYPE_CHECKING = False  # typing is not imported at run time: this module is on the path of `cardsmith.cli._quick`
if TYPE_CHECKING:
    from typing import Any, Iterable

    from cardsmith.base.project import Project

UP_TO_DATE = "{path} is up to date (nothing it is made from changed)"


def said(path: Path, written: bool, notes: "tuple[str, ...] | list[str]") -> list[str]:
    """What `cardsmith pdf` prints: the PDF written or up to date, and the notes for the person printing it."""
    return [f"wrote {path}" if written else UP_TO_DATE.format(path=path), *(f"note: {note}" for note in notes)]


def remember_pdf(path: Path, notes: "tuple[str, ...] | list[str]", vouched: "tuple[Path, str]", set_name: str,
                 set_dir: Path) -> None:
    """Let `cardsmith.cli._quick` answer this command line next time: the same words while `vouched` (stamp,
    key) is fresh, else `append_rendered` with that stamp and key."""
    from cardsmith.cli import _quick as quick

    lines = said(path, False, notes)
    quick.remember([vouched], [("out", line, None) for line in lines], [set_name], [set_dir],
                   then={"do": "pdf-append", "stamp": str(vouched[0]), "key": vouched[1], "set_dir": str(set_dir)})


def answer(then: "dict[str, Any]", sets: "list[str]", dirs: "list[str]") -> bool:
    """`cardsmith.cli._quick`'s second try for a `pdf` command line whose record is stale: append what render
    changed and print what the command prints; False (nothing printed) when the command must run."""
    import sys

    from cardsmith.cache.freshness import Stamp, snapshot_set
    from cardsmith.base.project import Project

    project = Project.current()
    set_dir = Path(then["set_dir"])
    stamp, key = Stamp(Path(then["stamp"])), str(then["key"])
    got = append_rendered(project, set_dir, stamp, key, snapshot_set(project, set_dir))
    if got is None:
        return False
    path, written, notes, vouched = got
    sys.stdout.write("".join(line + "\n" for line in said(path, written, notes)))
    sys.stdout.flush()
    if vouched is not None and len(sets) == 1:
        remember_pdf(path, notes, vouched, sets[0], set_dir)
    return True


def append_rendered(project: Project, set_dir: Path, stamp: Any, key: str,
                     inputs: Any) -> tuple[Path, bool, list[str], tuple[Path, str] | None] | None:
    """The PDF of the command line whose pdf stamp is `stamp` (with `key`) brought up to date by appending
    the images render changed (see the module's docstring): (path, written, notes, vouched), or None
    when the PDF must be made the usual way. `inputs`: the set's snapshot, taken before anything is read."""
    from cardsmith.cache import freshness

    before = stamp.recorded(key)
    if not before or not before.get("print") or not before.get("layout"):
        return None
    last = freshness.last_render(project, set_dir)
    if last is None or last.get("print") != before["print"] or any(d["severity"] == "error" for d in last["diagnostics"]):
        return None
    out_dir = Path(last["out_dir"])
    if out_dir != project.set_output(last["set_id"]):
        return None
    from cardsmith.printing.pdfcache import PdfStamp

    target = Path(before["path"])
    pdfs = PdfStamp(out_dir)
    entry = pdfs.entry(target)
    if entry is None or entry.get("layout") != before["layout"] or not isinstance(entry.get("placed"), dict):
        return None
    manifest = freshness.load_manifest(out_dir)
    shas = image_shas(entry["placed"], manifest, out_dir, verified=True)  # render's stamp checked every image above
    if shas is None:
        return None
    images = {k: k for k in shas}  # file names: a Path per image would cost more than its stat
    new_key = pdfs.key({"layout": before["layout"], "images": shas})
    written = not pdfs.current(target, new_key)
    if written and not pdfs.update(target, before["layout"], new_key, images, shas):
        return None
    recorded = stamp.record(key, inputs, [target, *freshness.manifest_outputs(out_dir, manifest)], before)
    return target, written, list(before.get("notes") or []), (stamp.path, key) if recorded else None


def image_shas(keys: "Iterable[str]", manifest: "dict[str, Any]", out_dir: Path,
               verified: bool = False) -> "dict[str, str] | None":
    """The SHA-1 of each image file in `keys` (as the render manifest has it while the file is as it was
    drawn, see `pdfcache.ImageDigests`; `verified`: known to be so); None if one cannot be read."""
    from cardsmith.printing.pdfcache import ImageDigests

    digests = ImageDigests(manifest, out_dir, verified)
    try:
        return {key: digests.digest(key) for key in keys}
    except OSError:
        return None
