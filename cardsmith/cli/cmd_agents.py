"""`cardsmith agents`: measure a game's ladder of players (each against the one below it, and against random)."""

from __future__ import annotations

import json
from typing import Any

import click

from cardsmith.cli._options import cluster_option, dashboard_option, jobs_option
from cardsmith.simulation.ladder import DEFAULT_GAMES


@click.command("agents")
@click.argument("set_name", metavar="SET")
@click.option("--games", default=DEFAULT_GAMES, show_default=True,
              help="Games per pair of players (at least; split evenly over the set's decks and the seats).")
@click.option("--players", type=int, default=None, metavar="N",
              help="Seats per game (default: the fewest the rules allow); with 3 or more, the player sits in one "
                   "seat and the rung below in all the others.")
@click.option("--ladder", "ladder_text", default=None, metavar="A,B[,...]",
              help="Player specs weakest first, starting with random (default: the game's own ladder).")
@click.option("--seed", default=1, show_default=True, help="Run seed: the same seed gives the same figures.")
@jobs_option
@cluster_option
@dashboard_option
@click.option("--json", "as_json", is_flag=True, help="Print every figure as JSON on stdout.")
def agents_command(set_name: str, games: int, players: int | None, ladder_text: str | None, seed: int,
                   jobs: int | None, cluster: str | None, dashboard: bool, as_json: bool) -> None:
    """Measure SET's ladder of players: each against the one below it and against random, with PASS/FAIL rules."""
    from cardsmith.cli.cmd_play import _check_counts, _where
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation import sets
    from cardsmith.simulation.ladder import check_ladder, format_ladder, measure_ladder
    from cardsmith.simulation.runs import run_games

    _check_counts(games, jobs)
    cardset = sets.open_set(set_name)
    game = load_game(cardset)
    seats = sets.check_players(players, game.rules.players, game.rules.name)
    ladder = check_ladder(ladder_text.split(",") if ladder_text else game.rules.ladder, game.rules)
    files = sets.deck_files(cardset.path, None)
    decks = [sets.load_checked_deck(cardset, p) for p in files] or sets.random_decks(cardset, seed=seed)
    factory = sets.SetGameFactory(cardset.path)

    with _where(cardset, "agents", jobs, cluster, resume=False, keep=False, dashboard=dashboard) as where:
        def play(tasks: Any, description: str) -> Any:
            # Nothing is kept: a ladder is measured afresh each time (no --resume).
            return run_games(factory, game, decks, tasks, where.elsewhere(), description=description)[0]

        figures = measure_ladder(play, ladder, len(decks), games=games, seed=seed, seats=seats)
    figures.update({"set": cardset.id, "game": game.name, "deck_names": [d.name for d in decks]})
    if as_json:
        click.echo(json.dumps(figures, indent=2))
    else:
        click.echo(format_ladder(figures, cardset.name))


COMMANDS = [agents_command]
