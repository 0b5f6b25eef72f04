"""Where things are: the project's sets, templates, fonts and output folders.

A project is the current folder: `cards/` holds its sets, `output/` receives what cardsmith writes,
`templates/` and `fonts/` may override the ones cardsmith ships. A set can also be named by path.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _bundled(name: str) -> Path:
    """A folder shipped with cardsmith: inside the wheel, or at the top of a source checkout."""
    inside = PACKAGE_DIR / "_data" / name
    return inside if inside.is_dir() else PACKAGE_DIR.parent / name


# The generic layouts (`default/`) are cardsmith's own: `templates/` at the top of a checkout, carried
# inside the wheel. A set's own layouts live in its folder (`cards/<set>/layouts/`), so nothing a
# designer writes for one set applies to another.
BUNDLED_TEMPLATES = _bundled("templates")
BUNDLED_FONTS = _bundled("fonts")
BUNDLED_CARDS = _bundled("cards")


class SetNotFound(LookupError):
    """A set name or path that names no set folder."""


class Project:
    """The folders of one project (by default the current directory)."""

    __slots__ = ("root",)
    root: Path

    def __init__(self, root: Path):
        object.__setattr__(self, "root", Path(root))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Project is read-only (cannot set {name})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Project) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    def __repr__(self) -> str:
        return f"Project(root={self.root!r})"

    @classmethod
    def current(cls) -> "Project":
        return cls(Path(os.environ.get("CARDSMITH_PROJECT", ".")).resolve())

    @property
    def cards_dir(self) -> Path:
        return self.root / "cards"

    @property
    def output_dir(self) -> Path:
        return self.root / "output"

    @property
    def template_dirs(self) -> list[Path]:
        """Where layouts are looked up, the project's first, then cardsmith's own (the generic `default/`)."""
        return _unique([self.root / "templates", BUNDLED_TEMPLATES])

    @property
    def set_roots(self) -> list[Path]:
        """Folders holding sets whose layouts another set may borrow by name (`solar-empires/ship`)."""
        return _unique([self.cards_dir, BUNDLED_CARDS])

    @property
    def font_dirs(self) -> list[Path]:
        return _unique([self.root / "fonts", BUNDLED_FONTS])

    def set_dirs(self) -> list[Path]:
        """Every set folder under `cards/` (a folder holding set.yaml), by name."""
        if not self.cards_dir.is_dir():
            return []
        return sorted(p for p in self.cards_dir.iterdir() if (p / "set.yaml").is_file())

    def resolve_set(self, name: str) -> Path:
        """A set named by its folder name under `cards/` or by a path to its folder or set.yaml."""
        given = Path(name)
        candidates = [given, self.cards_dir / name]
        if given.name == "set.yaml":
            candidates.insert(0, given.parent)
        for c in candidates:
            if (c / "set.yaml").is_file():
                return c.resolve()
        known = [p.name for p in self.set_dirs()]
        if known:
            hint = f" Sets here: {', '.join(known)}."
        elif self.cards_dir.is_dir():
            hint = " cards/ holds no set yet (a set is a folder with a set.yaml: `cardsmith new cards/NAME` makes one)."
        else:
            hint = " There is no cards/ folder here: run the command in your project's folder, or give the set's path."
        raise SetNotFound(f"no set named '{name}': neither {given} nor {self.cards_dir / name} holds a set.yaml.{hint}")

    def set_output(self, set_id: str) -> Path:
        """`output/<set>/`, where every stage writes what it makes of a set."""
        return self.output_dir / set_id


def declared_layout_folders(set_dir: Path, declared: object) -> list[Path]:
    """The folders a set.yaml's `layout_folders:` names (one path or a list), relative to the set folder."""
    items = [declared] if isinstance(declared, str) else declared if isinstance(declared, list) else []
    return [(Path(set_dir) / str(rel)).resolve() for rel in items]


def _unique(paths: list[Path]) -> list[Path]:
    seen: list[Path] = []
    for p in paths:
        r = p.resolve()
        if r not in seen:
            seen.append(r)
    return seen
