"""`cardsmith render`: card images for print, with a progress bar and incremental rebuilds (the command's
work is `cardsmith.cli._render_run`, which `cardsmith.cli` also runs without click)."""

from __future__ import annotations

import click

from cardsmith.cli._options import jobs_option
from cardsmith.cli._render_run import run_render


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
    return run_render(sets, only, dpi, fmt, guides, jobs, force, strict)


COMMANDS = [render]
