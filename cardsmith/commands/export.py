"""`cardsmith export`: files for other places. `--shop NAME` writes what a print shop asks for.

Each destination is a flag of this one command and a library function behind it (print shops:
`cardsmith.printshops.export_for_shop`); Tabletop Simulator / JSON / CSV flags join here too.
"""

from __future__ import annotations

from pathlib import Path

import click

from cardsmith.errors import UsageError


@click.command("export")
@click.argument("set_name", metavar="SET", required=False)
@click.option("--shop", "shops", multiple=True, metavar="NAME",
              help="Print shop profile: makeplayingcards, printerstudio, thegamecrafter, drivethrucards, "
                   "or your own printshops/NAME.yaml (repeatable).")
@click.option("--list-shops", is_flag=True, help="List the print-shop profiles this project can use.")
@click.option("--deck", type=click.Path(path_type=Path), help="Export a deck (its counts) instead of the whole set.")
def export_command(set_name: str | None, shops: tuple[str, ...], list_shops: bool, deck: Path | None) -> int:
    """Export SET for a print shop (more destinations: see the options)."""
    from cardsmith.project import Project

    if list_shops:
        from cardsmith.printshops import list_profiles, read_profile

        for sid, path in list_profiles(Project.current().root).items():
            p = read_profile(path)
            sizes = ", ".join(s.name for s in p.sizes)
            click.echo(f"{sid:18} {p.name} ({p.kind}; {sizes})  [{path}]")
        return 0
    if not set_name:
        raise UsageError("name a set to export", hint="cardsmith export SET --shop NAME")
    if not shops:
        raise UsageError("say what to export", hint="--shop NAME (see --list-shops)")
    from cardsmith.commands.pdf import open_deck, open_set
    from cardsmith.printshops import export_for_shop, load_profile

    project, cardset = open_set(set_name)
    profiles = [load_profile(s, project.root) for s in shops]  # every name checked before any work
    the_deck = open_deck(deck, cardset) if deck is not None else None
    for profile in profiles:
        result = export_for_shop(project, cardset, profile, deck=the_deck)
        click.echo(f"{profile.name}: {result.cards} cards -> {result.folder} ({len(result.files)} file{'s' if len(result.files) != 1 else ''}, checked against the profile)")
        for w in result.warnings:
            click.secho(f"warning: {w}", fg="yellow", err=True)
    return 0


COMMANDS = [export_command]
