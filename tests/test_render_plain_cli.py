"""A plain `cardsmith render` command line runs without click, and says and does what the click command does."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardsmith.cli._render_run import parse_plain
from tests.conftest import ROOT, run_in_process

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mini-empires"


@pytest.mark.parametrize("argv, expected", [
    (["render"], {"sets": ()}),
    (["render", "a", "b"], {"sets": ("a", "b")}),
    (["render", "a", "--jobs", "2"], {"sets": ("a",), "jobs": 2}),
    (["render", "-j", "3", "a"], {"sets": ("a",), "jobs": 3}),
    (["render", "--jobs=4", "--strict", "--force", "a"], {"sets": ("a",), "jobs": 4, "strict": True, "force": True}),
])
def test_plain_command_lines_are_read_as_click_reads_them(argv, expected):
    got = parse_plain(argv)
    assert got is not None
    assert {k: got[k] for k in expected} == expected
    assert got["dpi"] == 300 and got["fmt"] == "png" and got["only"] == () and not got["guides"]


@pytest.mark.parametrize("argv", [
    ["pdf", "a"], ["render", "--help"], ["render", "a", "--dpi", "150"], ["render", "--only", "x"],
    ["render", "--jobs", "0"], ["render", "--jobs"], ["render", "--jobs", "two"], ["render", "-j2"],
    ["render", "--", "a"], ["render", "--guides"],
])
def test_anything_else_goes_to_click(argv):
    assert parse_plain(argv) is None


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "cards" / "mini-empires")
    return tmp_path


def _same_both_ways(project: Path, *args: str) -> tuple[int, str]:
    """Run `render ARGS` plainly and through click (`--dpi 300` is the default, but click must read it),
    with --force so both draw; their exit status and words must agree."""
    plain = run_in_process("render", *args, "--force", "--jobs", "1", cwd=project)
    clicked = run_in_process("render", *args, "--force", "--jobs", "1", "--dpi", "300", cwd=project)
    words = [r.stderr.replace(f"{r.stderr.split(' in ')[-1].split(' s;')[0]} s;", "N s;") for r in (plain, clicked)]
    assert (plain.returncode, plain.stdout, words[0]) == (clicked.returncode, clicked.stdout, words[1])
    return plain.returncode, plain.stderr


def test_a_plain_render_says_and_exits_as_the_click_command(project):
    code, err = _same_both_ways(project, "mini-empires")
    assert code == 0 and "mini-empires:" in err and "drawn" in err
    code, err = _same_both_ways(project, "no-such-set")
    assert code == 2 and "no-such-set" in err and "Traceback" not in err
    f = project / "cards" / "mini-empires" / "cards.yaml"
    f.write_text(f.read_text().replace("attack: 5", "attack: many"))
    code, err = _same_both_ways(project, "mini-empires")
    assert code == 1 and "cards.yaml" in err and "fix them before rendering" in err


def test_a_plain_render_does_not_import_click(project):
    script = ("import sys\nfrom cardsmith.cli import main\ntry:\n    main(['render', 'mini-empires', '--jobs', '1'])\n"
              "except SystemExit as e:\n    print(e.code, 'click' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.stdout.split() == ["0", "False"], done.stderr
    assert (project / "output" / "mini-empires" / "cards" / "longbow.png").is_file()


def test_a_plain_command_line_has_the_click_commands_defaults():
    """The plain reading and the click command must not drift apart: every option left out is what
    click would give it."""
    import click

    from cardsmith.cli.cmd_render import render

    plain = parse_plain(["render"])
    ctx = click.Context(render)
    for param in render.params:
        default = param.get_default(ctx)
        if param.multiple or param.nargs == -1:
            default = tuple(default) if isinstance(default, (list, tuple)) else ()  # unset: none given
        assert plain[param.name] == default, param.name
