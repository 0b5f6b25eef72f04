"""The foundation commands as a user runs them: exit codes, messages, no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path


def test_new_then_validate_is_clean(tmp_path: Path, cli):
    r = cli("new", "demo", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "demo" / "set.yaml").is_file() and (tmp_path / "demo" / "decks" / "starter.yaml").is_file()
    r = cli("validate", "demo", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "demo: 4 cards, 0 error(s), 0 warning(s)" in r.stderr


def test_new_writes_schema_lines_that_an_editor_can_follow(tmp_path: Path, cli):
    """Each file's `# yaml-language-server: $schema=` names a schema file that exists relative to the file
    (as the YAML extension resolves it) and that the file itself passes."""
    import re

    import jsonschema
    from referencing import Registry, Resource

    from cardsmith.sets.loader import load_yaml

    assert cli("new", "demo", cwd=tmp_path).returncode == 0
    set_dir = tmp_path / "demo"
    for rel in ("set.yaml", "cards.yaml", "decks/starter.yaml"):
        f = set_dir / rel
        m = re.match(r"# yaml-language-server: \$schema=(\S+)\n", f.read_text())
        assert m, f"{rel} has no schema line"
        schema_file = (f.parent / m.group(1)).resolve()
        assert schema_file.is_file() and not m.group(1).startswith(("http", "/"))
        siblings = [(p.name, Resource.from_contents(json.loads(p.read_text()))) for p in schema_file.parent.glob("*.json")]
        validator = jsonschema.Draft202012Validator(json.loads(schema_file.read_text()),
                                                    registry=Registry().with_resources(siblings))
        assert list(validator.iter_errors(load_yaml(f).data)) == []
    # the set's folder holds what it needs: schemas travel with it
    assert (set_dir / "schemas" / "deck-rules.schema.json").is_file()


def test_new_refuses_an_existing_set(tmp_path: Path, cli):
    assert cli("new", "demo", cwd=tmp_path).returncode == 0
    r = cli("new", "demo", cwd=tmp_path)
    assert r.returncode == 1 and "already holds a set" in r.stderr and "Traceback" not in r.stderr


def test_validate_errors_exit_1_with_file_line(demo_set: Path, cli):
    cards = demo_set / "cards.yaml"
    cards.write_text(cards.read_text().replace("faction: moon\n    cost: 2", "faction: mon\n    cost: 2"))
    project = demo_set.parent.parent
    r = cli("validate", cwd=project)  # default: every set under cards/
    assert r.returncode == 1
    assert "cards/demo/cards.yaml:24:14: error: card 'night-heron' has unknown faction 'mon'" in r.stderr
    assert "hint: did you mean 'moon'?" in r.stderr
    r = cli("validate", "--json", "demo", cwd=project)
    problems = json.loads(r.stdout)
    assert problems[0]["line"] == 24 and problems[0]["severity"] == "error"
    assert problems[0]["file"] == "cards/demo/cards.yaml"


def test_warnings_fail_only_with_strict(demo_set: Path, cli):
    (demo_set / "cards.yaml").rename(demo_set / "_cards.yaml.bak")
    project = demo_set.parent.parent
    assert cli("validate", "demo", cwd=project).returncode == 0
    assert cli("validate", "--strict", "demo", cwd=project).returncode == 1


def test_unknown_set_is_a_usage_error(tmp_path: Path, cli):
    r = cli("validate", "nope", cwd=tmp_path)
    assert r.returncode == 2 and "no set named 'nope'" in r.stderr and "Traceback" not in r.stderr


def test_malformed_yaml_is_a_message_not_a_traceback(demo_set: Path, cli):
    (demo_set / "cards.yaml").write_text("cards:\n  - id: a\n\t  name: b\n")
    r = cli("validate", str(demo_set))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "cards.yaml:3:1: error: invalid YAML" in r.stderr


def test_schema_prints_json_and_writes_all(tmp_path: Path, cli):
    r = cli("schema", "set")
    assert r.returncode == 0 and json.loads(r.stdout)["title"] == "cardsmith set.yaml"
    r = cli("schema", "sett")
    assert r.returncode == 2 and "did you mean 'set'?" in r.stderr
    r = cli("schema", "--out", str(tmp_path / "schemas"))
    assert r.returncode == 0 and (tmp_path / "schemas" / "card.schema.json").is_file()


def test_list_and_build_on_a_project(demo_set: Path, cli):
    project = demo_set.parent.parent
    r = cli("list", cwd=project)
    assert r.returncode == 0 and "demo" in r.stdout and "Creature 3, Spell 1" in r.stdout
    r = cli("list", "demo", cwd=project)
    assert r.returncode == 0 and "night-heron" in r.stdout and "Night Heron" in r.stdout and "Moon Court" in r.stdout
    assert "cards/demo/cards.yaml:22" in r.stdout  # night-heron starts on line 22
    assert cli("list", "nope", cwd=project).returncode == 2
    r = cli("build", cwd=project)
    assert r.returncode == 0, r.stderr
    assert "cardsmith build" in r.stdout and "4 cards" in r.stdout


def test_what_a_designer_writes_is_printed_as_written_not_as_rich_markup_or_emoji(demo_set: Path, cli):
    """Messages and tables quote names and values from the set. rich reads `[/]` as a closing tag (list
    crashed: 'internal error: MarkupError') and `:x:` or `:sun:` as emoji codes (a value '3:x:' was
    reported as '3\u274c'); both must reach the terminal as written."""
    project = demo_set.parent.parent
    cards = demo_set / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Dawn Scout", 'name: "Dawn [/] Scout :sun: [bold]x"', 1))
    (demo_set / "set.yaml").write_text((demo_set / "set.yaml").read_text().replace('name: "Demo"', 'name: "Demo :x: [/]"', 1))
    r = cli("list", "demo", cwd=project)
    assert r.returncode == 0, r.stderr
    assert "Dawn [/] Scout :sun: [bold]x" in r.stdout and "Demo :x: [/]" in r.stdout
    r = cli("list", cwd=project)
    assert r.returncode == 0 and "Demo :x: [/]" in r.stdout, r.stderr
    r = cli("deck", "check", str(demo_set / "decks" / "starter.yaml"), cwd=project)
    assert "Demo :x: [/]" in r.stderr and "internal error" not in r.stderr, r.stderr
    cards.write_text(cards.read_text().replace("cost: 3", 'cost: "3:x:"', 1))
    r = cli("validate", "demo", cwd=project)
    assert r.returncode == 1 and "not '3:x:'" in r.stderr, r.stderr


def test_a_stage_error_without_a_file_reads_as_an_error_line(demo_set: Path, cli):
    """A build stage that fails on no particular file (a set with no cards has nothing to print)
    says `error: pdf: ...`, not a made-up location such as `<cardsmith>:0:0:`."""
    (demo_set / "cards.yaml").unlink()
    r = cli("build", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 1
    assert "error: pdf: nothing to print" in r.stderr and "<cardsmith>" not in r.stderr and ":0:0:" not in r.stderr


def test_located_errors_are_not_prefixed_twice(demo_set: Path, cli, tmp_path: Path):
    """A deck or YAML problem already reads `file:line:col: error: ...`; the CLI must not add another `error:`."""
    project = demo_set.parent.parent
    broken = tmp_path / "broken.yaml"
    broken.write_text("main:\n  Dawn Scout: 2\n   bad: [\n")
    wrong_zone = tmp_path / "wrong.yaml"
    wrong_zone.write_text("fleet:\n  Dawn Scout: 2\n")
    for deck, message in ((broken, "error: invalid YAML"), (wrong_zone, "error: unknown zone 'fleet'")):
        r = cli("export", "demo", "--tts", "--deck", str(deck), cwd=project)
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert r.stderr.startswith(f"{deck}:"), r.stderr
        assert r.stderr.count("error:") == 1 and message in r.stderr


def test_jobs_is_the_same_option_in_every_command():
    """`-j 2` worked for build and render but was 'No such option' for play and balance."""
    import click

    from cardsmith.cli._group import cli

    def commands(group, prefix=""):
        ctx = click.Context(group)
        for name in group.list_commands(ctx):  # the lazy group loads each command's module here
            cmd = group.get_command(ctx, name)
            yield f"{prefix}{name}", cmd
            if isinstance(cmd, click.Group):
                yield from commands(cmd, f"{prefix}{name} ")

    with_jobs = {name: p for name, cmd in commands(cli) for p in cmd.params if p.name == "jobs"}
    assert {"build", "render", "play", "balance"} <= set(with_jobs)
    for name, p in with_jobs.items():
        assert sorted(p.opts) == ["--jobs", "-j"], name
        assert isinstance(p.type, click.IntRange) and p.type.min == 1, name


def test_play_rejects_zero_jobs_as_a_bad_command_line(cli, tmp_path: Path):
    r = cli("play", "anything", "--deck", "a", "--deck", "b", "-j", "0", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "'--jobs' / '-j'" in r.stderr, r.stderr


def test_commands_that_default_to_every_set_say_the_same_when_there_is_none(cli, tmp_path: Path):
    """`gallery` in a folder without cards/ said 'no set to show' with no hint; the others point to `cardsmith new`."""
    for command in ("validate", "list", "render", "build", "gallery"):
        r = cli(command, cwd=tmp_path)
        assert r.returncode == 2 and "Traceback" not in r.stderr, (command, r.stderr)
        assert "no sets found" in r.stderr and "cardsmith new cards/my-set" in r.stderr, (command, r.stderr)


def test_import_csv_help_names_its_arguments_as_the_usage_line_does(cli, tmp_path: Path):
    r = cli("import-csv", "--help", cwd=tmp_path)
    usage, _, doc = r.stdout.partition("\n\n")
    assert "FILE" in usage and "FILE" in doc and "--set" in doc, r.stdout


def test_render_output_piped_to_a_file_starts_with_its_first_message(demo_set: Path, cli):
    """The progress bar is for terminals: piped, it left an empty first line before the warnings."""
    text = (demo_set / "cards.yaml").read_text()
    (demo_set / "cards.yaml").write_text(text.replace("First to the hill, last to leave.", "word " * 400))
    r = cli("render", "demo", cwd=demo_set.parent.parent)
    assert r.returncode == 0 and "does not fit" in r.stderr
    assert not r.stderr.startswith("\n"), repr(r.stderr[:80])


def test_an_unknown_set_in_a_project_without_sets_says_how_to_make_one(tmp_path: Path, cli):
    (tmp_path / "cards" / "half-made").mkdir(parents=True)  # a folder without set.yaml
    r = cli("validate", "half-made", cwd=tmp_path)
    assert r.returncode == 2 and "cards/ holds no set yet" in r.stderr and "cardsmith new" in r.stderr
    r = cli("validate", "half-made", cwd=tmp_path / "cards")
    assert r.returncode == 2 and "There is no cards/ folder here" in r.stderr
