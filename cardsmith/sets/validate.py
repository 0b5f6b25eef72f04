"""From a set folder to a validated `CardSet`, reporting every problem at once.

`check_set(path)` returns the set (or None when errors make it unusable) and every diagnostic, sorted
by file and line. `load_set(path)` returns the set or raises `SetInvalid` carrying the diagnostics.
Validation runs the JSON Schemas first, then what a schema cannot say: duplicate ids, references to
things the set does not declare, fields a card's type does not declare, files that do not exist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping

from cardsmith.base.diagnostics import Diagnostic, did_you_mean, path_text, sort_diagnostics
from cardsmith.sets._schema_check import SLUG, describe, schema_diagnostics
from cardsmith.base.errors import CardsmithError
from cardsmith.base.limits import MAX_BLEED_MM, MAX_CARD_MM, MAX_COPIES, MAX_TEXT_CHARS
from cardsmith.sets.loader import Document, YamlError, load_yaml
from cardsmith.sets.model import (RESERVED_CARD_KEYS, Card, CardSet, CardType, Dimension, FieldSpec, Group, Keyword,
                             KeywordUse, SourceRef, frozen_map, slugify)
from cardsmith.sets.lengths import CARD_SIZES, LengthError, parse_length_mm


ICON_REF = re.compile(r"(?<!\{)\{([A-Za-z0-9_+-]+)\}(?!\})")
SKIP_DIRS = {"decks", "art", "icons", "templates", "fonts", "layouts", "schemas", "components"}


class SetInvalid(CardsmithError):
    """A set with errors; `diagnostics` holds every problem found."""

    SHOWN = 20

    def __init__(self, path: Path, diagnostics: list[Diagnostic]):
        errors = [d for d in diagnostics if d.is_error]
        listed = "\n".join(d.format(Path.cwd()) for d in errors[:self.SHOWN])
        if len(errors) > self.SHOWN:
            listed += f"\n... and {len(errors) - self.SHOWN} more"
        super().__init__(f"the set {Path(path).name} has {len(errors)} error(s):\n{listed}",
                         hint=f"fix them (`cardsmith validate {Path(path).name}` lists them all), then run the command again")
        self.diagnostics = diagnostics


# ---------------------------------------------------------------------------------------------
# The set

@dataclass
class _Checker:
    root: Path
    diags: list[Diagnostic] = field(default_factory=list)
    # card id -> (document, path of the card, path of its `effect:`), for the rules' checks
    places: dict[str, tuple[Document, tuple, tuple | None]] = field(default_factory=dict)

    def error(self, doc: Document | Path, path: tuple, message: str, hint: str | None = None, *, key: bool = False,
              severity: str = "error") -> None:
        if isinstance(doc, Document):
            line, col = doc.position(path, key=key)
            file = doc.path
        else:
            line, col, file = 1, 1, doc
        self.diags.append(Diagnostic(severity, file, line, col, message, hint, path_text(path)))

    def warn(self, doc: Document | Path, path: tuple, message: str, hint: str | None = None, *, key: bool = False) -> None:
        self.error(doc, path, message, hint, key=key, severity="warning")

    def inside(self, doc: Document, path: tuple, rel: str, what: str) -> Path | None:
        """The file `rel` inside the set folder, or None after reporting why it cannot be used."""
        p = Path(rel)
        target = (self.root / p).resolve()
        if p.is_absolute() or not target.is_relative_to(self.root.resolve()):
            link = next((q for q in [self.root / p, *(self.root / p).parents] if q.is_symlink()), None) if not p.is_absolute() else None
            if link is not None:  # the path looks inside, but a link leads out: say where
                self.error(doc, path, f"{what} '{rel}' is outside the set folder: {_rel(link, self.root)} is a link to {link.resolve()}",
                           "copy the files into the set folder (a set holds everything it needs, so it can be shared as it is)")
            else:
                self.error(doc, path, f"{what} '{rel}' is outside the set folder", f"put the file inside {self.root} and give its path relative to that folder")
            return None
        if not target.is_file():
            near = None
            if target.parent.is_dir():
                near = did_you_mean(p.name, [f.name for f in target.parent.iterdir()])
            self.error(doc, path, f"{what} '{rel}' does not exist", near or f"the path is relative to the set folder {self.root}")
            return None
        return target


def _unsafe_svg(path: Path) -> str | None:
    """Why an SVG icon cannot be drawn safely (`cardsmith.base.untrusted.svg_problem`), or None."""
    from cardsmith.base.limits import MAX_SVG_BYTES
    from cardsmith.base.untrusted import svg_problem

    try:
        size = path.stat().st_size
        if size > MAX_SVG_BYTES:
            return f"is {size:,} bytes; an icon needs a few kilobytes (at most {MAX_SVG_BYTES:,})"
        return svg_problem(path.read_bytes())
    except OSError as e:
        return f"cannot be read: {e.strerror or e}"


def _unreadable_image(path: Path) -> str | None:
    """Why `path` cannot be used as a picture (not an image, unreadable, too many pixels), or None.

    Only the header is read, so this stays cheap: a "decompression bomb" (a small file that
    declares a huge picture) is refused here by its declared size, before anything decodes it.
    """
    import warnings

    from PIL import Image, UnidentifiedImageError

    limit = Image.MAX_IMAGE_PIXELS or 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # judged below, by the size
            with Image.open(path) as im:
                width, height = im.size
    except UnidentifiedImageError:
        return "is not an image (PNG, JPEG or WebP) that cardsmith can read"
    except Image.DecompressionBombError:
        return "declares more pixels than cardsmith opens safely (a 'decompression bomb'?); scale it down"
    except OSError as e:
        return f"cannot be read: {e.strerror or e}"
    if limit and width * height > limit:
        return (f"is {width} x {height} pixels, more than cardsmith opens safely ({limit:,} pixels); "
                "scale it down (card art rarely needs more than 3000 px a side)")
    return None


def card_files(set_dir: Path) -> list[Path]:
    """The set's card files: every .yaml/.yml file except set.yaml and those under decks/, art/, icons/, _x/ or .x/."""
    files = []
    for p in sorted(set_dir.rglob("*")):
        if p.suffix not in (".yaml", ".yml") or not p.is_file() or p.name in ("set.yaml", "set.yml"):
            continue
        parts = p.relative_to(set_dir).parts[:-1]
        if any(part in SKIP_DIRS or part.startswith(("_", ".")) for part in parts):
            continue
        files.append(p)
    return files


def check_set(set_dir: Path | str, items: dict | None = None, used: dict | None = None) -> tuple[CardSet | None, list[Diagnostic]]:
    """Validate a set folder: the set (None if errors) and every problem found, sorted by file and line.

    With `items` (and `used`), card files are read card by card and unchanged cards taken from
    `items`; every card read is put in `used` (see `cardsmith.sets._cardfile`)."""
    set_dir = Path(set_dir).resolve()
    ck = _Checker(set_dir)
    set_file = set_dir / "set.yaml"
    read = _read_file(ck, set_file, "set", items, used)
    sdoc = None
    decl = _Declarations(set_dir, {})
    if read is not None:
        sdoc = read[0]
        _check_texts(ck, sdoc)
        ck.diags.extend(read[1])
        decl = _declarations(ck, sdoc)

    cards: list[Card] = []
    seen: dict[str, SourceRef] = {}
    files = card_files(set_dir)
    if not files:
        ck.warn(set_file, (), "the set has no card files", "add a file such as cards.yaml with `cards:` beside set.yaml")
    for f in files:
        read = _read_file(ck, f, "card", items, used)
        if read is None:
            continue
        doc, schema_errs = read
        _check_texts(ck, doc)
        schema_errs = [_by_card_id(doc, d) for d in schema_errs]
        ck.diags.extend(schema_errs)
        if not isinstance(doc.data, dict) or not isinstance(doc.data.get("cards"), list):
            continue
        for c in _cards(ck, doc, decl, seen):
            cards.append(c)

    components = _components(ck, sdoc, decl) if sdoc is not None else None
    diagnostics = sort_diagnostics(ck.diags)
    if sdoc is None or any(d.is_error for d in diagnostics):
        if sdoc is not None:  # the cards have errors: still say what set.yaml gets wrong about its game
            from cardsmith.sets._validate_rules import set_level_diagnostics

            diagnostics = sort_diagnostics(ck.diags + set_level_diagnostics(sdoc))
        return None, diagnostics
    cardset = replace(decl.build(sdoc, tuple(cards)), components=components)
    if cardset.deck_rules:
        # Deck rules name zones, types, races, keywords, fields and cards: check those exist too.
        from cardsmith.decks.rules import RulesInvalid, parse_rules
        try:
            rules = parse_rules(cardset, sdoc)
        except RulesInvalid as e:
            return None, sort_diagnostics(ck.diags + e.diagnostics)
        diagnostics = sort_diagnostics(ck.diags + list(rules.warnings))
    if cardset.rules:
        # The set's game checks what the set says about it: play settings, effects, deck rule names.
        from cardsmith.sets._validate_rules import rules_diagnostics

        found = rules_diagnostics(cardset, sdoc, ck.places)
        if found:
            diagnostics = sort_diagnostics(diagnostics + found)
            if any(d.is_error for d in found):
                return None, diagnostics
    return cardset, diagnostics


def _read_file(ck: _Checker, path: Path, schema: str, items: dict | None,
               used: dict | None) -> tuple[Document, list[Diagnostic]] | None:
    """set.yaml or a card file (`schema`: "set" or "card") and its schema errors, taken card by card from
    `items` where it can be (see `cardsmith.sets._cardfile`); None after reporting why it cannot be used."""
    if items is not None:
        from cardsmith.sets import _cardfile as cardfile

        used = used if used is not None else {}
        cached = cardfile.read_unchanged(path, items, used, schema) if schema == "set" else \
            cardfile.read_card_file(path, items, used)
        if cached is not None:
            return cached
    try:
        doc = load_yaml(path)
    except YamlError as e:
        ck.diags.append(Diagnostic("error", e.file, e.line, e.column, e.message, e.hint))
        return None
    if schema == "set" and not isinstance(doc.data, dict):
        ck.error(doc, (), "set.yaml must be a map of keys (id, name, types, ...)", "see docs/set-format.md")
        return None
    if schema == "card" and isinstance(doc.data, list):
        ck.error(doc, (), "a card file must be a map with `cards:` (and optional `defaults:`), not a list",
                 "put `cards:` on the first line and indent the list under it")
        return None
    return doc, schema_diagnostics(doc, schema)


def _components(ck: _Checker, sdoc: Document, decl: "_Declarations") -> Any:
    """Boards, tokens and player colours from set.yaml and components/*.yaml (see cardsmith.components)."""
    from cardsmith.components.base import COMPONENT_KEYS, COMPONENTS_DIR, Components

    if not (ck.root / COMPONENTS_DIR).is_dir() and not any(isinstance(sdoc.data.get(k), dict) and sdoc.data[k]
                                                           for k in COMPONENT_KEYS):
        return Components(bleed=decl.bleed)  # none declared: what check_components gives, without its import
    from cardsmith.components.check import check_components, component_files

    docs = [sdoc]
    for f in component_files(ck.root):
        try:
            doc = load_yaml(f)
        except YamlError as e:
            ck.diags.append(Diagnostic("error", e.file, e.line, e.column, e.message, e.hint))
            continue
        ck.diags.extend(schema_diagnostics(doc, "components"))
        docs.append(doc)
    printing = sdoc.data.get("print") if isinstance(sdoc.data.get("print"), dict) else {}
    components, diags = check_components(docs, decl.bleed, printing.get("paper"))
    ck.diags.extend(diags)
    return components


def load_set(set_dir: Path | str) -> CardSet:
    """The validated set in `set_dir`; raises `SetInvalid` (with every diagnostic) if it has errors."""
    cardset, diags = check_set(set_dir)
    if cardset is None:
        raise SetInvalid(Path(set_dir), diags)
    return cardset


@dataclass
class _Declarations:
    """What set.yaml declares, as far as it could be read (validation goes on despite errors in it)."""

    root: Path
    data: dict
    types: dict[str, CardType] = field(default_factory=dict)
    dimensions: dict[str, Dimension] = field(default_factory=dict)
    keywords: dict[str, Keyword] = field(default_factory=dict)
    icons: dict[str, Path] = field(default_factory=dict)
    card_size: tuple[float, float] = (63.5, 88.9)
    bleed: float = 3.175
    safe: float = 3.175
    layout_folders: list[Path] = field(default_factory=list)

    def build(self, sdoc: Document, cards: tuple[Card, ...]) -> CardSet:
        d = self.data
        known = {"id", "name", "version", "description", "card_size", "bleed", "safe", "rules", "races", "factions",
                 "groups", "keywords", "icons", "types", "layouts", "layout_folders", "backs", "deck_rules",
                 "players", "boards", "tokens"}
        return CardSet(
            id=d["id"], name=str(d["name"]), path=self.root, version=str(d.get("version", "0.1.0")),
            description=str(d.get("description", "")), card_size=self.card_size, bleed=self.bleed, safe=self.safe,
            rules=d.get("rules"), types=frozen_map(self.types), dimensions=frozen_map(self.dimensions), keywords=frozen_map(self.keywords), icons=frozen_map(self.icons),
            layouts=frozen_map(d.get("layouts") or {}), layout_folders=tuple(self.layout_folders),
            backs=frozen_map(d.get("backs") or {}),
            deck_rules=frozen_map(d.get("deck_rules") or {}), cards=cards,
            meta=frozen_map({k: v for k, v in d.items() if k not in known}),
            source=SourceRef(sdoc.path, 1, 1),
        )


def _declarations(ck: _Checker, doc: Document) -> _Declarations:
    d = doc.data
    decl = _Declarations(ck.root, d)
    size = d.get("card_size", "poker")
    try:
        if isinstance(size, str):
            decl.card_size = CARD_SIZES[size]
        elif isinstance(size, dict):
            sides = [size.get("width"), size.get("height")]
            if all(isinstance(v, (int, float, str)) for v in sides):
                decl.card_size = (parse_length_mm(sides[0]), parse_length_mm(sides[1]))
            if min(decl.card_size) <= 0:
                _own_error(ck, doc, "card_size", "card_size must have a positive width and height")
            elif max(decl.card_size) > MAX_CARD_MM:
                _own_error(ck, doc, "card_size", f"card_size {decl.card_size[0]:g} x {decl.card_size[1]:g} mm is larger "
                           f"than cardsmith draws (at most {MAX_CARD_MM:g} mm a side)",
                           "check the unit: a number alone is millimetres (63.5 x 88.9 is a poker card)")
                decl.card_size = (63.5, 88.9)
    except LengthError as e:
        _own_error(ck, doc, "card_size", f"card_size: {e}")
        decl.card_size = (63.5, 88.9)
    except (KeyError, TypeError):
        pass  # the schema reports it
    for key in ("bleed", "safe"):
        if key in d:
            try:
                value = parse_length_mm(d[key])
            except LengthError as e:
                _own_error(ck, doc, key, str(e))
                continue
            if value > MAX_BLEED_MM:
                ck.error(doc, (key,), f"{key} of {value:g} mm is more than cardsmith allows ({MAX_BLEED_MM:g} mm)",
                         f"printers ask for about 3 mm (0.125in) of {key}; a number alone is millimetres")
            else:
                setattr(decl, key, value)
    _dimensions(ck, doc, decl)
    for kid, k in _items(d.get("keywords")):
        if isinstance(k, dict):
            decl.keywords[kid] = Keyword(kid, str(k.get("name", kid)), str(k.get("reminder", "")), k.get("param"))
    for iid, rel in _items(d.get("icons")):
        if isinstance(rel, str):
            p = ck.inside(doc, ("icons", iid), rel, f"icon {iid}:")
            if p is not None:
                if p.suffix.lower() not in (".svg", ".png"):
                    ck.error(doc, ("icons", iid), f"icon '{rel}' must be an SVG or PNG file")
                elif p.suffix.lower() == ".png" and (why := _unreadable_image(p)):
                    ck.error(doc, ("icons", iid), f"icon '{rel}' {why}", "save the icon again as a PNG (or SVG) file")
                elif p.suffix.lower() == ".svg" and (why := _unsafe_svg(p)):
                    ck.error(doc, ("icons", iid), f"icon '{rel}' {why}", "save the icon again as a plain SVG file")
                decl.icons[iid] = p
    for tid, t in _items(d.get("types")):
        if not isinstance(t, dict):
            continue
        fields: dict[str, FieldSpec] = {}
        for fname, spec in _items(t.get("fields")):
            fs = _field_spec(ck, doc, ("types", tid, "fields", fname), fname, spec)
            if fs is not None:
                fields[fname] = fs
        decl.types[tid] = CardType(tid, str(t.get("name", tid.replace("_", " ").title())), frozen_map(fields),
                                   str(t.get("description", "")), t.get("back"))
    for tid, t in decl.types.items():
        for fname in t.fields:
            if fname in decl.dimensions:
                ck.error(doc, ("types", tid, "fields", fname), f"field '{fname}' of type '{tid}' has the name of a group dimension",
                         f"cards write their {fname} as `{fname}: <group id>`; rename the field", key=True)
    backs = d.get("backs") if isinstance(d.get("backs"), dict) else {}
    for tid, t in decl.types.items():
        if t.back and backs and t.back not in backs:
            ck.error(doc, ("types", tid, "back"), f"type '{tid}' prints with back '{t.back}', which `backs:` does not declare",
                     did_you_mean(t.back, backs) or f"declared backs: {', '.join(backs)}")
    decl.layout_folders = _layout_folders(ck, doc, d.get("layout_folders"))
    for tid, layout in _items(d.get("layouts")):
        if tid not in decl.types:
            ck.error(doc, ("layouts", tid), f"layout given for unknown card type '{tid}'", did_you_mean(tid, decl.types))
        if isinstance(layout, str) and (Path(layout).is_absolute() or ".." in Path(layout).parts):
            ck.error(doc, ("layouts", tid), f"layout '{layout}' leaves the templates folder",
                     "name a layout inside templates/ (like `ship` or `solar-empires/ship`), without '..'")
    return decl


def _layout_folders(ck: _Checker, doc: Document, declared: Any) -> list[Path]:
    """The folders `layout_folders:` names (one path or a list), each checked to be a folder inside the set."""
    from cardsmith.base.project import declared_layout_folders

    folders: list[Path] = []
    many = isinstance(declared, list)
    for i, (rel, target) in enumerate(zip(declared if many else [declared], declared_layout_folders(ck.root, declared))):
        where = ("layout_folders", i) if many else ("layout_folders",)
        if not isinstance(rel, str) or not rel:
            continue  # the schema reports it
        if Path(str(rel)).is_absolute() or not target.is_relative_to(ck.root.resolve()):
            ck.error(doc, where, f"layout folder '{rel}' is outside the set folder",
                     "keep the set's layouts inside its folder so it can be shared; to use another set's layout, "
                     "name it as `other-set/name` in `layouts:` or `extends:`")
        elif not target.is_dir():
            near = did_you_mean(target.name, [p.name for p in target.parent.iterdir() if p.is_dir()]) if target.parent.is_dir() else None
            ck.error(doc, where, f"layout folder '{rel}' does not exist",
                     near or f"the path is relative to the set folder {ck.root}; create the folder or fix the path")
        else:
            folders.append(target)
    _layout_links(ck, [ck.root / str(rel) for rel in (declared if many else [declared]) if isinstance(rel, str) and rel]
                  or [ck.root / "layouts"])
    return folders


def _layout_links(ck: _Checker, folders: list[Path]) -> None:
    """Each layout folder or file that is a link to outside the set (issue 32): rendering refuses
    them, validation names each, at the link."""
    from cardsmith.base.untrusted import inside

    hint = "copy the layouts into the set folder (a set holds everything it needs, so it can be shared as it is)"
    for folder in folders:
        if folder.is_symlink() and not inside(folder, ck.root):
            ck.error(folder, (), f"layout folder {_rel(folder, ck.root)} is a link to {folder.resolve()}, outside the set folder", hint)
            continue
        if not folder.is_dir() or not inside(folder, ck.root):
            continue  # missing, or already reported as outside
        for p in sorted(folder.rglob("*"))[:10_000]:
            if p.is_symlink() and not inside(p, ck.root):
                ck.error(p, (), f"layout file {_rel(p, ck.root)} is a link to {p.resolve()}, outside the set folder", hint)


GROUP_KEYS = ("name", "color", "icon", "description")


def _dimensions(ck: _Checker, doc: Document, decl: _Declarations) -> None:
    """The set's grouping dimensions: old-style `races:`/`factions:`, then `groups:` (each kept even
    when malformed, so its cards do not cascade into errors)."""
    d = decl.data
    for dim_id, key in (("race", "races"), ("faction", "factions")):
        if isinstance(d.get(key), dict):
            decl.dimensions[dim_id] = Dimension(dim_id, dim_id.capitalize(), frozen_map(
                {gid: _group(gid, g, dim_id, {}) for gid, g in d[key].items() if isinstance(g, dict)}))
    for dim_id, dim in _items(d.get("groups")):
        if not isinstance(dim, dict):
            continue
        path = ("groups", dim_id)
        legacy = {"race": "races", "faction": "factions"}.get(dim_id)
        if dim_id in decl.dimensions:
            ck.error(doc, path, f"the dimension '{dim_id}' is declared twice: under `{legacy}:` and under `groups:`",
                     f"keep one: move the groups of `{legacy}:` under `groups: {{{dim_id}: {{members: ...}}}}`", key=True)
            continue
        if dim_id in RESERVED_CARD_KEYS and legacy is None:
            ck.error(doc, path, f"a group dimension cannot be called '{dim_id}': cards use that key for something else",
                     f"reserved card keys: {', '.join(k for k in RESERVED_CARD_KEYS if k not in ('race', 'faction'))}", key=True)
            continue
        attrs: dict[str, FieldSpec] = {}
        for aname, spec in _items(dim.get("attributes")):
            if aname in GROUP_KEYS + ("id", "attributes", "members"):
                ck.error(doc, path + ("attributes", aname), f"a group attribute cannot be called '{aname}'",
                         f"groups already have {', '.join(GROUP_KEYS)}: choose another name", key=True)
                continue
            fs = _field_spec(ck, doc, path + ("attributes", aname), aname, spec, reserved=())
            if fs is not None:
                attrs[aname] = fs
        members: dict[str, Group] = {}
        for gid, g in _items(dim.get("members")):
            if not isinstance(g, dict):
                continue
            values: dict[str, Any] = {}
            for key, value in g.items():
                if key in GROUP_KEYS:
                    continue
                fs = attrs.get(key)
                if fs is None:
                    ck.error(doc, path + ("members", gid, key), f"{dim_id} '{gid}': '{key}' is not an attribute of dimension '{dim_id}'",
                             did_you_mean(key, list(attrs) + list(GROUP_KEYS)) or
                             (f"attributes: {', '.join(attrs)}" if attrs else f"declare it under groups.{dim_id}.attributes"), key=True)
                elif (problem := _field_problem(fs, value)):
                    ck.error(doc, path + ("members", gid, key), f"{dim_id} '{gid}': {key} {problem}",
                             did_you_mean(str(value), fs.values) if fs.kind == "enum" else None)
                else:
                    values[key] = _field_value(fs, value)
            for fs in attrs.values():
                if fs.name not in g:
                    if fs.required:
                        ck.error(doc, path + ("members", gid), f"{dim_id} '{gid}' lacks the required attribute '{fs.name}'",
                                 f"add `{fs.name}: ...`" + (f" (one of {', '.join(fs.values)})" if fs.values else ""), key=True)
                    elif fs.default is not None:
                        values[fs.name] = _field_value(fs, fs.default)
            members[gid] = _group(gid, g, dim_id, values)
        decl.dimensions[dim_id] = Dimension(dim_id, str(dim.get("name") or dim_id.replace("_", " ").capitalize()),
                                            frozen_map(members), frozen_map(attrs), str(dim.get("description", "")))


def _group(gid: str, g: dict, dim_id: str, attributes: dict[str, Any]) -> Group:
    return Group(gid, str(g.get("name", gid)), str(g.get("color") or "#777777"), g.get("icon"),
                 str(g.get("description", "")), frozen_map(attributes), dim_id)


def _items(value: Any) -> Iterable[tuple[str, Any]]:
    return value.items() if isinstance(value, dict) else ()


def _field_spec(ck: _Checker, doc: Document, path: tuple, name: str, spec: Any,
                reserved: tuple[str, ...] = RESERVED_CARD_KEYS) -> FieldSpec | None:
    if not isinstance(spec, dict) or spec.get("kind") not in ("int", "text", "enum", "list", "bool"):
        return None  # the schema reports it
    if name in reserved:
        ck.error(doc, path, f"field '{name}' has the name of a key every card has",
                 f"rename it: {', '.join(RESERVED_CARD_KEYS)} are reserved", key=True)
        return None
    kind = spec["kind"]
    values = tuple(str(v) for v in spec.get("values") or ())
    if kind == "enum" and not values:
        ck.error(doc, path, f"enum field '{name}' needs `values:` (the allowed values)", "add e.g. `values: [small, large]`", key=True)
    lo, hi = spec.get("min"), spec.get("max")
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        ck.error(doc, path + ("min",), f"field '{name}' has min {lo} above max {hi}")
    fs = FieldSpec(name, kind, bool(spec.get("required", False)), values, lo if isinstance(lo, int) else None,
                   hi if isinstance(hi, int) else None, spec.get("default"), str(spec.get("label", "")),
                   str(spec.get("description", "")))
    if "default" in spec:
        problem = _field_problem(fs, spec["default"])
        if problem:
            ck.error(doc, path + ("default",), f"the default of field '{name}' {problem}")
    return fs


def _field_problem(fs: FieldSpec, value: Any) -> str | None:
    """Why `value` does not fit the field, or None."""
    if fs.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"must be a whole number, not {describe(value)}"
        if fs.minimum is not None and value < fs.minimum:
            return f"must be at least {fs.minimum}, not {value}"
        if fs.maximum is not None and value > fs.maximum:
            return f"must be at most {fs.maximum}, not {value}"
    elif fs.kind == "text":
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            return f"must be text, not {describe(value)}"
    elif fs.kind == "bool":
        if not isinstance(value, bool):
            return f"must be true or false, not {describe(value)}"
    elif fs.kind == "enum":
        if str(value) not in fs.values:
            return f"must be one of {', '.join(fs.values)}, not {describe(value)}"
    elif fs.kind == "list":
        if not isinstance(value, list):
            return f"must be a list, like [a, b], not {describe(value)}"
        bad = [str(v) for v in value if fs.values and str(v) not in fs.values]
        if bad:
            return f"has '{bad[0]}', which is not one of {', '.join(fs.values)}"
    return None


def _field_value(fs: FieldSpec, value: Any) -> Any:
    if fs.kind == "text":
        return str(value)
    if fs.kind == "list":
        return tuple(str(v) for v in value)
    if fs.kind == "enum":
        return str(value)
    return value


def _cards(ck: _Checker, doc: Document, decl: _Declarations, seen: dict[str, SourceRef]) -> Iterable[Card]:
    defaults = doc.data.get("defaults") or {}
    if not isinstance(defaults, dict):
        defaults = {}
    for i, raw in enumerate(doc.data["cards"]):
        if not isinstance(raw, dict):
            continue  # the schema reports it
        base = ("cards", i)
        merged = {**defaults, **raw}
        origin = {k: (("defaults", k) if k not in raw else base + (k,)) for k in merged}
        ok = True
        for key in ("id", "name", "type"):
            if key not in merged:
                ck.error(doc, base, f"card {i + 1} of this file has no `{key}`", f"add `{key}: ...` to the card" +
                         (" (or to `defaults:`)" if key == "type" else ""))
                ok = False
        if not ok:
            continue
        cid = merged["id"]
        if not isinstance(cid, str):
            continue
        if not SLUG.match(cid) and "id" in raw and not _schema_reported(ck, doc, base + ("id",)):
            ck.error(doc, base + ("id",), f"card id '{cid}' is not a slug", f"use lower-case letters, digits and hyphens, e.g. '{slugify(cid) or 'card'}'")
        line, col = doc.position(base)
        ref = SourceRef(doc.path, line, col)
        duplicate = cid in seen
        if duplicate:
            first = seen[cid]
            ck.error(doc, base + ("id",), f"duplicate card id '{cid}' (first used at {_rel(first.file, ck.root)}:{first.line})",
                     "every card needs its own id: rename one of them")
        else:
            seen[cid] = ref
            ck.places[cid] = (doc, base, origin.get("effect"))
        card = _card(ck, doc, decl, merged, origin, cid, ref)  # checked even when duplicate: report all at once
        if card is not None and not duplicate:
            yield card


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _check_texts(ck: _Checker, doc: Document) -> None:
    """Text holding a control character (written as an escape such as "\\x1b" in a quoted string): it
    prints as nothing on a card and reaches terminals through `list` and messages. And text longer than
    any card shows (MAX_TEXT_CHARS): drawing megabytes of rules text takes minutes."""
    def walk(value: Any, path: tuple) -> None:
        if isinstance(value, str):
            bad = _CONTROL.search(value)
            if bad:
                line, col = doc.position(path)
                ck.diags.append(_by_card_id(doc, Diagnostic(
                    "error", doc.path, line, col, f"{path_text(path) or 'the file'} holds a control character (U+{ord(bad.group()):04X})",
                    "remove it: text is letters, digits, punctuation, spaces, tabs and new lines", path_text(path))))
            if len(value) > MAX_TEXT_CHARS:
                line, col = doc.position(path)
                ck.diags.append(_by_card_id(doc, Diagnostic(
                    "error", doc.path, line, col, f"{path_text(path) or 'the file'} is {len(value):,} characters long; "
                    f"cardsmith reads at most {MAX_TEXT_CHARS:,} in one text",
                    "a card shows a few hundred characters: shorten it (is this the right file?)", path_text(path))))
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + (i,))
    walk(doc.data, ())


_CARD_INDEX = re.compile(r"^cards\[(\d+)\](?:\.|(?=\s))|(?<= in )cards\[(\d+)\]$")


def _by_card_id(doc: Document, d: Diagnostic) -> Diagnostic:
    """A schema error about `cards[2].copies` named as `card 'night-heron': copies`, as the other card errors
    are (an index counted from 0 means little to a designer)."""
    m = _CARD_INDEX.search(d.message)
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    index = int(m.group(1) or m.group(2)) if m else -1
    if m is None or not isinstance(cards, list) or not 0 <= index < len(cards) or not isinstance(cards[index], dict) \
            or not isinstance(cards[index].get("id"), str):
        return d
    name = f"card '{cards[index]['id']}'"
    message = d.message[:m.start()] + (f"{name}: " if m.group(1) else name) + d.message[m.end():].lstrip()
    return replace(d, message=message)


def _own_error(ck: _Checker, doc: Document, key: str, message: str, hint: str | None = None) -> None:
    """Report a problem of top-level `key` in our own words, instead of what the schema said of it
    (a regular expression or a list of named sizes tells a designer less)."""
    ck.diags[:] = [x for x in ck.diags if not (x.file == doc.path and (x.path == key or x.path.startswith((key + ".", key + "["))))]
    ck.error(doc, (key,), message, hint)


def _schema_reported(ck: _Checker, doc: Document, path: tuple) -> bool:
    text = path_text(path)
    return any(d.file == doc.path and d.path == text for d in ck.diags)


def _rel(file: Path, root: Path) -> str:
    try:
        return str(file.relative_to(root))
    except ValueError:
        return str(file)


def _card(ck: _Checker, doc: Document, decl: _Declarations, merged: dict, origin: dict, cid: str, ref: SourceRef) -> Card | None:
    def at(key: str) -> tuple:
        return origin.get(key, origin["id"])  # _cards calls _card only for a card with an id

    ctype = merged["type"]
    tdecl = decl.types.get(ctype) if isinstance(ctype, str) else None
    if tdecl is None:
        if decl.types:
            ck.error(doc, at("type"), f"card '{cid}' has unknown type '{ctype}'",
                     did_you_mean(str(ctype), decl.types) or f"types declared in set.yaml: {', '.join(decl.types)}")
        return None
    groups = _card_groups(ck, doc, decl, merged, at, cid)
    ok = groups is not None
    fields: dict[str, Any] = {}
    for key, value in merged.items():
        if key in RESERVED_CARD_KEYS or key in decl.dimensions:
            continue
        fs = tdecl.fields.get(key)
        if fs is None:
            ok = False
            declared = list(tdecl.fields)
            ck.error(doc, at(key), f"card '{cid}': field '{key}' is not declared for type '{ctype}'",
                     _split_value_hint(merged, key) or did_you_mean(key, declared + list(RESERVED_CARD_KEYS)) or
                     (f"fields of '{ctype}': {', '.join(declared)}" if declared else f"declare it under types.{ctype}.fields in set.yaml"),
                     key=True)
            continue
        problem = _field_problem(fs, value)
        if problem:
            ok = False
            hint = did_you_mean(str(value), fs.values) if fs.kind == "enum" else None
            ck.error(doc, at(key), f"card '{cid}': {key} {problem}", hint)
            continue
        fields[key] = _field_value(fs, value)
    for fs in tdecl.fields.values():
        if fs.name not in fields and fs.name not in merged:
            if fs.required:
                ok = False
                ck.error(doc, at("id"), f"card '{cid}' lacks the required field '{fs.name}' of type '{ctype}'",
                         f"add `{fs.name}: ...`" + (f" (one of {', '.join(fs.values)})" if fs.values else ""))
            elif fs.default is not None:
                fields[fs.name] = _field_value(fs, fs.default)
    copies = merged.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        ok = False
        if not _schema_reported(ck, doc, at("copies")):
            ck.error(doc, at("copies"), f"card '{cid}': copies must be a whole number from 1 to {MAX_COPIES}, "
                     f"not {describe(copies)}")
    kws = _keywords(ck, doc, decl, merged.get("keywords"), at("keywords"), cid)
    if kws is None:
        ok = False
    for key in ("text", "flavor"):
        value = merged.get(key)
        if isinstance(value, str):
            for m in ICON_REF.finditer(value):
                if m.group(1) not in decl.icons and not (m.group(1).isdigit()):
                    ck.error(doc, at(key), f"card '{cid}': {key} uses icon {{{m.group(1)}}}, which set.yaml does not declare",
                             did_you_mean(m.group(1), decl.icons) or ("declared icons: " + ", ".join(decl.icons) if decl.icons else "declare it under `icons:` in set.yaml"))
                    ok = False
    art = None
    if isinstance(merged.get("art"), str):
        art = ck.inside(doc, at("art"), merged["art"], f"card '{cid}': art file")
        if art is None:
            ok = False
        elif (why := _unreadable_image(art)):
            ck.error(doc, at("art"), f"card '{cid}': art file '{merged['art']}' {why}", "is this the right file? Use PNG, JPEG or WebP")
            ok = False
    effects = _effects(ck, doc, merged.get("effect"), at("effect"), cid)
    if effects is None:
        ok = False
    tags = merged.get("tags") or []
    if not ok:
        return None
    return Card(
        id=cid, name=str(merged["name"]), type=ctype, fields=frozen_map(fields), groups=frozen_map(groups or {}), text=str(merged.get("text") or ""), flavor=str(merged.get("flavor") or ""), art=art,
        copies=copies, tags=tuple(str(t) for t in tags), keywords=tuple(kws or ()), back=merged.get("back") or tdecl.back,
        source=ref, effects=effects or (),
    )


def _split_value_hint(card: Mapping[str, Any], key: str) -> str | None:
    """The hint for a key with no value that reads like the end of a sentence: YAML took a comma in a
    one-line card (`{flavor: Small lamp, big ambitions.}`) as the end of the value before it."""
    if card.get(key) is not None or not re.search(r"\s|[.!?;:)]$", key):
        return None
    keys = list(card)
    before = keys[keys.index(key) - 1] if keys.index(key) > 0 else None
    if before is None or not isinstance(card.get(before), str):
        return None
    return (f"YAML read '{key}' as a new key: in a one-line card a comma ends a value. Quote the whole value: "
            f"{before}: \"{card[before]}, {key}\"")


def _card_groups(ck: _Checker, doc: Document, decl: _Declarations, merged: dict, at: Any, cid: str) -> dict[str, str] | None:
    """The card's group per dimension (`faction: coalition`), or None after reporting an unknown one."""
    groups: dict[str, str] = {}
    ok = True
    for key in dict.fromkeys(["race", "faction", *decl.dimensions]):
        value = merged.get(key)
        if value is None:
            continue
        dim = decl.dimensions.get(key)
        table = dim.groups if dim else {}
        if not isinstance(value, str) or value not in table:
            ok = False
            ck.error(doc, at(key), f"card '{cid}' has unknown {key} '{value}'",
                     did_you_mean(str(value), table) or (f"{key} groups declared in set.yaml: {', '.join(table)}" if table
                                                          else f"set.yaml declares no `{key}s:` (nor `groups: {{{key}: ...}}`)"))
        else:
            groups[key] = value
    return groups if ok else None
def _effects(ck: _Checker, doc: Document, value: Any, path: tuple, cid: str) -> tuple[Mapping[str, Any], ...] | None:
    """The card's `effect:` (one mapping or a list of them) as read-only mappings; None after an error.

    Only the shape is checked here (each effect names its handler with `do:`); the rules module's
    `effects` declarations say which handlers and parameters exist."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    out = []
    for i, item in enumerate(items):
        where = path + (i,) if isinstance(value, list) else path
        if not isinstance(item, dict) or not isinstance(item.get("do"), str) or not item["do"].strip():
            ck.error(doc, where, f"card '{cid}': an effect is a mapping that names its handler with `do:`",
                     "write e.g. `effect: {do: damage, amount: 4}` (see the rules page of the set's game)")
            return None
        out.append(frozen_map(item))
    return tuple(out)


_KW = re.compile(r"^\s*(.*?)\s*(?:\s(-?\d+))?\s*$")


def _keywords(ck: _Checker, doc: Document, decl: _Declarations, value: Any, path: tuple, cid: str) -> list[KeywordUse] | None:
    if value is None:
        return []
    if not isinstance(value, list):
        return None  # the schema reports it
    by_name = {k.name.lower(): k for k in decl.keywords.values()} | {k.id: k for k in decl.keywords.values()}
    out: list[KeywordUse] = []
    ok = True
    for i, item in enumerate(value):
        m = _KW.match(str(item))
        word, number = (m.group(1), m.group(2)) if m else (str(item), None)
        kw = by_name.get(word.lower())
        if kw is None and number is None and word.lower() in by_name:
            kw = by_name[word.lower()]
        if kw is None:
            ok = False
            ck.error(doc, path + (i,), f"card '{cid}' has unknown keyword '{word}'",
                     did_you_mean(word, [k.name for k in decl.keywords.values()]) or
                     ("declared keywords: " + ", ".join(k.name for k in decl.keywords.values()) if decl.keywords else "declare it under `keywords:` in set.yaml"))
            continue
        if kw.param == "int" and number is None:
            ok = False
            ck.error(doc, path + (i,), f"card '{cid}': keyword {kw.name} needs a number", f"write it like '{kw.name} 2'")
            continue
        if kw.param is None and number is not None:
            ok = False
            ck.error(doc, path + (i,), f"card '{cid}': keyword {kw.name} takes no number", f"write just '{kw.name}'")
            continue
        out.append(KeywordUse(kw.id, int(number) if number is not None else None))
    return out if ok else None
