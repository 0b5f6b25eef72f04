"""`cardsmith check-game SET`: the conformance suite on any set's game, in or out of the checkout."""

from __future__ import annotations

import click

from cardsmith.cli._common import err_console


@click.command("check-game")
@click.argument("set_name", metavar="SET")
def check_game_command(set_name: str) -> None:
    """Hold SET's game to the game contract: random games at the smallest and largest table, hiding, determinizations, positions, the turn cap."""
    from cardsmith.base.errors import CardsmithError
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation.conformance import check_game
    from cardsmith.simulation.sets import deck_files, load_checked_deck, open_set

    cardset = open_set(set_name)
    game = load_game(cardset)
    decks = [load_checked_deck(cardset, p) for p in deck_files(cardset.path)]
    if not decks:
        raise CardsmithError(f"set '{cardset.id}' has no deck in {cardset.path / 'decks'}",
                             hint="the checks play the set's own decks: add one (docs/decks.md)")
    click.echo(f"check-game {cardset.id}: rules {game.rules.name}, {len(decks)} deck(s), "
               f"{game.rules.players[0]}-{game.rules.players[1]} players")
    failed = 0
    for title, problems in check_game(game.rules, game, decks, cardset):
        click.echo(f"  {'ok  ' if not problems else 'FAIL'} {title}")
        for p in problems[:5]:
            click.echo(f"       {p}")
        if len(problems) > 5:
            click.echo(f"       ... and {len(problems) - 5} more")
        failed += bool(problems)
    if failed:
        err_console.print(f"[red]{failed} check(s) failed[/]: docs/engine.md (\"How to add a game\") says what each asks")
        raise SystemExit(1)
    click.echo("every check passed")


COMMANDS = [check_game_command]
