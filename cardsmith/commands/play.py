"""`cardsmith play` (a match between two decks) and `cardsmith balance` (a round robin with a report)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cardsmith.commands.options import jobs_option
from cardsmith.errors import UsageError


def _agents(spec: str) -> tuple[str, str]:
    from cardsmith.engine.runner import normalise_agents

    return normalise_agents(spec.split(","))


MAX_GAMES = 100_000


def _check_counts(games: int, jobs: int | None) -> None:
    if games < 1:
        raise UsageError(f"--games must be at least 1, not {games}")
    if games > MAX_GAMES:
        raise UsageError(f"--games {games} is more than cardsmith plays in one run (at most {MAX_GAMES:,})",
                         hint="a few thousand games already give intervals of a percentage point or two")
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")


def format_match(result) -> str:
    """The figures of a match as a few readable lines."""
    from cardsmith.engine.stats import Rate

    s = result.summary
    r = lambda d: str(Rate(d["k"], d["n"]))  # noqa: E731
    lines = [f"{result.game}: {result.deck_names[0]} ({result.agents[0]}) vs {result.deck_names[1]} ({result.agents[1]}), "
             f"{s['games']} games, seed {result.seed}, seats alternating"]
    width = max(len(n) for n in result.deck_names)
    for d in s["decks"]:
        lines.append(f"  {d['deck']:<{width}}  wins {r(d['wins'])}   going first {d['wins_going_first']['k']}/{d['wins_going_first']['n']}, "
                     f"second {d['wins_going_second']['k']}/{d['wins_going_second']['n']}")
    lines.append(f"  draws: {r(s['draws'])}; capped by the turn cap (counted as draws): {s['capped']['k']}")
    lines.append(f"  first player won {r(s['first_player_wins'])} of all games, {r(s['first_player_wins_of_decided'])} of decided games")
    ln = s["length"]
    lines.append(f"  game length: mean {ln['mean']} turns, median {ln['median']}, 10-90%: {ln['p10']}-{ln['p90']}, range {ln['min']}-{ln['max']}")
    lines.append("  games ended by: " + ", ".join(f"{k or '?'} {v}" for k, v in s["end_reasons"].items()))
    if s["search_ceiling_hits"]:
        lines.append(f"  note: {s['search_ceiling_hits']} search decisions hit the time ceiling; those games depend on machine speed")
    lines.append("  95% Wilson intervals in brackets.")
    return "\n".join(lines)


@click.command("play")
@click.argument("set_name", metavar="SET")
@click.option("--deck", "decks", multiple=True, metavar="DECK", help="A deck: a file, or a deck name in the set's decks/ folder. Give two.")
@click.option("--agents", default="greedy", show_default=True, metavar="A[,B]",
              help="Agents for the two decks (random, greedy, mcts/search; options as mcts:iterations=500:time=0.5). One name: both.")
@click.option("--games", default=200, show_default=True, help="Number of games; seats alternate between games.")
@click.option("--seed", default=1, show_default=True, help="Game i uses seed SEED+i; the same seed gives the same figures.")
@jobs_option
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path), help="Write a turn-by-turn account of the first game.")
@click.option("--json", "as_json", is_flag=True, help="Print every figure as JSON on stdout.")
def play_command(set_name: str, decks: tuple[str, ...], agents: str, games: int, seed: int, jobs: int | None,
                 log_file: Path | None, as_json: bool) -> None:
    """Play GAMES games between two decks of SET and print win rates with 95% intervals."""
    from cardsmith.atomic import write_text
    from cardsmith.engine.match import SetGameFactory, load_checked_deck, open_set, play_match
    from cardsmith.engine.registry import load_game
    from cardsmith.engine.runner import replay_account

    if len(decks) != 2:
        raise UsageError(f"give two decks (--deck A --deck B), not {len(decks)}", hint="a mirror match names the same deck twice")
    _check_counts(games, jobs)
    specs = _agents(agents)
    cardset = open_set(set_name)
    game = load_game(cardset)
    loaded = [load_checked_deck(cardset, d) for d in decks]
    result = play_match(cardset, game, SetGameFactory(cardset.path), loaded, specs, games=games, seed=seed, jobs=jobs,
                        progress=sys.stderr.isatty())
    if log_file is not None:
        first = result.records[0]
        write_text(log_file, replay_account(game, [loaded[first.deck_ids[0]], loaded[first.deck_ids[1]]], first))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        click.echo(format_match(result))
        if log_file is not None:
            click.echo(f"  account of game 0 written to {log_file}")


@click.command("balance")
@click.argument("set_name", metavar="SET")
@click.option("--decks", "decks_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder of deck files to play (default: the set's decks/ folder).")
@click.option("--random-decks", is_flag=True, help="Play one random legal deck per race/faction instead of deck files.")
@click.option("--games", default=100, show_default=True, help="Games per pairing of decks.")
@click.option("--agents", default="greedy", show_default=True, metavar="AGENT", help="The agent every deck is played by.")
@click.option("--seed", default=1, show_default=True, help="Game i of a pairing uses seed SEED+i; the same seed gives the same report.")
@jobs_option
@click.option("--json", "as_json", is_flag=True, help="Print every figure as JSON on stdout.")
def balance_command(set_name: str, decks_dir: Path | None, random_decks: bool, games: int, agents: str, seed: int,
                    jobs: int | None, as_json: bool) -> None:
    """Round robin of SET's decks; writes output/<set>/balance/report.html and balance.json."""
    from cardsmith.engine import match
    from cardsmith.engine.registry import load_game
    from cardsmith.engine.report import write_report
    from cardsmith.errors import CardsmithError
    from cardsmith.project import Project

    _check_counts(games, jobs)
    specs = [s for s in agents.split(",") if s.strip()]
    if len(specs) != 1:
        raise UsageError("balance plays every deck with the same agent: give one (e.g. --agents greedy)")
    spec = _agents(specs[0])[0]
    cardset = match.open_set(set_name)
    game = load_game(cardset)
    if decks_dir is not None and not decks_dir.is_dir():
        raise CardsmithError(f"--decks {decks_dir}: no such folder")
    files = [] if random_decks else match.deck_files(cardset, decks_dir)
    if decks_dir is not None and not random_decks and not files:
        raise CardsmithError(f"--decks {decks_dir}: no deck files (.yaml, .yml, .txt) in it",
                             hint="point --decks at a folder of deck files, or use --random-decks")
    decks = [match.load_checked_deck(cardset, p) for p in files]
    use_random = random_decks or not files
    if use_random:
        decks = match.random_decks(cardset, seed=seed)
    result = match.run_balance(cardset, game, match.SetGameFactory(cardset.path), decks, spec, games=games, seed=seed,
                               jobs=jobs, progress=sys.stderr.isatty(), random=use_random)
    figures = result.figures(decks)
    html_path, json_path = write_report(Project.current().set_output(cardset.id) / "balance", figures, cardset)
    if as_json:
        click.echo(json.dumps(figures, indent=2))
        return
    from cardsmith.engine.stats import Rate

    click.echo(f"{cardset.name}: {len(decks)} decks{' (random legal decks)' if use_random else ''}, "
               f"{games} games per pairing, agent {spec}")
    width = max(len(n) for n in result.deck_names)
    for d in figures["deck_win_rates"]:
        click.echo(f"  {d['deck']:<{width}}  wins {Rate(d['wins']['k'], d['wins']['n'])}")
    f = figures["first_player_wins_of_decided"]
    click.echo(f"  first player won {Rate(f['k'], f['n'])} of decided games; draws {figures['draws']['k']}, "
               f"capped {figures['capped']['k']}")
    flagged = [c for c in figures["card_impact"] if c["significant"]]
    click.echo(f"  cards whose impact is significant: {len(flagged)} of {len(figures['card_impact'])}")
    click.echo(f"  report: {html_path}\n  figures: {json_path}")


COMMANDS = [play_command, balance_command]
