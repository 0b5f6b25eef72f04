"""Layouts: sandboxed Jinja templates that turn one card face into a layer tree (plain data).

A layout is `cards/<set>/layouts/<name>.yaml.j2` (or in the folders set.yaml names under
`layout_folders:`; or `templates/default/<name>.yaml.j2`, cardsmith's generic ones). Rendering
runs in Jinja's `SandboxedEnvironment` with undefined names as errors; the result is read as YAML,
merged with the layout it `extends` (named layers are overridden key by key), and checked against
`cardsmith/sets/schemas/layout.schema.json`. Every `{{ }}` string is escaped for a double-quoted YAML
string, so card text can never break the YAML or run as template code.
"""

from __future__ import annotations

import colorsys
import hashlib
import os
import re
import json
import signal
import threading
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator
from pathlib import Path
from typing import Any, Callable

import jinja2
import yaml
from jinja2.compiler import CodeGenerator
from jinja2.sandbox import SandboxedEnvironment, SecurityError
from markupsafe import Markup

from cardsmith.base.diagnostics import did_you_mean
from cardsmith.layout import _data
from cardsmith.layout.memo import Memo
from cardsmith.base.errors import CardsmithError
from cardsmith.base.project import declared_layout_folders
from cardsmith.base.limits import LAYOUT_CPU_SECONDS, MAX_LAYOUT_MEMORY
from cardsmith.base.untrusted import inside, shown
from cardsmith.layout import _budget
from cardsmith.sets.model import Card, CardSet

SUFFIX = ".yaml.j2"
SET_LAYOUTS = "layouts"  # a set's own layouts: cards/<set>/layouts/
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "sets" / "schemas" / "layout.schema.json"
LAYER_KINDS = ("rect", "ellipse", "line", "polygon", "image", "icon", "text")
MAX_EXTENDS = 10
# What a layout may build: a card face needs short strings and small numbers, and a shared set's
# layout must not be able to fill the memory ("x" * 10**9) or loop for hours (nested ranges).
MAX_REPEAT = 100_000  # items of a string or list made with `*`
MAX_POWER_BITS = 4_096  # bits of a number made with `**`
_SANDBOX_RULES = "binops3"  # change when _Environment's checks change, so older compiled layouts are not reused
LAYOUT_SECONDS = LAYOUT_CPU_SECONDS  # per card face; a module name so a test can shorten it

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_REFERENCE = re.compile(r"""\{%-?\s*(?:extends|include|import|from)\s+["']([^"']+)["']""")


class LayoutError(CardsmithError):
    """A problem in a layout; the message names the template file and line, the card and the layer."""


class LayoutBudgetError(LayoutError):
    """A layout that spent more than a card face may (time, memory, output, layers): `validate` reports
    these too, since drawing would only meet them again (issue 32)."""


def layout_dirs(template_dirs: list[Path], set_id: str, set_dir: Path | None = None,
                own: tuple[Path, ...] | list[Path] = ()) -> list[Path]:
    """Where a set's layouts are looked up: the set's own folders (`own`, set.yaml's `layout_folders:`;
    by default `<set>/layouts/`), then `<dir>/<set-id>/` for each template dir, then `<dir>/default/`,
    then the template dirs themselves (so `extends: default/card` names a layout in another folder)."""
    mine = [Path(d) for d in own] or ([Path(set_dir) / SET_LAYOUTS] if set_dir is not None else [])
    dirs = mine + [Path(d) / set_id for d in template_dirs] + [Path(d) / "default" for d in template_dirs] + list(template_dirs)
    return [d for d in dirs if d.is_dir()]


def layouts_for(project: Any, cardset: Any) -> "Layouts":
    """The layouts a set is drawn with: its own folders first, then the project's, then cardsmith's."""
    own = tuple(getattr(cardset, "layout_folders", ()) or ())
    return Layouts(layout_dirs(project.template_dirs, cardset.id, Path(cardset.path), own), project.set_roots,
                   set_dir=Path(cardset.path), roots=project.template_dirs)


def _own_folders_of(set_dir: Path) -> list[Path]:
    """Another set's own layout folders, for `other-set/name`: its `layout_folders:`, else `layouts/`."""
    set_yaml = set_dir / "set.yaml"
    try:
        stamp = set_yaml.stat().st_mtime_ns
    except OSError:
        return [set_dir / SET_LAYOUTS]
    return _read_own_folders(str(set_dir), stamp)


@lru_cache(maxsize=64)
def _read_own_folders(set_dir: str, stamp: int) -> list[Path]:
    try:
        data = yaml.load((Path(set_dir) / "set.yaml").read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        data = None  # the borrowing set's own validation says what is wrong with it
    declared = data.get("layout_folders") if isinstance(data, dict) else None
    inside = [f for f in declared_layout_folders(Path(set_dir), declared) if f.is_relative_to(Path(set_dir).resolve())]
    return inside or [Path(set_dir) / SET_LAYOUTS]


# ---- helpers a layout may use ---------------------------------------------------------------------

def _rgb(color: str) -> tuple[float, float, float]:
    from PIL import ImageColor
    r, g, b = ImageColor.getrgb(str(color))[:3]
    return r / 255, g / 255, b / 255


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c * 255))):02x}" for c in rgb)


def mix(color: str, other: str, amount: float = 0.5) -> str:
    """`color` moved `amount` (0..1) of the way towards `other`."""
    (r, g, b), (r2, g2, b2), t = _rgb(color), _rgb(other), float(amount)
    return _hex((r + (r2 - r) * t, g + (g2 - g) * t, b + (b2 - b) * t))


def lighten(color: str, amount: float = 0.2) -> str:
    return mix(color, "#ffffff", amount)


def darken(color: str, amount: float = 0.2) -> str:
    return mix(color, "#000000", amount)


def alpha(color: str, opacity: float) -> str:
    """`#rrggbbaa` with the given opacity (0..1)."""
    return _hex(_rgb(color)) + f"{max(0, min(255, round(float(opacity) * 255))):02x}"


def contrast(color: str, dark: str = "#111111", light: str = "#ffffff") -> str:
    """`dark` or `light`, whichever has the higher WCAG contrast ratio on `color` (the print rules' measure)."""
    from cardsmith.layout._colour import contrast_ratio

    on = tuple(c * 255 for c in _rgb(color))
    ratio = lambda ink: contrast_ratio(tuple(c * 255 for c in _rgb(ink)), on)  # type: ignore[arg-type]  # noqa: E731
    return dark if ratio(dark) >= ratio(light) else light


def saturate(color: str, amount: float = 0.2) -> str:
    h, l, s = colorsys.rgb_to_hls(*_rgb(color))
    return _hex(colorsys.hls_to_rgb(h, l, max(0.0, min(1.0, s + float(amount)))))


def pick(choices: Any, key: Any) -> Any:
    """One of `choices`, chosen by a stable hash of `key`: the same card always gets the same one."""
    items = list(choices)
    if not items:
        return None
    digest = hashlib.sha256(str(key).encode()).digest()
    return items[int.from_bytes(digest[:4], "big") % len(items)]


def safe(value: Any) -> Any:
    """`safe` on a card's field is `markup` (its rich text read as markup); on what the layout itself
    built (a macro's output) it is Jinja's `safe`: written into the layout's YAML as it is."""
    if isinstance(value, _data.Data):
        return _data.markup(value)
    return Markup(value)


FILTERS = {"pick": pick, "mix": mix, "lighten": lighten, "darken": darken, "alpha": alpha, "contrast": contrast, "saturate": saturate,
           "markup": _data.markup, "safe": safe, "title": _data.title}


def _finalize(value: Any) -> Any:
    """What `{{ value }}` writes: strings escaped for a double-quoted YAML string, numbers as they are."""
    if isinstance(value, Markup):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return value
    if value is None:
        return ""
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return json.dumps(str(value), ensure_ascii=False)[1:-1]


# ---- the template context -------------------------------------------------------------------------

NEUTRAL = {"id": None, "name": "Neutral", "color": "#8a8f98", "icon": None}


def set_context(cardset: CardSet) -> dict[str, Any]:
    """What every layout of a set sees as `set` (plain data, so the sandbox has nothing to reach into)."""
    w, h = cardset.card_size
    return {
        "id": cardset.id, "name": cardset.name, "version": cardset.version, "description": cardset.description,
        "card_size": {"width": f"{w}mm", "height": f"{h}mm"}, "width_mm": w, "height_mm": h,
        "bleed_mm": cardset.bleed, "safe_mm": cardset.safe,
        "types": {t.id: {"id": t.id, "name": t.name, "back": t.back,
                         "fields": {f.name: {"name": f.name, "kind": f.kind, "label": f.label or f.name.replace("_", " ").capitalize(),
                                             "values": list(f.values)} for f in t.fields.values()}}
                  for t in cardset.types.values()},
        "races": {g.id: _group(g) for g in cardset.races.values()},
        "factions": {g.id: _group(g) for g in cardset.factions.values()},
        "groups": {d.id: {"id": d.id, "name": d.name, "attributes": list(d.attributes),
                          "members": {g.id: _group(g) for g in d.groups.values()}} for d in cardset.dimensions.values()},
        "keywords": {k.id: {"id": k.id, "name": k.name, "reminder": k.reminder, "param": k.param}
                     for k in cardset.keywords.values()},
        "icons": sorted(cardset.icons),
        "meta": _plain(dict(cardset.meta)),
    }


def _group(g) -> dict[str, Any]:
    return {"id": g.id, "name": g.name, "color": g.color, "icon": g.icon, "description": g.description,
            **_plain(dict(g.attributes)), "attributes": _plain(dict(g.attributes))}


def _plain(value: Any) -> Any:
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def card_context(cardset: CardSet, card: Card, setctx: dict[str, Any] | None = None) -> dict[str, Any]:
    """The variables a card layout sees: `card`, `set`, `faction` (the card's main group: its group in the
    first declared dimension it belongs to, or neutral), `type`. `card.groups` maps each dimension to
    the card's group there; `card.attributes` holds its group attributes (its own field winning)."""
    setctx = setctx or set_context(cardset)
    ctype = cardset.types.get(card.type)
    group = cardset.group_of(card)
    keywords = []
    for k in card.keywords:
        decl = cardset.keywords.get(k.id)
        name = decl.name if decl else k.id.capitalize()
        reminder = decl.reminder_for(k.value) if decl else ""
        keywords.append({"id": k.id, "name": name, "value": k.value,
                         "label": name if k.value is None else f"{name} {k.value}",
                         "reminder": reminder, "raw_reminder": decl.reminder if decl else ""})
    art = None
    if card.art:
        try:
            art = str(Path(card.art).resolve().relative_to(Path(cardset.path).resolve()))
        except ValueError:
            art = str(card.art)
    fields = _plain(dict(card.fields))
    data: dict[str, Any] = dict(fields)
    data.update({
        "id": card.id, "name": card.name, "type": card.type, "type_name": ctype.name if ctype else card.type,
        "race": card.race, "faction": card.faction, "text": card.text or "", "flavor": card.flavor or "",
        "art": art, "copies": card.copies, "tags": list(card.tags), "keywords": keywords,
        "keyword_ids": [k.id for k in card.keywords], "fields": fields, "back": card.back,
        "groups": {d.id: _group(g) for d, g in cardset.groups_of(card)},
        "attributes": {a: cardset.attribute(card, a) for d in cardset.dimensions.values() for a in d.attributes},
    })
    for dim_id, gid in card.groups.items():
        data.setdefault(dim_id, gid)
    return {"card": data, "set": setctx, "faction": _group(group) if group else dict(NEUTRAL),
            "type": setctx["types"].get(card.type, {"id": card.type, "name": card.type, "fields": {}})}


def back_context(cardset: CardSet, back_id: str, spec: dict[str, Any], setctx: dict[str, Any] | None = None) -> dict[str, Any]:
    """The variables a back layout sees: `back` (id, name and the back's own keys from set.yaml) and `set`."""
    setctx = setctx or set_context(cardset)
    back = {"id": back_id, "name": spec.get("name") or back_id.replace("-", " ").replace("_", " ").title()}
    back.update({k: _plain(v) for k, v in spec.items() if k not in ("layout",)})
    return {"back": back, "set": setctx}


# ---- rendering ------------------------------------------------------------------------------------

def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled layouts kept between runs (Jinja checks each file's checksum), so an incremental
    rebuild does not recompile every layout; None when no temporary folder is writable."""
    try:  # named for cardsmith's sandbox rules: code compiled without them (constants folded) is never reused
        return jinja2.FileSystemBytecodeCache(pattern=f"__cardsmith_{_SANDBOX_RULES}_%s.cache")
    except (OSError, RuntimeError):
        return None


class _CodeGenerator(CodeGenerator):
    """Jinja's compiler, with `a ~ b` built through the environment, which checks its length first
    (a `~` doubling in a loop reached gigabytes before any other check could see it)."""

    def visit_Concat(self, node: Any, frame: Any) -> None:
        self.write("environment.concat_checked((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class _Environment(SandboxedEnvironment):
    """Names in `{% import %}`/`{% include %}` resolve beside the including layout first (so
    `solar-empires/ship` can import `_geometry.yaml.j2` from its own folder when another set uses it)."""

    layouts: "Layouts"
    intercepted_binops = frozenset(["*", "**", "%", "+"])
    code_generator_class = _CodeGenerator

    @staticmethod
    def concat_checked(parts: tuple) -> str:
        texts = [str(p) for p in parts]
        _budget.check_length(sum(map(len, texts)), "~")
        return "".join(texts)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (jinja's signature)
        _budget.check_call(__obj, args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)

    def call_filter(self, name: str, value: Any, args: Any = None, kwargs: Any = None, *rest: Any, **kw: Any) -> Any:
        _budget.check_filter(name, value, tuple(args or ()), dict(kwargs or {}))
        return super().call_filter(name, value, args, kwargs, *rest, **kw)

    def wrap_str_format(self, value: Any) -> Any:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt = value.__self__

        def checked(*args: Any, **kwargs: Any) -> Any:
            _budget.brace_format(fmt, args, kwargs if value.__name__ == "format" else dict(args[0]) if args else {})
            return wrapped(*args, **kwargs)
        return checked

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "%":
            _budget.percent_format(left, right)
        if operator == "+":
            _budget.check_concat(left, right)
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and len(seq) * times > MAX_REPEAT:
                    raise _TooLarge(f"a value too large: {len(seq)} items repeated {times} times "
                                        f"(a layout may repeat up to {MAX_REPEAT} items)")
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0 \
                and abs(left) > 1 and abs(left).bit_length() * right > MAX_POWER_BITS:
            raise _TooLarge(f"a number too large: {left} ** {right}")
        return super().call_binop(context, operator, left, right)

    def join_path(self, template: str, parent: str) -> str:
        return self.layouts.relative(template.removesuffix(SUFFIX), parent.removesuffix(SUFFIX)) + SUFFIX


_TooLarge = _budget.TooLarge


class _TooSlow(Exception):
    """A layout ran past its CPU time (raised from the timer's signal)."""


_TICK = 0.05  # CPU seconds between looks at the clock and the memory


@contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Stop the code inside after `seconds` of CPU time, or once it has grown the process by more
    than MAX_LAYOUT_MEMORY (a process timer, so only in the main thread: render workers and the CLI
    render there; elsewhere, e.g. a server thread, no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    start, spent = _budget.resident_bytes(), [0.0]

    def stop(signum: int, frame: Any) -> None:
        spent[0] += _TICK
        if spent[0] >= seconds:
            raise _TooSlow()
        if start and _budget.resident_bytes() - start > MAX_LAYOUT_MEMORY:
            raise _TooLarge(f"the layout grew the memory by more than {MAX_LAYOUT_MEMORY >> 20} MB")

    previous = signal.signal(signal.SIGVTALRM, stop)
    signal.setitimer(signal.ITIMER_VIRTUAL, min(_TICK, seconds), _TICK)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


def _bound(d: Path, set_dir: Path | None, roots: list[Path] | tuple[Path, ...]) -> Path:
    """The folder a layout folder's files must resolve into: the set for its own folders, else the
    template root holding it, else the folder itself (compared without following links)."""
    here = Path(os.path.abspath(d))
    for home in ([set_dir] if set_dir is not None else []) + list(roots):
        if here.is_relative_to(os.path.abspath(home)):
            return Path(home)
    return d


def _confined(p: Path, bound: Path) -> Path:
    """`p` when it resolves inside `bound`; else a LayoutError: a shared set's layout that is a link
    to a file elsewhere would print a line of that file on a card."""
    if not inside(p, bound):
        link = next((q for q in [p, *p.parents] if q.is_symlink()), p)
        raise LayoutError(f"{p}: layout file is outside {bound}: {link} is a link to {link.resolve()}",
                          hint="copy the layout into the set's folder (a set holds everything it needs, so it can be shared)")
    return p


class _LayoutLoader(jinja2.BaseLoader):
    """Jinja finds layouts exactly as `Layouts.find` does (including other sets' `layouts/` folders)."""

    def __init__(self, layouts: "Layouts"):
        self.layouts = layouts

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        path = self.layouts.find(template.removesuffix(SUFFIX)) if template.endswith(SUFFIX) else None
        if path is None:
            raise jinja2.TemplateNotFound(template)
        mtime = path.stat().st_mtime_ns
        return path.read_text(encoding="utf-8"), str(path), lambda: path.is_file() and path.stat().st_mtime_ns == mtime


class Layouts:
    """The layouts of one set: finds, renders, merges and checks them.

    `dirs` are searched for a layout name in order; a name `other-set/name` is also looked up as
    `<root>/other-set/layouts/name` for each of `set_roots`, so a set can borrow another's layouts.
    """

    def __init__(self, dirs: list[Path], set_roots: list[Path] | tuple[Path, ...] = (), *,
                 set_dir: Path | None = None, roots: list[Path] | tuple[Path, ...] = ()):
        self.dirs = [Path(d) for d in dirs]
        self.set_roots = [Path(r) for r in set_roots]
        # the folder each layout folder's files must stay in once links are followed (issue 32): the
        # set's own folders in the set, a template folder in its template root, a bare folder in itself
        self.bounds = [_bound(d, set_dir, roots) for d in self.dirs]
        self.env = _Environment(
            loader=_LayoutLoader(self),
            undefined=jinja2.StrictUndefined, finalize=_finalize, autoescape=False,
            bytecode_cache=_bytecode_cache(),
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        )
        self.env.layouts = self
        self.env.filters.update(FILTERS)
        self.env.filters.update(_budget.checked_filters(self.env.filters))
        self.env.globals.update(FILTERS)
        self._refs: dict[str, frozenset[str]] = {}
        self._over_budget: dict[str, tuple[str, LayoutBudgetError]] = {}
        self._digests: dict[frozenset[str], str] = {}
        self._as_data: dict[str, tuple[Any, Any]] = {}  # per context key: (the last value given, it as Data)

    def find(self, name: str) -> Path | None:
        """The file a layout name resolves to (first match in the lookup order), or None."""
        if ".." in Path(name).parts or Path(name).is_absolute():
            return None
        for d, bound in zip(self.dirs, self.bounds):
            p = d / (name + SUFFIX)
            if p.is_file():
                return _confined(p, bound)
        if "/" in name:
            other, rest = name.split("/", 1)
            for root in self.set_roots:
                for folder in _own_folders_of(root / other):
                    p = folder / (rest + SUFFIX)
                    if p.is_file():
                        return _confined(p, root / other if (root / other).resolve().is_relative_to(root.resolve()) else root)
        return None

    def exists(self, name: str) -> bool:
        return self.find(name) is not None

    def relative(self, name: str, parent: str) -> str:
        """`name` as written inside layout `parent`: beside `parent` if such a layout exists, else as given."""
        if "/" in parent:
            beside = parent.rsplit("/", 1)[0] + "/" + name
            if self.exists(beside):
                return beside
        return name

    def jinja_refs(self, name: str) -> frozenset[str]:
        """Layout names a template pulls in with Jinja (`{% extends %}`, `{% include %}`, `{% import %}`), recursively."""
        if name in self._refs:
            return self._refs[name]
        self._refs[name] = frozenset({name})  # guards cycles
        out = {name}
        path = self.find(name)
        if path is not None:
            # a scan, not a parse: parsing every layout again costs more than rendering a card
            for ref in _REFERENCE.findall(path.read_text(encoding="utf-8")):
                if ref.endswith(SUFFIX):
                    out |= self.jinja_refs(self.relative(ref[: -len(SUFFIX)], name))
        self._refs[name] = frozenset(out)
        return self._refs[name]

    def digest(self, names: set[str] | frozenset[str]) -> str:
        """A hash of the files these layout names resolve to now (and what they include).

        Memoised per set of names: a batch asks for the same few sets once per card.
        """
        key = frozenset(names)
        if key not in self._digests:
            self._digests[key] = self._digest(key)
        return self._digests[key]

    def _digest(self, names: frozenset[str]) -> str:
        h = hashlib.sha256()
        allnames: set[str] = set()
        for n in names:
            allnames |= self.jinja_refs(n)
        for n in sorted(allnames):
            p = self.find(n)
            h.update(n.encode() + b"\0" + (str(p).encode() if p else b"-") + b"\0")
            if p:
                h.update(p.read_bytes())
        return h.hexdigest()

    def render(self, name: str, context: dict[str, Any], what: str) -> tuple[dict[str, Any], set[str]]:
        """The checked layer tree of layout `name` for `what` ("card 'x'"), and the layout names it used."""
        used: set[str] = set()
        if name in self._over_budget:  # every face would spend the whole budget again: a set of 1,000 cards, hours
            first, error = self._over_budget[name]
            raise LayoutBudgetError(f"layout '{name}' went over a card face's budget on {first}; not tried for {what}",
                                    hint=error.hint)
        try:
            tree = self._render_merged(name, self.data_context(context), what, used, [])
        except LayoutBudgetError as e:
            self._over_budget[name] = (what, e)
            raise
        tree.pop("extends", None)
        defaults = tree.pop("defaults", None) or {}
        if defaults:
            if not isinstance(defaults, dict):
                raise LayoutError(f"{self.find(name)}: 'defaults' must map layer kinds to settings ({what})")
            tree["layers"] = [{k: {**(defaults.get(k) or {}), **v} if isinstance(v, dict) else v for k, v in layer.items()}
                              if isinstance(layer, dict) else layer for layer in tree.get("layers") or []]
        check_tree(tree, self.find(name), what)
        return tree, used

    def data_context(self, context: dict[str, Any]) -> dict[str, Any]:
        """The context with every string made `Data` (text is data: `_data`), art paths kept as written.

        The set's part is the same object for every face of a render: converted once."""
        out: dict[str, Any] = {}
        for key, value in context.items():
            last = self._as_data.get(key)
            if last is not None and last[0] is value:
                out[key] = last[1]
                continue
            out[key] = _data.as_data(value)
            if isinstance(value, dict) and "art" in value and isinstance(value["art"], str):
                out[key]["art"] = str.__str__(value["art"])  # a path, not text
            self._as_data[key] = (value, out[key])
        return out

    def _render_merged(self, name: str, context: dict[str, Any], what: str, used: set[str], chain: list[str]) -> dict[str, Any]:
        if name in chain:
            raise LayoutError(f"layout '{name}' extends itself ({' -> '.join(chain + [name])}) while rendering {what}",
                              hint="remove the loop of 'extends'")
        if len(chain) > MAX_EXTENDS:
            raise LayoutError(f"layout '{name}': more than {MAX_EXTENDS} levels of 'extends' while rendering {what}")
        used |= self.jinja_refs(name)
        tree = self._render_one(name, context, what)
        parent = tree.get("extends")
        if parent:
            if not isinstance(parent, str):
                raise LayoutError(f"{self.find(name)}: 'extends' must name a layout, got {parent!r} ({what})")
            parent = self.relative(parent, name)
            if not self.exists(parent):
                raise LayoutError(f"{self.find(name)}: layout '{name}' extends '{parent}', which does not exist ({what})",
                                  hint=self._known_hint(parent))
            base = self._render_merged(parent, context, what, used, chain + [name])
            tree = merge_trees(base, tree, self.find(name), what)
        else:
            tree = place_anchored(tree, self.find(name), what)
        return tree

    def _known_hint(self, name: str) -> str:
        known = sorted({p.name[: -len(SUFFIX)] for d in self.dirs for p in d.glob("*" + SUFFIX)})
        dym = did_you_mean(name, known)
        return (dym + " " if dym else "") + f"layouts found: {', '.join(known) or 'none'} (in {', '.join(str(d) for d in self.dirs)})"

    def _render_one(self, name: str, context: dict[str, Any], what: str) -> dict[str, Any]:
        path = self.find(name)
        if path is None:
            raise LayoutError(f"no layout named '{name}' for {what}", hint=self._known_hint(name))
        try:
            template = self.env.get_template(name + SUFFIX)
            with _cpu_limit(LAYOUT_SECONDS):
                text = template.render(**context)
        except _TooSlow:
            raise LayoutBudgetError(f"{path}: the layout took more than {LAYOUT_SECONDS:g} s of CPU for {what} and was stopped",
                              hint="look for loops inside loops; a card face needs milliseconds") from None
        except jinja2.TemplateSyntaxError as e:
            raise LayoutError(f"{e.filename or path}:{e.lineno}: layout syntax error: {e.message} (while rendering {what})",
                              hint="fix the Jinja syntax on that line") from None
        except jinja2.TemplateNotFound as e:
            file, line = _template_position(e, path)
            raise LayoutError(f"{file}:{line}: layout '{e.name}' not found (while rendering {what})",
                              hint=self._known_hint(str(e.name).removesuffix(SUFFIX))) from None
        except _TooLarge as e:
            file, line = _template_position(e, path)
            raise LayoutBudgetError(f"{file}:{line}: {e} (while rendering {what})",
                              hint="a card face needs short strings and small numbers: repeat less") from None
        except SecurityError as e:
            file, line = _template_position(e, path)
            raise LayoutError(f"{file}:{line}: the layout tried something the sandbox forbids: {e} (while rendering {what})",
                              hint="layouts may read card data and use filters, but not Python internals") from None
        except jinja2.UndefinedError as e:
            file, line = _template_position(e, path)
            raise LayoutError(f"{file}:{line}: {e.message} (while rendering {what})",
                              hint="check the name's spelling; test optional fields with `{% if card.x is defined %}`") from None
        except Exception as e:  # errors raised by filters on bad values (a colour that is no colour...)
            file, line = _template_position(e, path)
            raise LayoutError(f"{file}:{line}: {type(e).__name__}: {e} (while rendering {what})") from None
        if too_big := _budget.check_output(text, what):
            raise LayoutBudgetError(f"{path}: {too_big}", hint="a card face needs a few kilobytes of layout output: loop less")
        try:
            data = load_tree(text)
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            lines = text.splitlines()
            at = lines[mark.line] if mark and mark.line < len(lines) else ""
            raise LayoutError(f"{path}: the layout's output is not valid YAML for {what}: {e.problem} "
                              f"at output line {mark.line + 1 if mark else '?'}: {at.strip()!r}",
                              hint="put every {{ }} value that is text inside double quotes: value: \"{{ card.name }}\"") from None
        except yaml.YAMLError as e:  # a reader error: a control character in the output (issue 32's fuzz test)
            raise LayoutError(f"{path}: the layout's output is not valid YAML for {what}: {shown(str(e).splitlines()[0])}",
                              hint="layouts write text, not control characters; check what the layout or the card data puts out") from None
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise LayoutError(f"{path}: a layout must produce a map with 'layers:' ({what})")
        if too_big := _budget.check_tree(data, what):
            raise LayoutBudgetError(f"{path}: {too_big}", hint="a card face needs tens of layers; remove YAML anchors that repeat others")
        data["_file"] = str(path)
        layers = data.get("layers")
        if isinstance(layers, list):  # new maps: parsed layers may be shared through the chunk cache
            data["layers"] = [{k: ({"_file": str(path), **v} if isinstance(v, dict) else v) for k, v in layer.items()}
                              if isinstance(layer, dict) else layer for layer in layers]
        return data


_CHUNKS = Memo(5000)  # a layer item's YAML text -> its value
_ITEM = re.compile(r"^( *)- ")
_UNREAD = object()


def load_tree(text: str) -> Any:
    """Read a layout's YAML output, reusing the parse of layer items seen before.

    Most layers come out the same for card after card (frames, panels, badges), and reading YAML
    is a large part of a layout's cost, so each item of the top-level `layers:` list is parsed on
    its own and remembered by its text. Anything unusual (flow-style layers, anchors, a parse
    error) falls back to reading the whole text at once, which also words any error.
    The parsed values are shared: callers must not modify them.
    """
    lines = text.split("\n")
    try:
        start = lines.index("layers:")
    except ValueError:
        return yaml.load(text, Loader=_Loader)
    header, chunks, current, indent = lines[:start], [], None, None
    i = start + 1
    while i < len(lines):
        line = lines[i]
        m = _ITEM.match(line)
        if m and (indent is None or len(m.group(1)) == indent):
            indent = len(m.group(1))
            current = [line[indent:]]
            chunks.append(current)
        elif not line.strip() or line.lstrip().startswith("#"):
            if current is not None:  # blank lines and "#" lines may be the content of a block scalar
                current.append(line[indent:] if line[:indent].strip() == "" and len(line) - len(line.lstrip(" ")) >= (indent or 0) else "")
        elif line[0] != " ":  # the next top-level key: the list is over
            break
        elif current is not None and len(line) - len(line.lstrip(" ")) > (indent or 0):
            current.append(line[indent:])
        else:
            return yaml.load(text, Loader=_Loader)
        i += 1
    if "&" in text or not chunks:  # anchors could tie chunks together: read the whole text
        return yaml.load(text, Loader=_Loader)
    try:
        head = yaml.load("\n".join(header + lines[i:]), Loader=_Loader) or {}
        if not isinstance(head, dict) or "layers" in head:
            return yaml.load(text, Loader=_Loader)
        layers = []
        for chunk in chunks:
            key = "\n".join(chunk) + "\n"
            value = _CHUNKS.get(key, _UNREAD)
            if value is _UNREAD:
                item = yaml.load(key, Loader=_Loader)
                if not (isinstance(item, list) and len(item) == 1):
                    return yaml.load(text, Loader=_Loader)
                value = item[0]
                _CHUNKS.put(key, value)
            layers.append(value)
    except yaml.YAMLError:
        return yaml.load(text, Loader=_Loader)
    head["layers"] = layers
    return head


def _template_position(exc: BaseException, fallback: Path) -> tuple[str, int | str]:
    """The template file and line an exception was raised at (Jinja rewrites tracebacks to template lines)."""
    import traceback  # (only for an error: a layout that renders never loads it)

    file = str(fallback)
    line: int | str = "?"
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        fn = frame.f_code.co_filename
        if fn.endswith(SUFFIX):
            file, line = fn, lineno
    return file, line


def merge_trees(base: dict[str, Any], child: dict[str, Any], child_file: Path | None, what: str) -> dict[str, Any]:
    """`child` over `base`: top-level keys replace, `fonts` and `defaults` merge, layers merge by `name`.

    A child layer whose name matches a base layer of the same kind updates its keys in place (a
    different kind replaces it); `{remove: name}` deletes one; other layers are added on top, or
    next to a named layer with `below: name` / `above: name` (which also moves a matched layer).
    """
    out = {k: v for k, v in base.items()}
    for k, v in child.items():
        if k in ("layers", "extends"):
            continue
        if k in ("fonts", "defaults") and isinstance(v, dict) and isinstance(base.get(k), dict):
            merged = dict(base[k])
            for kk, vv in v.items():
                merged[kk] = {**merged[kk], **vv} if isinstance(vv, dict) and isinstance(merged.get(kk), dict) else vv
            out[k] = merged
        else:
            out[k] = v
    layers = [dict(layer) if isinstance(layer, dict) else layer for layer in base.get("layers") or []]
    for raw in child.get("layers") or []:
        names = _names(layers)
        if isinstance(raw, dict) and set(raw) == {"remove"}:
            target = raw["remove"]
            if target not in names:
                raise LayoutError(f"{child_file}: 'remove: {target}' names no layer of the layout it extends ({what})",
                                  hint=did_you_mean(str(target), names) or f"named layers: {', '.join(names) or 'none'}")
            layers.pop(names[target])
            continue
        layer, anchor = _split_anchor(raw, child_file, what)
        name = _layer_name(layer)
        if name and name in names:
            i = names[name]
            (bk, bv), (ck, cv) = next(iter(layers[i].items())), next(iter(layer.items()))
            layer = {ck: {**bv, **cv}} if bk == ck and isinstance(bv, dict) else layer
            if anchor is None:
                layers[i] = layer
                continue
            layers.pop(i)
        _place(layers, layer, anchor, child_file, what)
    out["layers"] = layers
    return out


def place_anchored(tree: dict[str, Any], file: Path | None, what: str) -> dict[str, Any]:
    """A layout's own layers with `below:`/`above:` moved next to the layer they name."""
    layers = tree.get("layers")
    if not isinstance(layers, list) or not any(_split_anchor(layer, file, what)[1] for layer in layers):
        return tree
    plain = [_split_anchor(layer, file, what) for layer in layers]
    out = [layer for layer, anchor in plain if anchor is None]
    for layer, anchor in plain:
        if anchor is not None:
            _place(out, layer, anchor, file, what)
    return {**tree, "layers": out}


def _names(layers: list[Any]) -> dict[str, int]:
    return {n: i for i, layer in enumerate(layers) if (n := _layer_name(layer))}


def _split_anchor(layer: Any, file: Path | None, what: str) -> tuple[Any, tuple[str, str] | None]:
    """The layer without its `below:`/`above:`, and ("below" or "above", layer name) if it had one."""
    if not (isinstance(layer, dict) and len(layer) == 1):
        return layer, None
    kind, props = next(iter(layer.items()))
    if not isinstance(props, dict) or not ({"below", "above"} & props.keys()):
        return layer, None
    props = dict(props)
    below, above = props.pop("below", None), props.pop("above", None)
    if below is not None and above is not None:
        raise LayoutError(f"{file}: a layer can be placed below or above another, not both ({what})")
    return {kind: props}, ("below", str(below)) if below is not None else ("above", str(above))


def _place(layers: list[Any], layer: Any, anchor: tuple[str, str] | None, file: Path | None, what: str) -> None:
    if anchor is None:
        layers.append(layer)
        return
    where, target = anchor
    names = _names(layers)
    if target not in names:
        raise LayoutError(f"{file}: '{where}: {target}' names no layer before it ({what})",
                          hint=did_you_mean(target, names) or f"named layers: {', '.join(names) or 'none'}")
    layers.insert(names[target] + (1 if where == "above" else 0), layer)


def _layer_name(layer: Any) -> str | None:
    if isinstance(layer, dict) and len(layer) == 1:
        props = next(iter(layer.values()))
        if isinstance(props, dict):
            return props.get("name")
    return None


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validators():
    from jsonschema import Draft202012Validator
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    top = Draft202012Validator(schema)
    kinds = {k: Draft202012Validator({**schema["$defs"][k], "$defs": schema["$defs"]}) for k in LAYER_KINDS}
    return top, kinds


def _layer_line(file: Any, name: Any) -> str:
    """`file:line` of the layer named `name` in a layout file (the line that says `name: ...`), or `file`."""
    if not file or not isinstance(name, str):
        return str(file)
    try:
        for i, line in enumerate(Path(file).read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bname:\s*[\"']?" + re.escape(name) + r"[\"',}\s]", line + " "):
                return f"{file}:{i}"
    except OSError:
        pass
    return str(file)


_VALID = Memo(20_000)  # layers already found valid (many repeat from card to card)


_VALID_PROPS = Memo(50_000)  # (kind, setting, repr of value) found valid
_SHELL_KEYS = {"type", "additionalProperties", "required", "properties", "minProperties", "maxProperties"}


@lru_cache(maxsize=None)
def _setting_validators(kind: str) -> tuple[Any, dict[str, Any]]:
    """For layers of `kind`: a validator of which settings a layer has and one per setting, built once
    (None, {} for a shape `_layer_valid` does not split)."""
    from jsonschema import Draft202012Validator

    defs = _schema()["$defs"]
    ls = defs[kind]
    if set(ls) - _SHELL_KEYS:
        return None, {}
    props = ls.get("properties", {})
    shell = Draft202012Validator({**ls, "properties": {k: {} for k in props}, "$defs": defs})
    return shell, {k: Draft202012Validator({**v, "$defs": defs}) for k, v in props.items()}


def _layer_valid(kind: str, clean: dict[str, Any]) -> bool:
    """Whether one layer's settings fit the schema, remembering each valid setting on its own.

    A layer that differs from one seen before usually differs in one or two settings (a star's
    box, a title's text); the others need no new check."""
    shell, settings = _setting_validators(kind)
    if shell is None:
        return _validators()[1][kind].is_valid(clean)
    if not shell.is_valid(clean):  # which keys, how many
        return False
    for k, v in clean.items():
        if k not in settings:
            continue  # unknown keys were judged by additionalProperties above
        pk = (kind, k, repr(v))
        if pk in _VALID_PROPS:
            continue
        if not settings[k].is_valid(v):
            return False
        _VALID_PROPS.put(pk, True)
    return True


def check_tree(tree: dict[str, Any], file: Path | None, what: str) -> None:
    """Check a merged layer tree against the layout schema; the first problem becomes a LayoutError."""
    layers = tree.get("layers")
    if not isinstance(layers, list):
        raise LayoutError(f"{file}: the layout has no 'layers:' list ({what})", hint="a layout is a map with a 'layers:' list")
    for i, layer in enumerate(layers):
        where = tree.get("_file") or file
        if not isinstance(layer, dict) or len(layer) != 1:
            raise LayoutError(f"{where}: layer {i + 1} must be a map with one key, its kind ({', '.join(LAYER_KINDS)}) ({what})",
                              hint="write layers as '- text: {box: [...], value: \"...\"}'")
        kind, props = next(iter(layer.items()))
        if kind not in LAYER_KINDS:
            raise LayoutError(f"{where}: layer {i + 1} has unknown kind '{kind}' ({what})",
                              hint=(did_you_mean(str(kind), LAYER_KINDS) or "") + f" layer kinds: {', '.join(LAYER_KINDS)}")
        if not isinstance(props, dict):
            raise LayoutError(f"{where}: layer {i + 1} ({kind}) must be a map of settings ({what})")
        where = props.get("_file", where)
        clean = {k: v for k, v in props.items() if k != "_file"}
        schema = _schema()
        key = (kind, repr(clean))
        if key in _VALID:
            continue
        if _layer_valid(kind, clean):
            _VALID.put(key, True)
            continue
        where = _layer_line(where, props.get("name"))
        errors = sorted(_validators()[1][kind].iter_errors(clean), key=lambda e: len(list(e.absolute_path)))
        if errors:
            e = errors[0]
            loc = ".".join(str(p) for p in e.absolute_path)
            label = f"layer {i + 1} ({kind}{' ' + repr(props['name']) if props.get('name') else ''})"
            hint = "see docs/layouts.md for each layer kind's settings"
            allowed = list(schema["$defs"][kind].get("properties", {}))
            unknown = [k for k in clean if k not in allowed] if e.validator == "additionalProperties" and not loc else []
            if unknown:
                message = f"unknown setting '{unknown[0]}'"
                hint = did_you_mean(unknown[0], allowed) or f"{kind} settings: {', '.join(allowed)}"
            else:
                message = e.message
            raise LayoutError(f"{where}: {label}{' ' + loc if loc else ''}: {message} ({what})", hint=hint)
    rest = {k: v for k, v in tree.items() if k not in ("layers", "_file")}
    errors = list(_validators()[0].iter_errors({**rest, "layers": []}))
    if errors:
        e = errors[0]
        raise LayoutError(f"{file}: {'.'.join(str(p) for p in e.absolute_path) or 'layout'}: {e.message} ({what})")
