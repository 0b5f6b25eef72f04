"""Library side of `cardsmith play` and `cardsmith balance`: lay out tables of decks, run them, and
gather every figure (per deck, per seat, per faction, per table, per card).

Seats rotate across the games of a table, so with a multiple of N games every deck sits in every
seat equally often (two decks: seats alternate). A balance run plays every combination of N decks
of the pool (for two players: the round robin); with fewer decks than seats, one table fills the
seats with the pool's decks in turn (a common-deck game: the one deck in every seat).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from cardsmith.engine.chance import game_seed
from cardsmith.engine.contract import Game, balance_figures, balance_text
from cardsmith.engine.runner import GameRecord, GameTask, table_tasks
from cardsmith.engine.stats import card_impact, deck_overall, group_rows, match_summary, matchup_matrix
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import CardSet, Deck
from cardsmith.simulation.runs import RunInfo, Where, run_games
from cardsmith.simulation.sets import deck_group, unique_names


@dataclass
class MatchResult:
    set_id: str
    game: str
    deck_names: list[str]
    agents: tuple[str, ...]
    seed: int
    records: list[GameRecord]
    summary: dict[str, Any] = field(default_factory=dict)
    run: RunInfo | None = None  # where it ran: in no figure

    def to_dict(self) -> dict[str, Any]:
        return {"set": self.set_id, "game": self.game, "deck_names": self.deck_names, "agents": list(self.agents),
                "seed": self.seed, **self.summary}


def play_match(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, decks: Sequence[Deck],
               agents: Sequence[str], *, games: int, seed: int, jobs: int | None = None, progress: bool = False,
               position: Mapping[str, Any] | None = None, where: Where | None = None) -> MatchResult:
    """`games` games of one table (agents[k] plays decks[k]), seats rotating between games.

    From a `position` the seats are fixed by it: every game continues that position, with its own chance."""
    if position is not None:
        if games < 1:
            raise CardsmithError(f"the number of games must be at least 1, not {games}", exit_code=2)
        tasks = [GameTask(i, game_seed(seed, i), tuple(range(len(decks))), tuple(agents)) for i in range(games)]
    else:
        tasks = table_tasks(agents, games, seed)
    names = unique_names(decks)
    where = where or Where(jobs=jobs, progress=progress)
    records, info = run_games(factory, game, decks, tasks, where, description=" vs ".join(names), position=position)
    summary = match_summary(records, names)
    summary["card_impact"] = [c.to_dict() for c in card_impact(records, decks)]
    return MatchResult(cardset.id, game.name, names, tuple(agents), seed, records, summary, info)


def tables(n_decks: int, players: int) -> list[tuple[int, ...]]:
    """The tables of a balance run: every combination of `players` decks, or (fewer decks than
    seats) one table filling the seats with the decks in turn."""
    if n_decks >= players:
        return list(itertools.combinations(range(n_decks), players))
    return [tuple(i % n_decks for i in range(players))]


def balance_tasks(n_decks: int, agent: str, games: int, seed: int, players: int = 2,
                  mirror: bool = False) -> list[GameTask]:
    """`games` games per table, seats rotating; run-wide game indexes (game i: `game_seed(seed, i)`).

    `mirror`: one deck may fill every seat (a common-deck game, or a set with a single deck)."""
    if n_decks < 1 or (n_decks < 2 and players == 2 and not mirror):
        raise CardsmithError(f"a balance run needs at least two decks, found {n_decks}",
                             hint="add deck files to the set's decks/ folder, or use --random-decks")
    tasks: list[GameTask] = []
    for table in tables(n_decks, players):
        tasks += table_tasks([agent] * players, games, seed, deck_ids=table, start=len(tasks))
    # The workers follow the hands as they play, for the observational figures (no replay afterwards).
    return [replace(t, hands=True) for t in tasks]


@dataclass
class BalanceResult:
    set_id: str
    set_name: str
    game: str
    deck_names: list[str]
    agent: str
    games_per_pairing: int
    seed: int
    random_decks: bool
    records: list[GameRecord]
    players: int = 2
    deck_groups: list[str | None] = field(default_factory=list)
    run: RunInfo | None = None  # where it ran: in no figure, so balance.json is the same everywhere

    def figures(self, decks: Sequence[Deck]) -> dict[str, Any]:
        """Every figure of the run (what balance.json holds)."""
        per_table = []
        for table in tables(len(self.deck_names), self.players):
            recs = [r for r in self.records if sorted(r.deck_ids) == sorted(table)]
            ids = sorted(set(table))
            local = {d: i for i, d in enumerate(ids)}
            s = match_summary([_relabel(r, local) for r in recs], [self.deck_names[d] for d in ids])
            per_table.append({"table": [self.deck_names[d] for d in table], **s})
        overall = match_summary(self.records, self.deck_names)
        return {
            "set": self.set_id, "game": self.game, "agent": self.agent, "seed": self.seed, "players": self.players,
            "games_per_pairing": self.games_per_pairing, "random_decks": self.random_decks,
            "decks": self.deck_names, "games": len(self.records),
            "deck_win_rates": deck_overall(self.records, self.deck_names),
            "deck_results": overall["decks"],
            "seat_wins": overall["seat_wins"],
            "group_wins": group_rows(self.records, self.deck_groups) if self.deck_groups else [],
            "matchups": matchup_matrix(self.records, self.deck_names),
            "first_player_wins": overall["first_player_wins"],
            "first_player_wins_of_decided": overall["first_player_wins_of_decided"],
            "draws": overall["draws"], "capped": overall["capped"], "end_reasons": overall["end_reasons"],
            "length": overall["length"], "search_ceiling_hits": overall["search_ceiling_hits"],
            "tables": per_table,
            "card_impact": [c.to_dict() for c in card_impact(self.records, decks)],
        }


def add_game_figures(figures: dict[str, Any], game: Game, records: Sequence[GameRecord]) -> dict[str, Any]:
    """A game's own figures under `game_figures`, when its Game offers `balance_figures(records)`
    (Alien Empires: win rates per Race power)."""
    own = balance_figures(game, records)
    if own is not None:
        figures["game_figures"] = own
    return figures


def game_figures_text(game: Game, figures: dict[str, Any]) -> str | None:
    """The game's own figures as its rules module words them (`balance_text`), for the terminal and
    the report page; None for a game without any."""
    if "game_figures" not in figures:
        return None
    return balance_text(game, figures["game_figures"])


def _relabel(r: GameRecord, local: dict[int, int]) -> GameRecord:
    """A record of one table with the table's deck indexes 0..k-1, for a per-table summary."""
    from dataclasses import replace

    return replace(r, deck_ids=tuple(local[d] for d in r.deck_ids))


def run_balance(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, decks: Sequence[Deck], agent: str, *,
                games: int, seed: int, jobs: int | None = None, progress: bool = False, random: bool = False,
                players: int = 2, where: Where | None = None) -> BalanceResult:
    # A set with one deck (a common deck every player draws from) plays it in every seat.
    tasks = balance_tasks(len(decks), agent, games, seed, players, mirror=len(decks) == 1)
    where = where or Where(jobs=jobs, progress=progress)
    records, info = run_games(factory, game, decks, tasks, where, description="balance")
    return BalanceResult(cardset.id, cardset.name, game.name, unique_names(decks), agent, games, seed, random, records,
                         players, [deck_group(d, cardset) for d in decks], info)
