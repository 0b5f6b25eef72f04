"""Handling what others wrote: a set, a layout, an icon or a deck file someone shared (issue 32).

Small checks every package shares, so each surface applies the same rule: a path that must stay
inside a folder after links are followed (`inside`), an SVG that must be self-contained and cheap to
draw (`svg_problem`), a spreadsheet cell that must not be read as a formula (`csv_cell`), a name
echoed to a terminal that must not carry escape sequences (`shown`), and a file a command is asked
to write that must not replace a device, a pipe or a folder (`writable_file`).
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

from cardsmith.base.errors import CardsmithError
from cardsmith.base.limits import (MAX_SVG_BYTES, MAX_SVG_EXPANDED, MAX_SVG_FILTER_PRIMITIVES, MAX_SVG_KERNEL,
                                   MAX_SVG_OCTAVES, MAX_SVG_RADIUS)


def inside(path: Path | str, *roots: Path | str) -> bool:
    """Whether `path`, after following every link, lies in one of `roots` (themselves resolved)."""
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError):  # a link loop
        return False
    return any(real.is_relative_to(Path(r).resolve()) for r in roots)


# ---- terminal and spreadsheet ---------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def shown(text: object) -> str:
    """`text` with control characters (ESC sequences, bidirectional overrides) written as escapes
    (`\\x1b`), so a name from a shared file cannot move the cursor, retitle or recolour a terminal.
    Newlines and tabs stay: messages use them."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        str(text))


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def csv_cell(value: object) -> object:
    """A value for a CSV cell that a spreadsheet shows as text: a string beginning with = + - @ tab or
    CR gets a leading apostrophe (OWASP's advice against CSV injection). Numbers (-1 too) stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text_of(cell: str) -> str:
    """A cell as `csv_cell` wrote it, read back: the protecting apostrophe removed."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(_FORMULA_START) else cell


# ---- files a command writes -----------------------------------------------------------------------

def writable_file(path: Path | str, option: str) -> Path:
    """`path` if it is a regular file or does not exist yet (its folder existing); else a CardsmithError.
    Writing by rename over a device, a pipe or a folder would replace it (as root, /dev/full was)."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise CardsmithError(f"{option} {p}: cannot be used ({e.strerror or e})", hint="give a new file's path") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a pipe" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise CardsmithError(f"{option} {p} is {kind}; cardsmith writes only regular files",
                             hint="give the path of a new file, or of a file cardsmith may replace")
    return p


# ---- SVG ------------------------------------------------------------------------------------------

_ENTITY = re.compile(rb"<!(?:ENTITY|DOCTYPE)", re.IGNORECASE)
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)
_FILTER_PRIMITIVES = {"feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix",
                      "feDiffuseLighting", "feDisplacementMap", "feDropShadow", "feFlood", "feGaussianBlur", "feImage",
                      "feMerge", "feMorphology", "feOffset", "feSpecularLighting", "feTile", "feTurbulence"}


def _local(ref: str) -> bool:
    ref = ref.strip()
    return not ref or ref.startswith("#") or ref.lower().startswith("data:")


def _numbers(value: str | None) -> list[float]:
    try:
        return [float(x) for x in re.split(r"[\s,]+", (value or "").strip()) if x]
    except ValueError:
        return [float("inf")]  # unreadable: judged as too large


def _expanded(root, ids: dict) -> int:
    """How many elements the drawing holds once every `<use>` is replaced by what it names: nested
    uses multiply (ten levels of ten uses draw 10**10 shapes from a few kilobytes)."""
    sizes: dict[int, int] = {}

    def size(el, depth: int) -> int:
        if id(el) in sizes:
            return sizes[id(el)]
        if depth > 50:
            return MAX_SVG_EXPANDED + 1  # a cycle or absurd nesting
        n = 1 + sum(size(c, depth + 1) for c in el)
        if el.tag.rsplit("}", 1)[-1] == "use":
            ref = next((v for k, v in el.attrib.items() if k.rsplit("}", 1)[-1] == "href"), "")
            target = ids.get(ref.strip().lstrip("#"))
            if target is not None:
                n += size(target, depth + 1)
        sizes[id(el)] = n = min(n, MAX_SVG_EXPANDED + 1)
        return n

    return size(root, 0)


def _element_problem(el) -> str | None:
    name = el.tag.rsplit("}", 1)[-1]
    for k, v in el.attrib.items():
        if k.rsplit("}", 1)[-1] in ("href", "src") and not _local(v):
            return f"refers to an outside file '{shown(v.strip()[:80])}' (<{name}>); an icon must be self-contained"
        if any(not _local(u) for u in _URL.findall(v)):
            return f"refers to an outside resource in {k.rsplit('}', 1)[-1]}= of <{name}>; an icon must be self-contained"
    if name == "style" and el.text and ("@import" in el.text or any(not _local(u) for u in _URL.findall(el.text))):
        return "loads an outside style sheet or resource in <style>; an icon must be self-contained"
    if name == "feTurbulence" and max(_numbers(el.get("numOctaves")) or [1]) > MAX_SVG_OCTAVES:
        return f"asks feTurbulence for {el.get('numOctaves')} octaves; more than {MAX_SVG_OCTAVES} cannot be seen"
    if name == "feConvolveMatrix" and max(_numbers(el.get("order")) or [3]) > MAX_SVG_KERNEL:
        return f"has a feConvolveMatrix of order {el.get('order')}; at most {MAX_SVG_KERNEL}"
    if name in ("feMorphology", "feGaussianBlur", "feDropShadow"):
        worst = max(_numbers(el.get("radius")) + _numbers(el.get("stdDeviation")) or [0])
        if worst > MAX_SVG_RADIUS:
            return f"has a <{name}> of radius {worst:g}; at most {MAX_SVG_RADIUS}"
    return None


def svg_problem(data: bytes) -> str | None:
    """Why an SVG cannot be drawn safely, or None: too large, entity or DOCTYPE declarations (which
    can expand into gigabytes), a reference to anything outside the file (`<image href="/etc/..">`,
    `url(file:..)`, `@import`), filters costly beyond any visible effect, or `<use>` nesting that
    multiplies past a bound."""
    import xml.etree.ElementTree as ET

    if len(data) > MAX_SVG_BYTES:
        return f"is {len(data):,} bytes; an icon needs a few kilobytes (at most {MAX_SVG_BYTES:,})"
    if _ENTITY.search(data):
        return "declares a DOCTYPE or XML entities (<!ENTITY ...>), which can expand into gigabytes when drawn"
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        return f"is not a readable SVG file ({e})"
    ids, primitives = {}, 0
    for el in root.iter():
        if el.get("id"):
            ids[el.get("id")] = el
        primitives += el.tag.rsplit("}", 1)[-1] in _FILTER_PRIMITIVES
        if why := _element_problem(el):
            return why
    if primitives > MAX_SVG_FILTER_PRIMITIVES:
        return f"has {primitives} filter steps; an icon needs a few (at most {MAX_SVG_FILTER_PRIMITIVES})"
    if _expanded(root, ids) > MAX_SVG_EXPANDED:
        return f"draws more than {MAX_SVG_EXPANDED:,} shapes once its <use> references are expanded"
    return None
