"""`cardsmith render`: card images for print, with a progress bar and incremental rebuilds."""

from __future__ import annotations

from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cardsmith.commands.options import jobs_option
from cardsmith.commands.core import display_path, err_console, print_diagnostics, set_dirs
from cardsmith.diagnostics import did_you_mean
from cardsmith.errors import UsageError
from cardsmith.project import Project


@click.command()
@click.argument("sets", nargs=-1)
@click.option("--only", multiple=True, metavar="ID", help="Render only this card (repeatable).")
@click.option("--dpi", type=click.IntRange(30, 1200), default=300, show_default=True, help="Pixels per inch.")
@click.option("--format", "fmt", type=click.Choice(["png", "jpg", "webp"]), default="png", show_default=True, help="Image format.")
@click.option("--guides", is_flag=True, help="Proofs with trim (black), bleed (red) and safe-area (blue, dashed) lines, in output/<set>/guides/.")
@jobs_option
@click.option("--force", is_flag=True, help="Render every card, even those unchanged since the last run.")
@click.option("--strict", is_flag=True, help="Text that does not fit its box is an error (exit 1), not a warning.")
def render(sets: tuple[str, ...], only: tuple[str, ...], dpi: int, fmt: str, guides: bool, jobs: int | None,
           force: bool, strict: bool) -> int:
    """Draw card images into output/<set>/cards/ and card backs into output/<set>/backs/.

    Only cards whose data, layout, art, icons or fonts changed are drawn again (--force draws all).
    """
    from cardsmith.render import render_set
    from cardsmith.validate import check_set

    project = Project.current()
    loaded = []
    status = 0
    for d in set_dirs(project, sets):
        cardset, diags = check_set(d)
        errors = [x for x in diags if x.is_error]
        if cardset is None or errors:
            print_diagnostics(diags, Path.cwd())
            err_console.print(f"[red]{d.name}: {len(errors)} error(s); fix them before rendering (see `cardsmith validate {d.name}`)[/]")
            status = 1
            continue
        loaded.append(cardset)
    if only and not status:  # an invalid set may hold the card: its errors are the message, not "no card"
        known = {c.id for s in loaded for c in s.cards}
        for cid in only:
            if cid not in known:
                raise UsageError(f"no card '{cid}' in {', '.join(s.id for s in loaded) or 'the sets named'}",
                                 hint=did_you_mean(cid, known) or "card ids are the `id:` of each card")
    for cardset in loaded:
        ids = [c for c in only if c in {x.id for x in cardset.cards}] if only else None
        if only and not ids:
            continue
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[what]}"),
                      TimeElapsedColumn(), console=err_console, transient=True) as bar:
            task = bar.add_task(cardset.id, total=None, what="")

            def progress(done: int, total: int, what: str, _t=task) -> None:
                bar.update(_t, completed=done, total=total, what=what)

            result = render_set(project, cardset, dpi=dpi, fmt=fmt, only=ids, force=force, jobs=jobs, guides=guides,
                                strict=strict, progress=progress)
        print_diagnostics(result.diagnostics, Path.cwd())
        drawn, same = len(result.rendered), len(result.skipped)
        backs = len(result.backs_rendered) + len(result.backs_skipped)
        errors = len(result.errors)
        warnings = len(result.diagnostics) - errors
        style = "red" if errors else "green"
        where = display_path(result.out_dir)
        err_console.print(f"[{style}]{cardset.id}: {drawn + same} card(s) ({drawn} drawn, {same} unchanged), {backs} back(s) "
                          f"-> {where}/ in {result.seconds:.1f} s; {errors} error(s), {warnings} warning(s)[/]")
        if errors:
            status = 1
    return status


COMMANDS = [render]
