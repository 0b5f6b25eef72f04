"""`cardsmith components ...`: boards and token sheets (render, print, export to Tabletop Simulator)."""

from __future__ import annotations

from pathlib import Path

import click

from cardsmith.cli._common import display_path, err_console, print_diagnostics
from cardsmith.cli._options import Millimetres
from cardsmith.cli.cmd_pdf import _offset, _paper, open_set
from cardsmith.base.errors import UsageError
from cardsmith.printing.paper import PAPER_SIZES


@click.group("components")
def components() -> None:
    """Boards (hex grids, square grids, tracks) and token sheets declared in a set (see docs/components.md)."""


@components.command("render")
@click.argument("set_name", metavar="SET")
@click.option("--dpi", type=click.IntRange(30, 1200), default=300, show_default=True, help="Pixels per inch.")
@click.option("--force", is_flag=True, help="Draw every image, even those unchanged since the last run.")
def render_command(set_name: str, dpi: int, force: bool) -> int:
    """Draw SET's boards and token faces into output/<set>/components/ (only what changed)."""
    from cardsmith.components.drawing import render_components

    project, cardset = open_set(set_name)
    result = render_components(project, cardset, dpi=dpi, force=force)
    print_diagnostics(result.diagnostics, Path.cwd())
    if not result.rendered and not result.skipped and not result.errors:
        raise UsageError(f"set '{cardset.id}' declares no boards or tokens",
                         hint="declare them under `boards:` and `tokens:` in set.yaml (see docs/components.md)")
    click.echo(f"{cardset.id}: {len(result.rendered)} drawn, {len(result.skipped)} unchanged "
               f"in {display_path(result.out_dir)} ({result.seconds:.1f} s)")
    if result.errors:
        err_console.print(f"[red]{len(result.errors)} image(s) could not be drawn[/]")
        raise SystemExit(1)
    return 0


@components.command("pdf")
@click.argument("set_name", metavar="SET")
@click.option("--paper", default="a4", show_default=True, callback=_paper,
              help=f"{', '.join(PAPER_SIZES)} or a size such as 200x280mm or 8.5x11in.")
@click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]), default="auto", show_default=True,
              help="auto: the fewest tiles for boards, the most tokens per sheet.")
@click.option("--board", "boards", multiple=True, metavar="ID", help="Only this board (repeatable).")
@click.option("--token", "tokens", multiple=True, metavar="ID", help="Only this token kind (repeatable).")
@click.option("--poster", is_flag=True, help="Each board on one large page (TrimBox and BleedBox) instead of tiles.")
@click.option("--overlap", type=Millimetres(0, 50), default=10.0, show_default=True,
              help="How far neighbouring tiles overlap, mm.")
@click.option("--backs", type=click.Choice(["none", "long", "short"]), default="none", show_default=True,
              help="Duplex token backs on every other page, for a printer flipping on the long or the short edge.")
@click.option("--back-offset", metavar="X,Y", callback=_offset, help="Move back pages by X,Y mm (see `cardsmith pdf --calibration`).")
@click.option("--dpi", type=click.IntRange(30, 1200), default=300, show_default=True, help="Pixels per inch of the images.")
@click.option("--name", metavar="NAME", help="File name of the PDF (`.pdf` optional; under output/<set>/ unless it names a "
              "folder), when one PDF is printed: pick it with --board or --token.")
def pdf_command(set_name: str, paper: str, orientation: str, boards: tuple[str, ...], tokens: tuple[str, ...],
                poster: bool, overlap: float, backs: str, back_offset: tuple[float, float], dpi: int,
                name: str | None) -> int:
    """Print SET's boards (tiled, or --poster) and token sheets into output/<set>/."""
    from cardsmith.components.pages import (ComponentPrintOptions, ensure_components, small_boards, write_board_pdf,
                                            write_shared_pdf, write_tokens_pdf)
    from cardsmith.printing.pdf import pdf_target

    project, cardset = open_set(set_name)
    options = ComponentPrintOptions(paper=paper, orientation=orientation, overlap=overlap, backs=backs,
                                    back_offset=back_offset, boards=boards, tokens=tokens, dpi=dpi)
    manifest = ensure_components(project, cardset, dpi)
    only_tokens = bool(tokens) and not boards
    board_ids = [] if only_tokens else list(boards or manifest["boards"])
    with_tokens = bool((tokens or not boards) and manifest["tokens"])
    # boards that fit on a page share the token sheets rather than take a page each (not as posters)
    shared = small_boards(manifest, board_ids, paper) if with_tokens and not poster else []
    board_ids = [b for b in board_ids if b not in shared]
    target = None
    if name:
        if len(board_ids) + with_tokens != 1:
            raise UsageError(f"--name names one PDF, but {len(board_ids) + with_tokens} would be printed for set '{cardset.id}'",
                             hint="pick one with --board ID or --token ID")
        target = pdf_target(name, project.set_output(cardset.id))
    for bid in board_ids:
        path = write_board_pdf(project, cardset, bid, "poster" if poster else "tiled", options, target)
        click.echo(f"wrote {display_path(path)}")
    if with_tokens:
        path = (write_shared_pdf(project, cardset, shared, options, target) if shared
                else write_tokens_pdf(project, cardset, options, target))
        click.echo(f"wrote {display_path(path)}")
    return 0


@components.command("tts")
@click.argument("set_name", metavar="SET")
@click.option("--base-url", metavar="URL", help="Where you will upload the images (default: file:// links).")
def tts_command(set_name: str, base_url: str | None) -> int:
    """Tabletop Simulator saved object of SET's boards and tokens (output/<set>/tts/components/)."""
    from cardsmith.components.pages import ensure_components
    from cardsmith.components.drawing import components_dir, components_of
    from cardsmith.components.tabletop import export_components_tts

    project, cardset = open_set(set_name)
    manifest = ensure_components(project, cardset)
    out = project.set_output(cardset.id) / "tts" / "components"
    result = export_components_tts(cardset, components_of(cardset), manifest, components_dir(project, cardset), out,
                                   base_url=base_url)
    click.echo(f"wrote {display_path(result.json_file)} ({result.objects} objects: boards and a bag per token design)")
    click.echo("  copy the .json to Tabletop Simulator's Saves/Saved Objects folder, then load it from Objects > Saved Objects")
    return 0


COMMANDS = [components]
