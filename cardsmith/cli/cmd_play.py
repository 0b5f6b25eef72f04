"""`cardsmith play` (games between decks, one per seat) and `cardsmith balance` (every table of decks, with a report)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from cardsmith.cli._options import cluster_option, dashboard_option, jobs_option, resume_option
from cardsmith.base.errors import UsageError
from cardsmith.base.limits import MAX_RUN_GAMES
from cardsmith.simulation import DEFAULT_BUDGET



def ended_by(end_reasons: dict) -> str:
    """The line saying how games ended (which victory, a draw rule, or the turn cap) and how often."""
    return "  games ended by: " + ", ".join(f"{k or '?'} {v}" for k, v in end_reasons.items())

def _agents(spec: str, seats: int = 2, rules: Any = None) -> tuple[str, ...]:
    from cardsmith.engine.runner import normalise_agents

    return normalise_agents(spec.split(","), seats, rules)


MAX_GAMES = MAX_RUN_GAMES


def _where(cardset, kind: str, jobs: int | None, cluster: str | None, resume: bool, keep: bool, dashboard: bool = False):
    """Where the games run, and (when `keep`) the folder that keeps finished games for --resume."""
    from cardsmith.base.project import Project
    from cardsmith.simulation.runs import Where

    if cluster is not None and jobs is not None:
        raise UsageError("--jobs is for the process pool; with --cluster the cluster's workers play",
                         hint="give one of --jobs and --cluster")
    if dashboard and cluster is None:
        raise UsageError("--dashboard is Dask's dashboard of a local cluster: give it with --cluster local[:N]")
    if cluster is not None and not (dashboard and "://" in cluster):  # that mistake is the cluster module's to word
        from cardsmith.cli._cluster_address import check_cluster

        check_cluster(cluster)  # a scheduler's handshake within seconds, before any game
    store = Project.current().set_output(cardset.id) / kind / ".tasks" if keep or resume or cluster else None
    return Where(jobs=jobs, cluster=cluster, set_folder=cardset.path, store=store, resume=resume,
                 progress=sys.stderr.isatty(), notices=lambda text: click.echo(text, err=True), dashboard=dashboard)


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
    seats = len(result.deck_names)
    players = " vs ".join(f"{n} ({a})" for n, a in zip(result.deck_names, result.agents))
    lines = [f"{result.game}: {players}, {s['games']} games, seed {result.seed}, "
             + ("seats alternating" if seats == 2 else "seats rotating")]
    width = max(len(n) for n in result.deck_names)
    for d in s["decks"]:
        lines.append(f"  {d['deck']:<{width}}  wins {r(d['wins'])}   acting first {d['wins_going_first']['k']}/{d['wins_going_first']['n']}, "
                     f"not first {d['wins_going_second']['k']}/{d['wins_going_second']['n']}")
    if seats > 2:
        lines.append("  by seat: " + "; ".join(f"seat {x['seat']} {r(x['wins'])}" for x in s["seat_wins"]))
    lines.append(f"  draws: {r(s['draws'])}; capped by the turn cap (counted as draws): {s['capped']['k']}")
    lines.append(f"  first player won {r(s['first_player_wins'])} of all games, {r(s['first_player_wins_of_decided'])} of decided games")
    ln = s["length"]
    lines.append(f"  game length: mean {ln['mean']} turns, median {ln['median']}, 10-90%: {ln['p10']}-{ln['p90']}, range {ln['min']}-{ln['max']}")
    lines.append(ended_by(s["end_reasons"]))
    if s["search_ceiling_hits"]:
        lines.append(f"  note: {s['search_ceiling_hits']} search decisions hit the time ceiling; those games depend on machine speed")
    lines.append("  95% Wilson intervals in brackets.")
    return "\n".join(lines)


@click.command("play")
@click.argument("set_name", metavar="SET")
@click.option("--deck", "decks", multiple=True, metavar="DECK",
              help="A deck: a file, or a deck name in the set's decks/ folder. Give one per seat (N times).")
@click.option("--players", type=int, default=None, metavar="N",
              help="N seats all playing one deck (--deck, or the set's default deck): for common-deck games.")
@click.option("--agents", default="greedy", show_default=True, metavar="A[,B...]",
              help="Agents for the decks in order (random, greedy, mcts/search; options as mcts:iterations=500:time=0.5). One name: all.")
@click.option("--games", default=200, show_default=True, help="Number of games; seats rotate between games.")
@click.option("--seed", default=1, show_default=True, help="Run seed: game i uses a hash of (SEED, i); the same seed gives the same figures.")
@click.option("--from", "from_file", type=click.Path(dir_okay=False, path_type=Path), metavar="POSITION",
              help="Continue every game from this position file (YAML or JSON, as --log-position writes).")
@jobs_option
@cluster_option
@dashboard_option
@resume_option
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path), help="Write a turn-by-turn account of the first game.")
@click.option("--log-position", "position_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the position the first game ended in (a file --from reads).")
@click.option("--json", "as_json", is_flag=True, help="Print every figure as JSON on stdout.")
def play_command(set_name: str, decks: tuple[str, ...], players: int | None, agents: str, games: int, seed: int,
                 from_file: Path | None, jobs: int | None, cluster: str | None, dashboard: bool, resume: bool,
                 log_file: Path | None, position_file: Path | None, as_json: bool) -> None:
    """Play GAMES games of SET between decks (one per seat) and print win rates with 95% intervals."""
    from cardsmith.base.atomic import write_text
    from cardsmith.engine.kit import dump_position
    from cardsmith.engine.registry import load_game
    from cardsmith.engine.runner import final_state, replay_account
    from cardsmith.base.errors import CardsmithError
    from cardsmith.simulation.match import play_match
    from cardsmith.simulation.sets import SetGameFactory, open_set, position_decks, read_position, seat_decks

    from cardsmith.base.untrusted import writable_file

    _check_counts(games, jobs)
    for option, out in (("--log", log_file), ("--log-position", position_file)):
        if out is not None:
            writable_file(out, option)  # before any game is played
    cardset = open_set(set_name)
    game = load_game(cardset)
    position, start = None, None
    if from_file is not None:
        if decks or players:
            raise UsageError("--from takes the seats and their cards from the position: give no --deck or --players")
        position, start = read_position(from_file, game)
        loaded = position_decks(start)
    else:
        loaded = seat_decks(cardset, decks, players, game.rules.players)
    specs = _agents(agents, len(loaded), game.rules)
    where = _where(cardset, "play", jobs, cluster, resume, keep=False, dashboard=dashboard)
    result = play_match(cardset, game, SetGameFactory(cardset.path), loaded, specs, games=games, seed=seed,
                        position=position, where=where)
    first = result.records[0]
    seated = [loaded[i] for i in first.deck_ids]
    begin = game.from_position(position, seed=first.seed) if position is not None else None
    if (log_file is not None or position_file is not None) and not first.actions:
        # Games played elsewhere (a cluster, an earlier run) come back without their moves: play game 0
        # again here from its seed, which gives the same game.
        from cardsmith.engine.runner import play_game

        first = play_game(game, seated, first.agents, first.seed, index=first.index, deck_ids=first.deck_ids,
                          state=begin.clone() if begin is not None else None)
    if log_file is not None:
        write_text(log_file, replay_account(game, seated, first, start=begin))
    if position_file is not None:
        from cardsmith.engine.contract import PositionError

        try:
            data = final_state(game, seated, first, start=begin).position()
        except PositionError as e:
            raise CardsmithError(f"--log-position: {e}") from None
        write_text(position_file, dump_position(data))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        click.echo(format_match(result))
        if result.run is not None and (cluster or resume):
            click.echo(f"  {result.run.line()}")
        if log_file is not None:
            click.echo(f"  account of game 0 written to {log_file}")
        if position_file is not None:
            click.echo(f"  position where game 0 stopped written to {position_file}")


def _common_deck_options(game: Any, n_decks: int, players: int | None, all_sizes: bool,
                         seconds: float | None) -> dict[str, Any]:
    """A common deck (one deck every seat draws from) is sized over table sizes (simulation/_common_deck.py)."""
    if seconds is not None and seconds < 0:
        raise UsageError(f"--time-budget must be 0 or more seconds, not {seconds}")
    if n_decks != 1:
        if seconds is not None or all_sizes:
            raise UsageError("--time-budget and --all-sizes are for a common-deck game (one deck every seat "
                             f"draws from); {game.rules.name} plays {n_decks} decks",
                             hint="size an owned-deck run with --games and --budget")
        return {}
    from cardsmith.simulation._common_deck import table_sizes

    return dict(sizes=table_sizes(game.rules, players, all_sizes), seconds=seconds)


def _check_search(search: int, n_decks: int) -> None:
    if not search:
        return
    from cardsmith.simulation.deck_search import search_needs

    if search < search_needs(n_decks):
        raise UsageError(f"--search-decks {search} is too small for one step of the search over {n_decks} decks",
                         hint=f"give at least --search-decks {search_needs(n_decks)} (each deck and one mutant "
                              f"of it against the field, and the best played again on fresh games)")


@click.command("balance")
@click.argument("set_name", metavar="SET")
@click.option("--decks", "decks_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder of deck files to play (default: the set's decks/ folder).")
@click.option("--random-decks", is_flag=True, help="Play one random legal deck per race/faction instead of deck files.")
@click.option("--games", type=int, default=None, metavar="N",
              help="Games per pairing of decks (default: sized from the player's measured speed to fit ten minutes, at most 100).")
@click.option("--agents", default=None, metavar="AGENT[,AGENT]",
              help="The agent every deck is played by (default: the game's competent player, compared with the rung "
                   "below it); two, comma-separated, compare their verdicts.")
@click.option("--players", type=int, default=None, metavar="N",
              help="Seats per game (default: the fewest the rules allow); every combination of N decks is played.")
@click.option("--all-sizes", is_flag=True,
              help="A common-deck game: play every table size the rules allow (default: 2, 3 and 4 seats).")
@click.option("--time-budget", "seconds", type=float, default=None, metavar="SECONDS",
              help="A common-deck game: start no more rounds after this many seconds (default 480; 0: no limit).")
@click.option("--seed", default=1, show_default=True, help="Run seed: game i uses a hash of (SEED, i); the same seed gives the same report.")
@click.option("--budget", type=int, default=None, metavar="GAMES",
              help=f"Games for the card tests (with a card and with a filler in its place); 0 skips them "
                   f"(default: what the time left affords, at most {DEFAULT_BUDGET:,}).")
@click.option("--search-decks", "search", default=0, show_default=True, metavar="GAMES",
              help="Spend this many games hill-climbing to the strongest legal deck against the field (0: no search).")
@click.option("--compare", "old", metavar="REV|DIR",
              help="Play an earlier version too (a git revision, or a folder with a copy of the set) on the same seeds.")
@jobs_option
@cluster_option
@dashboard_option
@resume_option
@click.option("--json", "as_json", is_flag=True, help="Print every figure as JSON on stdout.")
def balance_command(set_name: str, decks_dir: Path | None, random_decks: bool, games: int | None, agents: str | None,
                    players: int | None, all_sizes: bool, seconds: float | None, seed: int, budget: int | None, search: int,
                    old: str | None, jobs: int | None,
                    cluster: str | None, dashboard: bool, resume: bool, as_json: bool) -> None:
    """Round robin of SET's decks, card tests and a verdict; writes output/<set>/balance/report.html and balance.json."""
    from cardsmith.engine.registry import load_game
    from cardsmith.base.errors import CardsmithError
    from cardsmith.base.project import Project
    from cardsmith.simulation import match, sets
    from cardsmith.simulation.balance import balance_against, measured_balance
    from cardsmith.simulation.balance_text import format_balance
    from cardsmith.simulation.report import write_report

    _check_counts(1 if games is None else games, jobs)
    for option, n in (("--budget", budget), ("--search-decks", search)):
        if n is not None and not 0 <= n <= MAX_GAMES:
            raise UsageError(f"{option} {n}: give 0 to {MAX_GAMES:,} games",
                             hint="a few thousand games already tell cards and decks apart")
    specs = [s for s in (agents or "").split(",") if s.strip()]
    if agents is not None and len(specs) not in (1, 2):
        raise UsageError("balance plays every deck with the same agent: give one (e.g. --agents random), or two to compare")
    cardset = sets.open_set(set_name)
    game = load_game(cardset)
    # No --agents: the game's competent player, compared with the rung below it.
    specs = [_agents(s, 2, game.rules)[0] for s in specs or [game.rules.competent_player()]]
    seats = sets.check_players(players, game.rules.players, game.rules.name)
    if decks_dir is not None and not decks_dir.is_dir():
        raise CardsmithError(f"--decks {decks_dir}: no such folder")
    if search and seats != 2:
        raise UsageError("--search-decks plays two-seat games against the field; use it without --players")
    files = [] if random_decks else sets.deck_files(cardset.path, decks_dir)
    if decks_dir is not None and not random_decks and not files:
        raise CardsmithError(f"--decks {decks_dir}: no deck files (.yaml, .yml, .txt) in it",
                             hint="point --decks at a folder of deck files, or use --random-decks")
    decks = [sets.load_checked_deck(cardset, p) for p in files]
    use_random = random_decks or not files
    if use_random:
        decks = sets.random_decks(cardset, seed=seed)
    common = _common_deck_options(game, len(decks), players, all_sizes, seconds)
    _check_search(search, len(decks))
    # The calibration, the round robin and the card tests go where --cluster says (one cluster session
    # for all); --resume reads back the round robin's finished games.
    with _where(cardset, "balance", jobs, cluster, resume, keep=True, dashboard=dashboard) as where:
        figures, result, run = measured_balance(cardset, game, sets.SetGameFactory(cardset.path), decks, specs,
                                                games=games, budget=budget, seed=seed, players=seats,
                                                random=use_random, where=where, compare=agents is None, **common)
    run.update(jobs=jobs, progress=sys.stderr.isatty())
    figures = match.add_game_figures(figures, game, result.records)
    if search > 0:
        from cardsmith.simulation.deck_search import search_decks

        figures["deck_search"] = search_decks(cardset, game, sets.SetGameFactory(cardset.path), decks, specs[0],
                                              seed=seed, budget=search, jobs=jobs)
        figures["verdict"]["sentences"].append(figures["deck_search"]["sentence"])
    if old is not None:
        figures["comparison"] = balance_against(Project.current(), cardset, old, figures, result, decks_dir, specs[0], run)
        figures["verdict"]["sentences"] += figures["comparison"]["sentences"]
    game_text = match.game_figures_text(game, figures)
    html_path, json_path = write_report(Project.current().set_output(cardset.id) / "balance", figures, cardset,
                                        result.run, game_text)
    if as_json:
        click.echo(json.dumps(figures, indent=2))
        return
    click.echo(format_balance(figures, cardset.name, len(decks)))
    click.echo(ended_by(figures["end_reasons"]))
    if game_text and "common_deck" not in figures:  # a common deck's verdict already leads with them
        click.echo(game_text)
    if result.run is not None:
        click.echo(f"  {result.run.line()}")
    click.echo(f"  report: {html_path}\n  figures: {json_path}")


COMMANDS = [play_command, balance_command]
