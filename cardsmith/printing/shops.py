"""Print-shop profiles (YAML data) and exporting a set the way a shop asks for it.

A profile says what a shop wants: one image per card face at an exact pixel size (with bleed), or
one PDF per deck; file format, colour mode, file names, the order of backs and fronts, and whether
copies are separate files/pages or quantities in an order list. cardsmith ships profiles for
MakePlayingCards, PrinterStudio, The Game Crafter and DriveThruCards in this folder; a project adds
its own as `printshops/<name>.yaml` at the project root (the project's win over the shipped ones).
After writing, the export checks its own files against the profile.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import string
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardsmith.base.diagnostics import did_you_mean
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.base.untrusted import csv_cell
from cardsmith.base.limits import MAX_BLEED_MM, MAX_CARD_MM
from cardsmith.sets.loader import YamlError, load_yaml
from cardsmith.sets.model import CardSet, Deck, slugify

SHIPPED_DIR = Path(__file__).resolve().parent / "shop_profiles"
KINDS = ("images", "pdf")
FORMATS = {"png": "PNG", "jpg": "JPEG"}
COLOURS = {"rgb": "RGB", "cmyk": "CMYK"}
SIZE_TOLERANCE_MM = 1.5  # a 63 x 88 mm set still prints on a shop's 63.5 x 88.9 mm poker cards


@dataclass(frozen=True)
class ShopSize:
    name: str
    trim_mm: tuple[float, float]
    pixels: tuple[int, int] | None = None  # images: whole file, trim plus bleed
    bleed_mm: float | None = None  # pdf: bleed around the trim on each page
    safe_px: tuple[int, int] | None = None


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    path: Path
    kind: str
    dpi: int
    sizes: tuple[ShopSize, ...]
    format: str = "png"
    color: str = "rgb"
    files: Mapping[str, str] = field(default_factory=dict)
    order: str = "front-back"
    copies: str = "list"
    pdf_standard: str | None = None
    notes: str = ""

    def size_for(self, trim_mm: Sequence[float]) -> ShopSize:
        """The shop size matching a set's trim (within a millimetre or so), or a clear error."""
        for s in self.sizes:
            if all(abs(a - b) <= SIZE_TOLERANCE_MM for a, b in zip(s.trim_mm, trim_mm)):
                return s
        offered = ", ".join(f"{s.name} {s.trim_mm[0]:g} x {s.trim_mm[1]:g} mm" for s in self.sizes)
        raise CardsmithError(
            f"{self.name} has no card size for {trim_mm[0]:g} x {trim_mm[1]:g} mm cards (profile {self.path})",
            hint=f"sizes in this profile: {offered}; add yours to a copy of the profile in printshops/",
        )


def profile_dirs(project_root: Path | None) -> list[Path]:
    """Where profiles are looked up: the project's `printshops/` first, then the shipped ones."""
    dirs = [Path(project_root) / "printshops"] if project_root is not None else []
    return dirs + [SHIPPED_DIR]


def list_profiles(project_root: Path | None = None) -> dict[str, Path]:
    """Every profile by id (file stem), a project's own shadowing a shipped one of the same name."""
    found: dict[str, Path] = {}
    for d in reversed(profile_dirs(project_root)):
        if d.is_dir():
            for p in sorted(d.glob("*.yaml")):
                found[p.stem] = p
    return dict(sorted(found.items()))


def load_profile(name: str, project_root: Path | None = None) -> Profile:
    """The profile named `name` (or the YAML file at that path), validated with file:line errors."""
    given = Path(name)
    if given.suffix in (".yaml", ".yml") and given.is_file():
        return read_profile(given)
    known = list_profiles(project_root)
    key = name.lower()
    if key not in known:
        guess = did_you_mean(key, known)
        raise UsageError(f"no print-shop profile '{name}'",
                         hint=(f"{guess} " if guess else "") + f"profiles: {', '.join(known)} "
                         "(add your own as printshops/<name>.yaml in the project)")
    return read_profile(known[key])


def read_profile(path: Path) -> Profile:
    doc = load_yaml(path)
    data = doc.data

    def fail(where: tuple, message: str, hint: str) -> YamlError:
        line, col = doc.position(where)
        return YamlError(path, line, col, message, hint)

    if not isinstance(data, dict):
        raise fail((), "a print-shop profile must be a mapping", "see docs/printing.md for the keys")
    allowed = {"name", "kind", "dpi", "format", "color", "sizes", "files", "order", "copies", "pdf_standard", "notes"}
    for key in data:
        if key not in allowed:
            raise fail((key,), f"unknown key '{key}' in a print-shop profile",
                       f"keys: {', '.join(sorted(allowed))}")

    def choice(key: str, options: Sequence[str], default: str | None = None) -> str:
        value = data.get(key, default)
        if value not in options:
            raise fail((key,), f"'{key}' must be one of {', '.join(options)}, not {value!r}",
                       f"write e.g. {key}: {options[0]}")
        return str(value)

    kind = choice("kind", KINDS)
    dpi = data.get("dpi", 300)
    if not isinstance(dpi, int) or not 72 <= dpi <= 1200:
        raise fail(("dpi",), f"dpi must be a whole number from 72 to 1200, not {dpi!r}", "shops usually ask for 300")
    sizes_raw = data.get("sizes")
    if not isinstance(sizes_raw, dict) or not sizes_raw:
        raise fail(("sizes",), "a profile needs `sizes:` (card size name -> trim_mm and pixels or bleed_mm)",
                   "e.g. sizes: {poker: {trim_mm: [63.5, 88.9], pixels: [822, 1122]}}")
    sizes = []
    for sname, s in sizes_raw.items():
        where = ("sizes", sname)
        if not isinstance(s, dict):
            raise fail(where, f"size '{sname}' must be a mapping", "e.g. {trim_mm: [63.5, 88.9], pixels: [822, 1122]}")
        trim = _pair(s.get("trim_mm"), float)
        if trim is None or not all(0 < t <= MAX_CARD_MM for t in trim):
            raise fail(where + ("trim_mm",), f"size '{sname}' needs trim_mm: [width, height] in mm (at most {MAX_CARD_MM:g})",
                       "e.g. trim_mm: [63.5, 88.9]")
        pixels = _pair(s.get("pixels"), int) if "pixels" in s else None
        if kind == "images":
            if pixels is None:
                raise fail(where, f"size '{sname}' needs pixels: [width, height] (whole image, with bleed)",
                           "e.g. pixels: [822, 1122]")
            trim_px = [t / 25.4 * dpi for t in trim]
            if any(p < t for p, t in zip(pixels, trim_px)):
                raise fail(where + ("pixels",), f"pixels {pixels} are smaller than the trim at {dpi} dpi",
                           "pixels is the whole file: trim plus bleed on every side")
            most = [round((t + 2 * MAX_BLEED_MM) / 25.4 * dpi) for t in trim]
            if any(p > m for p, m in zip(pixels, most)):
                raise fail(where + ("pixels",), f"pixels {pixels} are larger than the trim plus {MAX_BLEED_MM:g} mm of bleed "
                           f"a side at {dpi} dpi (at most {most[0]} x {most[1]})",
                           "pixels is the whole file at the profile's dpi: check for a digit too many")
        bleed = s.get("bleed_mm")
        if kind == "pdf" and (not isinstance(bleed, (int, float)) or not 0 <= bleed <= MAX_BLEED_MM):
            raise fail(where, f"size '{sname}' needs bleed_mm (the bleed on each side of a PDF page)", "e.g. bleed_mm: 3.175")
        safe = _pair(s.get("safe_px"), int) if "safe_px" in s else None
        sizes.append(ShopSize(str(sname), trim, pixels, float(bleed) if bleed is not None else None, safe))
    files = data.get("files", {}) or {}
    if not isinstance(files, dict):
        raise fail(("files",), "files must map front/back/pdf to a name pattern", 'e.g. front: "{n:03d}-{card}.{ext}"')
    defaults = {"front": "{n:03d}-{card}.{ext}", "back": "back-{back}.{ext}", "pdf": "{set}-{shop}.pdf"}
    files = {**defaults, **files}
    for k, pattern in files.items():
        _check_pattern(fail, k, pattern)
    return Profile(
        id=path.stem, name=str(data.get("name", path.stem)), path=path, kind=kind, dpi=dpi, sizes=tuple(sizes),
        format=choice("format", list(FORMATS), "png") if kind == "images" else "pdf",
        color=choice("color", list(COLOURS), "rgb"), files=files,
        order=choice("order", ["front-back", "back-front"], "front-back"),
        copies=choice("copies", ["list", "expand"], "list"),
        pdf_standard=data.get("pdf_standard"), notes=str(data.get("notes", "")).strip(),
    )


def _check_pattern(fail: Callable[[tuple, str, str], YamlError], key: str, pattern: Any) -> None:
    """A file name pattern makes a plain file name of reasonable length (a shared profile must not
    write outside the export folder, nor ask for a field a billion characters wide)."""
    fields = "fields: {n} {card} {back} {ext} {set} {shop} {copy}"
    try:
        widths = [int(w) for _, _, spec, _ in string.Formatter().parse(str(pattern)) if spec
                  for w in re.findall(r"\d+", spec)]
        if any(w > 64 for w in widths):
            raise fail(("files", key), f"file name pattern {pattern!r} asks for a field too wide ({max(widths)} characters)",
                       "widths such as {n:03d} are fine; " + fields)
        name = str(pattern).format(n=1, card="c", back="b", ext="png", set="s", shop="x", copy=1)
    except (KeyError, ValueError, IndexError, AttributeError) as e:
        raise fail(("files", key), f"bad file name pattern {pattern!r}: {e}", fields) from None
    if not name or "/" in name or "\\" in name or name.startswith(".") or len(name) > 200:
        raise fail(("files", key), f"file name pattern {pattern!r} must make a file name, not a path",
                   "the files go into output/<set>/shops/<shop>/; write e.g. \"{n:03d}-{card}.{ext}\"")


def _pair(value: Any, kind: type) -> tuple | None:
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return None
    if kind is int and not all(isinstance(v, int) for v in value):
        return None
    return (kind(value[0]), kind(value[1]))


# ---------------------------------------------------------------------------- export

@dataclass
class ShopExport:
    """What an export wrote, and what the user must know (e.g. that a file is only a proof)."""

    shop: Profile
    folder: Path
    files: list[Path]
    warnings: list[str]
    cards: int  # printed cards, copies counted


def export_for_shop(project: Any, cardset: CardSet, shop: str | Profile, *, deck: Deck | None = None,
                    manifest: Mapping[str, Any] | None = None, out: Path | None = None) -> ShopExport:
    """Write `output/<set>/shops/<shop>/` the way the shop asks, then check it against the profile.

    The folder is built beside its final place and swapped in whole, so a failed export leaves the
    previous one (or nothing) behind, never a mixture.
    """
    from cardsmith.printing import pdf

    profile = shop if isinstance(shop, Profile) else load_profile(shop, project.root)
    if manifest is None:
        manifest = pdf.ensure_rendered(project, cardset, dpi=max(300, profile.dpi))
    out_dir = project.set_output(cardset.id)
    items = pdf.select_items(cardset, manifest, out_dir, deck=deck)
    size = profile.size_for(manifest["trim_mm"])
    folder = Path(out) if out is not None else out_dir / "shops" / (profile.id if deck is None else f"{profile.id}-{slugify(Path(str(deck.name)).stem)}")
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's folder is private; the export is meant to be shared
    try:
        if profile.kind == "images":
            files, warnings, expected = _export_images(profile, size, cardset, manifest, items, tmp)
        else:
            files, warnings, expected = _export_pdf(profile, size, cardset, manifest, items, tmp)
        problems = check_export(profile, size, [tmp / f.name for f in files], expected)
        if problems:
            raise CardsmithError(f"the {profile.name} export does not meet its profile:\n  " + "\n  ".join(problems),
                                 hint="this is a bug in cardsmith or in the profile; please report it")
        _replace_dir(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ShopExport(profile, folder, [folder / f.name for f in files], warnings, len(items))


def _replace_dir(new: Path, target: Path) -> None:
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "card"


def _export_images(profile: Profile, size: ShopSize, cardset: CardSet, manifest: Mapping[str, Any],
                   items: Sequence[Any], folder: Path) -> tuple[list[Path], list[str], int]:
    ext = "jpg" if profile.format == "jpg" else "png"
    warnings: list[str] = []
    if size.safe_px and manifest.get("safe_mm") is not None:
        # The shop's safe line, as a margin inside its trim; the set's safe margin should be at least that.
        shop_safe = max((t / 25.4 * profile.dpi - s) / 2 / profile.dpi * 25.4 for t, s in zip(size.trim_mm, size.safe_px))
        if float(manifest["safe_mm"]) + 0.05 < shop_safe:
            warnings.append(f"the set's safe margin ({float(manifest['safe_mm']):.2f} mm) is smaller than {profile.name}'s "
                            f"({shop_safe:.2f} mm): text near the edges may be cut; raise `safe:` in set.yaml")
    trim_px = (manifest["trim_mm"][0] / 25.4 * manifest.get("dpi", 300), manifest["trim_mm"][1] / 25.4 * manifest.get("dpi", 300))
    bleed_px = manifest["bleed_mm"] / 25.4 * manifest.get("dpi", 300)
    written: list[Path] = []
    rows: list[list[str]] = []
    backs_done: dict[Path, str] = {}
    counts: dict[tuple[str, Path, Path | None], int] = {}
    order: list[tuple[str, Path, Path | None]] = []
    for it in items:
        key = (it.card_id, it.front, it.back)
        if key not in counts:
            order.append(key)
            counts[key] = 0
        counts[key] += 1
    expand = profile.copies == "expand"
    n = 0
    names = {c.id: c.name for c in cardset.cards}
    for card_id, front, back in order:
        back_name = ""
        if back is not None:
            if back not in backs_done:
                back_id = _safe_name(back.stem)
                name = profile.files["back"].format(back=back_id, ext=ext, set=cardset.id, shop=profile.id, n=0, card="", copy=1)
                _save_face(profile, size, front_or_back=back, target=folder / name, trim_px=trim_px,
                           bleed_px=bleed_px, warnings=warnings)
                written.append(folder / name)
                backs_done[back] = name
            back_name = backs_done[back]
        for copy in range(counts[(card_id, front, back)] if expand else 1):
            n += 1
            name = profile.files["front"].format(n=n, card=_safe_name(card_id), ext=ext, set=cardset.id,
                                                 shop=profile.id, back="", copy=copy + 1)
            _save_face(profile, size, front_or_back=front, target=folder / name, trim_px=trim_px,
                       bleed_px=bleed_px, warnings=warnings)
            written.append(folder / name)
            rows.append([name, card_id, names.get(card_id, card_id), back_name,
                         "1" if expand else str(counts[(card_id, front, back)])])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["front", "card", "name", "back", "quantity"])
    w.writerows([[csv_cell(v) for v in row] for row in rows])  # a card named "=HYPERLINK(..)" stays text
    (folder / "order.csv").write_text(buf.getvalue(), encoding="utf-8")
    back_counts: dict[str, int] = {}
    for it in items:
        if it.back is not None:
            back_counts[backs_done[it.back]] = back_counts.get(backs_done[it.back], 0) + 1
    (folder / "README.txt").write_text(_readme(profile, size, len(items), len(rows), back_counts), encoding="utf-8")
    expected = len({it.back for it in items if it.back is not None}) + (len(items) if expand else len(order))
    return written, sorted(set(warnings)), expected


def _readme(profile: Profile, size: ShopSize, cards: int, files: int, backs: Mapping[str, int],
            pdf_name: str | None = None) -> str:
    """What the folder holds and how to order it, in the words of what was written.

    `backs` maps each back file (or design) to how many printed cards take it.
    """
    trim = f"{size.name} cards, {size.trim_mm[0]:g} x {size.trim_mm[1]:g} mm trim"
    if pdf_name is not None:
        bleed = f" plus {size.bleed_mm:g} mm bleed on each side" if size.bleed_mm else ""
        lines = [f"{profile.name} export by cardsmith: {trim}{bleed}, one card a page.",
                 f"{cards} cards to print: one PDF, {pdf_name}, of {2 * files} pages (for each of {files} cards "
                 f"its back, then its front{'' if files == cards else '; quantities in the order'})."]
    else:
        px = f"{size.pixels[0]} x {size.pixels[1]} px" if size.pixels else "the shop's size"
        lines = [f"{profile.name} export by cardsmith: {trim}; each image is {px} (trim plus bleed) at {profile.dpi} dpi.",
                 f"{cards} cards to print from {files} front image{'s' if files != 1 else ''}; quantities in order.csv."]
    if len(backs) == 1:
        (name, _), = backs.items()
        lines.append(f"One back design, {name}, for every card.")
    elif backs:
        listed = ", ".join(f"{name} ({n} cards)" for name, n in backs.items())
        if pdf_name is not None:  # no order.csv: each card's own back is in the PDF
            lines.append(f"{len(backs)} back designs: {listed}. Each card's back is the page before its front.")
        else:
            lines.append(f"{len(backs)} back designs: {listed}. order.csv names each front's back; "
                         "order each back design as its own deck.")
    return "\n".join(lines + ["", profile.notes, ""])


def _save_face(profile: Profile, size: ShopSize, *, front_or_back: Path, target: Path, trim_px: tuple[float, float],
               bleed_px: float, warnings: list[str]) -> None:
    """Scale a rendered face so its trim is the shop's trim, then crop or extend the bleed to the shop's pixels."""
    from PIL import Image

    assert size.pixels is not None
    want_w, want_h = size.pixels
    shop_trim = (size.trim_mm[0] / 25.4 * profile.dpi, size.trim_mm[1] / 25.4 * profile.dpi)
    im: Image.Image  # the open file, then each step's new image
    try:
        with Image.open(front_or_back) as im:
            im = im.convert("RGB")
    except (OSError, ValueError) as e:
        raise CardsmithError(f"cannot read card image {front_or_back}: {e}", hint="render the set again: cardsmith render SET --force") from e
    sx, sy = shop_trim[0] / trim_px[0], shop_trim[1] / trim_px[1]
    new_w, new_h = round(im.width * sx), round(im.height * sy)
    if (new_w, new_h) != im.size:
        im = im.resize((new_w, new_h), Image.Resampling.LANCZOS)
    if new_w < want_w or new_h < want_h:
        have = min((new_w - shop_trim[0]) / 2, (new_h - shop_trim[1]) / 2)
        need = min((want_w - shop_trim[0]) / 2, (want_h - shop_trim[1]) / 2)
        warnings.append(f"the set's bleed ({max(0.0, have) / profile.dpi * 25.4:.2f} mm) is less than {profile.name}'s "
                        f"({need / profile.dpi * 25.4:.2f} mm): the edge pixels were repeated outward; "
                        "give the set a larger bleed for art that runs off the card")
        im = _extend(im, max(want_w, new_w), max(want_h, new_h))
    left, top = (im.width - want_w) // 2, (im.height - want_h) // 2
    im = im.crop((left, top, left + want_w, top + want_h))
    im = im.convert(COLOURS[profile.color])
    options: dict[str, Any] = {"dpi": (profile.dpi, profile.dpi)}
    if profile.format == "jpg":
        options.update(quality=95, subsampling=0)
    else:
        options.update(compress_level=6)
    im.save(target, FORMATS[profile.format], **options)


def _extend(im: Any, w: int, h: int) -> Any:
    """`im` centred on a w x h canvas, the border filled by repeating its edge pixels."""
    from PIL import Image

    out = Image.new(im.mode, (w, h))
    x0, y0 = (w - im.width) // 2, (h - im.height) // 2
    # Stretch the edge columns outward, then the edge rows (corners included), then paste the middle.
    if x0:
        out.paste(im.crop((0, 0, 1, im.height)).resize((x0, im.height)), (0, y0))
        out.paste(im.crop((im.width - 1, 0, im.width, im.height)).resize((w - x0 - im.width, im.height)), (x0 + im.width, y0))
    if y0:
        out.paste(out.crop((0, y0, w, y0 + 1)).resize((w, y0)), (0, 0))
        out.paste(out.crop((0, y0 + im.height - 1, w, y0 + im.height)).resize((w, h - y0 - im.height)), (0, y0 + im.height))
    out.paste(im, (x0, y0))
    return out


def _export_pdf(profile: Profile, size: ShopSize, cardset: CardSet, manifest: Mapping[str, Any],
                items: Sequence[Any], folder: Path) -> tuple[list[Path], list[str], int]:
    from cardsmith.printing import pdf
    from cardsmith.printing.imposition import SheetSpec

    missing = sorted({it.card_id for it in items if it.back is None})
    if missing:
        raise CardsmithError(f"{profile.name} prints a back for every card, but these cards have none: {', '.join(missing[:8])}",
                             hint="give their type (or the set) a back in set.yaml")
    spec = SheetSpec(card=size.trim_mm, bleed=float(manifest["bleed_mm"]) * size.trim_mm[0] / manifest["trim_mm"][0],
                     layout="single", backs="long", crop_marks=False, page_bleed=size.bleed_mm)
    if profile.copies == "expand":
        chosen = list(items)
    else:
        first: dict[tuple[str, Any], Any] = {}  # each face once, in the order of its first copy
        for it in items:
            first.setdefault((it.card_id, it.front), it)
        chosen = list(first.values())
    pages, images = pdf.plan(chosen, spec)
    if profile.order == "back-front":
        pages = [p for i in range(0, len(pages), 2) for p in (pages[i + 1], pages[i])]
    warnings = []
    if size.bleed_mm and spec.bleed + 0.05 < size.bleed_mm:
        warnings.append(f"the set's bleed ({spec.bleed:.2f} mm) is less than {profile.name}' page bleed ({size.bleed_mm:.2f} mm): "
                        "the page's edge beyond it stays white and may show after the cut; give the set a larger bleed")
    name = profile.files["pdf"].format(set=cardset.id, shop=profile.id, n=0, card="", back="", ext="pdf", copy=1)
    title = f"{cardset.name} {cardset.version} for {profile.name}"
    if profile.pdf_standard:
        # ReportLab writes RGB with no output intent; calling this PDF/X would be a lie, so say what it is.
        title = f"PROOF (RGB, not {profile.pdf_standard}) - {title}"
        warnings.append(f"{name} is a PROOF: {profile.name} asks for {profile.pdf_standard} (CMYK with an output intent), "
                        "which cardsmith does not produce yet; convert it in a prepress tool before uploading "
                        "(see docs/printing.md)")
    target = folder / name
    pdf.write_pdf(pages, images, target, title=title, subject=f"{len(chosen)} cards, {profile.order} page order")
    back_counts: dict[str, int] = {}
    for it in items:
        back_counts[it.back.stem] = back_counts.get(it.back.stem, 0) + 1
    (folder / "README.txt").write_text(_readme(profile, size, len(items), len(chosen), back_counts, name), encoding="utf-8")
    return [target], warnings, 2 * len(chosen)


def check_export(profile: Profile, size: ShopSize, files: Sequence[Path], expected: int) -> list[str]:
    """Every way the written files differ from what the profile asks (empty when all is well).

    `expected` is the number of image files (images) or of pages (pdf) the export should hold.
    """
    problems: list[str] = []
    if profile.kind == "images" and len(files) != expected:
        problems.append(f"{len(files)} image files, expected {expected}")
    for f in files:
        if not f.is_file():
            problems.append(f"{f.name}: missing")
    if problems:
        return problems
    if profile.kind == "images":
        from PIL import Image

        assert size.pixels is not None  # read_profile requires pixels of an images profile
        for f in files:
            with Image.open(f) as im:
                if im.size != tuple(size.pixels):
                    problems.append(f"{f.name}: {im.width} x {im.height} px, the profile asks {size.pixels[0]} x {size.pixels[1]}")
                if im.format != FORMATS[profile.format]:
                    problems.append(f"{f.name}: {im.format}, the profile asks {FORMATS[profile.format]}")
                if im.mode != COLOURS[profile.color]:
                    problems.append(f"{f.name}: colour mode {im.mode}, the profile asks {COLOURS[profile.color]}")
        return problems
    data = files[0].read_bytes()
    pages = len(re.findall(rb"/Type /Page\b(?!s)", data))
    if pages != expected:
        problems.append(f"{files[0].name}: {pages} pages, expected {expected} (a back and a front per card)")
    want = [(size.trim_mm[i] + 2 * (size.bleed_mm or 0)) * 72 / 25.4 for i in (0, 1)]
    for box in re.findall(rb"/MediaBox \[ ([\d.\s-]+) \]", data):
        x0, y0, x1, y1 = (float(v) for v in box.split())
        if abs((x1 - x0) - want[0]) > 0.5 or abs((y1 - y0) - want[1]) > 0.5:
            problems.append(f"{files[0].name}: a page is {x1 - x0:.1f} x {y1 - y0:.1f} pt, the profile asks "
                            f"{want[0]:.1f} x {want[1]:.1f} pt")
            break
    if b"/TrimBox" not in data:
        problems.append(f"{files[0].name}: pages have no TrimBox")
    return problems
