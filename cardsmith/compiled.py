"""The optional compiled build of the simulation's hot modules, used only while it matches its source.

`pip install` compiles MODULES with Cython when it can (scripts/hatch_build.py) and writes MANIFEST
beside this file: each module's source digest at the time it was compiled. Simulated games then run
about 1.7 times faster; the rules are the same code, and play the same games (tests/test_compiled.py).

An editable install keeps the compiled files next to their sources, where Python would import them
in preference to the .py even after the source is edited. So the first time one of MODULES is
imported, `status()` compares the sources with the manifest, and unless every module is compiled
from its current source, all of them load from their .py files: the compiled modules depend on one
another's types, so a mixture cannot load. Setting CARDSMITH_PURE_PYTHON=1 asks for the .py files.

Standard library only: the build hook loads this file by path, before cardsmith can be imported.
"""

from __future__ import annotations

import os
import sys
TYPE_CHECKING = False  # typing is not imported at run time: `import cardsmith` is on every command's path

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from pathlib import Path
    from types import ModuleType
    from typing import Sequence

MODULES = (
    "cardsmith.games.solar_empires.state",
    "cardsmith.games.solar_empires.flow",
    "cardsmith.games.solar_empires.combat",
    "cardsmith.games.solar_empires.resolve",
    "cardsmith.games.solar_empires.game",
    "cardsmith.engine.chance",
    "cardsmith.engine.runner",
    "cardsmith.engine.agents",
)
MANIFEST = "_compiled.json"  # in the cardsmith package folder; written by the build, never committed
PURE_ENV = "CARDSMITH_PURE_PYTHON"
# The folder that holds the cardsmith package (a str: pathlib costs every command's start-up time).
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def source_files(root: Path, module: str) -> list[Path]:
    """The files a compiled `module` is made from: its .py and, if there is one, its .pxd."""
    base = root.joinpath(*module.split("."))
    return [p for p in (base.with_suffix(".py"), base.with_suffix(".pxd")) if p.is_file()]


def digest(files: Sequence[Path]) -> str:
    """A digest of the files' names and contents."""
    import hashlib

    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def compiled_file(root: Path, module: str) -> Path | None:
    """The compiled file this Python would import for `module`, or None."""
    import importlib.machinery

    base = root.joinpath(*module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = base.parent / (base.name + suffix)
        if path.is_file():
            return path
    return None


def check(root: Path | str = ROOT, modules: Sequence[str] = MODULES) -> tuple[bool, str]:
    """(whether the compiled modules under `root` may be used, a sentence saying which build runs)."""
    import json
    from pathlib import Path

    root = Path(root)
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return False, f"pure Python ({PURE_ENV} is set)"
    try:
        recorded = json.loads((root / "cardsmith" / MANIFEST).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return False, "pure Python (no compiled build: see the README's install line)"
    for module in modules:
        if compiled_file(root, module) is None:
            return False, f"pure Python ({module} was not compiled for this Python)"
        if not isinstance(recorded, dict) or recorded.get(module) != digest(source_files(root, module)):
            name = module.rsplit(".", 1)[-1]
            return False, (f"pure Python ({name}.py changed since it was compiled: run the README's "
                           "install line again to compile it)")
    return True, "compiled (Cython)"


_status: tuple[bool, str] | None = None


def status() -> tuple[bool, str]:
    """`check()` for this installation, worked out once per process."""
    global _status
    if _status is None:
        _status = check()
    return _status


class _SourceUnlessFresh:
    """A meta path finder: loads MODULES from their .py files unless `status()` allows the compiled
    build. (Not derived from importlib.abc: importing that costs every command start-up time.)"""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in MODULES or status()[0]:
            return None  # the usual finders: they prefer a compiled file where there is one
        import importlib.util

        py = os.path.join(ROOT, *fullname.split(".")) + ".py"
        return importlib.util.spec_from_file_location(fullname, py) if os.path.isfile(py) else None


def install() -> None:
    """Put the finder in front of Python's own (once); called when cardsmith is imported."""
    if not any(isinstance(f, _SourceUnlessFresh) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceUnlessFresh())
