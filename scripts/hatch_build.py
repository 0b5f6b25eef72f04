"""Build hook: compile the simulation's hot modules with Cython, when this machine can.

Hatchling runs it for `pip install .` and `pip install -e .` (pyproject.toml, [tool.hatch.build]).
The modules and the manifest format are cardsmith/compiled.py's. The compiled modules are the same
source files, so a failure to compile (no C compiler, say) is a message on stderr (`pip install -v`
shows it), not an error: cardsmith then runs as plain Python, about 1.7 times slower at simulated
games, and `cardsmith --version` says so. CARDSMITH_PURE_PYTHON=1 skips the compile.

An editable install compiles next to the sources, where Python finds the compiled files first; a
wheel gets them as extra files. Either way the manifest records each module's source digest, which
cardsmith checks before it uses them (an edited source runs as plain Python until compiled again).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _compiled_module(root: Path) -> Any:
    """cardsmith/compiled.py, loaded by path (cardsmith itself is not importable while it builds)."""
    spec = importlib.util.spec_from_file_location("_cardsmith_compiled", root / "cardsmith" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_modules(root: Path, out: Path, temp: Path) -> dict[str, Path]:
    """Compile compiled.MODULES from `root` into the package tree under `out`; {module: file}."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    info = _compiled_module(root)
    # -O1 and no debug symbols: the generated C is mostly calls into Python's C API, where -O3 -g (the
    # default) takes four times as long to compile for no measurable gain in games per second.
    flags = ["-O2", "-g0"] if os.name != "nt" else []
    extensions = [Extension(m, [str(root.joinpath(*m.split(".")).with_suffix(".py"))], extra_compile_args=flags)
                  for m in info.MODULES]
    modules = cythonize(extensions, build_dir=str(temp / "c"), quiet=True, nthreads=0,
                        compiler_directives={"language_level": 3})
    dist = Distribution({"name": "cardsmith", "ext_modules": modules})
    command = build_ext(dist)
    command.build_lib, command.build_temp = str(out), str(temp / "o")
    command.parallel = os.cpu_count() or 1
    command.ensure_finalized()
    command.run()
    built = {m: Path(command.get_ext_fullpath(m)) for m in info.MODULES}
    sources = {m: info.digest(info.source_files(root, m)) for m in info.MODULES}
    manifest = out / "cardsmith" / info.MANIFEST
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps({"python": sys.implementation.cache_tag, "sources": sources}, indent=1),
                        encoding="utf-8")
    return built


class CompiledRulesHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("CARDSMITH_PURE_PYTHON", "") not in ("", "0"):
            return
        root = Path(self.root)
        editable = version == "editable"
        temp = Path(tempfile.mkdtemp(prefix="cardsmith-build-"))
        out = root if editable else temp / "lib"
        if editable:  # no manifest while the files beside the sources are being replaced
            (root / "cardsmith" / "_compiled.json").unlink(missing_ok=True)
        try:
            built = compile_modules(root, out, temp)
        except Exception as e:  # noqa: BLE001 - any failure leaves the plain-Python package, which works
            sys.stderr.write(f"cardsmith: the simulation modules were not compiled ({type(e).__name__}: {e}); "
                             "cardsmith runs as plain Python, slower at simulated games\n")
            shutil.rmtree(temp, ignore_errors=True)
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if not editable:  # a wheel carries the compiled files and the manifest
            for path in [*built.values(), out / "cardsmith" / "_compiled.json"]:
                build_data["force_include"][str(path)] = str(path.relative_to(out))
            self._temp = temp  # removed in finalize, once the wheel is written
        else:
            shutil.rmtree(temp, ignore_errors=True)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        temp = getattr(self, "_temp", None)
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
