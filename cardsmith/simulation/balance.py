"""A whole balance run: the round robin of decks, the card study and the verdict, as one figures
dict (what balance.json holds). `cardsmith balance`, `--compare` and `--agents A,B` all use it."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from cardsmith.engine.contract import Game
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


def balance_run(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, decks: Sequence[Deck], agent: str, *,
                games: int, seed: int, budget: int = DEFAULT_BUDGET, jobs: int | None = None, progress: bool = False,
                random: bool = False, players: int = 2, where: Any = None, sizes: Sequence[int] | None = None,
                seconds: float | None = None) -> tuple[dict[str, Any], BalanceResult]:
    """`balance_figures` and the round robin's records (for `--compare`); `where` (a match.Where) says
    where the round robin is played (process pool, or a Dask cluster).

    A common-deck game (one deck every seat draws from) is sized instead: rounds at each table size
    of `sizes` until every card is resolved or `budget` games (or `seconds`) are spent
    (`_common_deck`); `games` and `players` do not apply to it."""
    if is_common_deck(game, decks) and budget > 0:  # --budget 0: the plain games, no card tests
        return common_run(cardset, game, factory, decks[0], agent, seed=seed, budget=budget, jobs=jobs,
                          progress=progress, where=where, sizes=sizes or (players,), seconds=seconds)
    result = run_balance(cardset, game, factory, decks, agent, games=games, seed=seed, jobs=jobs, progress=progress,
                         random=random, players=players, where=where)
    figures = result.figures(decks)
    names = {c.id: c.name for c in cardset.cards}
    hands = Hands(game, decks)
    figures["observed_cards"] = observed_cards(hands, result.records, names)
    if budget > 0:
        figures.update(card_study(cardset, game, decks, tables(len(decks), players), agent, seed=seed, budget=budget,
                                  jobs=jobs, progress=progress, records=result.records, hands=hands,
                                  where=where))
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
