"""`cardsmith export SET`: files for other places, one flag per destination, each a library call.

Print shops: `--shop NAME` (`cardsmith.printing.shops.export_for_shop`). Tabletop Simulator: `--tts`
(`cardsmith.share.tts.export_tts`). Data: `--json`, `--csv` (`cardsmith.share.data`).
"""

from __future__ import annotations

from pathlib import Path

import click

from cardsmith.base.errors import UsageError


@click.command("export")
@click.argument("set_name", metavar="SET", required=False)
@click.option("--shop", "shops", multiple=True, metavar="NAME",
              help="Print shop profile: makeplayingcards, printerstudio, thegamecrafter, drivethrucards, "
                   "or your own printshops/NAME.yaml (repeatable).")
@click.option("--list-shops", is_flag=True, help="List the print-shop profiles this project can use.")
@click.option("--tts", is_flag=True, help="Tabletop Simulator deck sheets and a saved object (output/<set>/tts/).")
@click.option("--deck", type=click.Path(path_type=Path),
              help="With --shop or --tts: export a deck (its counts; one pile per zone in Tabletop Simulator).")
@click.option("--base-url", metavar="URL", help="With --tts: where you will upload the sheets (default: file:// links).")
@click.option("--json", "as_json", is_flag=True, help="The cards as JSON (output/<set>/<set>.json).")
@click.option("--csv", "as_csv", is_flag=True, help="The cards as CSV, one row per card (output/<set>/<set>.csv).")
def export_command(set_name: str | None, shops: tuple[str, ...], list_shops: bool, tts: bool, deck: Path | None,
                   base_url: str | None, as_json: bool, as_csv: bool) -> int:
    """Export SET for a print shop, Tabletop Simulator, or as JSON / CSV (several at once is fine)."""
    from cardsmith.base.project import Project

    if list_shops:
        from cardsmith.printing.shops import list_profiles, read_profile

        for sid, path in list_profiles(Project.current().root).items():
            p = read_profile(path)
            sizes = ", ".join(s.name for s in p.sizes)
            click.echo(f"{sid:18} {p.name} ({p.kind}; {sizes})  [{path}]")
        return 0
    if not set_name:
        raise UsageError("name a set to export", hint="cardsmith export SET --shop NAME | --tts | --json | --csv")
    if not (shops or tts or as_json or as_csv):
        raise UsageError("say what to export: --shop NAME, --tts, --json or --csv (several may be given)",
                         hint="cardsmith export --list-shops lists the print shops")
    if base_url and not tts:
        raise UsageError("--base-url goes with --tts")
    if deck is not None and not (shops or tts):
        raise UsageError("--deck goes with --shop or --tts")
    from cardsmith.cli.cmd_pdf import open_deck, open_set

    project, cardset = open_set(set_name)
    profiles = []
    if shops:
        from cardsmith.printing.shops import load_profile
        profiles = [load_profile(s, project.root) for s in shops]  # every name checked before any work
    the_deck = open_deck(deck, cardset) if deck is not None else None
    if tts or profiles:
        from cardsmith.base.limits import check_export

        check_export(cardset, the_deck)  # before any card is drawn, not after rendering the whole set
    out = project.set_output(cardset.id)
    if as_json:
        from cardsmith.share.data import export_json
        click.echo(f"wrote {export_json(cardset, out / f'{cardset.id}.json')}")
    if as_csv:
        from cardsmith.share.data import export_csv
        click.echo(f"wrote {export_csv(cardset, out / f'{cardset.id}.csv')}")
        if cardset.components:
            from cardsmith.components.exports import export_components_csv
            click.echo(f"wrote {export_components_csv(cardset.components, out / f'{cardset.id}-components.csv')}")
    if tts:
        from cardsmith.share.images import rendered
        from cardsmith.share.tts import export_tts

        result = export_tts(cardset, rendered(project, cardset), out / "tts", deck=the_deck, base_url=base_url)
        cards = sum(len(p.card_ids) for p in result.piles)
        click.echo(f"wrote {result.json_file} ({cards} cards in {len(result.piles)} pile(s), {len(result.sheets)} sheet(s))")
        if base_url:
            click.echo(f"  upload the .jpg files in {result.json_file.parent} to {base_url}")
        click.echo("  copy the .json and .png to Tabletop Simulator's Saves/Saved Objects folder, "
                   "then load it from Objects > Saved Objects")
    for profile in profiles:
        from cardsmith.printing.shops import export_for_shop

        shop = export_for_shop(project, cardset, profile, deck=the_deck)
        click.echo(f"{profile.name}: {shop.cards} cards -> {shop.folder} ({len(shop.files)} file{'s' if len(shop.files) != 1 else ''}, checked against the profile)")
        for w in shop.warnings:
            click.secho(f"warning: {w}", fg="yellow", err=True)
    return 0


COMMANDS = [export_command]
