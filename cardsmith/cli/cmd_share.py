"""Sharing commands: gallery, sheet, import-csv, watch. Each is a thin wrapper over a library call."""

from __future__ import annotations

import contextlib
import webbrowser
from pathlib import Path

import click

from cardsmith.cli._common import set_dirs
from cardsmith.cache.named_set import open_named_set
from cardsmith.base.errors import UsageError
from cardsmith.base.project import Project


def _warn(rs) -> None:
    """Rendering warnings (text that does not fit, missing art) go to stderr, briefly."""
    for line in rs.warnings[:10]:
        click.echo(line, err=True)
    if len(rs.warnings) > 10:
        click.echo(f"... and {len(rs.warnings) - 10} more warnings: cardsmith render {rs.set_id} lists them all", err=True)


@click.command("gallery")
@click.argument("set_names", metavar="[SET]...", nargs=-1)
@click.option("--compare", "old", metavar="OLD",
              help="Mark cards added, removed and changed since OLD: a folder of an earlier build or a git revision.")
@click.option("--no-render", is_flag=True, help="Use the card images already in output/<set>/cards/ as they are.")
@click.option("--open", "open_browser", is_flag=True, help="Open the gallery in a web browser.")
def gallery_command(set_names: tuple[str, ...], old: str | None, no_render: bool, open_browser: bool) -> None:
    """Write a static HTML gallery of each SET (every set when none is named) and output/index.html."""
    from cardsmith.share.images import rendered
    from cardsmith.share.gallery import build_gallery

    project = Project.current()
    names = list(set_names) or [p.name for p in set_dirs(project, ())]
    if old and len(names) != 1:
        raise UsageError("--compare works on one set at a time")
    page = None
    for name in names:
        project, cardset = open_named_set(name, project)
        rs = rendered(project, cardset, render=not no_render)
        _warn(rs)
        if old:
            from cardsmith.share.compare import compare, earlier_build
            with earlier_build(project, cardset, old) as before:
                comparison = compare(cardset, rs, before)
                page = build_gallery(project, cardset, rs, comparison=comparison)
            counts = comparison.counts()
            click.echo(f"compared with {comparison.label}: {counts['added']} added, {counts['changed']} changed, "
                       f"{counts['removed']} removed, {counts['same']} unchanged")
        else:
            page = build_gallery(project, cardset, rs)
        click.echo(f"wrote {page} ({len(cardset.cards)} cards)")
    index = project.output_dir / "index.html"
    click.echo(f"wrote {index}")
    if open_browser and page is not None:
        webbrowser.open(page.resolve().as_uri())


@click.command("sheet")
@click.argument("set_name", metavar="SET")
@click.option("--cols", default=6, show_default=True, type=click.IntRange(1, 20), help="Cards across a sheet.")
@click.option("--rows", default=3, show_default=True, type=click.IntRange(1, 20), help="Rows of cards on a sheet.")
@click.option("--width", default=240, show_default=True, type=click.IntRange(60, 1200), help="Thumbnail width in pixels.")
@click.option("--no-render", is_flag=True, help="Use the card images already in output/<set>/cards/ as they are.")
def sheet_command(set_name: str, cols: int, rows: int, width: int, no_render: bool) -> None:
    """Write labelled contact-sheet PNGs of every card of SET (output/<set>/sheets/)."""
    from cardsmith.share.contact_sheet import contact_sheets
    from cardsmith.share.images import rendered

    project, cardset = open_named_set(set_name)
    rs = rendered(project, cardset, render=not no_render)
    _warn(rs)
    pages = contact_sheets(cardset, rs, project.set_output(cardset.id) / "sheets", cols=cols, rows=rows,
                           thumb_width=width, font_dirs=project.font_dirs)
    for page in pages:
        click.echo(f"wrote {page}")


@click.command("import-csv")
@click.argument("csv_file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--set", "set_name", required=True, metavar="SET", help="The set whose cards the CSV creates or updates.")
@click.option("--file", "target", metavar="NAME.yaml", type=click.Path(dir_okay=False, path_type=Path),
              help="Card file (in the set folder) that receives new cards. Default: the CSV's name with .yaml.")
@click.option("--dry-run", is_flag=True, help="Check the CSV and say what would change, but write nothing.")
def import_csv_command(csv_file: Path, set_name: str, target: Path | None, dry_run: bool) -> None:
    """Create or update cards of the --set SET from FILE, a spreadsheet saved as CSV (one row per card)."""
    from cardsmith.share.csv_import import import_csv

    project, cardset = open_named_set(set_name)
    result = import_csv(csv_file, cardset, target=target, dry_run=dry_run)
    verb = "would write" if dry_run else "wrote"
    click.echo(f"{len(result.created)} new, {len(result.updated)} updated, {len(result.unchanged)} unchanged card(s)")
    for path in result.files:
        with contextlib.suppress(ValueError):
            path = path.relative_to(project.root)
        click.echo(f"{verb} {path}")


@click.command("watch")
@click.argument("set_name", metavar="SET")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to serve on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to serve on (127.0.0.1: this computer only).")
@click.option("--open", "open_browser", is_flag=True, help="Open the gallery in a web browser.")
def watch_command(set_name: str, port: int, host: str, open_browser: bool) -> None:
    """Serve SET's gallery on localhost and re-render cards as you save; the page reloads itself."""
    from cardsmith.share.watch import Watcher

    project = Project.current()
    try:
        set_dir = project.resolve_set(set_name)
    except LookupError as e:
        raise UsageError(str(e)) from None
    watcher = Watcher(project, set_dir, echo=click.echo)
    try:
        watcher.run(host, port, on_ready=(lambda url: webbrowser.open(url)) if open_browser else None)
    except KeyboardInterrupt:
        pass
    click.echo("stopped watching")


COMMANDS = [gallery_command, sheet_command, import_csv_command, watch_command]
