"""`cardsmith render`: card images for print, with a progress bar and incremental rebuilds."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import click

from cardsmith.base.diagnostics import did_you_mean
from cardsmith.base.errors import UsageError
from cardsmith.base.project import Project
from cardsmith.cli._common import display_path, err_console, print_diagnostics, set_dirs
from cardsmith.cli._options import jobs_option


@click.command()
@click.argument("sets", nargs=-1)
@click.option("--only", multiple=True, metavar="ID[,ID...]", help="Render only these cards (repeatable, or a comma list as for `pdf --only`).")
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
    from cardsmith.cache import freshness, setcache

    project = Project.current()
    only = tuple(i.strip() for o in only for i in o.split(",") if i.strip())
    loaded, inputs, status = [], {}, 0
    for d in set_dirs(project, sets):
        if not (only or force) and _report_unchanged(project, d, dpi, fmt, guides, strict):
            continue
        inputs[d] = freshness.snapshot_set(project, d)  # before reading anything, so an edit made meanwhile is seen next time
        cardset, diags = setcache.validated_set(project, d)
        errors = [x for x in diags if x.is_error]
        if cardset is None or errors:
            print_diagnostics(diags, Path.cwd())
            err_console.print(f"[red]{d.name}: {len(errors)} error(s); fix them before rendering (see `cardsmith validate {d.name}`)[/]")
            status = 1
            continue
        print_diagnostics([x for x in diags if x.path == "rules"], Path.cwd())  # a game not installed yet
        from cardsmith.layout.printcheck import missing_layouts

        missing = missing_layouts(project, cardset)
        if missing:  # said once per layout, not once per card that uses it
            print_diagnostics(missing, Path.cwd())
            err_console.print(f"[red]{d.name}: {len(missing)} layout(s) missing; nothing drawn[/]")
            status = 1
            continue
        loaded.append((d, cardset))
    if only and not status:  # an invalid set may hold the card: its errors are the message, not "no card"
        known = {c.id for _, s in loaded for c in s.cards}
        for cid in only:
            if cid not in known:
                raise UsageError(f"no card '{cid}' in {', '.join(s.id for _, s in loaded) or 'the sets named'}",
                                 hint=did_you_mean(cid, known) or "card ids are the `id:` of each card")
    for d, cardset in loaded:
        ids = [c for c in only if c in {x.id for x in cardset.cards}] if only else None
        if only and not ids:
            continue
        if not _render_one(project, cardset, inputs[d], ids, dpi=dpi, fmt=fmt, force=force, jobs=jobs, guides=guides,
                           strict=strict):
            status = 1
    return status


def _render_one(project: Project, cardset: Any, inputs: Any, ids: list[str] | None, *, dpi: int, fmt: str,
                force: bool, jobs: int | None, guides: bool, strict: bool) -> bool:
    """Render one validated set (`ids`: only these cards), record it for the next run and print its summary;
    False when a card failed."""
    from cardsmith.cache import freshness
    from cardsmith.render.batch import render_set

    with _progress_bar(cardset.id) as progress:
        result = render_set(project, cardset, dpi=dpi, fmt=fmt, only=ids, force=force, jobs=jobs, guides=guides,
                            strict=strict, progress=progress)
    if not ids:
        freshness.record_render(project, inputs, cardset, result, dpi=dpi, fmt=fmt, guides=guides, strict=strict,
                                layout_dirs=result.layout_dirs)
    print_diagnostics(result.diagnostics, Path.cwd())
    failed = len(result.errors)
    _summary(cardset.id, len(result.rendered), len(result.skipped),
             len(result.backs_rendered) + len(result.backs_skipped), display_path(result.out_dir), result.seconds,
             failed, len(result.diagnostics) - failed)
    return not failed


@contextlib.contextmanager
def _progress_bar(label: str) -> Iterator[Callable[[int, int, str], None]]:
    """A progress callback drawing a bar on a terminal; elsewhere (a log, a pipe) the bar would never be
    seen (it is transient), so nothing is drawn."""
    if not sys.stderr.isatty():
        yield lambda done, total, what: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[what]}"),
                  TimeElapsedColumn(), console=err_console.console, transient=True) as bar:
        task = bar.add_task(label, total=None, what="")
        yield lambda done, total, what: bar.update(task, completed=done, total=total, what=what)


def _summary(set_id: str, drawn: int, same: int, backs: int, where: str, seconds: float, errors: int,
             warnings: int) -> None:
    """The line that ends a set's render (green, or red when a card failed)."""
    click.secho(f"{set_id}: {drawn + same} card(s) ({drawn} drawn, {same} unchanged), {backs} back(s) -> {where}/ "
                f"in {seconds:.1f} s; {errors} error(s), {warnings} warning(s)", fg="red" if errors else "green", err=True)


def _report_unchanged(project: Project, set_dir: Path, dpi: int, fmt: str, guides: bool, strict: bool) -> bool:
    """Report a set whose last render is current (nothing it is made from changed) without loading it, as
    its render reported it; False when it must be rendered."""
    from cardsmith.cache import freshness

    started = time.perf_counter()
    last = freshness.last_render(project, set_dir, dpi, fmt, guides)
    if last is None or last.get("strict") != strict:
        return False
    diags = freshness.diagnostics_from(last["diagnostics"])
    print_diagnostics(diags, Path.cwd())
    errors = sum(d.is_error for d in diags)
    _summary(last["set_id"], 0, last["cards"], last["backs"], display_path(Path(last["out_dir"])),
             time.perf_counter() - started, errors, len(diags) - errors)
    return True


COMMANDS = [render]
