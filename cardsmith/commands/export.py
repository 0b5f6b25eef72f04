"""`cardsmith export SET`: the set in other tools' formats (Tabletop Simulator, JSON, CSV).

Each option is one library call; other exports (print shops) add their option here.
"""

from __future__ import annotations

from pathlib import Path

import click

from cardsmith.commands._sets import load_named_set
from cardsmith.errors import CardsmithError, UsageError


@click.command("export")
@click.argument("set_name", metavar="SET")
@click.option("--tts", is_flag=True, help="Tabletop Simulator deck sheets and a saved object (output/<set>/tts/).")
@click.option("--deck", "deck_file", type=click.Path(dir_okay=False, path_type=Path),
              help="With --tts: export this deck (one pile per zone) instead of the whole set.")
@click.option("--base-url", metavar="URL", help="With --tts: where you will upload the sheets (default: file:// links).")
@click.option("--json", "as_json", is_flag=True, help="The cards as JSON (output/<set>/<set>.json).")
@click.option("--csv", "as_csv", is_flag=True, help="The cards as CSV, one row per card (output/<set>/<set>.csv).")
def export_command(set_name: str, tts: bool, deck_file: Path | None, base_url: str | None, as_json: bool, as_csv: bool) -> None:
    """Export SET for Tabletop Simulator, as JSON, or as CSV for spreadsheets."""
    if not (tts or as_json or as_csv):
        raise UsageError("say what to export: --tts, --json or --csv (several may be given)")
    if (deck_file or base_url) and not tts:
        raise UsageError("--deck and --base-url go with --tts")
    project, cardset = load_named_set(set_name)
    out = project.set_output(cardset.id)
    if as_json:
        from cardsmith.exports.data import export_json
        click.echo(f"wrote {export_json(cardset, out / f'{cardset.id}.json')}")
    if as_csv:
        from cardsmith.exports.data import export_csv
        click.echo(f"wrote {export_csv(cardset, out / f'{cardset.id}.csv')}")
    if tts:
        from cardsmith.exports.images import rendered
        from cardsmith.exports.tts import export_tts

        deck = None
        if deck_file is not None:
            try:
                from cardsmith.decks import load_deck
            except ImportError:
                raise CardsmithError("this cardsmith cannot read deck files yet (cardsmith.decks is missing)",
                                     hint="export the whole set without --deck") from None
            deck = load_deck(deck_file, cardset)
        result = export_tts(cardset, rendered(project, cardset), out / "tts", deck=deck, base_url=base_url)
        cards = sum(len(p.card_ids) for p in result.piles)
        click.echo(f"wrote {result.json_file} ({cards} cards in {len(result.piles)} pile(s), {len(result.sheets)} sheet(s))")
        if base_url:
            click.echo(f"  upload the .jpg files in {result.json_file.parent} to {base_url}")
        click.echo("  copy the .json and .png to Tabletop Simulator's Saves/Saved Objects folder, then load it from Objects > Saved Objects")


COMMANDS = [export_command]
