"""`cardsmith pdf`: print-and-play sheets and the duplex calibration sheet."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardsmith.cli._options import Millimetres, jobs_option
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.base.project import Project, SetNotFound
from cardsmith.printing.paper import DEFAULT_GUTTER, LAYOUTS, PAPER_SIZES, parse_offset, parse_paper

if TYPE_CHECKING:
    from cardsmith.sets.model import CardSet, Deck


def open_set(name: str) -> tuple[Project, CardSet]:
    """The current project and its validated set `name` (errors worded for the user)."""
    from cardsmith.cache.named_set import open_named_set

    return open_named_set(name)


def open_deck(path: Path, cardset: CardSet) -> Deck:
    """A deck file read by `cardsmith.decks` (which reports unknown cards with file and line)."""
    if not path.is_file():
        raise UsageError(f"no deck file {path}", hint=f"decks usually live in {cardset.path / 'decks'}")
    from cardsmith.decks import load_deck

    return load_deck(path, cardset)


def _offset(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[float, float]:
    if value is None:
        return (0.0, 0.0)
    try:
        return parse_offset(value)
    except CardsmithError as e:
        raise click.BadParameter(f"{e.message} ({e.hint})") from None


def _paper(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        parse_paper(value)
    except CardsmithError as e:
        raise click.BadParameter(f"{e.message} ({e.hint})") from None
    return value


@click.command("pdf")
@click.argument("set_name", metavar="SET", required=False)
@click.option("--layout", type=click.Choice(LAYOUTS), default="grid", show_default=True,
              help="grid: cards butted in a grid; gutterfold: fronts above the fold, backs below; single: one card per page.")
@click.option("--paper", default="a4", show_default=True, callback=_paper,
              help=f"{', '.join(PAPER_SIZES)} or a size such as 200x280mm or 8.5x11in.")
@click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]), default="auto", show_default=True,
              help="auto picks the one that holds the most cards.")
@click.option("--backs", type=click.Choice(["none", "long", "short"]), default="none", show_default=True,
              help="Duplex backs on every other page, for a printer flipping on the long or the short edge.")
@click.option("--back-offset", metavar="X,Y", callback=_offset,
              help="Move back pages by X,Y mm (X right, Y up, seen on the back) to correct printer drift; see --calibration.")
@click.option("--gutter", type=Millimetres(0, 100), default=DEFAULT_GUTTER, show_default=True,
              help="Space between cards, mm; each card's bleed shows half of it (0 butts cards together).")
@click.option("--margin", type=Millimetres(0, 200), default=5.0, show_default=True, help="Least page margin, mm.")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option("--cut-lines", is_flag=True, help="Draw thin lines along every card's trim.")
@click.option("--footer/--no-footer", default=True, show_default=True, help="Set name, version and page number.")
@click.option("--type", "types", multiple=True, metavar="TYPE", help="Only cards of this type (repeatable).")
@click.option("--only", multiple=True, metavar="ID[,ID...]", help="Only these card ids.")
@click.option("--deck", type=click.Path(path_type=Path), help="Print a deck: each card as many times as the deck holds it.")
@click.option("--name", help="File name under output/<set>/ (default from the options; .pdf optional), or a path with a folder.")
@click.option("--calibration", is_flag=True, help="Write a duplex test sheet (no SET needed) that tells which --back-offset to use.")
@jobs_option
def pdf_command(set_name: str | None, layout: str, paper: str, orientation: str, backs: str,
                back_offset: tuple[float, float], gutter: float, margin: float, crop_marks: bool, cut_lines: bool,
                footer: bool, types: tuple[str, ...], only: tuple[str, ...], deck: Path | None, name: str | None,
                calibration: bool, jobs: int | None) -> int:
    """Print-and-play PDF of SET: output/<set>/<name>.pdf (renders missing card images first)."""
    if calibration:
        from cardsmith.printing.pdf import write_calibration
        flip = backs if backs != "none" else "long"
        from cardsmith.printing.pdf import pdf_target

        base = Project.current().set_output(set_name) if set_name else Project.current().output_dir
        turned = "-landscape" if orientation == "landscape" else ""
        target = pdf_target(name or f"calibration-{Path(paper).name.lower()}-{flip}{turned}", base)
        path = write_calibration(target, paper, flip, back_offset, orientation)
        click.echo(f"wrote {path}: print it duplex (flip on the {flip} edge) at 100% scale")
        return 0
    if not set_name:
        raise UsageError("name a set to print", hint="cardsmith pdf SET (or cardsmith pdf --calibration)")
    if back_offset != (0.0, 0.0) and backs == "none":
        raise UsageError("--back-offset moves duplex backs, but this PDF prints no backs",
                         hint="add --backs long or --backs short (the way your printer flips the sheet)")
    from cardsmith.cache import freshness

    project = Project.current()
    try:
        set_dir = project.resolve_set(set_name)
    except SetNotFound as e:
        raise UsageError(str(e), hint="`cardsmith list` shows the sets of this project") from None
    ids = tuple(i.strip() for o in only for i in o.split(",") if i.strip())
    # everything the PDF is made from that is not a file; the files are the stamp's roots
    key = freshness.key_of("pdf", layout, paper, orientation, backs, back_offset, gutter, margin, crop_marks, cut_lines,
                           footer, types, ids, os.path.abspath(deck) if deck else None, name, os.getcwd())
    stamp = freshness.stamp_for(project, set_dir, f"pdf-{key[:16]}")
    last = stamp.fresh(key)
    if last is not None:  # decided before loading the set or importing ReportLab
        _report(Path(last["path"]), False, last["notes"])
        return 0
    inputs = freshness.snapshot_set(project, set_dir, [deck] if deck else [])  # before reading anything
    from cardsmith.printing.pdf import PdfOptions, build_pdf, notes_for

    project, cardset = open_set(set_name)
    the_deck = open_deck(deck, cardset) if deck is not None else None
    options = PdfOptions(layout=layout, paper=paper, orientation=orientation, backs=backs, back_offset=back_offset,
                         gutter=gutter, margin=margin, crop_marks=crop_marks, cut_lines=cut_lines, footer=footer,
                         types=types, only=ids, deck=deck, name=name)
    path, written = build_pdf(project, cardset, options, the_deck, jobs=jobs, inputs=inputs)
    notes = notes_for(project, cardset, options)
    if freshness.last_render(project, set_dir) is not None:  # the images are vouched for: so is the PDF
        out_dir = project.set_output(cardset.id)
        stamp.record(key, inputs, [path, *freshness.manifest_outputs(out_dir)], {"path": str(path), "notes": list(notes)})
    _report(path, written, notes)
    return 0


def _report(path: Path, written: bool, notes: tuple[str, ...] | list[str]) -> None:
    """Say whether the PDF was written or was up to date, and what the person printing it should know."""
    click.echo(f"wrote {path}" if written else f"{path} is up to date (nothing it is made from changed)")
    for note in notes:
        click.echo(f"note: {note}")


COMMANDS = [pdf_command]
