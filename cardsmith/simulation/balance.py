"""A whole balance run: the round robin of decks, the card study and the verdict, as one figures
dict (what balance.json holds). `cardsmith balance`, `--compare` and `--agents A,B` all use it."""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence, Union

from cardsmith.engine.contract import Game
from cardsmith.engine.runner import GameRecord
from cardsmith.sets.model import CardSet, Deck
from cardsmith.simulation._common_deck import SECONDS, Plan, common_deck_figures, is_common_deck
from cardsmith.simulation._intervention import DEFAULT_BUDGET
from cardsmith.simulation.match import BalanceResult, run_balance, tables
from cardsmith.simulation._observed import Hands, observed_cards
from cardsmith.simulation._study import card_study
from cardsmith.simulation._verdict import verdict


def balance_figures(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, decks: Sequence[Deck], agent: str, *,
                    games: int, seed: int, budget: int = DEFAULT_BUDGET, jobs: int | None = None, progress: bool = False,
                    random: bool = False, players: int = 2, sizes: Sequence[int] | None = None,
                    seconds: float | None = None) -> dict[str, Any]:
    """Every figure of a balance run, the card tests (unless `budget` is 0) and the verdict."""
    return balance_run(cardset, game, factory, decks, agent, games=games, seed=seed, budget=budget, jobs=jobs,
                       progress=progress, random=random, players=players, sizes=sizes, seconds=seconds)[0]


# A card-test budget, or how to size it from the round robin's games (a default run measures their cost).
Budget = Union[int, Callable[[Sequence[GameRecord]], int]]


def balance_run(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, decks: Sequence[Deck], agent: str, *,
                games: int, seed: int, budget: Budget = DEFAULT_BUDGET, jobs: int | None = None, progress: bool = False,
                random: bool = False, players: int = 2, where: Any = None, sizes: Sequence[int] | None = None,
                seconds: float | None = None, deadline: float | None = None) -> tuple[dict[str, Any], BalanceResult]:
    """`balance_figures` and the round robin's records (for `--compare`); `where` (a match.Where) says
    where the round robin is played (process pool, or a Dask cluster).

    A common-deck game (one deck every seat draws from) is sized instead: rounds at each table size
    of `sizes` until every card is resolved or `budget` games (or `seconds`) are spent
    (`_common_deck`); `games` and `players` do not apply to it."""
    if is_common_deck(game, decks) and (callable(budget) or budget > 0):  # --budget 0: the plain games, no card tests
        if callable(budget):  # sized by the time a default run has: the study's own games and seconds budget it
            budget = DEFAULT_BUDGET
        return common_run(cardset, game, factory, decks[0], agent, seed=seed, budget=budget, jobs=jobs,
                          progress=progress, where=where, sizes=sizes or (players,), seconds=seconds)
    result = run_balance(cardset, game, factory, decks, agent, games=games, seed=seed, jobs=jobs, progress=progress,
                         random=random, players=players, where=where)
    if callable(budget):
        budget = budget(result.records)
    figures = result.figures(decks)
    names = {c.id: c.name for c in cardset.cards}
    hands = Hands(game, decks)
    figures["observed_cards"] = observed_cards(hands, result.records, names)
    if budget > 0:
        figures.update(card_study(cardset, game, decks, tables(len(decks), players), agent, seed=seed, budget=budget,
                                  jobs=jobs, progress=progress, records=result.records, hands=hands,
                                  where=where, deadline=deadline))
    else:
        figures["card_tests_note"] = "No card tests: skipped (--budget 0)."
    figures["verdict"] = verdict(figures)
    return figures, result


def common_run(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, deck: Deck, agent: str, *, seed: int,
               budget: int, jobs: int | None, progress: bool, where: Any, sizes: Sequence[int],
               seconds: float | None = SECONDS) -> tuple[dict[str, Any], BalanceResult]:
    """A common-deck game's balance run; the result holds the smallest table's records and where the
    games ran (every round's games and seconds added up)."""
    import time

    from cardsmith.simulation.runs import RunInfo, Where, run_games

    place = where or Where(jobs=jobs, progress=progress)
    info: list[RunInfo] = []
    start = time.monotonic()

    def play(tasks: list[Any]) -> list[Any]:
        records, run = run_games(factory, game, [deck], tasks, place, description="common deck")
        info.append(run)
        return records

    figures, records = common_deck_figures(cardset, game, factory, deck, agent, Plan(tuple(sizes), budget, seconds),
                                           seed=seed, play=play)
    run = None
    if info:
        run = RunInfo(info[0].where, info[0].workers, time.monotonic() - start, sum(i.games for i in info),
                      sum(i.resumed for i in info), info[0].dashboard, sum(i.startup_seconds for i in info))
    result = BalanceResult(cardset.id, cardset.name, game.name, [deck.name], agent, len(records), seed, False, records,
                           figures["players"], [], run)
    return figures, result


def compare_agents(weak: dict[str, Any], strong: dict[str, Any]) -> dict[str, Any]:
    """Does the card ranking agree between two agents? Spearman's rho over the cards both tested,
    with its interval, and the cards flagged under one agent only."""
    from cardsmith.simulation._inference import spearman

    a = {(r["deck"], r["card"]): r for r in weak.get("card_tests", [])}
    b = {(r["deck"], r["card"]): r for r in strong.get("card_tests", [])}
    both = sorted(set(a) & set(b))
    corr = spearman([a[k]["effect"] for k in both], [b[k]["effect"] for k in both])
    only = lambda x, y: [{"deck": k[0], "card": k[1], "flag": x[k]["flag"]} for k in both if x[k]["flag"] and not y[k]["flag"]]  # noqa: E731
    if corr["rho"] is None:
        sentence = f"Too few cards tested under both agents ({len(both)}) to compare the rankings."
    else:
        agree = "agrees" if corr["low"] > 0 else "does not measurably agree"
        sentence = (f"The card ranking {agree} between {weak['agent']} and {strong['agent']} play: Spearman's rho "
                    f"{corr['rho']:.2f} [{corr['low']:.2f}, {corr['high']:.2f}] over {len(both)} cards.")
    return {"agents": [weak["agent"], strong["agent"]], "rank_correlation": corr, "sentence": sentence,
            "flagged_only_with_first": only(a, b), "flagged_only_with_second": only(b, a),
            "verdict_second": strong["verdict"]["sentences"]}


def balance_against(project: Any, cardset: CardSet, spec: str, figures: dict[str, Any], result: BalanceResult,
                    decks_dir: Any, agent: str, run: dict[str, Any]) -> dict[str, Any]:
    """Play the set as it was at `spec` (a revision or a folder) on the same seeds; what moved."""
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation import sets
    from cardsmith.simulation._compare import card_edits, compare_versions, earlier_set

    with earlier_set(project, cardset, spec) as (label, old_set):
        game = load_game(old_set)
        if run["random"]:
            decks = sets.random_decks(old_set, seed=run["seed"])
        else:
            decks = [sets.load_checked_deck(old_set, p) for p in sets.deck_files(old_set.path, decks_dir)]
        old_fig, old_run = balance_run(old_set, game, sets.SetGameFactory(old_set.path), decks, agent, **run)
        return compare_versions(label, old_fig, figures, old_run, result, card_edits(old_set, cardset))


def rung_below(ladder: Sequence[str], player: str) -> str | None:
    """The ladder's rung below `player`, or None (the bottom, or a player not on the ladder)."""
    return ladder[ladder.index(player) - 1] if player in ladder and ladder.index(player) > 0 else None


def _note_stop(sizing: dict[str, Any], key: str, figures: dict[str, Any]) -> None:
    """Say so when the card tests stopped short of their budget to keep the run within its time."""
    if figures.get("stopped_for_time") and key + "_why" in sizing:
        sizing[key + "_why"] += (f"; stopped after {figures['study_games']:,} games, as further looks would "
                                 "have run past the default run's ten minutes")


def measured_balance(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, decks: Sequence[Deck],
                     agents: Sequence[str], *, games: int | None, budget: int | None, seed: int, players: int,
                     random: bool, where: Any, compare: bool, sizes: Sequence[int] | None = None,
                     seconds: float | None = None) -> tuple[dict[str, Any], BalanceResult, dict[str, Any]]:
    """A balance run with its players measured: `agents[0]` calibrated against random and trusted or
    not; a second player (`agents[1]`, or with `compare` the rung below) run for the skill comparison.
    `games`/`budget` None: sized from the measured cost to fit the time a default run has. Returns
    the figures, the round robin, and the run dict (for `--compare`).

    A common-deck game's study stops on its own time budget (`seconds`, default SECONDS): the
    competent player gets 60% of it and the rung below 25%, so both fit a default run's ten minutes."""
    from cardsmith.engine.runner import default_jobs
    from cardsmith.simulation._players import (Clock, budget_for, calibrate, games_for, mirror_cost,
                                               player_figures)
    from cardsmith.simulation._verdict import verdict
    from cardsmith.simulation.runs import Where, run_games

    place = where.elsewhere() if where is not None else Where()
    clock = Clock(workers=(place.jobs or default_jobs()))
    # A sized run's card tests also stop on the clock: the main player's by 60% of the ten minutes,
    # the rung below's by 85% (its cost per game in the tests can differ from the round robin's).
    started = time.monotonic()
    deadlines = (None, None) if budget is not None else (started + clock.target * 0.60, started + clock.target * 0.85)
    ladder = tuple(game.rules.ladder)
    main = agents[0]
    second = agents[1] if len(agents) > 1 else rung_below(ladder, main) if compare else None

    def play(tasks: Any, description: str) -> list[GameRecord]:
        return run_games(factory, game, decks, tasks, place, description=description)[0]

    calibration = calibrate(play, main, len(decks), 2 if game.rules.supports(2) else players, seed, clock)
    n_tables = len(tables(len(decks), players))
    per_game = mirror_cost(calibration)
    rr_games, why_games = games_for(clock, "round_robin", per_game, n_tables, players, games)
    sizing: dict[str, Any] = {"target_seconds": clock.target, "workers": clock.workers, "games_per_pairing": rr_games,
                              "games_why": f"{main}: {why_games}", "calibration_games": calibration["games"]}

    def card_budget(share: str, key: str, given: int | None, who: str) -> Callable[[Sequence[GameRecord]], int]:
        def size(records: Sequence[GameRecord]) -> int:
            cost = clock.charge(records)
            # The second player's share holds its round robin too.
            left = clock.share(share) - (cost * len(records) if share == "second" else 0.0)
            half = "half of --budget" if share == "second" else "as given by --budget"
            chosen, why = budget_for(clock, left, cost, given, DEFAULT_BUDGET, half)
            clock.spent += chosen * cost  # planned: the card tests' games cost about as much
            sizing[key], sizing[key + "_why"] = chosen, f"{who}: {why}"
            return chosen
        return size

    # --jobs reaches the card tests through `jobs` (off a cluster they make their own process pool).
    pool: dict[str, Any] = dict(jobs=place.jobs, progress=place.progress)
    common: dict[str, Any] = {}
    if is_common_deck(game, decks):
        total = SECONDS if seconds is None else seconds
        common = dict(sizes=sizes, seconds=(total or None) and total * 0.6)
    figures, result = balance_run(cardset, game, factory, decks, main, where=where, **pool, games=rr_games, seed=seed,
                                  budget=0 if budget == 0 else card_budget("card_tests", "budget", budget, main),
                                  random=random, players=players, deadline=deadlines[0], **common)
    run: dict[str, Any] = dict(games=rr_games, seed=seed, budget=sizing.get("budget", DEFAULT_BUDGET), random=random,
                               players=players)
    figures["player"] = player_figures(main, ladder, calibration, figures["capped"]["rate"])
    _note_stop(sizing, "budget", figures)
    if second is not None:
        games_b = max(players, rr_games // 2 // players * players)
        given_b = None if budget is None else budget // 2
        other, other_run = balance_run(cardset, game, factory, decks, second, where=where, **pool, games=games_b, seed=seed,
                                       budget=0 if budget == 0 else card_budget("second", "second_budget", given_b, second),
                                       random=random, deadline=deadlines[1],
                                       players=players, **(dict(common, seconds=common["seconds"] and common["seconds"] * 25 / 60)
                                                           if common else {}))
        sizing["second_games_per_pairing"] = games_b
        sizing["second_games_why"] = f"{second}: {games_b} games per table, half of {main}'s"
        _note_stop(sizing, "second_budget", other)
        figures["agent_comparison"] = _skill(figures, result, other, other_run, seed)
    figures["sizing"] = sizing
    figures["verdict"] = verdict(figures)
    if "agent_comparison" in figures:
        figures["verdict"]["sentences"].append(figures["agent_comparison"]["sentence"])
    return figures, result, run


def _skill(figures: dict[str, Any], result: BalanceResult, other: dict[str, Any], other_run: BalanceResult,
           seed: int) -> dict[str, Any]:
    from cardsmith.simulation._skill import skill_section

    out = skill_section(figures, result.records, other, other_run.records, seed, compare_agents(figures, other))
    out["note"] = (f"{other['agent']} played {other['games_per_pairing']} games per table and "
                   f"{other.get('study_games', 0):,} card-test games ({figures['agent']}: "
                   f"{figures['games_per_pairing']} and {figures.get('study_games', 0):,}), each sized to its share "
                   f"of the run's time")
    return out
