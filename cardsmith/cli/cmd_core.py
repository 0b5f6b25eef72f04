"""Foundation commands: validate, list, new, build, schema."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import click
from rich.table import Table

from cardsmith.cli._options import jobs_option
from cardsmith.cli._stages import STAGES, BuildContext, stage_function
from cardsmith.base.diagnostics import Diagnostic, diagnostics_json
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.cli._common import _escape, display_path, err_console, plain_console, print_diagnostics, set_dirs
from cardsmith.base.project import Project
from cardsmith.sets.model import CardSet
from cardsmith.sets.scaffold import scaffold_set
from cardsmith.sets._schema_check import schema_names, schema_text
from cardsmith.sets.validate import check_set

@click.command()
@click.argument("sets", nargs=-1)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--json", "as_json", is_flag=True, help="Print the problems as a JSON list on stdout.")
def validate(sets: tuple[str, ...], strict: bool, as_json: bool) -> int:
    """Check sets (default: every set under cards/) and report every problem at once.

    Exit status: 0 clean, 1 errors (or warnings with --strict), 2 bad command line.
    """
    project = Project.current()
    all_diags: list[Diagnostic] = []
    for d in set_dirs(project, sets):
        cardset, diags = check_set(d)
        if cardset is not None:  # the print rules, from the layouts the cards will be drawn with
            from cardsmith.layout.printcheck import missing_layouts, set_diagnostics
            from cardsmith.render.drawn_checks import drawn_checker

            diags = diags + missing_layouts(project, cardset) + set_diagnostics(project, cardset, drawn_checker(project, cardset))
        else:  # the cards have errors: a missing layout is still worth saying now
            from cardsmith.layout.printcheck import missing_layouts_of_folder

            diags = diags + missing_layouts_of_folder(project, d)
        all_diags.extend(diags)
        if not as_json:
            print_diagnostics(diags, Path.cwd())
            errors = sum(x.is_error for x in diags)
            warnings = len(diags) - errors
            name = cardset.id if cardset else d.name
            count = f"{len(cardset.cards)} cards, " if cardset else ""
            style = "red" if errors or (strict and warnings) else "green"
            err_console.print(f"[{style}]{_escape(name)}: {count}{errors} error(s), {warnings} warning(s)[/]")
    if as_json:
        click.echo(diagnostics_json(all_diags, Path.cwd()))
    failed = any(x.is_error for x in all_diags) or (strict and bool(all_diags))
    return 1 if failed else 0


@click.command("list")
@click.argument("sets", nargs=-1)
def list_sets(sets: tuple[str, ...]) -> int:
    """List the sets under cards/ with their card counts per type; with SET, list that set's cards."""
    project = Project.current()
    cardset: CardSet | None  # a named set is always read; one of the list may be invalid (None)
    if sets:
        from cardsmith.cache.named_set import open_named_set

        for name in sets:
            _, cardset = open_named_set(name, project)
            table = Table(title=f"{_escape(cardset.name)} {_escape(cardset.version)}: {len(cardset.cards)} cards")
            dims = list(cardset.dimensions.values())
            for col in ("id", "name", "type", *(d.name.lower() for d in dims), "copies", "file"):
                table.add_column(col, overflow="fold")
            for c in cardset.cards:
                groups = [d.groups[c.groups[d.id]].name if c.groups.get(d.id) in d.groups else "" for d in dims]
                where = f"{display_path(c.source.file)}:{c.source.line}" if c.source else ""
                table.add_row(*map(_escape, (c.id, c.name, cardset.types[c.type].name, *groups, c.copies, where)))
            plain_console().print(table)
        return 0
    table = Table(title=None, show_lines=False)
    for col in ("set", "name", "version", "cards", "by type"):
        table.add_column(col)
    status = 0
    for d in set_dirs(project, ()):
        cardset, diags = check_set(d)
        if cardset is None:
            errors = sum(x.is_error for x in diags)
            table.add_row(_escape(d.name), "", "", "", f"[red]invalid: {errors} error(s), see `cardsmith validate {_escape(d.name)}`[/]")
            status = 1
            continue
        per_type = Counter(c.type for c in cardset.cards)
        text = ", ".join(f"{t.name} {per_type[t.id]}" for t in cardset.types.values() if per_type[t.id])
        table.add_row(*map(_escape, (cardset.id, cardset.name, cardset.version, len(cardset.cards), text)))
    plain_console().print(table)
    return status


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="The set's display name (default: from the folder name).")
def new(directory: Path, name: str | None) -> int:
    """Create a small valid set in DIRECTORY: set.yaml, a card file and a deck."""
    written = scaffold_set(directory, name)
    for p in written:
        click.echo(f"wrote {p}")
    click.echo(f"\nNext: cardsmith validate {directory}")
    return 0


@click.command()
@click.argument("sets", nargs=-1)
@click.option("--strict", is_flag=True, help="Treat warnings (text overflow, ...) as errors.")
@jobs_option
@click.option("--force", is_flag=True, help="Redo everything, ignoring caches.")
@click.option("--skip", multiple=True, metavar="STAGE", help="Skip a stage (repeatable): " + ", ".join(n for n, _ in STAGES) + ".")
def build(sets: tuple[str, ...], strict: bool, jobs: int | None, force: bool, skip: tuple[str, ...]) -> int:
    """Validate each set, then run every build stage over it, writing into output/<set>/."""
    project = Project.current()
    unknown = [s for s in skip if s not in {n for n, _ in STAGES}]
    if unknown:
        raise UsageError(f"unknown stage '{unknown[0]}'", hint="stages: " + (", ".join(n for n, _ in STAGES) or "none"))
    summary: list[tuple[str, str, str, str]] = []
    status = 0
    from cardsmith.cache import freshness
    from cardsmith.cache import setcache

    for d in set_dirs(project, sets):
        started = time.perf_counter()
        inputs = freshness.snapshot_set(project, d)  # before the set is read: stages record what they made from it
        cardset, diags = setcache.validated_set(project, d)
        print_diagnostics(diags, Path.cwd())
        errors = [x for x in diags if x.is_error or strict]
        if cardset is None or errors:
            summary.append((_escape(d.name), "validate", f"[red]{len(errors)} error(s)[/]", ""))
            status = 1
            continue
        summary.append((cardset.id, "validate", f"{len(cardset.cards)} cards, {len(diags)} warning(s)", ""))
        for name, spec in STAGES:
            if name in skip:
                continue
            ctx = BuildContext(project, cardset, {"strict": strict, "jobs": jobs, "force": force, "inputs": inputs})
            with err_console.status(f"{cardset.id}: {name}...", spinner="dots") as st:
                ctx.progress = lambda message: st.update(f"{cardset.id}: {name}: {message}")  # (used in this pass only)
                try:
                    stage_function(spec)(ctx)
                except CardsmithError as e:
                    ctx.diagnostics.append(Diagnostic("error", None, 0, 0, f"{name}: {e}"))
            print_diagnostics(ctx.diagnostics, Path.cwd())
            bad = [x for x in ctx.diagnostics if x.is_error or strict]
            if bad:
                status = 1
            for what, path in ctx.outputs:
                summary.append((cardset.id, name, _escape(what), _escape(display_path(path))))
            if bad:
                summary.append((cardset.id, name, f"[red]{len(bad)} error(s)[/]", ""))
        err_console.print(f"[dim]{cardset.id}: done in {time.perf_counter() - started:.1f} s[/]")
    table = Table(title="cardsmith build")
    for col in ("set", "stage", "what"):
        table.add_column(col)
    table.add_column("where", overflow="fold")  # a path must stay whole to be useful
    for row in summary:
        table.add_row(*row)
    plain_console().print(table)
    return status


@click.command()
@click.argument("name", required=False)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Write every schema into this folder instead.")
def schema(name: str | None, out: Path | None) -> int:
    """Print the JSON Schema NAME (set, card, deck, ...) for editor completion, or write all with --out."""
    from cardsmith.base.atomic import write_text

    if out is not None:
        for n in schema_names():
            target = write_text(out / f"{n}.schema.json", schema_text(n))
            click.echo(f"wrote {target}")
        return 0
    if not name:
        raise UsageError("name a schema, or give --out DIR to write them all", hint="schemas: " + ", ".join(schema_names()))
    if name not in schema_names():
        from cardsmith.base.diagnostics import did_you_mean

        raise UsageError(f"no schema named '{name}'", hint=did_you_mean(name, schema_names()) or "schemas: " + ", ".join(schema_names()))
    click.echo(schema_text(name), nl=False)
    return 0


COMMANDS = [validate, list_sets, new, build, schema]
