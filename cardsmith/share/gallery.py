"""A static, self-contained HTML gallery of a set, and an index page linking every set's gallery.

`output/<set>/gallery/index.html` holds everything inline (CSS, script, card data); images sit beside
it (`thumbs/`, `large/`, `icons/`, `compare/`) and are referenced by relative paths, so the folder works
from `file://`, can be zipped and sent, and never touches the network. Filtering, search, sorting and
the large view run in the page's own small script; without script the grid and alt texts still show.

With a comparison (`--compare OLD`, see `cardsmith.share.compare`) cards are marked added, removed or
changed, and the large view shows the card before and after.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from cardsmith import __version__
from cardsmith.base.atomic import atomic_path, write_text
from cardsmith.share.data import card_record, keyword_text, ordered_fields
from cardsmith.share.images import RenderedSet, fit_width, open_rgb, trimmed
from cardsmith.sets.model import Card, CardSet

THUMB_WIDTH = 300
LARGE_WIDTH = 750
GALLERY_JSON = "gallery.json"  # metadata for the index page and for later comparisons


@dataclass
class Change:
    """How a card differs from an earlier build."""

    status: str  # "added", "removed", "changed" or "same"
    before: Path | None = None  # the earlier image (trimmed or not; see `before_trimmed`)
    before_record: dict[str, Any] | None = None
    what: list[str] = field(default_factory=list)  # human-readable differences ("attack 2 -> 3", "image")


@dataclass
class Comparison:
    """A whole earlier build compared with this one."""

    label: str  # what was compared against, for the page ("v1.0 build", "git HEAD~3")
    changes: dict[str, Change] = field(default_factory=dict)
    old_rendered: RenderedSet | None = None

    def counts(self) -> dict[str, int]:
        out = {"added": 0, "removed": 0, "changed": 0, "same": 0}
        for ch in self.changes.values():
            out[ch.status] += 1
        return out


def _asset(name: str) -> str:
    return resources.files("cardsmith.share").joinpath("web", name).read_text(encoding="utf-8")


def _env() -> jinja2.Environment:
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return env


# ------------------------------------------------------------------------------------------ rich text

def rich_html(text: str, icons: dict[str, str]) -> str:
    """Card rich text as safe HTML: **bold**, *italic*, line breaks and {X} icons (an image when the set has one)."""
    out = html.escape(text or "", quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out, flags=re.S)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*", r"<em>\1</em>", out, flags=re.S)

    def icon(m: re.Match) -> str:
        name = m.group(1)
        if name in icons:
            return f'<img class="icon" src="{html.escape(icons[name])}" alt="{html.escape(name)}">'
        return f'<span class="icon-text">{html.escape(name)}</span>'

    out = re.sub(r"\{([A-Za-z0-9_-]+)\}", icon, out)
    return out.replace("\n", "<br>")


def written_html(text: str) -> str:
    """A value that is data, not markup (a flavour), as safe HTML: as written, line breaks kept."""
    return html.escape(text or "", quote=False).replace("\n", "<br>")


def plain_text(text: str) -> str:
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text or "", flags=re.S)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)\*", r"\1", text, flags=re.S)
    return re.sub(r"\{([A-Za-z0-9_-]+)\}", r"\1", text)


# ------------------------------------------------------------------------------------------ images

class _ImageCache:
    """Thumbnails and large views made only when their source image changed (by size and mtime)."""

    def __init__(self, gallery: Path):
        self.gallery = gallery
        self.index_file = gallery / ".images.json"
        try:
            self.index: dict[str, str] = json.loads(self.index_file.read_text())
        except (OSError, ValueError):
            self.index = {}
        self.used: set[str] = set()

    def make(self, src: Path, rel: str, width: int, rs: RenderedSet | None) -> str:
        """Write `gallery/rel` (JPEG) from `src`, cut to its trim and scaled to `width`, unless already current."""
        return self.make_many(src, rs, [(rel, width)])[0]

    def make_many(self, src: Path, rs: RenderedSet | None, wanted: list[tuple[str, int]]) -> list[str]:
        """Several sizes of one image, decoding the source once and only if one of them is out of date."""
        st = src.stat()
        sig = lambda width: f"{st.st_mtime_ns}:{st.st_size}:{width}"
        stale = [(rel, w) for rel, w in wanted if self.index.get(rel) != sig(w) or not (self.gallery / rel).is_file()]
        self.used.update(rel for rel, _ in wanted)
        if stale:
            im = trimmed(src, rs) if rs is not None else open_rgb(src)
            for rel, width in stale:
                out = fit_width(im, width) if im.width > width else im
                with atomic_path(self.gallery / rel) as tmp:
                    out.save(tmp, "JPEG", quality=88, optimize=True)
                self.index[rel] = sig(width)
        return [rel for rel, _ in wanted]

    def finish(self, prune: tuple[str, ...] = ("thumbs", "large", "compare")) -> None:
        """Forget and delete images no card uses any more, then save the index."""
        for folder in prune:
            for path in (self.gallery / folder).glob("*.jpg"):
                rel = f"{folder}/{path.name}"
                if rel not in self.used:
                    path.unlink()
                    self.index.pop(rel, None)
        write_text(self.index_file, json.dumps(self.index, indent=0, sort_keys=True))


def _copy_icons(cardset: CardSet, gallery: Path) -> dict[str, str]:
    out = {}
    folder = gallery / "icons"
    for name, path in cardset.icons.items():
        src = Path(path) if Path(path).is_absolute() else Path(cardset.path) / path
        if not src.is_file():
            continue
        dst = folder / f"{re.sub(r'[^A-Za-z0-9_-]', '_', name)}{src.suffix.lower()}"
        if not dst.is_file() or dst.read_bytes() != src.read_bytes():
            dst.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(dst) as tmp:
                shutil.copyfile(src, tmp)
        out[name] = f"icons/{dst.name}"
    return out


# ------------------------------------------------------------------------------------------ card data

def _field_rows(card_type: Any, fields: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    for name, value in fields.items():
        if value is None or value == [] or value == "":
            continue
        spec = card_type.fields.get(name) if card_type else None
        label = spec.label if spec and spec.label else name.replace("_", " ").capitalize()
        shown = ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else \
            ("yes" if value is True else "no" if value is False else str(value))
        rows.append((label, shown))
    return rows


def alt_text(card: Card, cardset: CardSet) -> str:
    """What a screen reader says for a card image: name, type and group, fields, keywords, rules text."""
    ctype = cardset.types.get(card.type)
    group = cardset.group_of(card)
    parts = [f"{card.name}: {ctype.name if ctype else card.type}" + (f", {group.name}" if group else "")]
    stats = ", ".join(f"{label.lower()} {value}" for label, value in _field_rows(ctype, ordered_fields(card, cardset)))
    if stats:
        parts.append(stats)
    if card.keywords:
        parts.append(", ".join(keyword_text(k.id, k.value, cardset) for k in card.keywords))
    if card.text:
        parts.append(plain_text(card.text).replace("\n", " "))
    return ". ".join(parts) + "."


def _card_entry(card: Card | None, record: dict[str, Any], cardset: CardSet, order: int, icons: dict[str, str],
                thumb: str, large: str, change: Change | None, before: dict[str, str] | None) -> dict[str, Any]:
    ctype = cardset.types.get(record["type"])
    groups = record.get("groups") or {k: record[k] for k in ("race", "faction") if record.get(k)}
    # The card's main group (colour, sorting): its group in the first declared dimension it has one in.
    dim_id = next((d for d in cardset.dimensions if groups.get(d) in cardset.dimensions[d].groups), None)
    group_id = groups[dim_id] if dim_id else ""
    group = cardset.dimensions[dim_id].groups[group_id] if dim_id else None
    attrs = {a.name: cardset.attribute(card, a.name) for d in cardset.dimensions.values() for a in d.attributes.values()
             if a.kind == "enum"} if card is not None else {}
    fields = record.get("fields", {})
    keywords = []
    for text in record.get("keywords", []):
        m = re.match(r"^(.*?)(?:\s+(-?\d+))?$", text, re.S)
        assert m is not None  # with re.S the pattern matches any text
        kid = next((k.id for k in cardset.keywords.values() if k.name.lower() == m.group(1).lower() or k.id == m.group(1).lower()),
                   m.group(1).lower())
        kw = cardset.keywords.get(kid)
        reminder = re.sub(r"\bX\b", m.group(2), kw.reminder) if kw and kw.reminder and m.group(2) else (kw.reminder if kw else "")
        keywords.append({"id": kid, "text": text, "reminder": reminder})
    rows = _field_rows(ctype, fields)
    search = " ".join([record["name"], record["id"], plain_text(record.get("text", "")), record.get("flavor", ""),
                       ctype.name if ctype else record["type"], group.name if group else "",
                       *(f"{k['text']} {k['reminder']}" for k in keywords), *record.get("tags", []),
                       *(f"{label} {value}" for label, value in rows)])
    numbers = {k: v for k, v in fields.items() if isinstance(v, int) and not isinstance(v, bool)}
    entry = {
        "id": record["id"], "name": record["name"], "order": order,
        "type": record["type"], "typeName": ctype.name if ctype else record["type"],
        "group": group_id, "groupName": group.name if group else "", "groupKind": dim_id or "",
        "groups": groups, "attrs": {k: v for k, v in attrs.items() if v is not None},
        "color": group.color if group else "#888888",
        "keywords": keywords, "fields": rows, "numbers": numbers, "facets": _field_facets(ctype, fields),
        "text": rich_html(record.get("text", ""), icons), "flavor": written_html(record.get("flavor", "")),
        "copies": record.get("copies", 1), "tags": record.get("tags", []),
        "thumb": thumb, "large": large, "search": search.lower(),
        "alt": alt_text(card, cardset) if card is not None else f"{record['name']} (removed card)",
        "status": change.status if change else "",
        "changes": change.what if change else [],
        "before": before or {},
    }
    return entry


# ------------------------------------------------------------------------------------------ the page

def gallery_dir(project: Any, cardset: CardSet) -> Path:
    return project.set_output(cardset.id) / "gallery"


def build_gallery(project: Any, cardset: CardSet, rs: RenderedSet, *, comparison: Comparison | None = None,
                  errors: list[str] | None = None) -> Path:
    """Write `output/<set>/gallery/index.html` (and its images), then the output index page; returns the gallery page."""
    gallery = gallery_dir(project, cardset)
    gallery.mkdir(parents=True, exist_ok=True)
    cache = _ImageCache(gallery)
    icons = _copy_icons(cardset, gallery)
    entries = []
    for order, card in enumerate(cardset.cards):
        src = rs.cards[card.id].file
        thumb, large = cache.make_many(src, rs, [(f"thumbs/{card.id}.jpg", THUMB_WIDTH), (f"large/{card.id}.jpg", LARGE_WIDTH)])
        change = comparison.changes.get(card.id) if comparison else None
        before = None
        if change and comparison and change.status == "changed" and change.before is not None:
            before = {"large": cache.make(change.before, f"compare/{card.id}-before.jpg", LARGE_WIDTH, comparison.old_rendered)}
        entries.append(_card_entry(card, card_record(card, cardset), cardset, order, icons, thumb, large, change, before))
    if comparison:
        for cid, change in comparison.changes.items():
            if change.status != "removed" or change.before is None or change.before_record is None:
                continue
            thumb, large = cache.make_many(change.before, comparison.old_rendered,
                                           [(f"compare/{cid}-thumb.jpg", THUMB_WIDTH), (f"compare/{cid}-before.jpg", LARGE_WIDTH)])
            entries.append(_card_entry(None, change.before_record, cardset, len(entries), icons, thumb, large, change, None))
    from cardsmith.components.showcase import components_section

    extra = components_section(project, cardset, cache.make, gallery)  # boards and tokens, if the set has any
    cache.finish()

    page = render_page(cardset, entries, comparison=comparison, errors=errors or [])
    page = page.replace("</main>", extra + "</main>", 1)
    target = write_text(gallery / "index.html", page)
    meta = {"set": cardset.id, "name": cardset.name, "version": cardset.version, "description": cardset.description,
            "cards": len(cardset.cards), "cover": entries[0]["thumb"] if entries else None,
            "records": {c.id: card_record(c, cardset) for c in cardset.cards}}
    write_text(gallery / GALLERY_JSON, json.dumps(meta, indent=1, ensure_ascii=False))
    build_index(project)
    return target


def _sort_fields(cardset: CardSet) -> list[tuple[str, str]]:
    """Numeric fields worth sorting by: (field name, label), each once, in declaration order."""
    seen: dict[str, str] = {}
    for ctype in cardset.types.values():
        for spec in ctype.fields.values():
            if spec.kind == "int" and spec.name not in seen:
                seen[spec.name] = spec.label or spec.name.replace("_", " ").capitalize()
    return list(seen.items())


FACET_KINDS = ("enum", "list", "bool")  # fields worth filtering by: a few values shared by many cards


def _field_facets(ctype: Any, fields: dict[str, Any]) -> dict[str, list[str]]:
    """A card's values of its enum, list and true/false fields, as the gallery's field filters match them."""
    out: dict[str, list[str]] = {}
    for name, value in fields.items():
        spec = ctype.fields.get(name) if ctype else None
        if spec is None or spec.kind not in FACET_KINDS or value is None:
            continue
        out[name] = [str(v) for v in value] if isinstance(value, (list, tuple)) else \
            ["yes" if value else "no"] if isinstance(value, bool) else [str(value)]
    return out


def _field_filters(entries: list[dict[str, Any]], cardset: CardSet) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(field, label, [(value, label)]) for each declared enum, list or boolean field whose cards differ."""
    out: dict[str, tuple[str, str, list[tuple[str, str]]]] = {}
    for ctype in cardset.types.values():
        for spec in ctype.fields.values():
            if spec.kind not in FACET_KINDS or spec.name in out:
                continue
            seen = {v for e in entries for v in e["facets"].get(spec.name, [])}
            if spec.kind == "bool":
                options = [(v, v) for v in ("yes", "no") if v in seen]
            else:
                declared = [str(v) for v in spec.values]
                options = [(v, v.replace("_", " ").capitalize()) for v in declared + sorted(seen - set(declared)) if v in seen]
            if len(options) > 1 or (options and any(spec.name not in e["facets"] for e in entries)):
                out[spec.name] = (spec.name, spec.label or spec.name.replace("_", " ").capitalize(), options)
    return list(out.values())


def _facets(entries: list[dict[str, Any]], cardset: CardSet) -> dict[str, Any]:
    """The filters' options: types, keywords, and (`groups`) one select per group dimension and per
    enum attribute of a dimension (Faction, Alignment...), as (facet key, label, options)."""
    types = [(t.id, t.name) for t in cardset.types.values() if any(e["type"] == t.id for e in entries)]
    keywords = [(k.id, k.name) for k in cardset.keywords.values() if any(k.id in {x["id"] for x in e["keywords"]} for e in entries)]
    groups: list[tuple[str, str, list[tuple[str, str]]]] = []
    for dim in cardset.dimensions.values():
        options = [(g.id, g.name) for g in dim.groups.values() if any(e["groups"].get(dim.id) == g.id for e in entries)]
        if options and any(not e["groups"].get(dim.id) for e in entries):
            options.append(("", f"No {dim.name.lower()}"))
        if options:
            groups.append((f"g-{dim.id}", dim.name, options))
        for attr in dim.attributes.values():
            values = [(v, v.capitalize()) for v in attr.values if any(e["attrs"].get(attr.name) == v for e in entries)]
            if attr.kind == "enum" and values and not any(key == f"a-{attr.name}" for key, _, _ in groups):
                groups.append((f"a-{attr.name}", attr.label or attr.name.replace("_", " ").capitalize(), values))
    return {"type": types, "keyword": keywords, "groups": groups, "fields": _field_filters(entries, cardset)}


def render_page(cardset: CardSet, entries: list[dict[str, Any]], *, comparison: Comparison | None,
                errors: list[str]) -> str:
    """The gallery page's HTML."""
    group_word = next((d.name for d in cardset.dimensions.values()), "group")
    data = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    template = _env().from_string(_asset("gallery.html.j2"))
    return template.render(
        set=cardset, entries=entries, data=data, facets=_facets(entries, cardset), group_word=group_word,
        sort_fields=_sort_fields(cardset), comparison=comparison, counts=comparison.counts() if comparison else {},
        errors=errors, css=_asset("gallery.css"), js=_asset("gallery.js"), version=__version__,
        thumb_size=(THUMB_WIDTH, round(THUMB_WIDTH * cardset.card_size[1] / cardset.card_size[0])),
        total_copies=sum(e["copies"] for e in entries if e["status"] != "removed"),
    )


def build_index(project: Any) -> Path:
    """`output/index.html`: a link to every set's gallery under output/, with its cover and card count."""
    sets = []
    for meta_file in sorted(project.output_dir.glob(f"*/gallery/{GALLERY_JSON}")):
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        folder = meta_file.parent.parent.name
        meta["href"] = f"{folder}/gallery/index.html"
        meta["cover_href"] = f"{folder}/gallery/{meta['cover']}" if meta.get("cover") else None
        meta.pop("records", None)
        sets.append(meta)
    page = _env().from_string(_asset("index.html.j2")).render(sets=sets, css=_asset("gallery.css"), version=__version__)
    return write_text(project.output_dir / "index.html", page)


def build_stage(ctx: Any) -> None:
    """Build stage: the set's gallery (skipped when the set, its images and cardsmith are unchanged:
    `cardsmith.cache.stages`) and the output index page (always: it lists every set's gallery)."""
    from cardsmith.cache.stages import files_under, unless_unchanged

    if not unless_unchanged(ctx, "gallery", _build, reads=[ctx.out / "cards", ctx.out / "components"],
                            outputs=lambda wrote: files_under(gallery_dir(ctx.project, ctx.cardset))):
        build_index(ctx.project)


def _build(ctx: Any) -> None:
    from cardsmith.share.images import rendered_for_build

    rs = rendered_for_build(ctx)
    page = build_gallery(ctx.project, ctx.cardset, rs)
    ctx.wrote("gallery", page)
    ctx.wrote("index of galleries", ctx.project.output_dir / "index.html")
