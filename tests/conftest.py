"""Shared fixtures: a fresh copy of the scaffolded set, and a CLI runner that goes through `main()`."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def edited_set(src: Path, tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """A copy of the set folder `src` whose set.yaml has `old` replaced by `new`, and the line `new` is on."""
    import shutil

    d = tmp_path / src.name
    shutil.copytree(src, d)
    text = (d / "set.yaml").read_text()
    assert old in text, old
    text = text.replace(old, new)
    (d / "set.yaml").write_text(text)
    return d, next(i for i, line in enumerate(text.splitlines(), 1) if new.strip() in line)


@pytest.fixture
def demo_set(tmp_path: Path) -> Path:
    """A new valid set made by `cardsmith new`, in a temporary project."""
    from cardsmith.sets.scaffold import scaffold_set

    d = tmp_path / "cards" / "demo"
    scaffold_set(d)
    return d


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `python -m cardsmith ARGS` as a user would, from `cwd` (default: the repository)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", **(env or {})}
    return subprocess.run([sys.executable, "-m", "cardsmith", *args], cwd=cwd or ROOT, env=full_env,
                          capture_output=True, text=True, timeout=600)


@dataclass
class CliResult:
    """What `run_cli` and `run_in_process` return: subprocess.CompletedProcess's three fields."""

    returncode: int
    stdout: str
    stderr: str


def run_in_process(*args: str, cwd: Path | None = None, env: dict | None = None) -> CliResult:
    """Run `cardsmith ARGS` through `cardsmith.cli.main` in this process, as `run_cli` would, but without
    starting Python (half a second a call). Output is captured by click's CliRunner isolation."""
    from click.testing import CliRunner

    from cardsmith.cli import main

    runner = CliRunner()
    old_cwd = os.getcwd()
    os.chdir(cwd or ROOT)
    code = 0
    try:
        with runner.isolation(env={"COLUMNS": "200", **(env or {})}) as (out, err, _):
            try:
                main(list(args))
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    finally:
        os.chdir(old_cwd)
    return CliResult(code, stdout, stderr)


@pytest.fixture
def cli():
    """The command line, run in-process; use `run_cli` where a test needs a real process."""
    return run_in_process


def main_in_process(*args: str) -> tuple[int, str, str]:
    """Run the cardsmith entry point in this process, from the current folder (a test's project, when it
    changed into one): (exit code, stdout, stderr)."""
    r = run_in_process(*args, cwd=Path.cwd())
    return r.returncode, r.stdout, r.stderr


@pytest.fixture
def skirmish_rules():
    """The engine's test game (tests/engine_testgame.py) registered as `rules: skirmish` for one test."""
    from cardsmith.engine.registry import register

    sys.path.insert(0, str(ROOT / "tests"))
    import engine_testgame

    forget = register(engine_testgame.RULES)
    yield engine_testgame.RULES
    forget()
