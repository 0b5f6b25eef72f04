"""Font families found in font folders (the project's `fonts/` first, then cardsmith's bundled ones).

A family is named by its own name table, as a slug: "Liberation Serif" is `liberation-serif`.
Each family maps the styles regular, bold, italic and bolditalic to files; a missing style falls
back to the nearest one the family has. Only TrueType (`.ttf`) files are used, because ReportLab
cannot embed OpenType fonts with PostScript outlines.
"""

from __future__ import annotations

from cardsmith.sets.model import slugify as slug

import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from PIL import ImageFont

from cardsmith.base.diagnostics import did_you_mean
from cardsmith.base.errors import CardsmithError
from cardsmith.base.untrusted import inside

STYLES = ("regular", "bold", "italic", "bolditalic")




def _style_of(style_name: str) -> str:
    s = style_name.lower()
    bold = any(w in s for w in ("bold", "black", "heavy", "semibold"))
    italic = "italic" in s or "oblique" in s
    return "bolditalic" if bold and italic else "bold" if bold else "italic" if italic else "regular"


@dataclass
class Family:
    """One font family's files by style."""

    name: str
    files: dict[str, Path] = field(default_factory=dict)

    def path(self, style: str) -> Path:
        order = {"regular": ["regular", "bold", "italic", "bolditalic"],
                 "bold": ["bold", "regular", "bolditalic", "italic"],
                 "italic": ["italic", "regular", "bolditalic", "bold"],
                 "bolditalic": ["bolditalic", "bold", "italic", "regular"]}[style]
        for s in order:
            if s in self.files:
                return self.files[s]
        raise KeyError(style)


class FontLibrary:
    """Every family in a list of folders; earlier folders win when a family appears twice."""

    def __init__(self, dirs: list[Path]):
        self.dirs = [Path(d) for d in dirs]
        self.families: dict[str, Family] = {}
        for d in self.dirs:
            found: dict[str, Family] = {}
            for path in sorted(d.rglob("*.ttf")) if d.is_dir() else []:
                if not inside(path, d):  # a shared project's font that is a link to a file elsewhere
                    raise CardsmithError(f"font file {path} is a link to {path.resolve()}, outside {d}",
                                         hint="copy the font file into the fonts folder")
                try:
                    family_name, style_name = ImageFont.truetype(str(path), 12).getname()
                except OSError as e:
                    raise CardsmithError(f"font file {path} cannot be read: {e}",
                                         hint="replace it with a working TrueType (.ttf) file or remove it") from None
                key = slug(family_name or path.stem)
                fam = found.setdefault(key, Family(family_name or path.stem))
                fam.files.setdefault(_style_of(style_name or ""), path)
                fam.files.setdefault("_stem:" + path.stem.lower(), path)
            for key, fam in found.items():
                self.families.setdefault(key, fam)

    def family(self, name: str) -> Family:
        """The family called `name` (any case, spaces or hyphens); a clear error if there is none."""
        key = slug(name)
        if key in self.families:
            return self.families[key]
        hint = did_you_mean(key, self.families)
        known = ", ".join(sorted(self.families)) or "none"
        raise CardsmithError(f"font '{name}' is not installed (fonts available: {known})",
                             hint=(hint + " " if hint else "") + "put its .ttf files in the project's fonts/ folder")

    def files(self) -> list[Path]:
        return sorted({p for f in self.families.values() for k, p in f.files.items() if not k.startswith("_")})


@functools.lru_cache(maxsize=512)
def load_font(path: str, size_px: int) -> ImageFont.FreeTypeFont:
    """A font at a pixel size; cached because opening a face is slow and layouts reuse few sizes."""
    try:
        return ImageFont.truetype(path, size_px)
    except OSError as e:
        raise CardsmithError(f"font file {path} cannot be read: {e}", hint="replace it with a working .ttf file") from None


def _charset(path: str) -> frozenset[int]:
    """The code points a font file has glyphs for (its cmap)."""
    try:
        st = os.stat(path)
    except OSError:
        return frozenset()
    return _charset_of(path, st.st_size, st.st_mtime_ns)  # a font replaced in place is read again


@functools.lru_cache(maxsize=64)
def _charset_of(path: str, _size: int, _mtime_ns: int) -> frozenset[int]:
    """Read with ReportLab's font parser (a tenth of a second to import and run), so kept by the font's
    content (`cardsmith.cache.kept`) for the next process."""
    from cardsmith.cache import kept

    try:
        data = Path(path).read_bytes()
    except OSError:
        return frozenset()  # unreadable fonts are reported when loaded; do not warn twice
    name = kept.name("charset", CHARSET_VERSION, data) + ".json"
    if (known := kept.read(name)) is not None:
        try:
            return _from_ranges(json.loads(known))
        except (ValueError, TypeError):
            pass  # damaged: read the font
    from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

    try:
        chars = frozenset(TTFontFile(path).charToGlyph)
    except (TTFError, OSError):
        return frozenset()
    kept.write(name, json.dumps(_to_ranges(chars)).encode("ascii"))
    return chars


CHARSET_VERSION = "1"  # bump if what a kept character table holds changes


def _to_ranges(chars: frozenset[int]) -> list[list[int]]:
    """Sorted code points as [first, last] runs (a font's table is a few hundred runs, not thousands of points)."""
    runs: list[list[int]] = []
    for c in sorted(chars):
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return runs


def _from_ranges(runs: list[list[int]]) -> frozenset[int]:
    return frozenset(c for first, last in runs for c in range(int(first), int(last) + 1))


def missing_chars(path: Path | str, text: str) -> str:
    """The characters of `text` (other than spaces and controls) that the font at `path` cannot draw."""
    have = _charset(str(path))
    if not have:
        return ""
    seen: dict[str, None] = {}
    for ch in text:
        if ord(ch) not in have and not ch.isspace() and ord(ch) >= 32:
            seen[ch] = None
    return "".join(seen)


def library_for(dirs: tuple[str, ...]) -> FontLibrary:
    """The fonts in `dirs`, read again when a font file is added, removed or replaced (a long-lived
    process such as `cardsmith watch` then sees a new font as a new process would)."""
    from cardsmith.cache.freshness import fingerprint

    return _library_for(dirs, fingerprint(dirs))


@functools.lru_cache(maxsize=8)
def _library_for(dirs: tuple[str, ...], _signature: str) -> FontLibrary:
    return FontLibrary([Path(d) for d in dirs])
