"""Library side of `cardsmith play` and `cardsmith balance`: open a playable set, load and check decks,
run a match or a round robin, and gather every figure.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from cardsmith.engine.core import Game
from cardsmith.engine.registry import load_game
from cardsmith.engine.runner import GameRecord, GameTask, match_tasks, run_tasks
from cardsmith.engine.stats import card_impact, deck_overall, match_summary, matchup_matrix
from cardsmith.errors import CardsmithError
from cardsmith.model import CardSet, Deck

DECK_SUFFIXES = (".yaml", ".yml", ".txt")


def open_set(name: str) -> CardSet:
    """The validated set named by folder name or path, with clear errors."""
    from cardsmith.validate import open_named_set

    return open_named_set(name)[1]


def load_set_checked(path: Path) -> CardSet:
    """The validated set at `path` (SetInvalid lists its errors)."""
    from cardsmith.validate import load_set

    return load_set(path)


@dataclass(frozen=True)
class SetGameFactory:
    """Makes a set's Game in a worker process (a picklable recipe: the set's folder)."""

    path: Path

    def __call__(self) -> Game:
        return load_game(load_set_checked(self.path))


def deck_files(cardset: CardSet, folder: Path | None = None) -> list[Path]:
    """Deck files in `folder` (default: the set's decks/ folder), by name."""
    folder = Path(folder) if folder is not None else cardset.path / "decks"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in DECK_SUFFIXES and not p.name.startswith("."))


def resolve_deck(cardset: CardSet, ref: str) -> Path:
    """A deck named by path, or by file name (with or without extension) in the set's decks/ folder."""
    given = Path(ref)
    candidates = [given, cardset.path / "decks" / ref] + [cardset.path / "decks" / f"{ref}{s}" for s in DECK_SUFFIXES]
    for c in candidates:
        if c.is_file():
            return c
    known = [p.stem for p in deck_files(cardset)]
    hint = f"decks of {cardset.id}: {', '.join(known)}" if known else f"{cardset.id} has no decks/ folder; give a path to a deck file"
    raise CardsmithError(f"no deck '{ref}': neither {given} nor {cardset.path / 'decks' / ref}[.yaml] exists", hint=hint)


def load_checked_deck(cardset: CardSet, ref: str | Path) -> Deck:
    """Load a deck and refuse it, with the deck checker's messages, if it is illegal for the set."""
    from cardsmith.decks import check_deck, load_deck

    path = resolve_deck(cardset, str(ref))
    deck = load_deck(path, cardset)
    problems = check_deck(deck, cardset)
    if problems:
        def where(v) -> str:
            line = deck.line_of(v.cards[0]) if v.cards and hasattr(deck, "line_of") else 0
            return f"{path}:{line}: " if line else ""
        lines = "\n".join(f"  - {where(v)}{v.message}" for v in problems)
        raise CardsmithError(f"deck {path} is not legal for {cardset.name}:\n{lines}",
                             hint=f"fix the deck (`cardsmith deck check {path}` lists every problem); only legal decks are played")
    return deck


def random_decks(cardset: CardSet, seed: int) -> list[Deck]:
    """One random legal deck per race or faction (two when the set has neither)."""
    from cardsmith.decks import random_deck

    from dataclasses import replace

    groups = list(cardset.races) or list(cardset.factions)
    if not groups:
        return [replace(random_deck(cardset, seed=seed + i), name=f"random {i + 1}") for i in range(2)]
    return [replace(random_deck(cardset, seed=seed, faction=g), name=f"random {g}") for g in groups]


def unique_names(decks: Sequence[Deck]) -> list[str]:
    """Deck names made distinct (a mirror match of one deck reads "terracorp" vs "terracorp (2)")."""
    names, seen = [], {}
    for d in decks:
        n = d.name or "deck"
        seen[n] = seen.get(n, 0) + 1
        names.append(n if seen[n] == 1 else f"{n} ({seen[n]})")
    return names


@dataclass
class MatchResult:
    set_id: str
    game: str
    deck_names: list[str]
    agents: tuple[str, str]
    seed: int
    records: list[GameRecord]
    summary: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"set": self.set_id, "game": self.game, "deck_names": self.deck_names, "agents": list(self.agents),
                "seed": self.seed, **self.summary}


def play_match(cardset: CardSet, game: Game, factory, decks: Sequence[Deck], agents: tuple[str, str], *,
               games: int, seed: int, jobs: int | None = None, progress: bool = False) -> MatchResult:
    """`games` games between two decks (agents[k] plays decks[k]), seats alternating."""
    tasks = match_tasks(agents, games, seed)
    records = run_tasks(factory, decks, tasks, jobs=jobs, progress=progress, description=f"{decks[0].name} vs {decks[1].name}", game=game)
    names = unique_names(decks)
    summary = match_summary(records, names)
    summary["card_impact"] = [c.to_dict() for c in card_impact(records, decks)]
    return MatchResult(cardset.id, game.name, names, agents, seed, records, summary)


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

    def figures(self, decks: Sequence[Deck]) -> dict[str, Any]:
        """Every figure of the round robin (what balance.json holds)."""
        pairings = []
        for a, b in itertools.combinations(range(len(self.deck_names)), 2):
            recs = [r for r in self.records if set(r.deck_ids) == {a, b}]
            s = match_summary([_relabel(r, a, b) for r in recs], [self.deck_names[a], self.deck_names[b]])
            pairings.append({"pairing": [self.deck_names[a], self.deck_names[b]], **s})
        overall = match_summary(self.records, self.deck_names)
        return {
            "set": self.set_id, "game": self.game, "agent": self.agent, "seed": self.seed,
            "games_per_pairing": self.games_per_pairing, "random_decks": self.random_decks,
            "decks": self.deck_names, "games": len(self.records),
            "deck_win_rates": deck_overall(self.records, self.deck_names),
            "matchups": matchup_matrix(self.records, self.deck_names),
            "first_player_wins": overall["first_player_wins"],
            "first_player_wins_of_decided": overall["first_player_wins_of_decided"],
            "draws": overall["draws"], "capped": overall["capped"], "end_reasons": overall["end_reasons"],
            "length": overall["length"], "search_ceiling_hits": overall["search_ceiling_hits"],
            "pairings": pairings,
            "card_impact": [c.to_dict() for c in card_impact(self.records, decks)],
        }


def _relabel(r: GameRecord, a: int, b: int) -> GameRecord:
    """A record of the pairing (a, b) with deck indexes 0 and 1, for a two-deck summary."""
    from dataclasses import replace

    m = {a: 0, b: 1}
    return replace(r, deck_ids=(m[r.deck_ids[0]], m[r.deck_ids[1]]))


def balance_tasks(n_decks: int, agent: str, games: int, seed: int) -> list[GameTask]:
    """A round robin: `games` games per pair of decks, seats alternating; run-wide game indexes."""
    if n_decks < 2:
        raise CardsmithError(f"a balance run needs at least two decks, found {n_decks}",
                             hint="add deck files to the set's decks/ folder, or use --random-decks")
    tasks: list[GameTask] = []
    for a, b in itertools.combinations(range(n_decks), 2):
        tasks += match_tasks((agent, agent), games, seed, deck_ids=(a, b), start=len(tasks))
    return tasks


def run_balance(cardset: CardSet, game: Game, factory, decks: Sequence[Deck], agent: str, *, games: int, seed: int,
                jobs: int | None = None, progress: bool = False, random: bool = False) -> BalanceResult:
    tasks = balance_tasks(len(decks), agent, games, seed)
    records = run_tasks(factory, decks, tasks, jobs=jobs, progress=progress, description="round robin", game=game)
    return BalanceResult(cardset.id, cardset.name, game.name, unique_names(decks), agent, games, seed, random, records)
