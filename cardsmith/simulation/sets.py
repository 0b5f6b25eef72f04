"""Sets, decks and positions from files, for play and balance runs (the engine never opens files)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

from cardsmith.decks.files import DECK_SUFFIXES, deck_files
from cardsmith.engine.contract import Game, GameState, PositionError
from cardsmith.engine.registry import load_game
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.sets.model import CardSet, Deck, frozen_map

__all__ = ["SetGameFactory", "deck_files", "default_deck", "deck_group", "load_checked_deck", "load_set_checked",
           "open_set", "read_position", "random_decks", "resolve_deck", "seat_decks", "unique_names"]


def open_set(name: str) -> CardSet:
    """The validated set named by folder name or path, with clear errors."""
    from cardsmith.cache.named_set import open_named_set

    return open_named_set(name)[1]


def load_set_checked(path: Path) -> CardSet:
    """The validated set at `path` (SetInvalid lists its errors)."""
    from cardsmith.sets.validate import load_set

    return load_set(path)


@dataclass(frozen=True)
class SetGameFactory:
    """Makes a set's Game in a worker process (a picklable recipe: the set's folder)."""

    path: Path

    def __call__(self) -> Game:
        return load_game(load_set_checked(self.path))


def resolve_deck(cardset: CardSet, ref: str) -> Path:
    """A deck named by path, or by file name (with or without extension) in the set's decks/ folder."""
    given = Path(ref)
    candidates = [given, cardset.path / "decks" / ref] + [cardset.path / "decks" / f"{ref}{s}" for s in DECK_SUFFIXES]
    for c in candidates:
        if c.is_file():
            return c
    known = [p.stem for p in deck_files(cardset.path)]
    hint = f"decks of {cardset.id}: {', '.join(known)}" if known else f"{cardset.id} has no decks/ folder; give a path to a deck file"
    raise CardsmithError(f"no deck '{ref}': neither {given} nor {cardset.path / 'decks' / ref}[.yaml] exists", hint=hint)


def load_checked_deck(cardset: CardSet, ref: str | Path) -> Deck:
    """Load a deck and refuse it, with the deck checker's messages, if it is illegal for the set."""
    from cardsmith.decks import check_deck, load_deck

    path = resolve_deck(cardset, str(ref))
    deck = load_deck(path, cardset)
    problems = check_deck(deck, cardset)
    if problems:
        def where(v: Any) -> str:
            line = deck.line_of(v.cards[0]) if v.cards and hasattr(deck, "line_of") else 0
            return f"{path}:{line}: " if line else ""
        lines = "\n".join(f"  - {where(v)}{v.message}" for v in problems)
        raise CardsmithError(f"deck {path} is not legal for {cardset.name}:\n{lines}",
                             hint=f"fix the deck (`cardsmith deck check {path}` lists every problem); only legal decks are played")
    return deck


def default_deck(cardset: CardSet) -> Path:
    """The deck a common-deck game deals from when no --deck is given: `decks/default.*`, else the
    set's only deck file."""
    files = deck_files(cardset.path)
    named = [p for p in files if p.stem.lower() == "default"]
    if named:
        return named[0]
    if len(files) == 1:
        return files[0]
    listed = ", ".join(p.stem for p in files) or "none"
    raise UsageError(f"{cardset.id} has {len(files)} deck files and none named default, so --players needs a --deck",
                     hint=f"name the deck every seat plays with --deck (decks: {listed}), or add decks/default.yaml")


def check_players(players: int | None, supported: tuple[int, int], game_name: str) -> int:
    """The table size `--players` asks for (the rules' smallest when not given); a UsageError
    when the rules do not seat that many."""
    lo, hi = supported
    seats = lo if players is None else players
    if not lo <= seats <= hi:
        allowed = f"{lo} players only" if lo == hi else f"{lo} to {hi} players"
        raise UsageError(f"--players {seats}: {game_name} is for {allowed}")
    return seats


def seat_decks(cardset: CardSet, refs: Sequence[str], players: int | None, supported: tuple[int, int]) -> list[Deck]:
    """One checked deck per seat from `--deck` (N times) and `--players N` (one deck, or the set's
    default deck, in every seat: KIT item 9, common-deck games)."""
    lo, hi = supported
    if players is not None:
        check_players(players, supported, str(cardset.rules))
    if players is not None and len(refs) > 1 and len(refs) != players:
        raise UsageError(f"--players {players} but {len(refs)} decks", hint="give one --deck per seat, or one deck for every seat")
    if players is not None:
        ref = refs[0] if refs else str(default_deck(cardset))
        deck = load_checked_deck(cardset, ref)
        return [deck] * players
    if not lo <= len(refs) <= hi:
        want = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise UsageError(f"give {want} decks (--deck A --deck B ...), not {len(refs)}",
                         hint="a mirror match names the same deck twice; --players N puts one deck in every seat")
    return [load_checked_deck(cardset, d) for d in refs]


def random_decks(cardset: CardSet, seed: int) -> list[Deck]:
    """One random legal deck per race or faction (two when the set has neither)."""
    from cardsmith.decks import random_deck

    groups = list(cardset.races) or list(cardset.factions)
    if not groups:
        return [replace(random_deck(cardset, seed=seed + i), name=f"random {i + 1}") for i in range(2)]
    return [replace(random_deck(cardset, seed=seed, faction=g), name=f"random {g}") for g in groups]


def deck_group(deck: Deck, cardset: CardSet) -> str | None:
    """The race (or faction) a deck belongs to: the one its cards name, None when they name none or several."""
    by_id = {c.id: c for c in cardset.cards}
    key = "race" if cardset.races else "faction"
    found = {getattr(by_id[c], key) for c in deck.cards() if c in by_id} - {None}
    return found.pop() if len(found) == 1 else None


def unique_names(decks: Sequence[Deck]) -> list[str]:
    """Deck names made distinct (a mirror match of one deck reads "terracorp" vs "terracorp (2)")."""
    names: list[str] = []
    seen: dict[str, int] = {}
    for d in decks:
        n = d.name or "deck"
        seen[n] = seen.get(n, 0) + 1
        names.append(n if seen[n] == 1 else f"{n} ({seen[n]})")
    return names


def read_position(path: Path, game: Game) -> tuple[dict[str, Any], GameState]:
    """Position data from a YAML/JSON file, and the state it gives (a clear error naming the file)."""
    from cardsmith.engine.kit import parse_position
    from cardsmith.engine.kit.shape import guarded
    from cardsmith.engine.registry import canonical

    from cardsmith.base.limits import MAX_POSITION_BYTES

    try:
        if Path(path).stat().st_size > MAX_POSITION_BYTES:
            raise CardsmithError(f"{path}: more than {MAX_POSITION_BYTES:,} bytes; a position file takes tens of kilobytes",
                                 hint="is this the right file? `cardsmith play ... --log-position FILE` writes one")
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CardsmithError(f"cannot read the position file {path}: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = parse_position(text)
        _check_position_size(data)
        if canonical(str(data["game"])) != canonical(game.rules.name):
            raise PositionError(f"the position is a {data['game']!r} game, not {game.rules.name!r}")
        # the net under the game's own checks: a value it does not expect is still the file's fault,
        # whether it breaks building the state or only shows in play
        state = guarded(lambda: game.from_position(data), _try_playing_from)
    except PositionError as e:
        raise CardsmithError(f"{path}: {e}", hint="each game's position format is in docs/rules/<set>.md (Positions); "
                             "`cardsmith play ... --log-position FILE` writes one to start from") from None
    except Exception as e:  # a value the game's own checks missed shows only in play
        raise CardsmithError(f"{path}: the game cannot be played from this position ({type(e).__name__}: {e})",
                             hint="if you edited the file, check the values you changed; a position that "
                                  "--log-position wrote and that fails here is a bug in the game's rules module") from None
    return data, state


def _check_position_size(data: Any) -> None:
    """A PositionError when the position holds more values than any game reaches (issue 32)."""
    from cardsmith.base.limits import MAX_POSITION_VALUES

    seen, stack = 0, [data]
    while stack:
        node = stack.pop()
        seen += 1
        if seen > MAX_POSITION_VALUES:
            raise PositionError(f"the position holds more than {MAX_POSITION_VALUES:,} values (cards, counters...); "
                                "no game reaches that many")
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _try_playing_from(state: GameState, steps: int = 20_000) -> None:
    """Play a copy of `state` with random legal moves, so a position no game can continue from is
    reported before the games start (in a worker, mid-run, it would be an internal error)."""
    import random

    rng, probe = random.Random(0), state.clone()
    for _ in range(steps):
        if probe.is_terminal():
            return
        seat = probe.to_act()[0]
        probe.apply(rng.choice(probe.legal_actions(seat)), seat)


def position_decks(state: GameState) -> list[Deck]:
    """Stand-in decks for a game continued from a position (named by seat; no cards to count)."""
    return [Deck(name=f"seat {s}", set_id="", zones=frozen_map({})) for s in range(state.seats)]
